"""What happened, tagged with who may see it (see :mod:`tamalou.core.events`).

``to`` is ``None`` for a public event, a tuple of seats for a private one and ``()`` for the
log only (the deal's cards). A called King's partner is named by no event before the called
card is played (T-5.3).
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
    """T-S3: the whole deal, for replay: the log only."""

    deal_no: int
    seed: str
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    dog: tuple[int, ...]
    to: tuple[int, ...] | None = LOG_ONLY
    kind: ClassVar[str] = "dealt"


@dataclass(slots=True, unsafe_hash=True)
class DealStarted:
    deal_no: int
    dealer: int
    hand_size: int
    dog_size: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "deal_started"


@dataclass(slots=True, unsafe_hash=True)
class HandDealt:
    """T-S5: a hand, to its owner only."""

    player: int
    cards: tuple[int, ...]
    to: tuple[int, ...] | None = None
    kind: ClassVar[str] = "hand_dealt"


@dataclass(slots=True, unsafe_hash=True)
class PetitSec:
    """T-S4: ``player``'s hand holds the Petit as its only trump and no Excuse: shown to all."""

    player: int
    hand: tuple[int, ...]
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "petit_sec"


@dataclass(slots=True, unsafe_hash=True)
class DealAnnulled:
    """T-S4/T-B3: the deal does not count (T-M2); the next dealer deals."""

    deal_no: int
    reason: str  # petit_sec, all_passed
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "deal_annulled"


@dataclass(slots=True, unsafe_hash=True)
class TurnStarted:
    """Whose turn it is in ``phase`` (bid, call, ecart, chelem, play) and until when."""

    player: int
    phase: str
    deadline: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "turn_started"


@dataclass(slots=True, unsafe_hash=True)
class BidMade:
    player: int
    contract: int
    auto: bool = False  # T-B2 after a Garde contre, or the clock (T-K1)
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "bid_made"


@dataclass(slots=True, unsafe_hash=True)
class TakerKnown:
    """T-B2: the highest bidder takes."""

    taker: int
    contract: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "taker_known"


@dataclass(slots=True, unsafe_hash=True)
class KingCalled:
    """T-5.1: the called card; who holds it stays secret (T-5.3)."""

    taker: int
    card: int
    auto: bool = False
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "king_called"


@dataclass(slots=True, unsafe_hash=True)
class DogShown:
    """T-B4: Petite or Garde: the dog is shown to all, then taken by the taker."""

    taker: int
    cards: tuple[int, ...]
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "dog_shown"


@dataclass(slots=True, unsafe_hash=True)
class Discarded:
    """One card into the écart, to the taker only."""

    player: int
    card: int
    to: tuple[int, ...] | None = None
    kind: ClassVar[str] = "discarded"


@dataclass(slots=True, unsafe_hash=True)
class EcartLaid:
    """T-B5: the écart is complete; its trumps are shown to all."""

    player: int
    size: int
    trumps: tuple[int, ...]
    auto: bool = False
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "ecart_laid"


@dataclass(slots=True, unsafe_hash=True)
class EcartCards:
    """The écart, to the taker only (T-S5)."""

    player: int
    cards: tuple[int, ...]
    to: tuple[int, ...] | None = None
    kind: ClassVar[str] = "ecart_cards"


@dataclass(slots=True, unsafe_hash=True)
class ChelemAnnounced:
    """T-A1: ``announced`` False when the taker let the window go (or the clock did)."""

    player: int
    announced: bool
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "chelem_announced"


@dataclass(slots=True, unsafe_hash=True)
class PoigneeShown:
    """T-A2: a poignée, public."""

    player: int
    level: int  # 1 simple, 2 double, 3 triple
    cards: tuple[int, ...]
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "poignee_shown"


@dataclass(slots=True, unsafe_hash=True)
class Played:
    player: int
    card: int
    trick_no: int  # 1-based
    auto: bool = False
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "played"


@dataclass(slots=True, unsafe_hash=True)
class PartnerRevealed:
    """T-5.3: the called card was played: its player is the taker's partner."""

    partner: int
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "partner_revealed"


@dataclass(slots=True, unsafe_hash=True)
class TrickWon:
    """T-P6: who took the trick (the Excuse's fate is settled at the end, T-P7/T-P8)."""

    trick_no: int
    winner: int
    cards: tuple[int, ...]  # in play order
    players: tuple[int, ...]
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "trick_won"


@dataclass(slots=True, unsafe_hash=True)
class TimedOut:
    """T-K: the clock acted for ``player``; ``away`` after two in a row (T-K4)."""

    player: int
    phase: str
    away: bool
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "timed_out"


@dataclass(slots=True, unsafe_hash=True)
class DealEnded:
    """T-E: the deal's count and scores; everything hidden is shown (dog, écart, partner)."""

    deal_no: int
    played_no: int  # T-M1: which counted deal this was (1-based)
    taker: int
    contract: int
    partner: int | None  # None: the taker played alone (or not five players)
    called: int | None
    dog: tuple[int, ...]
    ecart: tuple[int, ...]
    attack_hp: int
    defence_hp: int
    oudlers: int
    needed: int
    won: bool
    margin: int
    petit_au_bout: int  # +1 attack, -1 defence, 0 none
    poignees: tuple[int, ...]  # declared level by seat (0 none)
    chelem: int  # K of T-E4
    per_defender: int  # c of T-E4
    scores: tuple[int, ...]
    cumulative: tuple[int, ...]
    match_over: bool
    winners: tuple[int, ...]
    to: tuple[int, ...] | None = PUBLIC
    kind: ClassVar[str] = "deal_ended"


Event = (
    Dealt
    | DealStarted
    | HandDealt
    | PetitSec
    | DealAnnulled
    | TurnStarted
    | BidMade
    | TakerKnown
    | KingCalled
    | DogShown
    | Discarded
    | EcartLaid
    | EcartCards
    | ChelemAnnounced
    | PoigneeShown
    | Played
    | PartnerRevealed
    | TrickWon
    | TimedOut
    | DealEnded
)
