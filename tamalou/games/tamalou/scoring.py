"""Round ranking (R-E3) and round scores (R-M2), as pure functions of the totals."""

from __future__ import annotations

from tamalou.games.tamalou.rules import Scoring


def places(totals: list[float], counts: list[int], caller: int | None) -> list[int]:
    """R-E3: lowest total first; tie: fewer cards; still tied: the caller; else shared."""
    keys = [
        (t, c, 0 if i == caller else 1) for i, (t, c) in enumerate(zip(totals, counts, strict=True))
    ]
    return [1 + sum(1 for other in keys if other < k) for k in keys]


def match_places(cumulative: list[float]) -> list[int]:
    """R-M3: the match ranking: lowest cumulative score first; ties share a place."""
    return [1 + sum(1 for other in cumulative if other < mine) for mine in cumulative]


def round_scores(
    scoring: Scoring, totals: list[float], caller: int | None, failed_calls: list[int]
) -> list[float]:
    """R-M2: the caller scores 0 unless someone is strictly lower; those at or below 0."""
    scores = list(totals)
    if caller is not None:
        mine = totals[caller]
        others = [t for i, t in enumerate(totals) if i != caller]
        lowest = min(others) if others else mine
        won = lowest >= mine if scoring.caller_wins_on_tie else lowest > mine
        for i, t in enumerate(totals):
            if i == caller:
                if won:
                    scores[i] = (
                        mine if scoring.caller_win_score is None else scoring.caller_win_score
                    )
                else:
                    base = mine if scoring.caller_lose_score is None else scoring.caller_lose_score
                    malus = mine - lowest if scoring.caller_lose_malus == "difference" else 0
                    scores[i] = base + malus
            elif scoring.others_at_or_below_caller_score_zero and t <= mine:
                scores[i] = 0
    if scoring.failed_call_points:
        scores = [
            s + scoring.failed_call_points * f for s, f in zip(scores, failed_calls, strict=True)
        ]
    return scores
