"""Whose turn it is and which turn (``engine.turn``): the key a turn ping is kept under. A
new key at each bid (T-B2), the King's call (T-5.1), the écart (T-B5), the chelem window
(T-A1) and each card (T-P1); a poignée (T-A2) is shown within a turn; none between deals
or after the match."""

from __future__ import annotations

import random
from typing import Any

import pytest

import tamalou.games.tarot as T
from tamalou.core.drivers import random_playout
from tamalou.games.tarot import actions as A
from tamalou.games.tarot import events as E
from tamalou.games.tarot.engine import new_game, poignee_options, turn
from tamalou.games.tarot.rules import GARDE_SANS, TAROT, TAROT5
from tamalou.games.tarot.state import Game

from .helpers import dealt, play_out, take, trumps


@pytest.mark.parametrize(
    ("rules", "players", "step_ms"),
    [(TAROT, 4, (200, 3_000)), (TAROT, 4, (0, 0)), (TAROT5, 5, (0, 0))],
    ids=["clock", "same_ms", "five_players"],
)
def test_a_turn_started_gets_a_key_never_seen_and_keeps_it_until_the_next(
    rules: Any, players: int, step_ms: tuple[int, int]
) -> None:
    """``same_ms``: every action at one moment, so turns start at the same time; the key
    still changes (it counts the turns, not the clock)."""
    game, _ = new_game(rules.model_copy(update={"rounds": 2}), players, "turn-key", 0)
    first = turn(game)
    assert first is not None and first[0] == game.deal.current
    keys: list[Any] = [first]
    phases: set[str] = set()

    def check(state: Game, events: list[Any]) -> None:
        now = turn(state)
        started = [e for e in events if isinstance(e, E.TurnStarted)]
        if state.over or state.deal.phase == "over":
            assert now is None
        elif started:
            assert now is not None and now[0] == started[-1].player == state.deal.current
            assert now not in keys
            keys.append(now)
            phases.add(started[-1].phase)
        else:
            assert now == keys[-1]

    random_playout(
        T, game, players, random.Random(2), max_actions=3_000, step_ms=step_ms, check=check
    )
    assert game.over and turn(game) is None
    assert {"bid", "play"} <= phases


def test_t_a2_a_poignee_is_shown_within_the_turn_and_no_turn_after_the_deal() -> None:
    game = dealt([trumps(*range(1, 14)), [], [], []])  # seat 0 speaks and leads first
    take(game, 0, GARDE_SANS)  # no dog shown: the chelem window is the taker's turn
    window = turn(game)
    assert game.deal.phase == "chelem" and window is not None and window[0] == 0
    T.apply(game, A.Chelem(0, False, game.now))
    start = turn(game)
    assert game.deal.phase == "play" and start is not None and start[0] == 0
    assert start != window
    T.apply(game, A.Poignee(0, poignee_options(game, 0)[0], game.now))
    assert turn(game) == start
    play_out(game)
    assert game.deal.phase == "over" and turn(game) is None
