"""Tamalou's engine against the engine before the house variants, and every preset, in one run.

    nice -n 19 .venv/bin/python -m tools.bench_engine            # about 2 minutes when quiet
    nice -n 19 .venv/bin/python -m tools.bench_engine --rounds 100 --repeat 3 --presets dutch

The baseline is the engine of commit 9cd0a5f (``--baseline``: the last commit before
9b58066 brought the house variants), extracted with ``git archive`` into a temporary
directory. Each measurement is a fresh Python process running the same harness (the random
legal players of ``tamalou.bench``, below) on one engine and one rule set; the harness is
passed to both engines, so only the engine differs. The runs alternate: each repetition
runs the baseline, the default rules and every preset, the baseline and the default rules
swapping places every other repetition. Actions a second are counted on the process's
CPU time (``time.process_time``), not the wall clock, so a busy machine slows the figures
less than it slows the runs; the medians of the repetitions are printed, and the medians of
each repetition's ratios asked by issue 25: the default rules / the baseline (goal at least 0.95), every preset /
the default rules (goal at least 0.6).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: the harness, run in the child with ``tamalou`` on its path: the baseline's or this tree's
HARNESS = r"""
import random, sys, time
from tamalou.core.errors import IllegalAction
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou.engine import apply, double_actions, legal_actions, new_game, next_deadline
try:
    from tamalou.games.tamalou.rules import PRESETS
except ImportError:  # the engine before the house variants: one rule set
    from tamalou.games.tamalou.rules import TAMALOU
    PRESETS = {"tamalou": TAMALOU}

def play_round(game, rng, max_actions=5000):
    applied = 0
    at = game.now
    r = game.round
    n = game.players
    for p in range(n):
        if rng.random() < 0.9 and r.phase == "peek" and not getattr(r.seats[p], "out", False):
            at += rng.randrange(50, 900)
            apply(game, A.Peek(p, at))
            applied += 1
    uniform = rng.random
    while game.round is r and r.phase != "over" and applied < max_actions:
        due = next_deadline(game)
        at += 200 + int(uniform() * 2800)
        if due is not None and (due <= at or uniform() < 0.01):
            at = max(at, due)
            apply(game, A.Tick(at))
            applied += 1
            continue
        if r.phase == "play" and uniform() < 0.95:
            pending = getattr(r, "pending", None)
            actor = pending[-1][0] if pending else r.current
            options = legal_actions(game, actor, at)
            if uniform() < 0.95:
                options = [a for a in options if a.kind not in ("double", "call")] or options
        else:
            options = double_actions(game, int(uniform() * n), at)
        if not options:
            continue
        try:
            apply(game, options[int(uniform() * len(options))])
        except IllegalAction:
            continue
        applied += 1
    return applied

rules, rounds, seed = PRESETS[sys.argv[1]], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
total = 0
cpu, wall = time.process_time(), time.perf_counter()
for i in range(rounds):
    game, _ = new_game(rules, 4, f"bench:{seed}:{i}")
    total += play_round(game, rng)
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
print(total, cpu, wall)
"""


def extract(commit: str, into: Path) -> None:
    """Write the ``tamalou`` package of ``commit`` under ``into``."""
    data = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "tamalou"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")


def measure(path: Path, rules: str, rounds: int, seed: int) -> tuple[float, float, int]:
    """One fresh process: (actions a CPU second, actions a wall second, actions)."""
    env = dict(os.environ, PYTHONPATH=str(path), PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run(
        [sys.executable, "-c", HARNESS, rules, str(rounds), str(seed)],
        cwd=path,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    total, cpu, wall = int(out[0]), float(out[1]), float(out[2])
    return total / cpu, total / wall, total


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--baseline", default="9cd0a5f", help="commit of the engine to compare with")
    p.add_argument("--rounds", type=int, default=150, help="rounds a measurement")
    p.add_argument("--repeat", type=int, default=5, help="repetitions (medians printed)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--presets", default="all", help="comma-separated presets, or all, or none")
    args = p.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from tamalou.games.tamalou.rules import PRESETS

    if args.presets == "all":
        presets = [name for name in PRESETS if name != "tamalou"]
    elif args.presets == "none":
        presets = []
    else:
        presets = args.presets.split(",")
    runs: dict[str, list[float]] = {}
    walls: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-engine-") as tmp:
        base = Path(tmp)
        extract(args.baseline, base)
        for rep in range(args.repeat):
            pair = [("baseline", base, "tamalou"), ("tamalou", ROOT, "tamalou")]
            order = pair if rep % 2 == 0 else pair[::-1]
            order += [(name, ROOT, name) for name in presets]
            for label, path, rules in order:
                cpu_rate, wall_rate, _ = measure(path, rules, args.rounds, args.seed + rep)
                runs.setdefault(label, []).append(cpu_rate)
                walls.setdefault(label, []).append(wall_rate)
            print(
                f"repetition {rep + 1}: baseline {runs['baseline'][-1]:,.0f}, "
                f"tamalou {runs['tamalou'][-1]:,.0f} actions/s",
                flush=True,
            )
    med = {label: statistics.median(v) for label, v in runs.items()}
    print(
        f"== Tamalou engine, {args.rounds} rounds of 4 players a run, {args.repeat} runs each, "
        f"alternated; actions a CPU second (median; wall-clock median); ratios: median of "
        f"each repetition's =="
    )
    ratios = [runs["tamalou"][i] / runs["baseline"][i] for i in range(args.repeat)]
    print(
        f"baseline {args.baseline}: {med['baseline']:,.0f} ({statistics.median(walls['baseline']):,.0f})"
    )
    base_ratio = statistics.median(ratios)
    ok = base_ratio >= 0.95
    print(
        f"default rules (tamalou): {med['tamalou']:,.0f} ({statistics.median(walls['tamalou']):,.0f})"
        f"  ratio to the baseline {base_ratio:.2f} "
        f"(runs {', '.join(f'{r:.2f}' for r in ratios)})   [goal >= 0.95: {'ok' if ok else 'MISSED'}]"
    )
    for name in presets:
        # the median of each repetition's own ratio: the machine's speed drifts between
        # repetitions more than between two runs of one repetition
        ratio = statistics.median(runs[name][i] / runs["tamalou"][i] for i in range(args.repeat))
        print(
            f"preset {name}: {med[name]:,.0f} ({statistics.median(walls[name]):,.0f})"
            f"  ratio to the default rules {ratio:.2f}   [goal >= 0.6: "
            f"{'ok' if ratio >= 0.6 else 'MISSED'}]"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
