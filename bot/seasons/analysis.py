"""What each seat did in one finished match, from its replayed action log."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage import MatchRow
from tamalou.games import load
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.codec import action_from_dict
from tamalou.games.tamalou.engine import apply, new_game
from tamalou.games.tamalou.rules import Rules

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
        if match.game != "tamalou":
            raise ValueError(f"no replay for the game {match.game!r}: rounds from round_scores")
        rules = Rules.model_validate(match.rules)
        game, _ = new_game(
            rules, len(seats), match.seed, match.started_at, [not s.human for s in seats]
        )
        for payload in actions:
            for e in apply(game, action_from_dict(payload)):
                if isinstance(e, E.Called):
                    if e.right:
                        seats[e.player].calls_right += 1
                    else:
                        seats[e.player].calls_wrong += 1
                elif isinstance(e, E.Doubled):
                    seats[e.player].doubles += 1
                elif isinstance(e, E.DoubleMissed):
                    seats[e.player].doubles_missed += 1
                elif isinstance(e, E.RoundEnded):
                    rounds.append((e.scores, e.places))
                    if e.match_over:
                        final = (e.cumulative, e.winners)
    except Exception:
        log.warning("match %s: the action log does not replay", match.id, exc_info=True)
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


def lower_score_wins(game: str) -> bool:
    """Whether the game ranks low scores first, as its module declares
    (``GameModule.LOWER_SCORE_WINS``: Tamalou and Kalooki count penalty points, tarot counts
    points won, T-M3); a game the registry does not know counts as low-wins."""
    try:
        module = load(game)
    except KeyError:
        return True
    return bool(getattr(module, "LOWER_SCORE_WINS", True))
