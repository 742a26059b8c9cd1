"""Tarot's ``turn_of``, the turn the presenter pings: the human seat to act (a bid, the
écart, a card: T-B2, T-B5, T-P1), a key new at each turn, None when an AI acts or the deal
is over."""

from __future__ import annotations

import json

from bot.games.tarot import PLUGIN
from bot.storage.display_state import _tuples
from tamalou.games.tarot import actions as A
from tamalou.games.tarot.cards import lowest_key
from tamalou.games.tarot.engine import apply, legal_actions, playable
from tamalou.games.tarot.rules import GARDE, PASS
from tamalou.games.tarot.scripted import forced_game
from tests.support.live_tables import live_table


def test_each_turn_has_a_new_key_none_for_an_ai_and_none_once_the_deal_is_over() -> None:
    game = forced_game([[], [], [], []], [], dealer=3, ai=[False, False, True, False])
    table = live_table(game)  # seat 0 speaks first, seat 2 is an AI
    keys = []
    for seat, bid in ((0, GARDE), (1, PASS)):
        turn = PLUGIN.turn_of(table, game.now)
        assert turn is not None and turn[0] == seat and turn not in keys
        keys.append(turn)
        apply(game, A.Bid(seat, bid, game.now))
    assert game.deal.current == 2 and PLUGIN.turn_of(table, game.now) is None  # the AI bids
    apply(game, A.Bid(2, PASS, game.now))
    apply(game, A.Bid(3, PASS, game.now))
    ecart = PLUGIN.turn_of(table, game.now)  # the taker's écart: one turn for all its cards
    assert game.deal.phase == "ecart" and ecart is not None and ecart[0] == 0
    assert ecart not in keys
    while game.deal.phase == "ecart":
        assert PLUGIN.turn_of(table, game.now) == ecart
        apply(game, next(a for a in legal_actions(game, 0) if isinstance(a, A.Discard)))
    keys.append(ecart)  # the chelem may be announced with the écart (T-A1): no window
    while game.deal.phase == "play":
        seat = game.deal.current
        turn = PLUGIN.turn_of(table, game.now)
        if seat == 2:
            assert turn is None
        else:
            assert turn is not None and turn[0] == seat and turn not in keys
            keys.append(turn)
        apply(game, A.Play(seat, min(playable(game, seat), key=lowest_key), game.now))
    assert PLUGIN.turn_of(table, game.now) is None


def test_the_stored_key_reads_back_equal() -> None:
    """A restart compares the stored turn (JSON) with the live one: same turn, no ping."""
    game = forced_game([[], [], [], []], [], dealer=3)
    turn = PLUGIN.turn_of(live_table(game), 0)
    assert turn is not None and _tuples(json.loads(json.dumps(turn))) == turn
