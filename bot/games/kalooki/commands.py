"""``/kalooki``: the game's slash group (new, join, leave, start, addbot, kick, cancel, hand,
rules), as a Cog loaded as an extension. The seasons commands (``bot.cogs.seasons``) add
``leaderboard``, ``stats`` and ``season …`` to every game's group found on the tree."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import games
from bot.i18n import lang_of, ls, t
from bot.ui.kit import bot_of, defer, reply
from bot.ui.lobby import add_seat_commands, group_cog, guild_ids, open_lobby, opened_text
from tamalou.games.kalooki import AI_LEVELS, PRESETS
from tamalou.games.kalooki.rules import KALOOKI

GAME = "kalooki"


kalooki_group = app_commands.Group(
    name=ls("kalooki", "cmd.kalooki"),
    description=ls("Play Kalooki (Jamaican rummy) in this channel", "cmd.kalooki.desc"),
    guild_only=True,
)


@kalooki_group.command(
    name=ls("new", "cmd.new"), description=ls("Open a table in this channel", "cmd.new.desc")
)
@app_commands.describe(
    preset=ls("Which match: 9 rounds, Baby (3) or the first 4", "kalooki.opt.preset"),
    turn_seconds=ls(
        "Seconds per turn (default: the server's, else 90)", "kalooki.opt.turn_seconds"
    ),
    max_players=ls("Most players at the table (2 to 8)", "kalooki.opt.max_players"),
    call_seconds=ls(
        "Seconds to call a discard before the next draw (default: the server's, else 3)",
        "kalooki.opt.call_seconds",
    ),
)
@app_commands.choices(
    preset=[app_commands.Choice(name=ls(p, f"kalooki.preset.{p}"), value=p) for p in PRESETS]
)
@app_commands.rename(
    preset=ls("preset", "optname.preset"),
    turn_seconds=ls("turn_seconds", "optname.turn_seconds"),
    max_players=ls("max_players", "optname.max_players"),
    call_seconds=ls("call_seconds", "optname.call_seconds"),
)
async def cmd_new(
    interaction: discord.Interaction,
    preset: str = "kalooki",
    turn_seconds: app_commands.Range[int, 15, 300] | None = None,
    max_players: app_commands.Range[int, 2, 8] | None = None,
    call_seconds: app_commands.Range[int, 0, 10] | None = None,
) -> None:
    lang = lang_of(interaction.locale)
    guild_ids(interaction)  # a server channel only
    # an option left out: the server's default (/cardsadmin kalooki), else the game's
    stored = await bot_of(interaction).storage.guild_settings(interaction.guild_id or 0)
    defaults = games.plugin(GAME).server_defaults(stored)
    if turn_seconds is None:
        turn_seconds = defaults["turn_seconds"]
    if call_seconds is None:
        call_seconds = defaults["call_seconds"]
    settings: dict[str, Any] = {
        "preset": preset,
        "turn_seconds": turn_seconds,
        "max_players": max_players or KALOOKI.max_players,
        "call_seconds": call_seconds,
    }
    await defer(interaction)
    table, note = await open_lobby(interaction, settings, GAME, lang)
    await reply(interaction, opened_text(table, lang) + note)


@kalooki_group.command(
    name=ls("rules", "cmd.rules"), description=ls("The rules in short", "cmd.rules.desc")
)
async def cmd_rules(interaction: discord.Interaction) -> None:
    await reply(interaction, t(lang_of(interaction.locale), "kalooki.rules.text"))


add_seat_commands(kalooki_group, GAME, AI_LEVELS)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(group_cog(kalooki_group, "KalookiCog")(bot))
