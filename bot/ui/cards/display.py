"""What a game's render code calls to show cards: emojis when the bot has them, text when not.

Render functions are plain functions of a table and a language; they do not hold the bot.
The bot's :class:`CardEmojis` is installed here once (``use(emojis)`` in ``setup_hook``) and
every game reads it through :func:`show`, :func:`line` and :func:`partial_emoji`. Before it
is installed, before its sync has finished, or after it fell back, every call answers the
text form (``7♣``) and ``partial_emoji`` answers ``None``: a game never has to ask.

Pictures: a render function cannot render a picture itself (that is done off the event
loop), so it returns a :class:`CardPicture`, the recipe of one, and the presenter renders
and attaches it (see docs/cards.md, "Using cards in a game").
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import discord

from .codes import local_text
from .emojis import CardEmojis
from .pictures import PictureResult, render_hand_async, render_table_async, render_trick_async

_current: CardEmojis | None = None


def use(emojis: CardEmojis | None) -> None:
    """Installs the bot's card emojis (``None``: text only again, e.g. at shutdown)."""
    global _current
    _current = emojis


def current() -> CardEmojis | None:
    return _current


def available() -> bool:
    """True when cards are shown as emojis (every face uploaded and known)."""
    return _current is not None and _current.available


def emoji(code: str) -> str | None:
    """The emoji markup of a face, or ``None`` when cards are shown as text."""
    return _current.emoji_for(code) if _current is not None else None


def show(code: str, lang: str | None = None) -> str:
    """One face: ``<:c1_7c:…>`` or ``7♣`` (``R♠`` for a French reader, ``lang``)."""
    return emoji(code) or local_text(code, lang)


def line(codes: Sequence[str], lang: str | None = None) -> str:
    """Faces side by side (emojis), or text labels separated by spaces (in the letters of
    ``lang``'s reader)."""
    shown = [show(c, lang) for c in codes]
    return ("" if available() else " ").join(shown)


def partial_emoji(code: str) -> discord.PartialEmoji | None:
    """For ``Button(emoji=…)`` / ``SelectOption(emoji=…)``; ``None`` when shown as text."""
    return _current.partial_emoji(code) if _current is not None else None


def runs(keys: Iterable[Hashable]) -> tuple[int, ...]:
    """The sizes of the runs of equal keys, in order: a hand sorted by suit gives its suits'
    sizes, the ``groups`` of :meth:`CardPicture.hand` that put one suit on a row."""
    sizes: list[int] = []
    last: Any = object()
    for key in keys:
        if not sizes or key != last:
            sizes.append(0)
            last = key
        sizes[-1] += 1
    return tuple(sizes)


Kind = Literal["hand", "table", "trick"]


@dataclass(frozen=True, slots=True)
class CardPicture:
    """The recipe of a picture a message carries; the presenter renders it off the loop.

    Build it with :meth:`hand`, :meth:`table` or :meth:`trick`. ``filename`` is the
    attachment's name: an embed shows it with ``embed.set_image(url=picture.url)``.
    """

    kind: Kind
    args: tuple[Any, ...]
    options: tuple[tuple[str, Any], ...] = ()
    filename: str = "cards.png"
    #: the alt text in the reader's words (a game's own: tarot's "A12", "Excuse"), else
    #: the renderer's from the face codes (``7♣``, ``T21``)
    alt: str | None = None

    @classmethod
    def hand(
        cls,
        codes: Sequence[str],
        *,
        filename: str = "hand.png",
        alt: str | None = None,
        **options: Any,
    ) -> CardPicture:
        """``render_hand(codes, **options)`` (``captions``, ``highlight``, ``overlap``…)."""
        return cls("hand", (tuple(codes),), _frozen(options), filename, alt)

    @classmethod
    def table(
        cls,
        rows: Sequence[tuple[str, Sequence[str]]],
        *,
        filename: str = "table.png",
        alt: str | None = None,
        **options: Any,
    ) -> CardPicture:
        """``render_table(rows, **options)``: one labelled row per player."""
        frozen_rows = tuple((label, tuple(codes)) for label, codes in rows)
        return cls("table", (frozen_rows,), _frozen(options), filename, alt)

    @classmethod
    def trick(
        cls,
        plays: Sequence[tuple[str, str]],
        *,
        filename: str = "trick.png",
        alt: str | None = None,
        **options: Any,
    ) -> CardPicture:
        """``render_trick(plays, winner=…)``."""
        frozen = tuple(tuple(p) for p in plays)
        return cls("trick", (frozen,), _frozen(options), filename, alt)

    @property
    def url(self) -> str:
        """``attachment://<filename>``, for ``Embed.set_image``."""
        return f"attachment://{self.filename}"

    @property
    def key(self) -> str:
        """Same recipe, same key: the presenter skips uploading a picture already shown."""
        raw = json.dumps(
            [self.kind, self.args, self.options, self.filename, self.alt], default=list
        )
        return hashlib.sha1(raw.encode()).hexdigest()

    async def render(self) -> PictureResult:
        """Rendered in a worker thread, cached by content (bot.ui.cards.pictures)."""
        options = dict(self.options)
        if self.kind == "hand":
            return await render_hand_async(*self.args, **options)
        if self.kind == "table":
            return await render_table_async(*self.args, **options)
        return await render_trick_async(*self.args, **options)

    async def file(self) -> discord.File:
        """The PNG as an attachment, its alt text as the description (screen readers)."""
        result = await self.render()
        made: discord.File = result.file(self.filename, self.alt)
        return made


def _frozen(options: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    def freeze(value: Any) -> Any:
        if isinstance(value, list | tuple):
            return tuple(freeze(v) for v in value)
        return value

    return tuple(sorted((k, freeze(v)) for k, v in options.items()))
