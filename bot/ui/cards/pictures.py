"""Pictures of several cards: a hand, a table's rows, a trick, as PNG bytes.

Every picture carries a machine-readable description of exactly which cards it shows
(``PictureResult.description``), the same JSON is stored inside the PNG (an ``iTXt`` chunk
named ``tamalou-cards``, read back by :func:`read_description`), so a leak scan that only
sees the attachment still knows what it shows. Renders are cached by content (an LRU keyed
by the codes and options) and the ``*_async`` wrappers run them off the event loop.
"""

from __future__ import annotations

import asyncio
import functools
import io
import json
import math
import threading
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw, PngImagePlugin

from . import art
from .codes import (
    BACK,
    FRENCH_CODES,
    HOLE,
    SPECIAL_CODES,
    TAROT_BACK,
    TAROT_CODES,
    TAROT_ENGLISH_CODES,
    face,
    text,
)

DESCRIPTION_KEY = "tamalou-cards"
DESCRIPTION_VERSION = 1
CARD_W, CARD_H = art.CARD_SIZE
OVERLAP_STEP = 48  # the visible strip of an overlapped card: its corner index
GAP = 8
MARGIN = 8
LIFT = 16  # a highlighted card is raised by this much
PILL_H = 26
PILL_BG = (54, 57, 63, 235)
PILL_FG = (255, 255, 255)
WIN_EDGE = (230, 170, 20, 255)
DEFAULT_PER_ROW = 11
CACHE_SIZE = 256
PILL_CACHE = 512  # labels drawn (player names, slot numbers): about 3 kB each
PNG_LEVEL = 3  # zlib level of pictures: 3 encodes 3× faster than 7 for about 15% more bytes
OPAQUE_FROM = 128  # in a palette picture, a face's pixel covers what is beneath from this alpha
#: the faces a palette picture may hold: one palette a deck, built once (``_deck``)
DECKS: dict[str, tuple[str, ...]] = {
    "french": (*FRENCH_CODES, BACK, HOLE),
    "tarot": (*TAROT_CODES, *TAROT_ENGLISH_CODES, TAROT_BACK, HOLE),
}


@dataclass(frozen=True, slots=True)
class PictureResult:
    """A rendered picture: PNG bytes, its size, and what it shows.

    ``description`` is JSON-able: ``{"v": 1, "kind": "hand"|"table"|"trick", "rows":
    [{"label": str, "cards": [code, ...]}], "faces": [every face code shown, sorted]}``.
    ``faces`` leaves out backs and holes (``BK``, ``BT``, ``HO``): they reveal no card.
    """

    png: bytes
    width: int
    height: int
    description: dict[str, Any]
    alt_text: str

    @property
    def faces(self) -> frozenset[str]:
        return frozenset(self.description["faces"])

    def file(self, filename: str = "cards.png", alt: str | None = None) -> Any:
        """A ``discord.File`` of the picture, its alt text set (screen readers read it):
        ``alt`` when given (a game's words in the reader's language), else ``alt_text``."""
        import discord  # the renderer itself stays usable without discord (tools, tests)

        description = alt[:ALT_LIMIT] if alt else self.alt_text
        return discord.File(io.BytesIO(self.png), filename=filename, description=description)


def read_description(png: bytes) -> dict[str, Any] | None:
    """The description stored in a picture's PNG, or ``None`` (not one of ours)."""
    try:
        with Image.open(io.BytesIO(png)) as img:
            raw = img.info.get(DESCRIPTION_KEY)
    except (OSError, ValueError):
        return None
    if not isinstance(raw, str):
        return None
    data: dict[str, Any] = json.loads(raw)
    return data


Row = tuple[str, tuple[str, ...]]
#: Discord's limit for an attachment's description (its alt text)
ALT_LIMIT = 1024
Box = tuple[int, int, int, int]


def _describe(kind: str, rows: Sequence[Row]) -> dict[str, Any]:
    shown = {c for _, cards in rows for c in cards if c not in SPECIAL_CODES}
    return {
        "v": DESCRIPTION_VERSION,
        "kind": kind,
        "rows": [{"label": label, "cards": list(cards)} for label, cards in rows],
        "faces": sorted(shown),
    }


def _alt(rows: Sequence[Row]) -> str:
    parts = []
    for label, cards in rows:
        body = " ".join(text(c) for c in cards)
        parts.append(f"{label}: {body}" if label else body)
    return " | ".join(parts)[:ALT_LIMIT]


