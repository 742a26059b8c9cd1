"""One replay of a match from its log (``tamalou.core.replay``), for every registered game:
the log folds back to the very match, its events included (the log is the truth)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tamalou.core.drivers import random_playout
from tamalou.core.replay import replay
from tamalou.games import game_ids, load


class Logged:
    """The game module, with every applied action written to a log as the bot writes it."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.log: list[dict[str, Any]] = []
        self.events: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.module, name)

    def apply(self, state: Any, action: Any) -> list[Any]:
        events = self.module.apply(state, action)  # a refusal is raised: nothing logged
        self.log.append(self.module.action_to_dict(action))
        self.events.extend(events)
        return events


@pytest.mark.parametrize("game_id", game_ids())
def test_a_match_replayed_from_its_log_is_the_match(game_id: str) -> None:
    module = load(game_id)
    rules = module.PRESETS[module.DEFAULT_PRESET]
    players, ai = 3, [False, True, False]
    state, first = module.new_game(rules, players, "replay", 0, ai)
    logged = Logged(module)
    random_playout(logged, state, players, random.Random(5), max_actions=300)  # type: ignore[arg-type]
    assert logged.log
    again, events = replay(module, rules, players, "replay", 0, ai, logged.log)
    assert events == first + logged.events
    at = module.now(state)
    assert module.public_view(again, at) == module.public_view(state, at)
    for seat in range(players):
        assert module.view(again, seat, at) == module.view(state, seat, at)
    fed: list[list[Any]] = []
    replay(module, rules, players, "replay", 0, ai, logged.log, fed.append)
    assert [e for batch in fed for e in batch] == events  # given as they come, none kept
