"""Cards and values (R-C) and set-up (R-S)."""

from __future__ import annotations

from tamalou.core import cards
from tamalou.core.errors import IllegalAction
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import apply, legal_actions, new_game, next_deadline
from tamalou.games.tamalou.rules import TAMALOU, Rules
from tamalou.games.tamalou.views import public_view, view

from .helpers import T0, c, game_with, has, legal_kinds, only, refused


def test_r_c1_one_52_card_deck_without_joker() -> None:
    """R-C1: 52 distinct cards, 13 ranks of 4 suits, no joker; the deal uses all of them."""
    deck = TAMALOU.compiled.deck
    assert len(deck) == 52 and len(set(deck)) == 52
    assert cards.JOKER not in {cards.rank(x) for x in deck}
    for r in cards.RANKS:
        assert sum(1 for x in deck if cards.rank(x) == r) == 4
    _game, ev = new_game(TAMALOU, 4, "deck")
    dealt = only(ev, E.Dealt)
    assert sorted([x for row in dealt.rows for x in row] + list(dealt.pile)) == sorted(deck)


def test_r_c1_suits_never_matter_for_value() -> None:
    """R-C1: the same rank is worth the same in every suit."""
    for r in cards.RANKS:
        values = {TAMALOU.value(c(f"{r}{s}")) for s in cards.SUITS}
        assert len(values) == 1, r


def test_r_c2_values_ace_1_ten_0_faces_10() -> None:
    """R-C2: A 1, 2..9 face value, 10 = 0, J Q K 10, as the round end counts them."""
    expected = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9}
    expected |= {"10": 0, "J": 10, "Q": 10, "K": 10}
    for rank, value in expected.items():
        assert TAMALOU.value(c(f"{rank}h")) == value
    # The engine counts the same values: a failed call reveals the total.
    game = game_with([["10c", "Jc", "Qc", "Kc"], ["2c", "3c", "4c", "5c"]])
    called = only(apply(game, A.CallTamalou(0, T0)), E.Called)
    assert called.total == 30 and not called.right


def test_r_c3_example_a_10_3_k_is_14() -> None:
    """R-C3: A, 10, 3, K = 1 + 0 + 3 + 10 = 14."""
    game = game_with([["Ac", "10d", "3h", "Ks"], ["2c", "3c", "4c", "5c"]])
    called = only(apply(game, A.CallTamalou(0, T0)), E.Called)
    assert called.total == 14


def test_r_c4_two_to_five_players() -> None:
    """R-C4: 2..5 players in the default preset; 1 or 6 are refused."""
    for n in (2, 3, 4, 5):
        game, _ = new_game(TAMALOU, n, "n")
        assert len(game.round.seats) == n
    for n in (1, 6):
        try:
            new_game(TAMALOU, n, "n")
        except IllegalAction as e:
            assert e.reason == "bad_player_count"
        else:  # pragma: no cover
            raise AssertionError(f"{n} players accepted")


def test_r_c4_house_preset_up_to_8_players_with_two_decks() -> None:
    """R-C4: configurable up to 8 players for house presets with more decks."""
    rules = Rules(name="big", max_players=8, decks=2)
    _game, ev = new_game(rules, 8, "big")
    dealt = only(ev, E.Dealt)
    assert len(dealt.rows) == 8 and len(dealt.pile) == 104 - 32


def test_r_s1_deal_is_reproducible_from_the_seed() -> None:
    """R-S1: 4 face-down cards each, the rest is the pile, the discard is empty; same seed, same deal."""
    g1, ev1 = new_game(TAMALOU, 3, "seed-1")
    g2, ev2 = new_game(TAMALOU, 3, "seed-1")
    g3, _ = new_game(TAMALOU, 3, "seed-2")
    assert ev1 == ev2
    assert [s.row for s in g1.round.seats] == [s.row for s in g2.round.seats]
    assert [s.row for s in g1.round.seats] != [s.row for s in g3.round.seats]
    r = g1.round
    assert all(len(s.row) == 4 for s in r.seats)
    assert len(r.pile) == 52 - 12 and r.discard == []
    dealt = only(ev1, E.Dealt)
    assert dealt.to == ()  # the shuffled order is kept in the log only
    assert dealt.seed == "seed-1:1"
    # Nobody sees a card at the deal.
    for p in range(3):
        assert all(s.card is None for s in view(g1, p).row)


def test_r_s2_peek_shows_slots_1_and_4_privately_for_5_seconds() -> None:
    """R-S2: the peek shows slots 1 and 4 to their owner only, for 5 s."""
    game = game_with([["Ac", "2c", "3c", "4c"], ["5c", "6c", "7c", "8c"]], play=False)
    ev = apply(game, A.Peek(0, 1_000))
    shown = only(ev, E.PeekShown)
    assert shown.to == (0,) and shown.cards == ((1, c("Ac")), (4, c("4c")))
    assert shown.until == 6_000
    assert only(ev, E.Peeked).to is None  # everybody knows that you peeked, not what
    mine = view(game, 0, 2_000)
    assert [s.card for s in mine.row] == ["Ac", None, None, "4c"]
    assert all(s.card is None for s in view(game, 1, 2_000).row)
    assert public_view(game, 2_000).seats[0].revealed == {}
    # 5 s later the cards are hidden again.
    assert all(s.card is None for s in view(game, 0, 6_000).row)
    refused(game, A.Peek(0, 2_000), "already_peeked")


