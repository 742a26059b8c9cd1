"""A match replayed from its log: the one fold of its actions every reader uses (the table
service at a restart, seasons, tournaments, the test harnesses). The log is the truth; the
state is what it folds to (DESIGN, "Game protocol")."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tamalou.core.protocol import GameModule


def replay(
    module: GameModule,
    rules: Any,
    players: int,
    seed: str | int,
    started_at: int,
    ai: Sequence[bool],
    payloads: Iterable[dict[str, Any]],
    each: Callable[[list[Any]], None] | None = None,
) -> tuple[Any, list[Any]]:
    """The match's state after every action of ``payloads`` (the log's rows, in order), and
    its events. ``each``: given the events of the deal and of each action as they come, and
    then none are kept (a restart feeds them on and needs no list of a whole match).

    Raises what the module raises for a row that is not an action (``ValueError``) or an
    action the engine refuses (``IllegalAction``)."""
    state, events = module.new_game(rules, players, seed, started_at, list(ai))
    kept: list[Any] = []
    for batch in _batches(module, state, events, payloads):
        if each is None:
            kept.extend(batch)
        else:
            each(batch)
    return state, kept


def _batches(
    module: GameModule, state: Any, first: list[Any], payloads: Iterable[dict[str, Any]]
) -> Iterable[list[Any]]:
    yield first
    for payload in payloads:
        yield module.apply(state, module.action_from_log(payload))
