"""The Discord side of seasons: ``/<game> leaderboard``, ``stats`` and ``season …``.

:func:`game_commands` builds the commands for one game's slash group; the seasons Cog adds
them to every game's group while it is loaded (a module-level registration on import would
miss a group that ``load_extension`` re-created).

The data lives in :mod:`bot.seasons.store`; this module only reads it and renders it. The
leaderboard's Previous / Next buttons carry everything they need in their custom_id
(``tamalou:lb:<season id>:<page>.<sort>[.<game>]``: the sort word keeps it out of
``TableButton``'s template; no game means Tamalou, as before games were added), so they keep working after a restart. Public messages use the guild's language,
ephemerals the member's.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.utils import escape_markdown

from bot import games
from bot.i18n import lang_of, ls, t
from bot.seasons.chart import rating_chart
from bot.seasons.fields import SeasonStats
from bot.seasons.rating import rating_text
from bot.seasons.store import (
    DEFAULT_GAME,
    SORTS,
    Board,
    BoardLine,
    PlayerCard,
    PlayerRecord,
    Season,
    SeasonError,
    Seasons,
)
from bot.tables import TableError
from bot.ui.kit import bot_of, defer, frozen_view, reply
from bot.ui.moved import moved
from tamalou.games import game_ids

if TYPE_CHECKING:
    from bot.app import GameBot

log = logging.getLogger(__name__)

CHART_FILE = "rating.png"


async def install(bot: GameBot) -> Seasons:
    """``setup_hook``: seasons on the bot's storage, the match hook, the buttons, the sweep."""
    seasons = Seasons(bot.storage, min_matches=bot.config.min_matches)

    async def record(match_id: int) -> None:
        await seasons.record_match(match_id)

    bot.service.on_match_finished = record
    bot.add_dynamic_items(LeaderboardButton)
    recorded = await seasons.sweep()
    if recorded:
        log.info("recorded %d finished matches missing from their season", recorded)
    return seasons


def seasons_of(interaction: discord.Interaction) -> Seasons:
    return bot_of(interaction).seasons


def guild_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise TableError("guild_only")
    return interaction.guild_id


def season_title(season: Season, lang: str) -> str:
    return season.name or t(lang, "season.default_name", number=season.number)


async def find_season(seasons: Seasons, guild_id: int, number: int | None) -> Season:
    season = await seasons.get(guild_id, number)
    if season is None:
        if number is None:
            raise SeasonError("no_season")
        raise SeasonError("unknown_season", number=number)
    return season


def day(ms: int) -> str:
    return f"<t:{ms // 1000}:d>"


# -- the leaderboard ---------------------------------------------------------------------------


def variant_name(variant: str, lang: str, game: str = DEFAULT_GAME) -> str:
    """A variant's name as players of ``game`` know it (R-V, a Kalooki or tarot preset);
    an unknown one as it is stored."""
    return games.plugin(game).variant_name(variant, lang)


def worded(key: str, stats: SeasonStats) -> str:
    """``key`` in the game's word for its rounds: ``stats.rounds`` is ``stats.rounds.deal``
    for tarot (every such key has its variant in the catalogues)."""
    return key if stats.round_word == "round" else f"{key}.{stats.round_word}"


async def board_of(
    seasons: Seasons,
    season: Season,
    sort: str,
    page: int,
    viewer: int,
    game: str,
    variant: str | None,
) -> Board:
    """``game``'s whole board, or the board of one of its variants (R-V)."""
    if variant is None:
        return await seasons.leaderboard(season, sort, page, viewer, game)
    return await seasons.variant_board(season, variant, sort, page, viewer, game)


def board_value(player: PlayerRecord, sort: str, min_matches: int = 0) -> str:
    """The sorted-by value; the rating is the display rating, ``?`` while provisional."""
    if sort == "wins":
        return str(player.wins)
    if sort == "winrate":
        return f"{player.win_rate:.0%}"
    if sort == "score":
        return f"{player.mean_score:.1f}"
    return rating_text(player.ordinal, player.provisional(min_matches))


def board_line(line: BoardLine, sort: str, lang: str, min_matches: int = 0) -> str:
    p = line.player
    return t(
        lang,
        "lb.line",
        position=f"{line.position}." if line.position is not None else "–",
        name=escape_markdown(p.name),
        value=board_value(p, sort, min_matches),
        matches=p.matches,
        wins=p.wins,
    )


