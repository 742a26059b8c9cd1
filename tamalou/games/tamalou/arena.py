"""Seeded rounds or whole matches between AI levels, to measure their strength.

    python -m tamalou.arena medium random                   # 400 matches (the default)
    python -m tamalou.arena --rules koubo --matches 400 --seed 1 medium random
    python -m tamalou.arena --rounds 2000 --seed 1 medium easy   # single rounds

**Match mode** (the default, ``--matches N``): each match is played whole by the preset's
own match rules (R-M3, R-X16: over the target, reaching it, a fixed number of rounds,
elimination, a grand winner), the engine dealing each next round (``NextRound``); a match's
win is place 1 of the match (the engine's winners: the lowest cumulative score, or the last
one in); a shared first place is split between the players who share it. Match ``i`` is
seeded ``S:i`` and seats the levels rotated by ``i``; a match still running after 200,000
steps counts as unfinished. The report gives the rounds per match and, per level, the match
win rate with a 95% Wilson interval, the mean final match score, and per round the calls,
right calls, turn-1 calls and doubles.

**Round mode** (``--rounds N``): each round is a single round (not a match) with the seats
rotated between levels; a round's win is place 1 (R-E3), a shared place 1 split.

In both, time advances 1–3 s per step (no real sleeping); at every step each AI may first
double, then whoever has a turn action plays it. ``--jobs N`` plays the run in N worker
processes (seeding, rotation, workers and intervals: ``tamalou.core.arena``); the report
gives each level's mean, p99 and worst ``decide`` time.
"""

from __future__ import annotations

import argparse
import logging
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from tamalou.core.arena import (
    Timings,
    add_run_arguments,
    normal_interval,
    play_all,
    split,
    wilson,
)
from tamalou.core.errors import IllegalAction
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.actions import Action, Double, NextRound, Tick
from tamalou.games.tamalou.ai import LEVELS, AIPlayer, make_player
from tamalou.games.tamalou.ai.search import BUDGET_MS
from tamalou.games.tamalou.engine import apply, legal_actions, new_game
from tamalou.games.tamalou.rules import PRESETS, TAMALOU, Rules
from tamalou.games.tamalou.state import Game
from tamalou.games.tamalou.views import view

log = logging.getLogger(__name__)

MAX_STEPS = 4_000  # a round still running after this many steps is a shared draw
MATCH_MAX_STEPS = 200_000  # a match still running after this many steps is unfinished
DEFAULT_MATCHES = 400


@dataclass(slots=True)
class LevelStats:
    seats: int = 0  # seat-rounds played (round mode) or seat-matches played (match mode)
    rounds: int = 0  # seat-rounds played (both modes)
    wins: float = 0.0
    score: float = 0.0  # round scores (round mode) or final cumulative scores (match mode)
    calls: int = 0  # seat-rounds with at least one call
    right_calls: int = 0
    turn1_calls: int = 0
    doubles_tried: int = 0
    doubles_won: int = 0
    times: Timings = field(default_factory=Timings)  # the turn decisions (``decide``)
    win_samples: list[float] = field(default_factory=list)

    def merge(self, other: LevelStats) -> None:
        """Add ``other``'s counts (a match played by a worker process) to these."""
        self.seats += other.seats
        self.rounds += other.rounds
        self.wins += other.wins
        self.score += other.score
        self.calls += other.calls
        self.right_calls += other.right_calls
        self.turn1_calls += other.turn1_calls
        self.doubles_tried += other.doubles_tried
        self.doubles_won += other.doubles_won
        self.times.merge(other.times)
        self.win_samples.extend(other.win_samples)

    def win_rate(self) -> float:
        return self.wins / self.seats if self.seats else 0.0

    def interval(self) -> tuple[float, float]:
        """A 95% normal interval on the mean win share."""
        out = normal_interval(self.win_samples)
        if out is None:
            return (0.0, 1.0)
        return (max(0.0, out[0]), min(1.0, out[1]))

    def wilson(self) -> tuple[float, float]:
        """A 95% Wilson score interval on the win share (match mode)."""
        return wilson(self.win_samples)


@dataclass(slots=True)
class ArenaResult:
    levels: list[str]
    stats: dict[str, LevelStats]
    rounds: int  # rounds asked (round mode) or rounds played in finished matches (match mode)
    unfinished: int
    head_to_head: float  # first level's win share in the rounds (or matches) played
    matches: int = 0  # matches asked (match mode; 0 in round mode)
    round_counts: list[int] = field(default_factory=list)  # rounds of each finished match