@functools.lru_cache(maxsize=1024)
def _drawable(label: str) -> str:
    """``label`` in characters the bundled font has: accents dropped (``Chloé`` → ``Chloe``),
    anything else as ``?``. Pillow's bundled font is ASCII-only and the pipeline must not
    depend on system fonts; the message text beside the picture keeps the real name."""
    font = art._font(18)
    missing = bytes(font.getmask("\uffff"))
    out = []
    for ch in label[:40]:
        for candidate in (ch, unicodedata.normalize("NFKD", ch)[:1]):
            if candidate.isprintable() and (
                candidate == " " or bytes(font.getmask(candidate)) != missing
            ):
                out.append(candidate)
                break
        else:
            out.append("?")
    return "".join(out)


def _pill_geometry(x: int, label: str, centre: bool) -> tuple[str, int, int, int, int]:
    """``(drawable label, left x, width, text dx, text dy)`` of a pill at ``x``."""
    font = art._font(18)
    label = _drawable(label)
    left, top, right, bottom = (round(v) for v in font.getbbox(label))
    w = right - left + 16
    if centre:
        x -= w // 2
    return label, x, w, 8 - left, (PILL_H - 2 - (bottom - top)) // 2 - top


def _pill(canvas: Image.Image, x: int, y: int, label: str, *, centre: bool = False) -> None:
    label, x, w, dx, dy = _pill_geometry(x, label, centre)
    d = ImageDraw.Draw(canvas)
    d.rounded_rectangle((x, y, x + w, y + PILL_H - 2), 8, fill=PILL_BG)
    d.text((x + dx, y + dy), label, font=art._font(18), fill=PILL_FG)


def _chunks(cards: tuple[str, ...], per_row: int) -> list[tuple[str, ...]]:
    if per_row < 1:
        raise ValueError("per_row must be at least 1")
    if not cards:
        return [()]
    rows = math.ceil(len(cards) / per_row)
    size = math.ceil(len(cards) / rows)  # balanced: 22 cards in 2 rows of 11, 18 in 2 of 9
    return [cards[i : i + size] for i in range(0, len(cards), size)]


def _grouped(
    cards: tuple[str, ...], groups: tuple[int, ...], per_row: int
) -> list[tuple[str, ...]]:
    """``cards`` cut in runs of ``groups`` sizes (what is left over: one more run), each
    run on its own lines, wrapped in balanced rows of at most ``per_row``."""
    lines: list[tuple[str, ...]] = []
    start = 0
    for size in (*groups, len(cards)):
        run = cards[start : start + size]
        start += len(run)
        if run:
            lines.extend(_chunks(run, per_row))
    return lines or [()]


def _row_width(n: int, step: int) -> int:
    return 0 if n == 0 else (n - 1) * step + CARD_W


def _finish(kind: str, rows: Sequence[Row], canvas: Image.Image) -> PictureResult:
    description = _describe(kind, rows)
    info = PngImagePlugin.PngInfo()
    info.add_itxt(DESCRIPTION_KEY, json.dumps(description, sort_keys=True, ensure_ascii=False))
    png = art.encode_png(canvas, info, level=PNG_LEVEL)
    return PictureResult(png, canvas.width, canvas.height, description, _alt(rows))


