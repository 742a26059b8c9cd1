"""Round ranking (R-E3), round scores (R-M2, R-X15) and the match ranking (R-M3), as pure
functions of the totals."""

from __future__ import annotations

from collections.abc import Sequence

from tamalou.games.tamalou.rules import Scoring


def places(
    totals: list[float], counts: list[int], caller: int | None, active: Sequence[bool] | None = None
) -> list[int]:
    """R-E3: lowest total first; tie: fewer cards; still tied: the caller; else shared.

    Seats out of the match (R-X16) come after every active seat.
    """
    keys = [
        (0 if active is None or active[i] else 1, t, c, 0 if i == caller else 1)
        for i, (t, c) in enumerate(zip(totals, counts, strict=True))
    ]
    return [1 + sum(1 for other in keys if other < k) for k in keys]


def match_places(cumulative: list[float]) -> list[int]:
    """R-M3: the match ranking: lowest cumulative score first; ties share a place."""
    return [1 + sum(1 for other in cumulative if other < mine) for mine in cumulative]


def round_scores(
    scoring: Scoring,
    totals: list[float],
    caller: int | None,
    failed_calls: list[int],
    *,
    contre: int | None = None,
    automatic: bool = False,
    fines: Sequence[float] | None = None,
    emptied_by: int | None = None,
    active: Sequence[bool] | None = None,
) -> list[float]:
    """R-M2 and its variants, in R-X15's order: totals, the caller's bonus or malus (and the
    contre's, R-X9), negative totals, fines."""
    n = len(totals)
    playing = [True] * n if active is None else list(active)
    scores = [t if playing[i] else 0.0 for i, t in enumerate(totals)]
    if caller is not None:
        mine = totals[caller]
        others = [t for i, t in enumerate(totals) if i != caller and playing[i]]
        lowest = min(others) if others else mine
        won = lowest >= mine if scoring.caller_wins_on_tie else lowest > mine
        for i, t in enumerate(totals):
            if not playing[i]:
                continue
            if i == caller:
                if won:
                    scores[i] = (
                        mine if scoring.caller_win_score is None else scoring.caller_win_score
                    )
                else:
                    base = mine if scoring.caller_lose_score is None else scoring.caller_lose_score
                    malus = mine - lowest if scoring.caller_lose_malus == "difference" else 0
                    spared = automatic and scoring.automatic_caller_no_malus  # R-V4, R-X8
                    scores[i] = base + (0 if spared else malus)
            elif i == contre:  # R-X9: a bet against the caller
                scores[i] = scoring.contre_win_score if t < mine else t + scoring.contre_lose_malus
            elif scoring.others_at_or_below_caller_score_zero and t <= mine:
                scores[i] = 0
        if scoring.negative_caller_gives and mine < 0:  # cabo: negatives, after the bonus
            for i in range(n):
                if i != caller and playing[i]:
                    scores[i] += -mine
            scores[caller] = max(0.0, scores[caller])
    if emptied_by is not None and scoring.own_empty_row_score is not None:
        scores[emptied_by] = scoring.own_empty_row_score  # fontenay (R-V9)
    if scoring.failed_call_points:
        scores = [
            s + scoring.failed_call_points * f for s, f in zip(scores, failed_calls, strict=True)
        ]
    if fines is not None:
        scores = [s + f for s, f in zip(scores, fines, strict=True)]  # R-X13, last (R-X15)
    return scores
