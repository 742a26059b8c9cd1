"""Bidding, the dog and the écart (T-B)."""

from __future__ import annotations

from tamalou.games.tarot import actions as A
from tamalou.games.tarot import events as E
from tamalou.games.tarot.cards import hp
from tamalou.games.tarot.engine import apply, legal_actions
from tamalou.games.tarot.rules import GARDE, GARDE_CONTRE, GARDE_SANS, PASS, PETITE, TAROT
from tamalou.games.tarot.scoring import ATTACK, DEFENCE, camps, count_camps
from tamalou.games.tarot.views import public_view, view

from .helpers import bid_round, c, cs, dealt, has, only, refused, suit, take, trumps


def test_t_b1_four_contracts_with_their_multipliers() -> None:
    assert [TAROT.multiplier(k) for k in (PETITE, GARDE, GARDE_SANS, GARDE_CONTRE)] == [1, 2, 4, 6]


def test_t_b2_one_round_from_the_dealers_right_each_bid_strictly_higher() -> None:
    game = dealt([[], [], [], []])
    assert game.deal.current == 0
    apply(game, A.Bid(0, GARDE))
    assert [a.contract for a in legal_actions(game, 1) if isinstance(a, A.Bid)] == [0, 3, 4]
    refused(game, A.Bid(1, PETITE), "bid_too_low")
    refused(game, A.Bid(1, GARDE), "bid_too_low")
    refused(game, A.Bid(2, PASS), "not_your_turn")
    ev = bid_round(game, [GARDE_SANS, PASS, PASS])
    assert only(ev, E.TakerKnown) == E.TakerKnown(1, GARDE_SANS)
    assert game.deal.taker == 1 and game.deal.contract == GARDE_SANS
    refused(game, A.Bid(0, GARDE_CONTRE), "wrong_phase")  # each speaks once


def test_t_b2_after_a_garde_contre_the_others_pass_automatically() -> None:
    game = dealt([[], [], [], []])
    ev = bid_round(game, [PASS, GARDE_CONTRE])
    auto = [e for e in ev if isinstance(e, E.BidMade) and e.auto]
    assert [(e.player, e.contract) for e in auto] == [(2, PASS), (3, PASS)]
    assert only(ev, E.TakerKnown).taker == 1


def test_t_b3_all_pass_annuls_the_deal_and_the_next_dealer_deals() -> None:
    game = dealt([[], [], [], []])
    ev = bid_round(game, [PASS] * 4)
    assert only(ev, E.DealAnnulled).reason == "all_passed"
    assert has(ev, E.Dealt) and game.deal.dealer == 0 and game.deal.phase == "bid"
    assert game.history == [] and game.cumulative == [0, 0, 0, 0]


def test_t_b4_petite_and_garde_show_the_dog_to_all_then_the_taker_takes_it() -> None:
    dog = ["Kh", "T21", "3s", "4s", "5s", "6s"]
    for contract in (PETITE, GARDE):
        game = dealt([[], [], [], []], dog=dog)
        ev = take(game, 1, contract)
        shown = only(ev, E.DogShown)
        assert shown.to is None and shown.cards == cs(*dog)
        assert len(game.deal.seats[1].hand) == 24 and game.deal.phase == "ecart"
        assert public_view(game).dog == dog


def test_t_b4_garde_sans_and_contre_keep_the_dog_unseen() -> None:
    for contract in (GARDE_SANS, GARDE_CONTRE):
        game = dealt([[], [], [], []], dog=["Kh", "T21", "3s", "4s", "5s", "6s"])
        ev = take(game, 1, contract)
        assert not has(ev, E.DogShown) and game.deal.phase == "chelem"
        assert public_view(game).dog == []
        assert len(game.deal.seats[1].hand) == 18


def test_t_b4_the_dog_counts_for_the_taker_in_garde_sans_and_for_the_defence_in_contre() -> None:
    dog = list(cs("Kh", "T21", "3s", "4s", "5s", "6s"))
    camp = camps(4, 0, None)
    sans = count_camps(camp, GARDE_SANS, [], dog, [])
    contre = count_camps(camp, GARDE_CONTRE, [], dog, [])
    assert sans.hp == (hp(dog), 0) and sans.oudlers == (1, 0)
    assert contre.hp[DEFENCE] == hp(dog) and contre.hp[ATTACK] == 0 and contre.oudlers == (0, 1)
    ecart = list(cs("Qh", "2h"))
    assert count_camps(camp, GARDE, [], dog, ecart).hp == (hp(ecart), 0)  # the écart counts


