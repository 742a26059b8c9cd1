"""The ``hard`` player: determinized rollouts over hidden cards (stub, filled in below)."""

from __future__ import annotations

from tamalou.ai.policy import MEDIUM, HeuristicPlayer
from tamalou.rules import Rules


class SearchPlayer(HeuristicPlayer):
    level = "hard"

    def __init__(
        self,
        seat: int,
        rules: Rules,
        seed: int | str,
        budget_ms: float | None = 50.0,
        max_iterations: int | None = None,
    ) -> None:
        super().__init__(seat, rules, seed, MEDIUM, level="hard")
        self.budget_ms = budget_ms
        self.max_iterations = max_iterations
