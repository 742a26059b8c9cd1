"""K-C (cards), K-S (set-up), K-R (rounds) and K-V (presets and options)."""

from __future__ import annotations

import pytest

from tamalou.core import cards
from tamalou.core.chance import shuffled
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.engine import legal_actions, new_game
from tamalou.games.kalooki.melds import points
from tamalou.games.kalooki.rules import BABY, CLASSIC4, KALOOKI, PRESETS, SET, Rules, build_pack
from tamalou.games.kalooki.views import public_view, view

from .helpers import card, cs, forced_game, place_melds, play


def _dealt(events: list[E.Event]) -> E.Dealt:
    return next(e for e in events if isinstance(e, E.Dealt))


@pytest.mark.parametrize(
    ("players", "size", "jokers"),
    [(2, 108, 4), (4, 108, 4), (5, 164, 8), (6, 164, 8), (7, 218, 10), (8, 218, 10)],
)
def test_k_c1_decks_and_jokers_by_player_count(players: int, size: int, jokers: int) -> None:
    _, events = new_game(KALOOKI, players, "c1")
    d = _dealt(events)
    every = [c for h in d.hands for c in h] + [d.up_card, *d.pile]
    assert len(every) == size and len(set(every)) == size
    assert sum(1 for c in every if cards.rank(c) == cards.JOKER) == jokers


def test_k_c2_duplicates_are_distinct_cards_equal_in_play() -> None:
    a, b = card("8s"), card("8s@1")
    assert a != b and cards.code(a) == cards.code(b) and points(a) == points(b)
    assert len(set(build_pack(2, 4))) == 108


def test_k_c3_points_of_cards_left_in_hand() -> None:
    assert [points(c) for c in cs("JK", "As", "Ac", "Ah", "Ad")] == [50, 15, 15, 1, 1]
    assert [points(c) for c in cs("Kh", "Qs", "Jd", "10c", "9h", "2s")] == [10, 10, 10, 10, 9, 2]


def test_k_s1_the_first_dealer_is_seeded_and_the_deal_passes_clockwise() -> None:
    dealers = {new_game(KALOOKI, 4, f"s1:{i}")[0].round.dealer for i in range(20)}
    assert len(dealers) > 1
    g1, _ = new_game(KALOOKI, 4, "same")
    g2, _ = new_game(KALOOKI, 4, "same")
    assert g1.round.dealer == g2.round.dealer
    g = forced_game([["9h"], ["2c"], ["3c"]], pile=["9d"], first=0)
    place_melds(g, [(0, SET, ["9c", "9s", "9h@1"])])
    play(g, A.Draw(0, 10_000))
    play(g, A.LayOff(0, card("9d"), 0, "high", 10_000))
    events = play(g, A.Discard(0, card("9h"), 10_000))
    assert events[-1].kind == "round_ended"
    before = g.round.dealer
    events = play(g, A.NextRound(2, 20_001))
    assert g.round.dealer == (before + 1) % 3 and g.round.round_no == 2


def test_k_s2_the_deal_goes_one_at_a_time_from_the_dealers_left() -> None:
    g, events = new_game(KALOOKI, 3, "s2")
    d = _dealt(events)
    deck = shuffled(build_pack(2, 4), d.seed, "deal")
    n, k = 3, 9
    for j in range(n):
        seat = (d.dealer + 1 + j) % n
        assert list(d.hands[seat]) == deck[j : n * k : n]
    assert d.up_card == deck[n * k] and g.round.discard == [deck[n * k]]
    assert g.round.pile[-1] == deck[n * k + 1]  # drawn next
    assert g.round.current == (d.dealer + 1) % n


def test_k_s3_the_up_card_is_the_dealers_discard() -> None:
    g, _ = new_game(KALOOKI, 3, "s3")
    r = g.round
    first, dealer = r.current, r.dealer
    other = 3 - first - dealer
    assert [a.kind for a in legal_actions(g, other, 100)] == ["call"]
    assert legal_actions(g, dealer, 100) == []  # the dealer may not call their up-card
    assert {a.kind for a in legal_actions(g, first, r.draw_at)} == {"draw", "take_discard"}


