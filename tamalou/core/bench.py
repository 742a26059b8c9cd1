"""What every game's bench shares: the timed loop and the report's rate lines.

A game's bench (``tamalou/games/<game>/bench.py``) writes its random driver (how one round
or deal is played and how many actions it applied) and its options; :func:`timed` plays
``count`` of them against the clock and :func:`report` prints the lines every bench ends
with (``<unit>s/s`` and ``actions/s`` last).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence


def timed(count: int, play_one: Callable[[int], int]) -> tuple[int, float]:
    """Play items ``0 .. count - 1`` (``play_one(i)`` returns the actions it applied):
    (actions applied, seconds)."""
    total = 0
    start = time.perf_counter()
    for i in range(count):
        total += play_one(i)
    return total, time.perf_counter() - start


def report(
    unit: str,
    count: int,
    players: int,
    total: int,
    elapsed: float,
    *,
    before: Sequence[str] = (),
    after: Sequence[str] = (),
) -> str:
    """The bench's lines: the run, ``before``, the mean actions, ``after``, then the rates."""
    return "\n".join(
        [
            f"{unit}s: {count}  players: {players}  seconds: {elapsed:.2f}",
            *before,
            f"mean actions/{unit}: {total / count:.1f}",
            *after,
            f"{unit}s/s: {count / elapsed:.0f}",
            f"actions/s: {total / elapsed:.0f}",
        ]
    )
