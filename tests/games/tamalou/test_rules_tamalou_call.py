"""Tamalou! (R-A): the call at 5 points or less."""

from __future__ import annotations

from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import apply, legal_actions, next_deadline
from tamalou.games.tamalou.views import public_view, view

from .helpers import T0, c, draw_throw, game_with, has, legal_kinds, only, refused

LOW = ["Ac", "2c", "10c", "10d"]  # 3 points
HIGH = ["5c", "6c", "7c", "8c"]  # 26 points
ROWS = [LOW, HIGH, ["5d", "6d", "7d", "8d"]]


def test_r_a1_the_call_is_the_turn_no_draw() -> None:
    """R-A1: at the start of your turn you may call instead of drawing; the turn passes."""
    game = game_with(ROWS)
    pile = len(game.round.pile)
    ev = apply(game, A.CallTamalou(0, T0))
    called = only(ev, E.Called)
    assert called.player == 0 and called.to is None
    assert not has(ev, E.Drew) and len(game.round.pile) == pile
    assert only(ev, E.TurnStarted).player == 1


def test_r_a1_call_only_at_the_start_of_your_own_turn() -> None:
    """R-A1: not after drawing, not in someone else's turn."""
    game = game_with(ROWS)
    refused(game, A.CallTamalou(1, T0), "not_your_turn")
    apply(game, A.Draw(0, T0))
    refused(game, A.CallTamalou(0, T0), "call_at_start_only")


def test_r_a2_right_call_turns_the_cards_face_up_and_freezes() -> None:
    """R-A2: total <= 5: the caller's cards face up for everyone, for good; the caller is frozen."""
    game = game_with([["Ac", "2c", "2d", "10d"], *ROWS[1:]])  # exactly 5
    ev = apply(game, A.CallTamalou(0, T0))
    called = only(ev, E.Called)
    assert called.right and called.total == 5 and called.reveal_until is None
    assert called.cards == ((1, c("Ac")), (2, c("2c")), (3, c("2d")), (4, c("10d")))
    expected = {1: "Ac", 2: "2c", 3: "2d", 4: "10d"}
    for at in (T0, T0 + 10**6):
        assert public_view(game, at).seats[0].revealed == expected
    assert [s.card for s in view(game, 0).row] == ["Ac", "2c", "2d", "10d"]
    assert public_view(game).seats[0].frozen and public_view(game).caller == 0


def test_r_a3_frozen_caller_is_skipped_and_cannot_be_swapped() -> None:
    """R-A3: the frozen caller no longer plays, cannot double, nobody swaps with them."""
    game = game_with(ROWS, pile=["Qh"])
    apply(game, A.CallTamalou(0, T0))
    assert legal_actions(game, 0) == []
    refused(game, A.Draw(0, T0), "not_your_turn")
    apply(game, A.Draw(1, T0))
    apply(game, A.Throw(1, T0))  # seat 1 throws the Queen: it may swap with seat 2 only
    assert {a.target for a in legal_actions(game, 1) if isinstance(a, A.Swap)} == {2}
    refused(game, A.Swap(1, 1, 0, 1, T0), "target_frozen")


def test_r_a3_every_other_player_plays_one_last_turn_then_a_5_s_window() -> None:
    """R-A3: one last turn each, then a 5-second window for doubles, then the round ends."""
    game = game_with(ROWS, pile=["9h", "5h", "9s"])
    apply(game, A.CallTamalou(0, T0))
    draw_throw(game, T0 + 100)  # seat 1
    ev = draw_throw(game, T0 + 200)  # seat 2 throws the 5 of hearts
    window = only(ev, E.FinalWindow)
    assert window.until == T0 + 200 + 5_000
    assert game.round.phase == "final" and next_deadline(game) == T0 + 5_200
    assert legal_kinds(game, 1) == {"double"} and legal_actions(game, 0) == []
    refused(game, A.Draw(1, T0 + 300), "not_your_turn")
    ev = apply(game, A.Double(1, 1, game.round.discard_seqs[-1], T0 + 300))  # 5c on 5h
    assert has(ev, E.Doubled)
    assert apply(game, A.Tick(T0 + 5_199)) == []
    ended = only(apply(game, A.Tick(T0 + 5_200)), E.RoundEnded)
    assert ended.reason == "called" and ended.caller == 0
    assert ended.totals[1] == 21  # the doubled 5 left the row


def test_r_a3_nobody_else_may_call() -> None:
    """R-A3: after a right call nobody else may announce Tamalou."""
    game = game_with([LOW, ["Ad", "2d", "10h", "10s"], HIGH])
    apply(game, A.CallTamalou(0, T0))
    assert "call" not in legal_kinds(game, 1)
    refused(game, A.CallTamalou(1, T0), "already_called")


def test_r_a4_wrong_call_reveals_5_s_penalty_card_and_turn_passes() -> None:
    """R-A4: total > 5: cards shown to all for 5 s, then hidden; a penalty card; the turn passes."""
    game = game_with([HIGH, LOW, ["5d", "6d", "7d", "8d"]], pile=["Kh"])
    ev = apply(game, A.CallTamalou(0, T0))
    called = only(ev, E.Called)
    assert not called.right and called.total == 26 and called.reveal_until == T0 + 5_000
    penalty = only(ev, E.PenaltyCard)
    assert (penalty.player, penalty.slot, penalty.reason) == (0, 5, "failed_call")
    assert game.round.seats[0].row[4] == c("Kh")
    assert not game.round.seats[0].frozen and game.round.caller is None
    shown = {1: "5c", 2: "6c", 3: "7c", 4: "8c"}
    for seat in range(3):
        assert view(game, seat, T0 + 4_999).public.seats[0].revealed == shown
        assert view(game, seat, T0 + 5_000).public.seats[0].revealed == {}
    assert [s.card for s in view(game, 0, T0 + 4_999).row] == ["5c", "6c", "7c", "8c", None]
    assert only(ev, E.TurnStarted).player == 1


def test_r_a4_you_may_announce_again_later() -> None:
    """R-A4: after a failed call you may announce again on a later turn."""
    game = game_with([HIGH, ["9d", "9h", "9s", "8d"], ["5d", "6d", "7d", "8h"]], pile=["Kh"])
    apply(game, A.CallTamalou(0, T0))
    draw_throw(game)
    draw_throw(game)
    assert game.round.current == 0 and "call" in legal_kinds(game, 0)
    assert not only(apply(game, A.CallTamalou(0, game.now)), E.Called).right
    assert game.round.seats[0].failed_calls == 2


def test_r_a5_call_on_your_very_first_turn() -> None:
    """R-A5: the very first turn of the round may be a call (a bet on two unseen cards)."""
    game = game_with(ROWS, first=0)
    assert game.round.turn_started == T0
    assert "call" in legal_kinds(game, 0)
    assert only(apply(game, A.CallTamalou(0, T0)), E.Called).right
