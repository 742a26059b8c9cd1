"""Pictures of hands, tables and tricks: they show exactly the cards they say they show."""

from __future__ import annotations

import io
import threading

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.ui.cards import art, pictures
from bot.ui.cards.codes import TAROT_CODES
from bot.ui.cards.pictures import (
    read_description,
    render_hand,
    render_hand_async,
    render_table,
    render_trick,
)

# Kalooki plays two decks: the same face may come twice.
KALOOKI_22 = [
    *("Ac", "2c", "3c", "7d", "7d", "8d", "9d", "10h", "Jh", "Qh", "Kh"),
    *("4s", "4s", "5s", "6s", "Qc", "Qd", "JK", "JK", "9c", "10c", "Jc"),
]
TAROT_18 = [*TAROT_CODES[::5], "EX", "T21"][:18]


def _decode(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as img:
        return img.convert("RGBA")


def test_a_hand_describes_its_cards_in_order_and_the_png_carries_the_same_description() -> None:
    hand = render_hand(["7c", "10h", "BK", "JK"])
    assert hand.description["kind"] == "hand"
    assert hand.description["rows"] == [{"label": "", "cards": ["7c", "10h", "BK", "JK"]}]
    assert hand.description["faces"] == ["10h", "7c", "JK"]  # the back reveals nothing
    assert read_description(hand.png) == hand.description
    assert hand.alt_text == "7♣ 10♥ 🂠 🃏"


def test_backs_and_holes_reveal_no_face() -> None:
    hidden = render_hand(["BK", "HO", "BT"])
    assert hidden.faces == frozenset()
    assert read_description(hidden.png)["faces"] == []  # type: ignore[index]


def test_a_png_that_is_not_ours_has_no_description() -> None:
    out = io.BytesIO()
    Image.new("RGB", (4, 4)).save(out, format="PNG")
    assert read_description(out.getvalue()) is None
    assert read_description(b"not a png") is None


def test_each_card_of_an_overlapped_hand_shows_its_own_corner_index() -> None:
    # The pixels agree with the description: each card's visible strip is that card's strip.
    codes = ["Qh", "7c", "T21"]
    img = _decode(render_hand(codes).png)
    m, step = pictures.MARGIN, pictures.OVERLAP_STEP
    inside = (6, 6, step - 2, art.CARD_SIZE[1] - 6)  # away from the rounded corners
    for i, c in enumerate(codes):
        x0, y0 = m + i * step, m
        shown = img.crop((x0 + inside[0], y0 + inside[1], x0 + inside[2], y0 + inside[3]))
        for other in codes:
            expected = art.card_image(other).crop(inside)
            diff = max(ImageStat.Stat(ImageChops.difference(shown, expected)).mean[:3])
            assert (diff < 4) == (other == c), (c, other, diff)


def test_a_22_card_kalooki_hand_wraps_into_two_balanced_rows_under_60_kb() -> None:
    assert len(KALOOKI_22) == 22
    hand = render_hand(KALOOKI_22)
    one_row = 10 * pictures.OVERLAP_STEP + art.CARD_SIZE[0] + 2 * pictures.MARGIN
    assert hand.width == one_row  # 11 + 11
    assert hand.height > 2 * art.CARD_SIZE[1]
    assert len(hand.png) < 60_000
    assert hand.description["faces"] == sorted(set(KALOOKI_22))


def test_an_18_card_tarot_hand_is_two_rows_of_nine_under_60_kb() -> None:
    assert len(TAROT_18) == 18
    hand = render_hand(TAROT_18)
    assert hand.width == 8 * pictures.OVERLAP_STEP + art.CARD_SIZE[0] + 2 * pictures.MARGIN
    assert len(hand.png) < 60_000


def test_pictures_are_cached_by_content_and_options() -> None:
    a = render_hand(["7c", "Qh"])
    assert render_hand(("7c", "Qh")) is a
    assert render_hand(["7c", "Qh"], overlap=False) is not a
    assert render_hand(["Qh", "7c"]) is not a


def test_the_same_picture_is_the_same_bytes_after_the_cache_is_dropped() -> None:
    first = render_table([("alice", ["7c", "HO"]), ("bob", ["Kd"])]).png
    pictures.clear_cache()
    assert render_table([("alice", ["7c", "HO"]), ("bob", ["Kd"])]).png == first


def test_captions_and_highlights_are_options_of_the_hand() -> None:
    slots = render_hand(["7c", "BK", "BK", "Qh"], captions=["1", "2", "3", "4"], overlap=False)
    plain = render_hand(["7c", "BK", "BK", "Qh"], overlap=False)
    assert slots.height > plain.height
    raised = render_hand(["7c", "Qh"], highlight=[1])
    assert raised.png != render_hand(["7c", "Qh"]).png
    with pytest.raises(ValueError):
        render_hand(["7c"], captions=["1", "2"])


def test_unknown_codes_are_refused_before_drawing() -> None:
    with pytest.raises(ValueError):
        render_hand(["7c", "1c"])
    with pytest.raises(ValueError):
        render_trick([("alice", "Zz")])


def test_a_table_has_one_labelled_row_per_player() -> None:
    table = render_table([("alice", ["7c", "Kd", "HO"]), ("Chloé", ["JK"])])
    assert [r["label"] for r in table.description["rows"]] == ["alice", "Chloé"]
    assert table.description["kind"] == "table"
    assert table.alt_text == "alice: 7♣ K♦ ▢ | Chloé: 🃏"


def test_a_trick_lists_each_play_and_frames_the_winner() -> None:
    plays = [("alice", "t7h"), ("bob", "T5"), ("carol", "tRh"), ("dave", "EX")]
    trick = render_trick(plays, winner=1)
    assert trick.description["rows"] == [{"label": p, "cards": [c]} for p, c in plays]
    assert trick.png != render_trick(plays).png
    with pytest.raises(ValueError):
        render_trick(plays, winner=4)


async def test_async_rendering_runs_in_a_worker_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[threading.Thread] = []
    encode = art.encode_png

    def spy(img: Image.Image, info: object = None, **options: int) -> bytes:
        threads.append(threading.current_thread())
        return encode(img, info, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(art, "encode_png", spy)
    result = await render_hand_async(["2s", "3s", "4s", "5s"], per_row=3)
    assert threads and threads[0] is not threading.main_thread()
    assert result.description["faces"] == ["2s", "3s", "4s", "5s"]


def test_a_picture_becomes_a_discord_file_with_its_alt_text() -> None:
    hand = render_hand(["Ah", "As"])
    f = hand.file("hand.png")
    assert f.filename == "hand.png"
    assert f.description == "A♥ A♠"
    assert f.fp.read() == hand.png


def test_prerendered_faces_are_the_ones_pictures_use() -> None:
    art.card_image.cache_clear()
    pictures.clear_cache()
    art.prerender(["Kc", "T7"])
    before = art.card_image.cache_info()
    render_hand(["Kc", "T7"], per_row=1)
    after = art.card_image.cache_info()
    assert before.currsize == 2 and after.misses == before.misses and after.hits >= 2


@pytest.mark.parametrize("background", [(0, 0, 0, 0), (200, 30, 30, 255), (20, 90, 200, 128)])
def test_placing_a_face_is_pixel_for_pixel_compositing_it(
    background: tuple[int, int, int, int],
) -> None:
    # Issue 16: a face's opaque core is copied and only its edges blended; the pixels are
    # exactly those of alpha_composite over any background, for every face (holes too).
    from bot.ui.cards.codes import ALL_CODES

    for code in ALL_CODES:
        expected = Image.new("RGBA", (140, 190), background)
        placed = expected.copy()
        expected.alpha_composite(art.card_image(code), (7, 9))
        pictures._place(placed, code, 7, 9)
        assert ImageChops.difference(expected, placed).getbbox() is None, code


def test_a_face_with_no_opaque_core_is_composited_whole() -> None:
    _, core, edges = pictures._parts("HO")  # a hole is an outline: nothing to copy
    assert core is None and edges == ((0, 0, *art.CARD_SIZE),)
    img, core, _ = pictures._parts("7c")
    assert core is not None and img.crop(core).getchannel("A").getextrema() == (255, 255)


def _composited(codes: list[str], **options: object) -> Image.Image:
    rows = [("", tuple(codes))]
    return pictures._draw_rows(
        rows,
        per_row=pictures.DEFAULT_PER_ROW,
        overlap=True,
        highlight=frozenset((0, i) for i in options.get("highlight", ())),  # type: ignore[attr-defined]
        captions=None,
        palette=False,
    )


@pytest.mark.parametrize("codes", [KALOOKI_22, TAROT_18, ["BK", "HO", "7c"], ["BT", "T1"]])
def test_a_hand_of_one_deck_is_composed_in_its_palette_and_looks_the_same(
    codes: list[str],
) -> None:
    # Issue 16: a hand of one deck is composed straight into the deck's palette (no
    # reduction per picture); only the anti-aliasing of overlapped corners may differ.
    pictures.clear_cache()
    hand = render_hand(codes)
    with Image.open(io.BytesIO(hand.png)) as img:
        assert img.mode == "P"
    assert read_description(hand.png) == hand.description
    shown, exact = _decode(hand.png), _composited(codes)
    diff = ImageChops.difference(shown, exact)
    assert max(ImageStat.Stat(diff).mean) < 2.5  # of 255 (a back's lattice: 1.8)
    r, g, b, a = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), ImageChops.lighter(b, a))
    far = worst.point([0] * 25 + [1] * 231).histogram()[1]  # pixels off by more than 24
    # overlapped corners, and the lattice of a back (fewer greens in the tarot palette)
    assert far < 0.05 * shown.width * shown.height


