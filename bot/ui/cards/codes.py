"""Card face codes: one stable string per face, unique across every deck of the house.

French deck (Tamalou, Kalooki, the 32-card deck): the codes of ``tamalou.core.cards.code``
(``7c``, ``10h``, ``Ks``, ``JK``). Tarot (78 cards): trumps ``T1``..``T21``, the Excuse
``EX``, and the suited cards ``t`` + rank + suit, ranks ``1``..``10``, ``V`` (valet, jack),
``C`` (cavalier, knight), ``D`` (dame, queen), ``R`` (roi, king): ``t1h``, ``t10s``,
``tVc``, ``tCd``, ``tDh``, ``tRs``. The leading ``t`` keeps ``t7h`` (tarot) apart from ``7h``
(French), so a code alone names one image. English readers see the court cards and the
aces with English letters (``tAh``, ``tJc``, ``tQd``, ``tKs``; the cavalier is ``C`` in both
languages): their own faces, so pictures, emoji names and alt text follow the reader's
language. Specials: ``BK`` a French back, ``BT`` a tarot back, ``HO`` a hole (an empty slot).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tamalou.core.cards import JOKER, RANKS, SUIT_SYMBOLS, SUITS

Kind = Literal["french", "joker", "trump", "excuse", "tarot", "back", "hole"]

TAROT_RANKS: tuple[str, ...] = (
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "V",
    "C",
    "D",
    "R",
)
#: the tarot ranks an English reader sees in place of the French letters
TAROT_ENGLISH_RANKS: dict[str, str] = {"1": "A", "V": "J", "D": "Q", "R": "K"}
BACK = "BK"
TAROT_BACK = "BT"
HOLE = "HO"
EXCUSE = "EX"

FRENCH_CODES: tuple[str, ...] = (*(f"{r}{s}" for s in SUITS for r in RANKS), JOKER)
TAROT_CODES: tuple[str, ...] = (
    *(f"T{n}" for n in range(1, 22)),
    EXCUSE,
    *(f"t{r}{s}" for s in SUITS for r in TAROT_RANKS),
)
#: the English faces of the tarot cards whose letter differs (16: A, J, Q, K of each suit)
TAROT_ENGLISH_CODES: tuple[str, ...] = tuple(
    f"t{TAROT_ENGLISH_RANKS[r]}{s}" for s in SUITS for r in TAROT_RANKS if r in TAROT_ENGLISH_RANKS
)
SPECIAL_CODES: tuple[str, ...] = (BACK, TAROT_BACK, HOLE)
ALL_CODES: tuple[str, ...] = (
    *FRENCH_CODES,
    *TAROT_CODES,
    *TAROT_ENGLISH_CODES,
    *SPECIAL_CODES,
)
_KNOWN = frozenset(ALL_CODES)


@dataclass(frozen=True, slots=True)
class Face:
    """What a face shows: its kind, the rank text printed on it and its suit (if any)."""

    code: str
    kind: Kind
    rank: str = ""
    suit: str | None = None

    @property
    def red(self) -> bool:
        return self.suit in ("d", "h")


def is_code(code: str) -> bool:
    return code in _KNOWN


def face(code: str) -> Face:
    """Parses a code; raises ``ValueError`` for a code that names no face."""
    if code not in _KNOWN:
        raise ValueError(f"not a card face code: {code!r}")
    if code == JOKER:
        return Face(code, "joker")
    if code == EXCUSE:
        return Face(code, "excuse")
    if code in (BACK, TAROT_BACK):
        return Face(code, "back")
    if code == HOLE:
        return Face(code, "hole")
    if code.startswith("T"):
        return Face(code, "trump", code[1:])
    if code.startswith("t"):
        return Face(code, "tarot", code[1:-1], code[-1])
    return Face(code, "french", code[:-1], code[-1])


#: the rank letters a French reader reads on a French-suited card: Roi, Dame, Valet (an Ace
#: stays A; tarot's own letters come from its faces, R D C V)
FRENCH_LETTERS: dict[str, str] = {"K": "R", "Q": "D", "J": "V"}


def local_text(code: str, lang: str | None) -> str:
    """:func:`text` in the reader's letters: ``R♠``, ``D♥``, ``V♣`` for a French reader
    (``lang`` ``None``: not known, the face's own letters)."""
    shown = text(code)
    f = face(code)
    if lang == "fr" and f.kind == "french" and f.rank in FRENCH_LETTERS:
        return FRENCH_LETTERS[f.rank] + shown[len(f.rank) :]
    return shown


def text(code: str) -> str:
    """The text a player reads when no emoji is available: ``7♣``, ``C♥``, ``T21``, ``🃏``."""
    f = face(code)
    if f.kind in ("joker", "excuse"):
        return "🃏"
    if f.kind == "back":
        return "🂠"
    if f.kind == "hole":
        return "▢"
    if f.kind == "trump":
        return f"T{f.rank}"
    assert f.suit is not None
    return f"{f.rank}{SUIT_SYMBOLS[f.suit]}"
