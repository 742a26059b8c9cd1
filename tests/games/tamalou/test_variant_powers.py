"""House presets, powers and draws: R-V0's common ground, R-X1..R-X5, R-X12..R-X14.

Forced deals (``scripted.forced_game``); each test names the rule it proves.
"""

from __future__ import annotations

from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import apply, legal_actions, next_deadline
from tamalou.games.tamalou.rules import CABO, DUTCH, DUTCH_ROI, KOUBO, TAMALOU, TAMOUL
from tamalou.games.tamalou.views import public_view, view

from .helpers import c, game_with, has, legal_kinds, only, refused

T0 = TAMALOU.peek_ms
ROWS = [["Ac", "2c", "3c", "4c"], ["5c", "6c", "7c", "8c"], ["5d", "6d", "7d", "8d"]]


def _throw(game, at=None):  # type: ignore[no-untyped-def]
    p = game.round.current
    at = game.now if at is None else at
    return apply(game, A.Draw(p, at)) + apply(game, A.Throw(p, at))


# -- R-V0 common ground ---------------------------------------------------------------------


def test_r_v0_peek_shows_slots_1_and_2() -> None:
    """R-V0: the peek shows slots 1–2 (the near row), not 1 and 4."""
    game = game_with(ROWS, rules=KOUBO.model_copy(update={"ranks": TAMALOU.ranks}), play=False)
    ev = apply(game, A.Peek(0, 10))
    assert [s for s, _ in only(ev, E.PeekShown).cards] == [1, 2]
    assert [sv.card for sv in view(game, 0, 20).row] == ["Ac", "2c", None, None]


def test_r_v0_a_face_card_may_be_taken_from_the_discard() -> None:
    """R-V0: any discard top may be taken (no R-T2 ban)."""
    game = game_with(ROWS, discard=["Kh"], rules=TAMOUL)
    assert "take_discard" in legal_kinds(game, 0)
    ev = apply(game, A.TakeDiscard(0, T0))
    assert only(ev, E.Drew).card == c("Kh")


def test_r_v0_r_x5_a_replaced_card_gives_no_power() -> None:
    """R-V0/R-X5: only a card drawn from the pile and thrown at once gives its power."""
    game = game_with([["9c", *ROWS[0][1:]], *ROWS[1:]], pile=["Ah"], rules=TAMOUL)
    apply(game, A.Draw(0, T0))
    ev = apply(game, A.Replace(0, 1, T0))  # the 9 (blind swap in tamoul) goes to the discard
    assert not has(ev, E.PowerOffered) and game.round.current == 1
    game = game_with(ROWS, pile=["9h"], rules=TAMOUL)
    ev = _throw(game, T0)
    assert only(ev, E.PowerOffered).power == "blind_swap"


