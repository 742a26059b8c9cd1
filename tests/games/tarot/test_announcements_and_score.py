"""Announcements (T-A) and the count of a deal (T-E)."""

from __future__ import annotations

from tamalou.games.tarot import actions as A
from tamalou.games.tarot import events as E
from tamalou.games.tarot.cards import lowest_key
from tamalou.games.tarot.engine import apply, legal_actions, playable, poignee_options
from tamalou.games.tarot.rules import GARDE, GARDE_CONTRE, GARDE_SANS, PETITE, TAROT, TAROT3, TAROT5
from tamalou.games.tarot.scoring import (
    ATTACK,
    camps,
    chelem_bonus,
    count_camps,
    deal_outcome,
)

from .helpers import c, cs, dealt, lay_lowest_ecart, only, play, refused, take, trick, trumps

# -- chelem (T-A1) ------------------------------------------------------------------------


def test_t_a1_the_taker_announces_a_chelem_before_the_ecart_and_then_leads() -> None:
    game = dealt([[], [], [], []])
    take(game, 2, GARDE)
    refused(game, A.Chelem(0, True, 0), "not_your_turn")  # only the taker
    ev = apply(game, A.Chelem(2, True, 0))
    assert only(ev, E.ChelemAnnounced) == E.ChelemAnnounced(2, True)
    lay_lowest_ecart(game)
    assert game.deal.phase == "play" and game.deal.current == 2  # not seat 0


def test_t_a1_after_garde_sans_the_window_closes_after_15_s_with_no_chelem() -> None:
    game = dealt([[], [], [], []])
    take(game, 2, GARDE_SANS)
    assert game.deal.phase == "chelem" and game.deal.deadline == TAROT.chelem_ms
    ev = apply(game, A.Tick(TAROT.chelem_ms))
    assert only(ev, E.ChelemAnnounced) == E.ChelemAnnounced(2, False)
    assert game.deal.phase == "play" and game.deal.current == 0 and not game.deal.chelem


def test_t_a1_announced_after_garde_contre_the_taker_leads() -> None:
    game = dealt([[], [], [], []])
    take(game, 1, GARDE_CONTRE)
    apply(game, A.Chelem(1, True, 0))
    assert game.deal.chelem and game.deal.current == 1


# -- poignée (T-A2, T-A3) -----------------------------------------------------------------


def test_t_a2_a_poignee_is_shown_with_ones_card_to_trick_1_only() -> None:
    game = dealt([trumps(*range(2, 13)), [], [], []])  # 11 trumps
    take(game, 1, GARDE_SANS)
    apply(game, A.Chelem(1, False, 0))
    options = [a for a in legal_actions(game, 0) if isinstance(a, A.Poignee)]
    assert [len(a.cards) for a in options] == [10]  # 4 players: 10 / 13 / 15
    refused(game, A.Poignee(0, cs(*trumps(*range(2, 11))), 0), "poignee_size")
    refused(game, A.Poignee(1, cs(*trumps(*range(2, 12))), 0), "not_your_turn")
    refused(game, A.Poignee(0, cs(*trumps(*range(3, 12)), "T21"), 0), "poignee_cards")
    ev = apply(game, A.Poignee(0, cs(*trumps(*range(3, 13))), 0))  # extras hidden: any 10
    shown = only(ev, E.PoigneeShown)
    assert shown.to is None and shown.level == 1 and len(shown.cards) == 10
    refused(game, A.Poignee(0, cs(*trumps(*range(2, 12))), 0), "poignee_already_shown")
    play(game, "T2")
    while game.deal.current != 0:
        seat = game.deal.current
        apply(game, next(a for a in legal_actions(game, seat) if isinstance(a, A.Play)))
    assert len(game.deal.tricks) == 2
    refused(game, A.Poignee(0, cs(*trumps(*range(3, 13))), 0), "poignee_trick_1_only")


def test_t_a2_the_excuse_only_when_every_trump_held_is_shown() -> None:
    game = dealt([[*trumps(*range(2, 11)), "EX"], [], [], []], voids={0: "T"})  # 9 trumps
    take(game, 1, GARDE_SANS)
    apply(game, A.Chelem(1, False, 0))
    assert poignee_options(game, 0) == [(*cs(*trumps(*range(2, 11))), c("EX"))]
    apply(game, A.Poignee(0, (*cs(*trumps(*range(2, 11))), c("EX")), 0))
    game2 = dealt([[*trumps(*range(2, 12)), "EX"], [], [], []], voids={0: "T"})  # 10 trumps
    take(game2, 1, GARDE_SANS)
    apply(game2, A.Chelem(1, False, 0))
    refused(game2, A.Poignee(0, (*cs(*trumps(*range(2, 11))), c("EX")), 0), "poignee_excuse")


