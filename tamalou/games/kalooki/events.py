"""What happened in a Kalooki match, tagged with who may see it (:mod:`tamalou.core.events`).

``to`` is ``None`` for a public event, a tuple of seats for a private one, ``()`` for the
log only (a deal's or a reshuffle's order). K-S4: hand sizes, melds, calls, the discard and
the pile size are public; hand cards, cards drawn from the pile and a call's penalty card
reach their owner only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tamalou.core.events import LOG_ONLY as LOG_ONLY
from tamalou.core.events import PUBLIC as PUBLIC
from tamalou.core.events import public as public
from tamalou.core.events import stream_for as stream_for
from tamalou.core.events import visible_to as visible_to


@dataclass(slots=True, unsafe_hash=True)
class Dealt:
    """K-S2: the whole deal, for the log only."""

    round_no: int
    deal_no: int
    seed: str
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    up_card: int
    pile: tuple[int, ...]
    to: tuple[int, ...] | None = LOG_ONLY
    kind: ClassVar[str] = "dealt"


@dataclass(slots=True, unsafe_hash=True)
class RoundStarted:
    round_no: int
    deal_no: int
    dealer: int
    first_player: int
    cards_per_player: int
    contract: tuple[int, ...]
    up_card: int
    pile_size: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "round_started"


@dataclass(slots=True, unsafe_hash=True)
class HandDealt:
    """A player's own hand, to that player only."""

    player: int
    cards: tuple[int, ...]
    to: tuple[int, ...]
    kind: ClassVar[str] = "hand_dealt"


@dataclass(slots=True, unsafe_hash=True)
class TurnStarted:
    """K-K1/K-K2: ``player`` may draw from ``draw_at``; the clock acts at ``deadline``."""

    player: int
    draw_at: int
    deadline: int
    short: bool
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "turn_started"


@dataclass(slots=True, unsafe_hash=True)
class Drew:
    """K-T2: ``source`` is ``pile`` or ``discard`` (then ``card`` is the public discard)."""

    player: int
    source: str
    card: int | None
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "drew"


@dataclass(slots=True, unsafe_hash=True)
class DrawnCard:
    """The card drawn from the pile, to the drawer only."""

    player: int
    card: int
    to: tuple[int, ...]
    kind: ClassVar[str] = "drawn_card"


@dataclass(slots=True, unsafe_hash=True)
class Called:
    """K-CL1: ``player`` calls ``card``; the current player must allow or refuse (K-CL4)."""

    player: int
    card: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "called"


@dataclass(slots=True, unsafe_hash=True)
class CallAllowed:
    """K-CL4/K-CL6: the caller took ``card`` and a penalty card; ``calls`` allowed this round."""

    player: int
    card: int
    calls: int
    automatic: bool  # K-CL6: the current player had laid down
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "call_allowed"


@dataclass(slots=True, unsafe_hash=True)
class PenaltyCard:
    """K-CL4: the call's penalty card, to the caller only."""

    player: int
    card: int
    to: tuple[int, ...]
    kind: ClassVar[str] = "penalty_card"


@dataclass(slots=True, unsafe_hash=True)
class CallRefused:
    """K-CL4: ``by`` took the discard as their draw; the call had no effect."""

    player: int
    by: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "call_refused"


@dataclass(slots=True, unsafe_hash=True)
class LaidDown:
    """K-L1: the contract, as placed: (meld index, kind, cards) each."""

    player: int
    melds: tuple[tuple[int, int, tuple[int, ...]], ...]
    first: bool  # the round's first lay-down (K-P2)
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "laid_down"


@dataclass(slots=True, unsafe_hash=True)
class MeldLaid:
    """K-L2: one more meld."""

    player: int
    meld: int
    meld_kind: int
    cards: tuple[int, ...]
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "meld_laid"


@dataclass(slots=True, unsafe_hash=True)
class LaidOff:
    """K-L4/K-L5: ``card`` added at ``end`` of meld ``meld`` (``high`` for a set)."""

    player: int
    card: int
    meld: int
    end: str
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "laid_off"


@dataclass(slots=True, unsafe_hash=True)
class JokerShifted:
    """K-L7: ``card`` took ``joker``'s place in run ``meld``; the joker moved to ``end``."""

    player: int
    card: int
    meld: int
    joker: int
    end: str
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "joker_shifted"


@dataclass(slots=True, unsafe_hash=True)
class Discarded:
    player: int
    card: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "discarded"


@dataclass(slots=True, unsafe_hash=True)
class TurnEnded:
    """K-T5: a turn ended with only jokers in hand, no discard."""

    player: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "turn_ended"


@dataclass(slots=True, unsafe_hash=True)
class TimedOut:
    """K-K3: the clock played for ``player`` (``auto`` says what); ``away`` after K-K4."""

    player: int
    auto: str
    away: bool
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "timed_out"


@dataclass(slots=True, unsafe_hash=True)
class Reshuffled:
    """K-E3: the discard pile but its top became the draw pile."""

    size: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "reshuffled"


@dataclass(slots=True, unsafe_hash=True)
class ReshuffleOrder:
    """The new pile's order and its seed: the log only."""

    pile: tuple[int, ...]
    seed: str = ""
    to: tuple[int, ...] | None = LOG_ONLY
    kind: ClassVar[str] = "reshuffle_order"


@dataclass(slots=True, unsafe_hash=True)
class RoundVoided:
    """K-E4/K-E5: the draw pile ran out again; nobody scores, the same dealer redeals."""

    round_no: int
    deal_no: int
    hands: tuple[tuple[int, ...], ...]
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "round_voided"


@dataclass(slots=True, unsafe_hash=True)
class RoundEnded:
    """K-E1/K-P: hands shown, points, scores (doubled by K-P2), totals so far."""

    round_no: int
    reason: str
    out: int | None
    doubled: bool
    hands: tuple[tuple[int, ...], ...]
    totals: tuple[float, ...]
    scores: tuple[float, ...]
    places: tuple[int, ...]
    cumulative: tuple[float, ...]
    match_over: bool
    winners: tuple[int, ...]
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "round_ended"


Event = (
    Dealt
    | RoundStarted
    | HandDealt
    | TurnStarted
    | Drew
    | DrawnCard
    | Called
    | CallAllowed
    | PenaltyCard
    | CallRefused
    | LaidDown
    | MeldLaid
    | LaidOff
    | JokerShifted
    | Discarded
    | TurnEnded
    | TimedOut
    | Reshuffled
    | ReshuffleOrder
    | RoundVoided
    | RoundEnded
)
