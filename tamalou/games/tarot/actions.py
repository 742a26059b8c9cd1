"""What a player (or the clock) asks the engine to do. Every action carries ``at`` (ms).

Small slotted dataclasses, hashable, treated as immutable; JSON through
:mod:`tamalou.games.tarot.codec`. ``player`` is a seat index (0-based); cards are ids of
:mod:`tamalou.games.tarot.cards`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(slots=True, unsafe_hash=True)
class Bid:
    """T-B2: speak once: ``contract`` 0 (pass) or a contract above the highest so far."""

    player: int
    contract: int
    at: int = 0
    kind: ClassVar[str] = "bid"


@dataclass(slots=True, unsafe_hash=True)
class CallKing:
    """T-5.1: at five players the taker calls a card (a King, or as the rule allows)."""

    player: int
    card: int
    at: int = 0
    kind: ClassVar[str] = "call"


@dataclass(slots=True, unsafe_hash=True)
class Discard:
    """T-B5: put one card of the taker's hand into the écart (done when it holds the dog size)."""

    player: int
    card: int
    at: int = 0
    kind: ClassVar[str] = "discard"


@dataclass(slots=True, unsafe_hash=True)
class Ecart:
    """T-B5: lay the whole écart at once (validated as a whole; the bot's multi-select)."""

    player: int
    cards: tuple[int, ...]
    at: int = 0
    kind: ClassVar[str] = "ecart"


@dataclass(slots=True, unsafe_hash=True)
class Chelem:
    """T-A1: the taker announces a chelem (``announce``) or lets the window go."""

    player: int
    announce: bool = True
    at: int = 0
    kind: ClassVar[str] = "chelem"


@dataclass(slots=True, unsafe_hash=True)
class Poignee:
    """T-A2: show ``cards`` (as many as a level asks) before one's card to trick 1."""

    player: int
    cards: tuple[int, ...]
    at: int = 0
    kind: ClassVar[str] = "poignee"


@dataclass(slots=True, unsafe_hash=True)
class Play:
    """T-P: play ``card`` to the trick."""

    player: int
    card: int
    at: int = 0
    kind: ClassVar[str] = "play"


@dataclass(slots=True, unsafe_hash=True)
class NextDeal:
    """T-M1: start the next deal now (any seated player, once the deal is over)."""

    player: int
    at: int = 0
    kind: ClassVar[str] = "next_deal"


@dataclass(slots=True, unsafe_hash=True)
class Tick:
    """The clock: apply every deadline due at ``at`` (T-K)."""

    at: int = 0
    player: int = -1
    kind: ClassVar[str] = "tick"


Action = Bid | CallKing | Discard | Ecart | Chelem | Poignee | Play | NextDeal | Tick

ACTION_TYPES: dict[str, type[Action]] = {
    t.kind: t for t in (Bid, CallKing, Discard, Ecart, Chelem, Poignee, Play, NextDeal, Tick)
}
