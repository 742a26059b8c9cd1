"""K-T (a turn) and K-L (laying down and off, the joker shift)."""

from __future__ import annotations

import pytest

from tamalou.core.errors import IllegalAction
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.codec import game_to_dict
from tamalou.games.kalooki.engine import legal_actions
from tamalou.games.kalooki.rules import KALOOKI, RUN, SET

from .helpers import AFTER_WINDOW, card, cs, forced_game, kinds, place_melds, play

T = AFTER_WINDOW
THREE_SETS = ["5h", "5s", "5d", "8c", "8s", "8h", "Kd", "Ks", "Kc"]


def _sets(*groups: list[str]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    return tuple((SET, tuple(cs(*g))) for g in groups)


def test_k_t1_nothing_is_laid_or_discarded_before_the_draw() -> None:
    g = forced_game([[*THREE_SETS, "2c"], ["3c", "4d"]], first=0)
    with pytest.raises(IllegalAction, match="draw_first"):
        play(g, A.LayDown(0, _sets(THREE_SETS[:3], THREE_SETS[3:6], THREE_SETS[6:]), T))
    with pytest.raises(IllegalAction, match="draw_first"):
        play(g, A.Discard(0, card("2c"), T))
    play(g, A.Draw(0, T))
    with pytest.raises(IllegalAction, match="already_drew"):
        play(g, A.Draw(0, T))


def test_k_t2_draw_the_pile_or_the_live_discard_if_not_laid_down() -> None:
    g = forced_game([["2c", "3d"], ["4c", "5d"]], pile=["9h"], discard=["7s"], first=0)
    play(g, A.TakeDiscard(0, T))
    assert card("7s") in g.round.seats[0].hand and g.round.discard == []
    g = forced_game([["2c", "3d"], ["4c", "5d"]], pile=["9h"], discard=["7s"], first=0)
    events = play(g, A.Draw(0, T))
    assert card("9h") in g.round.seats[0].hand and kinds(events)[-2:] == ["drew", "drawn_card"]


def test_k_t3_any_non_joker_may_be_discarded_the_card_just_taken_included() -> None:
    g = forced_game([["2c", "3d"], ["4c", "5d"]], discard=["7s"], first=0)
    play(g, A.TakeDiscard(0, T))
    events = play(g, A.Discard(0, card("7s"), T))
    assert events[0].kind == "discarded" and g.round.discard[-1] == card("7s")


def test_k_t4_discarding_a_joker_is_refused() -> None:
    g = forced_game([["JK", "3d"], ["4c", "5d"]], first=0)
    play(g, A.Draw(0, T))
    with pytest.raises(IllegalAction, match="joker_discard"):
        play(g, A.Discard(0, card("JK"), T))


def test_k_t5_a_lay_must_leave_a_non_joker() -> None:
    g = forced_game([["9h", "JK"], ["4c", "5d"]], pile=["JK@1"], first=0)
    place_melds(g, [(0, SET, ["9c", "9s", "9d"])])
    play(g, A.Draw(0, T))
    offs = [a for a in legal_actions(g, 0, T) if isinstance(a, A.LayOff)]
    assert not any(a.card == card("9h") for a in offs)
    with pytest.raises(IllegalAction, match="keep_a_card"):
        play(g, A.LayOff(0, card("9h"), 0, "high", T))


def test_k_t5_an_all_joker_hand_ends_the_turn_or_goes_out_on_own_melds() -> None:
    g = forced_game([["JK"], ["4c", "5d"]], pile=["JK@1"], first=0)
    place_melds(g, [(0, SET, ["9c", "9s", "9d"]), (1, SET, ["7c", "7s", "7d"])])
    play(g, A.Draw(0, T))
    legal = legal_actions(g, 0, T)
    assert A.EndTurn(0, T) in legal and not any(a.kind == "discard" for a in legal)
    with pytest.raises(IllegalAction, match="joker_on_others_meld"):
        play(g, A.LayOff(0, card("JK"), 1, "high", T))
    play(g, A.LayOff(0, card("JK"), 0, "high", T))
    events = play(g, A.LayOff(0, card("JK@1"), 0, "high", T))
    ended = events[-1]
    assert isinstance(ended, E.RoundEnded) and ended.out == 0  # K-E1


def test_k_l1_the_lay_down_is_one_action_with_exactly_the_contract() -> None:
    g = forced_game([[*THREE_SETS, "2c"], ["3c", "4d"]], first=0)
    play(g, A.Draw(0, T))
    before = game_to_dict(g)
    with pytest.raises(IllegalAction, match="not_the_contract"):
        play(g, A.LayDown(0, _sets(THREE_SETS[:3], THREE_SETS[3:6]), T))
    with pytest.raises(IllegalAction, match="set_mixed_ranks") as refused:
        play(g, A.LayDown(0, _sets(THREE_SETS[:3], ["8c", "8s", "Kd"], ["8h", "Ks", "Kc"]), T))
    assert refused.value.detail["meld"] == 2  # which meld is wrong, for the UI
    assert game_to_dict(g) == before  # refused: nothing changed
    events = play(g, A.LayDown(0, _sets(THREE_SETS[:3], THREE_SETS[3:6], THREE_SETS[6:]), T))
    assert events[-1].kind == "laid_down" and len(g.round.melds) == 3
    assert g.round.seats[0].hand == [card("2c"), g.round.drawn]


def test_k_l1_no_card_twice() -> None:
    g = forced_game([[*THREE_SETS, "2c"], ["3c", "4d"]], first=0)
    play(g, A.Draw(0, T))
    with pytest.raises(IllegalAction, match="card_twice"):
        play(g, A.LayDown(0, _sets(["5h", "5h", "5s"], THREE_SETS[3:6], THREE_SETS[6:]), T))


def test_k_l2_after_the_lay_down_new_melds_and_lay_offs_the_same_turn() -> None:
    hand = [*THREE_SETS, "5c", "2h", "3h", "4h", "5h@1", "Qc"]
    g = forced_game([hand, ["3c", "4d"]], first=0)
    play(g, A.Draw(0, T))
    play(g, A.LayDown(0, _sets(THREE_SETS[:3], THREE_SETS[3:6], THREE_SETS[6:]), T))
    play(g, A.LayOff(0, card("5c"), 0, "high", T))
    events = play(g, A.LayMeld(0, RUN, tuple(cs("2h", "3h", "4h", "5h@1")), T))
    assert events[-1].kind == "meld_laid" and len(g.round.melds[0].cards) == 4


def test_k_l3_once_laid_down_no_discard_taken_and_no_call() -> None:
    g = forced_game([["2c", "3d"], ["4c", "5d"], ["6c", "7d"]], discard=["7s"], first=0)
    place_melds(g, [(0, SET, ["9c", "9s", "9d"]), (2, SET, ["8c", "8s", "8d"])])
    assert A.TakeDiscard(0, T) not in legal_actions(g, 0, T)
    with pytest.raises(IllegalAction, match="laid_down"):
        play(g, A.TakeDiscard(0, T))
    with pytest.raises(IllegalAction, match="laid_down"):
        play(g, A.Call(2, at=100))


def test_k_l4_lay_offs_on_anyones_melds_at_the_ends_only() -> None:
    g = forced_game([["3s", "8s", "9s", "2h", "Kc"], ["4c", "5d"]], first=0)
    place_melds(g, [(0, SET, ["Jc", "Jd", "Jh"]), (1, RUN, ["4s", "5s", "6s", "7s"])])
    play(g, A.Draw(0, T))
    with pytest.raises(IllegalAction, match="does_not_fit"):
        play(g, A.LayOff(0, card("9s"), 1, "high", T))
    play(g, A.LayOff(0, card("3s"), 1, "low", T))
    play(g, A.LayOff(0, card("8s"), 1, "high", T))
    assert g.round.melds[1].cards == cs("3s", "4s", "5s", "6s", "7s", "8s")
    # before laying down: refused
    g = forced_game([["3s", "9d"], ["4c", "5d"]], first=0)
    place_melds(g, [(1, RUN, ["4s", "5s", "6s", "7s"])])
    play(g, A.Draw(0, T))
    with pytest.raises(IllegalAction, match="not_laid_down"):
        play(g, A.LayOff(0, card("3s"), 0, "low", T))


def test_k_l4_nothing_below_an_ace_low() -> None:
    g = forced_game([["Kd@1", "9c", "2c"], ["4c", "5d"]], first=0)
    place_melds(g, [(1, RUN, ["Ad", "2d", "3d", "4d"]), (0, SET, ["Jc", "Jd", "Jh"])])
    play(g, A.Draw(0, T))
    with pytest.raises(IllegalAction, match="does_not_fit"):
        play(g, A.LayOff(0, card("Kd@1"), 0, "low", T))


def test_k_l5_jokers_only_on_own_melds_the_player_picks_the_run_end() -> None:
    g = forced_game([["JK", "JK@1", "9c", "2c"], ["4c", "5d"]], first=0)
    place_melds(g, [(0, RUN, ["5h", "6h", "7h", "8h"]), (1, RUN, ["5s", "6s", "7s", "8s"])])
    play(g, A.Draw(0, T))
    with pytest.raises(IllegalAction, match="joker_on_others_meld"):
        play(g, A.LayOff(0, card("JK"), 1, "high", T))
    play(g, A.LayOff(0, card("JK"), 0, "low", T))
    assert g.round.melds[0].low == 4 and g.round.melds[0].cards[0] == card("JK")
    with pytest.raises(IllegalAction, match="run_jokers_adjacent"):
        play(g, A.LayOff(0, card("JK@1"), 0, "low", T))
    play(g, A.LayOff(0, card("JK@1"), 0, "high", T))
    assert g.round.melds[0].cards[-1] == card("JK@1")


def test_k_l6_a_joker_in_a_set_never_moves() -> None:
    g = forced_game([["9h", "2c", "3c"], ["4c", "5d"]], first=0)
    place_melds(g, [(1, SET, ["9c", "9s", "JK"]), (0, SET, ["Jc", "Jd", "Jh"])])
    play(g, A.Draw(0, T))
    with pytest.raises(IllegalAction, match="joker_in_set"):
        play(g, A.ShiftJoker(0, card("9h"), 0, card("JK"), "high", T))


def test_k_l7_the_joker_shift_moves_the_joker_above_the_top_and_fixes_it() -> None:
    g = forced_game([["6h", "Qs", "2c", "3c"], ["4c", "5d"]], first=0)
    place_melds(g, [(1, RUN, ["5h", "JK", "7h", "8h"]), (0, SET, ["Jc", "Jd", "Jh"])])
    play(g, A.Draw(0, T))
    assert A.ShiftJoker(0, card("6h"), 0, card("JK"), "high", T) in legal_actions(g, 0, T)
    events = play(g, A.ShiftJoker(0, card("6h"), 0, card("JK"), "high", T))  # any player's run
    assert events[-1].kind == "joker_shifted"
    assert g.round.melds[0].cards == cs("5h", "6h", "7h", "8h", "JK")  # Jk stands for 9h
    assert g.round.melds[0].fixed == [card("JK")]


def test_k_l7_a_shifted_joker_is_fixed() -> None:
    g = forced_game([["9h", "2c", "3c"], ["4c", "5d"]], first=0)
    place_melds(g, [(1, RUN, ["5h", "6h", "7h", "8h"]), (0, SET, ["Jc", "Jd", "Jh"])])
    m = g.round.melds[0]
    m.cards.append(card("JK"))
    m.fixed.append(card("JK"))
    play(g, A.Draw(0, T))
    with pytest.raises(IllegalAction, match="joker_fixed"):
        play(g, A.ShiftJoker(0, card("9h"), 0, card("JK"), "high", T))


def test_k_l7_refused_if_jokers_would_touch_or_nothing_fits_above() -> None:
    g = forced_game([["6h", "Qs", "2c", "3c"], ["4c", "5d"]], first=0)
    place_melds(
        g,
        [
            (1, RUN, ["5h", "JK", "7h", "JK@1"]),
            (0, SET, ["Jc", "Jd", "Jh"]),
            (1, RUN, ["Js", "JK@2", "Ks", "As"]),
        ],
    )
    play(g, A.Draw(0, T))
    with pytest.raises(IllegalAction, match="run_jokers_adjacent"):
        play(g, A.ShiftJoker(0, card("6h"), 0, card("JK"), "high", T))
    with pytest.raises(IllegalAction, match="no_place"):
        play(g, A.ShiftJoker(0, card("Qs"), 2, card("JK@2"), "high", T))


def test_k_v5_shift_to_either_end_lets_the_joker_go_below() -> None:
    rules = KALOOKI.model_copy(update={"shift_to_either_end": True})
    g = forced_game([["Qs", "2c", "3c"], ["4c", "5d"]], first=0, rules=rules)
    place_melds(g, [(1, RUN, ["Js", "JK", "Ks", "As"]), (0, SET, ["Jc", "Jd", "Jh"])])
    play(g, A.Draw(0, T))
    play(g, A.ShiftJoker(0, card("Qs"), 0, card("JK"), "low", T))
    assert g.round.melds[0].cards == cs("JK", "Js", "Qs", "Ks", "As")
    assert g.round.melds[0].low == 10


def test_listing_the_moves_of_a_22_card_hand_stays_cheap() -> None:
    """The move space is listed step by step: one action per discard, lay-off and shift,
    at most one suggested lay-down — never every combination."""
    import random
    import time

    from tamalou.games.kalooki.engine import _suggest
    from tamalou.games.kalooki.rules import build_pack

    pack = build_pack(2, 4)
    rng = random.Random(3)
    spent = 0.0
    for _ in range(50):
        rng.shuffle(pack)
        g = forced_game([[], []], first=0, round_no=9)
        g.round.seats[0].hand, g.round.stage = pack[:22], "play"
        _suggest.cache_clear()
        started = time.perf_counter()
        legal = legal_actions(g, 0, T)
        spent += time.perf_counter() - started
        assert sum(1 for a in legal if a.kind == "lay_down") <= 1
        assert len(legal) <= 22 + 1
    assert spent / 50 < 0.005
