"""Card pictures for every game: faces drawn with Pillow, application emojis, hand pictures.

See docs/cards.md. The small API:

* codes: ``ALL_CODES``, ``face(code)``, ``text(code)`` (``7♣``), ``BACK``/``TAROT_BACK``/``HOLE``;
* art: ``emoji_image(code)`` (128×128), ``card_image(code)`` (120×168), ``emoji_png(code)``;
* emojis: ``CardEmojis(client)`` → ``await sync()``, ``emoji_for``, ``partial_emoji``,
  ``show``, ``line``; ``emoji_name(code)``, ``code_from_emoji_name(name)``,
  ``codes_in_markup(text)``;
* display (what a game's render code calls): ``show(code)``, ``line(codes)``,
  ``partial_emoji(code)``, ``emoji(code)``, ``available()``, ``CardPicture`` (a picture's
  recipe the presenter renders and attaches); the bot installs its emojis with ``use``;
* pictures: ``render_hand``, ``render_table``, ``render_trick`` (and ``*_async``) →
  ``PictureResult`` (``png``, ``description``, ``alt_text``, ``file()``), ``read_description``.
"""

from .art import CARD_SIZE, EMOJI_SIZE, card_image, emoji_image, emoji_png
from .codes import (
    ALL_CODES,
    BACK,
    EXCUSE,
    FRENCH_CODES,
    HOLE,
    SPECIAL_CODES,
    TAROT_BACK,
    TAROT_CODES,
    TAROT_ENGLISH_CODES,
    Face,
    face,
    is_code,
    local_text,
    text,
)
from .display import CardPicture, available, emoji, line, partial_emoji, show, use
from .emojis import CardEmojis, code_from_emoji_name, codes_in_markup, emoji_name
from .pictures import (
    PictureResult,
    prerender,
    read_description,
    render_hand,
    render_hand_async,
    render_table,
    render_table_async,
    render_trick,
    render_trick_async,
)

__all__ = [
    "ALL_CODES",
    "BACK",
    "CARD_SIZE",
    "EMOJI_SIZE",
    "EXCUSE",
    "FRENCH_CODES",
    "HOLE",
    "SPECIAL_CODES",
    "TAROT_BACK",
    "TAROT_CODES",
    "TAROT_ENGLISH_CODES",
    "CardEmojis",
    "CardPicture",
    "Face",
    "PictureResult",
    "available",
    "card_image",
    "code_from_emoji_name",
    "codes_in_markup",
    "emoji",
    "emoji_image",
    "emoji_name",
    "emoji_png",
    "face",
    "is_code",
    "line",
    "local_text",
    "partial_emoji",
    "prerender",
    "read_description",
    "render_hand",
    "render_hand_async",
    "render_table",
    "render_table_async",
    "render_trick",
    "render_trick_async",
    "show",
    "text",
    "use",
]
