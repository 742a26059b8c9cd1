"""Powers (R-P): Jack plays again, Queen blind swap, King look, transmitted powers."""

from __future__ import annotations

from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import apply, legal_actions
from tamalou.games.tamalou.state import Game
from tamalou.games.tamalou.views import public_view, view

from .helpers import T0, c, game_with, has, legal_kinds, only, refused

ROWS = [["Ac", "2c", "3c", "4c"], ["5c", "6c", "7c", "8c"], ["5d", "6d", "7d", "8d"]]


def _throw_power(game: Game) -> list[E.Event]:
    p = game.round.current
    return apply(game, A.Draw(p, game.now)) + apply(game, A.Throw(p, game.now))


def test_r_p1_jack_plays_a_whole_new_turn_from_the_pile_only() -> None:
    """R-P1 (ruling 4): Jack: a new turn at once, same player, pile only, clock restarts."""
    game = game_with(ROWS, pile=["Jh", "9h"], discard=["9d"])
    apply(game, A.Draw(0, T0 + 1_000))
    ev = apply(game, A.Throw(0, T0 + 1_000))
    assert only(ev, E.PowerOffered).power == "replay"
    assert legal_kinds(game, 0) == {"replay", "pass"}
    ev = apply(game, A.Replay(0, T0 + 2_000))
    assert has(ev, E.Replayed)
    started = only(ev, E.TurnStarted)
    assert started.player == 0 and started.extra and started.transmitted is None
    assert started.deadline == T0 + 2_000 + 45_000
    assert public_view(game).extra_turn
    assert legal_kinds(game, 0) - {"double"} == {"draw", "call"}  # no discard
    apply(game, A.Draw(0, T0 + 2_001))
    ev = apply(game, A.Throw(0, T0 + 2_001))
    assert only(ev, E.TurnStarted).player == 1
    assert only(ev, E.TurnStarted).transmitted is None  # the Jack is never transmitted


def test_r_p1_r_a1_a_call_at_the_start_of_the_jacks_turn_is_allowed() -> None:
    """R-P1 with R-A1 (issue 9): the Jack's new turn is a whole turn: Tamalou at its start."""
    game = game_with([["Ac", "2c", "10c", "10d"], *ROWS[1:]], pile=["Jh", "9h"], discard=["9d"])
    apply(game, A.Draw(0, T0))
    apply(game, A.Throw(0, T0))
    apply(game, A.Replay(0, T0 + 1))
    assert public_view(game).call_open
    ev = apply(game, A.CallTamalou(0, T0 + 2))
    assert only(ev, E.Called).right and game.round.caller == 0
    assert only(ev, E.TurnStarted).player == 1


def test_r_p1_extra_turn_refuses_the_discard() -> None:
    """R-P1: in the Jack's turn the discard is never taken (refused as pile_only)."""
    g = game_with([["Jc", "2c", "3c", "4c"], *ROWS[1:]], pile=["9h"], discard=["9d"])
    apply(g, A.TakeDiscard(0, T0))
    ev = apply(g, A.Replace(0, 1, T0))  # the replaced Jack gives its power (R-T5)
    assert only(ev, E.PowerOffered).power == "replay"
    apply(g, A.Replay(0, T0))
    assert "take_discard" not in legal_kinds(g, 0)
    refused(g, A.TakeDiscard(0, T0), "pile_only")


