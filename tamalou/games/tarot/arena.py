"""Seeded deals between AI levels, to measure their strength.

    python -m tamalou.arena --game tarot --deals 400 --seed 1 medium random random random

The number of levels given is the number of players (3 to 5). Deal ``i`` seats the levels
rotated by ``i``; each deal is played to its score (annulled deals are redealt). The report
gives each level's mean score per seat-deal with a 95 % normal interval, how often it took
and won, and its decision time. Deal ``i`` is seeded ``S:i``; ``--jobs N`` plays the deals
in N worker processes (``tamalou.core.arena``).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from tamalou.core.arena import add_run_arguments, normal_interval, play_all
from tamalou.games.tarot import events as E
from tamalou.games.tarot.actions import Tick
from tamalou.games.tarot.ai import LEVELS, AIPlayer, make_player
from tamalou.games.tarot.engine import apply, legal_actions, new_game, next_deadline
from tamalou.games.tarot.rules import PRESETS, Rules
from tamalou.games.tarot.views import view


@dataclass(slots=True)
class LevelStats:
    samples: list[float] = field(default_factory=list)
    takes: int = 0
    takes_won: int = 0
    decisions: int = 0
    decide_s: float = 0.0
    decide_max_s: float = 0.0

    def merge(self, other: LevelStats) -> None:
        """Add ``other``'s counts (a deal played by a worker process) to these."""
        self.samples.extend(other.samples)
        self.takes += other.takes
        self.takes_won += other.takes_won
        self.decisions += other.decisions
        self.decide_s += other.decide_s
        self.decide_max_s = max(self.decide_max_s, other.decide_max_s)

    def mean(self) -> float:
        return sum(self.samples) / len(self.samples) if self.samples else 0.0

    def interval(self) -> tuple[float, float]:
        return normal_interval(self.samples) or (-math.inf, math.inf)


def play_deal(
    levels: Sequence[str],
    seed: str,
    rules: Rules,
    stats: dict[str, LevelStats],
    players: Sequence[AIPlayer] | None = None,
) -> list[int]:
    """One seeded deal between ``levels`` (seat i plays ``levels[i]``): the seats' scores.
    ``players`` (tests) replaces the players made from the levels."""
    n = len(levels)
    game, events = new_game(rules, n, seed, 0, ai=[True] * n)
    if players is None:
        players = [make_player(lv, s, rules, f"{seed}:{s}") for s, lv in enumerate(levels)]
    at = 0
    ended: list[E.DealEnded] = []
    while not ended:
        for p in players:
            p.observe(E.stream_for(events, p.seat))
        ended = [e for e in events if isinstance(e, E.DealEnded)]
        if ended:
            break
        at += 1_000
        seat = game.deal.current
        legal = legal_actions(game, seat, at)
        t0 = time.perf_counter()
        action = players[seat].act(view(game, seat, at), legal, at)
        dt = time.perf_counter() - t0
        st = stats[levels[seat]]
        st.decisions += 1
        st.decide_s += dt
        st.decide_max_s = max(st.decide_max_s, dt)
        if action is None:  # an AI that waits: the clock plays for it
            due = next_deadline(game)
            at = max(at, due or at)
            events = apply(game, Tick(at))
        else:
            events = apply(game, action)
    end = ended[0]
    for s, lv in enumerate(levels):
        stats[lv].samples.append(float(end.scores[s]))
    taker_level = levels[end.taker]
    stats[taker_level].takes += 1
    stats[taker_level].takes_won += end.won
    return list(end.scores)


def _deal_job(
    rules: Rules, levels: list[str], seed: str
) -> tuple[list[int], dict[str, LevelStats]]:
    """One deal of a run (in a worker process with ``--jobs``): its scores and stats."""
    stats = {lv: LevelStats() for lv in dict.fromkeys(levels)}
    return play_deal(levels, seed, rules, stats), stats


def run(
    levels: Sequence[str],
    deals: int,
    seed: int | str,
    rules: Rules,
    first: int = 0,
    diffs: list[float] | None = None,
    jobs: int = 1,
) -> dict[str, LevelStats]:
    """Deals ``first`` .. ``first + deals - 1``, seats rotated by the deal's number. When
    ``levels`` holds two levels, ``diffs`` gets, per deal, the first level's mean score
    minus the other's (a paired sample: same cards, same seats' luck)."""
    stats = {lv: LevelStats() for lv in levels}
    names = list(dict.fromkeys(levels))
    job = partial(_deal_job, rules)
    for _, seated, (scores, part) in play_all(job, levels, deals, seed, first=first, jobs=jobs):
        for lv, st in part.items():
            stats[lv].merge(st)
        if diffs is not None and len(names) == 2:
            a = [sc for sc, lv in zip(scores, seated, strict=True) if lv == names[0]]
            b = [sc for sc, lv in zip(scores, seated, strict=True) if lv == names[1]]
            diffs.append(sum(a) / len(a) - sum(b) / len(b))
    return stats


def difference(levels: Sequence[str], diffs: list[float]) -> str:
    """The paired difference of mean scores per deal, with a 95 % normal interval."""
    names = list(dict.fromkeys(levels))
    interval = normal_interval(diffs)
    if interval is None:
        return ""
    m = sum(diffs) / len(diffs)
    lo, hi = interval
    verdict = "beats" if lo > 0 else ("loses to" if hi < 0 else "ties")
    return (
        f"{names[0]} - {names[1]}: {m:+.2f} per deal [{lo:+.2f}, {hi:+.2f}]"
        f"  ({names[0]} {verdict} {names[1]})"
    )


def report(stats: dict[str, LevelStats], deals: int) -> str:
    lines = [
        f"{deals} deals",
        f"{'level':8} {'mean score':>11} {'95% interval':>20} {'takes':>6} {'won':>6} "
        f"{'ms/decide':>10} {'max ms':>8}",
    ]
    for lv, st in stats.items():
        lo, hi = st.interval()
        lines.append(
            f"{lv:8} {st.mean():11.2f} {f'[{lo:.2f}, {hi:.2f}]':>20} {st.takes:6} "
            f"{st.takes_won:6} {1000 * st.decide_s / max(1, st.decisions):10.3f} "
            f"{1000 * st.decide_max_s:8.2f}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tamalou.arena --game tarot", description=__doc__
    )
    parser.add_argument("--deals", type=int, default=200)
    add_run_arguments(parser, seed="1", item="deal")
    parser.add_argument("levels", nargs="+", choices=LEVELS)
    args = parser.parse_args(argv)
    if not 3 <= len(args.levels) <= 5:
        parser.error("give 3 to 5 levels (one per seat)")
    rules = PRESETS["tarot"]
    diffs: list[float] = []
    stats = run(args.levels, args.deals, args.seed, rules, args.first, diffs, args.jobs)
    print(report(stats, args.deals))
    line = difference(args.levels, diffs)
    if line:
        print(line)


if __name__ == "__main__":
    main()