class _Table:
    """One seeded game between AI players, played step by step like the bot would."""

    def __init__(
        self,
        levels: Sequence[str],
        seed: str,
        rules: Rules,
        stats: dict[str, LevelStats],
        budget_ms: float | None,
        max_iterations: int | None,
    ) -> None:
        n = len(levels)
        self.levels = list(levels)
        self.stats = stats
        self.clock = random.Random(f"{seed}:clock")
        self.game: Game
        self.game, ev = new_game(rules, n, seed=seed, at=0, ai=[True] * n)
        self.players: list[AIPlayer] = [
            make_player(
                lv, s, rules, f"{seed}:{s}", budget_ms=budget_ms, max_iterations=max_iterations
            )
            for s, lv in enumerate(levels)
        ]
        self.now = 0
        self.steps = 0
        self.ended: list[E.RoundEnded] = []
        self._new_round()
        self.feed(ev)

    def _new_round(self) -> None:
        n = len(self.levels)
        self.turns = [0] * n
        self.called = [False] * n
        self.right = [False] * n
        self.turn1 = [False] * n

    def feed(self, events: list[E.Event]) -> None:
        for p in self.players:
            p.observe(events)
        turns, called, right, turn1 = self.turns, self.called, self.right, self.turn1
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
                self.ended.append(e)
                self._count_round(e)

    def _count_round(self, end: E.RoundEnded) -> None:
        for s, lv in enumerate(self.levels):
            if self.game.round.seats[s].out:
                continue  # R-X16: eliminated before this round: not dealt in it
            st = self.stats[lv]
            st.rounds += 1
            st.calls += self.called[s]
            st.right_calls += self.right[s]
            st.turn1_calls += self.turn1[s]

    def _timed(self, seat: int, fn: str, *args: object) -> object:
        t0 = time.perf_counter()
        out = getattr(self.players[seat], fn)(*args)
        dt = time.perf_counter() - t0
        if fn == "decide":  # the double check is cheap; time the turn decisions
            self.stats[self.levels[seat]].times.add(dt)
        return out

    def _act(self, action: Action) -> None:
        try:
            self.feed(apply(self.game, action))
        except IllegalAction as exc:  # an AI bug: record it, never crash a long run
            log.warning("illegal action %r: %r", action, exc)

    def play_round(self, max_steps: int) -> bool:
        """Play the current round to its end within ``max_steps`` steps; True if it ended."""
        game = self.game
        n = len(self.levels)
        clock = self.clock
        while self.steps < max_steps:
            if game.round.phase == "over":
                return True
            self.steps += 1
            self.now += clock.randint(1_000, 3_000)
            now = self.now
            self.feed(apply(game, Tick(now)))
            if game.round.phase == "over":
                return True
            order = list(range(n))
            clock.shuffle(order)
            for s in order:  # the race for doubles (R-D4): whoever wants one presses
                if game.round.phase == "over":
                    break
                d = self._timed(s, "wants_double", view(game, s, now), now)
                if isinstance(d, Double):
                    self._act(d)
            # then one move: every peek in the peek phase, else the current player's move
            for s in range(n):
                if game.round.phase == "over":
                    break
                legal = [a for a in legal_actions(game, s) if not isinstance(a, Double)]
                if not legal:
                    continue
                a = self._timed(s, "decide", view(game, s, now), legal, now)
                if a is not None:
                    self._act(a)  # type: ignore[arg-type]
                    if game.round.phase != "peek":
                        break
        return game.round.phase == "over"

    def next_round(self) -> None:
        """Deal the match's next round (R-M1), asked by the first seat still in."""
        game = self.game
        self._new_round()
        due = game.next_round_deadline
        if due is not None and due <= self.now:
            self.feed(apply(game, Tick(self.now)))  # the engine deals it itself
            return
        seat = next(i for i in range(game.players) if not (game.out and game.out[i]))
        self.feed(apply(game, NextRound(seat, self.now)))


def play_round(
    levels: Sequence[str],
    seed: str,
    rules: Rules,
    stats: dict[str, LevelStats],
    budget_ms: float | None = BUDGET_MS,
    max_iterations: int | None = None,
) -> list[float] | None:
    """Play one seeded round; return each seat's win share (None: unfinished)."""
    table = _Table(levels, seed, rules, stats, budget_ms, max_iterations)
    table.play_round(MAX_STEPS)
    if not table.ended:
        return None
    end = table.ended[-1]
    shares = split([i for i, p in enumerate(end.places) if p == 1], len(levels))
    for s, lv in enumerate(levels):
        st = stats[lv]
        st.seats += 1
        st.wins += shares[s]
        st.win_samples.append(shares[s])
        st.score += end.scores[s]
        st.doubles_tried += table.players[s].memory.doubles_tried
        st.doubles_won += table.players[s].memory.doubles_won
    return shares


