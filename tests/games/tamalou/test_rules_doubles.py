"""Doubles (R-D): the race to throw a card of the discard top's rank."""

from __future__ import annotations

from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import apply, legal_actions
from tamalou.games.tamalou.rules import TAMALOU
from tamalou.games.tamalou.state import FOREVER
from tamalou.games.tamalou.views import public_view, view

from .helpers import T0, c, deck_counts, game_with, has, legal_kinds, only, refused

# Seat 0 plays first; seat 1 holds a 5 in slot 2, seat 2 a Jack in slot 1.
ROWS = [["Ac", "2c", "3c", "4c"], ["6c", "5c", "7c", "8c"], ["Jc", "6d", "7d", "8d"]]


def test_r_d1_double_out_of_turn_leaves_a_hole() -> None:
    """R-D1: a player whose card has the discard top's rank throws it, in or out of turn."""
    game = game_with(ROWS, discard=["5h"])
    ev = apply(game, A.Double(1, 2, 1, T0 + 10))
    doubled = only(ev, E.Doubled)
    assert (doubled.player, doubled.slot, doubled.card, doubled.to) == (1, 2, c("5c"), None)
    assert game.round.seats[1].row == [c("6c"), None, c("7c"), c("8c")]  # slots are stable
    pv = public_view(game)
    assert pv.discard_top == "5c" and pv.seats[1].slots == [True, False, True, True]
    assert [s.present for s in view(game, 1).row] == [True, False, True, True]
    assert game.round.current == 0  # the turn did not change


def test_r_d1_current_player_may_double_before_drawing() -> None:
    """R-D1: "in or out of turn": the current player at the start of their turn may double."""
    game = game_with([["5s", "2c", "3c", "4c"], *ROWS[1:]], discard=["5h"])
    assert "double" in legal_kinds(game, 0)
    assert has(apply(game, A.Double(0, 1, 1, T0)), E.Doubled)
    assert legal_kinds(game, 0) >= {"draw", "call"}  # still their turn


def test_r_d2_same_rank_not_same_value() -> None:
    """R-D2: a Jack on a King is a miss although both are worth 10."""
    game = game_with(ROWS, discard=["Kh"])
    ev = apply(game, A.Double(2, 1, 1, T0))
    missed = only(ev, E.DoubleMissed)
    assert missed.reason == "wrong_rank" and missed.card == c("Jc")
    assert has(ev, E.PenaltyCard)


def test_r_d3_double_with_a_card_you_have_not_seen() -> None:
    """R-D3: memory pays: slot 2 was never peeked, the double still succeeds."""
    game = game_with(ROWS, discard=["5h"])
    assert view(game, 1).row[1].card is None
    assert has(apply(game, A.Double(1, 2, 1, T0)), E.Doubled)


