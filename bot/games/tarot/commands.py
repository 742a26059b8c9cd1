"""``/tarot``: the game's slash group (new, join, leave, start, addbot, kick, cancel, hand,
rules), as a Cog loaded as an extension. The seasons Cog adds ``leaderboard``, ``stats`` and
``season …`` to this group (a tarot board per server season)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import games
from bot.i18n import lang_of, ls, t
from bot.tables import TableError
from bot.ui.kit import bot_of, defer, reply
from bot.ui.lobby import add_seat_commands, group_cog, guild_ids, open_lobby, opened_text
from tamalou.games.tarot import AI_LEVELS, DEFAULT_PRESET, PRESETS

GAME = "tarot"

tarot_group = app_commands.Group(
    name=ls("tarot", "cmd.tarot"),
    description=ls("Play French tarot in this channel", "cmd.tarot.desc"),
    guild_only=True,
)


@tarot_group.command(
    name=ls("new", "cmd.new"), description=ls("Open a table in this channel", "cmd.new.desc")
)
@app_commands.describe(
    preset=ls("tarot (3 to 5 players), tarot3 or tarot5", "opt.tarot_preset"),
    sans_chien=ls("No dog: every card dealt (three players only)", "opt.tarot_sans_chien"),
    rounds=ls("Deals per player in the match (1 to 5)", "opt.tarot_rounds"),
)
@app_commands.choices(
    preset=[app_commands.Choice(name=ls(p, f"tarot.preset.{p}"), value=p) for p in PRESETS]
)
@app_commands.rename(
    preset=ls("preset", "optname.tarot_preset"),
    sans_chien=ls("sans_chien", "optname.tarot_sans_chien"),
    rounds=ls("rounds", "optname.tarot_rounds"),
)
async def cmd_new(
    interaction: discord.Interaction,
    preset: str = DEFAULT_PRESET,
    sans_chien: bool = False,
    rounds: app_commands.Range[int, 1, 5] = 1,
) -> None:
    lang = lang_of(interaction.locale)
    guild_ids(interaction)  # a server channel only
    if preset not in PRESETS:
        raise TableError("bad_preset")
    if sans_chien and not PRESETS[preset].offers_sans_chien:
        raise TableError("sans_chien_three")  # the rules model's answer (ruling 10)
    settings: dict[str, Any] = {"preset": preset, "sans_chien": sans_chien, "rounds": rounds}
    stored = await bot_of(interaction).storage.guild_settings(interaction.guild_id or 0)
    settings.update(games.plugin(GAME).server_defaults(stored))  # /cardsadmin tarot
    await defer(interaction)
    table, note = await open_lobby(interaction, settings, GAME, lang)
    await reply(interaction, opened_text(table, lang) + note)


@tarot_group.command(
    name=ls("rules", "cmd.rules"), description=ls("The rules in short", "cmd.rules.desc")
)
async def cmd_rules(interaction: discord.Interaction) -> None:
    await reply(interaction, t(lang_of(interaction.locale), "tarot.rules.text"))


add_seat_commands(tarot_group, GAME, AI_LEVELS, started="tarot.ok.started")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(group_cog(tarot_group, "TarotCog")(bot))
