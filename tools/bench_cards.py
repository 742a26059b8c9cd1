"""How big and how fast are card pictures? (docs/cards.md reports the figures.)

    .venv/bin/python -m tools.bench_cards [--runs 15] [--save DIR]

For each scenario (a Tamalou row with slot numbers, a 22-card Kalooki hand, an 18-card
tarot hand, a five-player end-of-round reveal, a four-card tarot trick) it prints the PNG
bytes and the median render time over ``--runs`` renders:

* ``cold faces``: nothing cached, the card faces drawn too (the first picture after start);
* ``render``: faces cached (every later picture), the picture cache dropped before each run,
  so layout + PNG encoding are timed;
* ``cached``: the LRU hit (the same picture asked again).

Also: all 134 emoji faces drawn and encoded (start-up cost of an upload) and their bytes.
Bounded: a few seconds. ``--save DIR`` writes each picture for a look.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from bot.ui.cards import art, pictures
from bot.ui.cards.codes import ALL_CODES
from bot.ui.cards.pictures import PictureResult, render_hand, render_table, render_trick

KALOOKI_22 = [
    *("Ac", "2c", "3c", "7d", "7d", "8d", "9d", "10h", "Jh", "Qh", "Kh"),
    *("4s", "4s", "5s", "6s", "Qc", "Qd", "JK", "JK", "9c", "10c", "Jc"),
]
TAROT_18 = [
    *("T1", "T4", "T9", "T13", "T17", "T21", "EX"),
    *("t3h", "t8h", "tCh", "tRh", "t2d", "tVd", "t5c", "tDc", "t7s", "t10s", "tRs"),
]
SCENARIOS: dict[str, Callable[[], PictureResult]] = {
    "tamalou row (4, slots)": lambda: render_hand(
        ["7c", "BK", "BK", "Qh"], captions=["1", "2", "3", "4"], overlap=False
    ),
    "kalooki hand (22)": lambda: render_hand(KALOOKI_22),
    "tarot hand (18)": lambda: render_hand(TAROT_18),
    "reveal (5 rows of 4)": lambda: render_table(
        [
            (name, row)
            for name, row in zip(
                ["alice", "bob", "carol", "dave", "erin"],
                [
                    ["7c", "Kd", "HO", "2s"],
                    ["JK", "10h", "3d", "3c"],
                    ["Ac", "Ad", "Ah", "As"],
                    ["9s", "8s", "BK", "Qc"],
                    ["5h", "6h", "7h", "8h"],
                ],
                strict=True,
            )
        ]
    ),
    "tarot trick (4)": lambda: render_trick(
        [("alice", "t7h"), ("bob", "T5"), ("carol", "tRh"), ("dave", "EX")], winner=1
    ),
}


def _median_ms(fn: Callable[[], object], runs: int, before: Callable[[], None]) -> float:
    times = []
    for _ in range(runs):
        before()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _drop_faces() -> None:
    art.card_image.cache_clear()
    art.emoji_image.cache_clear()
    art.emoji_png.cache_clear()
    pictures.clear_faces()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--save", type=Path, default=None)
    args = parser.parse_args()
    print(f"{'picture':26} {'size':>9} {'bytes':>7} {'cold faces':>11} {'render':>8} {'cached':>8}")
    for name, fn in SCENARIOS.items():
        cold = _median_ms(fn, max(3, args.runs // 5), _drop_faces)
        warm = _median_ms(fn, args.runs, pictures.clear_cache)
        hit = _median_ms(fn, args.runs, lambda: None)
        result = fn()
        size = f"{result.width}×{result.height}"
        print(
            f"{name:26} {size:>9} {len(result.png):>7} {cold:>9.1f}ms {warm:>6.1f}ms "
            f"{hit * 1000:>6.1f}µs"
        )
        if args.save is not None:
            args.save.mkdir(parents=True, exist_ok=True)
            slug = name.split(" (")[0].replace(" ", "_")
            (args.save / f"{slug}.png").write_bytes(result.png)
    _drop_faces()
    start = time.perf_counter()
    sizes = [len(art.emoji_png(c)) for c in ALL_CODES]
    took = time.perf_counter() - start
    print(
        f"emoji faces: {len(sizes)} drawn and encoded in {took * 1000:.0f} ms; "
        f"bytes median {statistics.median(sizes):.0f}, max {max(sizes)}"
    )


if __name__ == "__main__":
    main()
