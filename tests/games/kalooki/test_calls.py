"""K-CL: calls on the discard, out of turn, and their races."""

from __future__ import annotations

import pytest

from tamalou.core.errors import IllegalAction
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.engine import legal_actions
from tamalou.games.kalooki.rules import SET
from tamalou.games.kalooki.views import view

from .helpers import AFTER_WINDOW, card, forced_game, kinds, place_melds, play

T = AFTER_WINDOW
HANDS = [["2c", "3d", "4h"], ["5c", "6d", "7h"], ["8c", "9d", "10h"], ["Jc", "Qd", "Kh"]]


def test_k_cl1_who_may_call() -> None:
    # seat 0 plays first; the dealer (seat 3) "discarded" the up-card 7s (K-S3)
    g = forced_game(HANDS, pile=["Ah", "Ad"], discard=["7s"], first=0)
    place_melds(g, [(2, SET, ["9c", "9s", "9h"])])
    assert legal_actions(g, 1, 100) == [A.Call(1, card("7s"), 100)]
    with pytest.raises(IllegalAction, match="your_turn"):
        play(g, A.Call(0, at=100))
    with pytest.raises(IllegalAction, match="laid_down"):
        play(g, A.Call(2, at=100))
    with pytest.raises(IllegalAction, match="own_upcard"):
        play(g, A.Call(3, at=100))  # the up-card counts as the dealer's discard (K-S3)
    g.round.seats[1].calls = 3
    with pytest.raises(IllegalAction, match="call_limit"):
        play(g, A.Call(1, at=100))


def test_k_cl2_a_discard_is_live_until_the_draw_and_dead_once_uncovered() -> None:
    g = forced_game(HANDS[:3], pile=["Ah", "Ad", "As"], discard=["5s", "7s"], first=0)
    play(g, A.Draw(0, T))
    with pytest.raises(IllegalAction, match="too_late"):
        play(g, A.Call(1, at=T + 1))
    # uncovered by a call: dead, the current player may not take it, nobody may call it
    g = forced_game(HANDS[:3], pile=["Ah", "Ad", "As"], discard=["5s", "7s"], first=0)
    play(g, A.Call(1, at=100))
    play(g, A.Draw(0, 200))  # allows the call, then draws
    assert g.round.discard == [card("5s")] and not g.round.live
    assert not any(a.kind == "take_discard" for a in legal_actions(g, 0, T))


def test_k_cl2_a_call_stamped_before_the_discard_landed_is_refused() -> None:
    """K-CL2: a card not yet landed cannot be called. The engine judges by the call's own
    time, even when the game's clock has moved past it and the call names no card."""
    g = forced_game(HANDS[:3], pile=["Ah", "Ad", "As"], discard=["7s"], first=0)
    play(g, A.Draw(0, T))
    play(g, A.Discard(0, card("2c"), T + 1_000))  # 2♣ lands at T + 1000, seat 1 is current
    with pytest.raises(IllegalAction, match="too_late"):
        play(g, A.Call(2, at=T + 999))  # meant for the card before: refused
    assert g.round.pending_call is None and g.round.live
    play(g, A.Call(2, at=T + 1_000))  # stamped when it landed: live
    assert g.round.pending_call == 2


def test_k_cl1_a_players_own_discard_cannot_be_called() -> None:
    g = forced_game(HANDS[:3], pile=["Ah", "Ad", "As"], discard=["7s"], first=0)
    play(g, A.Draw(0, T))
    play(g, A.Discard(0, card("2c"), T + 1))
    with pytest.raises(IllegalAction, match="own_discard"):
        play(g, A.Call(0, at=T + 2))


def test_k_cl3_the_first_call_applied_wins_later_ones_are_too_late() -> None:
    # the platform applies calls in interaction-time order; the engine keeps the first
    g = forced_game(HANDS, pile=["Ah", "Ad"], discard=["7s"], first=0)
    play(g, A.Call(2, at=100))
    with pytest.raises(IllegalAction, match="too_late"):
        play(g, A.Call(1, at=100))
    assert g.round.pending_call == 2
    assert view(g, 0, 100).legal == ["draw", "take_discard"]  # allow or refuse


