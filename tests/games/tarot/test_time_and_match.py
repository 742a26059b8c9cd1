"""The clocks (T-K) and the match (T-M)."""

from __future__ import annotations

from tamalou.games.tarot import actions as A
from tamalou.games.tarot import events as E
from tamalou.games.tarot.cards import lowest_key
from tamalou.games.tarot.engine import (
    abandoned,
    apply,
    display_moments,
    new_game,
    next_deadline,
    playable,
)
from tamalou.games.tarot.rules import GARDE, GARDE_SANS, PASS, TAROT, TAROT5, Rules
from tamalou.games.tarot.scripted import forced_game
from tamalou.games.tarot.views import public_view

from .helpers import c, cs, dealt, has, only, refused, take, to_play, trumps


def test_t_k1_a_bid_times_out_to_pass_after_30_s() -> None:
    game = dealt([[], [], [], []])
    assert next_deadline(game) == TAROT.bid_ms
    refused(game, A.Bid(0, GARDE, TAROT.bid_ms), "deadline_pending")
    ev = apply(game, A.Tick(TAROT.bid_ms))
    assert only(ev, E.BidMade) == E.BidMade(0, PASS, auto=True)
    assert only(ev, E.TimedOut) == E.TimedOut(0, "bid", False)
    assert game.deal.current == 1


def test_t_k1_the_call_times_out_to_the_first_king_not_held() -> None:
    game = dealt([["Ks"], [], [], [], []], dog=[], rules=TAROT5)
    take(game, 0, GARDE)
    ev = apply(game, A.Tick(game.now + TAROT5.call_ms))
    called = only(ev, E.KingCalled)
    assert called.card == c("Kh") and called.auto  # spades held: hearts next (T-C4)


def test_t_k1_the_ecart_times_out_to_the_lowest_legal_cards() -> None:
    game = dealt([[], [], [], []], dog=["Ks", "T21", "T3", "Qh", "Jh", "10h"])
    take(game, 0, GARDE)
    hand = list(game.deal.seats[0].hand)
    apply(game, A.Discard(0, c("Qh")))  # a card already chosen stays
    ev = apply(game, A.Tick(TAROT.ecart_ms))
    laid = only(ev, E.EcartLaid)
    assert laid.auto and laid.trumps == ()
    eligible = sorted((k for k in hand if k < 56 and k % 14 != 13 and k != c("Qh")), key=lowest_key)
    assert sorted(game.deal.ecart) == sorted([c("Qh"), *eligible[:5]])
    assert game.deal.phase == "play"


def test_t_k2_a_play_times_out_after_30_s_to_the_lowest_legal_card_with_a_warning() -> None:
    game = dealt([["As", "2h", "T5", "EX"], [], [], []])
    to_play(game, taker=1)
    start = game.now
    assert display_moments(game) == {start + TAROT.play_ms - TAROT.warning_ms}
    assert not public_view(game, start).warning
    assert public_view(game, start + TAROT.play_ms - TAROT.warning_ms).warning
    ev = apply(game, A.Tick(start + TAROT.play_ms))
    assert only(ev, E.Played) == E.Played(0, c("As"), 1, auto=True)


def test_t_k3_lowest_is_suit_cards_by_rank_then_suit_then_trumps_then_the_excuse() -> None:
    order = sorted(cs("EX", "T1", "T2", "2s", "Ah", "As", "Kc"), key=lowest_key)
    assert order == list(cs("As", "Ah", "2s", "Kc", "T1", "T2", "EX"))


def test_t_k3_the_excuse_only_when_it_is_the_only_legal_card() -> None:
    game = dealt([["Qs"], ["EX", "Ks"], [], []])
    to_play(game, taker=3)
    apply(game, A.Play(0, c("Qs"), game.now))
    assert min(playable(game, 1), key=lowest_key) != c("EX")


def test_t_k4_two_timeouts_in_a_row_make_a_player_away_with_5_s_clocks() -> None:
    game = dealt([[], [], [], []])
    take(game, 1, GARDE_SANS)
    apply(game, A.Chelem(1, False, game.now))
    t = game.now
    for _ in range(3):  # seat 0 leads, then seats 1..3 play for the first trick
        t = next_deadline(game) or t
        apply(game, A.Tick(t))
    while game.deal.current != 0:
        seat = game.deal.current
        apply(game, A.Play(seat, playable(game, seat)[0], game.now))
    t = game.now + TAROT.play_ms
    ev = apply(game, A.Tick(t))
    assert only(ev, E.TimedOut).away and game.deal.seats[0].away
    while game.deal.current != 0:
        seat = game.deal.current
        apply(game, A.Play(seat, playable(game, seat)[0], game.now))
    assert next_deadline(game) == game.now + TAROT.away_ms
    assert display_moments(game) == set() and public_view(game).warning  # 5 s: warned at once
    apply(game, A.Play(0, playable(game, 0)[0], game.now))  # acting brings them back
    assert not game.deal.seats[0].away and game.deal.seats[0].timeouts == 0


