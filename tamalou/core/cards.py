"""Cards are small ints: fast to copy, compare and hash.

A card id is ``deck * 54 + index``: index 0..51 is ``suit * 13 + rank``, 52 and 53 are the
two jokers of that deck. Suits: clubs, diamonds, hearts, spades (diamonds and hearts red).
"""

from __future__ import annotations

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("c", "d", "h", "s")
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
JOKER = "JK"
DECK_SIZE = 54


def rank(card: int) -> str:
    index = card % DECK_SIZE
    return JOKER if index >= 52 else RANKS[index % 13]


def suit(card: int) -> str | None:
    index = card % DECK_SIZE
    return None if index >= 52 else SUITS[index // 13]


def is_red(card: int) -> bool:
    return suit(card) in ("d", "h")


def code(card: int) -> str:
    """A stable text code: ``7c``, ``10h``, ``Ks``, ``JK``."""
    s = suit(card)
    return JOKER if s is None else f"{rank(card)}{s}"


def label(card: int) -> str:
    """What a player reads: ``7♣``, ``10♥``, ``K♠``, ``🃏``."""
    s = suit(card)
    return "🃏" if s is None else f"{rank(card)}{SUIT_SYMBOLS[s]}"


def from_code(text: str, deck: int = 0) -> int:
    """Inverse of :func:`code` (for scripted deals in tests and tools)."""
    if text == JOKER:
        return deck * DECK_SIZE + 52
    r, s = text[:-1], text[-1]
    if r not in RANKS or s not in SUITS:
        raise ValueError(f"not a card code: {text!r}")
    return deck * DECK_SIZE + SUITS.index(s) * 13 + RANKS.index(r)


def from_text(text: str) -> int:
    """A scripted card with its copy (tests, tools, docs): ``7h`` is deck 0's seven of hearts,
    ``7h@1`` deck 1's; ``JK`` is the first joker, ``JK@1`` the second (of deck 0), ``JK@2`` and
    ``JK@3`` the jokers of deck 1."""
    base, _, copy = text.partition("@")
    n = int(copy) if copy else 0
    if base == JOKER:
        return (n // 2) * DECK_SIZE + 52 + n % 2
    return from_code(base, n)


def build_deck(ranks: tuple[str, ...], jokers: int, decks: int) -> list[int]:
    """Every card id of the shoe, in a fixed order (shuffling is the round's job)."""
    cards: list[int] = []
    for d in range(decks):
        base = d * DECK_SIZE
        cards.extend(base + s * 13 + RANKS.index(r) for s in range(4) for r in RANKS if r in ranks)
        cards.extend(base + 52 + j for j in range(min(jokers, 2)))
    return cards
