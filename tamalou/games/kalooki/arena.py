"""AI strength: ``python -m tamalou.arena --game kalooki [--matches N --players A,B,... ]``.

Plays whole matches between AI levels (seats rotate between matches), then prints each
level's win rate (a shared first place counts for each), mean match score and the mean
and worst decision time. Match ``i`` is seeded ``S:i`` and seats the players rotated by
``i``; ``--jobs N`` plays them in N worker processes (``tamalou.core.arena``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from functools import partial

from tamalou.core.arena import add_run_arguments, play_all, wilson
from tamalou.core.errors import IllegalAction
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki.ai import make_player
from tamalou.games.kalooki.engine import apply, legal_actions, new_game, next_deadline
from tamalou.games.kalooki.events import stream_for
from tamalou.games.kalooki.rules import PRESETS, Rules
from tamalou.games.kalooki.state import Game
from tamalou.games.kalooki.views import view


def play_match(
    levels: Sequence[str],
    rules: Rules,
    seed: str,
    *,
    step_ms: int = 700,
    max_steps: int = 200_000,
    timings: list[float] | None = None,
    level_timings: dict[str, list[float]] | None = None,
    record: list[A.Action] | None = None,
) -> Game:
    """A whole match between AI players (one per level, seat order), every player fed its
    own stream; the clock passes ``step_ms`` whenever nobody acts. Every applied action is
    appended to ``record`` when given."""
    n = len(levels)
    game, events = new_game(rules, n, seed, 0, [True] * n)
    players = [make_player(level, i, rules, seed) for i, level in enumerate(levels)]
    for i, p in enumerate(players):
        p.observe(stream_for(events, i))
    at = 0
    for _ in range(max_steps):
        if game.over:
            break
        due = next_deadline(game)
        if game.round.phase == "over":
            applied: A.Action | None = A.NextRound(0, at)
        elif due is not None and due <= at:
            applied = A.Tick(at)
        else:
            applied = None
        if applied is not None:
            events = apply(game, applied)
        else:
            events = []
            current = game.round.current
            for seat in [*(s for s in range(n) if s != current), current]:
                legal = legal_actions(game, seat, at)
                if not legal:
                    continue
                started = time.perf_counter()
                action = players[seat].act(view(game, seat, at), legal, at)
                spent = time.perf_counter() - started
                if timings is not None:
                    timings.append(spent)
                if level_timings is not None:
                    level_timings.setdefault(levels[seat], []).append(spent)
                if action is None:
                    continue
                try:
                    events = apply(game, action)
                except IllegalAction:
                    continue
                applied = action
                break
            if not events:
                at += step_ms
                continue
        if record is not None and applied is not None:
            record.append(applied)
        for i, p in enumerate(players):
            p.observe(stream_for(events, i))
        at += 50
    return game


def _match_job(
    rules: Rules, levels: list[str], seed: str
) -> tuple[list[int], list[float], dict[str, list[float]]]:
    """One match of a run (in a worker process with ``--jobs``): its winners, final
    scores and decision times by level."""
    level_timings: dict[str, list[float]] = {}
    game = play_match(levels, rules, seed, level_timings=level_timings)
    return list(game.winners), [float(c) for c in game.cumulative], level_timings


def run(
    base: Sequence[str],
    rules: Rules,
    matches: int,
    seed: str,
    first: int = 0,
    jobs: int = 1,
) -> tuple[dict[str, float], dict[str, list[float]], dict[str, list[float]], list[float]]:
    """``matches`` seeded matches ``seed:first`` .. with the seats rotated: (wins by level,
    match scores by level, decision times by level, the first level's win share per match).
    A first place shared by k players is 1/k of a win for each (K-P3)."""
    wins = dict.fromkeys(base, 0.0)
    scores: dict[str, list[float]] = {level: [] for level in base}
    level_timings: dict[str, list[float]] = {level: [] for level in base}
    shares: list[float] = []
    job = partial(_match_job, rules)
    for _, levels, (winners, cumulative, times) in play_all(
        job, base, matches, seed, first=first, jobs=jobs
    ):
        for level, spent in times.items():
            level_timings[level].extend(spent)
        split = 1 / max(1, len(winners))
        share = 0.0
        for seat, level in enumerate(levels):
            scores[level].append(cumulative[seat])
            if seat in winners:
                wins[level] += split
                if level == base[0]:
                    share += split
        shares.append(share)
    return wins, scores, level_timings, shares


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tamalou.arena --game kalooki")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--players", default="medium,random", help="levels, one per seat")
    parser.add_argument("--preset", default="baby", choices=sorted(PRESETS))
    add_run_arguments(parser, seed="arena", item="match")
    args = parser.parse_args(argv)
    base = args.players.split(",")
    rules = PRESETS[args.preset]
    wins, scores, level_timings, shares = run(
        base, rules, args.matches, args.seed, args.first, args.jobs
    )
    print(f"matches: {args.matches}  preset: {args.preset}  seats: {','.join(base)}")
    for level in dict.fromkeys(base):
        mean = sum(scores[level]) / max(1, len(scores[level]))
        share = wins[level] / args.matches / base.count(level)
        times = sorted(level_timings[level])
        timing = ""
        if times:
            timing = (
                f"  decision mean {1000 * sum(times) / len(times):.2f} ms"
                f" p95 {1000 * times[int(0.95 * (len(times) - 1))]:.2f} ms"
                f" worst {1000 * times[-1]:.2f} ms"
            )
        print(f"{level:>8}: win rate {share:.1%}  mean score {mean:.1f}{timing}")
    mean = sum(shares) / max(1, len(shares))
    lo, hi = wilson(shares)  # win shares in [0, 1]: never an interval past 1
    others = "/".join(dict.fromkeys(base[1:]))
    print(f"{base[0]} vs {others}: win rate {mean:.3f} [{lo:.3f}, {hi:.3f}]")


if __name__ == "__main__":
    main()
