"""The shared arena (tamalou/core/arena.py): item i of a run keeps its seed and its seats
whatever the number of worker processes, so ``--jobs 1`` and ``--jobs 2`` agree; the
intervals are the textbook ones."""

from __future__ import annotations

import math

import pytest

from tamalou.core import arena as core
from tamalou.games.kalooki import arena as kalooki_arena
from tamalou.games.kalooki.rules import PRESETS as KALOOKI
from tamalou.games.tamalou import arena as tamalou_arena
from tamalou.games.tamalou.rules import PRESETS as TAMALOU
from tamalou.games.tarot import arena as tarot_arena
from tamalou.games.tarot.rules import PRESETS as TAROT


def _echo(levels: list[str], seed: str) -> tuple[list[str], str]:
    return levels, seed


def test_item_i_keeps_its_seed_and_rotation_whatever_the_jobs() -> None:
    one = list(core.play_all(_echo, ["a", "b", "c"], 5, "s", first=2, jobs=1))
    two = list(core.play_all(_echo, ["a", "b", "c"], 5, "s", first=2, jobs=2))
    assert one == two
    assert [i for i, _, _ in one] == [2, 3, 4, 5, 6]
    assert one[0] == (2, ["c", "a", "b"], (["c", "a", "b"], "s:2"))
    assert one[1][2] == (["a", "b", "c"], "s:3")


def test_one_and_two_jobs_give_the_same_tamalou_matches_and_rounds() -> None:
    rules = TAMALOU["dutch_sec"]
    one = tamalou_arena.run_matches(["medium", "easy"], 4, "jobs", rules, jobs=1)
    two = tamalou_arena.run_matches(["medium", "easy"], 4, "jobs", rules, jobs=2)
    assert one.round_counts == two.round_counts and one.head_to_head == two.head_to_head
    for lv in ("medium", "easy"):
        a, b = one.stats[lv], two.stats[lv]
        assert (a.win_samples, a.score, a.calls, a.doubles_tried, a.rounds) == (
            b.win_samples,
            b.score,
            b.calls,
            b.doubles_tried,
            b.rounds,
        )
        assert len(a.times) == len(b.times) > 0
    r1 = tamalou_arena.run(["hard", "medium"], 3, "jobs", budget_ms=None, max_iterations=20)
    r2 = tamalou_arena.run(["hard", "medium"], 3, "jobs", budget_ms=None, max_iterations=20, jobs=2)
    assert r1.stats["hard"].win_samples == r2.stats["hard"].win_samples
    assert r1.stats["hard"].score == r2.stats["hard"].score


def test_one_and_two_jobs_give_the_same_kalooki_and_tarot_runs() -> None:
    k1 = kalooki_arena.run(["medium", "random"], KALOOKI["baby"], 3, "jobs", jobs=1)
    k2 = kalooki_arena.run(["medium", "random"], KALOOKI["baby"], 3, "jobs", jobs=2)
    assert k1[0] == k2[0] and k1[1] == k2[1] and k1[3] == k2[3]
    d1: list[float] = []
    d2: list[float] = []
    t1 = tarot_arena.run(["hard", "medium", "medium"], 4, "jobs", TAROT["tarot"], 1, d1)
    t2 = tarot_arena.run(["hard", "medium", "medium"], 4, "jobs", TAROT["tarot"], 1, d2, 2)
    assert d1 == d2 and len(d1) == 4
    assert t1["hard"].samples == t2["hard"].samples and t1["hard"].takes == t2["hard"].takes


def test_wilson_and_normal_intervals() -> None:
    # 8 wins of 10: the textbook Wilson interval [0.490, 0.943]
    lo, hi = core.wilson([1.0] * 8 + [0.0] * 2)
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    assert core.wilson([]) == (0.0, 1.0)
    assert core.wilson([1.0] * 5)[1] == 1.0 and core.wilson([1.0] * 5)[0] > 0.5
    assert core.normal_interval([3.0]) is None
    lo2, hi2 = core.normal_interval([1.0, 2.0, 3.0]) or (0.0, 0.0)
    assert (lo2 + hi2) / 2 == pytest.approx(2.0)
    assert hi2 - lo2 == pytest.approx(2 * 1.96 * 1 / math.sqrt(3))
    assert core.split([0, 2], 3) == [0.5, 0.0, 0.5]


def test_timings_give_mean_p99_and_worst() -> None:
    t = core.Timings()
    for ms in range(1, 101):
        t.add(ms / 1000)
    assert t.mean_ms() == pytest.approx(50.5)
    assert t.quantile_ms(0.99) == pytest.approx(99.0)
    assert t.max_ms() == pytest.approx(100.0)
    other = core.Timings([0.5])
    t.merge(other)
    assert t.max_ms() == pytest.approx(500.0) and len(t) == 101


def test_the_shared_bench_times_a_run_and_prints_the_rates_last() -> None:
    from tamalou.core import bench

    total, elapsed = bench.timed(3, lambda i: i + 1)
    assert total == 6 and elapsed >= 0
    lines = bench.report("deal", 3, 4, 6, 2.0, before=["b"], after=["a"]).splitlines()
    assert lines == [
        "deals: 3  players: 4  seconds: 2.00",
        "b",
        "mean actions/deal: 2.0",
        "a",
        "deals/s: 2",
        "actions/s: 3",
    ]


def test_kalookis_report_gives_a_wilson_interval_that_stays_in_0_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Kalooki's arena printed a normal interval on win shares: past 1 for a level that
    wins nearly every match. Win shares take the Wilson interval, as Tamalou's do."""
    kalooki_arena.main(
        ["--preset", "baby", "--matches", "4", "--seed", "w", "--players", "medium,random"]
    )
    last = capsys.readouterr().out.strip().splitlines()[-1]
    lo, hi = (float(x) for x in last.split("[")[1].rstrip("]").split(", "))
    assert 0.0 <= lo <= hi <= 1.0 and hi > lo
