"""The one error the engine raises for an action the rules do not allow."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules refuse. ``reason`` is a stable code the bot translates.

    ``detail`` carries extra values for the message (never a hidden card). The state is
    unchanged after this error.
    """

    def __init__(self, reason: str, **detail: object) -> None:
        super().__init__(reason)
        self.reason = reason
        self.detail = detail

    def __repr__(self) -> str:
        return f"IllegalAction({self.reason!r}, {self.detail!r})"
