"""Which Kalooki moves an earlier press could still change (``contested``): only those
wait the table's reorder window (K-CL3; docs/architecture.md, "Ordering")."""

from __future__ import annotations

import pytest

from tamalou.core.errors import IllegalAction
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki.engine import contested

from .helpers import AFTER_WINDOW, card, forced_game, play

T = AFTER_WINDOW
HANDS = [["2c", "3d", "4h"], ["5c", "6d", "7h"], ["8c", "9d", "10h"]]


def test_k_cl3_a_call_is_always_contested() -> None:
    """K-CL3: several callers: the earliest press wins, so every call waits for earlier ones."""
    g = forced_game(HANDS, pile=["Ah", "Ad"], discard=["7s"], first=0)
    assert contested(g, A.Call(1, card("7s"), 100))


def test_k_k2_the_draw_races_the_calls_while_the_discard_is_live() -> None:
    """K-K2: calls stay open until the current player's draw, and the two race by press
    time: the draw (from the pile or the discard) waits for earlier calls."""
    g = forced_game(HANDS, pile=["Ah", "Ad"], discard=["7s"], first=0)
    assert contested(g, A.Draw(0, T))
    assert contested(g, A.TakeDiscard(0, T))


def test_q2_k_k2_with_nobody_to_call_the_draw_is_not_contested() -> None:
    """Q2, K-K2: at two players the only other seat discarded the top: nobody may call, the
    window is skipped and the draw is the current player's alone."""
    g = forced_game(HANDS[:2], pile=["Ah", "Ad"], discard=["7s"], first=0)
    assert not contested(g, A.Draw(0, T))


def test_k_t1_after_the_draw_nobody_else_may_act() -> None:
    """K-T1, K-CL2: once the current player drew, the discard is dead and no call is
    possible: their lays and their discard need not wait."""
    g = forced_game(HANDS, pile=["Ah", "Ad"], discard=["7s"], first=0)
    play(g, A.Draw(0, T))
    assert not contested(g, A.Discard(0, card("2c"), T + 100))
    assert not contested(g, A.LayDown(0, ((3, (card("2c"),)),), T + 100))


def test_k_cl4_answering_a_pending_call_is_not_contested() -> None:
    """K-CL4: with a call pending only the current player acts (allow by drawing, refuse by
    taking the discard); any other call is too late whenever it was pressed."""
    g = forced_game(HANDS, pile=["Ah", "Ad"], discard=["7s"], first=0)
    play(g, A.Call(1, card("7s"), 100))
    assert g.round.pending_call == 1
    assert not contested(g, A.Draw(0, T))
    assert not contested(g, A.TakeDiscard(0, T))


def test_k_cl2_a_call_pressed_before_the_discard_is_refused_in_either_order() -> None:
    """K-CL2: why the discard that opens a call window need not wait. A call pressed before
    the card landed is refused before the discard (the turn's player had drawn: the top was
    dead) and after it (stamped before the card landed), so the order cannot change it."""
    g = forced_game(HANDS, pile=["Ah", "Ad", "As"], discard=["7s"], first=0)
    play(g, A.Draw(0, T))
    early = A.Call(2, None, T + 999)
    with pytest.raises(IllegalAction, match="too_late"):
        play(g, early)  # in press order: before the discard
    play(g, A.Discard(0, card("2c"), T + 1_000))
    with pytest.raises(IllegalAction, match="too_late"):
        play(g, early)  # arrived after it: still refused by its stamp
    assert g.round.pending_call is None and g.round.live


def test_a_press_by_a_seat_not_to_act_is_contested() -> None:
    """Refused now, it may be that seat's turn once an earlier press lands: it waits."""
    g = forced_game(HANDS, pile=["Ah", "Ad"], discard=["7s"], first=0)
    play(g, A.Draw(0, T))
    assert contested(g, A.Draw(1, T + 100))


def test_the_next_round_is_contested_any_seat_may_start_it() -> None:
    g = forced_game(HANDS, pile=["Ah", "Ad"], discard=["7s"], first=0)
    g.round.phase = "over"
    assert contested(g, A.NextRound(2, T))
