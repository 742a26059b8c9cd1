"""Tournaments (tamalou/core/tournament.py): Swiss seating, duplicate scoring, standings.

Every expected number below is worked out by hand in the comment next to it.
"""

from __future__ import annotations

import random

import pytest

from tamalou.core.drivers import random_playout
from tamalou.core.tournament import (
    Format,
    TableResult,
    entrant_scores,
    meetings,
    round_scores,
    seat_round,
    standings,
    table_seed,
    table_sizes,
)
from tamalou.games import load

FOUR = Format(players=4, rounds=2)


# -- seating --------------------------------------------------------------------------------


def test_first_round_is_drawn_from_the_seed() -> None:
    entrants = list(range(1, 9))
    first = seat_round(entrants, FOUR, "s1", 1)
    assert first == seat_round(entrants, FOUR, "s1", 1)
    assert first != seat_round(entrants, FOUR, "s2", 1)
    seated = sorted(u for t in first for u in t.seats if u is not None)
    assert seated == entrants  # everyone once
    assert [t.table_no for t in first] == [1, 2]


def test_a_short_table_gets_marked_ai_seats() -> None:
    assert table_sizes(7, 4) == [4, 3]
    assert table_sizes(9, 4) == [3, 3, 3]  # evenly: one AI at each table, not three at one
    assert table_sizes(8, 4) == [4, 4]
    plans = seat_round(list(range(1, 8)), FOUR, "s", 1)
    assert [t.ai_seats for t in plans] == [0, 1]
    assert all(len(t.seats) == 4 for t in plans)


def test_duplicate_tables_of_a_round_share_one_seed() -> None:
    plans = seat_round(list(range(1, 9)), FOUR, "s", 2, {})
    assert {t.seed for t in plans} == {"s:round:2"}
    plain = seat_round(list(range(1, 9)), FOUR.model_copy(update={"duplicate": False}), "s", 2)
    assert [t.seed for t in plain] == ["s:round:2:table:1", "s:round:2:table:2"]


def test_swiss_meets_close_scores_and_no_one_twice_when_it_can_be_avoided() -> None:
    # nine players, tables of three; round 1 sat {1,2,3} {4,5,6} {7,8,9}. Standings 1..9:
    # the first seating in standings order with no repeat is {1,4,7} {2,5,8} {3,6,9}.
    three = Format(players=3, rounds=3)
    met = meetings([(1, 2, 3), (4, 5, 6), (7, 8, 9)])
    plans = seat_round(list(range(1, 10)), three, "s", 2, met)
    assert [sorted(u for u in t.seats if u is not None) for t in plans] == [
        [1, 4, 7],
        [2, 5, 8],
        [3, 6, 9],
    ]


def test_swiss_with_no_repeats_possible_takes_the_fewest() -> None:
    # eight players, two tables of four after {1,2,3,4} {5,6,7,8}: any table of four holds
    # at least one pair from each first-round table, so four repeated pairs at the least;
    # in standings order the first such seating is {1,2,5,6} {3,4,7,8} (not {1,2,3,4}).
    met = meetings([(1, 2, 3, 4), (5, 6, 7, 8)])
    plans = seat_round(list(range(1, 9)), FOUR, "s", 2, met)
    groups = [sorted(u for u in t.seats if u is not None) for t in plans]
    assert groups == [[1, 2, 5, 6], [3, 4, 7, 8]]


def test_without_history_swiss_seats_by_standings() -> None:
    plans = seat_round([8, 7, 6, 5, 4, 3, 2, 1], FOUR, "s", 2, {})
    assert [sorted(u for u in t.seats if u is not None) for t in plans] == [
        [5, 6, 7, 8],
        [1, 2, 3, 4],
    ]


# -- scoring --------------------------------------------------------------------------------


def test_tarot_duplicate_is_the_difference_from_the_seats_average() -> None:
    # deal 1: table 1 (150, -50, -50, -50), table 2 (-90, 30, 30, 30)
    #   seat 0's average 30: table 1 +120, table 2 -120; seats 1-3's average -10: -40, +40
    # deal 2: table 1 (-60, 20, 20, 20), table 2 all passed (0, 0, 0, 0)
    #   seat 0's average -30: table 1 -30, table 2 +30; seats 1-3's average 10: +10, -10
    # sums: table 1 (90, -30, -30, -30), table 2 (-90, 30, 30, 30)
    results = [
        TableResult(1, (1, 2, 3, 4), {1: (150, -50, -50, -50), 2: (-60, 20, 20, 20)}, ()),
        TableResult(2, (5, 6, 7, 8), {1: (-90, 30, 30, 30), 2: (0, 0, 0, 0)}, ()),
    ]
    by_seat = round_scores(results, "difference", lower_wins=False)
    assert [by_seat[(1, s)] for s in range(4)] == [90, -30, -30, -30]
    assert [by_seat[(2, s)] for s in range(4)] == [-90, 30, 30, 30]
    assert entrant_scores(results, "difference", False) == {
        1: 90, 2: -30, 3: -30, 4: -30, 5: -90, 6: 30, 7: 30, 8: 30,
    }  # fmt: skip


