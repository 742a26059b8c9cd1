"""House presets, calls and doubles: R-X6..R-X11 (end-of-turn calls, call settings, the
automatic call of an empty row, contre, play for someone, open doubles)."""

from __future__ import annotations

from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import apply, legal_actions, next_deadline
from tamalou.games.tamalou.rules import (
    CABO,
    CLASSIQUE,
    DUTCH,
    DUTCH_ROI,
    DUTCH_SEC,
    SWISS,
    TAMALOU,
    TAMOUL,
)
from tamalou.games.tamalou.views import public_view, view

from .helpers import c, game_with, has, legal_kinds, only, refused

T0 = TAMALOU.peek_ms
HIGH = [["9c", "9d", "8c", "8d"], ["7c", "7d", "6c", "6d"], ["5c", "5d", "4c", "4d"]]


def _tick(game):  # type: ignore[no-untyped-def]
    return apply(game, A.Tick(next_deadline(game) or 0))


# -- R-X6 end-of-turn call ------------------------------------------------------------------


def test_r_x6_the_call_is_the_last_step_of_the_turn() -> None:
    """R-X6 (dutch): after keep/throw (and power) the player calls or ends the turn; no
    call at the start of the turn."""
    game = game_with(HIGH, pile=["2h", "3h"], rules=DUTCH)
    assert "call" not in legal_kinds(game, 0)
    refused(game, A.CallTamalou(0, T0), "call_at_end_only")
    apply(game, A.Draw(0, T0))
    apply(game, A.Throw(0, T0))
    assert game.round.stage == "call" and legal_kinds(game, 0) - {"double", "double_for"} == {
        "call",
        "end_turn",
    }
    ev = apply(game, A.EndTurn(0, T0 + 1))
    assert only(ev, E.TurnStarted).player == 1


def test_r_x7_an_unchecked_hidden_call_is_always_right() -> None:
    """R-X7 (dutch): no threshold, hidden: a total of 34 calls; nothing is shown; the caller
    is frozen and untargetable; the round ends when the turn is back to him."""
    game = game_with(HIGH, pile=["2h", "3h", "4h", "4s"], rules=DUTCH)
    apply(game, A.Draw(0, T0))
    apply(game, A.Throw(0, T0))
    ev = apply(game, A.CallTamalou(0, T0 + 1))
    hidden = only(ev, E.CalledHidden)
    assert (hidden.player, hidden.automatic, hidden.last_round) == (0, False, True)
    assert not has(ev, E.Called) and public_view(game).seats[0].revealed == {}
    assert game.round.seats[0].frozen and public_view(game).call_open is False
    apply(game, A.Draw(1, T0 + 2))
    apply(game, A.Throw(1, T0 + 2))
    apply(game, A.EndTurn(1, T0 + 2)) if game.round.stage == "call" else None
    assert game.round.current == 2
    apply(game, A.Draw(2, T0 + 3))
    ev = apply(game, A.Throw(2, T0 + 3))
    assert has(ev, E.FinalWindow)  # back to the caller: the round's last window (R-A3)


def test_r_x7_checked_hidden_call_tamoul() -> None:
    """R-X7 (tamoul ≤ 6.5, checked, hidden): right stays hidden; wrong is R-A4."""
    rows = [["Ac", "2c", "3c", "Kh"], *HIGH[1:]]  # 1 + 2 + 3 + 0.5 = 6.5
    game = game_with(rows, rules=TAMOUL)
    ev = apply(game, A.CallTamalou(0, T0))
    assert only(ev, E.CalledHidden).player == 0 and game.round.caller == 0
    rows = [["Ac", "2c", "3c", "Ah"], *HIGH[1:]]  # 7: wrong, shown, penalty card
    game = game_with(rows, rules=TAMOUL)
    ev = apply(game, A.CallTamalou(0, T0))
    called = only(ev, E.Called)
    assert not called.right and called.total == 7 and len(called.cards) == 4
    assert has(ev, E.PenaltyCard) and game.round.caller is None


