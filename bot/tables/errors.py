"""The one refusal type of the table service (no Discord in here)."""

from __future__ import annotations


class TableError(Exception):
    """A refusal the user must read (translated by the Discord layer from ``err.<reason>``)."""

    def __init__(self, reason: str, **detail: object) -> None:
        super().__init__(reason)
        self.reason = reason
        self.detail = detail
