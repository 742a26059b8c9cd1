"""Card art: every face drawn, one distinct image each, legible colours, same bytes each run."""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys

import pytest
from PIL import Image

from bot.ui.cards import art
from bot.ui.cards.codes import (
    ALL_CODES,
    FRENCH_CODES,
    SPECIAL_CODES,
    TAROT_CODES,
    face,
    text,
)
from bot.ui.cards.emojis import code_from_emoji_name, codes_in_markup, emoji_name
from tamalou.core.cards import DECK_SIZE, code

RED_SUITED = ["Ah", "7d", "10h", "Qd", "t1h", "tCd", "tRh", "t10d"]
BLACK_SUITED = ["As", "7c", "10s", "Kc", "t1s", "tCc", "tRs", "t10c"]


def test_french_codes_are_the_engine_codes_of_a_full_deck_with_a_joker() -> None:
    engine = {code(c) for c in range(DECK_SIZE)}
    assert set(FRENCH_CODES) == engine
    assert len(FRENCH_CODES) == 53  # 52 faces and one joker face (both jokers look alike)


def test_tarot_has_78_faces_21_trumps_the_excuse_and_14_per_suit_with_the_cavalier() -> None:
    assert len(TAROT_CODES) == 78
    kinds = [face(c).kind for c in TAROT_CODES]
    assert kinds.count("trump") == 21 and kinds.count("excuse") == 1
    assert kinds.count("tarot") == 56
    hearts = [c for c in TAROT_CODES if c.startswith("t") and c.endswith("h")]
    assert hearts[-4:] == ["tVh", "tCh", "tDh", "tRh"]  # valet, cavalier, dame, roi


def test_codes_are_unique_even_ignoring_case_so_emoji_names_never_clash() -> None:
    assert len(set(ALL_CODES)) == len(ALL_CODES)
    names = [emoji_name(c) for c in ALL_CODES]
    assert len({n.lower() for n in names}) == len(names)
    for n in names:
        assert 2 <= len(n) <= 32 and n.replace("_", "").isalnum() and n.isascii()
    assert [code_from_emoji_name(n) for n in names] == list(ALL_CODES)
    assert code_from_emoji_name("party_parrot") is None


def test_unknown_code_is_refused() -> None:
    with pytest.raises(ValueError):
        face("11h")
    with pytest.raises(ValueError):
        face("t7x")


def test_text_fallback_reads_like_a_card() -> None:
    assert [text(c) for c in ("7c", "10h", "Ks", "JK")] == ["7♣", "10♥", "K♠", "🃏"]
    assert [text(c) for c in ("T21", "EX", "tCh", "t1s")] == ["T21", "🃏", "C♥", "1♠"]


def test_every_face_has_an_emoji_of_128_px_and_a_picture_card_of_120_by_168() -> None:
    for c in ALL_CODES:
        assert art.emoji_image(c).size == (128, 128)
        assert art.emoji_image(c).mode == "RGBA"
        assert art.card_image(c).size == (120, 168)


def test_every_face_looks_different_from_every_other_face() -> None:
    emojis = {hashlib.sha256(art.emoji_image(c).tobytes()).digest() for c in ALL_CODES}
    cards = {hashlib.sha256(art.card_image(c).tobytes()).digest() for c in ALL_CODES}
    assert len(emojis) == len(ALL_CODES)
    assert len(cards) == len(ALL_CODES)


def test_emoji_png_is_a_small_png_within_discords_256_kib() -> None:
    for c in ("10h", "T21", "BK", "HO"):
        data = art.emoji_png(c)
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        assert len(data) < 16 * 1024
        with Image.open(io.BytesIO(data)) as img:
            assert img.size == (128, 128)


def _ink(img: Image.Image) -> tuple[int, int]:
    """(clearly red pixels, dark pixels) among the opaque pixels of an image."""
    red = dark = 0
    data = img.convert("RGBA").tobytes()
    for i in range(0, len(data), 4):
        r, g, b, a = data[i : i + 4]
        if a < 200:
            continue
        if r > 170 and g < 90 and b < 90:
            red += 1
        elif max(r, g, b) < 60:
            dark += 1
    return red, dark


