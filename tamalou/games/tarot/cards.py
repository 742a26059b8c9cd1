"""The 78 tarot cards as small ints (T-C1..T-C4), kept inside the tarot package.

A card id is ``suit * 14 + rank - 1`` for the suit cards (suits in the order of T-C4,
♠ ♥ ♦ ♣; ranks 1 = Ace … 11 = Jack, 12 = Cavalier, 13 = Queen, 14 = King), ``55 + n`` for
the trump ``n`` (1 = the Petit … 21), and 77 for the Excuse. Trump ids grow with their
number, so "a higher trump" is "a larger id". Points are integer half-points (T-C3).
"""

from __future__ import annotations

SUITS: tuple[str, ...] = ("s", "h", "d", "c")  # T-C4: ♠ ♥ ♦ ♣
SUIT_SYMBOLS: dict[str, str] = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K")
TRUMP = 4  # the "suit" of a trump
EXCUSE_SUIT = 5  # the "suit" of the Excuse: neither suit nor trump (T-C1)

PETIT = 56  # trump 1
TRUMP_21 = 76
EXCUSE = 77
DECK: tuple[int, ...] = tuple(range(78))
OUDLERS: frozenset[int] = frozenset({PETIT, TRUMP_21, EXCUSE})  # T-C2
TOTAL_HP = 182  # T-C3: 91 points

KING, QUEEN, CAVALIER, JACK = 14, 13, 12, 11


def trump(n: int) -> int:
    """The card id of trump ``n`` (1..21)."""
    if not 1 <= n <= 21:
        raise ValueError(f"no trump {n}")
    return 55 + n


def suit_card(suit: int, rank: int) -> int:
    return suit * 14 + rank - 1


def _suit(c: int) -> int:
    return c // 14 if c < 56 else (TRUMP if c < EXCUSE else EXCUSE_SUIT)


def _rank(c: int) -> int:
    """Suit cards 1..14, trumps 1..21, the Excuse 0."""
    return c % 14 + 1 if c < 56 else (c - 55 if c < EXCUSE else 0)


def _points(c: int) -> int:
    if c in OUDLERS:
        return 9
    if c >= 56:
        return 1
    return {KING: 9, QUEEN: 7, CAVALIER: 5, JACK: 3}.get(_rank(c), 1)


#: lookup tables by card id, for the hot path
SUIT: tuple[int, ...] = tuple(_suit(c) for c in DECK)
RANK: tuple[int, ...] = tuple(_rank(c) for c in DECK)
POINTS: tuple[int, ...] = tuple(_points(c) for c in DECK)  # half-points (T-C3)
IS_TRUMP: tuple[bool, ...] = tuple(SUIT[c] == TRUMP for c in DECK)
IS_OUDLER: tuple[bool, ...] = tuple(c in OUDLERS for c in DECK)


def code(c: int) -> str:
    """A stable text code: ``Ks``, ``Ch`` (Cavalier), ``10d``, ``T1`` (the Petit), ``EX``."""
    s = SUIT[c]
    if s == TRUMP:
        return f"T{RANK[c]}"
    if s == EXCUSE_SUIT:
        return "EX"
    return f"{RANKS[RANK[c] - 1]}{SUITS[s]}"


def label(c: int) -> str:
    """What a player reads: ``K♠``, ``10♦``, ``21``, ``Petit``, ``Excuse``."""
    s = SUIT[c]
    if c == PETIT:
        return "Petit"
    if s == TRUMP:
        return str(RANK[c])
    if s == EXCUSE_SUIT:
        return "Excuse"
    return f"{RANKS[RANK[c] - 1]}{SUIT_SYMBOLS[SUITS[s]]}"


_FROM_CODE: dict[str, int] = {code(c): c for c in DECK}


def from_code(text: str) -> int:
    """Inverse of :func:`code`."""
    try:
        return _FROM_CODE[text]
    except KeyError:
        raise ValueError(f"not a tarot card code: {text!r}") from None


def hp(cards: list[int] | tuple[int, ...]) -> int:
    """The half-points of some cards."""
    return sum(POINTS[c] for c in cards)


def lowest_key(c: int) -> tuple[int, int, int]:
    """T-K3: suit cards before trumps before the Excuse; suit cards by rank (Ace lowest) then
    suit order; trumps by number."""
    s = SUIT[c]
    if s < TRUMP:
        return (0, RANK[c], s)
    return (1, RANK[c], 0) if s == TRUMP else (2, 0, 0)


def sort_key(c: int) -> tuple[int, int]:
    """Hand order: by suit (♠ ♥ ♦ ♣), trumps last, then the Excuse; low to high in each."""
    return (SUIT[c], RANK[c])
