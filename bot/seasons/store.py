"""Per-server seasons: season records, the rating, the leaderboard, the CSV export.

No Discord in here (:mod:`bot.seasons.commands` is the Discord side), and no connection of
its own: everything goes through :class:`bot.storage.Storage`, so seasons work on SQLite
and PostgreSQL alike. A finished match is recorded once: the records of its human seats,
their new ratings and a ``season_matches`` row are written in one exclusive transaction,
and a match that already has that row is skipped, so the hook called after a match and the
startup sweep (in one process or several) may both try it safely.

A season belongs to a guild and spans every game; its board is kept per game
(``season_players`` and ``season_results`` carry the match's ``game``). The rating is
OpenSkill's Plackett-Luce model (:mod:`bot.seasons.rating`), updated from the final ranking
of every match with at least two humans (AI seats are not rated). The board ranks by the
conservative value (``ordinal`` = mu - 3 sigma) and lists players under the season's
minimum of matches after the ranked ones, without a rank (provisional).
"""

from __future__ import annotations

import csv
import io
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.seasons.analysis import SeatResult, analyse_match, lower_score_wins
from bot.seasons.fields import TAMALOU_STATS, SeasonStats
from bot.seasons.rating import MODEL, display_rating, rate
from bot.storage import Executor, MatchRow, Row, Storage, StorageConflict, match_from_row
from bot.tables import TableError

log = logging.getLogger(__name__)

DEFAULT_GAME = "tamalou"
DEFAULT_MIN_MATCHES = 3
PAGE_SIZE = 10
SORTS = ("rating", "wins", "winrate", "score")
# Season numbers and ids are 64-bit in the database: anything larger names no season.
MAX_ID = 2**63 - 1
# sort -> (column, direction); the user id breaks ties so pages never overlap
_ORDER: dict[str, tuple[str, str]] = {
    "rating": ("ordinal", "DESC"),
    "wins": ("wins", "DESC"),
    "winrate": ("win_rate", "DESC"),
    "score": ("mean_score", "ASC"),  # a low round score is good in Tamalou: see _order
}


def _order(sort: str, game: str) -> tuple[str, str]:
    """The column and direction of a board sorted by ``sort``: by score, the best first in
    the game's own direction (``LOWER_SCORE_WINS``, declared by the game's module)."""
    column, direction = _ORDER[sort]
    if sort == "score" and not lower_score_wins(game):
        direction = "DESC"
    return column, direction


_PLAYER_FIELDS = (
    "user_id",
    "name",
    "matches",
    "wins",
    "rank_sum",
    "rounds",
    "rounds_won",
    "score_sum",
    "calls_right",
    "calls_wrong",
    "doubles",
    "doubles_missed",
    "best_round",
    "rated_matches",
    "mu",
    "sigma",
    "ordinal",
    "win_rate",
    "mean_score",
    "last_match_at",
)
_PLAYER_COLUMNS = ", ".join(_PLAYER_FIELDS)


def now_ms() -> int:
    return int(time.time() * 1000)


#: a result's variant; recorded before variants existed: the game's default (its own name)
_VARIANT = "COALESCE(variant, game)"


def variant_of(match: MatchRow) -> str | None:
    """The preset a match was played with (R-V): its rules' ``name``."""
    name = match.rules.get("name") if isinstance(match.rules, dict) else None
    return str(name) if name else None


class SeasonError(TableError):
    """A refusal the user must read: ``err.<reason>`` in ``locales/seasons.<lang>.json``."""


# -- rows ----------------------------------------------------------------------------------


@dataclass(slots=True, frozen=True)
class Season:
    id: int
    guild_id: int
    number: int
    name: str | None  # None: "Season <number>" in the reader's language
    min_matches: int
    started_at: int
    ended_at: int | None
    matches: int = 0

    @property
    def current(self) -> bool:
        return self.ended_at is None


