"""How cards and seats read in Tamalou's messages: a card as its emoji where the bot has
them, else its label (docs/cards.md); a seat by its member's name or its AI's."""

from __future__ import annotations

from bot.ui import cards as card_faces
from bot.ui.kit import name_of as name_of  # the platform's (every game's read alike)
from bot.ui.kit import picture_name as picture_name
from tamalou.core import cards

BACK = "🂠"
HOLE = "·"


def label(code: str | None, *, lang: str | None) -> str:
    """A card as text in the reader's letters (``R♠`` for a French reader)."""
    if code is None:
        return "—"
    return card_label(cards.from_code(code), lang=lang) if code != cards.JOKER else "🃏"


def card_label(card: int, *, lang: str | None) -> str:
    return card_faces.local_text(cards.code(card), lang)


def face_code(code: str) -> str:
    """The engine's card code as a face code (the joker: ``JK``)."""
    return code if code == cards.JOKER else cards.code(cards.from_code(code))


def shown(code: str | None, text_style: str = "", *, lang: str | None) -> str:
    """A card in a message: its emoji, or its label wrapped in ``text_style`` (`` ` ``, ``**``)."""
    if code is None:
        return "—"
    return card_faces.emoji(face_code(code)) or f"{text_style}{label(code, lang=lang)}{text_style}"


def shown_card(card: int, *, lang: str | None) -> str:
    """A card of an event in a message: its emoji, or its label."""
    return card_faces.emoji(cards.code(card)) or card_label(card, lang=lang)


def back() -> str:
    return card_faces.emoji(card_faces.BACK) or BACK


def hole() -> str:
    return card_faces.emoji(card_faces.HOLE) or HOLE


def score(value: float) -> str:
    return f"{value:g}"


def signed(value: float) -> str:
    """A round's score with its sign: "+7", "-20" (a right Tamoul, R-V3), "+0"."""
    return f"{value:+g}"
