"""Engine speed: ``python -m tamalou.bench --game tarot [--deals N --players P --seed S]``.

Plays N complete deals between random legal players (some turns left to the clock) and
prints deals/s and actions/s as its last lines. Every applied action counts, with its
legal-action listing and its events.
"""

from __future__ import annotations

import argparse
import random

from tamalou.core import bench
from tamalou.games.tarot import actions as A
from tamalou.games.tarot.engine import apply, legal_actions, new_game, next_deadline
from tamalou.games.tarot.rules import PRESETS
from tamalou.games.tarot.state import Game


def play_deal(game: Game, rng: random.Random, timeouts: float = 0.01) -> int:
    """Play the current deal to its end (annulled deals are redealt); return actions applied."""
    applied = 0
    at = game.now
    uniform = rng.random
    played = len(game.history)
    while len(game.history) == played:
        d = game.deal
        at += 500
        if uniform() < timeouts:
            due = next_deadline(game)
            if due is not None:
                at = max(at, due)
                apply(game, A.Tick(at))
                applied += 1
                continue
        options = legal_actions(game, d.current, at)
        apply(game, options[int(uniform() * len(options))])
        applied += 1
    return applied


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tamalou.bench --game tarot")
    parser.add_argument("--deals", "--rounds", dest="deals", type=int, default=1_000)
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rules = PRESETS["tarot"]
    rng = random.Random(args.seed)

    def one(i: int) -> int:
        game, _ = new_game(rules, args.players, f"bench:{args.seed}:{i}")
        return play_deal(game, rng)

    total, elapsed = bench.timed(args.deals, one)
    print(bench.report("deal", args.deals, args.players, total, elapsed))


if __name__ == "__main__":
    main()
