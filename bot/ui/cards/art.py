"""Card art drawn from code with Pillow: no image files, no fonts but the one Pillow ships.

Two renderings of every face:

* ``emoji_image(code)``: 128×128 RGBA, for application emojis. Discord shows them at about
  22 px, so the rank fills the top half and the suit the bottom half, nothing else.
* ``card_image(code)``: 120×168 RGBA, for pictures. A corner index (rank above suit) in the
  left strip stays readable when cards overlap; the middle shows a large suit or letter.

Colour-blind safety is **shapes + colour**: each suit is a large vector shape (heart,
diamond, club, spade) drawn here, so the suit never depends on colour; red and black differ
in lightness as well as hue (checked under protanopia and deuteranopia simulations in the
tests). Everything is drawn at 4× and reduced, with Pillow's basic text layout, so the same
Pillow gives the same bytes on every machine.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Iterable

from PIL import Image, ImageChops, ImageDraw, ImageFont, PngImagePlugin

from .codes import Face, face

EMOJI_SIZE = (128, 128)
CARD_SIZE = (120, 168)
SS = 4  # supersampling factor

RED = (222, 52, 36)
BLACK = (12, 12, 16)
PAPER = (255, 255, 255)
TAROT_PAPER = (250, 245, 228)  # ivory: a tarot 7♥ is not the French 7♥
EDGE = (120, 120, 128)
TRUMP_PAPER = (246, 226, 168)
TRUMP_INK = (40, 24, 70)
JOKER_INK = (120, 40, 150)
BACK_COLOURS = {"BK": ((28, 58, 140), (120, 156, 230)), "BT": ((24, 100, 64), (140, 210, 160))}
HOLE_EDGE = (150, 150, 158)

RGB = tuple[int, int, int]


@functools.lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont:
    font = ImageFont.load_default(size=size)
    assert isinstance(font, ImageFont.FreeTypeFont), "Pillow was built without FreeType"
    # BASIC layout: the same glyph positions whether or not libraqm is installed.
    return font.font_variant(layout_engine=ImageFont.Layout.BASIC)


def _text_mask(text: str, height: int, max_width: int) -> Image.Image:
    """``text`` in bold, cropped to its ink and scaled to ``height`` (narrowed to fit)."""
    font = _font(160)
    stroke = 5
    left, top, right, bottom = (round(v) for v in font.getbbox(text, stroke_width=stroke))
    img = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(img).text(
        (-left, -top), text, font=font, fill=255, stroke_width=stroke, stroke_fill=255
    )
    width = min(max_width, max(1, round(img.width * height / img.height)))
    return img.resize((width, height), Image.Resampling.LANCZOS)


def _suit_mask(suit: str, size: int) -> Image.Image:
    """A suit shape filling a ``size``×``size`` box (drawn at that size: callers supersample)."""
    s = size
    img = Image.new("L", (s, s), 0)
    d = ImageDraw.Draw(img)
    if suit == "d":
        d.polygon(
            [(s * 0.5, 0), (s * 0.9, s * 0.5), (s * 0.5, s - 1), (s * 0.1, s * 0.5)], fill=255
        )
    elif suit == "h":
        r = s * 0.26
        d.ellipse((0, s * 0.04, 2 * r + s * 0.02, s * 0.04 + 2 * r), fill=255)
        d.ellipse((s - 2 * r - s * 0.02, s * 0.04, s - 1, s * 0.04 + 2 * r), fill=255)
        d.polygon([(s * 0.015, s * 0.38), (s * 0.985, s * 0.38), (s * 0.5, s - 1)], fill=255)
        d.rectangle((r, s * 0.1, s - r, s * 0.5), fill=255)
    elif suit == "s":
        r = s * 0.25
        top = s * 0.36
        d.ellipse((s * 0.01, top, s * 0.01 + 2 * r, top + 2 * r), fill=255)
        d.ellipse((s * 0.99 - 2 * r, top, s * 0.99, top + 2 * r), fill=255)
        d.polygon([(s * 0.5, 0), (s * 0.985, s * 0.56), (s * 0.015, s * 0.56)], fill=255)
        d.polygon([(s * 0.5, s * 0.55), (s * 0.72, s - 1), (s * 0.28, s - 1)], fill=255)
    elif suit == "c":
        r = s * 0.22
        d.ellipse((s * 0.5 - r, 0, s * 0.5 + r, 2 * r), fill=255)
        d.ellipse((s * 0.02, s * 0.34, s * 0.02 + 2 * r, s * 0.34 + 2 * r), fill=255)
        d.ellipse((s * 0.98 - 2 * r, s * 0.34, s * 0.98, s * 0.34 + 2 * r), fill=255)
        d.rectangle((s * 0.42, s * 0.3, s * 0.58, s * 0.7), fill=255)
        d.polygon([(s * 0.5, s * 0.45), (s * 0.74, s - 1), (s * 0.26, s - 1)], fill=255)
    else:  # pragma: no cover - face() only yields the four suits
        raise ValueError(suit)
    return img


def _star_mask(size: int) -> Image.Image:
    img = Image.new("L", (size, size), 0)
    c, outer, inner = size / 2, size / 2, size / 5
    points = [
        (
            c + (outer if i % 2 == 0 else inner) * math.sin(i * math.pi / 5),
            c * 1.06 - (outer if i % 2 == 0 else inner) * math.cos(i * math.pi / 5),
        )
        for i in range(10)
    ]
    ImageDraw.Draw(img).polygon(points, fill=255)
    return img


def _ink(f: Face) -> RGB:
    if f.kind == "trump" or f.kind == "excuse":
        return TRUMP_INK
    if f.kind == "joker":
        return JOKER_INK
    return RED if f.red else BLACK


def _stamp(img: Image.Image, mask: Image.Image, centre_x: float, top: float, colour: RGB) -> None:
    img.paste(colour, (round(centre_x - mask.width / 2), round(top)), mask)


def _body(size: tuple[int, int], f: Face, inset_x: int) -> Image.Image:
    """The card's blank: a rounded rectangle on a transparent canvas (all at SS×)."""
    w, h = size[0] * SS, size[1] * SS
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    box = (inset_x * SS, SS, w - inset_x * SS - 1, h - SS - 1)
    radius = 12 * SS
    if f.kind == "hole":
        d.rounded_rectangle(box, radius, outline=HOLE_EDGE, width=5 * SS)
        # Break the outline into dashes: a hole is "no card here", not a blank card.
        step = 18 * SS
        for y in range(box[1] + step // 2, box[3], step):
            d.rectangle((box[0] - 1, y, box[2] + 1, y + step // 3), fill=(0, 0, 0, 0))
        for x in range(box[0] + step // 2, box[2], step):
            d.rectangle((x, box[1] - 1, x + step // 3, box[3] + 1), fill=(0, 0, 0, 0))
        return img
    paper = {"trump": TRUMP_PAPER, "excuse": TRUMP_PAPER, "tarot": TAROT_PAPER}.get(f.kind, PAPER)
    if f.kind == "back":
        dark, light = BACK_COLOURS[f.code]
        d.rounded_rectangle(box, radius, fill=PAPER, outline=EDGE, width=2 * SS)
        inner = (box[0] + 7 * SS, box[1] + 7 * SS, box[2] - 7 * SS, box[3] - 7 * SS)
        d.rounded_rectangle(inner, 6 * SS, fill=dark)
        lattice = Image.new("L", (w, h), 0)
        ld = ImageDraw.Draw(lattice)
        step = 14 * SS
        for k in range(-h, w + h, step):
            ld.line((k, 0, k + h, h), fill=255, width=2 * SS)
            ld.line((k, h, k + h, 0), fill=255, width=2 * SS)
        clip = Image.new("L", (w, h), 0)
        ImageDraw.Draw(clip).rounded_rectangle(inner, 6 * SS, fill=255)
        img.paste(light, (0, 0), ImageChops.multiply(lattice, clip))
        return img
    d.rounded_rectangle(box, radius, fill=paper, outline=EDGE, width=2 * SS)
    return img


def _finish(img: Image.Image, size: tuple[int, int]) -> Image.Image:
    # A box average over SS×SS pixels: the anti-aliasing, 5× faster than a LANCZOS resize.
    out = img.reduce(SS)
    assert out.size == size
    return out


@functools.cache
def emoji_image(code: str) -> Image.Image:
    """The 128×128 emoji face of ``code`` (cached; do not mutate the returned image)."""
    f = face(code)
    w = EMOJI_SIZE[0]
    img = _body(EMOJI_SIZE, f, inset_x=8)
    if f.kind in ("back", "hole"):
        return _finish(img, EMOJI_SIZE)
    ink = _ink(f)
    cx = w * SS / 2
    if f.kind == "trump":
        mask = _text_mask(f.rank, 64 * SS, 96 * SS)
        _stamp(img, mask, cx, 22 * SS, ink)
        bar = Image.new("L", (80 * SS, 8 * SS), 255)
        _stamp(img, bar, cx, 8 * SS, ink)
        _stamp(img, bar, cx, 112 * SS, ink)
    elif f.kind in ("joker", "excuse"):
        _stamp(img, _star_mask(88 * SS), cx, 18 * SS, ink)
    else:
        mask = _text_mask(f.rank, 56 * SS, 100 * SS)
        _stamp(img, mask, cx, 7 * SS, ink)
        _stamp(img, _suit_mask(f.suit or "", 54 * SS), cx, 69 * SS, ink)
    return _finish(img, EMOJI_SIZE)


@functools.cache
def card_image(code: str) -> Image.Image:
    """The 120×168 picture face of ``code`` (cached; do not mutate the returned image)."""
    f = face(code)
    img = _body(CARD_SIZE, f, inset_x=1)
    if f.kind in ("back", "hole"):
        return _finish(img, CARD_SIZE)
    ink = _ink(f)
    strip = 23 * SS  # centre of the corner index: inside the part an overlap leaves visible
    if f.kind == "trump":
        index = _text_mask(f.rank, 30 * SS, 40 * SS)
        _stamp(img, index, strip, 10 * SS, ink)
        _stamp(img, _star_mask(18 * SS), strip, 46 * SS, ink)
        big = _text_mask(f.rank, 62 * SS, 56 * SS)
        _stamp(img, big, 80 * SS, 84 * SS, ink)
    elif f.kind in ("joker", "excuse"):
        _stamp(
            img,
            _text_mask("JK" if f.kind == "joker" else "EX", 24 * SS, 40 * SS),
            strip,
            10 * SS,
            ink,
        )
        _stamp(img, _star_mask(24 * SS), strip, 42 * SS, ink)
        _stamp(img, _star_mask(64 * SS), 80 * SS, 80 * SS, ink)
    else:
        suit = f.suit or ""
        _stamp(img, _text_mask(f.rank, 30 * SS, 40 * SS), strip, 10 * SS, ink)
        _stamp(img, _suit_mask(suit, 26 * SS), strip, 46 * SS, ink)
        if f.rank.isdigit():
            _stamp(img, _suit_mask(suit, 56 * SS), 80 * SS, 90 * SS, ink)
        else:
            _stamp(img, _text_mask(f.rank, 52 * SS, 56 * SS), 80 * SS, 78 * SS, ink)
            _stamp(img, _suit_mask(suit, 30 * SS), 80 * SS, 136 * SS, ink)
    return _finish(img, CARD_SIZE)


def encode_png(
    img: Image.Image, info: PngImagePlugin.PngInfo | None = None, *, level: int = 7
) -> bytes:
    """PNG bytes, reduced to a 256-colour palette (card art has few colours; small uploads).
    ``level``: zlib's (pictures use a lower one: cheaper to encode on every click). A "P"
    image is written as it is."""
    small = (
        img  # already a palette picture (composed in a deck's palette)
        if img.mode == "P"
        else img.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    )
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=False, compress_level=level, pnginfo=info)
    return out.getvalue()


@functools.cache
def emoji_png(code: str) -> bytes:
    """The PNG uploaded as the application emoji of ``code`` (same bytes on every run)."""
    return encode_png(emoji_image(code))


def prerender(codes: Iterable[str]) -> None:
    """Draws the picture faces of ``codes`` now (about 3 ms each), so that the first hand
    picture after start costs a layout, not 20 face drawings. Run it in a thread."""
    for code in codes:
        card_image(code)
