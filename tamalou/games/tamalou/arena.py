"""Seeded rounds between AI levels, to measure their strength.

    python -m tamalou.arena --rounds 2000 --seed 1 medium easy

Each round is a single round (not a match) with the seats rotated between levels. Time
advances 1–3 s per step (no real sleeping); at every step each AI may first double, then
whoever has a turn action plays it. A round's win is place 1 (R-E3); a shared place 1 is
split between the players who share it (two players tied first get half a win each).
"""

from __future__ import annotations

import argparse
import logging
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from tamalou.core.errors import IllegalAction
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.actions import Action, Double, Tick
from tamalou.games.tamalou.ai import LEVELS, AIPlayer, make_player
from tamalou.games.tamalou.engine import apply, legal_actions, new_game
from tamalou.games.tamalou.rules import PRESETS, TAMALOU, Rules
from tamalou.games.tamalou.views import view

log = logging.getLogger(__name__)

MAX_STEPS = 4_000  # a round still running after this many steps is a shared draw


@dataclass(slots=True)
class LevelStats:
    seats: int = 0  # seat-rounds played
    wins: float = 0.0
    score: float = 0.0
    calls: int = 0  # seat-rounds with at least one call
    right_calls: int = 0
    turn1_calls: int = 0
    doubles_tried: int = 0
    doubles_won: int = 0
    decisions: int = 0
    decide_s: float = 0.0
    decide_max_s: float = 0.0
    win_samples: list[float] = field(default_factory=list)

    def win_rate(self) -> float:
        return self.wins / self.seats if self.seats else 0.0

    def interval(self) -> tuple[float, float]:
        """A 95% normal interval on the mean win share."""
        n = len(self.win_samples)
        if n < 2:
            return (0.0, 1.0)
        mean = sum(self.win_samples) / n
        var = sum((x - mean) ** 2 for x in self.win_samples) / (n - 1)
        half = 1.96 * math.sqrt(var / n)
        return (max(0.0, mean - half), min(1.0, mean + half))


@dataclass(slots=True)
class ArenaResult:
    levels: list[str]
    stats: dict[str, LevelStats]
    rounds: int
    unfinished: int
    head_to_head: float  # first level's win share in the rounds played


def play_round(
    levels: Sequence[str],
    seed: str,
    rules: Rules,
    stats: dict[str, LevelStats],
    budget_ms: float | None = 50.0,
    max_iterations: int | None = None,
) -> list[float] | None:
    """Play one seeded round; return each seat's win share (None: unfinished)."""
    n = len(levels)
    clock = random.Random(f"{seed}:clock")
    game, ev = new_game(rules, n, seed=seed, at=0, ai=[True] * n)
    players: list[AIPlayer] = [
        make_player(lv, s, rules, f"{seed}:{s}", budget_ms=budget_ms, max_iterations=max_iterations)
        for s, lv in enumerate(levels)
    ]
    turns = [0] * n
    called = [False] * n
    right = [False] * n
    turn1 = [False] * n
    ended: list[E.RoundEnded] = []

    def feed(events: list[E.Event]) -> None:
        for p in players:
            p.observe(events)
        for e in events:
            if isinstance(e, E.TurnStarted) and not e.extra:
                turns[e.player] += 1
            elif isinstance(e, E.Called):
                called[e.player] = True
                right[e.player] = right[e.player] or e.right
                if turns[e.player] == 1:
                    turn1[e.player] = True
            elif isinstance(e, E.CalledHidden):  # R-X7: a hidden call is a right one
                called[e.player] = right[e.player] = True
                if turns[e.player] == 1:
                    turn1[e.player] = True
            elif isinstance(e, E.RoundEnded):
                ended.append(e)

    def timed(seat: int, fn: str, *args: object) -> object:
        t0 = time.perf_counter()
        out = getattr(players[seat], fn)(*args)
        dt = time.perf_counter() - t0
        if fn == "decide":  # the double check is cheap; time the turn decisions
            st = stats[levels[seat]]
            st.decisions += 1
            st.decide_s += dt
            st.decide_max_s = max(st.decide_max_s, dt)
        return out

    def act(action: Action) -> None:
        try:
            feed(apply(game, action))
        except IllegalAction as exc:  # an AI bug: record it, never crash a long run
            log.warning("illegal action %r: %r", action, exc)

    feed(ev)
    now = 0
    for _ in range(MAX_STEPS):
        if game.round.phase == "over":
            break
        now += clock.randint(1_000, 3_000)
        feed(apply(game, Tick(now)))
        if game.round.phase == "over":
            break
        order = list(range(n))
        clock.shuffle(order)
        for s in order:  # the race for doubles (R-D4): whoever wants one presses
            if game.round.phase == "over":
                break
            d = timed(s, "wants_double", view(game, s, now), now)
            if isinstance(d, Double):
                act(d)
        # then one move: every peek in the peek phase, else the current player's move
        for s in range(n):
            if game.round.phase == "over":
                break
            legal = [a for a in legal_actions(game, s) if not isinstance(a, Double)]
            if not legal:
                continue
            a = timed(s, "decide", view(game, s, now), legal, now)
            if a is not None:
                act(a)  # type: ignore[arg-type]
                if game.round.phase != "peek":
                    break
    if not ended:
        return None
    end = ended[-1]
    firsts = [i for i, p in enumerate(end.places) if p == 1]
    shares = [1.0 / len(firsts) if i in firsts else 0.0 for i in range(n)]
    for s, lv in enumerate(levels):
        st = stats[lv]
        st.seats += 1
        st.wins += shares[s]
        st.win_samples.append(shares[s])
        st.score += end.scores[s]
        st.calls += called[s]
        st.right_calls += right[s]
        st.turn1_calls += turn1[s]
        st.doubles_tried += players[s].memory.doubles_tried
        st.doubles_won += players[s].memory.doubles_won
    return shares


