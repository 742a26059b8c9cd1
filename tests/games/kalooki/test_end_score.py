"""K-E (end of round, the draw pile running out), K-P (scoring) and K-X (penalties)."""

from __future__ import annotations

import pytest

from tamalou.core.errors import IllegalAction
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.codec import game_to_dict
from tamalou.games.kalooki.engine import legal_actions, new_game
from tamalou.games.kalooki.rules import BABY, KALOOKI, SET, RoundSpec

from .helpers import AFTER_WINDOW, card, cs, forced_game, kinds, place_melds, play

T = AFTER_WINDOW
THREE_SETS = ["5h", "5s", "5d", "8c", "8s", "8h", "Kd", "Ks", "Kc"]
LAY = tuple((SET, tuple(cs(*THREE_SETS[i : i + 3]))) for i in (0, 3, 6))


def _ended(events: list[E.Event]) -> E.RoundEnded:
    found = [e for e in events if isinstance(e, E.RoundEnded)]
    assert found
    return found[-1]


def test_k_e1_the_final_discard_empties_the_hand_and_ends_the_round() -> None:
    g = forced_game([["9h"], ["Kh", "5d"]], pile=["9d"], first=0)
    place_melds(g, [(0, SET, ["9c", "9s", "9h@1"])])
    play(g, A.Draw(0, T))
    play(g, A.LayOff(0, card("9d"), 0, "high", T))
    events = play(g, A.Discard(0, card("9h"), T))
    assert _ended(events).out == 0 and g.round.phase == "over"
    assert legal_actions(g, 1, T) == [A.NextRound(1, T)]


def test_k_e2_e3_an_empty_pile_is_refilled_once_from_the_discard_pile() -> None:
    """K-E2, K-E3: the discard pile minus its top, shuffled (seeded, recorded for the log)."""
    g = forced_game([["2c", "3c"], ["4c", "5c"]], discard=["6h", "7h", "8h", "9h"], first=0)
    g.round.pile = []
    events = play(g, A.Draw(0, T))
    assert kinds(events)[:2] == ["reshuffled", "reshuffle_order"]
    assert g.round.discard == [card("9h")]  # the top stays
    assert len(g.round.pile) == 2 and g.round.seats[0].hand[-1] in cs("6h", "7h", "8h")
    order = next(e for e in events if isinstance(e, E.ReshuffleOrder))
    assert order.to == ()  # the new order is for the log only


def test_k_e4_e5_a_second_exhaustion_voids_the_round_and_the_dealer_redeals() -> None:
    """K-E4, K-E5: nobody scores, the same dealer redeals the same round, calls reset."""
    g = forced_game([["2c", "3c"], ["4c", "5c"]], discard=["6h", "7h"], first=0)
    r = g.round
    r.pile, r.reshuffles = [], 1
    r.seats[1].calls = 2
    dealer = r.dealer
    events = play(g, A.Draw(0, T))
    voided = next(e for e in events if isinstance(e, E.RoundVoided))
    assert voided.round_no == 1 and g.voids == 1
    r = g.round
    assert (r.round_no, r.deal_no, r.dealer) == (1, 2, dealer)
    assert all(s.calls == 0 for s in r.seats) and g.cumulative == [0.0, 0.0] and not g.history


def test_k_e4_a_reshuffle_yielding_no_card_voids_the_round() -> None:
    g = forced_game([["2c", "3c"], ["4c", "5c"]], discard=["6h"], first=0)
    g.round.pile = []
    events = play(g, A.Draw(0, T))
    assert "round_voided" in kinds(events) and g.round.deal_no == 2


def test_k_e2_a_penalty_card_from_an_empty_pile_counts_too() -> None:
    hands = [["2c", "3c"], ["4c", "5c"], ["6c", "7c"]]
    g = forced_game(hands, discard=["6h", "7h", "8h"], first=0)
    g.round.pile = []
    play(g, A.Call(1, at=100))
    events = play(g, A.Draw(0, 200))
    assert kinds(events)[:3] == ["call_allowed", "reshuffled", "reshuffle_order"]
    assert "penalty_card" in kinds(events)


