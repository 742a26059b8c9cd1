"""What every game's arena shares: seeding, seat rotation, worker processes, intervals.

A game's arena (``tamalou/games/<game>/arena.py``) writes only what is its own: how one
seeded match (or round, or deal) is played between AI levels and what it reports. This
module gives it the rest:

- **seeding and rotation**: item ``i`` of a run is seeded ``S:i`` (:func:`seed_of`) and
  seats the levels rotated by ``i`` (:func:`seated`), whatever the number of workers;
- **workers** (:func:`play_all`, ``--jobs N``): the items are spread over ``N`` worker
  processes and folded back in their order, so 1 or 2 jobs give the same results for
  players that do not read the clock (a time-budgeted search does);
- **intervals**: a 95 % Wilson interval on a win share (:func:`wilson`) and a 95 % normal
  interval on a mean (:func:`normal_interval`); decision times (:class:`Timings`);
- **the command line**: ``--seed``, ``--first`` and ``--jobs`` (:func:`add_run_arguments`).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

R = TypeVar("R")

Z95 = 1.96


def seed_of(seed: int | str, i: int) -> str:
    """The seed of item ``i`` of a run seeded ``seed`` (the same with any number of jobs)."""
    return f"{seed}:{i}"


def seated(levels: Sequence[str], i: int) -> list[str]:
    """The levels at the seats of item ``i``: ``levels`` rotated by ``i``."""
    n = len(levels)
    return [levels[(s + i) % n] for s in range(n)]


def split(firsts: Sequence[int], n: int) -> list[float]:
    """Each seat's share of one win shared by the seats ``firsts``."""
    return [1.0 / len(firsts) if i in firsts else 0.0 for i in range(n)]


def wilson(samples: Sequence[float]) -> tuple[float, float]:
    """A 95 % Wilson score interval on the mean of win shares in [0, 1] (near 0 or 1 the
    normal interval collapses to a point; a split win only narrows the true spread)."""
    n = len(samples)
    if n == 0:
        return (0.0, 1.0)
    p = sum(samples) / n
    z = Z95
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def normal_interval(samples: Sequence[float]) -> tuple[float, float] | None:
    """A 95 % normal interval on the mean of ``samples`` (None under two samples)."""
    n = len(samples)
    if n < 2:
        return None
    mean = sum(samples) / n
    var = sum((x - mean) ** 2 for x in samples) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return (mean - half, mean + half)


@dataclass(slots=True)
class Timings:
    """Decision times of one level, in seconds."""

    samples: list[float] = field(default_factory=list)

    def add(self, seconds: float) -> None:
        self.samples.append(seconds)

    def merge(self, other: Timings) -> None:
        self.samples.extend(other.samples)

    def __len__(self) -> int:
        return len(self.samples)

    def mean_ms(self) -> float:
        return 1000 * sum(self.samples) / max(1, len(self.samples))

    def max_ms(self) -> float:
        return 1000 * max(self.samples, default=0.0)

    def quantile_ms(self, q: float) -> float:
        """The ``q`` quantile (nearest rank below), e.g. 0.99 for p99."""
        if not self.samples:
            return 0.0
        ordered = sorted(self.samples)
        return 1000 * ordered[int(q * (len(ordered) - 1))]


def _one(job: tuple[Callable[[list[str], str], Any], Sequence[str], int | str, int]) -> Any:
    play, levels, seed, i = job
    return play(seated(levels, i), seed_of(seed, i))


def play_all(
    play: Callable[[list[str], str], R],
    levels: Sequence[str],
    count: int,
    seed: int | str,
    *,
    first: int = 0,
    jobs: int = 1,
) -> Iterator[tuple[int, list[str], R]]:
    """Items ``first`` .. ``first + count - 1``: ``(i, seated levels, play(seated, seed_of(i)))``
    in the order of ``i``. With ``jobs > 1`` they are played by that many worker processes
    (``play`` must then pickle: a module-level function or a ``functools.partial`` of one)."""
    indices = range(first, first + count)
    if jobs <= 1 or count <= 1:
        for i in indices:
            yield i, seated(levels, i), play(seated(levels, i), seed_of(seed, i))
        return
    context = multiprocessing.get_context("spawn")  # as the bot's AI pool: no forked state
    with ProcessPoolExecutor(max_workers=min(jobs, count), mp_context=context) as pool:
        work = [(play, list(levels), seed, i) for i in indices]
        for i, result in zip(indices, pool.map(_one, work), strict=True):
            yield i, seated(levels, i), result


def add_run_arguments(parser: argparse.ArgumentParser, *, seed: str, item: str) -> None:
    """``--seed``, ``--first`` and ``--jobs`` (``item``: "match", "round", "deal")."""
    parser.add_argument("--seed", default=seed)
    parser.add_argument(
        "--first", type=int, default=0, help=f"first {item} number (to split a run)"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help=f"worker processes; {item} i keeps the seed S:i whatever the number",
    )