@dataclass(slots=True)
class PlayerRecord:
    """A human's season record in one game (one ``season_players`` row)."""

    user_id: int
    name: str
    matches: int = 0
    wins: int = 0
    rank_sum: int = 0
    rounds: int = 0
    rounds_won: int = 0
    score_sum: float = 0.0
    calls_right: int = 0
    calls_wrong: int = 0
    doubles: int = 0
    doubles_missed: int = 0
    best_round: float | None = None
    rated_matches: int = 0
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    ordinal: float = 0.0
    win_rate: float = 0.0
    mean_score: float = 0.0
    last_match_at: int = 0

    @property
    def mean_rank(self) -> float:
        return self.rank_sum / self.matches if self.matches else 0.0

    @property
    def rating(self) -> int:
        """The display rating players see (never negative; no mu, no sigma)."""
        return display_rating(self.ordinal)

    def provisional(self, min_matches: int) -> bool:
        """Under the season's minimum of matches: no rank yet, the rating shown with ``?``."""
        return self.matches < min_matches

    def add(self, seat: SeatResult, ended_at: int) -> None:
        self.name = seat.name
        self.matches += 1
        self.wins += int(seat.won)
        self.rank_sum += seat.rank
        self.rounds += seat.rounds
        self.rounds_won += seat.rounds_won
        self.score_sum += seat.score_sum
        self.calls_right += seat.calls_right
        self.calls_wrong += seat.calls_wrong
        self.doubles += seat.doubles
        self.doubles_missed += seat.doubles_missed
        if seat.best_round is not None and (
            self.best_round is None or seat.best_round < self.best_round
        ):
            self.best_round = seat.best_round
        self.win_rate = self.wins / self.matches
        self.mean_score = self.score_sum / self.rounds if self.rounds else 0.0
        self.last_match_at = max(self.last_match_at, ended_at)

    def values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in _PLAYER_FIELDS)


def _player(r: Row) -> PlayerRecord:
    p = PlayerRecord(*(r[k] for k in _PLAYER_FIELDS))
    # PostgreSQL gives back exactly what was stored; keep the Python types uniform
    p.score_sum, p.mu, p.sigma, p.ordinal = (
        float(p.score_sum),
        float(p.mu),
        float(p.sigma),
        float(p.ordinal),
    )
    p.win_rate, p.mean_score = float(p.win_rate), float(p.mean_score)
    return p


def _season(r: Row) -> Season:
    keys = list(r.keys())
    return Season(
        r["id"],
        r["guild_id"],
        r["number"],
        r["name"],
        r["min_matches"],
        r["started_at"],
        r["ended_at"],
        int(r["matches"]) if "matches" in keys else 0,
    )


@dataclass(slots=True)
class BoardLine:
    position: int | None  # None: under the season's minimum of matches, not ranked
    player: PlayerRecord


@dataclass(slots=True)
class Board:
    season: Season
    sort: str
    page: int
    pages: int
    total: int  # players listed
    ranked: int  # players with at least the minimum of matches
    lines: list[BoardLine]
    me: BoardLine | None = None  # the viewer's line when it is not on this page
    game: str = DEFAULT_GAME
    variant: str | None = None  # only the matches of this variant (R-V); None: all


@dataclass(slots=True)
class PlayerCard:
    season: Season
    player: PlayerRecord
    position: int | None
    ranked: int
    ratings: list[int] = field(default_factory=list)  # display rating after each match
    game: str = DEFAULT_GAME
    #: the variants the member played (R-V): (variant, matches, wins), most played first
    variants: list[tuple[str, int, int]] = field(default_factory=list)

    @property
    def provisional(self) -> bool:
        return self.player.provisional(self.season.min_matches)


# -- the store -----------------------------------------------------------------------------


async def _mark_recorded(
    tx: Executor, match_id: int, season_id: int, rated: bool, humans: int, now: int
) -> None:
    """The exactly-once marker, written last in the recording transaction."""
    await tx.execute(
        "INSERT INTO season_matches (match_id, season_id, rated, humans, recorded_at) "
        "VALUES (?, ?, ?, ?, ?)",
        match_id,
        season_id,
        int(rated),
        humans,
        now,
    )