def test_k_p1_the_player_going_out_scores_zero_the_others_their_points() -> None:
    g = forced_game([["9h"], ["Kh", "5d", "JK"], ["As", "Ah"]], pile=["9d"], first=0)
    place_melds(g, [(1, SET, ["Jc", "Jd", "Jh"]), (0, SET, ["9c", "9s", "9h@1"])])
    play(g, A.Draw(0, T))
    play(g, A.LayOff(0, card("9d"), 1, "high", T))
    ended = _ended(play(g, A.Discard(0, card("9h"), T)))
    assert ended.scores == (0.0, 65.0, 16.0) and not ended.doubled
    assert g.cumulative == [0.0, 65.0, 16.0]


def test_k_p2_going_out_in_one_go_doubles_the_others() -> None:
    g = forced_game([THREE_SETS, ["Kh", "5d@1"]], pile=["2c"], first=0)
    play(g, A.Draw(0, T))
    play(g, A.LayDown(0, LAY, T))
    ended = _ended(play(g, A.Discard(0, card("2c"), T)))
    assert ended.doubled and ended.scores == (0.0, 30.0)


def test_k_p2_no_doubling_if_somebody_laid_down_first() -> None:
    g = forced_game([THREE_SETS, ["Kh", "5d@1"]], pile=["2c"], first=0)
    place_melds(g, [(1, SET, ["Jc", "Jd", "Jh"])])
    play(g, A.Draw(0, T))
    play(g, A.LayDown(0, LAY, T))
    ended = _ended(play(g, A.Discard(0, card("2c"), T)))
    assert not ended.doubled and ended.scores == (0.0, 15.0)
    # K-V4 double_any_one_go: doubled all the same
    rules = KALOOKI.model_copy(update={"double_any_one_go": True})
    g = forced_game([THREE_SETS, ["Kh", "5d@1"]], pile=["2c"], first=0, rules=rules)
    place_melds(g, [(1, SET, ["Jc", "Jd", "Jh"])])
    play(g, A.Draw(0, T))
    play(g, A.LayDown(0, LAY, T))
    assert _ended(play(g, A.Discard(0, card("2c"), T))).doubled


def test_k_p3_totals_add_up_lowest_wins_ties_share() -> None:
    one_round = BABY.model_copy(update={"rounds": (RoundSpec(cards=6, contract=(3, 3)),)})
    g = forced_game([["9h"], ["Kh", "5d"], ["Qh", "5c"]], pile=["9d"], first=0, rules=one_round)
    g.cumulative = [30.0, 0.0, 0.0]
    place_melds(g, [(0, SET, ["9c", "9s", "9h@1"])])
    play(g, A.Draw(0, T))
    play(g, A.LayOff(0, card("9d"), 0, "high", T))
    ended = _ended(play(g, A.Discard(0, card("9h"), T)))
    assert ended.places == (1, 2, 2)  # the round: equal points share the place
    assert ended.cumulative == (30.0, 15.0, 15.0)
    assert ended.match_over and g.over and list(ended.winners) == [1, 2]


def test_k_x2_a_wrong_lay_down_is_refused_up_front_without_penalty() -> None:
    g = forced_game([THREE_SETS, ["Kh", "5d@1"]], pile=["2c"], first=0)
    play(g, A.Draw(0, T))
    before = game_to_dict(g)
    with pytest.raises(IllegalAction, match="not_the_contract"):
        play(g, A.LayDown(0, LAY[:2], T))
    assert game_to_dict(g) == before


def test_k_x3_the_order_of_a_turn_is_enforced_not_fined() -> None:
    g = forced_game([THREE_SETS, ["Kh", "5d@1"]], pile=["2c"], first=0)
    with pytest.raises(IllegalAction, match="draw_first"):
        play(g, A.Discard(0, card("5h"), T))
    assert g.cumulative == [0.0, 0.0]


def test_k_x4_a_joker_discard_is_refused() -> None:
    g = forced_game([["JK", "2c"], ["Kh", "5d"]], first=0)
    play(g, A.Draw(0, T))
    with pytest.raises(IllegalAction, match="joker_discard"):
        play(g, A.Discard(0, card("JK"), T))


def test_k_x5_no_cut_the_seed_alone_decides_the_deal() -> None:
    a = next(e for e in new_game(KALOOKI, 4, "x5")[1] if isinstance(e, E.Dealt))
    b = next(e for e in new_game(KALOOKI, 4, "x5")[1] if isinstance(e, E.Dealt))
    assert a == b
