"""AI players that fill seats, play fair from their own view, and come in levels.

    player = make_player("medium", seat=1, rules=TAMALOU, seed="table-42:1")
    player.observe(events)                      # every event, in order (it filters)
    action = player.decide(view, legal, at)     # None: nothing to do now
    double = player.wants_double(view, at)      # a double it is sure of, or None

See docs/ai.md for the levels and how to rebuild a player after a restart.
"""

from __future__ import annotations

from tamalou.games.tamalou.ai.policy import (
    EASY,
    MEDIUM,
    AIPlayer,
    HeuristicPlayer,
    RandomPlayer,
    Style,
)
from tamalou.games.tamalou.ai.search import BUDGET_MS, SearchPlayer
from tamalou.games.tamalou.rules import Rules

LEVELS = ("random", "easy", "medium", "hard")


def make_player(
    level: str,
    seat: int,
    rules: Rules,
    seed: int | str,
    *,
    budget_ms: float | None = BUDGET_MS,
    max_iterations: int | None = None,
) -> AIPlayer:
    """A new AI player for ``seat``. ``hard`` searches within ``budget_ms`` per decision and
    at most ``max_iterations`` rollouts (set ``budget_ms=None`` for a deterministic search)."""
    if level == "random":
        return RandomPlayer(seat, rules, seed)
    if level == "easy":
        return HeuristicPlayer(seat, rules, seed, EASY, level="easy")
    if level == "medium":
        return HeuristicPlayer(seat, rules, seed, MEDIUM, level="medium")
    if level == "hard":
        return SearchPlayer(seat, rules, seed, budget_ms=budget_ms, max_iterations=max_iterations)
    raise ValueError(f"unknown AI level {level!r}; expected one of {', '.join(LEVELS)}")


__all__ = [
    "LEVELS",
    "AIPlayer",
    "HeuristicPlayer",
    "RandomPlayer",
    "SearchPlayer",
    "Style",
    "make_player",
]
