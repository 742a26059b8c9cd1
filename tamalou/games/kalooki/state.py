"""The Kalooki game state: plain data that only the engine changes.

No random generator lives here: every chance event (a deal, a reshuffle) seeds its own
``random.Random`` from the match seed and a label, so the state serialises as data and a
replay draws exactly the same cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tamalou.games.kalooki.rules import Rules


@dataclass(slots=True)
class Meld:
    """A "3" or a "4" on the table (K-M6: it belongs to ``owner``)."""

    owner: int
    kind: int  # 3 (set) or 4 (run)
    cards: list[int]  # a run lowest first
    low: int = 0  # a run: position of cards[0] (1 ace low .. 14 ace high)
    fixed: list[int] = field(default_factory=list)  # K-L7: jokers shifted once


@dataclass(slots=True)
class SeatState:
    """One player in the current round."""

    hand: list[int]
    is_ai: bool = False
    laid_down: bool = False
    calls: int = 0  # allowed calls this round (K-CL5)
    timeouts: int = 0  # turns in a row the clock played (K-K3, K-K4)
    short: bool = False
    away: bool = False


@dataclass(slots=True)
class RoundResult:
    round_no: int
    reason: str
    hands: list[list[int]]
    totals: list[float]
    places: list[int]
    scores: list[float]
    out: int | None  # the player who went out
    doubled: bool  # K-P2
    dealer: int


@dataclass(slots=True)
class RoundState:
    round_no: int  # 1-based index of the round's contract
    deal_no: int  # deals of this round so far (a void round is redealt, K-E5)
    seed: str
    dealer: int
    seats: list[SeatState]
    melds: list[Meld]
    pile: list[int]  # the draw pile; top is the last element
    discard: list[int]  # top is the last element
    discarder: int | None  # who put the discard top there (K-CL1; the dealer for the up-card)
    live: bool  # K-CL2: the discard top may be taken or called
    current: int
    phase: str = "play"  # play, over
    stage: str = "draw"  # draw (before the draw), play (after it)
    pending_call: int | None = None  # the caller waiting for an answer (K-CL4)
    drawn: int | None = None  # the card drawn this turn (K-K3)
    jokers_only: bool = False  # K-T5: the hand held only jokers after the draw
    first_down: int | None = None  # K-P2: the round's first player to lay down
    down_this_turn: bool = False  # the current player laid down this turn
    reshuffles: int = 0  # K-E3/K-E4
    draw_at: int = 0  # K-K2: the current player may draw from then on
    discard_at: int = 0  # K-CL2: when the discard top landed (a call stamped before is refused)
    turn_deadline: int = 0
    turns: int = 0  # turns started in this deal: the number of the current one
    end_reason: str | None = None


@dataclass(slots=True)
class Game:
    """A match: the preset's rounds at one table, scores added up (K-P3)."""

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
    voids: int = 0  # void rounds in the match (K-E5)
