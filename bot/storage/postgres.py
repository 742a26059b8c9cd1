"""PostgreSQL through asyncpg: a connection pool, the same queries and migrations.

``TAMALOU_DB=postgresql://user:password@host:5432/dbname`` selects it. Statements are
translated by :mod:`bot.storage.dialect` (placeholders, migration types). Every connection
runs with ``lock_timeout`` = the busy timeout, so a writer held up behind another one's
lock longer than that raises :class:`StorageBusy`, as on SQLite. Exclusive transactions
(seasons) serialise on one transaction-scoped advisory lock, which several bot processes
sharing the database respect too.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import Any
from urllib.parse import urlsplit

import asyncpg

from bot.storage import dialect
from bot.storage.base import Executor, Storage
from bot.storage.errors import StorageBusy, StorageConflict, StorageError
from bot.storage.rows import Row

log = logging.getLogger(__name__)

# pg_advisory_xact_lock keys (any two fixed bigints of ours)
MIGRATION_LOCK = 0x7A4A_0001
EXCLUSIVE_LOCK = 0x7A4A_0002


def where(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    return f"postgresql://{parts.username + '@' if parts.username else ''}{host}{port}{parts.path}"


def translate(exc: BaseException, url: str, busy_timeout_ms: int) -> StorageError:
    text = str(exc).strip() or type(exc).__name__
    here = where(url)
    if isinstance(
        exc,
        asyncpg.LockNotAvailableError | asyncpg.DeadlockDetectedError | asyncpg.SerializationError,
    ):
        return StorageBusy(
            f"The database {here} is locked by another writer "
            f"(waited {busy_timeout_ms} ms): nothing was written.",
            hint="Retry in a moment.",
        )
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        return StorageConflict(f"The database refused a duplicate: {text}.")
    if isinstance(exc, asyncpg.ReadOnlySQLTransactionError):
        return StorageError(
            f"The database {here} is read-only ({text}).",
            hint="Point TAMALOU_DB at the primary server, or grant the bot's role write access.",
        )
    if isinstance(exc, asyncpg.DiskFullError):
        return StorageError(
            f"The disk of the database server {here} is full: nothing was written.",
            hint="Free some space on the server, then retry.",
        )
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        return StorageError(
            f"The database {here} does not exist ({text}).",
            hint="Create it (createdb) or fix the name in TAMALOU_DB.",
        )
    if isinstance(
        exc, asyncpg.InvalidPasswordError | asyncpg.InvalidAuthorizationSpecificationError
    ):
        return StorageError(
            f"PostgreSQL refused the bot's login at {here} ({text}).",
            hint="Check the user and password in TAMALOU_DB.",
        )
    if isinstance(exc, OSError | TimeoutError):
        return StorageError(
            f"Cannot reach PostgreSQL at {here} ({text}).",
            hint="Start the server or fix the host and port in TAMALOU_DB.",
        )
    return StorageError(f"The database {here} refused a statement: {text}.")


async def _keep_session(con: asyncpg.Connection) -> None:
    """What a pooled connection needs before its next statement: nothing beyond the open
    transaction rolled back, which asyncpg's pool does itself before calling this.

    asyncpg's default reset sends ``pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET
    ALL`` after *every* pooled statement: one more round trip each, about half of the bot's
    round trips to PostgreSQL. The bot leaves nothing in a
    session for it to undo: no ``SET`` (its settings are the connection's start-up ones,
    which ``RESET ALL`` keeps anyway), no session advisory lock (the exclusive lock is
    transaction-scoped), no cursor, no ``LISTEN``."""


class _Tx:
    """The statements of one open transaction on one pooled connection."""

    def __init__(self, storage: PostgresStorage, con: asyncpg.Connection) -> None:
        self.storage = storage
        self.con = con

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        with self.storage._errors():
            return list(await self.con.fetch(dialect.numbered(sql), *args))

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        with self.storage._errors():
            row: Row | None = await self.con.fetchrow(dialect.numbered(sql), *args)
            return row

    async def fetchval(self, sql: str, *args: Any) -> Any:
        with self.storage._errors():
            return await self.con.fetchval(dialect.numbered(sql), *args)

    async def execute(self, sql: str, *args: Any) -> None:
        with self.storage._errors():
            await self.con.execute(dialect.numbered(sql), *args)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with self.storage._errors():
            await self.con.executemany(dialect.numbered(sql), list(rows))


class PostgresStorage(Storage):
    name = "postgresql"

    def __init__(self, target: Any, *, pool_size: int = 10, **options: Any) -> None:
        super().__init__(target, **options)
        self.pool_size = pool_size
        self._pool: asyncpg.Pool | None = None

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StorageError("The database is not open.")
        return self._pool

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError) as exc:
            raise translate(exc, self.path, self.busy_timeout_ms) from exc

    async def connect(self) -> None:
        with self._errors():
            self._pool = await asyncpg.create_pool(
                self.path,
                min_size=1,
                max_size=self.pool_size,
                server_settings={
                    "lock_timeout": str(int(self.busy_timeout_ms)),
                    "application_name": "tamalou",
                },
                reset=_keep_session,
            )
        try:
            async with self.pool.acquire() as con, con.transaction():
                await con.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await con.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)"
                )
                if await con.fetchval("SELECT COUNT(*) FROM schema_version") == 0:
                    await con.execute("INSERT INTO schema_version (version) VALUES (0)")
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
            await self.disconnect()
            raise translate(exc, self.path, self.busy_timeout_ms) from exc

    async def disconnect(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        with self._errors():
            return list(await self.pool.fetch(dialect.numbered(sql), *args))

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        with self._errors():
            row: Row | None = await self.pool.fetchrow(dialect.numbered(sql), *args)
            return row

    async def fetchval(self, sql: str, *args: Any) -> Any:
        with self._errors():
            return await self.pool.fetchval(dialect.numbered(sql), *args)

    async def execute(self, sql: str, *args: Any) -> None:
        with self._errors():
            await self.pool.execute(dialect.numbered(sql), *args)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with self._errors():
            await self.pool.executemany(dialect.numbered(sql), list(rows))

    @asynccontextmanager
    async def transaction(self, exclusive: bool = False) -> AsyncIterator[Executor]:
        with self._errors():
            con = await self.pool.acquire()
        try:
            tx = con.transaction()
            with self._errors():
                await tx.start()
            try:
                if exclusive:
                    with self._errors():
                        await con.execute("SELECT pg_advisory_xact_lock($1)", EXCLUSIVE_LOCK)
                yield _Tx(self, con)
            except BaseException:
                await tx.rollback()
                raise
            with self._errors():
                await tx.commit()
        finally:
            await self.pool.release(con)

    @asynccontextmanager
    async def migration_transaction(self) -> AsyncIterator[Executor]:
        async with self.transaction() as tx:
            await tx.execute("SELECT pg_advisory_xact_lock(?)", MIGRATION_LOCK)
            yield tx

    async def version_in(self, tx: Executor) -> int:
        return int(await tx.fetchval("SELECT MAX(version) FROM schema_version") or 0)

    async def set_schema_version(self, tx: Executor, version: int) -> None:
        await tx.execute("UPDATE schema_version SET version = ?", version)

    def ddl(self, statement: str) -> str:
        return dialect.postgres_ddl(statement)

    async def reset_identities(self, tx: Executor) -> None:
        for table in dialect.IDENTITY_TABLES:
            await tx.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
            )
