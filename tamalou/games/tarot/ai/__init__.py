"""Tarot AI players by level, seeded, learning only from their own view and stream.

player = make_player("medium", seat=1, rules=TAROT, seed="table-42:1")
player.observe(events)                  # every event, in order (it filters)
action = player.act(view, legal, at)    # None: nothing to do now
"""

from __future__ import annotations

from tamalou.games.tarot.ai.hard import HardPlayer
from tamalou.games.tarot.ai.policy import (
    EASY,
    MEDIUM,
    AIPlayer,
    HeuristicPlayer,
    RandomPlayer,
    Style,
)
from tamalou.games.tarot.rules import Rules

LEVELS: tuple[str, ...] = ("random", "easy", "medium", "hard")


def make_player(
    level: str, seat: int, rules: Rules, seed: int | str, *, budget_ms: float | None = None
) -> AIPlayer:
    """A new AI player for ``seat``. ``hard`` searches a bounded number of simulated plays
    (deterministic); ``budget_ms`` also caps it by the clock (the bot's players)."""
    if level == "random":
        return RandomPlayer(seat, rules, seed)
    if level == "easy":
        return HeuristicPlayer(seat, rules, seed, EASY, level="easy")
    if level == "medium":
        return HeuristicPlayer(seat, rules, seed, MEDIUM, level="medium")
    if level == "hard":
        return HardPlayer(seat, rules, seed, budget_ms=budget_ms)
    raise ValueError(f"unknown AI level {level!r}; expected one of {', '.join(LEVELS)}")


__all__ = [
    "LEVELS",
    "AIPlayer",
    "HardPlayer",
    "HeuristicPlayer",
    "RandomPlayer",
    "Style",
    "make_player",
]
