"""``/tamalou settings``: the server's language and default turn time (Manage Server)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.tamalou import options
from bot.games.tamalou.commands import guild_ids, tamalou_group
from bot.games.tamalou.options import TURN_MAX_S, TURN_MIN_S
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
)
@app_commands.choices(
    language=[
        app_commands.Choice(name="Français", value="fr"),
        app_commands.Choice(name="English", value="en"),
    ]
)
@app_commands.default_permissions(manage_guild=True)
@app_commands.checks.has_permissions(manage_guild=True)
@app_commands.rename(
    language=ls("language", "optname.language"),
    turn_seconds=ls("turn_seconds", "optname.turn_seconds"),
)
async def cmd_settings(
    interaction: discord.Interaction,
    language: str | None = None,
    turn_seconds: app_commands.Range[int, TURN_MIN_S, TURN_MAX_S] | None = None,
) -> None:
    bot = bot_of(interaction)
    guild_id, _ = guild_ids(interaction)
    if turn_seconds is not None:
        options.checked("turn_seconds", turn_seconds)  # never store a default that fails
    await bot.storage.set_guild_settings(guild_id, language, turn_seconds)
    bot.guild_languages.pop(guild_id, None)
    current = await bot.storage.guild_settings(guild_id)
    lang = lang_of(interaction.locale)
    stored = current.get("turn_seconds")
    seconds = stored if options.in_range("turn_seconds", stored) else TAMALOU.turn_ms // 1000
    public = current.get("language") or await bot.guild_language(guild_id)
    text = t(lang, "ok.settings", language=t(lang, f"language.{public}"), seconds=seconds)
    await reply(interaction, text)


class SettingsCog(commands.Cog):
    """Puts ``settings`` in the ``/tamalou`` group while loaded."""

    async def cog_load(self) -> None:
        if tamalou_group.get_command(cmd_settings.name) is None:
            tamalou_group.add_command(cmd_settings)

    async def cog_unload(self) -> None:
        tamalou_group.remove_command(cmd_settings.name)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SettingsCog())