def test_t_a2_thresholds_by_players_and_the_takers_discarded_trumps_count() -> None:
    assert TAROT3.poignee_trumps[3] == (13, 15, 18)
    assert TAROT.poignee_trumps[4] == (10, 13, 15)
    assert TAROT5.poignee_trumps[5] == (8, 10, 13)
    hand = trumps(*range(2, 20))
    game = dealt([hand, ["T1", "T20", "T21"], [], []], dog=["Ks", "Kh", "Kd", "Kc", "2s", "3s"])
    take(game, 0, GARDE)
    apply(game, A.Ecart(0, cs("T2", "T3", "T4", "T5", "2s", "3s")))
    shows = poignee_options(game, 0)
    assert [len(s) for s in shows] == [10, 13, 15] and c("T2") in shows[0]  # shown again
    ev = apply(game, A.Poignee(0, shows[2], 0))
    assert only(ev, E.PoigneeShown).level == 3


def test_t_a3_the_bonus_goes_to_the_winning_camp_whoever_declared_it_never_multiplied() -> None:
    camp = camps(4, 0, None)
    won = deal_outcome(TAROT, camp, 0, None, GARDE, 2 * 47, 2, 0, [0, 1, 0, 0], 0)
    assert won.poignees == 20 and won.per_defender == (25 + 6) * 2 + 20
    lost = deal_outcome(TAROT, camp, 0, None, GARDE, 2 * 30, 2, 0, [3, 0, 0, 0], 0)
    assert lost.per_defender == -(25 + 11) * 2 - 40  # the taker's own triple goes to the defence
    both = deal_outcome(TAROT, camp, 0, None, PETITE, 2 * 56, 0, 0, [1, 2, 0, 0], 0)
    assert both.per_defender == 25 + 20 + 30  # every declared poignée counts


def test_t_a4_no_misere_no_petit_imprenable_no_small_slam() -> None:
    assert set(A.ACTION_TYPES) == {
        "bid",
        "call",
        "discard",
        "ecart",
        "chelem",
        "poignee",
        "play",
        "next_deal",
        "tick",
    }


# -- the count (T-E) ----------------------------------------------------------------------


def test_t_e1_the_attack_is_the_taker_and_partner_with_the_ecart() -> None:
    camp = camps(5, 0, 3)
    assert [s for s in range(5) if camp[s] == ATTACK] == [0, 3]
    tricks = [trick(1, [1, 2, 3, 4, 0], ["Ks", "2s", "Qs", "3s", "4s"], 1)]
    count = count_camps(camp, GARDE, tricks, [], list(cs("Kh", "T21", "5s")))
    assert count.hp == (9 + 9 + 1, 9 + 1 + 7 + 1 + 1) and count.oudlers == (1, 0)


def test_t_e2_needed_points_by_oudlers_and_the_half_point_goes_to_the_winner() -> None:
    camp = camps(4, 0, None)
    for oudlers, needed in enumerate((56, 51, 41, 36)):
        exact = deal_outcome(TAROT, camp, 0, None, PETITE, 2 * needed, oudlers, 0, [], 0)
        assert exact.won and exact.margin == 0 and exact.needed == needed  # equal: won by 0
    below = deal_outcome(TAROT, camp, 0, None, PETITE, 81, 2, 0, [], 0)  # 40.5 with 2
    above = deal_outcome(TAROT, camp, 0, None, PETITE, 83, 2, 0, [], 0)  # 41.5 with 2
    assert (below.won, below.margin) == (False, 1)
    assert (above.won, above.margin) == (True, 1)


def test_t_e3_petit_au_bout_goes_to_the_camp_winning_the_last_trick_win_or_lose() -> None:
    camp = camps(4, 0, None)
    tricks = [
        trick(0, [0, 1, 2, 3], ["Ks", "2s", "3s", "4s"], 0),
        trick(0, [0, 1, 2, 3], ["T1", "T2", "5s", "6s"], 1),
    ]
    assert count_camps(camp, GARDE, tricks, [], []).petit_au_bout == -1
    out = deal_outcome(TAROT, camp, 0, None, GARDE_SANS, 2 * 60, 0, -1, [], 0)
    assert out.per_defender == (25 + 4 - 10) * 4  # 10 x the multiplier, against the attack


