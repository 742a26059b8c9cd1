"""Tarot cards as a player reads them: the engine's codes (``Ks``, ``Ch``, ``T21``, ``EX``)
as the picture pipeline's face codes in the reader's language (``tRs`` for a French reader,
``tKs`` for an English one; ``tCh``, ``T21``, ``EX`` in both: docs/cards.md) and as words in
the reader's language (French: Roi, Dame, Cavalier, Valet, Petit, Excuse). Pictures, emojis
(their names) and alt text all come from the face code, so they follow the reader's language;
a public message is read in the server's. Seats and contracts by name, too."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import t
from bot.ui import cards as card_faces
from bot.ui.kit import name_of as name_of  # the platform's (every game's read alike)
from bot.ui.kit import picture_name as picture_name
from tamalou.games.tarot.rules import CONTRACTS

#: the engine's rank letters -> the picture pipeline's, by language (French: 1 V C D R, the
#: French initials; English: A J C Q K, as the English text says)
_FACE_RANK = {
    "fr": {"A": "1", "J": "V", "C": "C", "Q": "D", "K": "R"},
    "en": {"A": "A", "J": "J", "C": "C", "Q": "Q", "K": "K"},
}
_SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def face(code: str, lang: str) -> str:
    """The picture pipeline's code of an engine card code for a reader of ``lang``
    (``Ks`` -> ``tRs`` in French, ``tKs`` in English)."""
    if code == "EX" or code.startswith("T"):
        return code
    rank, suit = code[:-1], code[-1]
    ranks = _FACE_RANK["fr" if lang == "fr" else "en"]
    return f"t{ranks.get(rank, rank)}{suit}"


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
    shown = card_faces.emoji(face(code, lang)) if emojis else None
    return shown or f"`{label(code, lang)}`"


def partial_emoji(code: str, lang: str) -> discord.PartialEmoji | None:
    """The card's emoji for a button or a select option, or None (cards as text)."""
    return card_faces.partial_emoji(face(code, lang))


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


def contract_name(contract: int | str, lang: str) -> str:
    key = CONTRACTS[contract] if isinstance(contract, int) else contract
    return t(lang, f"tarot.contract.{key}")
