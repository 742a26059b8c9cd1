"""SQLite through aiosqlite: one connection per process, WAL, ``PRAGMA user_version``.

SQLite serialises writers anyway, so the process keeps one connection and an asyncio lock:
a statement or a transaction holds the lock, so no other coroutine's statement can slip
into an open transaction. Transactions are ``BEGIN IMMEDIATE``: the write lock is taken
at the start, and a writer that holds it longer than the busy timeout makes ours raise
:class:`StorageBusy` instead of waiting for ever.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager, suppress
from typing import Any

import aiosqlite

from bot.storage.base import Executor, Storage
from bot.storage.errors import StorageBusy, StorageConflict, StorageError
from bot.storage.rows import Row

log = logging.getLogger(__name__)


def translate(exc: sqlite3.Error, path: str, busy_timeout_ms: int) -> StorageError:
    """The typed error for a sqlite3 exception, in words an operator can act on."""
    text = str(exc)
    low = text.lower()
    if isinstance(exc, sqlite3.IntegrityError):
        return StorageConflict(f"The database refused a duplicate: {text}.")
    if "locked" in low or "busy" in low:
        return StorageBusy(
            f"The database {path} is locked by another writer "
            f"(waited {busy_timeout_ms} ms): nothing was written.",
            hint="Retry in a moment.",
        )
    if "readonly" in low or "read-only" in low:
        return StorageError(
            f"The database {path} is read-only ({text}).",
            hint="Give the bot's user write access to the file and its folder, "
            "or set TAMALOU_DB to a writable file.",
        )
    if "not a database" in low or "malformed" in low or "corrupt" in low:
        return StorageError(
            f"The database {path} is corrupt or is not a Tamalou database ({text}).",
            hint="Restore it from a backup, or move it away to start an empty one "
            "(or set TAMALOU_DB to another file).",
        )
    if "unable to open" in low:
        return StorageError(
            f"The database {path} cannot be opened ({text}).",
            hint="Check that its folder exists and that the bot's user may write there, "
            "or set TAMALOU_DB to another file.",
        )
    if "disk" in low and ("full" in low or "i/o" in low):
        return StorageError(
            f"The disk that holds {path} failed a write ({text}): nothing was written.",
            hint="Free some space (or check the disk), then retry.",
        )
    return StorageError(f"The database {path} refused a statement: {text}.")


class _Tx:
    """The statements of one open transaction (the storage lock is already held)."""

    def __init__(self, storage: SqliteStorage) -> None:
        self.storage = storage

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return await self.storage._fetch(sql, args)

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        rows = await self.storage._fetch(sql, args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *args: Any) -> Any:
        rows = await self.storage._fetch(sql, args)
        return rows[0][0] if rows else None

    async def execute(self, sql: str, *args: Any) -> None:
        await self.storage._execute(sql, args)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with self.storage._errors():
            await self.storage.db.executemany(sql, rows)


async def _connected(conn: aiosqlite.Connection) -> aiosqlite.Connection:
    """``await conn``; when the file cannot be opened, wait for aiosqlite's worker thread to
    end before raising. aiosqlite stops the thread without waiting for it: the thread then
    answered a stop on an event loop ``asyncio.run`` had already closed, and printed a
    25-line traceback after the error's one line."""
    try:
        return await conn
    except BaseException:
        thread = getattr(conn, "_thread", None)  # aiosqlite's worker (no public handle)
        if thread is not None and thread.is_alive():
            await asyncio.to_thread(thread.join, 5.0)
        raise


class SqliteStorage(Storage):
    name = "sqlite"

    def __init__(self, target: Any = "tamalou.sqlite3", **options: Any) -> None:
        super().__init__(target, **options)
        self._db: aiosqlite.Connection | None = None
        self.lock = asyncio.Lock()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StorageError("The database is not open.")
        return self._db

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            raise translate(exc, self.path, self.busy_timeout_ms) from exc
        except OverflowError as exc:  # a Python int past 64 bits, as PostgreSQL refuses it
            raise StorageError(
                f"A value does not fit the database's 64-bit integers: {exc}."
            ) from exc

    async def connect(self) -> None:
        try:
            with self._errors():
                self._db = await _connected(aiosqlite.connect(self.path, isolation_level=None))
                self._db.row_factory = sqlite3.Row
                await self._execute(f"PRAGMA busy_timeout={int(self.busy_timeout_ms)}", ())
                # reads the file's header and schema: a corrupt file fails here, not later
                await self._fetch("SELECT COUNT(*) FROM sqlite_master", ())
                await self._fetch("PRAGMA journal_mode=WAL", ())
                await self._execute("PRAGMA synchronous=NORMAL", ())
                await self._execute("PRAGMA foreign_keys=ON", ())
                # a read-only file only shows at the first write: write now (the same
                # schema version, rolled back)
                version = int((await self._fetch("PRAGMA user_version", ()))[0][0])
                await self._execute("BEGIN IMMEDIATE", ())
                try:
                    await self._execute(f"PRAGMA user_version = {version}", ())
                finally:
                    await self._execute("ROLLBACK", ())
        except BaseException:
            await self.disconnect()
            raise

    async def disconnect(self) -> None:
        if self._db is not None:
            db, self._db = self._db, None
            with suppress(sqlite3.Error, ValueError):
                await db.close()

    async def _fetch(self, sql: str, args: Sequence[Any]) -> list[Row]:
        with self._errors():
            async with self.db.execute(sql, tuple(args)) as cur:
                return list(await cur.fetchall())

    async def _execute(self, sql: str, args: Sequence[Any]) -> None:
        with self._errors():
            async with self.db.execute(sql, tuple(args)):
                pass

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        async with self.lock:
            return await self._fetch(sql, args)

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *args: Any) -> Any:
        rows = await self.fetch(sql, *args)
        return rows[0][0] if rows else None

    async def execute(self, sql: str, *args: Any) -> None:
        async with self.lock:
            await self._execute(sql, args)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        async with self.lock, self.transaction_unlocked() as tx:
            await tx.executemany(sql, rows)

    @asynccontextmanager
    async def transaction(self, exclusive: bool = False) -> AsyncIterator[Executor]:
        # Every SQLite transaction is exclusive: BEGIN IMMEDIATE takes the write lock.
        async with self.lock, self.transaction_unlocked() as tx:
            yield tx

    @asynccontextmanager
    async def transaction_unlocked(self) -> AsyncIterator[Executor]:
        db = self.db
        with self._errors():
            await db.execute("BEGIN IMMEDIATE")
        try:
            yield _Tx(self)
        except BaseException:
            with suppress(sqlite3.Error):
                await db.execute("ROLLBACK")
            raise
        try:
            with self._errors():
                await db.execute("COMMIT")
        except BaseException:
            with suppress(sqlite3.Error):
                await db.execute("ROLLBACK")
            raise

    def migration_transaction(self) -> Any:
        return self.transaction()

    async def version_in(self, tx: Executor) -> int:
        return int(await tx.fetchval("PRAGMA user_version") or 0)

    async def set_schema_version(self, tx: Executor, version: int) -> None:
        await tx.execute(f"PRAGMA user_version = {int(version)}")

    def ddl(self, statement: str) -> str:
        return statement