def test_k_cl4_allow_gives_the_caller_the_card_and_a_penalty_card() -> None:
    g = forced_game(HANDS, pile=["Ah", "Ad"], discard=["7s"], first=0)
    play(g, A.Call(1, at=100))
    events = play(g, A.Draw(0, 200))
    assert kinds(events) == [
        "call_allowed",
        "penalty_card",
        "drew",
        "drawn_card",
    ]
    caller = g.round.seats[1]
    assert card("7s") in caller.hand and card("Ah") in caller.hand and caller.calls == 1
    assert card("Ad") in g.round.seats[0].hand
    penalty = next(e for e in events if isinstance(e, E.PenaltyCard))
    assert penalty.to == (1,)  # the penalty card is the caller's secret
    assert g.round.current == 0 and g.round.stage == "play"  # the caller lays nothing


def test_k_cl4_refuse_takes_the_discard_as_the_draw_and_the_call_does_not_count() -> None:
    g = forced_game(HANDS, pile=["Ah", "Ad"], discard=["7s"], first=0)
    play(g, A.Call(1, at=100))
    events = play(g, A.TakeDiscard(0, 200))
    assert kinds(events) == ["call_refused", "drew"]
    assert card("7s") in g.round.seats[0].hand and g.round.seats[1].calls == 0


def test_k_cl5_a_fourth_allowed_call_is_refused() -> None:
    g = forced_game(HANDS, pile=["Ah", "Ad"], discard=["7s"], first=0)
    g.round.seats[1].calls = 2
    play(g, A.Call(1, at=100))
    play(g, A.Draw(0, 200))
    assert g.round.seats[1].calls == 3
    play(g, A.Discard(0, card("2c"), 300))
    play(g, A.Draw(1, T))  # seat 1's own turn
    play(g, A.Discard(1, card("5c"), T))
    play(g, A.Draw(2, 2 * T))
    play(g, A.Discard(2, card("8c"), 2 * T))  # seat 1 is neither current nor discarder
    with pytest.raises(IllegalAction, match="call_limit"):  # K-X1: no 50-point fine, refused
        play(g, A.Call(1, at=T + 10))


def test_k_cl6_a_laid_down_current_player_allows_at_once() -> None:
    g = forced_game(HANDS, pile=["Ah", "Ad"], discard=["7s"], first=0)
    place_melds(g, [(0, SET, ["9c", "9s", "9h"])])
    events = play(g, A.Call(1, at=100))
    assert kinds(events) == ["call_allowed", "penalty_card"]
    assert isinstance(events[0], E.CallAllowed) and events[0].automatic
    assert card("7s") in g.round.seats[1].hand


def test_k_cl_q2_two_players_never_call() -> None:
    g = forced_game(HANDS[:2], pile=["Ah"], discard=["7s"], first=0)
    assert legal_actions(g, 1, 100) == []
    assert g.round.draw_at == 0  # K-K2: nobody may call, no window


def test_k_cl2_a_late_call_naming_a_card_already_taken_is_too_late() -> None:
    # the call was meant for 7s; by the time it is applied a new card is on the discard
    g = forced_game(HANDS[:3], pile=["Ah", "Ad"], discard=["7s"], first=0)
    play(g, A.Draw(0, T))
    play(g, A.Discard(0, card("2c"), T))
    with pytest.raises(IllegalAction, match="too_late"):
        play(g, A.Call(2, card("7s"), T + 1))
    play(g, A.Call(2, card("2c"), T + 2))
    assert g.round.pending_call == 2


def test_k_s4_a_calls_penalty_card_is_seen_by_the_caller_only() -> None:
    g = forced_game(HANDS, pile=["Ah", "Ad"], discard=["7s"], first=0)
    play(g, A.Call(1, at=100))
    play(g, A.Draw(0, 200))
    assert card("Ah") in view(g, 1, 200).hand
    for seat in (0, 2, 3):
        seen = view(g, seat, 200)
        assert card("Ah") not in seen.hand and "Ah" not in seen.model_dump_json()
    assert view(g, 0, 200).public.seats[1].calls == 1  # calls used are public
