"""The stats card's chart: the display rating after each match, as a small PNG.

Drawn with Pillow (already what draws the cards): matplotlib and numpy were 150 MB of the
install for this one chart (docs/operating.md, "Dependencies"). Drawn at twice the size and
scaled down, for smooth lines. The words are in DejaVu Sans (matplotlib's font, cut to the
Latin, Greek and Cyrillic scripts: ``fonts/``), as Pillow's own font has no accents; a
character it lacks (an emoji in a name) is left out rather than drawn as a box.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Sequence
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

from bot.seasons.rating import DISPLAY_BASE

WIDTH, HEIGHT = 600, 260  # pixels, as sent
SCALE = 2  # drawn at this multiple, then scaled down (anti-aliasing)
LINE = (88, 101, 242)  # Discord's blurple
BASE_LINE = (153, 153, 153)  # where everyone starts
GRID = (230, 230, 230)
AXIS = (40, 40, 40)
TEXT = (20, 20, 20)
#: the plot area inside the picture: left, top, right, bottom margins (pixels, as sent)
MARGINS = (62, 32, 14, 42)


FONT = "DejaVuSans-subset.ttf"


@functools.lru_cache(maxsize=4)
def _font(size: int) -> ImageFont.FreeTypeFont:
    data = (resources.files("bot.seasons") / "fonts" / FONT).read_bytes()
    # BASIC layout: the same glyph positions whether or not libraqm is installed
    return ImageFont.truetype(io.BytesIO(data), size * SCALE, layout_engine=ImageFont.Layout.BASIC)


@functools.lru_cache(maxsize=4096)
def _drawable(char: str) -> bool:
    """Whether the font has ``char`` (not its "missing" box, as a private-use one gets)."""
    font = _font(10)
    return char.isspace() or bytes(font.getmask(char)) != bytes(font.getmask("\ue000"))


def shown(text: str) -> str:
    """``text`` without the characters the font lacks."""
    return " ".join("".join(c for c in text if _drawable(c)).split())


def nice_ticks(low: float, high: float, most: int = 6) -> list[float]:
    """Round tick values covering [low, high]: steps of 1, 2, 2.5 or 5 times a power of ten,
    at most ``most`` of them."""
    if high <= low:
        low, high = low - 1, high + 1
    raw = (high - low) / max(1, most - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.ceil(low / step - 1e-9) * step
    ticks = []
    value = first
    while value <= high + 1e-9 * step:
        ticks.append(round(value, 10))
        value += step
    return ticks


def _label(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e6 else f"{value:.3g}"


def rating_chart(ratings: Sequence[float], title: str, x_label: str, y_label: str) -> bytes:
    """A small PNG of the rating after each match (blocking: call it in a thread)."""
    s = SCALE
    img = Image.new("RGB", (WIDTH * s, HEIGHT * s), "white")
    draw = ImageDraw.Draw(img)
    left, top = MARGINS[0] * s, MARGINS[1] * s
    right, bottom = (WIDTH - MARGINS[2]) * s, (HEIGHT - MARGINS[3]) * s
    values = [float(r) for r in ratings] or [float(DISPLAY_BASE)]
    count = len(values)
    # the y range: every point and the starting line, with a margin
    low, high = min(*values, DISPLAY_BASE), max(*values, DISPLAY_BASE)
    pad = (high - low) * 0.06 or 10.0
    low, high = low - pad, high + pad
    x_low, x_high = (0.5, count + 0.5) if count < 3 else (1 - 0.03 * count, count + 0.03 * count)

    def at(x: float, y: float) -> tuple[float, float]:
        return (
            left + (x - x_low) / (x_high - x_low) * (right - left),
            bottom - (y - low) / (high - low) * (bottom - top),
        )

    small, big = _font(9), _font(12)
    # grid and ticks
    y_ticks = [v for v in nice_ticks(low, high) if low <= v <= high]
    if count <= 12:
        x_ticks = [float(x) for x in range(1, count + 1)]
    else:
        x_ticks = [v for v in nice_ticks(1, count, 8) if 1 <= v <= count and v == int(v)]
    for y in y_ticks:
        _, py = at(x_low, y)
        draw.line([(left, py), (right, py)], fill=GRID, width=s)
        draw.line([(left - 4 * s, py), (left, py)], fill=AXIS, width=s)
        draw.text((left - 7 * s, py), _label(y), font=small, fill=TEXT, anchor="rm")
    for x in x_ticks:
        px, _ = at(x, low)
        draw.line([(px, top), (px, bottom)], fill=GRID, width=s)
        draw.line([(px, bottom), (px, bottom + 4 * s)], fill=AXIS, width=s)
        draw.text((px, bottom + 7 * s), _label(x), font=small, fill=TEXT, anchor="mt")
    # where everyone starts, then the ratings
    _, base_y = at(x_low, DISPLAY_BASE)
    draw.line([(left, base_y), (right, base_y)], fill=BASE_LINE, width=s)
    points = [at(i + 1, v) for i, v in enumerate(values)]
    if len(points) > 1:
        draw.line(points, fill=LINE, width=2 * s, joint="curve")
    dot = 3 * s
    for px, py in points:
        draw.ellipse([(px - dot, py - dot), (px + dot, py + dot)], fill=LINE)
    draw.rectangle([(left, top), (right, bottom)], outline=AXIS, width=s)
    # the words
    title, x_label, y_label = shown(title), shown(x_label), shown(y_label)
    draw.text(((left + right) / 2, top - 8 * s), title, font=big, fill=TEXT, anchor="md")
    word = _font(10)
    draw.text(((left + right) / 2, HEIGHT * s - 6 * s), x_label, font=word, fill=TEXT, anchor="md")
    box = word.getbbox(y_label, anchor="lt")
    side = Image.new("L", (int(box[2]) + 2 * s, int(box[3]) + 2 * s), 0)
    ImageDraw.Draw(side).text((s, s), y_label, font=word, fill=255, anchor="lt")
    side = side.rotate(90, expand=True)
    img.paste(
        Image.new("RGB", side.size, TEXT),
        (6 * s, int((top + bottom - side.height) / 2)),
        side,
    )
    out = img.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    out.save(buf, format="PNG", optimize=True)
    return buf.getvalue()