def test_r_v0_a_too_late_double_is_free() -> None:
    """R-V0/R-X13: a too-late double goes back free: no card, no R-D6 count."""
    rows = [["Ac", "2c", "3c", "4c"], ["6c", "5c", "7c", "8c"], ["5d", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["9h"], discard=["5h"], rules=TAMOUL)
    apply(game, A.Double(1, 2, 1, T0 + 10))
    ev = apply(game, A.Double(2, 1, 1, T0 + 20))
    assert only(ev, E.DoubleMissed).reason == "too_late"
    assert not has(ev, E.PenaltyCard)
    assert len(game.round.seats[2].row) == 4 and game.round.seats[2].misses == 0


def test_r_v0_a_used_power_is_not_transmitted() -> None:
    """R-V0: no R-P6 in the house presets."""
    game = game_with(ROWS, pile=["7h"], rules=TAMOUL)  # 7: look own
    _throw(game, T0)
    ev = apply(game, A.Look(0, 0, 3, T0))
    assert only(ev, E.TurnStarted).transmitted is None


# -- R-X1 look any, R-X2 swap any two -------------------------------------------------------


def test_r_x1_look_any_card_own_or_opponent_privately() -> None:
    """R-X1 (dutch Jack): one card of anyone, privately; all see which slot."""
    game = game_with(ROWS, pile=["Jh"], rules=DUTCH)
    _throw(game, T0)
    looks = {(a.target, a.slot) for a in legal_actions(game, 0) if isinstance(a, A.Look)}
    assert looks == {(t, s) for t in range(3) for s in range(1, 5)}
    ev = apply(game, A.Look(0, 2, 3, T0 + 1))
    assert only(ev, E.Looked).to is None
    shown = only(ev, E.LookShown)
    assert (shown.card, shown.to) == (c("7d"), (0,))
    assert view(game, 0).look == (2, 3, "7d", T0 + 1 + DUTCH.look_ms)
    assert view(game, 2).look is None and view(game, 1).look is None


def test_r_x2_swap_any_two_cards_of_two_other_players() -> None:
    """R-X2 (dutch Queen): two cards of two different players, unseen, slots public."""
    game = game_with(ROWS, pile=["Qh"], rules=DUTCH)
    _throw(game, T0)
    swaps = [a for a in legal_actions(game, 0) if isinstance(a, A.SwapTwo)]
    assert all(a.first != a.second for a in swaps)
    assert any(a.first == 1 and a.second == 2 for a in swaps)
    ev = apply(game, A.SwapTwo(0, 1, 1, 2, 2, T0 + 1))
    swapped = only(ev, E.SwappedTwo)
    assert (swapped.first, swapped.first_slot, swapped.second, swapped.second_slot) == (1, 1, 2, 2)
    assert swapped.to is None
    assert game.round.seats[1].row[0] == c("6d") and game.round.seats[2].row[1] == c("5c")
    assert not any(isinstance(e, E.LookShown | E.SwapShown | E.DrawnCard) for e in ev)
    assert all(sv.card is None for s in (0, 1, 2) for sv in view(game, s).row)
    refused(game, A.Double(2, 1, game.round.seq, T0 + 2), "doubles_paused")  # R-D7


def test_r_x2_swap_any_two_refuses_the_same_player() -> None:
    game = game_with(ROWS, pile=["Qh"], rules=DUTCH)
    _throw(game, T0)
    refused(game, A.SwapTwo(0, 1, 1, 1, 2, T0), "same_player")


# -- R-X3 look opponent, look-then-swap ------------------------------------------------------


def test_r_x3_look_opponent_only() -> None:
    """R-X3 (koubo 10): one opponent card, privately; not your own."""
    rows = [["Ac", "7c", "8c", "9c"], ["Ad", "7d", "8d", "9d"]]
    game = game_with(rows, pile=["10h"], rules=KOUBO)
    _throw(game, T0)
    targets = {a.target for a in legal_actions(game, 0) if isinstance(a, A.Look)}
    assert targets == {1}
    refused(game, A.Look(0, 0, 1, T0), "no_power")


def test_r_x3_look_then_swap_shows_the_target_both_cards_in_koubo() -> None:
    """R-X3 (koubo Queen): look at an opponent card, then swap it with one of yours; on a
    swap the target is shown both cards for 2 s, privately."""
    rows = [["Ac", "7c", "8c", "9c"], ["Ad", "7d", "8d", "9d"], ["As", "7s", "8s", "9s"]]
    game = game_with(rows, pile=["Qh"], rules=KOUBO)
    _throw(game, T0)
    apply(game, A.Look(0, 1, 3, T0 + 1))
    assert public_view(game).looked == (1, 3)
    assert legal_kinds(game, 0) == {"swap", "pass"}
    assert {(a.target, a.target_slot) for a in legal_actions(game, 0) if isinstance(a, A.Swap)} == {
        (1, 3)
    }
    refused(game, A.Swap(0, 1, 2, 1, T0 + 2), "not_the_looked_card")
    ev = apply(game, A.Swap(0, 4, 1, 3, T0 + 2))
    shown = only(ev, E.SwapShown)
    assert shown.to == (1,) and set(shown.cards) == {(1, 3, c("9c")), (0, 4, c("8d"))}
    v1 = view(game, 1, T0 + 3)
    assert v1.row[2].card == "9c" and (0, 4, "8d", T0 + 2 + KOUBO.swap_display_ms) in v1.glimpses
    assert view(game, 2, T0 + 3).glimpses == []
    assert view(game, 1, T0 + 2 + KOUBO.swap_display_ms).row[2].card is None  # 2 s only
    assert game.round.current == 1


def test_r_x3_look_then_swap_may_stop_after_the_look() -> None:
    rows = [["Ac", "7c", "8c", "9c"], ["Ad", "7d", "8d", "9d"]]
    game = game_with(rows, pile=["10h"], rules=TAMOUL)  # tamoul 10: look-then-swap
    _throw(game, T0)
    apply(game, A.Look(0, 1, 2, T0 + 1))
    ev = apply(game, A.Pass(0, T0 + 2))
    assert has(ev, E.PowerPassed) and game.round.seats[1].row[1] == c("7d")
    assert not has(ev, E.SwapShown)


def test_r_x3_no_swap_is_offered_once_the_looked_card_was_doubled_away() -> None:
    """R-X3 with R-D1: the looked card's owner doubles it away before the swap; its slot is
    empty, so no swap of it is offered (only the pass), and one sent is refused."""
    rows = [["Ac", "7c", "8c", "9c"], ["Ad", "10d", "8d", "9d"]]
    game = game_with(rows, pile=["10h"], rules=TAMOUL)  # tamoul 10: look-then-swap
    _throw(game, T0)
    apply(game, A.Look(0, 1, 2, T0 + 1))
    assert legal_kinds(game, 0) >= {"swap", "pass"}
    apply(game, A.Double(1, 2, game.round.seq, T0 + 2))
    assert game.round.seats[1].row[1] is None
    assert [a.kind for a in legal_actions(game, 0) if a.kind not in A.DOUBLE_KINDS] == ["pass"]
    refused(game, A.Swap(0, 1, 1, 2, T0 + 3), "empty_slot")
    assert has(apply(game, A.Pass(0, T0 + 3)), E.PowerPassed)


# -- R-X4 give the top, R-X5 must powers -----------------------------------------------------


def test_r_x4_r_x5_red_king_must_give_the_top_face_down() -> None:
    """R-X4/R-X5 (dutch_roi red King): the pile's top goes face down, seen by nobody, to the
    end of another player's row; it cannot be passed."""
    game = game_with(ROWS, pile=["Kh", "9s"], rules=DUTCH_ROI)
    _throw(game, T0)
    apply(game, A.Tick(next_deadline(game) or 0))  # the open-doubles window closes (R-X11)
    assert game.round.pending and legal_kinds(game, 0) == {"give_top"}
    refused(game, A.Pass(0, game.now), "power_must_be_used")
    ev = apply(game, A.GiveTop(0, 2, game.now))
    gave = only(ev, E.GaveTop)
    assert (gave.target, gave.slot, gave.to) == (2, 5, None)
    assert game.round.seats[2].row[4] == c("9s")
    assert all(view(game, s).row[-1].card is None for s in (2,))
    assert not any(isinstance(e, E.DrawnCard | E.LookShown) for e in ev)


def test_r_x4_a_black_king_has_no_power_in_dutch_roi() -> None:
    """R-X5: powers by rank and colour: the black King gives nothing."""
    game = game_with(ROWS, pile=["Ks"], rules=DUTCH_ROI)
    _throw(game, T0)
    ev = apply(game, A.Tick(next_deadline(game) or 0))
    assert not has(ev, E.PowerQueued) and game.round.stage == "call"


def test_r_x5_a_must_power_on_timeout_takes_the_first_choice() -> None:
    """R-X5: on timeout a *must* power takes the first legal choice: seats from the next
    player, slots ascending (dutch_roi Jack: swap any two)."""
    game = game_with(ROWS, pile=["Jh"], rules=DUTCH_ROI)
    _throw(game, T0)
    apply(game, A.Tick(next_deadline(game) or 0))
    assert game.round.pending[-1][1] == "swap_any"
    ev = apply(game, A.Tick(next_deadline(game) or 0))
    swapped = only(ev, E.SwappedTwo)
    assert (swapped.first, swapped.first_slot, swapped.second, swapped.second_slot) == (1, 1, 2, 1)
    assert only(ev, E.TimedOut).auto == "must"


# -- R-X12 doubled powers ---------------------------------------------------------------------


def test_r_x12_a_doubled_card_gives_its_power_to_its_thrower_first() -> None:
    """R-X12 (dutch): a doubled Jack gives look-any to the doubler, who uses it before the
    turn goes on; the turn clock waits meanwhile."""
    rows = [["Ac", "2c", "3c", "4c"], ["Jd", "6c", "7c", "8c"], ["5d", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["2h"], discard=["Jh"], rules=DUTCH)
    left = game.round.turn_deadline - (T0 + 1_000)
    ev = apply(game, A.Double(1, 1, 1, T0 + 1_000))
    assert only(ev, E.PowerQueued).player == 1
    assert {"look", "pass"} == legal_kinds(game, 1) - {"double", "double_for"}
    refused(game, A.Draw(0, T0 + 1_001), "power_pending")
    apply(game, A.Look(1, 2, 1, T0 + 3_000))
    assert game.round.turn_deadline == T0 + 3_000 + left
    assert "draw" in legal_kinds(game, 0)


# -- R-X13 draws and misses ---------------------------------------------------------------------


def test_r_x13_cabo_miss_costs_two_points_no_card_and_bars_the_card() -> None:
    """R-X13 (cabo): a miss costs +2 points, no card, and bars you from that discard card."""
    game = game_with(ROWS, discard=["9h"], rules=CABO)
    ev = apply(game, A.Double(1, 1, 1, 10))
    assert only(ev, E.DoubleMissed).reason == "wrong_rank"
    assert only(ev, E.Fined).points == 2 and not has(ev, E.PenaltyCard)
    assert game.round.seats[1].fines == 2 and len(game.round.seats[1].row) == 4
    refused(game, A.Double(1, 2, 1, 20), "barred_from_card")
    assert not [a for a in legal_actions(game, 1) if isinstance(a, A.Double)]


def test_r_x13_cabo_a_top_put_there_by_a_double_cannot_be_taken() -> None:
    rows = [["Ac", "2c", "3c", "4c"], ["9d", "6c", "7c", "8c"]]
    game = game_with(rows, discard=["9h"], rules=CABO)
    apply(game, A.Double(1, 1, 1, 10))
    assert "take_discard" not in legal_kinds(game, 0)
    refused(game, A.TakeDiscard(0, 20), "doubled_top")


def test_r_x13_dutch_roi_draws_from_the_pile_only() -> None:
    game = game_with(ROWS, discard=["2h"], rules=DUTCH_ROI)
    assert "take_discard" not in legal_kinds(game, 0)
    refused(game, A.TakeDiscard(0, T0), "pile_only")


# -- R-X14 long peek ----------------------------------------------------------------------------


def test_r_x14_cabo_has_no_peek_phase_and_the_peek_lasts_until_the_first_draw() -> None:
    """R-X14: no peek phase; your slots 1–2 stay viewable until your first draw or call."""
    game = game_with(ROWS, pile=["9h", "9s"], rules=CABO)
    assert game.round.phase == "play" and "draw" in legal_kinds(game, 0)
    assert [sv.card for sv in view(game, 1, 100_000).row] == ["5c", "6c", None, None]
    assert view(game, 1).peek_open
    apply(game, A.Draw(0, 10))
    assert [sv.card for sv in view(game, 0).row] == [None, None, None, None]
    assert view(game, 1).row[0].card == "5c"  # the others still see theirs


def test_r_x12_dutch_a_power_thrown_while_another_is_pending_resolves_first() -> None:
    """R-X12 (dutch): the turn player's Queen waits while a doubled Queen's power, thrown
    later, is used first."""
    rows = [["Ac", "2c", "3c", "4c"], ["Qd", "6c", "7c", "8c"], ["5d", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["Qh", "9s"], rules=DUTCH)
    _throw(game, T0)
    assert game.round.stage == "power" and game.round.power == "swap_any"
    ev = apply(game, A.Double(1, 1, game.round.seq, T0 + 100))
    assert only(ev, E.PowerQueued).player == 1
    refused(game, A.SwapTwo(0, 1, 2, 2, 2, T0 + 200), "power_pending")
    assert any(isinstance(a, A.SwapTwo) for a in legal_actions(game, 1))
    apply(game, A.SwapTwo(1, 0, 1, 2, 1, T0 + 300))
    assert not game.round.pending and game.round.stage == "power"
    ev = apply(game, A.SwapTwo(0, 1, 2, 2, 2, T0 + 2_400))
    assert has(ev, E.SwappedTwo) and game.round.stage == "call"


def test_r_x12_dutch_roi_doubled_powers_in_seat_order_at_the_close_turn_player_last() -> None:
    """R-X12 (dutch_roi): at the window's close, the other throwers in seat order from the
    next player, one use per card, then the turn player."""
    rows = [
        ["Qs", "2c", "3c", "4c"],
        ["5c", "6c", "7c", "8c"],
        ["Qd", "6d", "7d", "8d"],
        ["Qc", "2d", "3d", "4d"],
    ]
    game = game_with(rows, pile=["Qh", "9s"], rules=DUTCH_ROI)
    apply(game, A.Draw(0, T0))
    seq = only(apply(game, A.Throw(0, T0)), E.WindowOpened).seq
    apply(game, A.Double(3, 1, seq, T0 + 100))  # seat 3 first, by time
    apply(game, A.Double(0, 1, seq, T0 + 200))  # the turn player
    apply(game, A.Double(2, 1, seq, T0 + 300))
    ev = apply(game, A.Tick(next_deadline(game) or 0))
    queued = [e.player for e in ev if isinstance(e, E.PowerQueued)]
    assert queued == [2, 3, 0, 0]  # seats 2, 3, then the turn player's double and his card
    assert game.round.pending[-1][0] == 2
