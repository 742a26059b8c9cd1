"""The engine's boundaries (issue 9): a seat out of range is refused, the match ranking is by
cumulative score (R-M3). Malformed JSON, for every game: tests/core/test_codec.py."""

from __future__ import annotations

import pytest

from tamalou.core.errors import IllegalAction
from tamalou.games import tamalou as game_module
from tamalou.games.tamalou.engine import new_game
from tamalou.games.tamalou.rules import TAMALOU
from tamalou.games.tamalou.scoring import match_places
from tamalou.games.tamalou.views import public_view, view


@pytest.mark.parametrize("seat", [-1, -3, 3, 99])
def test_view_refuses_a_seat_out_of_range(seat: int) -> None:
    game, _ = new_game(TAMALOU, 3, "bounds", 0)
    with pytest.raises(IllegalAction) as info:
        view(game, seat)
    assert info.value.reason == "not_seated"
    assert view(game, 2).seat == 2


def test_r_m3_match_places_rank_cumulative_scores_and_ties_share() -> None:
    """R-M3: lowest cumulative score first; ties share the place."""
    assert match_places([40.0, 12.0, 40.0, 7.0]) == [3, 2, 3, 1]
    assert match_places([5.0, 5.0]) == [1, 1]


def test_r_m3_the_match_over_view_gives_the_match_ranking_not_the_last_round() -> None:
    """R-M3 (issue 10): the view's ranking follows the cumulative score, whatever the last
    round's places were."""
    game, _ = new_game(TAMALOU, 3, "standings", 0)
    game.cumulative = [101.0, 30.0, 30.0]
    pv = public_view(game)
    assert pv.match_places == [3, 1, 1]
    assert game_module.standings(game) == [3, 1, 1]