def test_r_x7_cabo_wrong_call_voids_the_round() -> None:
    """R-V4/R-X7 (cabo): wrong → shown 5 s, the round is void: the caller 10, others 0."""
    game = game_with(HIGH, rules=CABO)
    ev = apply(game, A.CallTamalou(0, 10))
    assert not only(ev, E.Called).right
    ended = only(ev, E.RoundEnded)
    assert ended.reason == "void" and ended.scores == (10, 0, 0)
    assert ended.places == (3, 1, 1)  # a void round: the caller last, the others share first


def test_r_v4_r_x15_cabo_fines_stand_in_a_void_round() -> None:
    """R-V4, R-X13, R-X15 (cabo): a wrong call voids the round (the caller 10, others 0), but
    the 2-point fines for missed doubles come last and stand."""
    game = game_with(HIGH, discard=["2h"], rules=CABO)
    apply(game, A.Double(1, 1, 1, 10))  # 7♣ on 2♥: a miss, +2 (R-X13)
    apply(game, A.Double(0, 1, 1, 20))  # the caller missed too: +2
    ev = apply(game, A.CallTamalou(0, 30))
    ended = only(ev, E.RoundEnded)
    assert ended.reason == "void" and ended.scores == (12, 2, 0)
    assert ended.cumulative == (12, 2, 0)
    assert ended.places == (3, 1, 1)  # the round's places ignore the fines: nobody's total counts


def test_r_x7_classique_last_round_only_with_strictly_fewer_cards() -> None:
    """R-V5 (classique): a right caller gets a last round only with strictly fewer cards than
    each other player, else the round ends at once."""
    low = ["Ac", "2c", "10c", "10d"]
    game = game_with([low, *HIGH[1:]], rules=CLASSIQUE)
    ev = apply(game, A.CallTamalou(0, T0))
    assert not only(ev, E.Called).last_round and has(ev, E.RoundEnded)
    game = game_with([low[:3], *HIGH[1:]], rules=CLASSIQUE)
    ev = apply(game, A.CallTamalou(0, T0))
    assert only(ev, E.Called).last_round and only(ev, E.TurnStarted).player == 1


def test_r_x7_dutch_sec_call_ends_the_round_at_once() -> None:
    """R-V7 (dutch_sec): no last round, no window."""
    game = game_with(HIGH, rules=DUTCH_SEC)
    ev = apply(game, A.CallTamalou(0, T0))
    assert only(ev, E.CalledHidden).last_round is False
    assert only(ev, E.RoundEnded).reason == "called" and not has(ev, E.FinalWindow)


def test_r_x7_swiss_caller_is_neither_frozen_nor_protected() -> None:
    """R-V6 (swiss): the Dune caller plays no more turn, but may double and be targeted."""
    rows = [["9c", "9d", "8c", "8d"], ["7c", "7d", "6c", "6d"], ["5c", "5d", "4c", "4d"]]
    game = game_with(rows, pile=["2h", "Qh", "3h"], rules=SWISS)
    apply(game, A.Draw(0, T0))
    apply(game, A.Throw(0, T0))
    apply(game, A.CallTamalou(0, T0))
    assert not game.round.seats[0].frozen and game.round.current == 1
    apply(game, A.Draw(1, T0 + 1))
    apply(game, A.Throw(1, T0 + 1))  # a Queen: look any, the caller's cards included
    assert any(isinstance(a, A.Look) and a.target == 0 for a in legal_actions(game, 1))
    apply(game, A.Pass(1, T0 + 1))
    apply(game, A.EndTurn(1, T0 + 1)) if game.round.stage == "call" else None
    assert game.round.current == 2  # the caller is skipped


# -- R-X8 the automatic call of an empty row ---------------------------------------------------


