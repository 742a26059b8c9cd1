"""The game state: plain data that only the engine changes.

No random generator lives here: each deal seeds its own ``random.Random`` from the match
seed and the deal's number (``"<seed>:<deal_no>:deal"``), so the state serialises as data
and a replay deals exactly the same cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tamalou.games.tarot.rules import Rules


@dataclass(slots=True)
class SeatState:
    hand: list[int]
    is_ai: bool = False
    bid: int | None = None  # None: has not spoken (T-B2); 0 pass
    poignee: int = 0  # declared level, 0 none (T-A2)
    poignee_cards: list[int] = field(default_factory=list)
    timeouts: int = 0  # clock actions in a row (T-K4)
    away: bool = False


@dataclass(slots=True)
class Trick:
    leader: int
    players: list[int]  # who played each card, in order
    cards: list[int]
    winner: int = -1  # T-P6, before the Excuse's fate (T-P8)


@dataclass(slots=True)
class DealResult:
    deal_no: int
    played_no: int
    dealer: int
    taker: int
    contract: int
    partner: int | None
    called: int | None
    attack_hp: int
    defence_hp: int
    oudlers: int
    won: bool
    margin: int
    scores: list[int]
    dog: list[int] = field(default_factory=list)
    ecart: list[int] = field(default_factory=list)
    needed: int = 0
    petit_au_bout: int = 0
    poignees: list[int] = field(default_factory=list)
    chelem: int = 0
    per_defender: int = 0


@dataclass(slots=True)
class DealState:
    deal_no: int  # every deal, annulled ones included (the seed label)
    seed: str
    dealer: int
    seats: list[SeatState]
    dog: list[int]
    dealt: list[list[int]]  # the hands as dealt (T-5.2: the partner is who was dealt the card)
    phase: str = "bid"  # bid, call, ecart, chelem, play, over
    current: int = 0
    deadline: int = 0
    turn_started: int = 0
    turns: int = 0  # turns started in this deal (bids, call, écart, chelem, cards)
    contract: int = 0
    taker: int = -1
    called: int | None = None  # T-5.1
    partner: int | None = None  # T-5.2: secret until the called card is played (T-5.3)
    partner_known: bool = False
    dog_shown: bool = False  # T-B4: Petite/Garde
    ecart: list[int] = field(default_factory=list)
    chelem: bool = False  # announced (T-A1)
    tricks: list[Trick] = field(default_factory=list)  # the last one may be in progress


@dataclass(slots=True)
class Game:
    """A match: deals at one table, scores added up (T-M)."""

    rules: Rules
    seed: str
    players: int
    ai: list[bool]
    deal: DealState
    cumulative: list[int]
    history: list[DealResult] = field(default_factory=list)
    deals_dealt: int = 0  # T-S1: the dealer moves on after each, annulled ones included
    now: int = 0
    over: bool = False
    winners: list[int] = field(default_factory=list)
    next_deal_deadline: int | None = None