def board_message(board: Board, lang: str) -> tuple[discord.Embed, discord.ui.View]:
    game = board.game
    season = board.season
    stats = games.plugin(game).season_stats
    head = [t(lang, "lb.sorted", by=t(lang, worded(f"lb.sort.{board.sort}", stats)))]
    if board.variant is not None:  # R-V: this variant's matches; the rating is the game's
        head.insert(0, t(lang, "lb.variant", variant=variant_name(board.variant, lang, game)))
    if not season.current and season.ended_at is not None:
        head.append(t(lang, "lb.frozen", date=day(season.ended_at)))
    need = season.min_matches if board.variant is None else 0  # ranked by the game's record
    body = [board_line(line, board.sort, lang, need) for line in board.lines]
    if not body:
        body = [t(lang, "lb.empty")]
    embed = discord.Embed(
        title=t(
            lang,
            "lb.title",
            game=games.display_name(game, lang),
            season=escape_markdown(season_title(season, lang)),
        ),
        description="\n".join([*head, "", *body])[:4000],
        colour=discord.Colour.gold(),
    )
    if board.me is not None:
        embed.add_field(
            name=t(lang, "lb.me", name=escape_markdown(board.me.player.name))[:256],
            value=board_line(board.me, board.sort, lang, need)[:1024],
            inline=False,
        )
    embed.set_footer(
        text=t(
            lang,
            "lb.footer",
            page=board.page + 1,
            pages=board.pages,
            total=board.total,
            ranked=board.ranked,
            min=season.min_matches,
        )
    )
    view = discord.ui.View(timeout=None)
    view.add_item(
        LeaderboardButton(
            season.id,
            max(0, board.page - 1),
            board.sort,
            game,
            t(lang, "lb.prev"),
            disabled=board.page == 0,
            variant=board.variant,
        ).item
    )
    view.add_item(
        LeaderboardButton(
            season.id,
            board.page + 1,
            board.sort,
            game,
            t(lang, "lb.next"),
            disabled=board.page + 1 >= board.pages,
            variant=board.variant,
        ).item
    )
    return embed, view


class LeaderboardButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=(
        r"tamalou:lb:(?P<season>[0-9]{1,18}):(?P<page>[0-9]{1,6})\.(?P<sort>[a-z]{3,8})"
        r"(?:\.(?P<game>[a-z]{2,16}))?(?:-(?P<variant>[a-z_]{2,24}))?"
    ),
):
    """Previous / Next: ``tamalou:lb:<season id>:<page>.<sort>[.<game>][-<variant>]``."""

    def __init__(
        self,
        season_id: int,
        page: int,
        sort: str,
        game: str = DEFAULT_GAME,
        label: str = "",
        disabled: bool = False,
        variant: str | None = None,
    ) -> None:
        self.season_id, self.page, self.sort, self.game = season_id, page, sort, game
        self.variant = variant
        suffix = "" if game == DEFAULT_GAME else f".{game}"
        suffix += f"-{variant}" if variant else ""
        super().__init__(
            discord.ui.Button(
                label=label or None,
                style=discord.ButtonStyle.secondary,
                custom_id=f"tamalou:lb:{season_id}:{page}.{sort}{suffix}",
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LeaderboardButton:
        game = match["game"] or DEFAULT_GAME
        return cls(
            int(match["season"]), int(match["page"]), match["sort"], game, variant=match["variant"]
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        lang = lang_of(interaction.locale)
        try:
            bot = bot_of(interaction)
            season = await bot.seasons.by_id(self.season_id)
            if (
                season is None
                or season.guild_id != interaction.guild_id
                or self.sort not in SORTS
                or self.game not in game_ids()
            ):
                raise TableError("bad_button")
            board = await board_of(
                bot.seasons,
                season,
                self.sort,
                self.page,
                interaction.user.id,
                self.game,
                self.variant,
            )
            embed, view = board_message(board, await bot.guild_language(season.guild_id))
            await interaction.response.edit_message(embed=embed, view=frozen_view(view))
        except TableError as exc:
            await reply(interaction, t(lang, f"err.{exc.reason}", **exc.detail))
        except Exception:
            log.exception("leaderboard button %s failed", self.custom_id)
            await reply(interaction, t(lang, "err.unexpected"))


def sort_choices(stats: SeasonStats) -> list[app_commands.Choice[str]]:
    """The leaderboard's ``by:`` choices in the game's words (tarot: mean deal score)."""
    return [app_commands.Choice(name=ls(s, worded(f"lb.sort.{s}", stats)), value=s) for s in SORTS]


async def show_leaderboard(
    interaction: discord.Interaction,
    game: str,
    season: int | None,
    by: str,
    variant: str | None = None,
) -> None:
    bot = bot_of(interaction)
    guild_id = guild_of(interaction)
    found = await find_season(bot.seasons, guild_id, season)
    board = await board_of(bot.seasons, found, by, 0, interaction.user.id, game, variant)
    embed, view = board_message(board, await bot.guild_language(guild_id))
    await interaction.response.send_message(embed=embed, view=frozen_view(view))


# -- stats -----------------------------------------------------------------------------------


def card_embed(card: PlayerCard, display_name: str, lang: str) -> discord.Embed:
    p = card.player
    season = card.season
    if card.position is not None:
        standing = t(lang, "stats.position", position=card.position, ranked=card.ranked)
    else:
        standing = t(lang, "stats.unranked", matches=p.matches, min=season.min_matches)
    embed = discord.Embed(
        title=t(
            lang,
            "stats.title",
            name=escape_markdown(display_name),
            game=games.display_name(card.game, lang),
            season=escape_markdown(season_title(season, lang)),
        )[:256],
        description=standing,
        colour=discord.Colour.blurple(),
    )
    best = "—" if p.best_round is None else f"{p.best_round:g}"
    stats = games.plugin(card.game).season_stats
    fields = [
        # the display rating only: players never see mu or sigma
        ("stats.rating", f"**{rating_text(p.ordinal, card.provisional)}**"),
        (
            "stats.matches",
            t(
                lang,
                "stats.matches.value",
                matches=p.matches,
                wins=p.wins,
                rate=f"{p.win_rate:.0%}",
                rank=f"{p.mean_rank:.2f}",
            ),
        ),
        (
            worded("stats.rounds", stats),
            t(lang, worded("stats.rounds.value", stats), rounds=p.rounds, won=p.rounds_won),
        ),
        (
            worded("stats.scores", stats),
            t(
                lang,
                worded("stats.scores.value", stats),
                total=f"{p.score_sum:g}",
                mean=f"{p.mean_score:.1f}",
                best=best,
            ),
        ),
    ]
    for counter in stats.counters:  # the game's own (Tamalou's calls and doubles)
        values = {c: getattr(p, c) for c in counter.columns}
        fields.append((f"stats.{counter.name}", t(lang, f"stats.{counter.name}.value", **values)))
    if card.variants:  # R-V: the variants (presets) the member plays
        played = " · ".join(
            t(
                lang,
                "stats.variants.value",
                name=variant_name(v, lang, card.game),
                matches=m,
                wins=w,
            )
            for v, m, w in card.variants
        )
        fields.append(("stats.variants", played[:1024]))
    for key, value in fields:
        embed.add_field(name=t(lang, key), value=value, inline=True)
    return embed


async def show_stats(
    interaction: discord.Interaction,
    game: str,
    member: discord.Member | discord.User | None,
    season: int | None,
) -> None:
    bot = bot_of(interaction)
    guild_id = guild_of(interaction)
    target = member or interaction.user
    found = await find_season(bot.seasons, guild_id, season)
    card = await bot.seasons.card(found, target.id, game)
    if card is None:
        raise SeasonError("no_record", name=target.display_name)
    lang = await bot.guild_language(guild_id)
    await defer(interaction, ephemeral=False)  # the first chart may take a moment
    embed = card_embed(card, target.display_name, lang)
    from bot.tournaments.commands import stats_lines  # the tournaments' part of the card

    tournaments = await stats_lines(bot, guild_id, target.id, game, lang)
    if tournaments:
        embed.add_field(name=t(lang, "tournament.stats_title"), value=tournaments, inline=False)
    kwargs: dict[str, Any] = {"embed": embed}
    if card.ratings:
        png = await asyncio.to_thread(
            rating_chart,
            card.ratings,
            t(lang, "stats.chart.title", name=target.display_name),
            t(lang, "stats.chart.x"),
            t(lang, "stats.chart.y"),
        )
        embed.set_image(url=f"attachment://{CHART_FILE}")
        kwargs["file"] = discord.File(io.BytesIO(png), filename=CHART_FILE)
    await interaction.followup.send(**kwargs)


# -- season management (Manage Server) ---------------------------------------------------------


async def announce(interaction: discord.Interaction, ended: Season | None, fresh: Season) -> None:
    """A public message: the season that ended (its board is frozen) and the new one."""
    lang = await bot_of(interaction).guild_language(fresh.guild_id)
    lines = []
    if ended is not None:
        lines.append(t(lang, "season.ended", season=escape_markdown(season_title(ended, lang))))
    lines.append(
        t(
            lang,
            "season.started",
            season=escape_markdown(season_title(fresh, lang)),
            number=fresh.number,
            min=fresh.min_matches,
        )
    )
    await reply(interaction, "\n".join(lines), ephemeral=False)


async def list_seasons(interaction: discord.Interaction, game: str) -> None:
    """The server's seasons (they span every game), each with its count of ``game``'s
    matches."""
    bot = bot_of(interaction)
    lang = lang_of(interaction.locale)
    found = await bot.seasons.in_guild(guild_of(interaction), game)
    if not found:
        raise SeasonError("no_season")
    lines = []
    for s in reversed(found[-25:]):
        key = "season.list.current" if s.current else "season.list.ended"
        lines.append(
            t(
                lang,
                key,
                number=s.number,
                season=escape_markdown(season_title(s, lang)),
                matches=s.matches,
                start=day(s.started_at),
                end=day(s.ended_at or s.started_at),
            )
        )
    embed = discord.Embed(
        title=t(lang, "season.list.title", game=games.display_name(game, lang)),
        description="\n".join(lines)[:4000],
        colour=discord.Colour.gold(),
    )
    await interaction.response.send_message(embed=embed, ephemeral=True)


async def export_season(interaction: discord.Interaction, game: str, season: int | None) -> None:
    bot = bot_of(interaction)
    lang = lang_of(interaction.locale)
    guild_id = guild_of(interaction)
    found = await find_season(bot.seasons, guild_id, season)
    text = await bot.seasons.export_csv(found, game, games.plugin(game).season_stats)
    file = discord.File(
        io.BytesIO(text.encode("utf-8")), filename=f"{game}-season-{found.number}.csv"
    )
    await interaction.response.send_message(
        t(lang, "season.exported", season=escape_markdown(season_title(found, lang))),
        file=file,
        ephemeral=True,
    )


# -- the commands of one game's group ----------------------------------------------------------

GameCommand = app_commands.Command[Any, Any, Any] | app_commands.Group


def game_commands(game: str) -> list[GameCommand]:
    """``leaderboard``, ``stats`` and ``season …`` for ``game``'s slash group (a season spans
    every game of the server; its boards, cards and exports are per game)."""

    cmd_leaderboard: app_commands.Command[Any, Any, Any]
    plugin = games.plugin(game)
    variants = plugin.variant_choices()
    if variants is None:

        @app_commands.command(
            name=ls("leaderboard", "cmd.leaderboard"),
            description=ls("The season's leaderboard", "cmd.leaderboard.desc"),
        )
        @app_commands.describe(
            season=ls("Season number (default: the current season)", "opt.season"),
            by=ls("Sort by (default: rating)", "opt.by"),
        )
        @app_commands.choices(by=sort_choices(plugin.season_stats))
        @app_commands.rename(season=ls("season", "optname.season"), by=ls("by", "optname.by"))
        async def plain_leaderboard(
            interaction: discord.Interaction,
            season: app_commands.Range[int, 1, 100_000] | None = None,
            by: str = "rating",
        ) -> None:
            await show_leaderboard(interaction, game, season, by)

        cmd_leaderboard = plain_leaderboard
    else:

        @app_commands.command(
            name=ls("leaderboard", "cmd.leaderboard"),
            description=ls("The season's leaderboard", "cmd.leaderboard.desc"),
        )
        @app_commands.describe(
            season=ls("Season number (default: the current season)", "opt.season"),
            by=ls("Sort by (default: rating)", "opt.by"),
            variant=ls("Only the matches of this variant", "opt.lb_variant"),
        )
        @app_commands.choices(by=sort_choices(plugin.season_stats), variant=variants)
        @app_commands.rename(
            season=ls("season", "optname.season"),
            by=ls("by", "optname.by"),
            variant=ls("variant", "optname.variant"),
        )
        async def variant_leaderboard(
            interaction: discord.Interaction,
            season: app_commands.Range[int, 1, 100_000] | None = None,
            by: str = "rating",
            variant: str | None = None,
        ) -> None:
            chosen = plugin.canonical_variant(variant) if variant else None
            await show_leaderboard(interaction, game, season, by, chosen)

        cmd_leaderboard = variant_leaderboard

    @app_commands.command(
        name=ls("stats", "cmd.stats"),
        description=ls("A member's season card", "cmd.stats.desc"),
    )
    @app_commands.describe(
        member=ls("Whose card (default: yours)", "opt.member"),
        season=ls("Season number (default: the current season)", "opt.season"),
    )
    @app_commands.rename(
        member=ls("member", "optname.member"), season=ls("season", "optname.season")
    )
    async def cmd_stats(
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        season: app_commands.Range[int, 1, 100_000] | None = None,
    ) -> None:
        await show_stats(interaction, game, member, season)

    season_group = app_commands.Group(
        name=ls("season", "cmd.season"),
        description=ls("Moved to the admin command", "cmd.moved.desc"),
    )

    def moved_command(verb: str) -> app_commands.Command[Any, Any, None]:
        """``/<game> season <verb>``: moved to ``/cardsadmin season <verb>``; says so."""

        async def answer(interaction: discord.Interaction) -> None:
            await moved(interaction, "season", verb)

        return app_commands.Command(
            name=ls(verb, f"cmd.season.{verb}"),
            description=ls("Moved to the admin command", "cmd.moved.desc"),
            callback=answer,
        )

    for verb in ("start", "end", "list", "export"):
        season_group.add_command(moved_command(verb))

    return [cmd_leaderboard, cmd_stats, season_group]
