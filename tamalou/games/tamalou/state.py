"""The game state: plain data that only the engine changes.

No random generator lives here: every chance event seeds its own ``random.Random`` from
the match seed and a label (``"<seed>:<round>:deal"``), so the state serialises as data and
a replay draws exactly the same cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tamalou.games.tamalou.rules import Power, Rules

#: The phases of a round: the peek (R-S2), play, the final doubles window (R-A3), over.
Phase = Literal["peek", "play", "final", "over"]
#: Where the current player is in their turn: before drawing, holding a card, choosing a
#: power's target.
#: call: the end-of-turn call (R-X6); window: the open-doubles window after the turn's
#: discard (R-X11)
Stage = Literal["start", "holding", "power", "call", "window"]

#: A time after every deadline: "until the end of the round".
FOREVER = 2**62


@dataclass(slots=True)
class SeatState:
    """One player in the current round."""

    row: list[int | None]  # slot i+1; None is a hole left by a double (R-D1)
    is_ai: bool = False
    frozen: bool = False  # R-A3
    misses: int = 0  # R-D6
    blocked_until: int = 0  # doubles refused before this time (FOREVER: until round end)
    timeouts: int = 0  # turns in a row the clock played (R-K3, R-K4)
    short: bool = False
    away: bool = False
    peek_until: int | None = None  # None: has not peeked (R-S2)
    failed_calls: int = 0
    last_double_seq: int = -1  # the discard card of this player's last successful double
    last_double_slot: int = 0  # the slot it came from (R-D4: a repeated click is harmless)
    look: tuple[int, int, int, int] | None = None  # (target, slot, card, until): R-P3
    #: other private displays (R-X3 koubo swap): (target, slot, card, until)
    glimpses: list[tuple[int, int, int, int]] = field(default_factory=list)
    peeked: list[tuple[int, int]] = field(default_factory=list)  # (slot, card) seen at the peek
    peek_open: bool = False  # R-X14: the peek slots stay viewable until the first draw or call
    out: bool = False  # R-X16: eliminated from the match
    fines: float = 0  # R-X13 (cabo): points for missed doubles
    barred_seq: int = -1  # R-X13 (cabo): a miss bars you from that discard card


@dataclass(slots=True)
class RoundResult:
    round_no: int
    reason: str
    hands: list[list[int | None]]
    totals: list[float]
    places: list[int]
    scores: list[float]
    caller: int | None
    first_player: int
    contre: int | None = None  # R-X9
    automatic_call: bool = False  # R-X8
    fines: list[float] = field(default_factory=list)  # R-X13
    emptied_by_own_double: int | None = None  # R-V9
    active: list[bool] = field(default_factory=list)  # R-X16: seats still in the match


@dataclass(slots=True)
class RoundState:
    round_no: int
    seed: str
    first_player: int
    seats: list[SeatState]
    pile: list[int]  # top is the last element
    discard: list[int]  # top is the last element
    discard_seqs: list[int]  # the number of each discard card (R-D4)
    discard_spent: list[bool]  # already doubled, or arrived by a double
    deal_at: int
    seq: int = 0  # the last number given to a discard card
    phase: Phase = "peek"
    phase_deadline: int = 0  # end of the final window (R-A3)
    current: int = 0
    stage: Stage = "start"
    held: int | None = None
    held_from: Literal["pile", "discard"] | None = None
    power: Power | None = None  # the power offered at stage "power"
    extra: bool = False  # the Jack's extra turn (R-P1)
    transmitted: Power | None = None  # a power the current player may use instead of drawing
    transmit_next: Power | None = None  # R-P6
    acted: bool = False  # the current player drew, took or replayed in this turn (R-K3)
    turn_started: int = 0
    turn_deadline: int = 0
    caller: int | None = None
    turns_left: int = 0  # last turns after a right call
    no_double_until: int = 0  # R-D7: the Queen swap display
    reshuffles: int = 0
    reveals: list[tuple[int, int, int, int]] = field(
        default_factory=list
    )  # seat, slot, card, until
    end_reason: str | None = None
    looked: tuple[int, int] | None = None  # R-X3: the card a look-then-swap may take
    power_must: bool = False  # R-X5: the power offered cannot be passed
    #: R-X12: doubled powers to use, (owner, power, must), the next one last
    pending: list[tuple[int, Power, bool]] = field(default_factory=list)
    pending_deadline: int = 0
    paused_turn_ms: int = 0  # the turn clock's rest while doubled powers resolve
    automatic_call: bool = False  # R-X8
    contre: int | None = None  # R-X9
    emptied_by_own_double: int | None = None  # fontenay (R-V9)
    # R-X11: the open-doubles window after a turn's discard
    window_seq: int = 0  # the discard card it is open on
    window_until: int = 0  # 0: no window open
    window_rank: str = ""
    claims: list[tuple[int, int, int, int]] = field(default_factory=list)  # R-X10 claims
    window_powers: list[tuple[int, Power, bool]] = field(default_factory=list)  # in throw order
    window_turn_power: tuple[Power, bool] | None = None  # the turn card's own power
    after_window: bool = False  # the turn ends once the power queue is empty


@dataclass(slots=True)
class Game:
    """A match: rounds at one table, scores added up (R-M)."""

    rules: Rules
    seed: str
    players: int
    ai: list[bool]
    round: RoundState
    cumulative: list[float]
    history: list[RoundResult] = field(default_factory=list)
    now: int = 0
    over: bool = False
    winners: list[int] = field(default_factory=list)
    next_round_deadline: int | None = None
    out: list[bool] = field(default_factory=list)  # R-X16: eliminated seats
