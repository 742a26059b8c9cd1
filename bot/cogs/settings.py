"""``/tamalou settings``: the server's language, default turn time and default variant
(Manage Server)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.tamalou import variants
from bot.games.tamalou.commands import guild_ids
from bot.i18n import lang_of, ls, t
from bot.ui.common import bot_of, reply
from tamalou.games.tamalou.rules import TAMALOU


@app_commands.command(
    name=ls("settings", "cmd.settings"),
    description=ls("Server language and default turn time (Manage Server)", "cmd.settings.desc"),
)
@app_commands.describe(
    language=ls("Language of public messages", "opt.language"),
    turn_seconds=ls("Default seconds per turn", "opt.turn_seconds"),
    variant=ls("Default variant of new tables", "opt.default_variant"),
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
)
async def cmd_settings(
    interaction: discord.Interaction,
    language: str | None = None,
    turn_seconds: app_commands.Range[int, 15, 300] | None = None,
    variant: str | None = None,
) -> None:
    bot = bot_of(interaction)
    guild_id, _ = guild_ids(interaction)
    chosen = variants.canonical(variant) if variant else None
    await bot.storage.set_guild_settings(guild_id, language, turn_seconds, chosen)
    bot.guild_languages.pop(guild_id, None)
    current = await bot.storage.guild_settings(guild_id)
    lang = lang_of(interaction.locale)
    text = t(
        lang,
        "ok.settings",
        language=current.get("language") or await bot.guild_language(guild_id),
        seconds=current.get("turn_seconds") or TAMALOU.turn_ms // 1000,
    )
    default = variants.canonical(current.get("variant"))
    text += " " + t(lang, "ok.settings_variant", variant=variants.display_name(default, lang))
    await reply(interaction, text)


class SettingsCog(commands.Cog):
    """Puts ``settings`` in the ``/tamalou`` group on the tree while loaded."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.group: app_commands.Group | None = None

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("tamalou")
        if isinstance(group, app_commands.Group) and group.get_command(cmd_settings.name) is None:
            group.add_command(cmd_settings)
            self.group = group

    async def cog_unload(self) -> None:
        if self.group is not None:
            self.group.remove_command(cmd_settings.name)
            self.group = None


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SettingsCog(bot))
