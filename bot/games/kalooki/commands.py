"""``/kalooki``: the game's slash group (new, join, leave, start, addbot, kick, cancel, hand,
rules), as a Cog loaded as an extension. The seasons commands (``bot.cogs.seasons``) add
``leaderboard``, ``stats`` and ``season …`` to every game's group found on the tree."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.kalooki import verbs
from bot.i18n import lang_of, ls, t
from bot.tables import LiveTable, TableError
from bot.ui.common import bot_of, reply, seat_name
from tamalou.games.kalooki import AI_LEVELS, PRESETS
from tamalou.games.kalooki.rules import KALOOKI

GAME = "kalooki"


def make_group() -> app_commands.Group:
    return app_commands.Group(
        name=ls("kalooki", "cmd.kalooki"),
        description=ls("Play Kalooki (Jamaican rummy) in this channel", "cmd.kalooki.desc"),
        guild_only=True,
    )


kalooki_group = make_group()


def guild_ids(interaction: discord.Interaction) -> tuple[int, int]:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise TableError("guild_only")
    return interaction.guild_id, interaction.channel_id


def here(interaction: discord.Interaction) -> tuple[str, LiveTable]:
    """The user's language and the live Kalooki table of the channel (or a refusal)."""
    try:
        table = bot_of(interaction).service.table_in(guild_ids(interaction)[1])
    except TableError as refusal:
        if refusal.reason == "no_table_here":
            raise TableError("no_kalooki_table") from None
        raise
    if table.row.game != GAME:
        raise TableError("other_game", game=table.row.game)
    return lang_of(interaction.locale), table


@kalooki_group.command(
    name=ls("new", "cmd.new"), description=ls("Open a table in this channel", "cmd.new.desc")
)
@app_commands.describe(
    preset=ls("Which match: 9 rounds, Baby (3) or the first 4", "kalooki.opt.preset"),
    turn_seconds=ls("Seconds per turn (default 90)", "kalooki.opt.turn_seconds"),
    max_players=ls("Most players at the table (2 to 8)", "kalooki.opt.max_players"),
    call_seconds=ls(
        "Seconds to call a discard before the next draw (default 3)", "kalooki.opt.call_seconds"
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
    bot = bot_of(interaction)
    lang = lang_of(interaction.locale)
    guild_id, channel_id = guild_ids(interaction)
    settings: dict[str, Any] = {
        "preset": preset,
        "turn_seconds": turn_seconds or KALOOKI.turn_clock_s,
        "max_players": max_players or KALOOKI.max_players,
        "call_seconds": KALOOKI.call_window_s if call_seconds is None else call_seconds,
    }
    await interaction.response.defer(ephemeral=True)
    table = await bot.service.open_table(
        guild_id, channel_id, interaction.user.id, interaction.user.display_name, settings, GAME
    )
    await bot.presenter.table_changed(table, at_once=True)
    await reply(interaction, t(lang, "ok.opened", id=table.id))


@kalooki_group.command(
    name=ls("join", "cmd.join"), description=ls("Sit at the table of this channel", "cmd.join.desc")
)
async def cmd_join(interaction: discord.Interaction) -> None:
    lang, table = here(interaction)
    await bot_of(interaction).service.join(
        table, interaction.user.id, interaction.user.display_name
    )
    await reply(interaction, t(lang, "ok.joined", id=table.id))


@kalooki_group.command(
    name=ls("leave", "cmd.leave"),
    description=ls("Leave the table before it starts", "cmd.leave.desc"),
)
async def cmd_leave(interaction: discord.Interaction) -> None:
    lang, table = here(interaction)
    await bot_of(interaction).service.leave(table, interaction.user.id)
    await reply(interaction, t(lang, "ok.left", id=table.id))


@kalooki_group.command(
    name=ls("start", "cmd.start"), description=ls("Deal the first round (host)", "cmd.start.desc")
)
async def cmd_start(interaction: discord.Interaction) -> None:
    lang, table = here(interaction)
    await interaction.response.defer(ephemeral=True)
    await bot_of(interaction).service.start(table, interaction.user.id)
    await reply(interaction, t(lang, "ok.started", id=table.id))


@kalooki_group.command(
    name=ls("addbot", "cmd.addbot"), description=ls("Seat an AI player (host)", "cmd.addbot.desc")
)
@app_commands.describe(level=ls("How strong the AI plays", "opt.level"))
@app_commands.choices(
    level=[app_commands.Choice(name=ls(lv, f"level.{lv}"), value=lv) for lv in AI_LEVELS]
)
@app_commands.rename(level=ls("level", "optname.level"))
async def cmd_addbot(interaction: discord.Interaction, level: str = "medium") -> None:
    lang, table = here(interaction)
    seat = await bot_of(interaction).service.add_ai(table, interaction.user.id, level)
    await reply(interaction, t(lang, "ok.ai_added", name=seat_name(seat, lang)))


@kalooki_group.command(
    name=ls("kick", "cmd.kick"),
    description=ls("Remove a player from the lobby (host)", "cmd.kick.desc"),
)
@app_commands.describe(seat=ls("Seat number to free", "opt.seat"))
@app_commands.rename(seat=ls("seat", "optname.seat"))
async def cmd_kick(interaction: discord.Interaction, seat: app_commands.Range[int, 1, 8]) -> None:
    lang, table = here(interaction)
    removed = await bot_of(interaction).service.kick(table, interaction.user.id, seat - 1)
    await reply(interaction, t(lang, "ok.kicked", name=seat_name(removed, lang)))


@kalooki_group.command(
    name=ls("cancel", "cmd.cancel"),
    description=ls("Close the table of this channel (host or Manage Server)", "cmd.cancel.desc"),
)
async def cmd_cancel(interaction: discord.Interaction) -> None:
    lang, table = here(interaction)
    perms = interaction.permissions
    if table.row.host_id != interaction.user.id and not perms.manage_guild:
        raise TableError("host_only")
    await interaction.response.defer(ephemeral=True)
    await bot_of(interaction).service.cancel(table, "cancelled")
    await reply(interaction, t(lang, "ok.cancelled", id=table.id))


@kalooki_group.command(
    name=ls("hand", "cmd.hand"), description=ls("Open your private panel again", "cmd.hand.desc")
)
async def cmd_hand(interaction: discord.Interaction) -> None:
    lang, table = here(interaction)
    seat = bot_of(interaction).service.seat_for(table, interaction.user.id)
    await verbs.send_panel(interaction, table, seat, lang, edit=False)


@kalooki_group.command(
    name=ls("rules", "cmd.rules"), description=ls("The rules in short", "cmd.rules.desc")
)
async def cmd_rules(interaction: discord.Interaction) -> None:
    await reply(interaction, t(lang_of(interaction.locale), "kalooki.rules.text"))


class KalookiCog(commands.Cog):
    """Owns the ``/kalooki`` group while loaded."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.tree.add_command(kalooki_group)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(kalooki_group.name)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(KalookiCog(bot))
