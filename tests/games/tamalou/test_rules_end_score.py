"""End of round and score (R-E): the four endings, the reveal, the ranking."""

from __future__ import annotations

from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import apply, next_deadline
from tamalou.games.tamalou.scoring import places
from tamalou.games.tamalou.views import public_view, view

from .helpers import T0, c, crowded_rows, draw_throw, game_with, only

ROWS = [["Ac", "2c", "10c", "10d"], ["5c", "6c", "7c", "8c"], ["5d", "6d", "7d", "8d"]]


def _tick(game) -> list[E.Event]:  # type: ignore[no-untyped-def]
    due = next_deadline(game)
    assert due is not None
    return apply(game, A.Tick(due))


def test_r_e1_round_ends_after_the_last_turns_of_a_right_call() -> None:
    """R-E1: right call, last turns, the 5 s window: reason "called"."""
    game = game_with(ROWS)
    apply(game, A.CallTamalou(0, T0))
    draw_throw(game)
    draw_throw(game)
    assert game.round.phase == "final"
    assert only(_tick(game), E.RoundEnded).reason == "called"


def test_r_e1_round_ends_when_a_double_empties_a_row() -> None:
    """R-E1/R-D8: a double that empties a row ends the round at once: "empty_row"."""
    game = game_with(ROWS, discard=["5h"])
    game.round.seats[1].row = [c("5c"), None, None, None]
    ended = only(apply(game, A.Double(1, 1, 1, T0)), E.RoundEnded)
    assert ended.reason == "empty_row"


def test_r_e1_round_ends_when_every_player_but_one_timed_out() -> None:
    """R-E1/R-K4: reason "away"."""
    game = game_with(ROWS[:2])
    _tick(game)
    draw_throw(game)
    ended = only(_tick(game), E.RoundEnded)
    assert ended.reason == "away"


def test_r_e1_round_ends_when_no_card_can_be_drawn() -> None:
    """R-E1/R-T7: reason "no_cards"."""
    rows = crowded_rows(2, ROWS[:2], ["9c"], ["9d"])
    game = game_with(rows, pile=["9c"], discard=["9d"])
    ended = only(apply(game, A.Draw(0, T0)), E.RoundEnded)
    assert ended.reason == "no_cards"


def test_r_e2_all_cards_revealed_and_counted_penalties_included() -> None:
    """R-E2: every card revealed and counted, penalty cards included; holes are not cards."""
    game = game_with(ROWS, pile=["Kh", "9h", "9s"], discard=["4h"])
    apply(game, A.Double(1, 1, 1, T0))  # a miss: seat 1 takes the King as a penalty
    apply(game, A.CallTamalou(0, T0 + 1))
    draw_throw(game)
    draw_throw(game)
    ended = only(_tick(game), E.RoundEnded)
    assert ended.to is None
    assert ended.hands[1] == (c("5c"), c("6c"), c("7c"), c("8c"), c("Kh"))
    assert ended.totals == (3, 36, 26)
    last = public_view(game).last_round
    assert last is not None and last.hands[1] == ["5c", "6c", "7c", "8c", "Kh"]
    assert view(game, 2).public.last_round == last


def test_r_e2_no_card_is_zero_points() -> None:
    """R-E2: a player with no card scores 0."""
    game = game_with(ROWS, discard=["5h"])
    game.round.seats[1].row = [None, c("5c"), None, None]
    ended = only(apply(game, A.Double(1, 2, 1, T0)), E.RoundEnded)
    assert ended.totals[1] == 0 and ended.hands[1] == (None, None, None, None)
    assert ended.scores[1] == 0


def test_r_e3_lowest_total_first() -> None:
    """R-E3: lowest total first."""
    assert places([10, 3, 7], [4, 4, 4], None) == [3, 1, 2]


def test_r_e3_tie_fewer_cards_first() -> None:
    """R-E3: tied totals: fewer cards first."""
    assert places([5, 5], [4, 3], None) == [2, 1]


def test_r_e3_still_tied_the_caller_first() -> None:
    """R-E3: same total and count: the caller first."""
    assert places([5, 5, 5], [4, 4, 4], 1) == [2, 1, 2]


def test_r_e3_otherwise_shared_place() -> None:
    """R-E3: otherwise the place is shared."""
    assert places([5, 5, 9], [4, 4, 4], None) == [1, 1, 3]
    assert places([9, 5, 5, 1], [4, 4, 4, 4], None) == [4, 2, 2, 1]


def test_r_e3_round_places_in_the_engine() -> None:
    """R-E3: the round's places as the engine reports them (caller wins the tie)."""
    rows = [["Ac", "2c", "10c", "10d"], ["Ad", "2d", "10h", "10s"], ["5d", "6d", "7d", "8d"]]
    game = game_with(rows)
    draw_throw(game)  # seat 0
    apply(game, A.CallTamalou(1, game.now))
    draw_throw(game)  # seat 2
    draw_throw(game)  # seat 0
    ended = only(_tick(game), E.RoundEnded)
    assert ended.totals == (3, 3, 26) and ended.caller == 1
    assert ended.places == (2, 1, 3)