class Seasons:
    """Seasons of every guild, on the bot's storage.

    ``min_matches`` is the minimum of a guild's first season (``Config.min_matches``,
    ``TAMALOU_MIN_MATCHES``); a later season inherits its predecessor's.
    """

    def __init__(
        self,
        storage: Storage,
        min_matches: int = DEFAULT_MIN_MATCHES,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.storage = storage
        self.min_matches = min_matches
        self.clock = clock

    # -- seasons ---------------------------------------------------------------------------

    async def _current(self, db: Executor, guild_id: int) -> Season | None:
        row = await db.fetchrow(
            "SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL", guild_id
        )
        return _season(row) if row else None

    async def _open_next(
        self, tx: Executor, guild_id: int, name: str | None, min_matches: int | None
    ) -> Season:
        last = await tx.fetchrow(
            "SELECT number, min_matches FROM seasons WHERE guild_id = ? "
            "ORDER BY number DESC LIMIT 1",
            guild_id,
        )
        number = (int(last["number"]) + 1) if last else 1
        if min_matches is None:
            min_matches = int(last["min_matches"]) if last else self.min_matches
        now = self.clock()
        season_id = await tx.fetchval(
            "INSERT INTO seasons (guild_id, number, name, min_matches, started_at) "
            "VALUES (?, ?, ?, ?, ?) RETURNING id",
            guild_id,
            number,
            name,
            min_matches,
            now,
        )
        return Season(int(season_id), guild_id, number, name, min_matches, now, None)

    async def current(self, guild_id: int) -> Season | None:
        return await self._current(self.storage, guild_id)

    async def get(self, guild_id: int, number: int | None = None) -> Season | None:
        """Season ``number`` of the guild, or its current season; ``None`` if there is none."""
        if number is None:
            return await self.current(guild_id)
        if not 1 <= number <= MAX_ID:  # 10**20 is no season, not an overflow
            return None
        row = await self.storage.fetchrow(
            "SELECT * FROM seasons WHERE guild_id = ? AND number = ?", guild_id, number
        )
        return _season(row) if row else None

    async def by_id(self, season_id: int) -> Season | None:
        if not 1 <= season_id <= MAX_ID:
            return None
        row = await self.storage.fetchrow("SELECT * FROM seasons WHERE id = ?", season_id)
        return _season(row) if row else None

    async def in_guild(self, guild_id: int, game: str | None = None) -> list[Season]:
        """The guild's seasons, each with its count of matches (of ``game``, or of every
        game)."""
        if game is None:
            rows = await self.storage.fetch(
                "SELECT s.*, (SELECT COUNT(*) FROM season_matches m WHERE m.season_id = s.id) "
                "AS matches FROM seasons s WHERE guild_id = ? ORDER BY number",
                guild_id,
            )
        else:
            rows = await self.storage.fetch(
                "SELECT s.*, (SELECT COUNT(*) FROM season_matches m JOIN matches x "
                "ON x.id = m.match_id WHERE m.season_id = s.id AND x.game = ?) "
                "AS matches FROM seasons s WHERE guild_id = ? ORDER BY number",
                game,
                guild_id,
            )
        return [_season(r) for r in rows]

    async def start(
        self, guild_id: int, name: str | None = None, min_matches: int | None = None
    ) -> tuple[Season | None, Season]:
        """End the current season (its board is frozen) and open the next one."""
        async with self.storage.transaction(exclusive=True) as tx:
            ended = await self._current(tx, guild_id)
            if ended is not None:
                await self._close(tx, ended)
            fresh = await self._open_next(tx, guild_id, name, min_matches)
        return ended, fresh

    async def end(self, guild_id: int) -> tuple[Season, Season]:
        """``season end``: freeze the current season and start the next (default name)."""
        async with self.storage.transaction(exclusive=True) as tx:
            ended = await self._current(tx, guild_id)
            if ended is None:
                raise SeasonError("no_season")
            await self._close(tx, ended)
            fresh = await self._open_next(tx, guild_id, None, None)
        return ended, fresh

    async def _close(self, tx: Executor, season: Season) -> None:
        await tx.execute("UPDATE seasons SET ended_at = ? WHERE id = ?", self.clock(), season.id)

    # -- recording -------------------------------------------------------------------------

    async def record_match(self, match_id: int) -> Season | None:
        """Record a finished match in its guild's current season, once.

        Returns the season, or ``None`` if the match is not finished or already recorded.
        """
        row = await self.storage.fetchrow("SELECT * FROM matches WHERE id = ?", match_id)
        if row is None or row["status"] != "finished":
            return None
        if await _is_recorded(self.storage, match_id):
            return None
        match = match_from_row(row)
        actions = [a.payload for a in await self.storage.actions(match_id)]
        round_rows = [
            (int(r[0]), int(r[1]), float(r[2]), int(r[3]))
            for r in await self.storage.fetch(
                "SELECT round_no, seat, score, place FROM round_scores WHERE match_id = ?",
                match_id,
            )
        ]
        seats = analyse_match(match, actions, round_rows)
        try:
            async with self.storage.transaction(exclusive=True) as tx:
                if await _is_recorded(tx, match_id):  # recorded meanwhile by another caller
                    return None
                season = await self._current(tx, match.guild_id)
                if season is None:
                    season = await self._open_next(tx, match.guild_id, None, None)
                await self._write(tx, season, match, seats)
        except StorageConflict:  # another process recorded it first: once is enough
            if await _is_recorded(self.storage, match_id):
                return None
            raise
        log.info("match %s recorded in season %s", match_id, season.id)
        return season

    async def _write(
        self, tx: Executor, season: Season, match: MatchRow, seats: list[SeatResult]
    ) -> None:
        humans: list[SeatResult] = []
        for s in seats:  # one line per human, even if seated twice
            if s.human and all(h.user_id != s.user_id for h in humans):
                humans.append(s)
        ended_at = match.ended_at or self.clock()
        game = match.game
        records: dict[int, PlayerRecord] = {}
        if humans:
            marks = ",".join("?" * len(humans))
            rows = await tx.fetch(
                f"SELECT {_PLAYER_COLUMNS} FROM season_players "
                f"WHERE season_id = ? AND game = ? AND user_id IN ({marks})",
                season.id,
                game,
                *[h.user_id for h in humans],
            )
            records = {r["user_id"]: _player(r) for r in rows}
        for h in humans:
            records.setdefault(h.user_id, PlayerRecord(h.user_id, h.name))
        rated = len(humans) >= 2
        if rated:
            new = rate(
                [(records[h.user_id].mu, records[h.user_id].sigma) for h in humans],
                [h.rank for h in humans],
            )
            for h, (mu, sigma, ordinal) in zip(humans, new, strict=True):
                record = records[h.user_id]
                record.mu, record.sigma, record.ordinal = mu, sigma, ordinal
                record.rated_matches += 1
        updates = ", ".join(f"{c} = excluded.{c}" for c in _PLAYER_FIELDS[1:])
        for h in humans:
            record = records[h.user_id]
            record.add(h, ended_at)
            await tx.execute(
                f"INSERT INTO season_players (season_id, game, {_PLAYER_COLUMNS}) "
                f"VALUES (?, ?, {','.join('?' * len(_PLAYER_FIELDS))}) "
                f"ON CONFLICT (season_id, game, user_id) DO UPDATE SET {updates}",
                season.id,
                game,
                *record.values(),
            )
            await tx.execute(
                "INSERT INTO season_results (season_id, game, match_id, user_id, seat, ended_at, "
                "rank, won, rounds, rounds_won, score_sum, calls_right, calls_wrong, doubles, "
                "doubles_missed, best_round, mu, sigma, ordinal, variant) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                season.id,
                game,
                match.id,
                h.user_id,
                h.seat,
                ended_at,
                h.rank,
                int(h.won),
                h.rounds,
                h.rounds_won,
                h.score_sum,
                h.calls_right,
                h.calls_wrong,
                h.doubles,
                h.doubles_missed,
                h.best_round,
                record.mu,
                record.sigma,
                record.ordinal,
                variant_of(match),
            )
        await _mark_recorded(tx, match.id, season.id, rated, len(humans), self.clock())

    async def sweep(self) -> int:
        """Record every finished match that has no ``season_matches`` row (start-up)."""
        pending = [
            int(r[0])
            for r in await self.storage.fetch(
                "SELECT id FROM matches m WHERE status = 'finished' AND NOT EXISTS "
                "(SELECT 1 FROM season_matches s WHERE s.match_id = m.id) ORDER BY ended_at, id"
            )
        ]
        recorded = 0
        for match_id in pending:
            try:
                if await self.record_match(match_id) is not None:
                    recorded += 1
            except Exception:
                log.exception("match %s: could not record it in its season", match_id)
        if pending:
            log.info("season sweep: %d of %d finished matches recorded", recorded, len(pending))
        return recorded

    # -- reading ---------------------------------------------------------------------------

    async def leaderboard(
        self,
        season: Season,
        sort: str = "rating",
        page: int = 0,
        viewer: int | None = None,
        game: str = DEFAULT_GAME,
    ) -> Board:
        """Page ``page`` (from 0) of ``game``'s board; ranked players first, then the others."""
        if sort not in _ORDER:
            sort = "rating"
        column, direction = _order(sort, game)
        order = f"{column} {direction}, user_id"
        need = season.min_matches
        db = self.storage
        total = await _scalar(
            db,
            "SELECT COUNT(*) FROM season_players WHERE season_id = ? AND game = ?",
            season.id,
            game,
        )
        ranked = await _scalar(
            db,
            "SELECT COUNT(*) FROM season_players WHERE season_id = ? AND game = ? AND matches >= ?",
            season.id,
            game,
            need,
        )
        pages = max(1, math.ceil(total / PAGE_SIZE))
        page = min(max(0, page), pages - 1)
        offset = page * PAGE_SIZE
        lines: list[BoardLine] = []
        if offset < ranked:
            rows = await db.fetch(
                f"SELECT {_PLAYER_COLUMNS} FROM season_players WHERE season_id = ? AND game = ? "
                f"AND matches >= ? ORDER BY {order} LIMIT ? OFFSET ?",
                season.id,
                game,
                need,
                PAGE_SIZE,
                offset,
            )
            lines += [BoardLine(offset + i + 1, _player(r)) for i, r in enumerate(rows)]
        if len(lines) < PAGE_SIZE and total > ranked:
            rows = await db.fetch(
                f"SELECT {_PLAYER_COLUMNS} FROM season_players WHERE season_id = ? AND game = ? "
                f"AND matches < ? ORDER BY {order} LIMIT ? OFFSET ?",
                season.id,
                game,
                need,
                PAGE_SIZE - len(lines),
                max(0, offset - ranked),
            )
            lines += [BoardLine(None, _player(r)) for r in rows]
        me: BoardLine | None = None
        if viewer is not None and all(line.player.user_id != viewer for line in lines):
            record = await self._record(season.id, game, viewer)
            if record is not None:
                me = BoardLine(await self._position(season, game, record, sort), record)
        return Board(season, sort, page, pages, total, ranked, lines, me, game)

    async def variant_board(
        self,
        season: Season,
        variant: str,
        sort: str = "rating",
        page: int = 0,
        viewer: int | None = None,
        game: str = DEFAULT_GAME,
    ) -> Board:
        """``game``'s board filtered by variant (R-V): the players of that variant, their
        matches, wins and scores in it, and their rating, which stays per game."""
        if sort not in _ORDER:
            sort = "rating"
        rows = await self.storage.fetch(
            "SELECT user_id, COUNT(*) AS matches, SUM(won) AS wins, SUM(rank) AS rank_sum, "
            "SUM(rounds) AS rounds, SUM(rounds_won) AS rounds_won, SUM(score_sum) AS score_sum, "
            "SUM(calls_right) AS calls_right, SUM(calls_wrong) AS calls_wrong, "
            "SUM(doubles) AS doubles, SUM(doubles_missed) AS doubles_missed, "
            "MIN(best_round) AS best_round, MAX(ended_at) AS last_match_at "
            f"FROM season_results WHERE season_id = ? AND game = ? AND {_VARIANT} = ? "
            "GROUP BY user_id",
            season.id,
            game,
            variant,
        )
        overall = {
            r["user_id"]: _player(r)
            for r in await self.storage.fetch(
                f"SELECT {_PLAYER_COLUMNS} FROM season_players WHERE season_id = ? AND game = ?",
                season.id,
                game,
            )
        }
        players: list[PlayerRecord] = []
        for r in rows:
            whole = overall.get(r["user_id"])
            if whole is None:
                continue
            p = PlayerRecord(r["user_id"], whole.name)
            for key in ("matches", "wins", "rank_sum", "rounds", "rounds_won"):
                setattr(p, key, int(r[key]))
            for key in ("calls_right", "calls_wrong", "doubles", "doubles_missed"):
                setattr(p, key, int(r[key]))
            p.score_sum = float(r["score_sum"])
            p.best_round = None if r["best_round"] is None else float(r["best_round"])
            p.last_match_at = int(r["last_match_at"])
            p.win_rate = p.wins / p.matches if p.matches else 0.0
            p.mean_score = p.score_sum / p.rounds if p.rounds else 0.0
            # the rating stays per game; ranked by the game's minimum of matches
            p.mu, p.sigma, p.ordinal = whole.mu, whole.sigma, whole.ordinal
            p.rated_matches = whole.rated_matches
            players.append(p)
        column, direction = _order(sort, game)
        sign = -1 if direction == "DESC" else 1

        def order(p: PlayerRecord) -> tuple[bool, float, int]:
            provisional = overall[p.user_id].provisional(season.min_matches)
            return provisional, sign * float(getattr(p, column)), p.user_id

        players.sort(key=order)
        ranked = sum(not overall[p.user_id].provisional(season.min_matches) for p in players)
        lines = [BoardLine(i + 1 if i < ranked else None, p) for i, p in enumerate(players)]
        total = len(lines)
        pages = max(1, math.ceil(total / PAGE_SIZE))
        page = min(max(0, page), pages - 1)
        shown = lines[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
        me = next((line for line in lines if line.player.user_id == viewer), None)
        if me is not None and me in shown:
            me = None
        return Board(season, sort, page, pages, total, ranked, shown, me, game, variant)

    async def _record(self, season_id: int, game: str, user_id: int) -> PlayerRecord | None:
        row = await self.storage.fetchrow(
            f"SELECT {_PLAYER_COLUMNS} FROM season_players "
            f"WHERE season_id = ? AND game = ? AND user_id = ?",
            season_id,
            game,
            user_id,
        )
        return _player(row) if row else None

    async def _position(
        self, season: Season, game: str, record: PlayerRecord, sort: str
    ) -> int | None:
        """1-based place on the board sorted by ``sort``; ``None`` if not ranked."""
        if record.provisional(season.min_matches):
            return None
        column, direction = _order(sort, game)
        better = ">" if direction == "DESC" else "<"
        mine = getattr(record, column)
        ahead = await _scalar(
            self.storage,
            f"SELECT COUNT(*) FROM season_players WHERE season_id = ? AND game = ? "
            f"AND matches >= ? AND ({column} {better} ? OR ({column} = ? AND user_id < ?))",
            season.id,
            game,
            season.min_matches,
            mine,
            mine,
            record.user_id,
        )
        return ahead + 1

    async def card(
        self, season: Season, user_id: int, game: str = DEFAULT_GAME
    ) -> PlayerCard | None:
        """One member's season card in ``game`` and the rating after each of their matches."""
        record = await self._record(season.id, game, user_id)
        if record is None:
            return None
        position = await self._position(season, game, record, "rating")
        ranked = await _scalar(
            self.storage,
            "SELECT COUNT(*) FROM season_players WHERE season_id = ? AND game = ? AND matches >= ?",
            season.id,
            game,
            season.min_matches,
        )
        rows = await self.storage.fetch(
            "SELECT ordinal FROM season_results WHERE season_id = ? AND game = ? AND user_id = ? "
            "ORDER BY ended_at, match_id",
            season.id,
            game,
            user_id,
        )
        ratings = [display_rating(float(r[0])) for r in rows]
        played = await self.storage.fetch(
            f"SELECT {_VARIANT} AS variant, COUNT(*) AS matches, SUM(won) AS wins "
            "FROM season_results WHERE season_id = ? AND game = ? AND user_id = ? "
            f"GROUP BY {_VARIANT} ORDER BY COUNT(*) DESC, {_VARIANT}",
            season.id,
            game,
            user_id,
        )
        variants = [(str(r["variant"]), int(r["matches"]), int(r["wins"])) for r in played]
        return PlayerCard(season, record, position, ranked, ratings, game, variants)

    async def export_csv(
        self, season: Season, game: str = DEFAULT_GAME, stats: SeasonStats = TAMALOU_STATS
    ) -> str:
        """The whole season in ``game``, one line per player, ranked players first; the
        columns every game has and ``stats``'s own (the game's, from its plugin)."""
        rows = await self.storage.fetch(
            f"SELECT {_PLAYER_COLUMNS} FROM season_players WHERE season_id = ? AND game = ? "
            f"ORDER BY matches < ?, ordinal DESC, user_id",
            season.id,
            game,
            season.min_matches,
        )
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(stats.csv_header())
        own = [c for counter in stats.counters for c in counter.columns]
        for i, p in enumerate(_player(r) for r in rows):
            ranked = not p.provisional(season.min_matches)
            writer.writerow(
                [
                    i + 1 if ranked else "",
                    p.user_id,
                    p.name,
                    p.matches,
                    p.wins,
                    f"{p.win_rate:.4f}",
                    f"{p.mean_rank:.3f}",
                    p.rounds,
                    p.rounds_won,
                    f"{p.score_sum:g}",
                    f"{p.mean_score:.3f}",
                    "" if p.best_round is None else f"{p.best_round:g}",
                    *(getattr(p, c) for c in own),
                    p.rated_matches,
                    p.rating,
                    int(not ranked),
                    f"{p.mu:.4f}",
                    f"{p.sigma:.4f}",
                    f"{p.ordinal:.4f}",
                ]
            )
        return out.getvalue()


#: Tamalou's CSV columns (each game's: ``SeasonStats.csv_header``)
CSV_HEADER = TAMALOU_STATS.csv_header()


async def _is_recorded(db: Executor, match_id: int) -> bool:
    return (
        await db.fetchrow("SELECT 1 FROM season_matches WHERE match_id = ?", match_id) is not None
    )


async def _scalar(db: Executor, sql: str, *args: Any) -> int:
    value = await db.fetchval(sql, *args)
    return int(value or 0)
