"""The cards (T-C) and the deal (T-S)."""

from __future__ import annotations

from itertools import pairwise

from tamalou.core.chance import rng_for
from tamalou.games.tarot import events as E
from tamalou.games.tarot.cards import (
    DECK,
    EXCUSE,
    OUDLERS,
    PETIT,
    POINTS,
    SUIT,
    TOTAL_HP,
    TRUMP_21,
    code,
    from_code,
    hp,
    label,
    lowest_key,
    sort_key,
)
from tamalou.games.tarot.engine import has_petit_sec, new_game, packets, trick_winner
from tamalou.games.tarot.rules import PRESETS, TAROT, TAROT3, TAROT5, sans_chien
from tamalou.games.tarot.views import view

from .helpers import bid_round, c, only, trick


def test_t_c1_deck_is_four_suits_of_fourteen_21_trumps_and_the_excuse() -> None:
    assert len(DECK) == len(set(DECK)) == 78
    assert [sum(1 for k in DECK if SUIT[k] == s) for s in range(6)] == [14, 14, 14, 14, 21, 1]
    assert {code(k) for k in DECK} >= {"Ks", "Ch", "Jd", "Ac", "T1", "T21", "EX"}
    assert all(from_code(code(k)) == k for k in DECK)
    assert label(PETIT) == "Petit" and label(EXCUSE) == "Excuse"


def test_t_c1_suit_order_king_queen_cavalier_jack_then_ten_down_to_ace() -> None:
    order = ["Ks", "Qs", "Cs", "Js", "10s", "2s", "As"]
    for i, high in enumerate(order[:-1]):
        for low in order[i + 1 :]:
            assert trick_winner(trick(0, [0, 1], [low, high], -1)) == 1, (high, low)
    assert trick_winner(trick(0, [0, 1], ["T2", "T1"], -1)) == 0  # trumps 21 high to 1 low


def test_t_c2_the_oudlers_are_the_21_the_petit_and_the_excuse() -> None:
    assert frozenset({TRUMP_21, PETIT, EXCUSE}) == OUDLERS


def test_t_c3_values_in_half_points_total_91() -> None:
    assert [POINTS[c(x)] for x in ("T21", "T1", "EX", "Kh", "Qh", "Ch", "Jh", "10h", "T5")] == [
        9,
        9,
        9,
        9,
        7,
        5,
        3,
        1,
        1,
    ]
    assert hp(list(DECK)) == TOTAL_HP == 182


def test_t_c4_suit_order_spades_hearts_diamonds_clubs() -> None:
    hand = [c(x) for x in ("EX", "T3", "Ac", "Kd", "2h", "As")]
    assert [code(k) for k in sorted(hand, key=sort_key)] == ["As", "2h", "Kd", "Ac", "T3", "EX"]
    assert sorted(["Ah", "As"], key=lambda x: lowest_key(c(x))) == ["As", "Ah"]


def test_t_s1_first_dealer_from_the_seed_then_the_next_seat_speaks_first() -> None:
    dealers = set()
    for seed in range(12):
        game, _ = new_game(TAROT, 4, f"s1:{seed}")
        again, _ = new_game(TAROT, 4, f"s1:{seed}")
        assert game.deal.dealer == again.deal.dealer
        assert game.deal.current == (game.deal.dealer + 1) % 4  # the dealer's right
        dealers.add(game.deal.dealer)
    assert len(dealers) > 1


def test_t_s1_the_deal_passes_to_the_next_seat_after_an_annulled_deal() -> None:
    game, _ = new_game(TAROT, 4, "s1:pass")
    dealer = game.deal.dealer
    ev = bid_round(game, [0, 0, 0, 0])  # everybody passes (T-B3)
    assert only(ev, E.DealAnnulled).reason == "all_passed"
    assert game.deal.dealer == (dealer + 1) % 4
    assert game.deal.deal_no == 2 and not game.history


