"""The storage interface: every query the bot makes, written once for every backend.

A backend (:mod:`bot.storage.sqlite`, :mod:`bot.storage.postgres`) only provides the
primitives — ``fetch``, ``fetchrow``, ``fetchval``, ``execute``, ``executemany``, a
``transaction`` and the schema version — and turns its driver's errors into
:mod:`bot.storage.errors`. :func:`open_storage` picks the backend from the target:
a ``postgresql://…`` URL, or else a SQLite file path.

Rows come back as typed objects at once. Every accepted action is committed before its
result is shown: :meth:`Storage.append_actions` commits the action (and, when it ended a
round, the round's scores) in one transaction.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, Protocol

import orjson

from bot.storage import dialect
from bot.storage.errors import MigrationError, StorageConflict, StorageError
from bot.storage.rows import (
    ActionRow,
    MatchRow,
    RoundRecord,
    Row,
    SeatRow,
    TableRow,
    match_from_row,
    seat_from_row,
    table_from_row,
)

log = logging.getLogger(__name__)

DEFAULT_BUSY_TIMEOUT_MS = 5000
# A multi-row INSERT of the action log holds at most this many rows (5 values each).
BATCH_ROWS = 500


class Executor(Protocol):
    """What a transaction offers (and the storage itself, one statement at a time)."""

    async def fetch(self, sql: str, *args: Any) -> list[Row]: ...

    async def fetchrow(self, sql: str, *args: Any) -> Row | None: ...

    async def fetchval(self, sql: str, *args: Any) -> Any: ...

    async def execute(self, sql: str, *args: Any) -> None: ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...


def is_postgres(target: str | Path) -> bool:
    return str(target).startswith(("postgresql://", "postgres://"))


def open_storage(target: str | Path = "tamalou.sqlite3", **options: Any) -> Storage:
    """The backend for ``target``: PostgreSQL for a ``postgresql://`` or ``postgres://``
    URL, else a SQLite file. ``options`` go to its constructor (``busy_timeout_ms``,
    ``migrations``)."""
    if is_postgres(target):
        from bot.storage.postgres import PostgresStorage

        return PostgresStorage(target, **options)
    from bot.storage.sqlite import SqliteStorage

    return SqliteStorage(target, **options)


class Storage:
    """The bot's database, whatever the backend (:func:`open_storage` opens one).

    SQL is written with ``?`` placeholders in the dialect both backends share
    (:mod:`bot.storage.dialect`). ``transaction()`` is one atomic unit: all or nothing;
    ``transaction(exclusive=True)`` also waits for every other exclusive transaction of
    the same database (seasons use it: their records are read, updated and written back).
    """

    name = "storage"

    def __init__(
        self,
        target: str | Path = "tamalou.sqlite3",
        *,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        migrations: Sequence[tuple[int, str]] | None = None,
    ) -> None:
        if type(self) is Storage:
            raise TypeError("Storage is the interface: open_storage(target) opens a backend")
        self.path = str(target)
        self.busy_timeout_ms = busy_timeout_ms
        self._migrations = list(migrations) if migrations is not None else None
        # Group commit of plain moves: see _append_rows.
        self._batch: list[tuple[list[tuple[Any, ...]], asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None

    # -- what a backend provides (bot/storage/sqlite.py, bot/storage/postgres.py) --------

    async def connect(self) -> None:
        """Open the connection(s); raise :class:`StorageError` saying what is wrong."""
        raise NotImplementedError

    async def disconnect(self) -> None:
        """Close the connection(s) (:meth:`close` first lets the last batch reach them)."""
        raise NotImplementedError

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        raise NotImplementedError

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        raise NotImplementedError

    async def fetchval(self, sql: str, *args: Any) -> Any:
        raise NotImplementedError

    async def execute(self, sql: str, *args: Any) -> None:
        raise NotImplementedError

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        raise NotImplementedError

    def transaction(self, exclusive: bool = False) -> AbstractAsyncContextManager[Executor]:
        raise NotImplementedError

    async def version_in(self, tx: Executor) -> int:
        """The schema version, read through ``tx`` (the storage itself, or a transaction)."""
        raise NotImplementedError

    def migration_transaction(self) -> AbstractAsyncContextManager[Executor]:
        """A transaction that no other process migrates in at the same time."""
        raise NotImplementedError

    async def set_schema_version(self, tx: Executor, version: int) -> None:
        raise NotImplementedError

    def ddl(self, statement: str) -> str:
        """A migration statement in this backend's dialect."""
        raise NotImplementedError

    async def reset_identities(self, tx: Executor) -> None:
        """After rows were copied in with their ids: the next id follows the largest."""
        return None  # SQLite's AUTOINCREMENT follows explicit ids by itself

    # -- opening and the schema ----------------------------------------------------------

    async def open(self) -> None:
        await self.connect()
        try:
            await self.migrate()
        except BaseException:
            await self.close()
            raise

    async def flush(self) -> None:
        """Wait until every action handed to :meth:`append_actions` so far is committed (or
        failed: its caller got the error). Shutdown calls it before closing."""
        while self._flusher is not None and not self._flusher.done():
            # a failed write was its caller's to report: wait() does not raise it again
            await asyncio.wait({self._flusher})

    async def close(self) -> None:
        """The last batch of actions reaches the database, then the connection(s) close."""
        try:
            await self.flush()
        finally:
            await self.disconnect()

    def migrations(self) -> list[tuple[int, str]]:
        return self._migrations if self._migrations is not None else dialect.migrations()

    async def migrate(self) -> None:
        """Apply every migration above the schema version, each in one transaction."""
        for number, sql in self.migrations():
            if number <= await self.schema_version():
                continue
            log.info("%s: applying migration %03d", self.name, number)
            try:
                async with self.migration_transaction() as tx:
                    if number <= await self.version_in(tx):  # another process did it
                        continue
                    for statement in dialect.statements(sql):
                        await tx.execute(self.ddl(statement))
                    await self.set_schema_version(tx, number)
            except StorageError as exc:
                raise MigrationError(
                    f"Migration {number:03d} failed and was rolled back: {exc.message}",
                    hint="The database is unchanged. Fix the cause and start the bot again.",
                ) from exc

    async def schema_version(self) -> int:
        return await self.version_in(self)

    # -- guild settings ------------------------------------------------------------------

    #: the server's settings columns, as :meth:`guild_settings` names them
    GUILD_KEYS = (
        "language",
        "turn_seconds",
        "variant",
        "threads",
        "ping_after_s",
        "kalooki_turn_s",
        "kalooki_call_s",
        "tarot_turn_s",
        "opener_role_id",
    )

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """The server's stored settings (unset ones left out): ``language``,
        ``turn_seconds`` (Tamalou's), ``variant``, ``threads`` (bool), ``ping_after_s``,
        ``kalooki_turn_s``, ``kalooki_call_s``, ``tarot_turn_s``, ``opener_role_id`` (0:
        every member may open a table)."""
        row = await self.fetchrow(
            f"SELECT {', '.join(self.GUILD_KEYS)} FROM guild_settings WHERE guild_id = ?",
            guild_id,
        )
        if row is None:
            return {}
        out = {k: row[k] for k in self.GUILD_KEYS if row[k] is not None}
        if "threads" in out:
            out["threads"] = bool(out["threads"])
        return out

    async def set_guild_settings(
        self,
        guild_id: int,
        language: str | None,
        turn_seconds: int | None,
        variant: str | None = None,
        *,
        threads: bool | None = None,
        ping_after_s: int | None = None,
        kalooki_turn_s: int | None = None,
        kalooki_call_s: int | None = None,
        tarot_turn_s: int | None = None,
        opener_role_id: int | None = None,
    ) -> None:
        """Stores the settings given (None: unchanged)."""
        values = {
            "language": language,
            "turn_seconds": turn_seconds,
            "variant": variant,
            "threads": None if threads is None else int(threads),
            "ping_after_s": ping_after_s,
            "kalooki_turn_s": kalooki_turn_s,
            "kalooki_call_s": kalooki_call_s,
            "tarot_turn_s": tarot_turn_s,
            "opener_role_id": opener_role_id,
        }
        names = ", ".join(values)
        updates = ", ".join(f"{k} = COALESCE(excluded.{k}, guild_settings.{k})" for k in values)
        await self.execute(
            f"INSERT INTO guild_settings (guild_id, {names}) "
            f"VALUES (?, {', '.join('?' for _ in values)}) "
            f"ON CONFLICT (guild_id) DO UPDATE SET {updates}",
            guild_id,
            *values.values(),
        )

    # -- tables and seats ----------------------------------------------------------------

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host: SeatRow,
        settings: dict[str, Any],
        now: int,
        game: str = "tamalou",
        tournament_id: int | None = None,
    ) -> TableRow | None:
        """A new lobby of ``game``; ``None`` if the channel already has a live table (a
        tournament's tables share their channel with each other and with one other table)."""
        try:
            async with self.transaction() as tx:
                table_id = int(
                    await tx.fetchval(
                        "INSERT INTO tables (guild_id, channel_id, host_id, status, settings, "
                        "created_at, updated_at, game, tournament_id) "
                        "VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?) RETURNING id",
                        guild_id,
                        channel_id,
                        host.user_id,
                        json.dumps(settings),
                        now,
                        now,
                        game,
                        tournament_id,
                    )
                )
                await _insert_seat(tx, table_id, host)
        except StorageConflict:
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
            tournament_id,
        )

    async def save_seats(self, table_id: int, seats: list[SeatRow], host_id: int) -> None:
        async with self.transaction() as tx:
            await tx.execute("DELETE FROM seats WHERE table_id = ?", table_id)
            for seat in seats:
                await _insert_seat(tx, table_id, seat)
            await tx.execute("UPDATE tables SET host_id = ? WHERE id = ?", host_id, table_id)

    async def set_table_status(self, table_id: int, status: str, now: int) -> None:
        await self.execute(
            "UPDATE tables SET status = ?, updated_at = ? WHERE id = ?", status, now, table_id
        )

    async def set_table_message(self, table_id: int, message_id: int | None) -> None:
        await self.execute("UPDATE tables SET message_id = ? WHERE id = ?", message_id, table_id)

    async def set_table_thread(self, table_id: int, thread_id: int | None) -> None:
        """The thread a table plays in (None: its channel)."""
        await self.execute("UPDATE tables SET thread_id = ? WHERE id = ?", thread_id, table_id)

    async def live_tables(self) -> list[TableRow]:
        rows = await self.fetch(
            "SELECT * FROM tables WHERE status IN ('lobby', 'playing') ORDER BY id"
        )
        tables = {r["id"]: table_from_row(r) for r in rows}
        if tables:
            for s in await self.fetch(
                "SELECT s.* FROM seats s JOIN tables t ON t.id = s.table_id "
                "WHERE t.status IN ('lobby', 'playing') ORDER BY s.table_id, s.seat"
            ):
                if s["table_id"] in tables:
                    tables[s["table_id"]].seats.append(seat_from_row(s))
        return list(tables.values())

    async def get_table(self, table_id: int) -> TableRow | None:
        row = await self.fetchrow("SELECT * FROM tables WHERE id = ?", table_id)
        if row is None:
            return None
        table = table_from_row(row)
        for s in await self.fetch("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", table_id):
            table.seats.append(seat_from_row(s))
        return table

    # -- matches and the action log ------------------------------------------------------

    async def create_match(
        self,
        table: TableRow,
        seed: str,
        rules: dict[str, Any],
        seats: list[dict[str, Any]],
        now: int,
    ) -> int:
        async with self.transaction() as tx:
            match_id = int(
                await tx.fetchval(
                    "INSERT INTO matches (table_id, guild_id, seed, rules, seats, started_at, "
                    "status, game) VALUES (?, ?, ?, ?, ?, ?, 'playing', ?) RETURNING id",
                    table.id,
                    table.guild_id,
                    seed,
                    json.dumps(rules),
                    json.dumps(seats),
                    now,
                    table.game,
                )
            )
            await tx.execute(
                "UPDATE tables SET status = 'playing', updated_at = ? WHERE id = ?", now, table.id
            )
        return match_id

    async def current_match(self, table_id: int) -> MatchRow | None:
        row = await self.fetchrow(
            "SELECT * FROM matches WHERE table_id = ? AND status = 'playing' "
            "ORDER BY id DESC LIMIT 1",
            table_id,
        )
        return match_from_row(row) if row else None

    async def get_match(self, match_id: int) -> MatchRow | None:
        row = await self.fetchrow("SELECT * FROM matches WHERE id = ?", match_id)
        return match_from_row(row) if row else None

    async def live_matches(self) -> dict[int, MatchRow]:
        """Every playing table's current match, by table id: a restart reads them at once
        (``current_match`` a table cost a round trip each)."""
        rows = await self.fetch(
            "SELECT m.* FROM matches m JOIN tables t ON t.id = m.table_id "
            "WHERE t.status = 'playing' AND m.status = 'playing' ORDER BY m.id"
        )
        return {int(r["table_id"]): match_from_row(r) for r in rows}  # the latest one wins

    async def actions_of(self, match_ids: list[int]) -> dict[int, list[ActionRow]]:
        """The logs of several matches in one read, by match id (each in order)."""
        logs: dict[int, list[ActionRow]] = {m: [] for m in match_ids}
        if not match_ids:
            return logs
        marks = ", ".join("?" for _ in match_ids)
        for r in await self.fetch(
            "SELECT match_id, n, at, payload, user_id FROM actions "  # only "?" marks go in
            f"WHERE match_id IN ({marks}) ORDER BY match_id, n",
            *match_ids,
        ):
            logs[int(r["match_id"])].append(
                ActionRow(r["n"], r["at"], orjson.loads(r["payload"]), r["user_id"])
            )
        return logs

    async def actions(self, match_id: int) -> list[ActionRow]:
        rows = await self.fetch(
            "SELECT n, at, payload, user_id FROM actions WHERE match_id = ? ORDER BY n", match_id
        )
        return [ActionRow(r["n"], r["at"], orjson.loads(r["payload"]), r["user_id"]) for r in rows]

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
        async with self.transaction() as tx:
            if rows:
                await tx.executemany(
                    "INSERT INTO actions (match_id, n, at, payload, user_id) "
                    "VALUES (?, ?, ?, ?, ?)",
                    rows,
                )
            for record, user_ids in rounds:
                await tx.execute(
                    "INSERT INTO rounds (match_id, round_no, reason, caller, ended_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    match_id,
                    record.round_no,
                    record.reason,
                    record.caller,
                    record.ended_at,
                )
                await tx.executemany(
                    "INSERT INTO round_scores (match_id, round_no, seat, user_id, total, score, "
                    "place) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            match_id,
                            record.round_no,
                            seat,
                            user_ids[seat],
                            float(record.totals[seat]),
                            float(record.scores[seat]),
                            record.places[seat],
                        )
                        for seat in range(len(user_ids))
                    ],
                )
            if finished_at is not None:
                await tx.execute(
                    "UPDATE matches SET status = 'finished', ended_at = ? WHERE id = ?",
                    finished_at,
                    match_id,
                )
                if table_id is not None:
                    await tx.execute(
                        "UPDATE tables SET status = 'finished', updated_at = ? WHERE id = ?",
                        finished_at,
                        table_id,
                    )

    async def _append_rows(self, rows: list[tuple[Any, ...]]) -> None:
        """Commit action rows; returns once they are committed.

        Under load every write waits for its turn, so one transaction per move caps the
        whole bot at a few dozen moves a second. Moves that arrive together are written
        together: one multi-row INSERT (atomic on its own) per batch. If a batch fails,
        each request is retried alone, so one bad request fails alone.
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
            for item in batch:
                if sum(len(rows) for rows, _ in chunks[-1]) + len(item[0]) > BATCH_ROWS:
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
        if not rows:
            return
        await self.execute(
            "INSERT INTO actions (match_id, n, at, payload, user_id) VALUES "
            + ", ".join(["(?, ?, ?, ?, ?)"] * len(rows)),
            *[v for row in rows for v in row],
        )

    async def cancel_table(self, table_id: int, match_id: int | None, now: int) -> None:
        """Cancel a table and its match in one transaction (a kill between the two writes
        would otherwise leave a "closed" table whose channel refuses a new one)."""
        async with self.transaction() as tx:
            if match_id is not None:
                await tx.execute(
                    "UPDATE matches SET status = 'cancelled', ended_at = ? "
                    "WHERE id = ? AND status = 'playing'",
                    now,
                    match_id,
                )
            await tx.execute(
                "UPDATE tables SET status = 'cancelled', updated_at = ? WHERE id = ?",
                now,
                table_id,
            )


async def _insert_seat(tx: Executor, table_id: int, seat: SeatRow) -> None:
    await tx.execute(
        "INSERT INTO seats (table_id, seat, user_id, name, ai_level) VALUES (?, ?, ?, ?, ?)",
        table_id,
        seat.seat,
        seat.user_id,
        seat.name,
        seat.ai_level,
    )
