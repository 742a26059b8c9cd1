"""``/tamalou``: the game's slash group (new, join, leave, start, addbot, kick, cancel, hand,
rules), as a Cog loaded as an extension. The server settings (``bot.cogs.settings``) and the
seasons commands (``bot.cogs.seasons``) add their commands to the same group."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import games
from bot.games.tamalou import options, variants
from bot.games.tamalou.options import (
    PLAYERS_MAX,
    PLAYERS_MIN,
    TARGET_MAX,
    TARGET_MIN,
    TURN_MAX_S,
    TURN_MIN_S,
)
from bot.i18n import lang_of, ls, t
from bot.tables import TableError
from bot.ui.kit import bot_of, defer, reply
from bot.ui.lobby import add_seat_commands, group_cog, guild_ids, open_lobby, opened_text
from tamalou.games.tamalou import AI_LEVELS

GAME = "tamalou"

tamalou_group = app_commands.Group(
    name=ls("tamalou", "cmd.tamalou"),
    description=ls("Play Tamalou, the card game, in this channel", "cmd.tamalou.desc"),
    guild_only=True,
)


@tamalou_group.command(
    name=ls("new", "cmd.new"), description=ls("Open a table in this channel", "cmd.new.desc")
)
@app_commands.describe(
    target=ls("Score that ends the match (default 100)", "opt.target"),
    turn_seconds=ls("Seconds per turn (default 45)", "opt.turn_seconds"),
    max_players=ls("Most players at the table (default 5)", "opt.max_players"),
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
    target: app_commands.Range[int, TARGET_MIN, TARGET_MAX] | None = None,
    turn_seconds: app_commands.Range[int, TURN_MIN_S, TURN_MAX_S] | None = None,
    max_players: app_commands.Range[int, PLAYERS_MIN, PLAYERS_MAX] | None = None,
    variant: str | None = None,
) -> None:
    bot = bot_of(interaction)
    lang = lang_of(interaction.locale)
    guild_id, _ = guild_ids(interaction)
    defaults = await bot.storage.guild_settings(guild_id)
    stored = games.plugin(GAME).server_defaults(defaults)["turn_seconds"]
    given = {"target": target, "turn_seconds": turn_seconds, "max_players": max_players}
    # R-V: the variant chosen, else the server's default; a setting left out keeps the
    # variant's own value (cabo plays to 50, koubo seats 4)
    settings: dict[str, Any] = {
        "variant": variants.canonical(variant or defaults.get("variant")),
        "turn_seconds": stored,
    }
    settings.update(
        (name, options.checked(name, value))  # Discord checks them too; this says why
        for name, value in given.items()
        if value is not None
    )
    rules = variants.VARIANTS[settings["variant"]]
    if target is not None and not rules.uses_target:  # koubo: 10 rounds, no target
        raise TableError(
            "target_unused",
            option="target",
            variant=variants.display_name(rules.name, lang),
            rounds=rules.max_rounds or 0,
        )
    await defer(interaction)
    table, note = await open_lobby(interaction, settings, GAME, lang)
    await reply(interaction, opened_text(table, lang) + note)


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


add_seat_commands(tamalou_group, GAME, AI_LEVELS)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(group_cog(tamalou_group, "TamalouCog")(bot))