def test_t_s2_cards_per_hand_and_dog_by_players() -> None:
    for rules, n, hand, dog in ((TAROT3, 3, 24, 6), (TAROT, 4, 18, 6), (TAROT5, 5, 15, 3)):
        game, _ = new_game(rules, n, "s2")
        assert [len(s.hand) for s in game.deal.seats] == [hand] * n
        assert len(game.deal.dog) == dog
    for n, hand, dog in ((3, 24, 6), (4, 18, 6), (5, 15, 3)):  # the default preset: any size
        game, _ = new_game(TAROT, n, "s2")
        assert (len(game.deal.seats[0].hand), len(game.deal.dog)) == (hand, dog)


def test_t_s2_sans_chien_deals_26_each_with_a_last_round_of_two() -> None:
    rules = sans_chien()
    game, _ = new_game(rules, 3, "s2:sc")
    assert [len(s.hand) for s in game.deal.seats] == [26, 26, 26]
    assert game.deal.dog == []
    assert packets(26) == [3] * 8 + [2]


def test_t_s3_packets_of_three_from_the_dealers_right_and_the_dog_never_first_or_last() -> None:
    for seed in range(20):
        _game, events = new_game(TAROT, 4, f"s3:{seed}")
        dealt = only(events, E.Dealt)
        assert dealt.to == ()  # logged for replay, shown to nobody
        deck = list(DECK)
        rng_for(dealt.seed, "deal").shuffle(deck)
        assert deck[0] not in dealt.dog and deck[-1] not in dealt.dog
        dog_at = sorted(deck.index(k) for k in dealt.dog)
        assert all(b - a > 1 for a, b in pairwise(dog_at))  # one at a time
        rest = [k for k in deck if k not in dealt.dog]
        hands: list[list[int]] = [[], [], [], []]
        for i in range(0, len(rest), 3):  # packets of three, from the dealer's right
            hands[(dealt.dealer + 1 + i // 3) % 4].extend(rest[i : i + 3])
        assert tuple(tuple(h) for h in hands) == dealt.hands


def test_t_s4_petit_sec_is_shown_and_annulled_before_bidding() -> None:
    assert has_petit_sec([c("T1"), c("Ks"), c("2h")])
    assert not has_petit_sec([c("T1"), c("EX"), c("2h")])
    assert not has_petit_sec([c("T1"), c("T2"), c("2h")])
    # seed "sec:915" deals a petit sec (found by a scan of seeds; the deal is replayable)
    game, events = new_game(TAROT, 4, "sec:915")
    sec = only(events, E.PetitSec)
    assert sec.to is None and has_petit_sec(list(sec.hand))
    assert only(events, E.DealAnnulled).reason == "petit_sec"
    first = only([e for e in events if isinstance(e, E.Dealt)][:1], E.Dealt)
    assert game.deal.dealer == (first.dealer + 1) % 4 and game.deal.deal_no == 2
    assert game.deal.phase == "bid" and not game.history


def test_t_s5_a_hand_is_seen_only_by_its_owner() -> None:
    game, events = new_game(TAROT, 4, "s5")
    for e in events:
        if isinstance(e, E.HandDealt):
            assert e.to == (e.player,)
    mine = view(game, 0)
    assert sorted(mine.hand) == sorted(code(k) for k in game.deal.seats[0].hand)
    other = game.deal.seats[1].hand
    # change an opponent's hidden cards: nothing in my view changes
    before = view(game, 0).model_dump()
    game.deal.seats[1].hand, game.deal.seats[2].hand = game.deal.seats[2].hand, other
    assert view(game, 0).model_dump() == before
    assert "hand" not in view(game, 0).public.model_dump()


def test_presets_are_data() -> None:
    assert set(PRESETS) == {"tarot", "tarot3", "tarot5"}
    assert TAROT.seats == 4 and TAROT3.seats == 3 and TAROT5.seats == 5
