"""The rating: OpenSkill's Plackett-Luce model inside, a friendly number outside.

Players never see μ or σ. They see the *display rating*, ``1000 + 40 × ordinal`` rounded,
never below 0, where ``ordinal = μ − 3σ`` is the model's conservative value (0 for a new
player, so everyone starts at 1000). A player under the season's minimum of matches is
*provisional*: the rating is shown with a ``?`` (``1040?``) and no rank. docs/seasons.md
explains the scale.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()

DISPLAY_BASE = 1000
DISPLAY_SCALE = 40


def rate(
    ratings: Sequence[tuple[float, float]], ranks: Sequence[int]
) -> list[tuple[float, float, float]]:
    """Plackett-Luce update of one match: (mu, sigma) and rank per player -> (mu, sigma, ordinal)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [(t[0].mu, t[0].sigma, t[0].ordinal()) for t in rated]


def display_rating(ordinal: float) -> int:
    """The number players see: 1000 at the start, 40 points per unit of ordinal, never < 0."""
    return max(0, round(DISPLAY_BASE + DISPLAY_SCALE * ordinal))


def rating_text(ordinal: float, provisional: bool) -> str:
    """``1040``, or ``1040?`` while the player is under the season's minimum of matches."""
    return f"{display_rating(ordinal)}{'?' if provisional else ''}"
