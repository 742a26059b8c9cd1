"""``/cardsadmin``: the server's administration of every card game, one top-level command.

Discord hides a command from members by ``default_member_permissions`` only at the top
level, so the admin subcommands that lived in each game's group were shown to everyone and
refused after a pick. They live here, Manage Server by default (a server may grant the
command to other roles in its Integrations settings; each subcommand still checks Manage
Server): the server's settings for every game, each game's defaults, the role allowed to
open tables, seasons and tournament creation and export. The old subcommands answer where
they went for one release (``bot/ui/moved.py``).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.tamalou import options, variants
from bot.games.tamalou.options import TURN_MAX_S, TURN_MIN_S
from bot.i18n import lang_of, ls, t
from bot.seasons.commands import announce, export_season, guild_of, list_seasons
from bot.tournaments.commands import create_tournament, export_tournament
from bot.ui.kit import bot_of, reply
from bot.ui.lobby import guild_ids
from tamalou.games.kalooki.rules import KALOOKI
from tamalou.games.tamalou.rules import TAMALOU
from tamalou.games.tarot.rules import Rules as TarotRules

#: the turn-ping delay a server may choose (seconds): a few seconds at least, so that a
#: player who plays at once is never pinged
PING_AFTER_MIN_S, PING_AFTER_MAX_S = 5, 600
#: the per-game turn times a server may choose (seconds), as each game's ``new`` allows
KALOOKI_TURN_MIN_S, KALOOKI_TURN_MAX_S = 15, 300
TAROT_TURN_MIN_S, TAROT_TURN_MAX_S = 15, 300

GAMES = [
    app_commands.Choice(name="Tamalou", value="tamalou"),
    app_commands.Choice(name="Kalooki", value="kalooki"),
    app_commands.Choice(name="Tarot", value="tarot"),
]
LEVELS = [
    app_commands.Choice(name=ls(lv, f"level.{lv}"), value=lv)
    for lv in ("random", "easy", "medium", "hard")
]

admin_group = app_commands.Group(
    name=ls("cardsadmin", "cmd.admin"),
    description=ls(
        "Settings, seasons and tournaments of every card game (Manage Server)", "cmd.admin.desc"
    ),
    guild_only=True,
    default_permissions=discord.Permissions(manage_guild=True),
)
season_admin = app_commands.Group(
    name=ls("season", "cmd.season"),
    description=ls("Seasons of this server", "cmd.admin.season.desc"),
    parent=admin_group,
)
tournament_admin = app_commands.Group(
    name=ls("tournament", "cmd.tournament"),
    description=ls("Create and export tournaments", "cmd.admin.tournament.desc"),
    parent=admin_group,
)

manage_server = app_commands.checks.has_permissions(manage_guild=True)


async def settings_text(interaction: discord.Interaction, guild_id: int) -> str:
    """Every setting of the server, as an admin reads it after a change."""
    bot = bot_of(interaction)
    lang = lang_of(interaction.locale)
    current = await bot.storage.guild_settings(guild_id)
    public = current.get("language") or await bot.guild_language(guild_id)
    stored = current.get("turn_seconds")
    seconds = stored if options.in_range("turn_seconds", stored) else TAMALOU.turn_ms // 1000
    role = int(current.get("opener_role_id", 0))
    tarot_turn = current.get("tarot_turn_s")
    lines = [
        t(
            lang,
            "admin.summary.server",
            language=t(lang, f"language.{public}"),
            threads=t(lang, "admin.on" if current.get("threads", True) else "admin.off"),
            ping=f"{float(current.get('ping_after_s', bot.config.ping_after_s)):g}",
            role=f"<@&{role}>" if role else t(lang, "admin.everyone"),
        ),
        t(
            lang,
            "admin.summary.tamalou",
            seconds=seconds,
            variant=variants.display_name(variants.canonical(current.get("variant")), lang),
        ),
        t(
            lang,
            "admin.summary.kalooki",
            seconds=current.get("kalooki_turn_s", KALOOKI.turn_clock_s),
            call=current.get("kalooki_call_s", KALOOKI.call_window_s),
        ),
        t(lang, "admin.summary.tarot", seconds=tarot_turn)
        if tarot_turn is not None
        else t(lang, "admin.summary.tarot_default", seconds=TarotRules().play_ms // 1000),
    ]
    return "\n".join(lines)


async def stored(interaction: discord.Interaction, **values: Any) -> None:
    """Store the settings given (None: unchanged), then show them all."""
    bot = bot_of(interaction)
    guild_id, _ = guild_ids(interaction)
    await bot.storage.set_guild_settings(guild_id, values.pop("language", None), None, **values)
    bot.guild_languages.pop(guild_id, None)
    bot.presenter.settings_changed(guild_id)
    await reply(interaction, await settings_text(interaction, guild_id))


@admin_group.command(
    name=ls("settings", "cmd.admin.settings"),
    description=ls(
        "The server's language, threads and pings, for every game", "cmd.admin.settings.desc"
    ),
)
@app_commands.describe(
    language=ls("Language of public messages", "opt.language"),
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
)
@app_commands.rename(
    language=ls("language", "optname.language"),
    threads=ls("threads", "optname.threads"),
    ping_after=ls("ping_after", "optname.ping_after"),
)
@manage_server
async def cmd_settings(
    interaction: discord.Interaction,
    language: str | None = None,
    threads: bool | None = None,
    ping_after: app_commands.Range[int, PING_AFTER_MIN_S, PING_AFTER_MAX_S] | None = None,
) -> None:
    await stored(interaction, language=language, threads=threads, ping_after_s=ping_after)


@admin_group.command(
    name=ls("tamalou", "cmd.tamalou"),
    description=ls("Tamalou's defaults: turn time and house rule", "cmd.admin.tamalou.desc"),
)
@app_commands.describe(
    turn_seconds=ls("Default seconds per turn", "opt.turn_seconds"),
    variant=ls("Default variant of new tables", "opt.default_variant"),
)
@app_commands.choices(variant=variants.choices())
@app_commands.rename(
    turn_seconds=ls("turn_seconds", "optname.turn_seconds"),
    variant=ls("variant", "optname.variant"),
)
@manage_server
async def cmd_tamalou(
    interaction: discord.Interaction,
    turn_seconds: app_commands.Range[int, TURN_MIN_S, TURN_MAX_S] | None = None,
    variant: str | None = None,
) -> None:
    if turn_seconds is not None:
        options.checked("turn_seconds", turn_seconds)  # never store a default that fails
    chosen = variants.canonical(variant) if variant else None
    bot = bot_of(interaction)
    guild_id, _ = guild_ids(interaction)
    await bot.storage.set_guild_settings(guild_id, None, turn_seconds, chosen)
    await reply(interaction, await settings_text(interaction, guild_id))


@admin_group.command(
    name=ls("kalooki", "cmd.kalooki"),
    description=ls("Kalooki's defaults: turn time and call window", "cmd.admin.kalooki.desc"),
)
@app_commands.describe(
    turn_seconds=ls(
        "Seconds per turn (default: the server's, else 90)", "kalooki.opt.turn_seconds"
    ),
    call_seconds=ls(
        "Seconds to call a discard before the next draw (default: the server's, else 3)",
        "kalooki.opt.call_seconds",
    ),
)
@app_commands.rename(
    turn_seconds=ls("turn_seconds", "optname.turn_seconds"),
    call_seconds=ls("call_seconds", "optname.call_seconds"),
)
@manage_server
async def cmd_kalooki(
    interaction: discord.Interaction,
    turn_seconds: app_commands.Range[int, KALOOKI_TURN_MIN_S, KALOOKI_TURN_MAX_S] | None = None,
    call_seconds: app_commands.Range[int, 0, 10] | None = None,
) -> None:
    await stored(interaction, kalooki_turn_s=turn_seconds, kalooki_call_s=call_seconds)


@admin_group.command(
    name=ls("tarot", "cmd.tarot"),
    description=ls("Tarot's default turn time", "cmd.admin.tarot.desc"),
)
@app_commands.describe(
    turn_seconds=ls("Seconds for a bid or a card (the écart three times)", "opt.tarot_turn")
)
@app_commands.rename(turn_seconds=ls("turn_seconds", "optname.turn_seconds"))
@manage_server
async def cmd_tarot(
    interaction: discord.Interaction,
    turn_seconds: app_commands.Range[int, TAROT_TURN_MIN_S, TAROT_TURN_MAX_S] | None = None,
) -> None:
    await stored(interaction, tarot_turn_s=turn_seconds)


@admin_group.command(
    name=ls("table_role", "cmd.admin.table_role"),
    description=ls("The role allowed to open tables (none: everyone)", "cmd.admin.table_role.desc"),
)
@app_commands.describe(role=ls("Leave empty to let every member open tables", "opt.table_role"))
@app_commands.rename(role=ls("role", "optname.role"))
@manage_server
async def cmd_table_role(
    interaction: discord.Interaction, role: discord.Role | None = None
) -> None:
    await stored(interaction, opener_role_id=0 if role is None else role.id)


# -- seasons ----------------------------------------------------------------------------------


@season_admin.command(
    name=ls("start", "cmd.season.start"),
    description=ls("End the current season and start a new one", "cmd.season.start.desc"),
)
@app_commands.describe(
    name=ls("Name of the new season", "opt.season_name"),
    min_matches=ls("Matches needed to be ranked (default: as before)", "opt.min_matches"),
)
@app_commands.rename(
    name=ls("name", "optname.name"), min_matches=ls("min_matches", "optname.min_matches")
)
@manage_server
async def cmd_season_start(
    interaction: discord.Interaction,
    name: app_commands.Range[str, 1, 60],
    min_matches: app_commands.Range[int, 1, 100] | None = None,
) -> None:
    bot = bot_of(interaction)
    ended, fresh = await bot.seasons.start(guild_of(interaction), name.strip() or None, min_matches)
    await announce(interaction, ended, fresh)


@season_admin.command(
    name=ls("end", "cmd.season.end"),
    description=ls("Freeze the current season's board and start the next", "cmd.season.end.desc"),
)
@manage_server
async def cmd_season_end(interaction: discord.Interaction) -> None:
    bot = bot_of(interaction)
    ended, fresh = await bot.seasons.end(guild_of(interaction))
    await announce(interaction, ended, fresh)


@season_admin.command(
    name=ls("list", "cmd.season.list"),
    description=ls("Every season of this server", "cmd.season.list.desc"),
)
@app_commands.describe(game=ls("Whose matches to count", "opt.admin_game"))
@app_commands.choices(game=GAMES)
@app_commands.rename(game=ls("game", "optname.game"))
@manage_server
async def cmd_season_list(interaction: discord.Interaction, game: str) -> None:
    await list_seasons(interaction, game)


@season_admin.command(
    name=ls("export", "cmd.season.export"),
    description=ls("The season as a CSV file", "cmd.season.export.desc"),
)
@app_commands.describe(
    game=ls("Whose matches to count", "opt.admin_game"),
    season=ls("Season number (default: the current season)", "opt.season"),
)
@app_commands.choices(game=GAMES)
@app_commands.rename(game=ls("game", "optname.game"), season=ls("season", "optname.season"))
@manage_server
async def cmd_season_export(
    interaction: discord.Interaction,
    game: str,
    season: app_commands.Range[int, 1, 100_000] | None = None,
) -> None:
    await export_season(interaction, game, season)


# -- tournaments ------------------------------------------------------------------------------


@tournament_admin.command(
    name=ls("create", "cmd.tournament.create"),
    description=ls(
        "Open a tournament's sign-up in this channel", "cmd.admin.tournament.create.desc"
    ),
)
@app_commands.describe(
    game=ls("The game played", "opt.admin_tournament_game"),
    name=ls("The tournament's name", "opt.tournament_name"),
    players=ls("Players at each table", "opt.tournament_players"),
    rounds=ls("Rounds (each one a match at every table)", "opt.tournament_rounds"),
    length=ls("Tamalou: rounds a table plays; tarot: turns of deals", "opt.tournament_length"),
    duplicate=ls("Every table of a round plays the same deals", "opt.tournament_duplicate"),
    turn_seconds=ls("Seconds a turn (default: the server's for the game)", "opt.tournament_turn"),
    ai_level=ls("AI level for empty seats", "opt.tournament_ai"),
)
@app_commands.rename(
    game=ls("game", "optname.game"),
    name=ls("name", "optname.name"),
    players=ls("players", "optname.players"),
    rounds=ls("rounds", "optname.rounds"),
    length=ls("length", "optname.length"),
    duplicate=ls("duplicate", "optname.duplicate"),
    turn_seconds=ls("turn_seconds", "optname.turn_seconds"),
    ai_level=ls("ai_level", "optname.ai_level"),
)
@app_commands.choices(game=GAMES, ai_level=LEVELS)
@manage_server
async def cmd_tournament_create(
    interaction: discord.Interaction,
    game: str,
    name: app_commands.Range[str, 1, 60],
    players: app_commands.Range[int, 2, 8] = 4,
    rounds: app_commands.Range[int, 1, 10] = 3,
    length: app_commands.Range[int, 1, 20] | None = None,
    duplicate: bool = True,
    turn_seconds: app_commands.Range[int, 10, 600] | None = None,
    ai_level: str | None = None,
) -> None:
    await create_tournament(
        interaction, game, name, players, rounds, length, duplicate, turn_seconds, ai_level
    )


@tournament_admin.command(
    name=ls("export", "cmd.tournament.export"),
    description=ls("The channel's last tournament as a CSV file", "cmd.tournament.export.desc"),
)
@app_commands.describe(game=ls("The game played", "opt.admin_tournament_game"))
@app_commands.choices(game=GAMES)
@app_commands.rename(game=ls("game", "optname.game"))
@manage_server
async def cmd_tournament_export(interaction: discord.Interaction, game: str) -> None:
    await export_tournament(interaction, game)


class AdminCog(commands.Cog):
    """Puts ``/cardsadmin`` on the tree while loaded."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        if self.bot.tree.get_command(admin_group.name) is None:
            self.bot.tree.add_command(admin_group)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(admin_group.name)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(AdminCog(bot))