def run(
    levels: Sequence[str],
    rounds: int,
    seed: int | str,
    rules: Rules = TAMALOU,
    budget_ms: float | None = 50.0,
    max_iterations: int | None = None,
    first: int = 0,
) -> ArenaResult:
    """``rounds`` seeded rounds; round ``i`` seats ``levels`` rotated by ``i``.

    ``first`` skips to round ``first``: two runs (0, N) and (N, N) make one run of 2N rounds.
    """
    n = len(levels)
    stats = {lv: LevelStats() for lv in levels}
    unfinished = 0
    first_share = 0.0
    for i in range(first, first + rounds):
        seated = [levels[(s + i) % n] for s in range(n)]
        shares = play_round(seated, f"{seed}:{i}", rules, stats, budget_ms, max_iterations)
        if shares is None:
            unfinished += 1
            continue
        first_share += shares[(-i) % n]  # the seat of the first level given
    played = rounds - unfinished
    return ArenaResult(list(levels), stats, rounds, unfinished, first_share / max(1, played))


def report(result: ArenaResult) -> str:
    lines = [
        f"{result.rounds} rounds, {result.unfinished} unfinished",
        f"{'level':8} {'win rate':>9} {'95% interval':>15} {'mean score':>11} {'calls':>6} "
        f"{'right':>6} {'turn-1':>7} {'doubles/rd':>10} {'dbl ok':>7} {'ms/decide':>10} {'max ms':>8}",
    ]
    for lv, st in result.stats.items():
        lo, hi = st.interval()
        seats = max(1, st.seats)
        ok = st.doubles_won / st.doubles_tried if st.doubles_tried else 0.0
        lines.append(
            f"{lv:8} {st.win_rate():9.3f} {f'[{lo:.3f}, {hi:.3f}]':>15} {st.score / seats:11.2f} "
            f"{st.calls / seats:6.3f} {st.right_calls / seats:6.3f} {st.turn1_calls / seats:7.3f} "
            f"{st.doubles_tried / seats:10.2f} {ok:7.3f} "
            f"{1000 * st.decide_s / max(1, st.decisions):10.3f} {1000 * st.decide_max_s:8.1f}"
        )
    lines.append(f"{result.levels[0]} vs {result.levels[1]}: win rate {result.head_to_head:.3f}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tamalou.arena", description=__doc__)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--rules", default="tamalou", choices=sorted(PRESETS))
    parser.add_argument("--budget-ms", type=float, default=50.0, help="hard: ms per decision")
    parser.add_argument("--iterations", type=int, default=None, help="hard: rollouts cap")
    parser.add_argument("--first", type=int, default=0, help="first round number (to split)")
    parser.add_argument("levels", nargs="+", choices=LEVELS)
    args = parser.parse_args(argv)
    if not 2 <= len(args.levels) <= 5:
        parser.error("give 2 to 5 levels")
    result = run(
        args.levels,
        args.rounds,
        args.seed,
        PRESETS[args.rules],
        budget_ms=args.budget_ms if args.budget_ms > 0 else None,
        max_iterations=args.iterations,
        first=args.first,
    )
    print(report(result))


if __name__ == "__main__":
    main()
