"""AI strength: ``python -m tamalou.arena --game kalooki [--matches N --players A,B,... ]``.

Plays whole matches between AI levels (seats rotate between matches), then prints each
level's win rate (a shared first place counts for each), mean match score and the mean
and worst decision time.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

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
                if timings is not None:
                    timings.append(time.perf_counter() - started)
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tamalou.arena --game kalooki")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--players", default="medium,random", help="levels, one per seat")
    parser.add_argument("--preset", default="baby", choices=sorted(PRESETS))
    parser.add_argument("--seed", default="arena")
    args = parser.parse_args(argv)
    base = args.players.split(",")
    rules = PRESETS[args.preset]
    wins = dict.fromkeys(base, 0)
    scores: dict[str, list[float]] = {level: [] for level in base}
    timings: list[float] = []
    for m in range(args.matches):
        shift = m % len(base)
        levels = base[shift:] + base[:shift]  # seats rotate
        game = play_match(levels, rules, f"{args.seed}:{m}", timings=timings)
        for seat, level in enumerate(levels):
            scores[level].append(game.cumulative[seat])
            if seat in game.winners:
                wins[level] += 1
    print(f"matches: {args.matches}  preset: {args.preset}  seats: {','.join(base)}")
    for level in dict.fromkeys(base):
        mean = sum(scores[level]) / max(1, len(scores[level]))
        share = wins[level] / args.matches / base.count(level)
        print(f"{level:>8}: win rate {share:.0%}  mean score {mean:.1f}")
    if timings:
        print(
            f"decision: mean {1000 * sum(timings) / len(timings):.2f} ms"
            f"  worst {1000 * max(timings):.2f} ms"
        )


if __name__ == "__main__":
    main()