@functools.cache
def _parts(code: str) -> tuple[Image.Image, Box | None, tuple[Box, ...]]:
    """A face split for a cheap composition: ``(image, core, edges)``. ``core`` is the box of
    the largest centred rectangle where the face is fully opaque (copied with a plain
    ``paste``: the same pixels as compositing it; not kept cropped: 66 kB a face),
    ``edges`` the boxes around it, composited over what is
    beneath (the rounded corners). ``core`` is ``None`` for a face without one (a hole)."""
    img = art.card_image(code)
    w, h = img.size
    alpha = img.getchannel("A")
    mid = [alpha.getpixel((x, h // 2)) for x in range(w)]
    opaque = [x for x, a in enumerate(mid) if a == 255]
    if not opaque:
        return img, None, ((0, 0, w, h),)
    x0, x1 = opaque[0], opaque[-1] + 1
    if any(a != 255 for a in mid[x0:x1]):
        return img, None, ((0, 0, w, h),)

    def full(y: int) -> bool:
        return alpha.crop((x0, y, x1, y + 1)).getextrema() == (255, 255)

    if not full(h // 2):  # pragma: no cover - checked just above
        return img, None, ((0, 0, w, h),)
    y0 = h // 2
    while y0 > 0 and full(y0 - 1):
        y0 -= 1
    y1 = h // 2 + 1
    while y1 < h and full(y1):
        y1 += 1
    edges = [(0, 0, w, y0), (0, y1, w, h), (0, y0, x0, y1), (x1, y0, w, y1)]
    return img, (x0, y0, x1, y1), tuple(b for b in edges if b[0] < b[2] and b[1] < b[3])


def _place(canvas: Image.Image, code: str, x: int, y: int) -> None:
    """``canvas.alpha_composite(card_image(code), (x, y))``, the same pixels, faster: the
    opaque core is copied, only the edges are blended."""
    img, core, edges = _parts(code)
    if core is not None:
        canvas.paste(img.crop(core), (x + core[0], y + core[1]))  # a crop: ~10 µs
    for box in edges:
        canvas.alpha_composite(img, (x + box[0], y + box[1]), box)


@dataclass(frozen=True, slots=True)
class _Deck:
    """A deck's faces reduced once to one shared 256-colour palette, for palette pictures."""

    palette: bytes  # RGBA entries
    clear: int  # the index of the fully transparent colour
    faces: dict[str, tuple[Image.Image, Image.Image]]  # code -> ("P" face, "1" mask)
    extra: int  # the index of _EXTRA's first colour: the pill's ramp, then the winner's edge


def _blend(a: tuple[int, ...], b: tuple[int, ...], k: int, n: int) -> tuple[int, ...]:
    return tuple(round(x + (y - x) * k / n) for x, y in zip(a, b, strict=True))


#: colours every deck palette holds besides its faces': a pill's background blended toward
#: its text colour in PILL_LEVELS steps (the text's anti-aliasing), then the winner's edge
PILL_LEVELS = 16
_EXTRA: tuple[tuple[int, ...], ...] = (
    *(_blend(PILL_BG, (*PILL_FG, 255), k, PILL_LEVELS) for k in range(PILL_LEVELS + 1)),
    WIN_EDGE,
)


_deck_lock = threading.Lock()


def _deck(name: str) -> _Deck:
    """The palette of a deck, built once: the first pictures of a start come from several
    worker threads at once, and each building its own (15 MB of pixels for a while) would
    leave the process tens of MB bigger."""
    with _deck_lock:
        return _build_deck(name)


@functools.cache
def _build_deck(name: str) -> _Deck:
    """Every face of a deck side by side, reduced to 238 colours once (0.1-0.3 s, once a
    process), then each face cut out of the reduced strip."""
    codes = DECKS[name]
    w, h = art.CARD_SIZE
    strip = Image.new("RGBA", (w * len(codes), h + 1), (0, 0, 0, 0))  # + a clear row
    for i, code in enumerate(codes):
        strip.paste(art.card_image(code), (i * w, 0))
    reduced = strip.quantize(
        colors=256 - len(_EXTRA), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    clear = reduced.getpixel((0, h))
    assert isinstance(clear, int)
    faces = {}
    for i, code in enumerate(codes):
        alpha = art.card_image(code).getchannel("A")
        mask = alpha.point([0] * OPAQUE_FROM + [255] * (256 - OPAQUE_FROM)).convert("1")
        faces[code] = (reduced.crop((i * w, 0, (i + 1) * w, h)), mask)
    palette = bytearray(reduced.getpalette("RGBA") or b"")[: 4 * (256 - len(_EXTRA))]
    for a in range(3, len(palette), 4):  # the reduction leaves the paper at alpha 254
        if palette[a] >= 240:
            palette[a] = 255
    extra = len(palette) // 4
    palette += bytes(v for colour in _EXTRA for v in colour)
    return _Deck(bytes(palette), clear, faces, extra)


class _Canvas:
    """Where a picture is drawn: composited in RGBA (reduced to a palette when encoded)."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.image = Image.new("RGBA", size, (0, 0, 0, 0))

    def card(self, code: str, x: int, y: int) -> None:
        _place(self.image, code, x, y)

    def pill(self, x: int, y: int, label: str, *, centre: bool = False) -> None:
        _pill(self.image, x, y, label, centre=centre)

    def frame(self, box: Box) -> None:
        ImageDraw.Draw(self.image).rounded_rectangle(box, 14, outline=WIN_EDGE, width=5)


class _PaletteCanvas(_Canvas):
    """Drawn straight into a deck's palette: no reduction per picture. A face's pixel covers
    what is beneath it from alpha OPAQUE_FROM (only the anti-aliasing of an overlapped
    rounded corner differs from compositing); a pill's text has PILL_LEVELS + 1 shades."""

    def __init__(self, size: tuple[int, int], deck: _Deck) -> None:
        self.deck = deck
        self.image = Image.new("P", size, deck.clear)
        self.image.putpalette(deck.palette, "RGBA")

    def card(self, code: str, x: int, y: int) -> None:
        img, mask = self.deck.faces[code]
        self.image.paste(img, (x, y), mask)

    def pill(self, x: int, y: int, label: str, *, centre: bool = False) -> None:
        img, shape = _palette_pill(label, self.deck.extra)
        self.image.paste(img, (x - (img.width - 1) // 2 if centre else x, y), shape)

    def frame(self, box: Box) -> None:
        edge = self.deck.extra + PILL_LEVELS + 1
        ImageDraw.Draw(self.image).rounded_rectangle(box, 14, outline=edge, width=5)


@functools.lru_cache(maxsize=PILL_CACHE)
def _palette_pill(label: str, base: int) -> tuple[Image.Image, Image.Image]:
    """A pill in palette indexes (``base``: its ramp's first index) and its shape, as a
    ``paste`` source and mask: the same for a label every time (a player's name)."""
    label, _, w, dx, dy = _pill_geometry(0, label, False)
    size = (w + 1, PILL_H - 1)
    shape = Image.new("1", size, 0)
    ImageDraw.Draw(shape).rounded_rectangle((0, 0, w, PILL_H - 2), 8, fill=1)
    ink = Image.new("L", size, 0)
    ImageDraw.Draw(ink).text((dx, dy), label, font=art._font(18), fill=255)
    shades = ink.point([base + round(v * PILL_LEVELS / 255) for v in range(256)])
    return Image.frombytes("P", size, shades.tobytes()), shape


def _canvas(size: tuple[int, int], rows: Sequence[Row], palette: bool) -> _Canvas:
    deck = _deck_of(rows) if palette else None
    return _Canvas(size) if deck is None else _PaletteCanvas(size, _deck(deck))


def _deck_of(rows: Sequence[Row]) -> str | None:
    codes = {c for _, cards in rows for c in cards}
    for name, deck in DECKS.items():
        if codes <= frozenset(deck):
            return name
    return None


def _draw_rows(
    rows: Sequence[Row],
    *,
    per_row: int,
    overlap: bool,
    highlight: frozenset[tuple[int, int]],
    captions: tuple[str, ...] | None,
    palette: bool = True,
    groups: tuple[int, ...] = (),
) -> Image.Image:
    """The picture's pixels: straight into a deck's palette ("P") when it shows cards of one
    deck and ``palette`` is true, else composited in RGBA (reduced when encoded).
    ``groups``: the sizes of the runs of a one-row picture that each start a new line (a
    tarot hand's suits), each wrapped at ``per_row``."""
    step = OVERLAP_STEP if overlap else CARD_W + GAP
    lift = LIFT if highlight else 0
    layout: list[tuple[str, list[tuple[str, ...]]]] = [
        (label, _grouped(cards, groups, per_row) if groups else _chunks(cards, per_row))
        for label, cards in rows
    ]
    width = max([_row_width(len(line), step) for _, lines in layout for line in lines] + [120])
    labelled = any(label for label, _ in rows)
    line_h = lift + CARD_H + (PILL_H + 4 if captions else 0) + GAP
    height = sum((PILL_H + 4 if labelled else 0) + len(lines) * line_h for _, lines in layout)
    canvas = _canvas((width + 2 * MARGIN, height - GAP + 2 * MARGIN), rows, palette)
    y = MARGIN
    for r, (label, lines) in enumerate(layout):
        if labelled:
            if label:
                canvas.pill(MARGIN, y, label)
            y += PILL_H + 4
        i = 0
        for line in lines:
            for k, code in enumerate(line):
                x = MARGIN + k * step
                up = 0 if (r, i) in highlight else lift
                canvas.card(code, x, y + up)
                if captions:
                    centre = x + (step // 2 if overlap and k < len(line) - 1 else CARD_W // 2)
                    canvas.pill(centre, y + lift + CARD_H + 4, captions[i], centre=True)
                i += 1
            y += line_h
    return canvas.image


def _check(cards: Sequence[str]) -> tuple[str, ...]:
    out = tuple(cards)
    for c in out:
        face(c)  # raises ValueError on an unknown code
    return out


@functools.lru_cache(maxsize=CACHE_SIZE)
def _hand(
    cards: tuple[str, ...],
    per_row: int,
    overlap: bool,
    highlight: frozenset[int],
    captions: tuple[str, ...] | None,
    groups: tuple[int, ...] = (),
) -> PictureResult:
    rows: list[Row] = [("", cards)]
    canvas = _draw_rows(
        rows,
        per_row=per_row,
        overlap=overlap,
        highlight=frozenset((0, i) for i in highlight),
        captions=captions,
        groups=groups,
    )
    return _finish("hand", rows, canvas)


def render_hand(
    cards: Sequence[str],
    *,
    per_row: int = DEFAULT_PER_ROW,
    overlap: bool = True,
    highlight: Sequence[int] = (),
    captions: Sequence[str] | None = None,
    groups: Sequence[int] = (),
) -> PictureResult:
    """One player's cards, overlapped so each shows its corner index, wrapped in balanced rows.

    ``highlight``: indexes of cards raised (e.g. chosen for a meld). ``captions``: one short
    text under each card (e.g. Tamalou slot numbers), or ``None``. ``groups``: the sizes of
    the runs that each start a new row (a tarot hand's suits: one row a suit), each wrapped
    at ``per_row``; the cards past them make one more run.
    """
    codes = _check(cards)
    caps = tuple(captions) if captions is not None else None
    if caps is not None and len(caps) != len(codes):
        raise ValueError("one caption per card")
    runs = tuple(int(n) for n in groups)
    if any(n < 0 for n in runs) or sum(runs) > len(codes):
        raise ValueError("groups must be sizes within the hand")
    return _hand(codes, per_row, overlap, frozenset(highlight), caps, runs)


@functools.lru_cache(maxsize=CACHE_SIZE)
def _table(
    rows: tuple[Row, ...], per_row: int, overlap: bool, palette: bool = True
) -> PictureResult:
    canvas = _draw_rows(
        rows,
        per_row=per_row,
        overlap=overlap,
        highlight=frozenset(),
        captions=None,
        palette=palette,
    )
    return _finish("table", rows, canvas)


def render_table(
    rows: Sequence[tuple[str, Sequence[str]]],
    *,
    per_row: int = DEFAULT_PER_ROW,
    overlap: bool = False,
) -> PictureResult:
    """Several labelled rows of cards: the end-of-round reveal, Kalooki melds on the table."""
    key = tuple((str(label), _check(cards)) for label, cards in rows)
    return _table(key, per_row, overlap)


@functools.lru_cache(maxsize=CACHE_SIZE)
def _trick(
    plays: tuple[tuple[str, str], ...], winner: int | None, palette: bool = True
) -> PictureResult:
    n = len(plays)
    step = CARD_W + GAP
    width = max(_row_width(n, step), 120) + 2 * MARGIN
    height = CARD_H + PILL_H + 4 + 2 * MARGIN
    rows: list[Row] = [(label, (code,)) for label, code in plays]
    canvas = _canvas((width, height), rows, palette)
    for k, (label, code) in enumerate(plays):
        x = MARGIN + k * step
        if k == winner:
            canvas.frame((x - 5, MARGIN - 5, x + CARD_W + 4, MARGIN + CARD_H + 4))
        canvas.card(code, x, MARGIN)
        if label:
            canvas.pill(x + CARD_W // 2, MARGIN + CARD_H + 4, label, centre=True)
    return _finish("trick", rows, canvas.image)


def render_trick(plays: Sequence[tuple[str, str]], *, winner: int | None = None) -> PictureResult:
    """A trick: each play is ``(player label, card code)`` in play order; ``winner`` framed."""
    key = tuple((str(label), _check([code])[0]) for label, code in plays)
    if winner is not None and not 0 <= winner < len(key):
        raise ValueError("winner must index a play")
    return _trick(key, winner)


async def render_hand_async(cards: Sequence[str], **options: Any) -> PictureResult:
    """:func:`render_hand` in a worker thread: never blocks the event loop."""
    return await asyncio.to_thread(render_hand, cards, **options)


async def render_table_async(
    rows: Sequence[tuple[str, Sequence[str]]], **options: Any
) -> PictureResult:
    return await asyncio.to_thread(render_table, rows, **options)


async def render_trick_async(plays: Sequence[tuple[str, str]], **options: Any) -> PictureResult:
    return await asyncio.to_thread(render_trick, plays, **options)


def prerender(codes: Iterable[str]) -> None:
    """Draws the picture faces of ``codes`` now (:func:`art.prerender`) and builds the
    palette of every deck among them, so that the first hand picture after start costs a
    layout, not the deck's faces and palette (about 0.3 s). Run it in a thread."""
    wanted = set(codes)
    art.prerender(wanted)
    for name, deck in DECKS.items():
        if wanted & set(deck) - {HOLE}:
            _deck(name)


def clear_faces() -> None:
    """Drops the faces prepared for composition and the deck palettes too (benchmarks)."""
    _parts.cache_clear()
    _build_deck.cache_clear()
    _palette_pill.cache_clear()
    clear_cache()


def clear_cache() -> None:
    """Drops cached pictures (for benchmarks measuring a cold render)."""
    _hand.cache_clear()
    _table.cache_clear()
    _trick.cache_clear()
