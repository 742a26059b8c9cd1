"""``/tarot``: the game's slash group (new, join, leave, start, addbot, kick, cancel, hand,
rules), as a Cog loaded as an extension. The seasons Cog adds ``leaderboard``, ``stats`` and
``season …`` to this group (a tarot board per server season)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.tarot import verbs
from bot.i18n import lang_of, ls, t
from bot.tables import LiveTable, TableError
from bot.ui.common import bot_of, reply, seat_name
from tamalou.games.tarot import AI_LEVELS, DEFAULT_PRESET, PRESETS

GAME = "tarot"

tarot_group = app_commands.Group(
    name=ls("tarot", "cmd.tarot"),
    description=ls("Play French tarot in this channel", "cmd.tarot.desc"),
    guild_only=True,
)


def guild_ids(interaction: discord.Interaction) -> tuple[int, int]:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise TableError("guild_only")
    return interaction.guild_id, interaction.channel_id


def here(interaction: discord.Interaction) -> tuple[str, LiveTable]:
    """The user's language and the channel's live tarot table (or a refusal)."""
    service = bot_of(interaction).service
    channel = guild_ids(interaction)[1]
    if channel not in service.by_channel:
        raise TableError("no_tarot_table_here")
    table = service.table_in(channel)
    if table.row.game != GAME:
        raise TableError("other_game_here")
    return lang_of(interaction.locale), table


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
    bot = bot_of(interaction)
    lang = lang_of(interaction.locale)
    guild_id, channel_id = guild_ids(interaction)
    if preset not in PRESETS:
        raise TableError("bad_preset")
    if sans_chien and PRESETS[preset].max_players != 3:
        raise TableError("sans_chien_three")  # ruling 10: offered at three players only
    settings: dict[str, Any] = {"preset": preset, "sans_chien": sans_chien, "rounds": rounds}
    await interaction.response.defer(ephemeral=True)
    table = await bot.service.open_table(
        guild_id, channel_id, interaction.user.id, interaction.user.display_name, settings, GAME
    )
    await bot.presenter.table_changed(table, at_once=True)
    await reply(interaction, t(lang, "ok.opened", id=table.id))


@tarot_group.command(
    name=ls("join", "cmd.join"), description=ls("Sit at the table of this channel", "cmd.join.desc")
)
async def cmd_join(interaction: discord.Interaction) -> None:
    lang, table = here(interaction)
    await bot_of(interaction).service.join(
        table, interaction.user.id, interaction.user.display_name
    )
    await reply(interaction, t(lang, "ok.joined", id=table.id))


@tarot_group.command(
    name=ls("leave", "cmd.leave"),
    description=ls("Leave the table before it starts", "cmd.leave.desc"),
)
async def cmd_leave(interaction: discord.Interaction) -> None:
    lang, table = here(interaction)
    await bot_of(interaction).service.leave(table, interaction.user.id)
    await reply(interaction, t(lang, "ok.left", id=table.id))


@tarot_group.command(
    name=ls("start", "cmd.start"), description=ls("Deal the first round (host)", "cmd.start.desc")
)
async def cmd_start(interaction: discord.Interaction) -> None:
    lang, table = here(interaction)
    await interaction.response.defer(ephemeral=True)
    await bot_of(interaction).service.start(table, interaction.user.id)
    await reply(interaction, t(lang, "tarot.ok.started", id=table.id))


@tarot_group.command(
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


@tarot_group.command(
    name=ls("kick", "cmd.kick"),
    description=ls("Remove a player from the lobby (host)", "cmd.kick.desc"),
)
@app_commands.describe(seat=ls("Seat number to free", "opt.seat"))
@app_commands.rename(seat=ls("seat", "optname.seat"))
async def cmd_kick(interaction: discord.Interaction, seat: app_commands.Range[int, 1, 8]) -> None:
    lang, table = here(interaction)
    removed = await bot_of(interaction).service.kick(table, interaction.user.id, seat - 1)
    await reply(interaction, t(lang, "ok.kicked", name=seat_name(removed, lang)))


@tarot_group.command(
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


@tarot_group.command(
    name=ls("hand", "cmd.hand"), description=ls("Open your private panel again", "cmd.hand.desc")
)
async def cmd_hand(interaction: discord.Interaction) -> None:
    lang, table = here(interaction)
    seat = bot_of(interaction).service.seat_for(table, interaction.user.id)
    await interaction.response.defer(ephemeral=True)
    await verbs.show_panel(interaction, table, seat, lang, edit=False)


@tarot_group.command(
    name=ls("rules", "cmd.rules"), description=ls("The rules in short", "cmd.rules.desc")
)
async def cmd_rules(interaction: discord.Interaction) -> None:
    await reply(interaction, t(lang_of(interaction.locale), "tarot.rules.text"))


class TarotCog(commands.Cog):
    """Owns the ``/tarot`` group while loaded."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.tree.add_command(tarot_group)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(tarot_group.name)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TarotCog(bot))
