"""Tournaments in the database: the tournament, its entrants, rounds, tables and scores.

No Discord in here and no connection of its own: everything goes through
:class:`bot.storage.Storage`, so tournaments work on SQLite and PostgreSQL alike. Each
step is written so that doing it twice (after a restart, or by a sweep racing the hook)
changes nothing the second time: a table's result is written only while the table is
playing, a round's scores only while the round is, the final ranking only while the
tournament is (each checked inside one exclusive transaction).
"""

from __future__ import annotations

import csv
import io
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.storage import Executor, Row, Storage
from tamalou.core.tournament import Format, Standing, TablePlan, TableResult

log = logging.getLogger(__name__)

LIVE = ("signup", "playing")
CSV_HEADER = ("rank", "user_id", "name", "score", "buchholz", "withdrawn")


@dataclass(slots=True)
class Entrant:
    user_id: int
    name: str
    entry_no: int
    withdrawn: bool = False
    final_rank: int | None = None
    score: float | None = None
    buchholz: float | None = None


@dataclass(slots=True)
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    game: str
    name: str
    host_id: int
    status: str  # signup, playing, finished, cancelled
    format: Format
    settings: dict[str, Any]  # the tables' settings (turn time, AI level, deals)
    seed: str
    message_id: int | None
    created_at: int
    updated_at: int
    entrants: list[Entrant] = field(default_factory=list)

    @property
    def active(self) -> list[Entrant]:
        return [e for e in self.entrants if not e.withdrawn]

    def entrant(self, user_id: int) -> Entrant | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)


@dataclass(slots=True)
class TourTable:
    tournament_id: int
    round_no: int
    table_no: int
    seed: str
    seats: tuple[int | None, ...]  # member ids; None: an AI seat
    table_id: int | None
    status: str  # playing, finished, cancelled
    result: TableResult | None

    def plan(self) -> TablePlan:
        return TablePlan(self.table_no, self.seed, self.seats)


def _tournament(r: Row) -> Tournament:
    return Tournament(
        r["id"],
        r["guild_id"],
        r["channel_id"],
        r["game"],
        r["name"],
        r["host_id"],
        r["status"],
        Format.model_validate_json(r["format"]),
        json.loads(r["settings"]),
        r["seed"],
        r["message_id"],
        r["created_at"],
        r["updated_at"],
    )


def _entrant(r: Row) -> Entrant:
    return Entrant(
        r["user_id"],
        r["name"],
        r["entry_no"],
        bool(r["withdrawn"]),
        r["final_rank"],
        r["score"],
        r["buchholz"],
    )


def result_to_json(result: TableResult) -> str:
    return json.dumps(
        {"deals": {str(k): list(v) for k, v in result.deals.items()}, "totals": list(result.totals)}
    )


def _table(r: Row) -> TourTable:
    seats = tuple(None if s is None else int(s) for s in json.loads(r["seats"]))
    result = None
    if r["result"] is not None:
        data = json.loads(r["result"])
        deals = {int(k): tuple(float(x) for x in v) for k, v in data["deals"].items()}
        result = TableResult(r["table_no"], seats, deals, tuple(float(x) for x in data["totals"]))
    return TourTable(
        r["tournament_id"],
        r["round_no"],
        r["table_no"],
        r["seed"],
        seats,
        r["table_id"],
        r["status"],
        result,
    )


