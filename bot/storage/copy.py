"""Copy a whole database to another backend (SQLite → PostgreSQL, or back), verified.

Both databases are opened (so both are at the latest schema); the target must be empty.
Every table is copied in one transaction on the target, parents first, ids kept; then
every row is read back from the target and compared with the source, column by column,
before the commit. Any difference rolls the whole copy back: the target stays empty.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.storage.base import Executor, Storage
from bot.storage.dialect import TABLES
from bot.storage.errors import StorageError
from bot.storage.rows import Row

log = logging.getLogger(__name__)

CHUNK = 1000  # rows a statement


class CopyMismatch(StorageError):
    """A row read back from the target differs from the source (the copy was rolled back)."""


def _values(row: Row, columns: list[str]) -> tuple[Any, ...]:
    return tuple(row[c] for c in columns)


async def _columns(db: Executor, table: str) -> list[str]:
    row = await db.fetchrow(f"SELECT * FROM {table} LIMIT 1")
    return list(row.keys()) if row is not None else []


async def copy_database(source: Storage, target: Storage) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``target``; rows copied per table.

    Both must be open. Raises :class:`StorageError` if the target is not empty and
    :class:`CopyMismatch` if a row does not read back the same (nothing is kept then).
    """
    for table, _ in TABLES:
        if int(await target.fetchval(f"SELECT COUNT(*) FROM {table}") or 0):
            raise StorageError(
                f"The target {target.path} is not empty (its {table} table has rows).",
                hint="Copy into a new, empty database.",
            )
    counts: dict[str, int] = {}
    async with target.transaction(exclusive=True) as tx:
        for table, order in TABLES:
            columns = await _columns(source, table)
            rows = await source.fetch(f"SELECT * FROM {table} ORDER BY {order}")
            if rows:
                marks = ", ".join("?" * len(columns))
                insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
                for start in range(0, len(rows), CHUNK):
                    await tx.executemany(
                        insert, [_values(r, columns) for r in rows[start : start + CHUNK]]
                    )
            counts[table] = len(rows)
            log.info("%s: %d rows copied", table, len(rows))
        await target.reset_identities(tx)
        for table, order in TABLES:
            await verify_table(source, tx, table, order)
    return counts


async def verify_table(source: Executor, target: Executor, table: str, order: str) -> int:
    """Compare ``table`` row by row in both databases; the number of rows compared."""
    columns = await _columns(source, table)
    if not columns:
        if int(await target.fetchval(f"SELECT COUNT(*) FROM {table}") or 0):
            raise CopyMismatch(f"{table}: the target has rows the source does not.")
        return 0
    select = f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}"
    mine, theirs = await source.fetch(select), await target.fetch(select)
    if len(mine) != len(theirs):
        raise CopyMismatch(f"{table}: {len(mine)} rows in the source, {len(theirs)} copied.")
    for a, b in zip(mine, theirs, strict=True):
        left, right = _values(a, columns), _values(b, columns)
        if left != right:
            diff = [c for c, x, y in zip(columns, left, right, strict=True) if x != y]
            raise CopyMismatch(
                f"{table}: the row {dict(zip(order.split(', '), left, strict=False))} "
                f"differs in {', '.join(diff)} after the copy."
            )
    return len(mine)


async def verify_database(source: Storage, target: Storage) -> dict[str, int]:
    """Every table compared row by row (what ``copy`` checks before it commits)."""
    return {table: await verify_table(source, target, table, order) for table, order in TABLES}