def play_match(
    levels: Sequence[str],
    seed: str,
    rules: Rules,
    stats: dict[str, LevelStats],
    budget_ms: float | None = BUDGET_MS,
    max_iterations: int | None = None,
    max_steps: int = MATCH_MAX_STEPS,
) -> tuple[list[float], Game] | None:
    """Play one seeded match to its end by ``rules``' match rules (R-M, R-X16).

    Return each seat's win share (place 1 of the match, shared places split) and the
    finished game, or None if the match was still running after ``max_steps`` steps.
    """
    table = _Table(levels, seed, rules, stats, budget_ms, max_iterations)
    game = table.game
    while not game.over:
        if not table.play_round(max_steps):
            return None
        if not game.over:
            table.next_round()
    shares = split(game.winners, len(levels))
    for s, lv in enumerate(levels):
        st = stats[lv]
        st.seats += 1
        st.wins += shares[s]
        st.win_samples.append(shares[s])
        st.score += game.cumulative[s]
        st.doubles_tried += table.players[s].memory.doubles_tried
        st.doubles_won += table.players[s].memory.doubles_won
    return shares, game


def _stats_for(levels: Sequence[str]) -> dict[str, LevelStats]:
    return {lv: LevelStats() for lv in dict.fromkeys(levels)}


def _round_job(
    rules: Rules,
    budget_ms: float | None,
    max_iterations: int | None,
    levels: list[str],
    seed: str,
) -> tuple[list[float] | None, dict[str, LevelStats]]:
    """One round of a run (in a worker process with ``--jobs``): its shares and stats."""
    stats = _stats_for(levels)
    return play_round(levels, seed, rules, stats, budget_ms, max_iterations), stats


def _match_job(
    rules: Rules,
    budget_ms: float | None,
    max_iterations: int | None,
    max_steps: int,
    levels: list[str],
    seed: str,
) -> tuple[tuple[list[float], int] | None, dict[str, LevelStats]]:
    """One match of a run: its shares and rounds (None: unfinished) and its stats."""
    stats = _stats_for(levels)
    out = play_match(levels, seed, rules, stats, budget_ms, max_iterations, max_steps)
    return (None if out is None else (out[0], len(out[1].history))), stats


def _fold(stats: dict[str, LevelStats], part: dict[str, LevelStats]) -> None:
    for lv, st in part.items():
        stats[lv].merge(st)


def run(
    levels: Sequence[str],
    rounds: int,
    seed: int | str,
    rules: Rules = TAMALOU,
    budget_ms: float | None = BUDGET_MS,
    max_iterations: int | None = None,
    first: int = 0,
    jobs: int = 1,
) -> ArenaResult:
    """``rounds`` seeded rounds; round ``i`` seats ``levels`` rotated by ``i``.

    ``first`` skips to round ``first``: two runs (0, N) and (N, N) make one run of 2N rounds.
    ``jobs`` worker processes play them (the same results for players without a clock).
    """
    n = len(levels)
    stats = _stats_for(levels)
    unfinished = 0
    first_share = 0.0
    job = partial(_round_job, rules, budget_ms, max_iterations)
    for i, _, (shares, part) in play_all(job, levels, rounds, seed, first=first, jobs=jobs):
        _fold(stats, part)
        if shares is None:
            unfinished += 1
            continue
        first_share += shares[(-i) % n]  # the seat of the first level given
    played = rounds - unfinished
    return ArenaResult(list(levels), stats, rounds, unfinished, first_share / max(1, played))


def run_matches(
    levels: Sequence[str],
    matches: int,
    seed: int | str,
    rules: Rules = TAMALOU,
    budget_ms: float | None = BUDGET_MS,
    max_iterations: int | None = None,
    first: int = 0,
    max_steps: int = MATCH_MAX_STEPS,
    jobs: int = 1,
) -> ArenaResult:
    """``matches`` seeded whole matches; match ``i`` (seed ``S:i``) seats ``levels`` rotated
    by ``i``. ``first`` skips to match ``first`` (two runs (0, N) and (N, N) are one of 2N);
    ``jobs`` worker processes play them.
    """
    n = len(levels)
    stats = _stats_for(levels)
    unfinished = 0
    first_share = 0.0
    counts: list[int] = []
    job = partial(_match_job, rules, budget_ms, max_iterations, max_steps)
    for i, _, (out, part) in play_all(job, levels, matches, seed, first=first, jobs=jobs):
        _fold(stats, part)
        if out is None:
            unfinished += 1
            continue
        shares, played_rounds = out
        counts.append(played_rounds)
        first_share += shares[(-i) % n]  # the seat of the first level given
    played = matches - unfinished
    return ArenaResult(
        list(levels),
        stats,
        sum(counts),
        unfinished,
        first_share / max(1, played),
        matches=matches,
        round_counts=counts,
    )


