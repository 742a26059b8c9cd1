"""How cards and seats read in Kalooki's messages: a card as its emoji or its text (a
label or an option carries the text, the face goes in the component's emoji field), a hand
in the order its player chose, a contract counted, a seat by name."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

from bot.i18n import t
from bot.ui import grid
from bot.ui.cards import display
from bot.ui.cards.codes import local_text
from bot.ui.kit import button
from bot.ui.kit import name_of as name_of  # the platform's (every game's read alike)
from tamalou.core import cards

SUITS_ORDER = {"s": 0, "h": 1, "c": 2, "d": 3}  # alternating colours, as players hold them


RANK_ORDER = {r: i for i, r in enumerate(cards.RANKS)}


def face(card: int, *, lang: str | None) -> str:
    """One card as a player sees it: its emoji, or its text in the reader's letters (``7♣``,
    ``R♠`` for a French reader, ``🃏``)."""
    return display.show(cards.code(card), lang)


def faces(hand: Sequence[int], *, lang: str | None) -> str:
    return display.line([cards.code(c) for c in hand], lang) if hand else "—"


def card_button(
    text: str,
    card: int | None,
    custom_id: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
) -> discord.ui.Button[discord.ui.View]:
    """A button naming a card: ``text`` holds the card as text (a label cannot show a custom
    emoji: its markup would be read as is), the card's face goes in the emoji field."""
    item = button(text, custom_id, style, disabled)
    if card is not None:
        item.emoji = display.partial_emoji(cards.code(card))
    return item


def card_word(card: int | None, *, lang: str | None) -> str:
    """A card as a label may carry it: its text (``9♥``, ``R♠`` for a French reader), never
    its emoji markup."""
    return local_text(cards.code(card), lang) if card is not None else "—"


def sort_key(order: str) -> Callable[[int], tuple[int, int, int, int]]:
    def key(card: int) -> tuple[int, int, int, int]:
        s = cards.suit(card)
        if s is None:
            return (1, 0, 0, card)  # jokers last
        rank = RANK_ORDER[cards.rank(card)]
        if order == "rank":
            return (0, rank, SUITS_ORDER[s], card)
        return (0, SUITS_ORDER[s], rank, card)

    return key


def sorted_hand(hand: Sequence[int], order: str) -> list[int]:
    return sorted(hand, key=sort_key(order))


def contract_text(contract: Sequence[int], lang: str) -> str:
    """A contract counted: "3 sets", "2 sets and a run", "a set and 2 runs" (K-R1)."""
    sets, runs = contract.count(3), contract.count(4)
    parts = {
        "sets": t(lang, "kalooki.contract.sets", n=sets) if sets else "",
        "runs": t(lang, "kalooki.contract.runs", n=runs) if runs else "",
    }
    if sets and runs:
        return t(lang, "kalooki.contract.both", **parts)
    return parts["sets"] or parts["runs"]


def score(value: float) -> str:
    return f"{value:g}"


def group_ranges(count: int) -> list[range]:
    """A hand of ``count`` cards in groups a select holds (one group when it fits), in the
    hand's order (``grid.narrow``)."""
    at = grid.narrow(count, grid.OPTIONS, (), unit=grid.OPTIONS)
    assert at is not None
    return at.groups or [at.choices]