@pytest.mark.parametrize("c", RED_SUITED)
def test_red_suits_are_drawn_red_with_no_black_ink(c: str) -> None:
    for img in (art.emoji_image(c), art.card_image(c)):
        red, dark = _ink(img)
        assert red > 1000 and dark == 0, (c, red, dark)


@pytest.mark.parametrize("c", BLACK_SUITED)
def test_black_suits_are_drawn_dark_with_no_red_ink(c: str) -> None:
    for img in (art.emoji_image(c), art.card_image(c)):
        red, dark = _ink(img)
        assert dark > 1000 and red == 0, (c, red, dark)


def test_the_rank_fills_the_top_and_the_suit_the_bottom_of_an_emoji() -> None:
    # At ~22 px on screen only big shapes survive: ink in both halves, little margin.
    img = art.emoji_image("7h")
    top = img.crop((0, 0, 128, 64))
    bottom = img.crop((0, 64, 128, 128))
    assert _ink(top)[0] > 800 and _ink(bottom)[0] > 800
    bbox = Image.eval(img.convert("L"), lambda v: 255 if v < 200 else 0).getbbox()
    assert bbox is not None and bbox[3] - bbox[1] > 100  # ink spans > 100 of 128 px


# Machado et al. (2009) colour-vision-deficiency matrices, severity 1, on linear RGB.
PROTANOPIA = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)
DEUTERANOPIA = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)


def _luminance(rgb: tuple[int, int, int], matrix: tuple[tuple[float, ...], ...] | None) -> float:
    lin = [(v / 255) / 12.92 if v <= 10 else (((v / 255) + 0.055) / 1.055) ** 2.4 for v in rgb]
    if matrix is not None:
        lin = [
            min(1.0, max(0.0, sum(m * x for m, x in zip(row, lin, strict=True)))) for row in matrix
        ]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(
    a: tuple[int, int, int], b: tuple[int, int, int], matrix: tuple[tuple[float, ...], ...] | None
) -> float:
    la, lb = _luminance(a, matrix), _luminance(b, matrix)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


@pytest.mark.parametrize(
    "vision", [None, PROTANOPIA, DEUTERANOPIA], ids=["typical", "protan", "deutan"]
)
def test_red_and_black_differ_in_lightness_for_colour_blind_players_too(
    vision: tuple[tuple[float, ...], ...] | None,
) -> None:
    # Shapes carry the suit; lightness keeps red and black apart without hue (WCAG 3:1).
    assert _contrast(art.RED, art.BLACK, vision) >= 3.0
    for paper in (art.PAPER, art.TAROT_PAPER):
        assert _contrast(art.RED, paper, vision) >= 3.0
        assert _contrast(art.BLACK, paper, vision) >= 7.0


def test_art_is_the_same_bytes_in_a_fresh_process() -> None:
    here = hashlib.sha256(
        b"".join(art.emoji_png(c) for c in ("7c", "10h", "T21", "tCh", "BK"))
    ).hexdigest()
    script = (
        "import hashlib; from bot.ui.cards import art; "
        "print(hashlib.sha256(b''.join(art.emoji_png(c) for c in ('7c','10h','T21','tCh','BK'))).hexdigest())"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == here


def test_specials_are_backs_and_a_hole() -> None:
    assert [face(c).kind for c in SPECIAL_CODES] == ["back", "back", "hole"]
    hole = art.emoji_image("HO")
    # A hole is an outline: its middle is transparent.
    assert hole.getpixel((64, 64))[3] == 0  # type: ignore[index]


def test_a_leak_scan_reads_the_faces_out_of_emoji_markup() -> None:
    content = "Your cards: <:c1_7c:11><:c1_tCh:12> and <:party_parrot:13> <a:c1_T21:14> 7♣"
    assert codes_in_markup(content) == ["7c", "tCh", "T21"]