def test_k_s3_a_joker_up_card_stays() -> None:
    g = forced_game([["2c", "3c"], ["4c", "5c"]], discard=["JK"], first=0)
    play(g, A.TakeDiscard(0, 10_000))
    assert card("JK") in g.round.seats[0].hand


def test_k_s4_your_hand_to_you_sizes_and_table_to_everyone() -> None:
    g, _ = new_game(KALOOKI, 3, "s4")
    pub = public_view(g)
    assert [s.hand_size for s in pub.seats] == [9, 9, 9]
    assert pub.pile_size == 108 - 27 - 1 and pub.discard_top == g.round.discard[-1]
    mine = view(g, 0)
    assert mine.hand == g.round.seats[0].hand
    # changing an opponent's hidden card changes nothing in my view
    before = view(g, 0).model_dump()
    g.round.seats[1].hand[0], g.round.pile[0] = g.round.pile[0], g.round.seats[1].hand[0]
    assert view(g, 0).model_dump() == before
    assert "hand" not in pub.model_dump()["seats"][0]


def test_k_r1_the_nine_rounds_of_kalooki() -> None:
    got = [(r.cards, r.contract) for r in KALOOKI.rounds]
    assert got == [
        (9, (3, 3, 3)),
        (10, (3, 3, 4)),
        (11, (3, 4, 4)),
        (12, (4, 4, 4)),
        (12, (3, 3, 3, 3)),
        (13, (3, 3, 3, 4)),
        (14, (3, 3, 4, 4)),
        (15, (3, 4, 4, 4)),
        (16, (4, 4, 4, 4)),
    ]


def test_k_r2_baby_kalooki() -> None:
    assert [(r.cards, r.contract) for r in BABY.rounds] == [(6, (3, 3)), (7, (3, 4)), (8, (4, 4))]


def test_k_r3_deal_options() -> None:
    twelve = KALOOKI.model_copy(update={"deal12_first3": True})
    assert [twelve.cards_for(i) for i in range(5)] == [12, 12, 12, 12, 12]
    assert [twelve.rounds[i].contract for i in range(3)] == [r.contract for r in KALOOKI.rounds[:3]]
    eight = BABY.model_copy(update={"baby_deal8": True})
    assert [eight.cards_for(i) for i in range(3)] == [8, 8, 8]
    g, _ = new_game(Rules(name="x", deal12_first3=True), 2, "r3")
    assert len(g.round.seats[0].hand) == 12


def test_k_v1_v2_v3_presets() -> None:
    """K-V1 kalooki, K-V2 baby, K-V3 classic4."""
    assert set(PRESETS) == {"kalooki", "baby", "classic4"}
    assert len(KALOOKI.rounds) == 9 and (KALOOKI.min_players, KALOOKI.max_players) == (2, 8)
    assert len(BABY.rounds) == 3
    assert CLASSIC4.rounds == KALOOKI.rounds[:4]


def test_k_v4_six_jokers_with_two_decks() -> None:
    six = KALOOKI.model_copy(update={"jokers_2to4": 6})
    _, events = new_game(six, 4, "v4")
    d = _dealt(events)
    every = [c for h in d.hands for c in h] + [d.up_card, *d.pile]
    assert len(every) == 110 and len(set(every)) == 110


def test_k_v5_pagat_pack_one_108_card_pack_for_3_to_6() -> None:
    pagat = Rules(name="pagat", pagat_pack=True, min_players=3, max_players=6)
    _, events = new_game(pagat, 6, "v5")
    d = _dealt(events)
    assert len(d.hands) * 9 + 1 + len(d.pile) == 108
    with pytest.raises(Exception, match="bad_player_count"):
        new_game(pagat, 2, "v5")
