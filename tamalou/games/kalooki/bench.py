"""Engine speed: ``python -m tamalou.bench --game kalooki [--rounds N --seed S --players P]``.

Plays N rounds between random legal players who lay whenever they can and call now and
then (some turns left to the clock), and prints rounds/s and actions/s as its last lines.
Every applied action counts, with its legal-action listing and its events.
"""

from __future__ import annotations

import argparse
import random

from tamalou.core import bench
from tamalou.core.errors import IllegalAction
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki.engine import _deal, apply, legal_actions, new_game, next_deadline
from tamalou.games.kalooki.rules import PRESETS
from tamalou.games.kalooki.state import Game

_LAYS = ("lay_down", "lay_meld", "lay_off", "shift_joker")


def play_round(game: Game, rng: random.Random, max_actions: int = 5_000) -> int:
    """Play the current round (and its void redeals) to its end; return actions applied."""
    applied = 0
    at = game.now
    n = game.players
    uniform = rng.random
    while not game.over and game.round.phase != "over" and applied < max_actions:
        r = game.round
        due = next_deadline(game)
        at += 200 + int(uniform() * 1_800)
        if due is not None and (due <= at or uniform() < 0.005):
            at = max(at, due)
            apply(game, A.Tick(at))
            applied += 1
            continue
        if uniform() < 0.1:  # somebody tries a call on the discard top
            options = legal_actions(game, int(uniform() * n), at)
        else:
            options = legal_actions(game, r.current, at)
            lays = [a for a in options if a.kind in _LAYS]
            if lays:
                options = lays
            elif len(options) > 1 and uniform() < 0.7:
                options = [a for a in options if a.kind != "take_discard"] or options
        if not options:
            continue
        try:
            apply(game, options[int(uniform() * len(options))])
        except IllegalAction:
            continue
        applied += 1
    return applied


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tamalou.bench --game kalooki")
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default="kalooki", choices=sorted(PRESETS))
    args = parser.parse_args(argv)
    rules = PRESETS[args.preset]
    rng = random.Random(args.seed)
    voids = 0

    def one(i: int) -> int:
        nonlocal voids
        game, _ = new_game(rules, args.players, f"bench:{args.seed}:{i}")
        index = i % len(rules.rounds)  # every contract, the long hands too
        if index:
            _deal(game, index, game.round.dealer, 1, 0, [])
        applied = play_round(game, rng)
        voids += game.voids
        return applied

    total, elapsed = bench.timed(args.rounds, one)
    before = [f"void deals: {voids}"]
    print(bench.report("round", args.rounds, args.players, total, elapsed, before=before))


if __name__ == "__main__":
    main()
