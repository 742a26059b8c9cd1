"""What a Kalooki player (or the clock) asks the engine to do. Every action carries ``at`` (ms).

Small slotted dataclasses, hashable, treated as immutable; JSON through
:mod:`tamalou.games.kalooki.codec`. ``player`` is a seat index (0-based); cards are card ids
(:mod:`tamalou.core.cards`), so duplicates are told apart (K-C2); ``meld`` is the index of a
meld on the table (``PublicView.melds``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(slots=True, unsafe_hash=True)
class Draw:
    """K-T2: draw the draw pile's top. With a call pending it *allows* the call (K-CL4)."""

    player: int
    at: int = 0
    kind: ClassVar[str] = "draw"


@dataclass(slots=True, unsafe_hash=True)
class TakeDiscard:
    """K-T2: take the live discard top as the draw. With a call pending it *refuses* it (K-CL4)."""

    player: int
    at: int = 0
    kind: ClassVar[str] = "take_discard"


@dataclass(slots=True, unsafe_hash=True)
class Call:
    """K-CL1: claim the live discard top out of turn. ``card`` names the discard the player
    saw (the bot fills it in): a call on a card that is no longer the live top is too late."""

    player: int
    card: int | None = None
    at: int = 0
    kind: ClassVar[str] = "call"


@dataclass(slots=True, unsafe_hash=True)
class LayDown:
    """K-L1: the round's contract in one action: ``melds`` is ((kind, cards), ...), kind 3 or 4."""

    player: int
    melds: tuple[tuple[int, tuple[int, ...]], ...]
    at: int = 0
    kind: ClassVar[str] = "lay_down"


@dataclass(slots=True, unsafe_hash=True)
class LayMeld:
    """K-L2: one more meld, once laid down (same turn or later)."""

    player: int
    meld_kind: int
    cards: tuple[int, ...]
    at: int = 0
    kind: ClassVar[str] = "lay_meld"


@dataclass(slots=True, unsafe_hash=True)
class LayOff:
    """K-L4/K-L5: add ``card`` to meld ``meld``; on a run, ``end`` is ``low`` or ``high``."""

    player: int
    card: int
    meld: int
    end: str = "high"
    at: int = 0
    kind: ClassVar[str] = "lay_off"


@dataclass(slots=True, unsafe_hash=True)
class ShiftJoker:
    """K-L7: put natural ``card`` in the place of ``joker`` in run ``meld``; the joker moves to
    the run's ``end`` (``high``; ``low`` only with ``shift_to_either_end``)."""

    player: int
    card: int
    meld: int
    joker: int
    end: str = "high"
    at: int = 0
    kind: ClassVar[str] = "shift_joker"


@dataclass(slots=True, unsafe_hash=True)
class Discard:
    """K-T3: discard a non-joker; it ends the turn (K-T5), and may end the round (K-E1)."""

    player: int
    card: int
    at: int = 0
    kind: ClassVar[str] = "discard"


@dataclass(slots=True, unsafe_hash=True)
class EndTurn:
    """K-T5: end a turn with only jokers in hand (no discard possible)."""

    player: int
    at: int = 0
    kind: ClassVar[str] = "end_turn"


@dataclass(slots=True, unsafe_hash=True)
class NextRound:
    """Start the next round once the round is over (any seated player)."""

    player: int
    at: int = 0
    kind: ClassVar[str] = "next_round"


@dataclass(slots=True, unsafe_hash=True)
class Tick:
    """The clock: apply every deadline due at ``at`` (K-K3 auto-play, the next round)."""

    at: int = 0
    player: int = -1
    kind: ClassVar[str] = "tick"


Action = (
    Draw
    | TakeDiscard
    | Call
    | LayDown
    | LayMeld
    | LayOff
    | ShiftJoker
    | Discard
    | EndTurn
    | NextRound
    | Tick
)

ACTION_TYPES: dict[str, type[Action]] = {
    t.kind: t
    for t in (
        Draw,
        TakeDiscard,
        Call,
        LayDown,
        LayMeld,
        LayOff,
        ShiftJoker,
        Discard,
        EndTurn,
        NextRound,
        Tick,
    )
}
