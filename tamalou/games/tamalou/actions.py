"""What a player (or the clock) asks the engine to do. Every action carries ``at`` (ms).

Actions are small slotted dataclasses, hashable and treated as immutable (not ``frozen``:
that makes construction about 3.7x slower on the hot path); JSON through :mod:`tamalou.games.tamalou.codec`.
``player`` is a seat index (0-based); slots are 1-based, as players count them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(slots=True, unsafe_hash=True)
class Peek:
    """R-S2: look at your peek slots (1 and 4) for 5 s, once, during the peek phase."""

    player: int
    at: int = 0
    kind: ClassVar[str] = "peek"


@dataclass(slots=True, unsafe_hash=True)
class Draw:
    """R-T2: draw the top of the draw pile."""

    player: int
    at: int = 0
    kind: ClassVar[str] = "draw"


@dataclass(slots=True, unsafe_hash=True)
class TakeDiscard:
    """R-T2: take the top of the discard (never a face card); it must be kept (R-T3)."""

    player: int
    at: int = 0
    kind: ClassVar[str] = "take_discard"


@dataclass(slots=True, unsafe_hash=True)
class Replace:
    """R-T3: put the held card in place of the card in ``slot``; that card is discarded."""

    player: int
    slot: int
    at: int = 0
    kind: ClassVar[str] = "replace"


@dataclass(slots=True, unsafe_hash=True)
class Throw:
    """R-T3: throw the card drawn from the pile straight onto the discard."""

    player: int
    at: int = 0
    kind: ClassVar[str] = "throw"


@dataclass(slots=True, unsafe_hash=True)
class Replay:
    """R-P1: use a Jack: play a whole new turn at once, drawing from the pile only."""

    player: int
    at: int = 0
    kind: ClassVar[str] = "replay"


@dataclass(slots=True, unsafe_hash=True)
class Swap:
    """R-P2: blind swap of your ``slot`` with ``target``'s ``target_slot``."""

    player: int
    slot: int
    target: int
    target_slot: int
    at: int = 0
    kind: ClassVar[str] = "swap"


@dataclass(slots=True, unsafe_hash=True)
class Look:
    """R-P3: look at ``target``'s card in ``slot`` (the King: ``target`` is yourself)."""

    player: int
    target: int
    slot: int
    at: int = 0
    kind: ClassVar[str] = "look"


@dataclass(slots=True, unsafe_hash=True)
class Pass:
    """R-T5: do not use the power of the card you just discarded."""

    player: int
    at: int = 0
    kind: ClassVar[str] = "pass"


@dataclass(slots=True, unsafe_hash=True)
class CallTamalou:
    """R-A1: announce Tamalou at the start of your turn, instead of drawing."""

    player: int
    at: int = 0
    kind: ClassVar[str] = "call"


@dataclass(slots=True, unsafe_hash=True)
class Double:
    """R-D1: throw your card in ``slot`` on the discard card numbered ``seq``."""

    player: int
    slot: int
    seq: int
    at: int = 0
    kind: ClassVar[str] = "double"


@dataclass(slots=True, unsafe_hash=True)
class SwapTwo:
    """R-X2: swap ``first``'s ``first_slot`` with ``second``'s ``second_slot`` (two different
    players, you may be one), unseen."""

    player: int
    first: int
    first_slot: int
    second: int
    second_slot: int
    at: int = 0
    kind: ClassVar[str] = "swap_two"


@dataclass(slots=True, unsafe_hash=True)
class GiveTop:
    """R-X4: the draw pile's top card goes face down, unseen, to the end of ``target``'s row."""

    player: int
    target: int
    at: int = 0
    kind: ClassVar[str] = "give_top"


@dataclass(slots=True, unsafe_hash=True)
class EndTurn:
    """R-X6: end your turn without calling (the end-of-turn call's other choice)."""

    player: int
    at: int = 0
    kind: ClassVar[str] = "end_turn"


@dataclass(slots=True, unsafe_hash=True)
class Contre:
    """R-X9: a contre-call at the start of your last turn after a right call (you still play
    the turn)."""

    player: int
    at: int = 0
    kind: ClassVar[str] = "contre"


@dataclass(slots=True, unsafe_hash=True)
class DoubleFor:
    """R-X10: play for someone: throw ``target``'s card in ``target_slot`` on the discard card
    numbered ``seq``; on a hit your card in ``slot`` (0: you have none) fills their slot."""

    player: int
    target: int
    target_slot: int
    slot: int
    seq: int
    at: int = 0
    kind: ClassVar[str] = "double_for"


@dataclass(slots=True, unsafe_hash=True)
class NextRound:
    """R-M1: start the next round of the match (any seated player, once the round is over)."""

    player: int
    at: int = 0
    kind: ClassVar[str] = "next_round"


@dataclass(slots=True, unsafe_hash=True)
class Tick:
    """The clock: apply every deadline due at ``at`` (auto-play, end of peek, final window)."""

    at: int = 0
    player: int = -1
    kind: ClassVar[str] = "tick"


Action = (
    Peek
    | Draw
    | TakeDiscard
    | Replace
    | Throw
    | Replay
    | Swap
    | Look
    | Pass
    | CallTamalou
    | Double
    | SwapTwo
    | GiveTop
    | EndTurn
    | Contre
    | DoubleFor
    | NextRound
    | Tick
)

ACTION_TYPES: dict[str, type[Action]] = {
    t.kind: t
    for t in (
        Peek,
        Draw,
        TakeDiscard,
        Replace,
        Throw,
        Replay,
        Swap,
        Look,
        Pass,
        CallTamalou,
        Double,
        SwapTwo,
        GiveTop,
        EndTurn,
        Contre,
        DoubleFor,
        NextRound,
        Tick,
    )
}

#: Doubles of every kind: out-of-turn races (R-D, R-X10)
DOUBLE_KINDS = frozenset({"double", "double_for"})
