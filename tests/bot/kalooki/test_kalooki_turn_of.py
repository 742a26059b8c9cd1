"""Kalooki's ``turn_of``, the turn the presenter pings: the human seat to play, a key new at
each turn started and kept through it (K-T1, K-CL4), None when an AI plays."""

from __future__ import annotations

import json

from bot.games.kalooki import PLUGIN
from bot.storage.display_state import _tuples
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki.engine import step
from tamalou.games.kalooki.scripted import card, forced_game
from tests.support.live_tables import live_table

AFTER_WINDOW = 10_000
HANDS = [["2c", "3d", "4h"], ["5c", "6d", "7h"], ["8c", "9d", "10h"]]


def test_the_turn_key_is_new_at_each_turn_the_same_within_it_and_none_for_an_ai() -> None:
    game = forced_game(
        HANDS, pile=["Ah", "Ad", "As", "Kd"], discard=["7s"], first=0, ai=[False, False, True]
    )
    table = live_table(game)
    first = PLUGIN.turn_of(table, 0)
    assert first is not None and first[0] == 0
    step(game, A.Call(1, at=100))  # seat 1 calls: seat 0 still has to answer
    assert PLUGIN.turn_of(table, 100) == first
    step(game, A.Draw(0, AFTER_WINDOW))
    assert PLUGIN.turn_of(table, AFTER_WINDOW) == first
    step(game, A.Discard(0, card("2c"), AFTER_WINDOW))
    second = PLUGIN.turn_of(table, AFTER_WINDOW)
    assert second is not None and second[0] == 1 and second != first
    step(game, A.Draw(1, 2 * AFTER_WINDOW))
    step(game, A.Discard(1, card("5c"), 2 * AFTER_WINDOW))
    assert game.round.current == 2 and PLUGIN.turn_of(table, 2 * AFTER_WINDOW) is None  # AI


def test_the_stored_key_reads_back_equal() -> None:
    """A restart compares the stored turn (JSON) with the live one: same turn, no ping."""
    game = forced_game(HANDS, pile=["Ah", "Ad"], discard=["7s"], first=1)
    turn = PLUGIN.turn_of(live_table(game), 0)
    assert turn is not None and _tuples(json.loads(json.dumps(turn))) == turn
