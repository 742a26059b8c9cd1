"""Per-server seasons: season records, the rating, the leaderboard, the CSV export, the chart.

No Discord in here (``bot/seasons_commands.py`` is the Discord side). A finished match is
recorded once: the records of its human seats, their new ratings and a ``season_matches``
row are written in one transaction, and a match that already has that row is skipped, so
the hook called after a match and the startup sweep may both try it safely.

The rating is OpenSkill's Plackett-Luce model, updated from the final ranking of every
match with at least two humans (AI seats are not rated). The board ranks by its
conservative value (``ordinal`` = mu - 3 sigma) and lists players under the season's
minimum of matches after the ranked ones, without a rank.

Each operation opens its own short-lived connection: a season write is then one real
transaction that no other coroutine's statements can slip into (the table service shares
one connection), and nothing is left open when the bot stops.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import logging
import math
import os
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite
from openskill.models import PlackettLuce

from bot.service import TableError
from bot.storage import MatchRow, match_from_row
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.codec import action_from_dict
from tamalou.games.tamalou.engine import apply, new_game
from tamalou.games.tamalou.rules import Rules

log = logging.getLogger(__name__)

DEFAULT_MIN_MATCHES = 3
PAGE_SIZE = 10
SORTS = ("rating", "wins", "winrate", "score")
# sort -> (column, direction); the user id breaks ties so pages never overlap
_ORDER: dict[str, tuple[str, str]] = {
    "rating": ("ordinal", "DESC"),
    "wins": ("wins", "DESC"),
    "winrate": ("win_rate", "DESC"),
    "score": ("mean_score", "ASC"),  # a low round score is good in Tamalou
}
_PLAYER_COLUMNS = (
    "user_id, name, matches, wins, rank_sum, rounds, rounds_won, score_sum, calls_right, "
    "calls_wrong, doubles, doubles_missed, best_round, rated_matches, mu, sigma, ordinal, "
    "win_rate, mean_score, last_match_at"
)

MODEL = PlackettLuce()


def now_ms() -> int:
    return int(time.time() * 1000)


def default_min_matches() -> int:
    """``TAMALOU_MIN_MATCHES`` (default 3): the minimum of a guild's first season."""
    raw = os.environ.get("TAMALOU_MIN_MATCHES", "").strip()
    return int(raw) if raw.isdigit() else DEFAULT_MIN_MATCHES


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
    """A human's season record (one ``season_players`` row)."""

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
        return (
            self.user_id,
            self.name,
            self.matches,
            self.wins,
            self.rank_sum,
            self.rounds,
            self.rounds_won,
            self.score_sum,
            self.calls_right,
            self.calls_wrong,
            self.doubles,
            self.doubles_missed,
            self.best_round,
            self.rated_matches,
            self.mu,
            self.sigma,
            self.ordinal,
            self.win_rate,
            self.mean_score,
            self.last_match_at,
        )


def _player(r: aiosqlite.Row) -> PlayerRecord:
    return PlayerRecord(*(r[k] for k in _PLAYER_COLUMNS.split(", ")))


