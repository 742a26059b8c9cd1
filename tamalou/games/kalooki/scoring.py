"""Round scores (K-P) as pure functions of the hands left."""

from __future__ import annotations

from collections.abc import Sequence

from tamalou.games.kalooki.melds import points


def hand_points(hand: Sequence[int]) -> int:
    """K-C3: the points of the cards left in a hand."""
    return sum(points(c) for c in hand)


def round_scores(hands: Sequence[Sequence[int]], out: int, doubled: bool) -> list[float]:
    """K-P1/K-P2: the player who went out scores 0; the others their points, doubled if
    the player going out laid down their whole hand in one go."""
    factor = 2 if doubled else 1
    return [0.0 if i == out else float(hand_points(h) * factor) for i, h in enumerate(hands)]


def places(scores: Sequence[float]) -> list[int]:
    """K-P3: lowest first; equal scores share the place."""
    return [1 + sum(1 for o in scores if o < s) for s in scores]
