"""What happened, tagged with who may see it.

``to`` is ``None`` for a public event, a tuple of seats for a private one, and ``()`` for
an event kept only in the log (the shuffled order of a deal or reshuffle). A player's own
stream (:func:`stream_for`) is exactly what that player may know.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tamalou.core.events import LOG_ONLY as LOG_ONLY
from tamalou.core.events import PUBLIC as PUBLIC
from tamalou.core.events import public as public
from tamalou.core.events import stream_for as stream_for
from tamalou.core.events import visible_to as visible_to
from tamalou.games.tamalou.rules import Power


@dataclass(slots=True, unsafe_hash=True)
class Dealt:
    round_no: int
    seed: str
    first_player: int
    rows: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]
    to: tuple[int, ...] | None = LOG_ONLY
    kind: ClassVar[str] = "dealt"


@dataclass(slots=True, unsafe_hash=True)
class RoundStarted:
    round_no: int
    first_player: int
    cards_per_player: int
    peek_deadline: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "round_started"


@dataclass(slots=True, unsafe_hash=True)
class Peeked:
    player: int
    until: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "peeked"


@dataclass(slots=True, unsafe_hash=True)
class PeekShown:
    """R-S2: the peek cards, to their owner only."""

    player: int
    cards: tuple[tuple[int, int], ...]  # (slot, card)
    until: int
    to: tuple[int, ...]  # private: the owner only
    kind: ClassVar[str] = "peek_shown"


@dataclass(slots=True, unsafe_hash=True)
class TurnStarted:
    player: int
    deadline: int
    short: bool
    extra: bool
    transmitted: Power | None
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "turn_started"


@dataclass(slots=True, unsafe_hash=True)
class Drew:
    """R-T2. ``card`` is set when it came from the discard (everybody saw it there)."""

    player: int
    source: str
    card: int | None
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "drew"


@dataclass(slots=True, unsafe_hash=True)
class DrawnCard:
    """The card drawn from the pile, to the drawer only (R-T2)."""

    player: int
    card: int
    to: tuple[int, ...]  # private: the owner only
    kind: ClassVar[str] = "drawn_card"


@dataclass(slots=True, unsafe_hash=True)
class Replaced:
    """R-T3: ``discarded`` went face up; ``kept`` is set if everybody knows it (from the discard)."""

    player: int
    slot: int
    discarded: int
    kept: int | None
    seq: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "replaced"


@dataclass(slots=True, unsafe_hash=True)
class Threw:
    player: int
    card: int
    seq: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "threw"


@dataclass(slots=True, unsafe_hash=True)
class PowerOffered:
    player: int
    power: Power
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "power_offered"


@dataclass(slots=True, unsafe_hash=True)
class PowerPassed:
    player: int
    power: Power
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "power_passed"


@dataclass(slots=True, unsafe_hash=True)
class Replayed:
    player: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "replayed"


@dataclass(slots=True, unsafe_hash=True)
class Swapped:
    """R-P2: which two positions changed; nobody sees the cards."""

    player: int
    slot: int
    target: int
    target_slot: int
    transmitted: bool
    until: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "swapped"


@dataclass(slots=True, unsafe_hash=True)
class Looked:
    player: int
    target: int
    slot: int
    transmitted: bool
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "looked"


@dataclass(slots=True, unsafe_hash=True)
class LookShown:
    """R-P3: the looked-at card, to the looker only, for ``look_ms``."""

    player: int
    target: int
    slot: int
    card: int
    until: int
    to: tuple[int, ...]  # private: the owner only
    kind: ClassVar[str] = "look_shown"


@dataclass(slots=True, unsafe_hash=True)
class Doubled:
    """R-D1: ``player`` threw ``card`` from ``slot`` on the discard; the slot is now a hole."""

    player: int
    slot: int
    card: int
    seq: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "doubled"


@dataclass(slots=True, unsafe_hash=True)
class DoubleMissed:
    """R-D5: the card is shown to everyone and goes back; ``reason`` wrong_rank or too_late."""

    player: int
    slot: int
    card: int
    reason: str
    misses: int
    blocked_until: int | None  # None: blocked until the end of the round
    owner: int | None = None  # R-X10: whose card it was (None: the player's own)
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "double_missed"


@dataclass(slots=True, unsafe_hash=True)
class PenaltyCard:
    """A face-down card nobody has seen, at the end of the row (R-D5, R-A4)."""

    player: int
    slot: int
    reason: str
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "penalty_card"


@dataclass(slots=True, unsafe_hash=True)
class Called:
    """R-A2/R-A4: Tamalou! ``cards`` are shown to everyone (until ``reveal_until``, or for good).

    ``automatic`` is the call of an emptied row (R-X8); ``last_round`` says whether the
    others play one more turn (R-A3) or the round ends at once. A hidden call is
    :class:`CalledHidden`.
    """

    player: int
    right: bool
    total: float
    cards: tuple[tuple[int, int], ...]
    reveal_until: int | None
    automatic: bool = False
    last_round: bool = True
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "called"


@dataclass(slots=True, unsafe_hash=True)
class CalledHidden:
    """R-X7: a right call whose cards and total stay hidden (dutch, koubo, tamoul, cabo...).

    ``automatic``: the call of an emptied row (R-X8); ``last_round`` as in :class:`Called`.
    """

    player: int
    automatic: bool
    last_round: bool
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "called_hidden"


@dataclass(slots=True, unsafe_hash=True)
class Contred:
    """R-X9: ``player`` declares a contre against the caller (first contre only)."""

    player: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "contred"


@dataclass(slots=True, unsafe_hash=True)
class SwappedTwo:
    """R-X2: two positions of two players changed; nobody sees the cards."""

    player: int
    first: int
    first_slot: int
    second: int
    second_slot: int
    until: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "swapped_two"


@dataclass(slots=True, unsafe_hash=True)
class SwapShown:
    """R-X3 (koubo): the target of a look-then-swap is shown both cards, privately:
    ``cards`` are (seat, slot, card) where they are now."""

    player: int
    cards: tuple[tuple[int, int, int], ...]
    until: int
    to: tuple[int, ...]  # private: the target only
    kind: ClassVar[str] = "swap_shown"


@dataclass(slots=True, unsafe_hash=True)
class GaveTop:
    """R-X4: the pile's top card went face down, seen by nobody, to ``target``'s new ``slot``."""

    player: int
    target: int
    slot: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "gave_top"


@dataclass(slots=True, unsafe_hash=True)
class DoubledFor:
    """R-X10: ``player`` threw ``target``'s ``card`` from ``target_slot``; their own card from
    ``slot`` (0: none) went face down into that slot."""

    player: int
    target: int
    target_slot: int
    slot: int
    card: int
    seq: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "doubled_for"


@dataclass(slots=True, unsafe_hash=True)
class PowerQueued:
    """R-X12: a doubled card gives its power to ``player``, who uses it before play goes on."""

    player: int
    power: Power
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "power_queued"


@dataclass(slots=True, unsafe_hash=True)
class WindowOpened:
    """R-X11: every card of the rank of discard card ``seq`` thrown before ``until`` succeeds."""

    seq: int
    until: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "window_opened"


@dataclass(slots=True, unsafe_hash=True)
class WindowClosed:
    """R-X11: the window on discard card ``seq`` closed; claims are settled next."""

    seq: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "window_closed"


@dataclass(slots=True, unsafe_hash=True)
class Claimed:
    """R-X10 in R-X11: ``player`` claims ``target``'s card to play for them, settled at the
    window's close."""

    player: int
    target: int
    target_slot: int
    slot: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "claimed"


