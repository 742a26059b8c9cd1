"""A turn (R-T): draw, keep or throw, power, next player, empty draw pile."""

from __future__ import annotations

from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import apply
from tamalou.games.tamalou.rules import Rules
from tamalou.games.tamalou.views import public_view, view

from .helpers import (
    T0,
    c,
    crowded_rows,
    deck_counts,
    game_with,
    has,
    kinds,
    legal_kinds,
    only,
    refused,
)

ROWS = [["Ac", "2c", "3c", "4c"], ["5c", "6c", "7c", "8c"], ["5d", "6d", "7d", "8d"]]


def test_r_t1_start_of_turn_choices() -> None:
    """R-T1: before drawing: draw, take the discard, or announce Tamalou; others only double."""
    game = game_with(ROWS, pile=["9c"], discard=["9d"])
    assert legal_kinds(game, 0) == {"draw", "take_discard", "call", "double"}
    assert legal_kinds(game, 1) == {"double"}
    refused(game, A.Draw(1, T0), "not_your_turn")
    refused(game, A.CallTamalou(2, T0), "not_your_turn")


def test_r_t2_drawn_card_is_seen_by_the_drawer_only() -> None:
    """R-T2: the pile's top goes to the drawer, privately; others know only that they drew."""
    game = game_with(ROWS, pile=["9c", "10h"])
    ev = apply(game, A.Draw(0, T0 + 100))
    drew = only(ev, E.Drew)
    assert drew.to is None and drew.card is None and drew.source == "pile"
    private = only(ev, E.DrawnCard)
    assert private.to == (0,) and private.card == c("9c")
    assert view(game, 0).held == "9c"
    assert view(game, 1).held is None and view(game, 2).held is None
    assert "9c" not in public_view(game).model_dump_json()


def test_r_t2_take_the_discard_top_ace_to_ten() -> None:
    """R-T2: the discard top (A..10) can be taken; everybody saw it."""
    game = game_with(ROWS, discard=["Kh", "10h"])
    ev = apply(game, A.TakeDiscard(0, T0))
    drew = only(ev, E.Drew)
    assert drew.source == "discard" and drew.card == c("10h") and drew.to is None
    assert public_view(game).discard_top == "Kh"


def test_r_t2_face_cards_are_never_taken_from_the_discard() -> None:
    """R-T2: a Jack, Queen or King on the discard cannot be taken."""
    for face in ("Jh", "Qh", "Kh"):
        game = game_with(ROWS, discard=[face])
        assert "take_discard" not in legal_kinds(game, 0)
        refused(game, A.TakeDiscard(0, T0), "face_card_from_discard")


def test_r_t2_empty_discard_cannot_be_taken() -> None:
    """R-T2: nothing to take from an empty discard."""
    game = game_with(ROWS)
    assert "take_discard" not in legal_kinds(game, 0)
    refused(game, A.TakeDiscard(0, T0), "discard_empty")


def test_r_t3_keep_the_drawn_card_in_place_of_one_of_yours() -> None:
    """R-T3: the drawn card replaces a slot; the replaced card goes face up on the discard."""
    game = game_with(ROWS, pile=["9c"])
    apply(game, A.Draw(0, T0))
    ev = apply(game, A.Replace(0, 2, T0 + 10))
    rep = only(ev, E.Replaced)
    assert (rep.slot, rep.discarded, rep.kept) == (2, c("2c"), None)  # kept is secret
    assert game.round.seats[0].row[1] == c("9c")
    assert public_view(game).discard_top == "2c"
    assert only(ev, E.TurnStarted).player == 1


def test_r_t3_throw_the_drawn_card_on_the_discard() -> None:
    """R-T3: or throw the drawn card straight onto the discard."""
    game = game_with(ROWS, pile=["9c"])
    apply(game, A.Draw(0, T0))
    ev = apply(game, A.Throw(0, T0))
    assert only(ev, E.Threw).card == c("9c")
    assert [x for x in game.round.seats[0].row] == [c(x) for x in ROWS[0]]
    assert public_view(game).discard_top == "9c"


def test_r_t3_card_from_the_discard_must_be_kept() -> None:
    """R-T3: a card taken from the discard cannot be thrown back; it replaces one of yours."""
    game = game_with(ROWS, discard=["9h"])
    apply(game, A.TakeDiscard(0, T0))
    assert legal_kinds(game, 0) == {"replace"}
    refused(game, A.Throw(0, T0), "must_keep_discard")
    ev = apply(game, A.Replace(0, 4, T0))
    assert only(ev, E.Replaced).kept == c("9h")  # everybody saw it on the discard


def test_r_t3_no_second_draw_and_no_placing_before_drawing() -> None:
    """R-T3: one draw per turn; nothing to place before drawing."""
    game = game_with(ROWS, pile=["9c"], discard=["9h"])
    refused(game, A.Replace(0, 1, T0), "must_draw_first")
    refused(game, A.Throw(0, T0), "must_draw_first")
    apply(game, A.Draw(0, T0))
    refused(game, A.Draw(0, T0), "already_drawn")
    refused(game, A.TakeDiscard(0, T0), "already_drawn")
    refused(game, A.CallTamalou(0, T0), "call_at_start_only")
    refused(game, A.Replace(0, 5, T0), "bad_slot")


def test_r_t4_the_kept_card_is_face_down() -> None:
    """R-T4: once placed, the kept card is no longer shown, not even to its owner."""
    game = game_with(ROWS, pile=["9c"])
    apply(game, A.Draw(0, T0))
    assert view(game, 0).held == "9c"
    apply(game, A.Replace(0, 3, T0))
    assert view(game, 0).held is None
    assert view(game, 0).row[2].card is None
    assert game.round.seats[0].row[2] == c("9c")