def test_r_p1_extra_turn_is_the_same_turn_for_the_last_turns() -> None:
    """R-P1 (ruling 4): the Jack's turn is not a second last turn after a Tamalou."""
    rows = [["Ac", "2c", "10c", "10d"], ["5c", "6c", "7c", "8c"], ["5d", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["Jh", "9h", "9s"])
    apply(game, A.CallTamalou(0, T0))
    _throw_power(game)
    apply(game, A.Replay(1, game.now))
    assert game.round.turns_left == 2
    ev = _throw_power(game)
    assert only(ev, E.TurnStarted).player == 2
    assert game.round.turns_left == 1


def test_r_p2_queen_swaps_blind_and_shows_the_positions() -> None:
    """R-P2: one of yours with an opponent's, unseen by both; everybody sees which positions."""
    game = game_with(ROWS, pile=["Qh"])
    _throw_power(game)
    ev = apply(game, A.Swap(0, 2, 2, 3, T0))
    sw = only(ev, E.Swapped)
    assert (sw.player, sw.slot, sw.target, sw.target_slot, sw.to) == (0, 2, 2, 3, None)
    assert not any(hasattr(e, "card") for e in ev if isinstance(e, E.Swapped))
    assert game.round.seats[0].row[1] == c("7d") and game.round.seats[2].row[2] == c("2c")
    for p in range(3):
        assert all(s.card is None for s in view(game, p).row)
    assert only(ev, E.TurnStarted).player == 1


def test_r_p2_queen_never_targets_a_frozen_caller_or_yourself() -> None:
    """R-P2: no swap with a frozen caller, nor with yourself; bad slots are refused."""
    rows = [["Ac", "2c", "10c", "10d"], ["5c", "6c", "7c", "8c"], ["5d", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["Qh"])
    apply(game, A.CallTamalou(0, T0))
    _throw_power(game)
    assert game.round.stage == "power" and game.round.current == 1
    refused(game, A.Swap(1, 1, 0, 1, T0), "target_frozen")
    refused(game, A.Swap(1, 1, 1, 2, T0), "bad_target")
    refused(game, A.Swap(1, 1, 7, 2, T0), "bad_target")
    refused(game, A.Swap(1, 9, 2, 2, T0), "bad_slot")
    refused(game, A.Swap(1, 1, 2, 9, T0), "bad_slot")
    assert {a.target for a in legal_actions(game, 1) if a.kind == "swap"} == {2}


def test_r_p3_king_looks_at_your_own_card_for_2_seconds() -> None:
    """R-P3: look at one of your own cards for 2 s, privately."""
    game = game_with(ROWS, pile=["Kh"])
    _throw_power(game)
    ev = apply(game, A.Look(0, 0, 3, T0 + 100))
    looked = only(ev, E.Looked)
    assert looked.to is None and (looked.target, looked.slot) == (0, 3)
    shown = only(ev, E.LookShown)
    assert shown.to == (0,) and shown.card == c("3c") and shown.until == T0 + 2_100
    assert view(game, 0, T0 + 2_099).row[2].card == "3c"
    assert view(game, 0, T0 + 2_099).look == (0, 3, "3c", T0 + 2_100)
    assert view(game, 0, T0 + 2_100).row[2].card is None
    assert view(game, 1, T0 + 200).row[2].card is None
    assert "3c" not in public_view(game, T0 + 200).model_dump_json()


def test_r_p3_king_does_not_look_at_an_opponent() -> None:
    """R-P3: the King looks at your own cards only."""
    game = game_with(ROWS, pile=["Kh"])
    _throw_power(game)
    refused(game, A.Look(0, 1, 1, T0), "no_power")
    assert {(a.target) for a in legal_actions(game, 0) if a.kind == "look"} == {0}


def test_r_p4_two_players_after_a_right_call_the_queen_has_no_power() -> None:
    """R-P4: with two players, after a successful Tamalou the Queen has no target: no power."""
    rows = [["Ac", "2c", "10c", "10d"], ["5c", "6c", "7c", "8c"]]
    game = game_with(rows, pile=["Qh"])
    apply(game, A.CallTamalou(0, T0))
    ev = _throw_power(game)
    assert not has(ev, E.PowerOffered)
    assert has(ev, E.FinalWindow)


def test_r_p5_a_card_arriving_by_a_double_gives_no_power() -> None:
    """R-P5: a King doubled onto a King offers nobody its power."""
    rows = [["Ac", "2c", "3c", "4c"], ["Kc", "6c", "7c", "8c"], ["5d", "6d", "7d", "8d"]]
    game = game_with(rows, discard=["Kh"])
    ev = apply(game, A.Double(1, 1, 1, T0))
    assert has(ev, E.Doubled) and not has(ev, E.PowerOffered)
    assert game.round.stage == "start" and game.round.current == 0
    assert "look" not in legal_kinds(game, 1) and "look" not in legal_kinds(game, 0)


def test_r_p6_a_used_king_is_transmitted_to_the_next_player_once() -> None:
    """R-P6: the next player may, instead of drawing, use the same power once; not again."""
    game = game_with(ROWS, pile=["Kh", "9h", "9s"])
    _throw_power(game)
    ev = apply(game, A.Look(0, 0, 1, T0))
    started = only(ev, E.TurnStarted)
    assert started.player == 1 and started.transmitted == "look_own"
    assert legal_kinds(game, 1) - {"double"} == {"draw", "call", "look"}
    ev = apply(game, A.Look(1, 1, 2, T0 + 10))
    assert only(ev, E.Looked).transmitted  # instead of drawing: the turn is over
    assert only(ev, E.LookShown).card == c("6c")
    nxt = only(ev, E.TurnStarted)
    assert nxt.player == 2 and nxt.transmitted is None  # not transmitted again
    assert public_view(game).pile_size == 52 - 12 - 1


def test_r_p6_a_used_queen_is_transmitted() -> None:
    """R-P6: a Queen used is offered to the next player as a blind swap, instead of drawing."""
    game = game_with(ROWS, pile=["Qh", "9h"])
    _throw_power(game)
    ev = apply(game, A.Swap(0, 1, 2, 1, T0))
    assert only(ev, E.TurnStarted).transmitted == "blind_swap"
    ev = apply(game, A.Swap(1, 1, 0, 2, T0 + 3_000))
    assert only(ev, E.Swapped).transmitted
    assert only(ev, E.TurnStarted).transmitted is None


def test_r_p6_drawing_gives_up_the_transmitted_power() -> None:
    """R-P6: the transmitted power is instead of drawing: once drawn, it is gone."""
    game = game_with(ROWS, pile=["Kh", "9h"])
    _throw_power(game)
    apply(game, A.Look(0, 0, 1, T0))
    apply(game, A.Draw(1, T0 + 1))
    refused(game, A.Look(1, 1, 1, T0 + 1), "must_place_held_card")
    apply(game, A.Throw(1, T0 + 1))
    refused(game, A.Look(2, 2, 1, T0 + 1), "no_power")


def test_r_p6_a_passed_power_is_not_transmitted() -> None:
    """R-P6: a passed power is not transmitted."""
    game = game_with(ROWS, pile=["Kh"])
    _throw_power(game)
    ev = apply(game, A.Pass(0, T0))
    assert only(ev, E.TurnStarted).transmitted is None
    refused(game, A.Look(1, 1, 1, T0), "no_power")


def test_r_p6_the_jack_is_never_transmitted() -> None:
    """R-P6: the Jack's power is never transmitted."""
    game = game_with(ROWS, pile=["Jh", "9h"])
    _throw_power(game)
    apply(game, A.Replay(0, T0))
    ev = _throw_power(game)
    assert only(ev, E.TurnStarted).transmitted is None
    assert "replay" not in legal_kinds(game, 1)


def test_r_p6_transmitted_power_goes_to_the_next_player_who_plays() -> None:
    """R-P6 (ruling 5): the next player who plays gets it; a double in between changes nothing."""
    rows = [["Ac", "2c", "3c", "4c"], ["5c", "6c", "7c", "8c"], ["Kd", "6d", "7d", "8d"]]
    game = game_with(rows, pile=["Kh", "9h"])
    _throw_power(game)
    apply(game, A.Look(0, 0, 2, T0))
    assert has(apply(game, A.Double(2, 1, game.round.discard_seqs[-1], T0 + 1)), E.Doubled)
    assert game.round.transmitted == "look_own" and game.round.current == 1
    assert public_view(game).transmitted == "look_own"
    assert only(apply(game, A.Look(1, 1, 1, T0 + 2)), E.Looked).transmitted


def test_r_p1_extra_turn_clears_no_miss() -> None:
    """R-P1 (ruling 4): the Jack's turn is the same turn: its start clears no miss (R-D6)."""
    game = game_with(ROWS, pile=["9h", "Jh", "9s"], discard=["4h"])
    apply(game, A.Double(0, 1, 1, T0))  # seat 0 misses once (not blocked); takes the 9h
    assert game.round.seats[0].misses == 1
    _throw_power(game)
    apply(game, A.Replay(0, T0 + 10))
    assert game.round.extra and game.round.seats[0].misses == 1
