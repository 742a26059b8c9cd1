"""The stats card's rating chart, drawn with Pillow (issue 24: no matplotlib)."""

from __future__ import annotations

import io

from PIL import Image

from bot.seasons.chart import HEIGHT, LINE, WIDTH, nice_ticks, rating_chart, shown


def picture(ratings: list[float]) -> Image.Image:
    png = rating_chart(ratings, "Zoé : cote après chaque partie", "partie", "cote")
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(png)).convert("RGB")


def line_rows(img: Image.Image, x: int) -> list[int]:
    """The rows of column ``x`` painted in the line's colour."""
    near = [
        y
        for y in range(img.height)
        if sum(abs(a - b) for a, b in zip(img.getpixel((x, y)), LINE, strict=True)) < 40
    ]
    assert near, f"no line at x={x}"
    return near


def test_the_chart_rises_and_falls_with_the_rating() -> None:
    img = picture([1000, 1200, 1100])
    assert img.size == (WIDTH, HEIGHT)
    first, peak, last = (min(line_rows(img, x)) for x in (62 + 35, WIDTH // 2 + 3, 600 - 14 - 35))
    assert peak < last < first  # rows count downwards: 1200 above 1100 above 1000


def test_one_match_is_one_dot_and_many_matches_fit() -> None:
    assert line_rows(picture([1040]), (62 + 600 - 14) // 2)
    many = picture([1000 + (i % 7) * 20 for i in range(300)])
    assert many.size == (WIDTH, HEIGHT)


def test_words_keep_their_accents_and_drop_what_the_font_lacks() -> None:
    assert shown("🎲 Zoé  Жук") == "Zoé Жук"
    assert shown("cote après chaque partie") == "cote après chaque partie"


def test_ticks_are_round_numbers() -> None:
    assert nice_ticks(980, 1230) == [1000, 1050, 1100, 1150, 1200]
    assert nice_ticks(1, 40, 8) == [10, 20, 30, 40]
    assert 1000 in nice_ticks(1000, 1000)  # a flat range still has its value