def test_r_s2_after_the_peek_play_is_from_memory() -> None:
    """R-S2: once play starts nobody sees their own cards any more."""
    game = game_with([["Ac", "2c", "3c", "4c"], ["5c", "6c", "7c", "8c"]])
    assert game.round.phase == "play"
    for p in range(2):
        assert all(s.card is None for s in view(game, p).row)


def test_r_s3_no_action_during_the_peek_phase() -> None:
    """R-S3: no turn, double or call during the peek phase; only Peek is legal."""
    game = game_with(
        [["5c", "2c", "3c", "4c"], ["5d", "6c", "7c", "8c"]], discard=["5h"], play=False
    )
    refused(game, A.Draw(0, 100), "peek_phase")
    refused(game, A.TakeDiscard(0, 100), "peek_phase")
    refused(game, A.CallTamalou(0, 100), "peek_phase")
    refused(game, A.Double(1, 1, 1, 100), "peek_phase")
    refused(game, A.Double(0, 1, 1, 100), "peek_phase")
    for p in range(2):
        assert [a.kind for a in legal_actions(game, p, 100)] == ["peek"]
    apply(game, A.Peek(0, 100))
    assert legal_actions(game, 0, 200) == []
    refused(game, A.Double(0, 1, 1, 200), "peek_phase")


def test_r_s4_first_player_of_round_1_is_drawn_at_random() -> None:
    """R-S4: the first player comes from the seeded deal; every seat can be drawn."""
    firsts = set()
    for i in range(40):
        _game, ev = new_game(TAMALOU, 4, f"first-{i}")
        started = only(ev, E.RoundStarted)
        assert started.first_player == only(ev, E.Dealt).first_player
        assert new_game(TAMALOU, 4, f"first-{i}")[0].round.first_player == started.first_player
        firsts.add(started.first_player)
    assert firsts == {0, 1, 2, 3}


def test_r_s4_play_goes_in_seat_order() -> None:
    """R-S4: after the first player, play goes in seat order."""
    rows = [["Ac", "2c", "3c", "4c"], ["5d", "6d", "7d", "8d"], ["5h", "6h", "7h", "8h"]]
    game = game_with(rows, pile=["2d", "3d", "4d", "2h", "3h"], first=2)
    order = [game.round.current]
    for _ in range(4):
        at = game.now + 100
        apply(game, A.Draw(game.round.current, at))
        ev = apply(game, A.Throw(game.round.current, at))
        order.append(only(ev, E.TurnStarted).player)
    assert order == [2, 0, 1, 2, 0]


def test_r_s5_first_turn_starts_when_every_peek_is_over() -> None:
    """R-S5: each peek lasts 5 s from its own start; the first turn starts when all are over."""
    game = game_with([["Ac", "2c", "3c", "4c"], ["5c", "6c", "7c", "8c"]], play=False)
    apply(game, A.Peek(0, 1_000))
    assert next_deadline(game) == 30_000  # player 1 has not peeked yet
    apply(game, A.Peek(1, 3_000))
    assert next_deadline(game) == 8_000
    assert apply(game, A.Tick(7_999)) == []
    assert game.round.phase == "peek"
    ev = apply(game, A.Tick(8_000))
    started = only(ev, E.TurnStarted)
    assert started.player == 0 and started.deadline == 8_000 + 45_000
    assert game.round.phase == "play"


def test_r_s5_peek_phase_ends_30_s_after_the_deal() -> None:
    """R-S5: 30 s after the deal the first turn starts; who has not peeked lost their peek."""
    game = game_with([["Ac", "2c", "3c", "4c"], ["5c", "6c", "7c", "8c"]], play=False)
    apply(game, A.Peek(0, 1_000))
    ev = apply(game, A.Tick(30_000))
    assert only(ev, E.TurnStarted).player == 0
    refused(game, A.Peek(1, 30_001), "peek_over")
    assert all(s.card is None for s in view(game, 1).row)
    assert not view(game, 1).peeked


def test_r_s5_late_peek_is_cut_at_the_phase_limit() -> None:
    """R-S5 (ruling): a peek started 28 s after the deal ends at 30 s, not at 33 s."""
    game = game_with([["Ac", "2c", "3c", "4c"], ["5c", "6c", "7c", "8c"]], play=False)
    apply(game, A.Peek(0, 1_000))
    ev = apply(game, A.Peek(1, 28_000))
    assert only(ev, E.PeekShown).until == 30_000
    assert next_deadline(game) == 30_000
    assert view(game, 1, 29_999).row[0].card == "5c"
    refused(game, A.Peek(0, 30_000), "deadline_pending")
    apply(game, A.Tick(30_000))
    assert view(game, 1, 30_000).row[0].card is None
    assert has(apply(game, A.Draw(0, 30_001)), E.DrawnCard)


def test_r_s5_legal_actions_during_the_peek_are_peeks_only() -> None:
    """R-S5/R-S3: a player who already peeked has nothing to do until the first turn."""
    game = game_with([["Ac", "2c", "3c", "4c"], ["5c", "6c", "7c", "8c"]], play=False)
    assert legal_kinds(game, 0) == {"peek"}
    apply(game, A.Peek(0, 10))
    assert legal_kinds(game, 0) == set()
    assert legal_kinds(game, 1) == {"peek"}
