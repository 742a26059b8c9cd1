"""Which moves an earlier press could still change (``contested``): only those wait the
table's reorder window (R-D4; docs/architecture.md, "Ordering")."""

from __future__ import annotations

import random

import pytest

from tamalou.core.drivers import random_playout
from tamalou.games import load
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou.engine import (
    apply,
    contested,
    double_actions,
    may_double,
)
from tamalou.games.tamalou.rules import PRESETS, Power
from tamalou.games.tamalou.scripted import forced_game

from .helpers import T0, game_with

# Seat 0 plays first; seat 1 holds a 5 in slot 2.
ROWS = [["Ac", "2c", "3c", "4c"], ["6c", "5c", "7c", "8c"], ["Jc", "6d", "7d", "8d"]]


def test_r_s5_a_peek_is_not_contested_by_the_other_peeks() -> None:
    """R-S3/R-S5: in the peek phase a player's own peek is all anyone may do, and one
    player's peek never changes another's: it need not wait for earlier presses."""
    game = forced_game(ROWS, play=False)
    assert game.round.phase == "peek"
    assert not contested(game, A.Peek(1, 10))
    assert contested(game, A.Draw(0, 10))  # refused anyway: it waits like any doubt


def test_r_d1_the_first_turn_before_any_discard_is_not_contested() -> None:
    """R-D1: with nothing on the discard nobody may double: the turn's draw, and the throw
    or replace of the drawn card, are the only moves of the table."""
    game = game_with(ROWS, pile=["9h", "Kh"])
    assert not game.round.discard
    assert not contested(game, A.Draw(0, T0 + 10))
    apply(game, A.Draw(0, T0 + 10))
    assert not contested(game, A.Throw(0, T0 + 20))
    assert not contested(game, A.Replace(0, 1, T0 + 20))


def test_r_d1_a_doubleable_top_contests_the_turn_players_every_move() -> None:
    """R-D1/R-D5: another seat may double the top at any time: a double pressed before the
    draw takes its penalty card from the pile first, one pressed before a throw is covered
    by it. The turn's moves wait for earlier presses."""
    game = game_with(ROWS, pile=["9h", "Kh"], discard=["5h"])
    assert may_double(game, 1, T0) and may_double(game, 2, T0)
    assert contested(game, A.Draw(0, T0 + 10))
    assert contested(game, A.TakeDiscard(0, T0 + 10))
    assert contested(game, A.CallTamalou(0, T0 + 10))


def test_r_d4_a_double_is_always_contested() -> None:
    """R-D4: the first press on a card wins: every double waits for earlier ones (with
    another player's card too, R-X10)."""
    game = game_with(ROWS, pile=["9h"], discard=["5h"])
    assert contested(game, A.Double(1, 2, 1, T0 + 10))
    dutch = game_with(ROWS, pile=["9h"], discard=["5h"], rules=PRESETS["dutch"])
    assert contested(dutch, A.DoubleFor(1, 2, 1, 2, 1, T0 + 10))


def test_r_d4_once_the_top_is_doubled_nobody_contests_the_turn() -> None:
    """R-D4: the doubled card cannot be doubled: until the next discard, only the turn
    player acts."""
    game = game_with(ROWS, pile=["9h", "Kh"], discard=["5h"])
    apply(game, A.Double(1, 2, 1, T0 + 10))
    assert game.round.discard_spent[-1]
    assert not any(may_double(game, p, T0 + 20) for p in range(3))
    assert not contested(game, A.Draw(0, T0 + 20))


def test_r_d6_a_blocked_player_contests_only_once_the_block_ends() -> None:
    """R-D6: a blocked player cannot double until the block ends: a move stamped before
    that is not contested by them; one stamped after it is."""
    game = game_with(ROWS, pile=["9h", "Kh"], discard=["5h"])
    until = T0 + 5_000
    for seat in (1, 2):
        game.round.seats[seat].blocked_until = until
    assert not contested(game, A.Draw(0, until - 1))
    assert contested(game, A.Draw(0, until))


def test_r_a3_a_frozen_caller_never_contests() -> None:
    """R-A3: a frozen caller cannot double: at two players, the last turn after a right
    call is its player's alone, top or no top."""
    rows = [["Ac", "2c", "3c", "4c"], ["6c", "5c", "7c", "8c"]]
    game = game_with(rows, pile=["9h", "Kh"], discard=["5h"])
    game.round.seats[0].frozen = True
    game.round.caller = 0
    game.round.current = 1
    assert not may_double(game, 0, T0)
    assert not contested(game, A.Draw(1, T0 + 10))


def test_a_move_of_a_seat_not_to_act_is_contested() -> None:
    """A press by a seat that may not act now is refused, unless a press stamped before it
    changes the turn: it waits for those presses (R-D4's order for every click)."""
    game = game_with(ROWS, pile=["9h"])
    assert contested(game, A.Draw(1, T0 + 10))


def test_r_x12_a_doubled_powers_owner_acts_alone_when_nobody_may_double() -> None:
    """R-X12: while a doubled power waits, its owner is the seat to act, not the current
    player."""
    game = game_with(ROWS, pile=["9h"], rules=PRESETS["dutch"])
    game.round.pending = [(2, Power.LOOK_OWN, False)]
    assert contested(game, A.Draw(0, T0 + 10))
    assert not contested(game, A.Pass(2, T0 + 10))


def test_the_next_round_is_contested_any_seat_may_start_it() -> None:
    game = game_with(ROWS, pile=["9h"])
    game.round.phase = "over"
    assert contested(game, A.NextRound(1, T0 + 10))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_may_double_says_what_double_actions_lists(preset: str) -> None:
    """``may_double`` is ``double_actions`` without the listing (it is asked at every
    click): the same answer for every seat along a random round of every preset."""
    game = load("tamalou")
    rules = PRESETS[preset]
    players = max(3, rules.min_players)
    state, _ = game.new_game(rules, players, f"contested:{preset}", 0)
    seen = {True: 0, False: 0}

    def check(st: object, events: list[object]) -> None:
        now = game.now(st)
        for seat in range(players):
            for at in (now, now + 6_000):
                answer = may_double(st, seat, at)  # type: ignore[arg-type]
                assert answer == bool(double_actions(st, seat, at)), (preset, seat, at)  # type: ignore[arg-type]
                seen[answer] += 1

    random_playout(game, state, players, random.Random(5), max_actions=300, check=check)
    assert seen[True] and seen[False]