def test_raised_cards_are_raised_in_a_palette_picture_too() -> None:
    codes = ["7c", "8c", "9c", "10c"]
    flat = _decode(render_hand(codes).png)
    raised = _decode(render_hand(codes, highlight=[1]).png)
    assert raised.height == flat.height + pictures.LIFT
    diff = ImageChops.difference(raised, _composited(codes, highlight=[1]))
    assert max(ImageStat.Stat(diff).mean) < 1.5


def test_a_hand_mixing_decks_is_composited_then_reduced() -> None:
    mixed = render_hand(["7c", "T1"])  # no palette holds both: the RGBA path
    with Image.open(io.BytesIO(mixed.png)) as img:
        assert img.mode == "P"  # reduced when encoded
    assert mixed.description["faces"] == ["7c", "T1"]
    assert read_description(mixed.png) == mixed.description
    assert pictures._deck_of([("", ("7c", "T1"))]) is None
    assert pictures._deck_of([("", ("7c", "BK", "HO"))]) == "french"
    assert pictures._deck_of([("", ("T1", "BT", "HO"))]) == "tarot"


def _close(shown: Image.Image, exact: Image.Image) -> None:
    assert shown.size == exact.size
    diff = ImageChops.difference(shown, exact)
    assert max(ImageStat.Stat(diff).mean) < 1.0


