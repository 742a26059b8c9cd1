"""Typed storage errors: what went wrong in words an operator can act on.

Every backend turns its driver's exceptions into these (``sqlite3.Error``,
``asyncpg.PostgresError``, ``OSError`` on connect), keeping the original as ``__cause__``,
so the bot never shows a raw driver traceback and can answer each kind in its own way.
"""

from __future__ import annotations


class StorageError(Exception):
    """The database cannot do what was asked. ``str(err)`` says what is wrong and what to do."""

    def __init__(self, message: str, *, hint: str = "") -> None:
        self.message = message
        self.hint = hint
        super().__init__(f"{message} {hint}".strip())


class StorageBusy(StorageError):
    """Another writer held the lock longer than the busy timeout: the write did not happen.

    Nothing was written; the same request may be retried (the bot tells the user the
    server is busy and to retry).
    """


class StorageConflict(StorageError):
    """A uniqueness rule refused the write (for example a second live table in a channel)."""


class MigrationError(StorageError):
    """A migration failed; it was rolled back whole and the schema version is unchanged."""
