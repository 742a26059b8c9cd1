"""The bot's database: one interface (:class:`Storage`), SQLite by default, PostgreSQL by URL.

``open_storage(target)`` opens the backend for ``target``: a ``postgresql://…`` URL selects
:class:`bot.storage.postgres.PostgresStorage`, anything else is a SQLite file
(:class:`bot.storage.sqlite.SqliteStorage`). Both apply the same numbered migrations
(``bot/storage/migrations``) and raise the same typed errors (:mod:`bot.storage.errors`).
See docs/storage.md.
"""

from bot.storage.base import Executor, Storage, is_postgres, open_storage
from bot.storage.errors import MigrationError, StorageBusy, StorageConflict, StorageError
from bot.storage.rows import (
    ActionRow,
    MatchRow,
    RoundRecord,
    Row,
    SeatRow,
    TableRow,
    match_from_row,
)

__all__ = [
    "ActionRow",
    "Executor",
    "MatchRow",
    "MigrationError",
    "RoundRecord",
    "Row",
    "SeatRow",
    "Storage",
    "StorageBusy",
    "StorageConflict",
    "StorageError",
    "TableRow",
    "is_postgres",
    "match_from_row",
    "open_storage",
]
