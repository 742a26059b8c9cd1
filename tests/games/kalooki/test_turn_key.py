"""Whose turn it is and which turn (``engine.turn``): the key a turn ping is kept under. A
new key at each turn started (K-T1), the same one through a call (K-CL4) and the call
window (K-K2), none between rounds or after the match."""

from __future__ import annotations

import random
from typing import Any

import pytest

import tamalou.games.kalooki as K
from tamalou.core.drivers import random_playout
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.arena import play_match
from tamalou.games.kalooki.engine import new_game, turn
from tamalou.games.kalooki.rules import BABY
from tamalou.games.kalooki.state import Game

from .helpers import AFTER_WINDOW, card, forced_game, play

HANDS = [["2c", "3d", "4h"], ["5c", "6d", "7h"], ["8c", "9d", "10h"]]


@pytest.mark.parametrize("step_ms", [(200, 3_000), (0, 0)], ids=["clock", "same_ms"])
def test_k_t1_a_turn_started_gets_a_key_never_seen_and_keeps_it_until_the_next(
    step_ms: tuple[int, int],
) -> None:
    """``same_ms``: every action at one moment, so turns start at the same time with the
    same deadline; the key still changes (it counts the turns, not the clock)."""
    game, _ = new_game(BABY, 3, "turn-key", 0)
    first = turn(game)
    assert first is not None and first[0] == game.round.current
    keys: list[Any] = [first]

    def check(state: Game, events: list[Any]) -> None:
        now = turn(state)
        started = [e for e in events if isinstance(e, E.TurnStarted)]
        if state.over or state.round.phase == "over":
            assert now is None
        elif started:
            assert now is not None and now[0] == started[-1].player == state.round.current
            assert now not in keys
            keys.append(now)
        else:
            assert now == keys[-1]

    random_playout(K, game, 3, random.Random(4), max_actions=1_500, step_ms=step_ms, check=check)
    assert len(keys) > 20


def test_k_cl4_a_call_waits_within_the_current_players_turn() -> None:
    g = forced_game(HANDS, pile=["Ah", "Ad", "As"], discard=["7s"], first=0)
    start = turn(g)
    assert start is not None and start[0] == 0
    play(g, A.Call(1, at=100))
    assert g.round.pending_call == 1 and turn(g) == start  # seat 1 is not to play
    play(g, A.Draw(0, AFTER_WINDOW))  # allows the call: still seat 0's turn
    assert turn(g) == start
    play(g, A.Discard(0, card("2c"), AFTER_WINDOW))
    after = turn(g)
    assert after is not None and after[0] == 1 and after != start


def test_no_turn_once_the_match_is_over() -> None:
    game = play_match(["medium", "medium"], BABY, "over")
    assert game.over and turn(game) is None