@dataclass(slots=True, unsafe_hash=True)
class ClaimLost:
    """R-X11: a claim lost to a claim of higher priority (or the owner's own double): free."""

    player: int
    target: int
    target_slot: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "claim_lost"


@dataclass(slots=True, unsafe_hash=True)
class Fined:
    """R-X13 (cabo): a missed double costs ``points`` at the round's score."""

    player: int
    points: float
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "fined"


@dataclass(slots=True, unsafe_hash=True)
class Eliminated:
    """R-X16: ``player`` reached the target and is out of the match (elimination)."""

    player: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "eliminated"


@dataclass(slots=True, unsafe_hash=True)
class TimedOut:
    """R-K2: the clock played for ``player``; ``away`` after R-K4."""

    player: int
    auto: str
    away: bool
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "timed_out"


@dataclass(slots=True, unsafe_hash=True)
class Reshuffled:
    """R-T7: the discard but its top became the new draw pile."""

    size: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "reshuffled"


@dataclass(slots=True, unsafe_hash=True)
class ReshuffleOrder:
    """The new pile's order and the seed that shuffled it: the log only (a seed gives away
    every hidden card)."""

    pile: tuple[int, ...]
    seed: str = ""
    to: tuple[int, ...] | None = LOG_ONLY
    kind: ClassVar[str] = "reshuffle_order"


@dataclass(slots=True, unsafe_hash=True)
class FinalWindow:
    """R-A3: the last turns are over; doubles stay open until ``until``."""

    until: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "final_window"


@dataclass(slots=True, unsafe_hash=True)
class RoundEnded:
    """R-E: every card revealed, totals, places and scores."""

    round_no: int
    reason: str
    hands: tuple[tuple[int | None, ...], ...]
    totals: tuple[float, ...]
    places: tuple[int, ...]
    scores: tuple[float, ...]
    cumulative: tuple[float, ...]
    caller: int | None
    match_over: bool
    winners: tuple[int, ...]
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "round_ended"


Event = (
    Dealt
    | RoundStarted
    | Peeked
    | PeekShown
    | TurnStarted
    | Drew
    | DrawnCard
    | Replaced
    | Threw
    | PowerOffered
    | PowerPassed
    | Replayed
    | Swapped
    | Looked
    | LookShown
    | Doubled
    | DoubleMissed
    | PenaltyCard
    | Called
    | TimedOut
    | Reshuffled
    | ReshuffleOrder
    | FinalWindow
    | RoundEnded
    | CalledHidden
    | Contred
    | SwappedTwo
    | SwapShown
    | GaveTop
    | DoubledFor
    | PowerQueued
    | Fined
    | Eliminated
    | WindowOpened
    | WindowClosed
    | Claimed
    | ClaimLost
)