def test_r_x8_cabo_an_emptied_row_calls_at_once() -> None:
    """R-X8 (cabo): no R-D8; the player who empties their row calls at once, unchecked; the
    turn in progress counts as its player's last."""
    rows = [["Ac", "2c", "3c", "4c"], ["9d"], ["5d", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["2h", "3h", "4h", "4s"], discard=["9h"], rules=CABO)
    ev = apply(game, A.Double(1, 1, 1, 10))
    assert not has(ev, E.RoundEnded)
    hidden = only(ev, E.CalledHidden)
    assert hidden.player == 1 and hidden.automatic and game.round.caller == 1
    assert game.round.turns_left == 2
    apply(game, A.Draw(0, 20))
    ev = apply(game, A.Throw(0, 20))
    assert only(ev, E.TurnStarted).player == 2  # seat 1 (the caller) is skipped
    apply(game, A.Draw(2, 30))
    ev = apply(game, A.Throw(2, 30))
    assert has(ev, E.FinalWindow)


def test_r_x8_dutch_an_emptied_row_plays_on_and_calls_at_the_end_of_its_turn() -> None:
    """R-X8 (dutch): you play on with no card (a drawn card can only be thrown) and call at
    the end of your own turn."""
    rows = [["Ac", "2c", "3c", "4c"], ["9d"], ["5d", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["2h", "3h", "4h", "4s"], discard=["9h"], rules=DUTCH)
    ev = apply(game, A.Double(1, 1, 1, T0))
    assert not has(ev, E.RoundEnded) and game.round.caller is None
    apply(game, A.Draw(0, T0 + 1))
    apply(game, A.Throw(0, T0 + 1))
    apply(game, A.EndTurn(0, T0 + 1))
    assert legal_kinds(game, 1) - {"double", "double_for"} == {"draw"}
    apply(game, A.Draw(1, T0 + 2))
    assert legal_kinds(game, 1) == {"throw"}
    ev = apply(game, A.Throw(1, T0 + 2))
    assert only(ev, E.CalledHidden).automatic and game.round.caller == 1


# -- R-X9 contre -------------------------------------------------------------------------------


def test_r_x9_contre_at_the_start_of_the_last_turn_and_only_the_first() -> None:
    """R-X9 (tamoul): after a right call another player may contre at the start of his last
    turn; he still plays it; only the round's first contre counts."""
    rows = [["Ac", "2c", "3c", "Kh"], ["Ad", "2d", "10d", "Kd"], HIGH[2]]
    game = game_with(rows, pile=["9h", "9s", "8h", "8s"], rules=TAMOUL)
    apply(game, A.CallTamalou(0, T0))
    assert "contre" in legal_kinds(game, 1)
    ev = apply(game, A.Contre(1, T0 + 1))
    assert only(ev, E.Contred).player == 1 and game.round.current == 1
    assert "draw" in legal_kinds(game, 1) and "contre" not in legal_kinds(game, 1)
    apply(game, A.Draw(1, T0 + 2))
    apply(game, A.Throw(1, T0 + 2))
    if game.round.stage == "power":
        apply(game, A.Pass(1, T0 + 2))
    refused(game, A.Contre(2, T0 + 3), "already_contred")


# -- R-X10 play for someone ----------------------------------------------------------------------


def test_r_x10_play_for_someone_hit_gives_your_card_face_down() -> None:
    """R-X10 (classique): throw another's card of the top's rank; your card goes face down,
    unseen by its new owner, into the emptied slot."""
    rows = [["Ac", "2c", "3c", "4c"], ["6c", "5c", "7c", "8c"], ["Jc", "6d", "7d", "8d"]]
    game = game_with(rows, discard=["5h"], rules=CLASSIQUE)
    ev = apply(game, A.DoubleFor(2, 1, 2, 1, 1, T0 + 10))
    hit = only(ev, E.DoubledFor)
    assert (hit.player, hit.target, hit.target_slot, hit.slot, hit.card) == (2, 1, 2, 1, c("5c"))
    assert game.round.seats[1].row[1] == c("Jc") and game.round.seats[2].row[0] is None
    assert view(game, 1).row[1].card is None
    assert public_view(game).discard_top == "5c"


def test_r_x10_play_for_someone_miss_shows_the_card_and_costs_you_the_penalty() -> None:
    rows = [["Ac", "2c", "3c", "4c"], ["6c", "5c", "7c", "8c"], ["Jc", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["9s"], discard=["5h"], rules=CLASSIQUE)
    ev = apply(game, A.DoubleFor(2, 1, 1, 1, 1, T0 + 10))
    missed = only(ev, E.DoubleMissed)
    assert (missed.player, missed.owner, missed.card, missed.reason) == (
        2,
        1,
        c("6c"),
        "wrong_rank",
    )
    assert only(ev, E.PenaltyCard).player == 2 and game.round.seats[1].row[0] == c("6c")


def test_r_x10_not_on_a_frozen_caller() -> None:
    low = ["Ac", "2c", "10c"]
    rows = [low, ["6c", "5c", "7c", "8c"], ["Jc", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["As", "9s"], rules=CLASSIQUE)
    apply(game, A.CallTamalou(0, T0))
    assert not [a for a in legal_actions(game, 1) if isinstance(a, A.DoubleFor) and a.target == 0]
    refused(game, A.DoubleFor(1, 0, 1, 1, game.round.seq or 1, T0 + 1), "no_such_card")


# -- R-X11 open doubles ---------------------------------------------------------------------------


def test_r_x11_every_double_of_the_rank_in_the_window_succeeds() -> None:
    """R-X11 (dutch_roi): a 3 s window; every card of its rank thrown in it succeeds, the turn
    player's included; the turn passes after the window."""
    rows = [["5s", "2c", "3c", "4c"], ["6c", "5c", "7c", "8c"], ["5d", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["5h", "9s"], rules=DUTCH_ROI)
    apply(game, A.Draw(0, T0))
    ev = apply(game, A.Throw(0, T0))
    opened = only(ev, E.WindowOpened)
    assert opened.until == T0 + 3_000 and public_view(game).window_until == T0 + 3_000
    seq = opened.seq
    assert has(apply(game, A.Double(2, 1, seq, T0 + 100)), E.Doubled)
    assert has(apply(game, A.Double(1, 2, seq, T0 + 200)), E.Doubled)
    assert has(apply(game, A.Double(0, 1, seq, T0 + 300)), E.Doubled)
    ev = _tick(game)
    assert has(ev, E.WindowClosed) and game.round.stage == "call"
    ev = apply(game, A.Double(2, 2, seq, game.now))
    assert only(ev, E.DoubleMissed).reason == "too_late"


def test_r_x11_claims_on_one_card_are_settled_by_priority_at_the_close() -> None:
    """R-X11: claims on one card are settled at the close: the turn player first, then seats
    from the next player; a losing claim is free."""
    rows = [["Ac", "2c", "3c", "4c"], ["6c", "5c", "7c", "8c"], ["Jc", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["5h", "9s"], rules=DUTCH_ROI)
    apply(game, A.Draw(1 - 1, T0))
    seq = only(apply(game, A.Throw(0, T0)), E.WindowOpened).seq
    apply(game, A.DoubleFor(2, 1, 2, 1, seq, T0 + 100))  # pressed first
    apply(game, A.DoubleFor(0, 1, 2, 3, seq, T0 + 200))  # the turn player: priority
    ev = _tick(game)
    hit = only(ev, E.DoubledFor)
    assert (hit.player, hit.target, hit.target_slot) == (0, 1, 2)
    assert only(ev, E.ClaimLost).player == 2 and not has(ev, E.PenaltyCard)
    assert game.round.seats[1].row[1] == c("3c")
