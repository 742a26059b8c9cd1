"""K-M: what a "3" and a "4" are, jokers and aces included."""

from __future__ import annotations

import pytest

from tamalou.core.errors import IllegalAction
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki.melds import arrange_run, check_set, find_contract, normalize, run_low
from tamalou.games.kalooki.rules import RUN, SET, Rules

from .helpers import AFTER_WINDOW, cs, forced_game, place_melds, play


def test_k_m1_a_set_is_three_of_a_rank_duplicates_allowed() -> None:
    assert check_set(cs("8s", "8s@1", "8h")) == 7
    with pytest.raises(IllegalAction, match="set_mixed_ranks"):
        check_set(cs("8s", "8h", "9h"))
    with pytest.raises(IllegalAction, match="set_too_short"):
        check_set(cs("8s", "8h"))


def test_k_m2_a_run_is_four_consecutive_of_a_suit_and_the_kind_is_declared() -> None:
    assert run_low(cs("7s", "8s", "9s", "10s", "Js")) == 7
    with pytest.raises(IllegalAction, match="run_mixed_suits"):
        run_low(cs("7s", "8s", "9h", "10s"))
    with pytest.raises(IllegalAction):
        normalize(RUN, cs("7s", "7h", "7d", "7c"))  # four 7s are a "3", never a "4"
    assert normalize(SET, cs("7s", "7h", "7d", "7c"))[1] == 6


def test_k_m3_aces_low_or_high_never_inside_and_at_most_13() -> None:
    assert run_low(cs("Ad", "2d", "3d", "4d")) == 1
    assert run_low(cs("Jd", "Qd", "Kd", "Ad")) == 11
    with pytest.raises(IllegalAction):
        run_low(cs("Qd", "Kd", "Ad", "2d", "3d"))
    full = cs("Ad", "2d", "3d", "4d", "5d", "6d", "7d", "8d", "9d", "10d", "Jd", "Qd", "Kd")
    assert run_low(full) == 1
    with pytest.raises(IllegalAction, match="run_too_long"):
        run_low([*full, *cs("Ad@1")])


def test_k_m3_a_complete_run_takes_nothing_more() -> None:
    run13 = ["2d", "3d", "4d", "5d", "6d", "7d", "8d", "9d", "10d", "Jd", "Qd", "Kd", "Ad"]
    g = forced_game([["Ad@1", "5c", "9c"], ["4h", "5h"]], first=0)
    place_melds(g, [(1, RUN, run13), (0, SET, ["9h", "9s", "9d"])])
    play(g, A.Draw(0, AFTER_WINDOW))
    with pytest.raises(IllegalAction, match="run_complete"):
        play(g, A.LayOff(0, cs("Ad@1")[0], 0, "low", AFTER_WINDOW))


def test_k_m4_no_two_jokers_side_by_side_in_a_run() -> None:
    assert run_low(cs("9c", "JK", "Jc", "JK@1")) == 9
    with pytest.raises(IllegalAction, match="run_jokers_adjacent"):
        run_low(cs("9c", "JK", "JK@1", "Qc"))


def test_k_m4_a_set_has_at_least_two_naturals() -> None:
    assert check_set(cs("4h", "4s", "JK")) == 3
    assert check_set(cs("7h", "7s", "JK", "JK@1")) == 6
    with pytest.raises(IllegalAction, match="set_needs_two_naturals"):
        check_set(cs("9h", "JK", "JK@1"))


def test_k_m5_jokers_stand_for_their_place_and_never_beyond_an_ace_end() -> None:
    assert run_low(cs("JK", "2s", "3s", "4s")) == 1  # the joker is the ace
    with pytest.raises(IllegalAction):
        run_low(cs("JK", "As", "2s", "3s"))
    with pytest.raises(IllegalAction):
        run_low(cs("Qs", "Ks", "As", "JK"))
    # an unordered pick is arranged: the joker fills the gap
    assert arrange_run(cs("JK", "5h", "7h", "8h")) == cs("5h", "JK", "7h", "8h")


def test_k_m6_a_players_sets_differ_by_rank_and_runs_by_suit() -> None:
    g = forced_game([["5h", "5s", "5d", "5c", "5h@1", "5s@1", "Kd", "Qd"], ["2c", "3c"]], first=0)
    play(g, A.Draw(0, AFTER_WINDOW))
    with pytest.raises(IllegalAction, match="meld_repeated"):
        play(
            g,
            A.LayDown(
                0,
                ((SET, tuple(cs("5h", "5s", "5d"))), (SET, tuple(cs("5c", "5h@1", "5s@1")))),
                AFTER_WINDOW,
            ),
        )
    # later melds too: a second run of hearts by the same player is refused
    g = forced_game([["4h", "5h", "6h", "7h", "Kd", "Qd"], ["2c", "3c"]], first=0)
    place_melds(g, [(0, RUN, ["9h", "10h", "Jh", "Qh"]), (1, RUN, ["2h", "3h", "4h@1", "5h@1"])])
    play(g, A.Draw(0, AFTER_WINDOW))
    with pytest.raises(IllegalAction, match="meld_repeated"):
        play(g, A.LayMeld(0, RUN, tuple(cs("4h", "5h", "6h", "7h")), AFTER_WINDOW))