class TournamentStore:
    def __init__(self, storage: Storage, clock: Callable[[], int]) -> None:
        self.storage = storage
        self.clock = clock

    # -- the tournament and its entrants -----------------------------------------------

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        game: str,
        name: str,
        host_id: int,
        fmt: Format,
        settings: Mapping[str, Any],
        seed: str,
    ) -> Tournament:
        now = self.clock()
        tid = int(
            await self.storage.fetchval(
                "INSERT INTO tournaments (guild_id, channel_id, game, name, host_id, status, "
                "format, settings, seed, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, 'signup', ?, ?, ?, ?, ?) RETURNING id",
                guild_id,
                channel_id,
                game,
                name,
                host_id,
                fmt.model_dump_json(),
                json.dumps(dict(settings)),
                seed,
                now,
                now,
            )
        )
        found = await self.get(tid)
        assert found is not None
        return found

    async def get(self, tournament_id: int) -> Tournament | None:
        row = await self.storage.fetchrow("SELECT * FROM tournaments WHERE id = ?", tournament_id)
        if row is None:
            return None
        found = _tournament(row)
        found.entrants = [
            _entrant(r)
            for r in await self.storage.fetch(
                "SELECT * FROM tournament_entrants WHERE tournament_id = ? ORDER BY entry_no",
                tournament_id,
            )
        ]
        return found

    async def live(self) -> list[Tournament]:
        """Every tournament signing up or playing (a restart picks them up)."""
        ids = await self.storage.fetch(
            "SELECT id FROM tournaments WHERE status IN ('signup', 'playing') ORDER BY id"
        )
        out = []
        for r in ids:
            found = await self.get(int(r["id"]))
            if found is not None:
                out.append(found)
        return out

    async def in_channel(self, channel_id: int, game: str, live: bool) -> Tournament | None:
        """The channel's live tournament of ``game`` (``live``), or its latest one."""
        where = " AND status IN ('signup', 'playing')" if live else ""
        tid = await self.storage.fetchval(
            "SELECT id FROM tournaments WHERE channel_id = ? AND game = ?"  # only constants
            + where
            + " ORDER BY id DESC LIMIT 1",
            channel_id,
            game,
        )
        return None if tid is None else await self.get(int(tid))

    async def set_message(self, tournament_id: int, message_id: int | None) -> None:
        await self.storage.execute(
            "UPDATE tournaments SET message_id = ? WHERE id = ?", message_id, tournament_id
        )

    async def sign_up(self, tournament_id: int, user_id: int, name: str) -> bool:
        """True if the member is signed up now; False if they already were (or it started)."""
        async with self.storage.transaction(exclusive=True) as tx:
            status = await tx.fetchval("SELECT status FROM tournaments WHERE id = ?", tournament_id)
            if status != "signup":
                return False
            if await tx.fetchval(
                "SELECT 1 FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                tournament_id,
                user_id,
            ):
                return False
            last = await tx.fetchval(
                "SELECT MAX(entry_no) FROM tournament_entrants WHERE tournament_id = ?",
                tournament_id,
            )
            await tx.execute(
                "INSERT INTO tournament_entrants (tournament_id, user_id, name, entry_no) "
                "VALUES (?, ?, ?, ?)",
                tournament_id,
                user_id,
                name,
                int(last or 0) + 1,
            )
        return True

    async def leave(self, tournament_id: int, user_id: int) -> None:
        """Before the start: the sign-up is taken back."""
        await self.storage.execute(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
            tournament_id,
            user_id,
        )

    async def withdraw(self, tournament_id: int, user_id: int) -> None:
        """After the start: the member keeps the points won and is seated no more."""
        await self.storage.execute(
            "UPDATE tournament_entrants SET withdrawn = 1 WHERE tournament_id = ? AND user_id = ?",
            tournament_id,
            user_id,
        )

    async def set_status(self, tournament_id: int, status: str) -> None:
        await self.storage.execute(
            "UPDATE tournaments SET status = ?, updated_at = ? WHERE id = ?",
            status,
            self.clock(),
            tournament_id,
        )

    # -- rounds and tables ---------------------------------------------------------------

    async def start_round(
        self, tournament_id: int, round_no: int, plans: Sequence[TablePlan]
    ) -> bool:
        """The round and its seating, once (False: it was already started)."""
        async with self.storage.transaction(exclusive=True) as tx:
            if await tx.fetchval(
                "SELECT 1 FROM tournament_rounds WHERE tournament_id = ? AND round_no = ?",
                tournament_id,
                round_no,
            ):
                return False
            now = self.clock()
            await tx.execute(
                "INSERT INTO tournament_rounds (tournament_id, round_no, status, started_at) "
                "VALUES (?, ?, 'playing', ?)",
                tournament_id,
                round_no,
                now,
            )
            for plan in plans:
                await tx.execute(
                    "INSERT INTO tournament_tables (tournament_id, round_no, table_no, seed, "
                    "seats, status) VALUES (?, ?, ?, ?, ?, 'playing')",
                    tournament_id,
                    round_no,
                    plan.table_no,
                    plan.seed,
                    json.dumps(list(plan.seats)),
                )
            await tx.execute(
                "UPDATE tournaments SET status = 'playing', updated_at = ? WHERE id = ?",
                now,
                tournament_id,
            )
        return True

    async def attach_table(
        self, tournament_id: int, round_no: int, table_no: int, table_id: int
    ) -> None:
        await self.storage.execute(
            "UPDATE tournament_tables SET table_id = ? "
            "WHERE tournament_id = ? AND round_no = ? AND table_no = ?",
            table_id,
            tournament_id,
            round_no,
            table_no,
        )

    async def rounds(self, tournament_id: int) -> list[tuple[int, str]]:
        """Every started round: (number, status), in order."""
        rows = await self.storage.fetch(
            "SELECT round_no, status FROM tournament_rounds WHERE tournament_id = ? "
            "ORDER BY round_no",
            tournament_id,
        )
        return [(int(r["round_no"]), str(r["status"])) for r in rows]

    async def tables(self, tournament_id: int, round_no: int | None = None) -> list[TourTable]:
        if round_no is None:
            rows = await self.storage.fetch(
                "SELECT * FROM tournament_tables WHERE tournament_id = ? "
                "ORDER BY round_no, table_no",
                tournament_id,
            )
        else:
            rows = await self.storage.fetch(
                "SELECT * FROM tournament_tables WHERE tournament_id = ? AND round_no = ? "
                "ORDER BY table_no",
                tournament_id,
                round_no,
            )
        return [_table(r) for r in rows]

    async def table_of(self, table_id: int) -> TourTable | None:
        row = await self.storage.fetchrow(
            "SELECT * FROM tournament_tables WHERE table_id = ?", table_id
        )
        return _table(row) if row is not None else None

    async def finish_table(self, table: TourTable, result: TableResult | None) -> bool:
        """A table's match is over (``result``), or the table closed without one (None).
        Once: False if the table was not playing any more."""
        status = "finished" if result is not None else "cancelled"
        async with self.storage.transaction(exclusive=True) as tx:
            now = await tx.fetchval(
                "SELECT status FROM tournament_tables "
                "WHERE tournament_id = ? AND round_no = ? AND table_no = ?",
                table.tournament_id,
                table.round_no,
                table.table_no,
            )
            if now != "playing":
                return False
            await tx.execute(
                "UPDATE tournament_tables SET status = ?, result = ? "
                "WHERE tournament_id = ? AND round_no = ? AND table_no = ?",
                status,
                None if result is None else result_to_json(result),
                table.tournament_id,
                table.round_no,
                table.table_no,
            )
        return True

    async def score_round(
        self, tournament_id: int, round_no: int, scores: Mapping[int, float]
    ) -> bool:
        """A round's scores by entrant, once (False: the round was scored already)."""
        async with self.storage.transaction(exclusive=True) as tx:
            status = await tx.fetchval(
                "SELECT status FROM tournament_rounds WHERE tournament_id = ? AND round_no = ?",
                tournament_id,
                round_no,
            )
            if status != "playing":
                return False
            await tx.executemany(
                "INSERT INTO tournament_scores (tournament_id, round_no, user_id, score) "
                "VALUES (?, ?, ?, ?)",
                [(tournament_id, round_no, u, float(s)) for u, s in sorted(scores.items())],
            )
            await tx.execute(
                "UPDATE tournament_rounds SET status = 'scored', scored_at = ? "
                "WHERE tournament_id = ? AND round_no = ?",
                self.clock(),
                tournament_id,
                round_no,
            )
        return True

    async def scores(self, tournament_id: int) -> list[dict[int, float]]:
        """Each scored round's scores by entrant, in round order."""
        rows = await self.storage.fetch(
            "SELECT s.round_no, s.user_id, s.score FROM tournament_scores s "
            "JOIN tournament_rounds r ON r.tournament_id = s.tournament_id "
            "AND r.round_no = s.round_no "
            "WHERE s.tournament_id = ? AND r.status = 'scored' ORDER BY s.round_no",
            tournament_id,
        )
        by_round: dict[int, dict[int, float]] = {}
        for r in rows:
            by_round.setdefault(int(r["round_no"]), {})[int(r["user_id"])] = float(r["score"])
        return [by_round[k] for k in sorted(by_round)]

    async def finish(self, tournament_id: int, ranking: Sequence[Standing]) -> bool:
        """The final ranking, once (False: the tournament was not playing any more)."""
        async with self.storage.transaction(exclusive=True) as tx:
            status = await tx.fetchval("SELECT status FROM tournaments WHERE id = ?", tournament_id)
            if status != "playing":
                return False
            await _write_ranking(tx, tournament_id, ranking)
            await tx.execute(
                "UPDATE tournaments SET status = 'finished', updated_at = ? WHERE id = ?",
                self.clock(),
                tournament_id,
            )
        return True

    async def cancel(self, tournament_id: int) -> list[int]:
        """Cancelled with its rounds; the ids of its tables still playing (to close)."""
        async with self.storage.transaction(exclusive=True) as tx:
            rows = await tx.fetch(
                "SELECT table_id FROM tournament_tables WHERE tournament_id = ? "
                "AND status = 'playing' AND table_id IS NOT NULL",
                tournament_id,
            )
            now = self.clock()
            await tx.execute(
                "UPDATE tournament_tables SET status = 'cancelled' "
                "WHERE tournament_id = ? AND status = 'playing'",
                tournament_id,
            )
            await tx.execute(
                "UPDATE tournament_rounds SET status = 'cancelled' "
                "WHERE tournament_id = ? AND status = 'playing'",
                tournament_id,
            )
            await tx.execute(
                "UPDATE tournaments SET status = 'cancelled', updated_at = ? WHERE id = ?",
                now,
                tournament_id,
            )
        return [int(r["table_id"]) for r in rows]

    # -- what members and admins read ------------------------------------------------------

    async def member_results(
        self, guild_id: int, user_id: int, game: str
    ) -> list[tuple[str, int, int, float]]:
        """A member's finished tournaments in ``game``, newest first: (name, rank, entrants,
        score)."""
        rows = await self.storage.fetch(
            "SELECT t.name, e.final_rank, e.score, "
            "(SELECT COUNT(*) FROM tournament_entrants o WHERE o.tournament_id = t.id) AS n "
            "FROM tournament_entrants e JOIN tournaments t ON t.id = e.tournament_id "
            "WHERE t.guild_id = ? AND t.game = ? AND e.user_id = ? AND t.status = 'finished' "
            "ORDER BY t.id DESC",
            guild_id,
            game,
            user_id,
        )
        return [
            (str(r["name"]), int(r["final_rank"]), int(r["n"]), float(r["score"] or 0))
            for r in rows
            if r["final_rank"] is not None
        ]

    async def export_csv(self, tournament_id: int) -> str:
        """The final ranking (or the standing so far), one line per entrant."""
        found = await self.get(tournament_id)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_HEADER)
        if found is None:
            return out.getvalue()
        entrants = sorted(
            found.entrants,
            key=lambda e: (e.final_rank is None, e.final_rank or 0, e.entry_no),
        )
        for e in entrants:
            writer.writerow(
                [
                    "" if e.final_rank is None else e.final_rank,
                    e.user_id,
                    e.name,
                    "" if e.score is None else f"{e.score:g}",
                    "" if e.buchholz is None else f"{e.buchholz:g}",
                    int(e.withdrawn),
                ]
            )
        return out.getvalue()


async def _write_ranking(tx: Executor, tournament_id: int, ranking: Sequence[Standing]) -> None:
    for s in ranking:
        await tx.execute(
            "UPDATE tournament_entrants SET final_rank = ?, score = ?, buchholz = ? "
            "WHERE tournament_id = ? AND user_id = ?",
            s.rank,
            s.score,
            s.buchholz,
            tournament_id,
            s.user_id,
        )
