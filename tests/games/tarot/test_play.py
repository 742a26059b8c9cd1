"""Play: leads, following, trumping, overtrumping, the Excuse, the winner of a trick (T-P)."""

from __future__ import annotations

from tamalou.games.tarot import actions as A
from tamalou.games.tarot import events as E
from tamalou.games.tarot.cards import EXCUSE
from tamalou.games.tarot.engine import playable, trick_winner
from tamalou.games.tarot.rules import GARDE
from tamalou.games.tarot.scoring import ATTACK, DEFENCE, camps, count_camps

from .helpers import c, cs, dealt, only, play, refused, to_play, trick


def test_t_p1_the_seat_after_the_dealer_leads_and_the_winner_leads_next() -> None:
    game = dealt([["As"], ["Ks"], ["2s"], ["3s"]])
    to_play(game, taker=2)
    assert game.deal.current == 0  # dealer 3: seat 0 is the next seat
    ev = play(game, "As", "Ks", "2s", "3s")
    assert only(ev, E.TrickWon).winner == 1
    assert game.deal.current == 1


def test_t_p2_a_led_excuse_lets_the_next_card_set_the_suit() -> None:
    game = dealt([["EX"], ["5h"], ["2h", "Ks"], []])
    to_play(game, taker=3)
    play(game, "EX")
    assert set(playable(game, 1)) == set(game.deal.seats[1].hand)  # anything: nothing led
    play(game, "5h")
    assert c("2h") in playable(game, 2)
    refused(game, A.Play(2, c("Ks"), game.now), "must_follow")  # hearts now


def test_t_p3_follow_the_led_suit_without_having_to_go_higher() -> None:
    game = dealt([["Qs"], ["2s", "Ks", "3h"], [], []])
    to_play(game, taker=3)
    play(game, "Qs")
    refused(game, A.Play(1, c("3h"), game.now), "must_follow")
    assert c("2s") in playable(game, 1) and c("Ks") in playable(game, 1)
    play(game, "2s")


def test_t_p3_without_the_suit_you_must_trump() -> None:
    game = dealt([["Qs"], ["T5", "3h"], [], []], voids={1: "s"})
    to_play(game, taker=3)
    play(game, "Qs")
    refused(game, A.Play(1, c("3h"), game.now), "must_trump")
    assert all(k >= c("T1") for k in playable(game, 1))


def test_t_p4_you_must_overtrump_even_over_a_partner_else_any_trump() -> None:
    game = dealt(
        [["Qs"], ["T10"], ["T3", "T12", "3h"], ["T2", "T4"]], voids={1: "s", 2: "s", 3: "sT"}
    )
    to_play(game, taker=0)
    play(game, "Qs", "T10")  # seats 1 and 2 are partners in defence: still overtrump
    refused(game, A.Play(2, c("T3"), game.now), "must_overtrump")
    options = playable(game, 2)
    assert c("T12") in options and all(k > c("T10") for k in options if k != EXCUSE)
    play(game, "T12")
    # seat 3 holds no spade and only lower trumps: any trump (pisser)
    assert set(playable(game, 3)) >= set(cs("T2", "T4"))


def test_t_p4_trumps_led_must_be_overtrumped_and_with_nothing_any_card() -> None:
    game = dealt([["T8"], ["T9", "T3"], ["4h", "2d"], []], voids={2: "T"})
    to_play(game, taker=3)
    play(game, "T8")
    refused(game, A.Play(1, c("T3"), game.now), "must_overtrump")
    play(game, "T9")
    assert set(playable(game, 2)) == set(game.deal.seats[2].hand)  # no trump: any card


def test_t_p5_the_excuse_may_replace_any_card_and_never_wins() -> None:
    game = dealt([["Qs"], ["EX", "2s"], ["3s"], ["4s"]])
    to_play(game, taker=3)
    play(game, "Qs")
    assert EXCUSE in playable(game, 1)
    ev = play(game, "EX", "3s", "4s")
    assert only(ev, E.TrickWon).winner == 0


def test_t_p6_a_trick_goes_to_the_highest_trump_else_the_highest_card_of_the_led_suit() -> None:
    assert trick_winner(trick(0, [0, 1, 2, 3], ["5h", "Kd", "9h", "2h"], -1)) == 2
    assert trick_winner(trick(0, [0, 1, 2, 3], ["5h", "T2", "Kh", "T1"], -1)) == 1
    assert trick_winner(trick(1, [1, 2, 3, 0], ["EX", "3c", "Kh", "4c"], -1)) == 0


def test_t_p7_the_excuse_stays_with_its_camp_for_a_half_point() -> None:
    camp = camps(4, 0, None)
    tricks = [
        trick(1, [1, 2, 3, 0], ["EX", "2s", "3s", "Ks"], 0),  # defence's Excuse, attack's trick
        trick(0, [0, 1, 2, 3], ["As", "4s", "5s", "6s"], 0),
    ]
    count = count_camps(camp, GARDE, tricks, [], [])
    assert count.hp == (1 + 1 + 9 + 1 + 4, 9 - 1)  # 0.5 given for the Excuse kept
    assert count.oudlers == (0, 1)


def test_t_p7_the_exchange_is_made_even_if_the_excuse_camp_wins_no_trick() -> None:
    camp = camps(4, 0, None)
    tricks = [
        trick(0, [0, 1, 2, 3], ["EX", "2s", "3s", "4s"], 1),
        trick(1, [1, 2, 3, 0], ["5s", "6s", "7s", "8s"], 1),
    ]
    assert count_camps(camp, GARDE, tricks, [], []).hp == (9 - 1, 3 + 1 + 4)


def test_t_p8_an_excuse_on_the_last_trick_goes_to_the_other_camp() -> None:
    camp = camps(5, 0, 2)  # taker 0 and partner 2
    tricks = [
        trick(0, [0, 1, 2, 3, 4], ["2s", "3s", "4s", "5s", "Ks"], 4),
        trick(4, [4, 0, 1, 2, 3], ["6s", "EX", "7s", "Qs", "8s"], 2),  # the attack wins it
    ]
    count = count_camps(camp, GARDE, tricks, [], [])
    assert count.hp[DEFENCE] == 13 + 9 and count.oudlers == (0, 1)  # the Excuse is lost


def test_t_p8_the_excuse_wins_the_last_trick_after_every_earlier_trick() -> None:
    camp = camps(4, 0, None)
    tricks = [
        trick(0, [0, 1, 2, 3], ["Ks", "2s", "3s", "4s"], 0),
        trick(0, [0, 1, 2, 3], ["EX", "5s", "6s", "T2"], 3),
    ]
    count = count_camps(camp, GARDE, tricks, [], [])
    assert count.winners == (0, 0) and count.tricks == (2, 0)
    assert count.hp == (9 + 3 + 9 + 3, 0) and count.hp[ATTACK] == 24