def test_t_b5_no_king_no_oudler_in_the_ecart_and_trumps_only_if_forced() -> None:
    mine = ["Ks", "T21", "EX", "T5", "Qs", "2s", *suit("s", "3 4 5 6")]
    game = dealt([mine, [], [], []], dog=["Kh", "T1"])
    take(game, 0, GARDE)
    options = {a.card for a in legal_actions(game, 0) if isinstance(a, A.Discard)}
    assert not options & set(cs("Ks", "Kh", "T21", "EX", "T1", "T5"))
    assert c("Qs") in options and c("2s") in options
    good = cs("Qs", "2s", *suit("s", "3 4 5 6"))
    refused(game, A.Ecart(0, (c("Ks"), *good[1:])), "ecart_king")
    refused(game, A.Ecart(0, (c("T21"), *good[1:])), "ecart_oudler")
    refused(game, A.Ecart(0, (c("T5"), *good[1:])), "ecart_trump")
    refused(game, A.Ecart(0, good[:5]), "ecart_size")
    refused(game, A.Discard(0, c("Kh")), "ecart_king")
    ev = apply(game, A.Ecart(0, good))
    laid = only(ev, E.EcartLaid)
    assert laid.to is None and laid.trumps == () and laid.size == 6
    assert only(ev, E.EcartCards).to == (0,)
    assert game.deal.phase == "play" and sorted(game.deal.ecart) == sorted(good)


def test_t_b5_forced_trumps_are_limited_to_e_minus_s_and_shown_to_all() -> None:
    # 18 trumps and 4 Kings with the dog: S = 2 suit cards (2s, 3s), so at most 4 trumps
    hand = trumps(*range(2, 20))
    dog = ["Ks", "Kh", "Kd", "Kc", "2s", "3s"]
    game = dealt([hand, ["T1", "T20", "T21"], [], []], dog=dog)
    take(game, 0, GARDE)
    options = {a.card for a in legal_actions(game, 0) if isinstance(a, A.Discard)}
    assert c("T2") in options and c("2s") in options and c("Ks") not in options
    refused(game, A.Ecart(0, cs("T2", "T3", "T4", "T5", "T6", "2s")), "ecart_trump")
    ev = apply(game, A.Ecart(0, cs("T2", "T3", "T4", "T5", "2s", "3s")))
    assert only(ev, E.EcartLaid).trumps == cs("T2", "T3", "T4", "T5")
    assert public_view(game).ecart_trumps == ["T2", "T3", "T4", "T5"]


def test_t_b5_one_card_at_a_time_keeps_room_for_a_legal_ecart() -> None:
    hand = trumps(*range(2, 20))
    dog = ["Ks", "Kh", "Kd", "Kc", "2s", "3s"]
    game = dealt([hand, ["T1", "T20", "T21"], [], []], dog=dog)
    take(game, 0, GARDE)
    for t in ("T2", "T3", "T4", "T5"):
        apply(game, A.Discard(0, c(t)))
    options = {a.card for a in legal_actions(game, 0) if isinstance(a, A.Discard)}
    assert options == set(cs("2s", "3s"))  # the trump allowance is spent
    refused(game, A.Discard(0, c("T6")), "ecart_trump")
    apply(game, A.Discard(0, c("2s")))
    ev = apply(game, A.Discard(0, c("3s")))
    assert has(ev, E.EcartLaid) and game.deal.phase == "play"


def test_t_b5_the_ecart_is_final_once_play_starts_and_seen_only_by_the_taker() -> None:
    game = dealt([[], [], [], []], dog=["2s", "3s", "4s", "5s", "6s", "7s"])
    take(game, 0, PETITE)
    apply(game, A.Ecart(0, cs("2s", "3s", "4s", "5s", "6s", "7s")))
    refused(game, A.Ecart(0, cs("2s", "3s", "4s", "5s", "6s", "8s")), "wrong_phase")
    assert view(game, 0).ecart == ["2s", "3s", "4s", "5s", "6s", "7s"]
    assert all(view(game, s).ecart == [] for s in (1, 2, 3))