def test_r_d4_first_double_wins_the_second_is_too_late() -> None:
    """R-D4: one double per discard card: the first wins, a later one on that card is too late."""
    rows = [["Ac", "2c", "3c", "4c"], ["6c", "5c", "7c", "8c"], ["5d", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["9h"], discard=["5h"])
    apply(game, A.Double(1, 2, 1, T0 + 10))
    ev = apply(game, A.Double(2, 1, 1, T0 + 20))
    missed = only(ev, E.DoubleMissed)
    assert missed.reason == "too_late" and missed.player == 2 and missed.card == c("5d")
    assert game.round.seats[2].row[0] == c("5d")  # it went back to its slot
    assert only(ev, E.PenaltyCard).slot == 5


def test_r_d4_second_double_is_too_late_even_on_the_doubled_card() -> None:
    """R-D4: the doubled card itself (now on top) cannot be doubled: too late."""
    rows = [["Ac", "2c", "3c", "4c"], ["6c", "5c", "7c", "8c"], ["5d", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["9h"], discard=["5h"])
    ev = apply(game, A.Double(1, 2, 1, T0 + 10))
    new_seq = only(ev, E.Doubled).seq
    assert not public_view(game).discard_doubleable
    assert legal_actions(game, 2) == []  # no double offered on the doubled card
    ev = apply(game, A.Double(2, 1, new_seq, T0 + 20))
    assert only(ev, E.DoubleMissed).reason == "too_late"


def test_r_d4_double_on_a_covered_card_is_too_late() -> None:
    """R-D4: a double aimed at a card no longer on top (covered by a newer card) is too late."""
    game = game_with(ROWS, pile=["9h"], discard=["5h"])
    apply(game, A.Draw(0, T0))
    apply(game, A.Throw(0, T0))  # the 9 covers the 5 (seq 1)
    ev = apply(game, A.Double(1, 2, 1, T0 + 10))
    assert only(ev, E.DoubleMissed).reason == "too_late"


def test_r_d4_double_on_a_taken_card_is_too_late() -> None:
    """R-D4: a double aimed at a card taken from the discard is too late."""
    game = game_with(ROWS, discard=["5h"])
    apply(game, A.TakeDiscard(0, T0))
    ev = apply(game, A.Double(1, 2, 1, T0 + 10))
    assert only(ev, E.DoubleMissed).reason == "too_late"


def test_r_d4_double_on_an_emptied_discard_is_too_late() -> None:
    """R-D4 (ruling 8): a double aimed at a card taken from the discard (now empty) is too late."""
    game = game_with(ROWS, pile=["9h"], discard=["5h"])
    apply(game, A.TakeDiscard(game.round.current, T0))
    ev = apply(game, A.Double(1, 2, 1, T0 + 10))
    assert only(ev, E.DoubleMissed).reason == "too_late"
    assert has(ev, E.PenaltyCard)


def test_r_d4_actions_apply_in_the_order_given() -> None:
    """R-D4: order is the runtime's (interaction time); the engine takes actions as given.

    A press stamped earlier than the game's time counts at the game's time (ruling 1).
    """
    rows = [["Ac", "2c", "3c", "4c"], ["6c", "5c", "7c", "8c"], ["5d", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["9h"], discard=["5h"])
    apply(game, A.Double(2, 1, 1, T0 + 500))
    ev = apply(game, A.Double(1, 2, 1, T0 + 100))  # stamped earlier, applied later: too late
    assert only(ev, E.DoubleMissed).reason == "too_late"
    assert game.now == T0 + 500


def test_r_d4_double_click_on_your_own_double_is_refused() -> None:
    """R-D4 (ruling 7): pressing again on your own winning double's slot: already_doubled,
    no penalty."""
    rows = [["Ac", "2c", "3c", "4c"], ["5s", "5c", "7c", "8c"], ["Jc", "6d", "7d", "8d"]]
    game = game_with(rows, discard=["5h"])
    apply(game, A.Double(1, 2, 1, T0))
    refused(game, A.Double(1, 2, 1, T0 + 50), "already_doubled")
    refused(game, A.Double(1, 2, 1, T0 + 60), "already_doubled")
    assert game.round.seats[1].misses == 0 and len(game.round.seats[1].row) == 4


def test_r_d4_d5_same_player_second_slot_on_the_same_card_is_too_late() -> None:
    """R-D4/R-D5 (issue 9): doubling the same discard card again with another slot is a later
    double: too late, shown, back to its slot, with the penalty card."""
    rows = [["Ac", "2c", "3c", "4c"], ["5s", "5c", "7c", "8c"], ["Jc", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["9h"], discard=["5h"])
    apply(game, A.Double(1, 2, 1, T0))
    ev = apply(game, A.Double(1, 1, 1, T0 + 50))
    missed = only(ev, E.DoubleMissed)
    assert (missed.player, missed.slot, missed.reason) == (1, 1, "too_late")
    assert only(ev, E.PenaltyCard).player == 1
    assert game.round.seats[1].row[0] == c("5s") and len(game.round.seats[1].row) == 5
    assert game.round.seats[1].misses == 1


def test_r_d5_a_miss_shows_the_card_and_draws_a_penalty() -> None:
    """R-D5: the card is shown to all, goes back to its slot; a penalty card, unseen, ends the row."""
    game = game_with(ROWS, pile=["9h", "Ks"], discard=["4h"])
    before = deck_counts(game)
    ev = apply(game, A.Double(1, 1, 1, T0))
    missed = only(ev, E.DoubleMissed)
    assert missed.to is None and missed.card == c("6c") and missed.slot == 1
    penalty = only(ev, E.PenaltyCard)
    assert (penalty.player, penalty.slot, penalty.reason, penalty.to) == (
        1,
        5,
        "missed_double",
        None,
    )
    seat = game.round.seats[1]
    assert seat.row == [c("6c"), c("5c"), c("7c"), c("8c"), c("9h")]
    assert all(s.card is None for s in view(game, 1).row)  # not even its owner sees it
    assert public_view(game).seats[1].slots == [True] * 5
    assert public_view(game).discard_top == "4h"  # the missed card did not stay there
    assert deck_counts(game) == before


def _miss(game, player: int, at: int) -> E.DoubleMissed:  # type: ignore[no-untyped-def]
    missed: E.DoubleMissed = only(apply(game, A.Double(player, 1, 1, at)), E.DoubleMissed)
    return missed


def test_r_d6_misses_escalate_blocks() -> None:
    """R-D6 (ruling 13): 1st miss no block, then 5 s, 20 s, 1 min, then until the round's end."""
    game = game_with(ROWS, pile=["9h", "9s", "9d", "9c", "8h", "8s"], discard=["4h"])
    at = T0
    m = _miss(game, 1, at)
    assert (m.misses, m.blocked_until) == (1, at)  # not blocked
    at += 1
    m = _miss(game, 1, at)
    assert (m.misses, m.blocked_until) == (2, at + 5_000)
    refused(game, A.Double(1, 1, 1, at + 4_999), "doubles_blocked")  # refused, not a miss
    assert legal_actions(game, 1, at + 4_999) == []
    assert view(game, 1, at + 4_999).double_refusal == "doubles_blocked"
    at += 5_000
    m = _miss(game, 1, at)
    assert (m.misses, m.blocked_until) == (3, at + 20_000)
    at += 20_000
    m = _miss(game, 1, at)
    assert (m.misses, m.blocked_until) == (4, at + 60_000)
    assert public_view(game, at).seats[1].blocked_until == at + 60_000


def test_r_d6_fifth_miss_blocks_until_the_end_of_the_round() -> None:
    """R-D6: the 5th miss blocks doubles until the end of the round."""
    game = game_with(ROWS, pile=["9h", "9s", "9d", "9c", "8h", "8s"], discard=["4h"])
    game.round.turn_deadline = 10**9  # keep the clock out of the way
    at = T0
    for _ in range(4):
        _miss(game, 1, at)
        at += 61_000
    m = _miss(game, 1, at)
    assert m.misses == 5 and m.blocked_until is None
    assert game.round.seats[1].blocked_until == FOREVER
    assert public_view(game).seats[1].blocked_for_round
    refused(game, A.Double(1, 1, 1, at + 10**8), "doubles_blocked_round")


def test_r_d6_successful_double_clears_misses() -> None:
    """R-D6: a successful double clears all misses (and the block that came with them)."""
    game = game_with(ROWS, pile=["9h", "9s", "5d"], discard=["4h"])
    _miss(game, 1, T0)
    _miss(game, 1, T0 + 1)  # 2 misses: blocked until T0 + 5_001
    apply(game, A.Draw(0, T0 + 2))
    apply(game, A.Throw(0, T0 + 2))  # the 5 of diamonds on top; seat 1's turn starts blocked
    assert game.round.current == 1 and game.round.seats[1].misses == 2
    seq = game.round.discard_seqs[-1]
    refused(game, A.Double(1, 2, seq, T0 + 5_000), "doubles_blocked")
    ev = apply(game, A.Double(1, 2, seq, T0 + 5_001))
    assert has(ev, E.Doubled)
    assert game.round.seats[1].misses == 0 and game.round.seats[1].blocked_until == 0


def test_r_d6_turn_start_while_not_blocked_clears_one_miss() -> None:
    """R-D6: each start of your turn while not blocked clears one miss; a block set stays."""
    game = game_with(ROWS, pile=["9h", "9s", "9d", "9c", "8h", "8s"], discard=["4h"])
    _miss(game, 1, T0)
    _miss(game, 1, T0 + 1)  # 2 misses, blocked until T0 + 5_001
    apply(game, A.Draw(0, T0 + 2))
    apply(game, A.Throw(0, T0 + 2))  # seat 1's turn starts while blocked: nothing cleared
    assert game.round.seats[1].misses == 2
    for _ in range(3):  # seats 1, 2, 0 play; seat 1's next turn starts unblocked
        at = game.now + 2_000
        apply(game, A.Draw(game.round.current, at))
        apply(game, A.Throw(game.round.current, at))
    assert game.round.current == 1 and game.now > T0 + 5_001
    assert game.round.seats[1].misses == 1
    # ruling 13: the block that was set stays as it was
    assert game.round.seats[1].blocked_until == T0 + 5_001


def test_r_d7_no_double_while_holding_or_choosing_a_power() -> None:
    """R-D7: no doubles on your own turn while you hold a drawn card or choose a power target."""
    rows = [["5c", "2c", "3c", "4c"], ["6c", "5d", "7c", "8c"], ["Jc", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["9h", "Kh"], discard=["5h"])
    apply(game, A.Draw(0, T0))
    refused(game, A.Double(0, 1, 1, T0), "doubles_closed_own_turn")
    assert "double" not in legal_kinds(game, 0)
    assert "double" in legal_kinds(game, 1)  # others still may
    g = game_with(rows, pile=["Kh"], discard=["5h"])
    apply(g, A.Draw(0, T0))
    apply(g, A.Throw(0, T0))  # a King: the power is offered
    assert g.round.stage == "power"
    refused(g, A.Double(0, 1, 2, T0), "doubles_closed_own_turn")


def test_r_d7_no_double_during_the_queen_swap_display() -> None:
    """R-D7: no doubles during the 2 s display of a Queen swap (for anybody)."""
    rows = [["5c", "2c", "3c", "4c"], ["6c", "5d", "7c", "8c"], ["Jc", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["Qh", "9s"], discard=["5h"])
    apply(game, A.Draw(0, T0))
    apply(game, A.Throw(0, T0))
    ev = apply(game, A.Swap(0, 2, 1, 3, T0 + 100))
    assert only(ev, E.Swapped).until == T0 + 2_100
    seq = game.round.discard_seqs[-1]
    refused(game, A.Double(1, 2, seq, T0 + 2_099), "doubles_paused")
    assert "double" not in legal_kinds(game, 2, T0 + 2_099)
    assert "double" in legal_kinds(game, 2, T0 + 2_100)


def test_r_d7_frozen_caller_cannot_double() -> None:
    """R-D7/R-A3: a frozen caller cannot double."""
    rows = [["Ac", "2c", "10c", "10d"], ["6c", "5d", "7c", "8c"], ["Ad", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["9h"], discard=["Ah"])
    apply(game, A.CallTamalou(0, T0))
    refused(game, A.Double(0, 1, 1, T0 + 10), "frozen")
    assert legal_actions(game, 0) == []
    assert view(game, 0).double_refusal == "frozen"


def test_r_d8_a_double_that_empties_a_row_ends_the_round() -> None:
    """R-D8: the last card doubled away ends the round at once; an empty row counts 0."""
    rows = [["Ac", "2c", "3c", "4c"], ["5c", "5d", "5s", "8c"], ["Jc", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["8h"], discard=["5h"])
    seat = game.round.seats[1]
    seat.row = [c("5c"), None, None, None]  # the other slots left by earlier doubles
    apply(game, A.Draw(0, T0))  # seat 0 holds a card when the round ends
    ev = apply(game, A.Double(1, 1, 1, T0 + 10))
    ended = only(ev, E.RoundEnded)
    assert ended.reason == "empty_row" and ended.totals[1] == 0
    assert ended.places[1] == 1
    assert game.round.phase == "over"
    assert game.round.held is None  # ruling 9: the card in hand went to the discard
    assert c("8h") not in ended.hands[0]


def test_r_d8_empty_row_through_real_doubles() -> None:
    """R-D8: a player doubles card after card until the row is empty (scripted all the way)."""
    rows = [["Ac", "2c", "3c", "4c"], ["6c", "7c", "8c", "9c"], ["Jc", "6d", "7d", "8d"]]
    pile = ["6h", "7h", "8h", "9h"]
    game = game_with(rows, pile=pile, first=0)
    game.round.turn_deadline = 10**9
    seat = 1
    for slot in range(1, 5):
        p = game.round.current
        at = game.now + 10
        apply(game, A.Draw(p, at))
        apply(game, A.Throw(p, at))
        game.round.turn_deadline = 10**9
        ev = apply(game, A.Double(seat, slot, game.round.discard_seqs[-1], at + 1))
        assert has(ev, E.Doubled)
    assert game.round.end_reason == "empty_row"
    assert game.history[-1].totals[1] == 0


def test_r_d_rules_have_the_default_penalty() -> None:
    """R-D5/R-D6: one penalty card per miss; blocks 0, 5 s, 20 s, 60 s, until the end."""
    assert TAMALOU.miss_penalty_cards == 1
    assert TAMALOU.double_blocks_ms == (0, 5_000, 20_000, 60_000, -1)


def test_r_d4_a_double_aimed_at_a_card_that_never_existed_is_refused() -> None:
    """R-D4 ruling: a double naming a discard number never given is bad input, not a miss."""
    game = game_with(ROWS, pile=["9h"], discard=["5h"])
    for seq in (0, 2, 99):
        refused(game, A.Double(1, 1, seq, T0 + 100), "no_such_card")