def report(result: ArenaResult) -> str:
    if result.matches:
        return _report_matches(result)
    lines = [
        f"{result.rounds} rounds, {result.unfinished} unfinished",
        f"{'level':8} {'win rate':>9} {'95% interval':>15} {'mean score':>11} {'calls':>6} "
        f"{'right':>6} {'turn-1':>7} {'doubles/rd':>10} {'dbl ok':>7} {'ms/decide':>10} {'p99 ms':>7} {'max ms':>8}",
    ]
    for lv, st in result.stats.items():
        lo, hi = st.interval()
        seats = max(1, st.seats)
        ok = st.doubles_won / st.doubles_tried if st.doubles_tried else 0.0
        lines.append(
            f"{lv:8} {st.win_rate():9.3f} {f'[{lo:.3f}, {hi:.3f}]':>15} {st.score / seats:11.2f} "
            f"{st.calls / seats:6.3f} {st.right_calls / seats:6.3f} {st.turn1_calls / seats:7.3f} "
            f"{st.doubles_tried / seats:10.2f} {ok:7.3f} "
            f"{st.times.mean_ms():10.3f} {st.times.quantile_ms(0.99):7.1f} {st.times.max_ms():8.1f}"
        )
    lines.append(f"{result.levels[0]} vs {result.levels[1]}: win rate {result.head_to_head:.3f}")
    return "\n".join(lines)


def _report_matches(result: ArenaResult) -> str:
    counts = result.round_counts
    mean = sum(counts) / len(counts) if counts else 0.0
    spread = f" (min {min(counts)}, max {max(counts)})" if counts else ""
    lines = [
        f"{result.matches} matches, {result.unfinished} unfinished, "
        f"{mean:.2f} rounds per match{spread}",
        f"{'level':8} {'win rate':>9} {'95% interval':>15} {'match score':>11} {'calls':>6} "
        f"{'right':>6} {'turn-1':>7} {'doubles/rd':>10} {'dbl ok':>7} {'ms/decide':>10} {'p99 ms':>7} {'max ms':>8}",
    ]
    for lv, st in result.stats.items():
        lo, hi = st.wilson()
        seats = max(1, st.seats)
        rounds = max(1, st.rounds)
        ok = st.doubles_won / st.doubles_tried if st.doubles_tried else 0.0
        lines.append(
            f"{lv:8} {st.win_rate():9.3f} {f'[{lo:.3f}, {hi:.3f}]':>15} {st.score / seats:11.2f} "
            f"{st.calls / rounds:6.3f} {st.right_calls / rounds:6.3f} "
            f"{st.turn1_calls / rounds:7.3f} {st.doubles_tried / rounds:10.2f} {ok:7.3f} "
            f"{st.times.mean_ms():10.3f} {st.times.quantile_ms(0.99):7.1f} {st.times.max_ms():8.1f}"
        )
    lines.append(
        f"{result.levels[0]} vs {result.levels[1]}: match win rate {result.head_to_head:.3f}"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tamalou.arena",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--matches",
        type=int,
        default=None,
        help=f"whole matches by the preset's match rules (the default: {DEFAULT_MATCHES})",
    )
    mode.add_argument("--rounds", type=int, default=None, help="single rounds instead of matches")
    parser.add_argument("--rules", default="tamalou", choices=sorted(PRESETS))
    parser.add_argument("--budget-ms", type=float, default=BUDGET_MS, help="hard: ms per decision")
    parser.add_argument("--iterations", type=int, default=None, help="hard: rollouts cap")
    add_run_arguments(parser, seed="1", item="match (or round)")
    parser.add_argument("levels", nargs="+", choices=LEVELS)
    args = parser.parse_args(argv)
    if not 2 <= len(args.levels) <= 5:
        parser.error("give 2 to 5 levels")
    budget = args.budget_ms if args.budget_ms > 0 else None
    if args.rounds is not None:
        result = run(
            args.levels,
            args.rounds,
            args.seed,
            PRESETS[args.rules],
            budget_ms=budget,
            max_iterations=args.iterations,
            first=args.first,
            jobs=args.jobs,
        )
    else:
        result = run_matches(
            args.levels,
            args.matches if args.matches is not None else DEFAULT_MATCHES,
            args.seed,
            PRESETS[args.rules],
            budget_ms=budget,
            max_iterations=args.iterations,
            first=args.first,
            jobs=args.jobs,
        )
    print(report(result))


if __name__ == "__main__":
    main()