def test_t_k4_auto_play_never_bids_above_pass_nor_declares() -> None:
    game = dealt([trumps(*range(2, 16)), [], [], []])  # seat 0 could show a poignée
    events: list[E.Event] = []
    for _ in range(500):
        if game.history:
            break
        if game.deal.phase == "bid" and game.deal.current == 1:
            events += apply(game, A.Bid(1, GARDE_SANS, game.now))
        elif game.deal.phase == "play" and game.deal.current == 1:  # seat 1 is here: not
            # every human away, so the clock plays the others on (the table is not abandoned)
            events += apply(game, A.Play(1, playable(game, 1)[0], game.now))
        else:
            events += apply(game, A.Tick(next_deadline(game) or game.now))
    assert game.history and game.history[0].taker == 1
    auto = [e for e in events if isinstance(e, E.BidMade) and e.auto]
    assert len(auto) == 3 and all(e.contract == PASS for e in auto)
    assert not has(events, E.PoigneeShown)
    assert not any(e.announced for e in events if isinstance(e, E.ChelemAnnounced))


def _play_deal_on_the_clock(game: object) -> list[E.Event]:
    out: list[E.Event] = []
    from tamalou.games.tarot.state import Game

    assert isinstance(game, Game)
    played = len(game.history)
    while len(game.history) == played:
        seat = game.deal.current
        if game.deal.phase == "bid":
            out += apply(game, A.Bid(seat, GARDE if seat == game.deal.dealer else 0, game.now))
        elif game.deal.phase == "play":
            out += apply(game, A.Play(seat, min(playable(game, seat), key=lowest_key), game.now))
        else:
            out += apply(game, A.Tick(next_deadline(game) or game.now))
    return out


def test_t_m1_a_match_is_rounds_times_players_deals() -> None:
    for rules, n, deals in ((TAROT, 4, 4), (Rules(rounds=2), 3, 6), (TAROT5, 5, 5)):
        game, _ = new_game(rules, n, f"m1:{n}")
        ends: list[E.DealEnded] = []
        while not game.over:
            ev = _play_deal_on_the_clock(game)
            ends += [e for e in ev if isinstance(e, E.DealEnded)]
            if not game.over:
                apply(game, A.NextDeal(0, game.now))
        assert len(ends) == deals == len(game.history)
        assert [e.played_no for e in ends] == list(range(1, deals + 1))
        assert ends[-1].match_over and not ends[0].match_over


def test_t_m2_annulled_deals_do_not_count_but_the_deal_passes_on() -> None:
    game = forced_game([[], [], [], []], dealer=3)
    for _ in range(4):
        apply(game, A.Bid(game.deal.current, PASS, game.now))
    assert game.history == [] and game.deal.dealer == 0 and game.deal.deal_no == 2
    assert public_view(game).played_deals == 0 and public_view(game).deals_in_match == 4


def test_t_m3_scores_add_up_totals_sum_to_zero_the_highest_wins() -> None:
    game, _ = new_game(TAROT, 4, "m3")
    while not game.over:
        _play_deal_on_the_clock(game)
        if not game.over:
            apply(game, A.Tick(next_deadline(game) or game.now))  # the next deal comes by itself
    assert sum(game.cumulative) == 0
    assert game.cumulative == [sum(h.scores[i] for h in game.history) for i in range(4)]
    best = max(game.cumulative)
    assert game.winners == [i for i in range(4) if game.cumulative[i] == best]
    refused(game, A.NextDeal(0, game.now), "match_over")


def test_t_k4_ruling_a_table_whose_humans_are_all_away_is_abandoned_at_once() -> None:
    """T-K4 and a ruling (docs/rules.md, as Kalooki's K-K4): the only human's turns run out
    twice in a row (away): the match is abandoned at once, mid-deal, and the clock stops;
    the AI players no longer play the deal out for nobody."""
    game, _ = new_game(TAROT, 3, "away", ai=[False, True, True])
    for _ in range(100):
        if abandoned(game):
            break
        d = game.deal
        if d.phase == "bid" and d.current == 1:
            apply(game, A.Bid(1, GARDE_SANS, game.now))  # the AI seat takes: a deal to play
        elif d.phase == "play" and d.current != 0:
            apply(game, A.Play(d.current, playable(game, d.current)[0], game.now))
        else:
            apply(game, A.Tick(next_deadline(game) or game.now))
    assert abandoned(game) and next_deadline(game) is None
    d = game.deal
    assert d.seats[0].away and d.phase == "play" and len(d.tricks) < 24 and not game.over


def test_t_k4_a_table_with_a_human_still_here_plays_on() -> None:
    """One human away, another still here: nothing is abandoned."""
    game, _ = new_game(TAROT, 3, "away", ai=[False, False, True])
    game.deal.seats[0].away = True
    assert not abandoned(game) and next_deadline(game) is not None
