"""What each seat did in one finished match, from its action log replayed through the game
protocol (any game: its rounds, its final totals and winners, and the counters it offers)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage import MatchRow
from tamalou.core.replay import replay
from tamalou.games import load

log = logging.getLogger(__name__)


@dataclass(slots=True)
class SeatResult:
    seat: int
    user_id: int
    name: str
    human: bool
    rank: int = 0
    won: bool = False
    rounds: int = 0
    rounds_won: int = 0
    score_sum: float = 0.0
    best_round: float | None = None
    calls_right: int = 0
    calls_wrong: int = 0
    doubles: int = 0
    doubles_missed: int = 0


def analyse_match(
    match: MatchRow,
    actions: Sequence[dict[str, Any]],
    round_rows: Sequence[tuple[int, int, float, int]] = (),
) -> list[SeatResult]:
    """Every seat's result, from the replayed action log (the truth).

    ``round_rows`` (round_no, seat, score, place) from ``round_scores`` stand in for the
    rounds only if the log does not replay to the end of the match.
    """
    seats = [
        SeatResult(i, int(s["user_id"]), str(s.get("name") or s["user_id"]), not s.get("ai_level"))
        for i, s in enumerate(match.seats)
    ]
    lower_wins = lower_score_wins(match.game)
    rounds: list[tuple[Sequence[float], Sequence[int]]] = []
    final: tuple[Sequence[float], Sequence[int]] | None = None
    try:
        module = load(match.game)
        rules = module.rules_from_dict(match.rules)
        ai = [not s.human for s in seats]
        state, events = replay(module, rules, len(seats), match.seed, match.started_at, ai, actions)
        if not module.match_over(state):
            raise ValueError("the log stops before the end of the match")
        rounds = [(r.scores, r.places) for r in module.round_summaries(events)]
        final = module.match_result(state)
        counters = module.seat_stats(events, len(seats))
        for s, counted in zip(seats, counters, strict=True):
            for name in _COUNTED:
                setattr(s, name, getattr(s, name) + counted.get(name, 0))
    except Exception:
        log.warning("match %s: the action log does not replay", match.id, exc_info=True)
        rounds, final = [], None
    if final is None:
        log.warning("match %s: rounds taken from round_scores", match.id)
        by_round: dict[int, tuple[list[float], list[int]]] = {}
        for round_no, seat, score, place in sorted(round_rows):
            row_scores, row_places = by_round.setdefault(
                round_no, ([0.0] * len(seats), [len(seats)] * len(seats))
            )
            if 0 <= seat < len(seats):
                row_scores[seat], row_places[seat] = float(score), int(place)
        rounds = list(by_round.values())
        sums = [sum(r[0][i] for r in rounds) for i in range(len(seats))]
        best = (min if lower_wins else max)(sums, default=0.0)
        final = (sums, [i for i, c in enumerate(sums) if c == best])
    better = min if lower_wins else max
    for scores, places in rounds:
        for s in seats:
            score = float(scores[s.seat])
            s.rounds += 1
            s.rounds_won += int(places[s.seat] == 1)
            s.score_sum += score
            s.best_round = score if s.best_round is None else better(s.best_round, score)
    cumulative, winners = final
    for s in seats:
        mine = cumulative[s.seat]
        s.rank = 1 + sum(1 for c in cumulative if better(c, mine) != mine)
        s.won = s.seat in winners
    return seats


#: the game-specific counters a season keeps (``GameModule.seat_stats``, optional)
_COUNTED = ("calls_right", "calls_wrong", "doubles", "doubles_missed")


def lower_score_wins(game: str) -> bool:
    """Whether the game ranks low scores first, as its module declares
    (``GameModule.LOWER_SCORE_WINS``: Tamalou and Kalooki count penalty points, tarot counts
    points won, T-M3); a game the registry does not know counts as low-wins."""
    try:
        module = load(game)
    except KeyError:
        return True
    return bool(module.LOWER_SCORE_WINS)
