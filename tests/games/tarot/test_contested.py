"""Which tarot moves an earlier press could still change (``contested``): during a deal
only the seat to act acts, so its moves never wait the table's reorder window."""

from __future__ import annotations

from tamalou.games.tarot import actions as A
from tamalou.games.tarot.engine import apply, contested, legal_actions
from tamalou.games.tarot.rules import GARDE, GARDE_SANS, TAROT5

from .helpers import c, cs, dealt, lay_lowest_ecart, play_out, take, trumps


def test_t_b2_the_bidders_bid_is_not_contested_another_seats_is() -> None:
    """T-B2: each speaks once, in turn: nobody else's press can come between."""
    game = dealt([[], [], [], []])
    assert game.deal.phase == "bid" and game.deal.current == 0
    assert not contested(game, A.Bid(0, GARDE, 10))
    assert contested(game, A.Bid(1, GARDE, 10))  # refused now; it may be theirs after seat 0


def test_t_5_1_t_b5_t_a1_the_takers_call_ecart_and_chelem_are_not_contested() -> None:
    """T-5.1 (the King's call), T-B5 (the écart), T-A1 (the chelem): the taker's alone."""
    game = dealt([[], [], [], [], []], rules=TAROT5)
    take(game, 1, GARDE)
    assert game.deal.phase == "call"
    assert not contested(game, A.CallKing(1, c("Kc"), 10))
    apply(game, A.CallKing(1, c("Kc"), 10))
    assert game.deal.phase == "ecart"
    discard = next(a for a in legal_actions(game, 1) if isinstance(a, A.Discard))
    assert not contested(game, discard)
    assert not contested(game, A.Chelem(1, True, 10))
    assert contested(game, A.Chelem(2, True, 10))


def test_t_a2_t_p1_a_poignee_and_a_card_of_the_player_to_play_are_not_contested() -> None:
    """T-A2: a poignée is shown with one's own card to trick 1; T-P1: the cards go in turn."""
    game = dealt([trumps(*range(2, 13)), [], [], []])
    take(game, 1, GARDE_SANS)
    apply(game, A.Chelem(1, False, 0))
    assert game.deal.phase == "play" and game.deal.current == 0
    assert not contested(game, A.Poignee(0, cs(*trumps(*range(3, 13))), 10))
    assert not contested(game, A.Play(0, c("T2"), 10))
    assert contested(game, A.Play(1, c("T2"), 10))


def test_t_m1_the_next_deal_is_contested_any_seat_may_start_it() -> None:
    """T-M1: between deals any seated player may start the next one."""
    game = dealt([[], [], [], []])
    take(game, 0, GARDE)
    lay_lowest_ecart(game)
    if game.deal.phase == "chelem":
        apply(game, A.Chelem(0, False, game.now))
    play_out(game)
    assert game.deal.phase == "over"
    assert contested(game, A.NextDeal(2, game.now + 10))