def test_a_deal_only_some_tables_played_is_compared_among_them() -> None:
    # deal 5 only at tables 1 and 2 (table 3 had ended): seat 0 (40, 10) average 25 -> +15, -15
    results = [
        TableResult(1, (1, None), {5: (40, -40)}, ()),
        TableResult(2, (2, None), {5: (10, -10)}, ()),
        TableResult(3, (3, None), {}, ()),
    ]
    assert entrant_scores(results, "difference", False) == {1: 15, 2: -15, 3: 0}


def test_tamalou_duplicate_scores_the_rank_among_the_same_seat() -> None:
    # lower wins. Round 1, seat 0 at three tables: 5, 10, 5 -> table 1 beats table 2 (1) and
    # ties table 3 (0.5) = 1.5; table 2 beats nobody = 0; table 3 = 1.5.
    # Seat 1: 0, 0, 30 -> 1.5, 1.5, 0. Round 2, seat 0: 20, 4, 7 -> 0, 2, 1; seat 1: 3, 3, 3
    # -> 1 each. Sums: table 1 (1.5, 2.5), table 2 (2, 2.5), table 3 (2.5, 1).
    results = [
        TableResult(1, (1, 2), {1: (5, 0), 2: (20, 3)}, ()),
        TableResult(2, (3, 4), {1: (10, 0), 2: (4, 3)}, ()),
        TableResult(3, (5, 6), {1: (5, 30), 2: (7, 3)}, ()),
    ]
    by_seat = round_scores(results, "rank", lower_wins=True)
    assert [by_seat[(t, s)] for t in (1, 2, 3) for s in (0, 1)] == [1.5, 2.5, 2, 2.5, 2.5, 1]


def test_without_duplicate_a_table_scores_match_points_by_place() -> None:
    # Tamalou totals (10, 3, 3, 20), lower wins: seat 0 beats seat 3 = 1; seats 1 and 2 beat
    # 0 and 3 and tie each other = 2.5; seat 3 = 0.
    tamalou = [TableResult(1, (1, 2, 3, 4), {}, (10, 3, 3, 20))]
    assert entrant_scores(tamalou, "places", True) == {1: 1, 2: 2.5, 3: 2.5, 4: 0}
    # tarot totals (100, -20, -40, -40), higher wins: 3, 2, 0.5, 0.5
    tarot = [TableResult(1, (1, 2, 3, 4), {}, (100, -20, -40, -40))]
    assert entrant_scores(tarot, "places", False) == {1: 3, 2: 2, 3: 0.5, 4: 0.5}


def test_a_round_of_one_table_is_scored_by_place_even_with_duplicate() -> None:
    # one table: every difference from the seat's own average would be nought
    alone = [TableResult(1, (1, 2, None), {1: (40, -20, -20)}, (40, -20, -20))]
    assert entrant_scores(alone, "difference", False) == {1: 2, 2: 0.5}


def test_ai_seats_are_compared_but_not_ranked() -> None:
    results = [
        TableResult(1, (1, None), {1: (30, -30)}, ()),
        TableResult(2, (2, 3), {1: (10, -10)}, ()),
    ]
    # seat 0 average 20: +10 / -10; seat 1 average -20: the AI -10, entrant 3 +10
    assert entrant_scores(results, "difference", False) == {1: 10, 2: -10, 3: 10}


# -- standings ------------------------------------------------------------------------------


