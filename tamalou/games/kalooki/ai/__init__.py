"""Kalooki AI players by level, seeded, from their own view and stream only.

player = make_player("medium", seat=1, rules=KALOOKI, seed="table-42:1")
player.observe(events)                 # every event of its stream, in order
action = player.act(view, legal, at)   # None: nothing to do now
"""

from __future__ import annotations

from tamalou.games.kalooki.ai.hard import HardPlayer
from tamalou.games.kalooki.ai.policy import HeuristicPlayer, RandomPlayer
from tamalou.games.kalooki.rules import Rules

LEVELS = ("random", "easy", "medium", "hard")

AIPlayer = RandomPlayer | HeuristicPlayer | HardPlayer


def make_player(level: str, seat: int, rules: Rules, seed: int | str) -> AIPlayer:
    if level == "random":
        return RandomPlayer(seat, rules, seed)
    if level in ("easy", "medium"):
        return HeuristicPlayer(seat, rules, seed, level)
    if level == "hard":
        return HardPlayer(seat, rules, seed)
    raise ValueError(f"unknown AI level {level!r}; expected one of {', '.join(LEVELS)}")


__all__ = ["LEVELS", "AIPlayer", "HardPlayer", "HeuristicPlayer", "RandomPlayer", "make_player"]