def _season(r: aiosqlite.Row) -> Season:
    keys = r.keys()
    return Season(
        r["id"],
        r["guild_id"],
        r["number"],
        r["name"],
        r["min_matches"],
        r["started_at"],
        r["ended_at"],
        r["matches"] if "matches" in keys else 0,
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


@dataclass(slots=True)
class PlayerCard:
    season: Season
    player: PlayerRecord
    position: int | None
    ranked: int
    ratings: list[float] = field(default_factory=list)  # ordinal after each match


# -- one match: what each seat did -----------------------------------------------------------


@dataclass(slots=True)
class SeatResult:
    seat: int
    user_id: int
    name: str
    human: bool
    rank: int = 0
    won: bool = False
    rounds: int = 0
    rounds_won: int = 0
    score_sum: float = 0.0
    best_round: float | None = None
    calls_right: int = 0
    calls_wrong: int = 0
    doubles: int = 0
    doubles_missed: int = 0


def analyse_match(
    match: MatchRow,
    actions: Sequence[dict[str, Any]],
    round_rows: Sequence[tuple[int, int, float, int]] = (),
) -> list[SeatResult]:
    """Every seat's result, from the replayed action log (the truth).

    ``round_rows`` (round_no, seat, score, place) from ``round_scores`` stand in for the
    rounds only if the log does not replay to the end of the match.
    """
    seats = [
        SeatResult(i, int(s["user_id"]), str(s.get("name") or s["user_id"]), not s.get("ai_level"))
        for i, s in enumerate(match.seats)
    ]
    rounds: list[tuple[Sequence[float], Sequence[int]]] = []
    final: tuple[Sequence[float], Sequence[int]] | None = None
    try:
        rules = Rules.model_validate(match.rules)
        game, _ = new_game(
            rules, len(seats), match.seed, match.started_at, [not s.human for s in seats]
        )
        for payload in actions:
            for e in apply(game, action_from_dict(payload)):
                if isinstance(e, E.Called):
                    if e.right:
                        seats[e.player].calls_right += 1
                    else:
                        seats[e.player].calls_wrong += 1
                elif isinstance(e, E.Doubled):
                    seats[e.player].doubles += 1
                elif isinstance(e, E.DoubleMissed):
                    seats[e.player].doubles_missed += 1
                elif isinstance(e, E.RoundEnded):
                    rounds.append((e.scores, e.places))
                    if e.match_over:
                        final = (e.cumulative, e.winners)
    except Exception:
        log.warning("match %s: the action log does not replay", match.id, exc_info=True)
    if final is None:
        log.warning("match %s: rounds taken from round_scores", match.id)
        by_round: dict[int, tuple[list[float], list[int]]] = {}
        for round_no, seat, score, place in sorted(round_rows):
            row_scores, row_places = by_round.setdefault(
                round_no, ([0.0] * len(seats), [len(seats)] * len(seats))
            )
            if 0 <= seat < len(seats):
                row_scores[seat], row_places[seat] = float(score), int(place)
        rounds = list(by_round.values())
        sums = [sum(r[0][i] for r in rounds) for i in range(len(seats))]
        best = min(sums, default=0.0)
        final = (sums, [i for i, c in enumerate(sums) if c == best])
    for scores, places in rounds:
        for s in seats:
            score = float(scores[s.seat])
            s.rounds += 1
            s.rounds_won += int(places[s.seat] == 1)
            s.score_sum += score
            s.best_round = score if s.best_round is None else min(s.best_round, score)
    cumulative, winners = final
    for s in seats:
        s.rank = 1 + sum(1 for c in cumulative if c < cumulative[s.seat])
        s.won = s.seat in winners
    return seats


def rate(
    ratings: Sequence[tuple[float, float]], ranks: Sequence[int]
) -> list[tuple[float, float, float]]:
    """Plackett-Luce update of one match: (mu, sigma) and rank per player -> (mu, sigma, ordinal)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [(t[0].mu, t[0].sigma, t[0].ordinal()) for t in rated]


# -- the store -----------------------------------------------------------------------------


async def _mark_recorded(
    db: aiosqlite.Connection, match_id: int, season_id: int, rated: bool, humans: int, now: int
) -> None:
    """The exactly-once marker, written last in the recording transaction."""
    await db.execute(
        "INSERT INTO season_matches (match_id, season_id, rated, humans, recorded_at) "
        "VALUES (?, ?, ?, ?, ?)",
        (match_id, season_id, int(rated), humans, now),
    )


class Seasons:
    def __init__(
        self,
        path: str | Path,
        min_matches: int | None = None,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.path = str(path)
        self.min_matches = default_min_matches() if min_matches is None else min_matches
        self.clock = clock
        self._write_lock = asyncio.Lock()

    @asynccontextmanager
    async def _connect(self) -> AsyncIterator[aiosqlite.Connection]:
        db = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            db.row_factory = aiosqlite.Row
            await db.execute("PRAGMA busy_timeout=5000")
            await db.execute("PRAGMA foreign_keys=ON")
            yield db
        finally:
            await db.close()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._write_lock, self._connect() as db:
            await db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                await db.execute("ROLLBACK")
                raise
            await db.execute("COMMIT")

    # -- seasons ---------------------------------------------------------------------------

    async def _current(self, db: aiosqlite.Connection, guild_id: int) -> Season | None:
        async with db.execute(
            "SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
        ) as cur:
            row = await cur.fetchone()
        return _season(row) if row else None

    async def _open_next(
        self, db: aiosqlite.Connection, guild_id: int, name: str | None, min_matches: int | None
    ) -> Season:
        async with db.execute(
            "SELECT number, min_matches FROM seasons WHERE guild_id = ? ORDER BY number DESC "
            "LIMIT 1",
            (guild_id,),
        ) as cur:
            last = await cur.fetchone()
        number = (last["number"] + 1) if last else 1
        if min_matches is None:
            min_matches = last["min_matches"] if last else self.min_matches
        now = self.clock()
        cur = await db.execute(
            "INSERT INTO seasons (guild_id, number, name, min_matches, started_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (guild_id, number, name, min_matches, now),
        )
        return Season(int(cur.lastrowid or 0), guild_id, number, name, min_matches, now, None)

    async def current(self, guild_id: int) -> Season | None:
        async with self._connect() as db:
            return await self._current(db, guild_id)

    async def get(self, guild_id: int, number: int | None = None) -> Season | None:
        """Season ``number`` of the guild, or its current season."""
        if number is None:
            return await self.current(guild_id)
        async with (
            self._connect() as db,
            db.execute(
                "SELECT * FROM seasons WHERE guild_id = ? AND number = ?", (guild_id, number)
            ) as cur,
        ):
            row = await cur.fetchone()
        return _season(row) if row else None

    async def by_id(self, season_id: int) -> Season | None:
        async with (
            self._connect() as db,
            db.execute("SELECT * FROM seasons WHERE id = ?", (season_id,)) as cur,
        ):
            row = await cur.fetchone()
        return _season(row) if row else None

    async def in_guild(self, guild_id: int) -> list[Season]:
        async with (
            self._connect() as db,
            db.execute(
                "SELECT s.*, (SELECT COUNT(*) FROM season_matches m WHERE m.season_id = s.id) "
                "AS matches FROM seasons s WHERE guild_id = ? ORDER BY number",
                (guild_id,),
            ) as cur,
        ):
            return [_season(r) for r in await cur.fetchall()]

    async def start(
        self, guild_id: int, name: str | None = None, min_matches: int | None = None
    ) -> tuple[Season | None, Season]:
        """End the current season (its board is frozen) and open the next one."""
        async with self._transaction() as db:
            ended = await self._current(db, guild_id)
            if ended is not None:
                await self._close(db, ended)
            fresh = await self._open_next(db, guild_id, name, min_matches)
        return ended, fresh

    async def end(self, guild_id: int) -> tuple[Season, Season]:
        """``season end``: freeze the current season and start the next (default name)."""
        async with self._transaction() as db:
            ended = await self._current(db, guild_id)
            if ended is None:
                raise SeasonError("no_season")
            await self._close(db, ended)
            fresh = await self._open_next(db, guild_id, None, None)
        return ended, fresh

    async def _close(self, db: aiosqlite.Connection, season: Season) -> None:
        await db.execute("UPDATE seasons SET ended_at = ? WHERE id = ?", (self.clock(), season.id))

    # -- recording -------------------------------------------------------------------------

    async def record_match(self, match_id: int) -> Season | None:
        """Record a finished match in its guild's current season, once.

        Returns the season, or ``None`` if the match is not finished or already recorded.
        """
        async with self._connect() as db:
            async with db.execute("SELECT * FROM matches WHERE id = ?", (match_id,)) as cur:
                row = await cur.fetchone()
            if row is None or row["status"] != "finished":
                return None
            if await _is_recorded(db, match_id):
                return None
            match = match_from_row(row)
            async with db.execute(
                "SELECT payload FROM actions WHERE match_id = ? ORDER BY n", (match_id,)
            ) as cur:
                actions = [_json(r["payload"]) for r in await cur.fetchall()]
            async with db.execute(
                "SELECT round_no, seat, score, place FROM round_scores WHERE match_id = ?",
                (match_id,),
            ) as cur:
                round_rows = [(r[0], r[1], r[2], r[3]) for r in await cur.fetchall()]
        seats = analyse_match(match, actions, round_rows)
        async with self._transaction() as db:
            if await _is_recorded(db, match_id):  # recorded meanwhile by another caller
                return None
            season = await self._current(db, match.guild_id)
            if season is None:
                season = await self._open_next(db, match.guild_id, None, None)
            await self._write(db, season, match, seats)
        log.info("match %s recorded in season %s", match_id, season.id)
        return season

    async def _write(
        self, db: aiosqlite.Connection, season: Season, match: MatchRow, seats: list[SeatResult]
    ) -> None:
        humans: list[SeatResult] = []
        for s in seats:  # one line per human, even if seated twice
            if s.human and all(h.user_id != s.user_id for h in humans):
                humans.append(s)
        ended_at = match.ended_at or self.clock()
        records: dict[int, PlayerRecord] = {}
        if humans:
            marks = ",".join("?" * len(humans))
            async with db.execute(
                f"SELECT {_PLAYER_COLUMNS} FROM season_players "
                f"WHERE season_id = ? AND user_id IN ({marks})",
                (season.id, *[h.user_id for h in humans]),
            ) as cur:
                records = {r["user_id"]: _player(r) for r in await cur.fetchall()}
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
        for h in humans:
            record = records[h.user_id]
            record.add(h, ended_at)
            await db.execute(
                f"INSERT OR REPLACE INTO season_players (season_id, {_PLAYER_COLUMNS}) "
                f"VALUES (?, {','.join('?' * 20)})",
                (season.id, *record.values()),
            )
            await db.execute(
                "INSERT INTO season_results (season_id, match_id, user_id, seat, ended_at, rank, "
                "won, rounds, rounds_won, score_sum, calls_right, calls_wrong, doubles, "
                "doubles_missed, best_round, mu, sigma, ordinal) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    season.id,
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
                ),
            )
        await _mark_recorded(db, match.id, season.id, rated, len(humans), self.clock())

    async def sweep(self) -> int:
        """Record every finished match that has no ``season_matches`` row (start-up)."""
        async with (
            self._connect() as db,
            db.execute(
                "SELECT id FROM matches m WHERE status = 'finished' AND NOT EXISTS "
                "(SELECT 1 FROM season_matches s WHERE s.match_id = m.id) ORDER BY ended_at, id"
            ) as cur,
        ):
            pending = [int(r[0]) for r in await cur.fetchall()]
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
        self, season: Season, sort: str = "rating", page: int = 0, viewer: int | None = None
    ) -> Board:
        """Page ``page`` (from 0) of the board; ranked players first, then the others."""
        if sort not in _ORDER:
            sort = "rating"
        column, direction = _ORDER[sort]
        order = f"{column} {direction}, user_id"
        need = season.min_matches
        async with self._connect() as db:
            total = await _scalar(
                db, "SELECT COUNT(*) FROM season_players WHERE season_id = ?", season.id
            )
            ranked = await _scalar(
                db,
                "SELECT COUNT(*) FROM season_players WHERE season_id = ? AND matches >= ?",
                season.id,
                need,
            )
            pages = max(1, math.ceil(total / PAGE_SIZE))
            page = min(max(0, page), pages - 1)
            offset = page * PAGE_SIZE
            lines: list[BoardLine] = []
            if offset < ranked:
                async with db.execute(
                    f"SELECT {_PLAYER_COLUMNS} FROM season_players "
                    f"WHERE season_id = ? AND matches >= ? ORDER BY {order} LIMIT ? OFFSET ?",
                    (season.id, need, PAGE_SIZE, offset),
                ) as cur:
                    rows = await cur.fetchall()
                lines += [BoardLine(offset + i + 1, _player(r)) for i, r in enumerate(rows)]
            if len(lines) < PAGE_SIZE and total > ranked:
                async with db.execute(
                    f"SELECT {_PLAYER_COLUMNS} FROM season_players "
                    f"WHERE season_id = ? AND matches < ? ORDER BY {order} LIMIT ? OFFSET ?",
                    (season.id, need, PAGE_SIZE - len(lines), max(0, offset - ranked)),
                ) as cur:
                    lines += [BoardLine(None, _player(r)) for r in await cur.fetchall()]
            me: BoardLine | None = None
            if viewer is not None and all(line.player.user_id != viewer for line in lines):
                record = await self._record(db, season.id, viewer)
                if record is not None:
                    me = BoardLine(await self._position(db, season, record, sort), record)
        return Board(season, sort, page, pages, total, ranked, lines, me)

    async def _record(
        self, db: aiosqlite.Connection, season_id: int, user_id: int
    ) -> PlayerRecord | None:
        async with db.execute(
            f"SELECT {_PLAYER_COLUMNS} FROM season_players WHERE season_id = ? AND user_id = ?",
            (season_id, user_id),
        ) as cur:
            row = await cur.fetchone()
        return _player(row) if row else None

    async def _position(
        self, db: aiosqlite.Connection, season: Season, record: PlayerRecord, sort: str
    ) -> int | None:
        """1-based place on the board sorted by ``sort``; ``None`` if not ranked."""
        if record.matches < season.min_matches:
            return None
        column, direction = _ORDER[sort]
        better = ">" if direction == "DESC" else "<"
        mine = getattr(record, column)
        ahead = await _scalar(
            db,
            f"SELECT COUNT(*) FROM season_players WHERE season_id = ? AND matches >= ? AND "
            f"({column} {better} ? OR ({column} = ? AND user_id < ?))",
            season.id,
            season.min_matches,
            mine,
            mine,
            record.user_id,
        )
        return ahead + 1

    async def card(self, season: Season, user_id: int) -> PlayerCard | None:
        """One member's season card and the rating after each of their matches."""
        async with self._connect() as db:
            record = await self._record(db, season.id, user_id)
            if record is None:
                return None
            position = await self._position(db, season, record, "rating")
            ranked = await _scalar(
                db,
                "SELECT COUNT(*) FROM season_players WHERE season_id = ? AND matches >= ?",
                season.id,
                season.min_matches,
            )
            async with db.execute(
                "SELECT ordinal FROM season_results WHERE season_id = ? AND user_id = ? "
                "ORDER BY ended_at, match_id",
                (season.id, user_id),
            ) as cur:
                ratings = [float(r[0]) for r in await cur.fetchall()]
        return PlayerCard(season, record, position, ranked, ratings)

    async def export_csv(self, season: Season) -> str:
        """The whole season, one line per player, in rating order (ranked players first)."""
        async with (
            self._connect() as db,
            db.execute(
                f"SELECT {_PLAYER_COLUMNS} FROM season_players WHERE season_id = ? "
                f"ORDER BY matches < ?, ordinal DESC, user_id",
                (season.id, season.min_matches),
            ) as cur,
        ):
            records = [_player(r) for r in await cur.fetchall()]
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_HEADER)
        for i, p in enumerate(records):
            ranked = p.matches >= season.min_matches
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
                    p.calls_right,
                    p.calls_wrong,
                    p.doubles,
                    p.doubles_missed,
                    p.rated_matches,
                    f"{p.mu:.4f}",
                    f"{p.sigma:.4f}",
                    f"{p.ordinal:.4f}",
                ]
            )
        return out.getvalue()


