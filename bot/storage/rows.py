"""The rows every backend returns, typed at once (no raw database rows leave bot/storage)."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, cast


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
    #: the tournament the table is a table of (docs/tournaments.md); None: an ordinary one
    tournament_id: int | None = None
    #: the thread the table plays in (the id of the channel message it was started from;
    #: None: the table plays in the channel)
    thread_id: int | None = None


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


class Row(Protocol):
    """A database row as both backends give it (``sqlite3.Row``, ``asyncpg.Record``):
    read by column name or by position."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...


def table_from_row(r: Row) -> TableRow:
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
        tournament_id=r["tournament_id"],
        thread_id=r["thread_id"],
    )


def seat_from_row(s: Row) -> SeatRow:
    return SeatRow(s["seat"], s["user_id"], s["name"], s["ai_level"])


@functools.lru_cache(maxsize=1024)
def _rules_of(text: str | bytes) -> dict[str, Any]:
    return cast(dict[str, Any], json.loads(text))


def match_from_row(r: Row) -> MatchRow:
    """A match's row. Its ``rules`` are shared by every match stored with the same text (a
    thousand tables of one preset held a thousand equal dicts, about 10 kB a table): read
    them, never change them."""
    return MatchRow(
        r["id"],
        r["table_id"],
        r["guild_id"],
        r["seed"],
        _rules_of(r["rules"]),
        json.loads(r["seats"]),
        r["started_at"],
        r["ended_at"],
        r["status"],
        r["game"],
    )
