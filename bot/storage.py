"""SQLite storage through aiosqlite: WAL, numbered migrations (``PRAGMA user_version``).

Rows come back as typed objects at once. Every accepted action is committed before its
result is shown: :meth:`Storage.append_actions` commits the action (and, when it ended a
round, the round's scores) in one transaction.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

log = logging.getLogger(__name__)


@dataclass(slots=True)
class SeatRow:
    seat: int
    user_id: int
    name: str
    ai_level: str | None = None


@dataclass(slots=True)
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    settings: dict[str, Any]
    message_id: int | None
    created_at: int
    updated_at: int
    seats: list[SeatRow] = field(default_factory=list)
    game: str = "tamalou"


@dataclass(slots=True)
class MatchRow:
    id: int
    table_id: int
    guild_id: int
    seed: str
    rules: dict[str, Any]
    seats: list[dict[str, Any]]
    started_at: int
    ended_at: int | None
    status: str
    game: str = "tamalou"


@dataclass(slots=True)
class ActionRow:
    n: int
    at: int
    payload: dict[str, Any]
    user_id: int | None


@dataclass(slots=True)
class RoundRecord:
    round_no: int
    reason: str
    caller: int | None
    ended_at: int
    totals: list[float]
    scores: list[float]
    places: list[int]


def _migrations() -> list[tuple[int, str]]:
    folder = resources.files("bot") / "migrations"
    found = []
    for entry in folder.iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:3].isdigit():
            found.append((int(name[:3]), entry.read_text(encoding="utf-8")))
    return sorted(found)


class Storage:
    """One aiosqlite connection per process (SQLite serialises writers anyway)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db: aiosqlite.Connection | None = None
        # One connection is shared by every coroutine: a write or a transaction holds this
        # lock, so no other coroutine's statement can slip into an open transaction.
        self.lock = asyncio.Lock()
        # Group commit of plain moves: see _append_rows.
        self._batch: list[tuple[list[tuple[Any, ...]], asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("storage is not open")
        return self._db

    async def open(self) -> None:
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        self._db.row_factory = aiosqlite.Row
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.execute("PRAGMA synchronous=NORMAL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute("PRAGMA busy_timeout=5000")
        await self.migrate()

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def migrate(self) -> None:
        """Apply every migration above ``user_version``, each in one transaction."""
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        version = int(row[0]) if row else 0
        for number, sql in _migrations():
            if number <= version:
                continue
            log.info("applying migration %03d", number)
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                for statement in _statements(sql):
                    await self.db.execute(statement)
                await self.db.execute(f"PRAGMA user_version = {number}")
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise

    def transaction(self) -> _Transaction:
        return _Transaction(self)

    async def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        async with self.lock:
            await self.db.execute(sql, args)

    # -- guild settings ----------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        async with self.db.execute(
            "SELECT language, turn_seconds FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return {}
        return {k: row[k] for k in ("language", "turn_seconds") if row[k] is not None}

    async def set_guild_settings(
        self, guild_id: int, language: str | None, turn_seconds: int | None
    ) -> None:
        await self._write(
            "INSERT INTO guild_settings (guild_id, language, turn_seconds) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET "
            "language = COALESCE(excluded.language, language), "
            "turn_seconds = COALESCE(excluded.turn_seconds, turn_seconds)",
            (guild_id, language, turn_seconds),
        )

    # -- tables and seats --------------------------------------------------------------

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host: SeatRow,
        settings: dict[str, Any],
        now: int,
        game: str = "tamalou",
    ) -> TableRow | None:
        """A new lobby of ``game``; ``None`` if the channel already has a live table."""
        try:
            async with _Transaction(self):
                cur = await self.db.execute(
                    "INSERT INTO tables (guild_id, channel_id, host_id, status, settings, "
                    "created_at, updated_at, game) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?)",
                    (guild_id, channel_id, host.user_id, json.dumps(settings), now, now, game),
                )
                table_id = int(cur.lastrowid or 0)
                await self._insert_seat(table_id, host)
        except aiosqlite.IntegrityError:
            return None
        return TableRow(
            table_id,
            guild_id,
            channel_id,
            host.user_id,
            "lobby",
            settings,
            None,
            now,
            now,
            [host],
            game,
        )

    async def _insert_seat(self, table_id: int, seat: SeatRow) -> None:
        await self.db.execute(
            "INSERT INTO seats (table_id, seat, user_id, name, ai_level) VALUES (?, ?, ?, ?, ?)",
            (table_id, seat.seat, seat.user_id, seat.name, seat.ai_level),
        )

    async def save_seats(self, table_id: int, seats: list[SeatRow], host_id: int) -> None:
        async with _Transaction(self):
            await self.db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            for seat in seats:
                await self._insert_seat(table_id, seat)
            await self.db.execute("UPDATE tables SET host_id = ? WHERE id = ?", (host_id, table_id))

    async def set_table_status(self, table_id: int, status: str, now: int) -> None:
        await self._write(
            "UPDATE tables SET status = ?, updated_at = ? WHERE id = ?", (status, now, table_id)
        )

    async def set_table_message(self, table_id: int, message_id: int | None) -> None:
        await self._write("UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id))

    async def live_tables(self) -> list[TableRow]:
        async with self.db.execute(
            "SELECT * FROM tables WHERE status IN ('lobby', 'playing') ORDER BY id"
        ) as cur:
            rows = await cur.fetchall()
        tables = {r["id"]: _table(r) for r in rows}
        if tables:
            async with self.db.execute(
                "SELECT s.* FROM seats s JOIN tables t ON t.id = s.table_id "
                "WHERE t.status IN ('lobby', 'playing') ORDER BY s.table_id, s.seat"
            ) as cur:
                for s in await cur.fetchall():
                    tables[s["table_id"]].seats.append(
                        SeatRow(s["seat"], s["user_id"], s["name"], s["ai_level"])
                    )
        return list(tables.values())

    async def get_table(self, table_id: int) -> TableRow | None:
        async with self.db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        table = _table(row)
        async with self.db.execute(
            "SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
        ) as cur:
            for s in await cur.fetchall():
                table.seats.append(SeatRow(s["seat"], s["user_id"], s["name"], s["ai_level"]))
        return table

    # -- matches and the action log ----------------------------------------------------

    async def create_match(
        self,
        table: TableRow,
        seed: str,
        rules: dict[str, Any],
        seats: list[dict[str, Any]],
        now: int,
    ) -> int:
        async with _Transaction(self):
            cur = await self.db.execute(
                "INSERT INTO matches (table_id, guild_id, seed, rules, seats, started_at, status, "
                "game) VALUES (?, ?, ?, ?, ?, ?, 'playing', ?)",
                (
                    table.id,
                    table.guild_id,
                    seed,
                    json.dumps(rules),
                    json.dumps(seats),
                    now,
                    table.game,
                ),
            )
            await self.db.execute(
                "UPDATE tables SET status = 'playing', updated_at = ? WHERE id = ?",
                (now, table.id),
            )
        return int(cur.lastrowid or 0)

    async def current_match(self, table_id: int) -> MatchRow | None:
        async with self.db.execute(
            "SELECT * FROM matches WHERE table_id = ? AND status = 'playing' "
            "ORDER BY id DESC LIMIT 1",
            (table_id,),
        ) as cur:
            row = await cur.fetchone()
        return match_from_row(row) if row else None

    async def get_match(self, match_id: int) -> MatchRow | None:
        async with self.db.execute("SELECT * FROM matches WHERE id = ?", (match_id,)) as cur:
            row = await cur.fetchone()
        return match_from_row(row) if row else None

    async def actions(self, match_id: int) -> list[ActionRow]:
        async with self.db.execute(
            "SELECT n, at, payload, user_id FROM actions WHERE match_id = ? ORDER BY n",
            (match_id,),
        ) as cur:
            rows = await cur.fetchall()
        return [ActionRow(r["n"], r["at"], json.loads(r["payload"]), r["user_id"]) for r in rows]

    async def append_actions(
        self,
        match_id: int,
        first_n: int,
        entries: list[tuple[int, dict[str, Any], int | None]],
        rounds: list[tuple[RoundRecord, list[int]]],
        finished_at: int | None = None,
        table_id: int | None = None,
    ) -> None:
        """Commit actions (``(at, payload, user_id)``), ended rounds, and a finished match."""
        rows = [
            (match_id, first_n + i, at, json.dumps(payload, separators=(",", ":")), uid)
            for i, (at, payload, uid) in enumerate(entries)
        ]
        if not rounds and finished_at is None:
            await self._append_rows(rows)  # the hot path: a move that ends nothing
            return
        async with _Transaction(self):
            await self.db.executemany(
                "INSERT INTO actions (match_id, n, at, payload, user_id) VALUES (?, ?, ?, ?, ?)",
                rows,
            )
            for record, user_ids in rounds:
                await self.db.execute(
                    "INSERT INTO rounds (match_id, round_no, reason, caller, ended_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (match_id, record.round_no, record.reason, record.caller, record.ended_at),
                )
                await self.db.executemany(
                    "INSERT INTO round_scores (match_id, round_no, seat, user_id, total, score, "
                    "place) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            match_id,
                            record.round_no,
                            seat,
                            user_ids[seat],
                            record.totals[seat],
                            record.scores[seat],
                            record.places[seat],
                        )
                        for seat in range(len(user_ids))
                    ],
                )
            if finished_at is not None:
                await self.db.execute(
                    "UPDATE matches SET status = 'finished', ended_at = ? WHERE id = ?",
                    (finished_at, match_id),
                )
                if table_id is not None:
                    await self.db.execute(
                        "UPDATE tables SET status = 'finished', updated_at = ? WHERE id = ?",
                        (finished_at, table_id),
                    )

    async def _append_rows(self, rows: list[tuple[Any, ...]]) -> None:
        """Commit action rows; returns once they are committed.

        Under load every write waits for the lock and each trip to the sqlite thread waits
        for a turn of the busy event loop, so one transaction per move caps the whole bot
        at a few dozen moves a second. Moves that arrive together are written together: one
        multi-row INSERT (atomic on its own in autocommit mode) per batch.
        """
        done = asyncio.get_running_loop().create_future()
        self._batch.append((rows, done))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush(), name="storage-flush")
        await done

    async def _flush(self) -> None:
        while self._batch:
            batch, self._batch = self._batch, []
            chunks: list[list[tuple[list[tuple[Any, ...]], asyncio.Future[None]]]] = [[]]
            for item in batch:  # at most 500 rows (2,500 variables) a statement
                if sum(len(rows) for rows, _ in chunks[-1]) + len(item[0]) > 500:
                    chunks.append([])
                chunks[-1].append(item)
            try:
                for chunk in chunks:
                    try:
                        await self._insert_actions([r for rows, _ in chunk for r in rows])
                        outcomes: list[BaseException | None] = [None] * len(chunk)
                    except Exception:  # one bad request must not fail the others
                        outcomes = [await self._try_insert(rows) for rows, _ in chunk]
                    for (_, done), exc in zip(chunk, outcomes, strict=True):
                        if done.done():
                            continue
                        if exc is None:
                            done.set_result(None)
                        else:
                            done.set_exception(exc)
            except BaseException as exc:  # cancelled (shutdown): nobody waits forever
                for _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                raise

    async def _try_insert(self, rows: list[tuple[Any, ...]]) -> Exception | None:
        try:
            await self._insert_actions(rows)
        except Exception as exc:
            return exc
        return None

    async def _insert_actions(self, rows: list[tuple[Any, ...]]) -> None:
        async with self.lock:
            await self.db.execute(
                "INSERT INTO actions (match_id, n, at, payload, user_id) VALUES "
                + ", ".join(["(?, ?, ?, ?, ?)"] * len(rows)),
                [v for row in rows for v in row],
            )

    async def cancel_match(self, match_id: int, now: int) -> None:
        await self._write(
            "UPDATE matches SET status = 'cancelled', ended_at = ? WHERE id = ?", (now, match_id)
        )


class _Transaction:
    """``async with`` block: the storage lock, BEGIN IMMEDIATE … COMMIT (ROLLBACK on error)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def __aenter__(self) -> aiosqlite.Connection:
        await self.storage.lock.acquire()
        try:
            await self.storage.db.execute("BEGIN IMMEDIATE")
        except BaseException:
            self.storage.lock.release()
            raise
        return self.storage.db

    async def __aexit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            await self.storage.db.execute("ROLLBACK" if exc_type else "COMMIT")
        finally:
            self.storage.lock.release()


def _statements(sql: str) -> list[str]:
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def _table(r: aiosqlite.Row) -> TableRow:
    return TableRow(
        r["id"],
        r["guild_id"],
        r["channel_id"],
        r["host_id"],
        r["status"],
        json.loads(r["settings"]),
        r["message_id"],
        r["created_at"],
        r["updated_at"],
        game=r["game"],
    )


def match_from_row(r: aiosqlite.Row) -> MatchRow:
    return MatchRow(
        r["id"],
        r["table_id"],
        r["guild_id"],
        r["seed"],
        json.loads(r["rules"]),
        json.loads(r["seats"]),
        r["started_at"],
        r["ended_at"],
        r["status"],
        r["game"],
    )