def test_t_e3_when_the_excuse_wins_the_last_trick_the_one_before_is_judged() -> None:
    camp = camps(4, 0, None)
    tricks = [
        trick(0, [0, 1, 2, 3], ["T1", "2s", "3s", "4s"], 0),
        trick(0, [0, 1, 2, 3], ["EX", "5s", "6s", "7s"], 1),
    ]
    count = count_camps(camp, GARDE, tricks, [], [])
    assert count.winners == (0, 0) and count.petit_au_bout == 1


def test_t_e4_the_per_defender_score_and_the_chelem_bonuses() -> None:
    camp = camps(4, 0, None)
    out = deal_outcome(TAROT, camp, 0, None, GARDE_CONTRE, 2 * 46, 3, 1, [0, 2, 0, 0], 200)
    assert out.margin == 10 and out.per_defender == (25 + 10 + 10) * 6 + 30 + 200
    assert chelem_bonus(TAROT, (18, 0), True) == 400
    assert chelem_bonus(TAROT, (18, 0), False) == 200
    assert chelem_bonus(TAROT, (17, 1), True) == -200
    assert chelem_bonus(TAROT, (0, 18), False) == -200
    assert chelem_bonus(TAROT, (0, 18), True) == -400
    assert chelem_bonus(TAROT, (9, 9), False) == 0


def test_t_e4_an_opponents_excuse_does_not_break_a_chelem() -> None:
    camp = camps(4, 0, None)
    tricks = [trick(0, [0, 1, 2, 3], ["Ks", "EX", "3s", "4s"], 0)] * 2
    assert count_camps(camp, GARDE, tricks, [], []).tricks == (2, 0)


def test_t_e5_the_split_between_camps_sums_to_zero() -> None:
    three = deal_outcome(TAROT3, camps(3, 1, None), 1, None, PETITE, 2 * 60, 1, 0, [], 0)
    assert three.scores == (-34, 68, -34)
    four = deal_outcome(TAROT, camps(4, 1, None), 1, None, PETITE, 2 * 60, 1, 0, [], 0)
    assert four.scores == (-34, 102, -34, -34)
    five = deal_outcome(TAROT5, camps(5, 1, 4), 1, 4, PETITE, 2 * 60, 1, 0, [], 0)
    assert five.scores == (-34, 68, -34, -34, 34)
    alone = deal_outcome(TAROT5, camps(5, 1, None), 1, None, PETITE, 2 * 60, 1, 0, [], 0)
    assert alone.scores == (-34, 136, -34, -34, -34)
    for out in (three, four, five, alone):
        assert sum(out.scores) == 0


def test_t_e6_the_rulebook_example() -> None:
    out = deal_outcome(TAROT, camps(4, 0, None), 0, None, GARDE, 2 * 47, 2, 0, [0, 1, 0, 0], 0)
    assert out.margin == 6 and out.per_defender == 82
    assert out.scores == (246, -82, -82, -82)


def test_t_a1_t_p8_t_e4_an_announced_chelem_made_with_the_excuse_leading_the_last_trick() -> None:
    game = dealt([[*trumps(*range(5, 22)), "EX"], [], [], []])
    take(game, 0, GARDE_SANS)
    apply(game, A.Chelem(0, True, 0))
    assert game.deal.current == 0
    events: list[E.Event] = []
    while game.deal.phase == "play":
        seat = game.deal.current
        mine = game.deal.seats[seat].hand
        if seat == 0:
            card = max(k for k in mine if k != c("EX")) if len(mine) > 1 else c("EX")
        else:
            card = min(playable(game, seat), key=lowest_key)
        events += apply(game, A.Play(seat, card, game.now))
    end = only(events, E.DealEnded)
    assert end.chelem == 400 and end.won and end.attack_hp == 182 and end.oudlers == 3
    pab = 1 if c("T1") in game.deal.tricks[-2].cards else 0  # the Excuse won the last trick
    assert end.petit_au_bout == pab
    assert end.per_defender == (25 + 55 + 10 * pab) * 4 + 400
