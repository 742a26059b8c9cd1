"""``/tamalou settings``: the server's language, default turn time and default variant,
whether tables play in threads and how long a turn waits before its player is pinged
(Manage Server). A member's own turn-ping choice (``ping``) is a seat command of every
game's group (``bot/ui/lobby.py``)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.tamalou import options, variants
from bot.games.tamalou.options import TURN_MAX_S, TURN_MIN_S
from bot.i18n import lang_of, ls, t
from bot.ui.common import bot_of, reply
from bot.ui.lobby import guild_ids
from tamalou.games.tamalou.rules import TAMALOU

#: the turn-ping delay a server may choose (seconds): a few seconds at least, so that a
#: player who plays at once is never pinged
PING_AFTER_MIN_S, PING_AFTER_MAX_S = 5, 600


@app_commands.command(
    name=ls("settings", "cmd.settings"),
    description=ls("Server language and default turn time (Manage Server)", "cmd.settings.desc"),
)
@app_commands.describe(
    language=ls("Language of public messages", "opt.language"),
    turn_seconds=ls("Default seconds per turn", "opt.turn_seconds"),
    variant=ls("Default variant of new tables", "opt.default_variant"),
    threads=ls("Each table in its own thread (on by default)", "opt.threads"),
    ping_after=ls(
        "Seconds a turn waits before its player is pinged (default 10)", "opt.ping_after"
    ),
)
@app_commands.choices(
    language=[
        app_commands.Choice(name="Français", value="fr"),
        app_commands.Choice(name="English", value="en"),
    ],
    variant=variants.choices(),
)
@app_commands.default_permissions(manage_guild=True)
@app_commands.checks.has_permissions(manage_guild=True)
@app_commands.rename(
    language=ls("language", "optname.language"),
    turn_seconds=ls("turn_seconds", "optname.turn_seconds"),
    variant=ls("variant", "optname.variant"),
    threads=ls("threads", "optname.threads"),
    ping_after=ls("ping_after", "optname.ping_after"),
)
async def cmd_settings(
    interaction: discord.Interaction,
    language: str | None = None,
    turn_seconds: app_commands.Range[int, TURN_MIN_S, TURN_MAX_S] | None = None,
    variant: str | None = None,
    threads: bool | None = None,
    ping_after: app_commands.Range[int, PING_AFTER_MIN_S, PING_AFTER_MAX_S] | None = None,
) -> None:
    bot = bot_of(interaction)
    guild_id, _ = guild_ids(interaction)
    if turn_seconds is not None:
        options.checked("turn_seconds", turn_seconds)  # never store a default that fails
    chosen = variants.canonical(variant) if variant else None
    await bot.storage.set_guild_settings(
        guild_id, language, turn_seconds, chosen, threads=threads, ping_after_s=ping_after
    )
    bot.guild_languages.pop(guild_id, None)
    bot.presenter.settings_changed(guild_id)
    current = await bot.storage.guild_settings(guild_id)
    lang = lang_of(interaction.locale)
    stored = current.get("turn_seconds")
    seconds = stored if options.in_range("turn_seconds", stored) else TAMALOU.turn_ms // 1000
    public = current.get("language") or await bot.guild_language(guild_id)
    text = t(lang, "ok.settings", language=t(lang, f"language.{public}"), seconds=seconds)
    default = variants.canonical(current.get("variant"))
    text += " " + t(lang, "ok.settings_variant", variant=variants.display_name(default, lang))
    on = current.get("threads", True)
    text += " " + t(lang, "ok.settings_threads.on" if on else "ok.settings_threads.off")
    wait = current.get("ping_after_s", bot.config.ping_after_s)
    text += " " + t(lang, "ok.settings_ping", seconds=f"{float(wait):g}")
    await reply(interaction, text)


#: the commands this Cog puts in the ``/tamalou`` group
COMMANDS: tuple[app_commands.Command[Any, Any, None], ...] = (cmd_settings,)


class SettingsCog(commands.Cog):
    """Puts ``settings`` in the ``/tamalou`` group on the tree while loaded."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.group: app_commands.Group | None = None

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("tamalou")
        if not isinstance(group, app_commands.Group):
            return
        for command in COMMANDS:
            if group.get_command(command.name) is None:
                group.add_command(command)
        self.group = group

    async def cog_unload(self) -> None:
        if self.group is not None:
            for command in COMMANDS:
                self.group.remove_command(command.name)
            self.group = None


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SettingsCog(bot))