CSV_HEADER = (
    "rank",
    "user_id",
    "name",
    "matches",
    "wins",
    "win_rate",
    "mean_rank",
    "rounds",
    "rounds_won",
    "total_round_score",
    "mean_round_score",
    "best_round",
    "calls_right",
    "calls_wrong",
    "doubles",
    "doubles_missed",
    "rated_matches",
    "mu",
    "sigma",
    "rating",
)


async def _is_recorded(db: aiosqlite.Connection, match_id: int) -> bool:
    async with db.execute("SELECT 1 FROM season_matches WHERE match_id = ?", (match_id,)) as cur:
        return await cur.fetchone() is not None


async def _scalar(db: aiosqlite.Connection, sql: str, *args: Any) -> int:
    async with db.execute(sql, args) as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


def _json(text: str) -> Any:
    return json.loads(text)


# -- the chart -------------------------------------------------------------------------------


def rating_chart(ratings: Sequence[float], title: str, x_label: str, y_label: str) -> bytes:
    """A small PNG of the rating after each match (blocking: call it in a thread)."""
    # Figure + Agg canvas, never pyplot: no global state, safe outside the main thread.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.0, 2.6), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    xs = list(range(1, len(ratings) + 1))
    ax.plot(xs, list(ratings), marker="o", markersize=3, linewidth=1.6, color="#5865F2")
    ax.axhline(0, color="#999999", linewidth=0.6)
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(x_label, fontsize=8)
    ax.set_ylabel(y_label, fontsize=8)
    ax.tick_params(labelsize=7)
    ax.grid(alpha=0.3)
    if len(xs) <= 12:
        ax.set_xticks(xs)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()