def test_labels_captions_and_the_winners_frame_are_drawn_in_the_palette_too() -> None:
    # Issue 16: tricks, labelled tables and captioned rows take the palette path as well;
    # a pill's text has PILL_LEVELS + 1 shades, so it stays close to the composited one.
    pictures.clear_cache()
    plays = [("alice", "t7h"), ("bob", "T5"), ("Chloé", "tRh"), ("dave", "EX")]
    trick = render_trick(plays, winner=1)
    assert read_description(trick.png) == trick.description
    _close(_decode(trick.png), _decode(pictures._trick(tuple(plays), 1, False).png))
    rows = (("alice", ("7c", "Kd", "HO")), ("bob", ("JK", "BK")))
    table = render_table(rows)
    _close(_decode(table.png), _decode(pictures._table(rows, 11, False, False).png))
    row = render_hand(["7c", "BK"], captions=["1", "2"], overlap=False)
    exact = pictures._draw_rows(
        [("", ("7c", "BK"))],
        per_row=11,
        overlap=False,
        highlight=frozenset(),
        captions=("1", "2"),
        palette=False,
    )
    _close(_decode(row.png), exact)
    for picture in (trick, table, row):
        with Image.open(io.BytesIO(picture.png)) as img:
            assert img.mode == "P"


def test_a_label_is_drawn_once_then_reused() -> None:
    pictures.clear_faces()
    render_trick([("alice", "T1"), ("bob", "T2")])
    drawn = pictures._palette_pill.cache_info().misses
    render_trick([("bob", "T3"), ("alice", "T4")])  # the same names, other cards
    assert pictures._palette_pill.cache_info().misses == drawn


def test_prerender_builds_the_palette_of_each_deck_it_draws() -> None:
    pictures.clear_faces()
    pictures.prerender(["Kc", "HO"])  # a French face: the French palette; a hole is in both
    assert pictures._build_deck.cache_info().currsize == 1
    before = pictures._build_deck.cache_info().misses
    render_hand(["Kc", "Qd"])
    assert pictures._build_deck.cache_info().misses == before


def test_pictures_asked_at_once_from_several_threads_build_the_palette_once() -> None:
    # The first pictures after a start come from several worker threads at once: a palette
    # each would leave the process tens of MB bigger (issue 16's memory goal).
    pictures.clear_faces()
    threads = [threading.Thread(target=render_hand, args=([f"{r}h", "7c"],)) for r in "23456"]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert pictures._build_deck.cache_info().misses == 1
