"""``/tamalou``: the game's slash group (new, join, leave, start, addbot, kick, cancel, hand,
rules), as a Cog loaded as an extension. The server settings (``bot.cogs.settings``) and the
seasons commands (``bot.cogs.seasons``) add their commands to the same group."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.tamalou import variants
from bot.i18n import lang_of, ls, t
from bot.tables import LiveTable, TableError
from bot.ui.common import bot_of, reply, seat_name
from tamalou.games.tamalou import AI_LEVELS
from tamalou.games.tamalou.rules import TAMALOU

GAME = "tamalou"

tamalou_group = app_commands.Group(
    name=ls("tamalou", "cmd.tamalou"),
    description=ls("Play Tamalou, the card game, in this channel", "cmd.tamalou.desc"),
    guild_only=True,
)


def guild_ids(interaction: discord.Interaction) -> tuple[int, int]:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise TableError("guild_only")
    return interaction.guild_id, interaction.channel_id


def here(interaction: discord.Interaction) -> tuple[str, LiveTable]:
    """The user's language and the live table of the channel (or a refusal)."""
    table = bot_of(interaction).service.table_in(guild_ids(interaction)[1])
    return lang_of(interaction.locale), table


@tamalou_group.command(
    name=ls("new", "cmd.new"), description=ls("Open a table in this channel", "cmd.new.desc")
)
@app_commands.describe(
    target=ls("Score that ends the match (default 100)", "opt.target"),
    turn_seconds=ls("Seconds per turn (default 45)", "opt.turn_seconds"),
    max_players=ls("Most players at the table (2 to 5)", "opt.max_players"),
    variant=ls("The house rule the table plays (default: the server's)", "opt.variant"),
)
@app_commands.rename(
    target=ls("target", "optname.target"),
    turn_seconds=ls("turn_seconds", "optname.turn_seconds"),
    max_players=ls("max_players", "optname.max_players"),
    variant=ls("variant", "optname.variant"),
)
@app_commands.choices(variant=variants.choices())
async def cmd_new(
    interaction: discord.Interaction,
    target: app_commands.Range[int, 10, 1000] | None = None,
    turn_seconds: app_commands.Range[int, 15, 300] | None = None,
    max_players: app_commands.Range[int, 2, 5] | None = None,
    variant: str | None = None,
) -> None:
    bot = bot_of(interaction)
    lang = lang_of(interaction.locale)
    guild_id, channel_id = guild_ids(interaction)
    defaults = await bot.storage.guild_settings(guild_id)
    # R-V: the variant chosen, else the server's default; a setting left out keeps the
    # variant's own value (cabo plays to 50, koubo seats 4)
    chosen = variants.canonical(variant or defaults.get("variant"))
    settings: dict[str, Any] = {
        "variant": chosen,
        "turn_seconds": turn_seconds or defaults.get("turn_seconds") or TAMALOU.turn_ms // 1000,
    }
    if target is not None:
        settings["target"] = target
    if max_players is not None:
        settings["max_players"] = max_players
    await interaction.response.defer(ephemeral=True)
    table = await bot.service.open_table(
        guild_id, channel_id, interaction.user.id, interaction.user.display_name, settings, GAME
    )
    await bot.presenter.table_changed(table, at_once=True)
    await reply(interaction, t(lang, "ok.opened", id=table.id))


@tamalou_group.command(
    name=ls("join", "cmd.join"), description=ls("Sit at the table of this channel", "cmd.join.desc")
)
async def cmd_join(interaction: discord.Interaction) -> None:
    lang, table = here(interaction)
    await bot_of(interaction).service.join(
        table, interaction.user.id, interaction.user.display_name
    )
    await reply(interaction, t(lang, "ok.joined", id=table.id))


@tamalou_group.command(
    name=ls("leave", "cmd.leave"),
    description=ls("Leave the table before it starts", "cmd.leave.desc"),
)
async def cmd_leave(interaction: discord.Interaction) -> None:
    lang, table = here(interaction)
    await bot_of(interaction).service.leave(table, interaction.user.id)
    await reply(interaction, t(lang, "ok.left", id=table.id))


@tamalou_group.command(
    name=ls("start", "cmd.start"), description=ls("Deal the first round (host)", "cmd.start.desc")
)
async def cmd_start(interaction: discord.Interaction) -> None:
    lang, table = here(interaction)
    await interaction.response.defer(ephemeral=True)
    await bot_of(interaction).service.start(table, interaction.user.id)
    await reply(interaction, t(lang, "ok.started", id=table.id))


@tamalou_group.command(
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


@tamalou_group.command(
    name=ls("kick", "cmd.kick"),
    description=ls("Remove a player from the lobby (host)", "cmd.kick.desc"),
)
@app_commands.describe(seat=ls("Seat number to free", "opt.seat"))
@app_commands.rename(seat=ls("seat", "optname.seat"))
async def cmd_kick(interaction: discord.Interaction, seat: app_commands.Range[int, 1, 8]) -> None:
    lang, table = here(interaction)
    removed = await bot_of(interaction).service.kick(table, interaction.user.id, seat - 1)
    await reply(interaction, t(lang, "ok.kicked", name=seat_name(removed, lang)))


@tamalou_group.command(
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


@tamalou_group.command(
    name=ls("hand", "cmd.hand"), description=ls("Open your private panel again", "cmd.hand.desc")
)
async def cmd_hand(interaction: discord.Interaction) -> None:
    lang, table = here(interaction)
    bot = bot_of(interaction)
    seat = bot.service.seat_for(table, interaction.user.id)
    await interaction.response.defer(ephemeral=True)
    await bot.presenter.show_panel(interaction, table, seat, lang, edit=False)


@tamalou_group.command(
    name=ls("rules", "cmd.rules"), description=ls("The rules in short", "cmd.rules.desc")
)
@app_commands.describe(variant=ls("The house rule the table plays", "opt.variant"))
@app_commands.rename(variant=ls("variant", "optname.variant"))
@app_commands.choices(variant=variants.choices())
async def cmd_rules(interaction: discord.Interaction, variant: str | None = None) -> None:
    lang = lang_of(interaction.locale)
    text = variants.rules_text(variants.canonical(variant), lang)
    if variant is None:  # the default rules, and where to read about the others
        names = ", ".join(variants.display_name(v, lang) for v in variants.VARIANTS)
        text += "\n\n" + t(lang, "variants.list", names=names)
    await reply(interaction, text)


class TamalouCog(commands.Cog):
    """Owns the ``/tamalou`` group while loaded."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.tree.add_command(tamalou_group)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(tamalou_group.name)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TamalouCog(bot))