def test_standings_sum_the_rounds_and_break_ties_by_buchholz_then_sign_up() -> None:
    entrants = [(1, "a"), (2, "b"), (3, "c"), (4, "d")]
    tables = [(1, 2), (3, 4), (1, 3), (2, 4)]
    rounds = [{1: 10, 2: -10, 3: 5, 4: -5}, {1: -5, 3: 5, 2: 5, 4: -5}]
    # scores: a 5, b -5, c 10, d -10. Buchholz: a met b, c -> 5; b met a, d -> -5;
    # c met d, a -> -5; d met c, b -> 5.
    table = standings(entrants, rounds, tables)
    assert [(s.user_id, s.score, s.buchholz, s.rank) for s in table] == [
        (3, 10, -5, 1),
        (1, 5, 5, 2),
        (2, -5, -5, 3),
        (4, -10, 5, 4),
    ]
    assert table[0].by_round == [5, 5]
    # a tie on score: b and d both 0, Buchholz d 3 > b 1 -> d first; a and c tie on both:
    # the earlier sign-up (a) first.
    tie = standings(entrants, [{1: 1, 2: 0, 3: 1, 4: 0}], [(1, 2), (3, 4)])
    # Buchholz: a met b (0) = 0, b met a = 1, c met d = 0, d met c = 1
    assert [s.user_id for s in tie] == [1, 3, 2, 4]


def test_a_withdrawn_entrant_keeps_the_points_won() -> None:
    table = standings([(1, "a"), (2, "b")], [{1: 2, 2: 1}, {2: 1}], [(1, 2)], withdrawn=[1])
    assert [(s.user_id, s.score, s.rounds, s.withdrawn) for s in table] == [
        (1, 2, 1, True),
        (2, 2, 2, False),
    ]


# -- duplicate deals at the engine level ------------------------------------------------------


# A Tamalou tournament table plays a fixed number of rounds (R-X16) and, with duplicate,
# rotates the first player (R-X17): by default the round's winner starts the next (R-M4),
# which differs from table to table.
DUPLICATE_RULES: dict[str, dict[str, object]] = {
    "tarot": {},
    "tamalou": {"first_player": "rotate", "match_end": "rounds", "max_rounds": 3},
}


def _dealt(game_id: str, seed: str, play: int) -> dict[int, tuple[object, ...]]:
    """Every deal a match of ``seed`` dealt (its number -> who deals or starts, and the cards
    at each seat), with random play driven by ``play``: two tables play the same deals
    differently."""
    module = load(game_id)
    rules = module.rules_from_dict(DUPLICATE_RULES[game_id])
    state, events = module.new_game(rules, 4, seed, 0, [False] * 4)
    seen: list[object] = list(events)
    random_playout(
        module, state, 4, random.Random(play), check=lambda _s, e: seen.extend(e), max_actions=6000
    )
    out: dict[int, tuple[object, ...]] = {}
    for e in seen:
        if game_id == "tarot" and type(e).__name__ == "Dealt":
            out[e.deal_no] = (e.dealer, e.hands, e.dog)  # type: ignore[attr-defined]
        elif game_id == "tamalou" and type(e).__name__ == "Dealt":
            out[e.round_no] = (e.first_player, e.rows, e.pile)  # type: ignore[attr-defined]
    return out


@pytest.mark.parametrize("game_id", ["tarot", "tamalou"])
def test_duplicate_tables_receive_identical_deals(game_id: str) -> None:
    seed = table_seed("t1", 1, 1, duplicate=True)
    assert seed == table_seed("t1", 1, 2, duplicate=True)
    one, two = _dealt(game_id, seed, play=1), _dealt(game_id, seed, play=2)
    common = one.keys() & two.keys()
    assert len(common) >= 2  # at least two deals compared
    assert all(one[k] == two[k] for k in common)  # same dealer, same hand at the same seat


@pytest.mark.parametrize("game_id", ["tarot", "tamalou"])
def test_tables_with_their_own_seeds_receive_other_deals(game_id: str) -> None:
    one = _dealt(game_id, table_seed("t1", 1, 1, duplicate=False), play=1)
    two = _dealt(game_id, table_seed("t1", 1, 2, duplicate=False), play=1)
    assert one[1] != two[1]


def test_tarot_deal_results_key_a_deal_by_its_seeded_number() -> None:
    tarot = load("tarot")
    state, events = tarot.new_game(tarot.rules_from_dict({}), 4, "dup", 0, [False] * 4)
    seen = list(events)
    random_playout(tarot, state, 4, random.Random(3), check=lambda _s, e: seen.extend(e))
    results = tarot.deal_results(seen)  # type: ignore[attr-defined]
    ended = {e.deal_no: e.scores for e in seen if type(e).__name__ == "DealEnded"}
    passed = {e.deal_no for e in seen if getattr(e, "reason", "") == "all_passed"}
    assert set(results) == set(ended) | passed
    assert all(results[d] == tuple(float(s) for s in ended[d]) for d in ended)
    assert all(results[d] == (0.0,) * 4 for d in passed)