def test_k_m7_one_complete_run_stands_for_three_runs() -> None:
    run13 = ["Ad", "2d", "3d", "4d", "5d", "6d", "7d", "8d", "9d", "10d", "Jd", "Qd", "Kd"]
    g = forced_game([[*run13, "9c"], ["2c", "3c"]], first=0, round_no=4)  # contract 4 4 4
    play(g, A.Draw(0, AFTER_WINDOW))
    events = play(g, A.LayDown(0, ((RUN, tuple(cs(*run13))),), AFTER_WINDOW))
    assert events[-1].kind == "laid_down"
    assert g.round.seats[0].laid_down


def test_k_m7_the_helper_finds_a_complete_run_contract() -> None:
    run13 = cs("Ad", "2d", "3d", "4d", "5d", "6d", "7d", "8d", "9d", "10d", "Jd", "Qd", "Kd")
    found = find_contract([*run13, *cs("9c", "2s")], (4, 4, 4))
    assert found is not None and len(found) == 1 and len(found[0][1]) == 13


def test_k_m_rules_validate_the_pack_size() -> None:
    with pytest.raises(ValueError):
        Rules(pagat_pack=True)  # K-V5: 3-6 players only


def test_k_m7_needs_a_contract_with_three_runs() -> None:
    run13 = ["Ad", "2d", "3d", "4d", "5d", "6d", "7d", "8d", "9d", "10d", "Jd", "Qd", "Kd"]
    g = forced_game([[*run13, "5s", "5h", "5c", "9c"], ["2c", "3c"]], first=0, round_no=3)
    play(g, A.Draw(0, AFTER_WINDOW))  # round 3 is 3 4 4: two runs, K-M7 does not apply
    melds = ((SET, tuple(cs("5s", "5h", "5c"))), (RUN, tuple(cs(*run13))))
    with pytest.raises(IllegalAction, match="not_the_contract"):
        play(g, A.LayDown(0, melds, AFTER_WINDOW))


def test_k_m7_a_complete_run_and_a_set_meet_three_four_four_four() -> None:
    run13 = ["2d", "3d", "4d", "5d", "6d", "7d", "8d", "9d", "10d", "Jd", "Qd", "Kd", "Ad"]
    g = forced_game([[*run13, "5s", "5h", "5c", "9c"], ["2c", "3c"]], first=0, round_no=8)
    play(g, A.Draw(0, AFTER_WINDOW))
    melds = ((SET, tuple(cs("5s", "5h", "5c"))), (RUN, tuple(cs(*run13))))
    play(g, A.LayDown(0, melds, AFTER_WINDOW))
    assert [m.kind for m in g.round.melds] == [SET, RUN] and g.round.melds[1].low == 2


def test_a_run_picked_unordered_is_laid_in_order() -> None:
    g = forced_game(
        [["8h", "JK", "5h", "7h", "Ks", "Kd", "Kc", "2c"], ["2d", "3d"]], first=0, round_no=2
    )
    g.round.seats[0].hand += cs("Qs", "Qd", "Qc")
    play(g, A.Draw(0, AFTER_WINDOW))
    melds = (
        (SET, tuple(cs("Ks", "Kd", "Kc"))),
        (SET, tuple(cs("Qs", "Qd", "Qc"))),
        (RUN, tuple(cs("8h", "JK", "5h", "7h"))),
    )
    play(g, A.LayDown(0, melds, AFTER_WINDOW))
    assert g.round.melds[2].cards == cs("5h", "JK", "7h", "8h") and g.round.melds[2].low == 5


def test_every_suggested_lay_down_is_accepted() -> None:
    """The helper's suggestion (listed as the one LayDown) passes the engine's own check."""
    import random

    from tamalou.games.kalooki.engine import check_lay_down, suggest_lay_down
    from tamalou.games.kalooki.rules import KALOOKI, build_pack

    pack = build_pack(2, 4)
    rng = random.Random(11)
    found = 0
    for i in range(300):
        index = i % 9
        rng.shuffle(pack)
        size = KALOOKI.rounds[index].cards + 6
        g = forced_game([[], []], first=0, round_no=index + 1)
        g.round.seats[0].hand, g.round.stage = pack[:size], "play"
        suggestion = suggest_lay_down(g.round.seats[0].hand, KALOOKI.rounds[index].contract)
        if suggestion is not None:
            found += 1
            check_lay_down(g, 0, suggestion)
    assert found > 10
