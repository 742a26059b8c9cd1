"""Events tagged with their audience, for every game.

An event is a dataclass with a ``kind`` class variable and a ``to`` field: ``None`` for a
public event, a tuple of seats for a private one, ``()`` for an event kept only in the log
(the shuffled order of a deal). A player's own stream (:func:`stream_for`) is exactly what
that player may know.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Protocol, TypeVar

PUBLIC: None = None
LOG_ONLY: tuple[int, ...] = ()


class Audienced(Protocol):
    kind: ClassVar[str]

    @property
    def to(self) -> tuple[int, ...] | None: ...


EventT = TypeVar("EventT", bound=Audienced)


def visible_to(event: Audienced, seat: int) -> bool:
    return event.to is None or seat in event.to


def stream_for(events: Iterable[EventT], seat: int) -> list[EventT]:
    """The events ``seat`` may see, in order."""
    return [e for e in events if e.to is None or seat in e.to]


def public(events: Iterable[EventT]) -> list[EventT]:
    """The events everybody may see, in order."""
    return [e for e in events if e.to is None]