def test_r_t5_thrown_face_card_offers_its_power() -> None:
    """R-T5: the thrown drawn card is a Queen: its power is offered (use or pass)."""
    game = game_with(ROWS, pile=["Qh"])
    apply(game, A.Draw(0, T0))
    ev = apply(game, A.Throw(0, T0))
    assert only(ev, E.PowerOffered).power == "blind_swap"
    assert legal_kinds(game, 0) == {"swap", "pass"}
    ev = apply(game, A.Pass(0, T0))
    assert only(ev, E.PowerPassed).power == "blind_swap"
    assert only(ev, E.TurnStarted).player == 1


def test_r_t5_replaced_face_card_offers_its_power() -> None:
    """R-T5: the card of your row you replaced is a King: its power is offered."""
    game = game_with([["Kc", "2c", "3c", "4c"], *ROWS[1:]], discard=["9h"])
    apply(game, A.TakeDiscard(0, T0))
    ev = apply(game, A.Replace(0, 1, T0))
    assert only(ev, E.PowerOffered).power == "look_own"
    assert game.round.current == 0 and game.round.stage == "power"


def test_r_t5_no_power_for_a_plain_card() -> None:
    """R-T5: A..10 have no power: the turn passes at once."""
    game = game_with(ROWS, pile=["9s"])
    apply(game, A.Draw(0, T0))
    ev = apply(game, A.Throw(0, T0))
    assert not has(ev, E.PowerOffered)
    assert only(ev, E.TurnStarted).player == 1
    refused(game, A.Pass(1, T0), "no_power")


def test_r_t6_turn_passes_in_seat_order_skipping_the_frozen_caller() -> None:
    """R-T6: next player in seat order; a frozen caller is skipped."""
    rows = [["9c", "9d", "9h", "9s"], ["Ac", "2c", "10c", "10d"], ["5d", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["Kh", "Ks", "Kd", "Qh"], first=0)
    ev = apply(game, A.Draw(0, T0)) + apply(game, A.Throw(0, T0)) + apply(game, A.Pass(0, T0))
    assert only(ev, E.TurnStarted).player == 1
    ev = apply(game, A.CallTamalou(1, T0 + 1))
    assert only(ev, E.Called).right
    assert only(ev, E.TurnStarted).player == 2
    ev = apply(game, A.Draw(2, T0 + 2)) + apply(game, A.Throw(2, T0 + 2))
    ev += apply(game, A.Pass(2, T0 + 2))
    assert only(ev, E.TurnStarted).player == 0  # then 1 is skipped: 0 plays its last turn
    ev = apply(game, A.Draw(0, T0 + 3)) + apply(game, A.Throw(0, T0 + 3))
    ev += apply(game, A.Pass(0, T0 + 3))
    assert not has(ev, E.TurnStarted)
    assert has(ev, E.FinalWindow)


def test_r_t7_empty_pile_is_refilled_from_the_discard_but_its_top() -> None:
    """R-T7: the discard minus its top is shuffled into a new pile, eagerly, and recorded."""
    discard = ["9d", "9h", "9s"]
    rows = crowded_rows(2, [["Ac", "2c", "3c", "4c"], ["5c", "6c", "7c", "8c"]], ["9c"], discard)
    game = game_with(rows, pile=["9c"], discard=discard)
    before = deck_counts(game)
    ev = apply(game, A.Draw(0, T0))
    shuffled = only(ev, E.Reshuffled)
    assert shuffled.to is None and shuffled.size == 2
    order = only(ev, E.ReshuffleOrder)
    assert order.to == ()  # the new order stays in the log
    assert sorted(order.pile) == sorted([c("9d"), c("9h")])
    assert public_view(game).discard_top == "9s" and public_view(game).pile_size == 2
    assert deck_counts(game) == before


def test_r_t7_no_card_to_draw_ends_the_round() -> None:
    """R-T7: nothing under the discard top: the round ends and is scored (no_cards)."""
    rows = crowded_rows(2, [["Ac", "2c", "3c", "4c"], ["5c", "6c", "7c", "8c"]], ["9c"], ["9d"])
    game = game_with(rows, pile=["9c"], discard=["9d"])
    ev = apply(game, A.Draw(0, T0))
    ended = only(ev, E.RoundEnded)
    assert ended.reason == "no_cards"
    # ruling: the card in hand goes to the discard and is not counted
    assert game.round.discard[-1] == c("9c")
    assert all(c("9c") not in hand for hand in ended.hands)
    assert kinds(ev)[-1] == "round_ended"


def test_r_t7_penalty_card_with_no_card_left_is_skipped() -> None:
    """R-T7 (ruling 3): a penalty card owed when no card is left anywhere is skipped."""
    rules = Rules(miss_penalty_cards=2)
    rows = crowded_rows(2, [["Ac", "2c", "3c", "4c"], ["5c", "6c", "7c", "8c"]], ["9c"], ["9d"])
    game = game_with(rows, pile=["9c"], discard=["9d"], rules=rules)
    ev = apply(game, A.Double(1, 1, 1, T0))  # a 5 on a 9: a miss, two penalty cards owed
    assert only(ev, E.DoubleMissed).reason == "wrong_rank"
    assert only(ev, E.PenaltyCard).slot == len(rows[1]) + 1  # only one could be given
    assert only(ev, E.RoundEnded).reason == "no_cards"
