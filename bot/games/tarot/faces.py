"""Tarot cards as a player reads them: the engine's codes (``Ks``, ``Ch``, ``T21``, ``EX``)
as the picture pipeline's face codes (``tRs``, ``tCh``, ``T21``, ``EX``: docs/cards.md) and
as words in the reader's language (French: Roi, Dame, Cavalier, Valet, Petit, Excuse)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import t
from bot.ui import cards as card_faces

#: the engine's rank letters -> the picture pipeline's (1 V C D R: the French initials)
_FACE_RANK = {"A": "1", "J": "V", "C": "C", "Q": "D", "K": "R"}
_SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def face(code: str) -> str:
    """The picture pipeline's code of an engine card code (``Ks`` -> ``tRs``)."""
    if code == "EX" or code.startswith("T"):
        return code
    rank, suit = code[:-1], code[-1]
    return f"t{_FACE_RANK.get(rank, rank)}{suit}"


def label(code: str, lang: str) -> str:
    """A card in words: ``K♠`` / ``R♠``, ``C♥`` (Cavalier), ``T12`` / ``A12``, ``Petit``,
    ``Excuse``."""
    if code == "EX":
        return t(lang, "tarot.card.excuse")
    if code == "T1":
        return t(lang, "tarot.card.petit")
    if code.startswith("T"):
        return t(lang, "tarot.card.trump", n=code[1:])
    rank, suit = code[:-1], code[-1]
    return t(lang, f"tarot.rank.{rank}") + _SYMBOL[suit]


def show(code: str, lang: str, emojis: bool = True) -> str:
    """A card in a message: its emoji once the bot has them, else its words in backticks
    (`` `R♠` ``); never in a title, a field name or a component label (docs/cards.md).
    ``emojis=False``: the words even when emojis are there (a text that must stay short)."""
    shown = card_faces.emoji(face(code)) if emojis else None
    return shown or f"`{label(code, lang)}`"


def partial_emoji(code: str) -> discord.PartialEmoji | None:
    """The card's emoji for a button or a select option, or None (cards as text)."""
    return card_faces.partial_emoji(face(code))


def line(codes: Sequence[str], lang: str, emojis: bool = True) -> str:
    """Cards side by side, a gap between suits (the hand is sorted by suit, trumps last)."""
    out: list[str] = []
    group = None
    for code in codes:
        g = "T" if code.startswith("T") or code == "EX" else code[-1]
        if group is not None and g != group:
            out.append("·")
        group = g
        out.append(show(code, lang, emojis))
    return " ".join(out) if out else "—"
