"""Engine speed: ``python -m tamalou.bench --rounds N --seed S [--rules PRESET]``.

Plays N complete rounds between random legal players (doubles included, some turns left
to the clock) and prints rounds/s and actions/s as its last lines. Every applied action
counts, with its legal-action listing and its events.
"""

from __future__ import annotations

import argparse
import random
import tracemalloc

from tamalou.core import bench
from tamalou.core.errors import IllegalAction
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou.engine import (
    apply,
    double_actions,
    legal_actions,
    new_game,
    next_deadline,
)
from tamalou.games.tamalou.rules import PRESETS
from tamalou.games.tamalou.state import Game


def play_round(game: Game, rng: random.Random, max_actions: int = 5_000) -> int:
    """Play the current round to its end with random legal players; return actions applied."""
    applied = 0
    at = game.now
    r = game.round
    n = game.players
    for p in range(n):
        if rng.random() < 0.9 and r.phase == "peek" and not r.seats[p].out:
            at += rng.randrange(50, 900)
            apply(game, A.Peek(p, at))
            applied += 1
    uniform = rng.random  # the harness's own cost is counted too: keep it small
    while game.round is r and r.phase != "over" and applied < max_actions:
        due = next_deadline(game)
        at += 200 + int(uniform() * 2_800)
        if due is not None and (due <= at or uniform() < 0.01):
            at = max(at, due)
            apply(game, A.Tick(at))
            applied += 1
            continue
        if r.phase == "play" and uniform() < 0.95:
            actor = r.pending[-1][0] if r.pending else r.current  # R-X12: a doubled power first
            options = legal_actions(game, actor, at)  # the turn (and that player's doubles)
            # random players who double or call at every chance fill their rows with
            # penalty cards and never end a round: they do both now and then
            if uniform() < 0.95:
                options = [a for a in options if a.kind not in ("double", "call")] or options
        else:  # someone tries a double on the discard top, right or wrong
            options = double_actions(game, int(uniform() * n), at)
        if not options:
            continue
        try:
            apply(game, options[int(uniform() * len(options))])
        except IllegalAction:
            continue
        applied += 1
    return applied


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rules", default="tamalou", choices=sorted(PRESETS))
    args = parser.parse_args(argv)
    rules = PRESETS[args.rules]
    rng = random.Random(args.seed)

    def one(i: int) -> int:
        game, _ = new_game(rules, args.players, f"bench:{args.seed}:{i}")
        return play_round(game, rng)

    total, elapsed = bench.timed(args.rounds, one)
    tracemalloc.start()  # memory on a separate, shorter run: tracing slows everything down
    for i in range(min(args.rounds, 50)):
        one(i)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    before = [f"rules: {args.rules}"] if args.rules != "tamalou" else []
    after = [f"peak memory: {peak / 1024:.0f} KiB"]
    print(
        bench.report("round", args.rounds, args.players, total, elapsed, before=before, after=after)
    )


if __name__ == "__main__":
    main()
