"""Five players: the called King and the secret partner (T-5)."""

from __future__ import annotations

from tamalou.games.tarot import actions as A
from tamalou.games.tarot import events as E
from tamalou.games.tarot.engine import apply, callable_cards, legal_actions, playable
from tamalou.games.tarot.rules import GARDE, GARDE_SANS, TAROT5
from tamalou.games.tarot.scripted import forced_game
from tamalou.games.tarot.state import Game
from tamalou.games.tarot.views import public_view, view

from .helpers import c, cs, dealt, has, lay_lowest_ecart, only, play_out, refused, take


def five(
    hands: list[list[str]], dog: list[str] | None = None, voids: dict[int, str] | None = None
) -> Game:
    return dealt(hands, voids=voids, dog=dog or [], rules=TAROT5)


def test_t_5_1_the_taker_calls_a_king_before_the_dog_is_turned() -> None:
    game = five([[], [], [], [], []], dog=["2s", "3s", "4s"])
    ev = take(game, 0, GARDE)
    assert game.deal.phase == "call" and not any(isinstance(e, E.DogShown) for e in ev)
    calls = {a.card for a in legal_actions(game, 0) if isinstance(a, A.CallKing)}
    assert calls == set(cs("Ks", "Kh", "Kd", "Kc"))
    refused(game, A.CallKing(0, c("Qs"), 0), "cannot_call")
    ev = apply(game, A.CallKing(0, c("Kh"), 0))
    assert only(ev, E.KingCalled).card == c("Kh")
    assert only(ev, E.DogShown).cards == cs("2s", "3s", "4s")


def test_t_5_1_a_queen_only_holding_the_four_kings_and_so_on() -> None:
    kings = list(cs("Ks", "Kh", "Kd", "Kc"))
    queens = list(cs("Qs", "Qh", "Qd", "Qc"))
    cavaliers = list(cs("Cs", "Ch", "Cd", "Cc"))
    assert callable_cards(kings[:3]) == kings
    assert callable_cards(kings) == kings + queens
    assert callable_cards(kings + queens) == kings + queens + cavaliers
    assert callable_cards(kings + queens + cavaliers)[-4:] == list(cs("Js", "Jh", "Jd", "Jc"))


def test_t_5_2_the_partner_is_who_was_dealt_the_called_card() -> None:
    game = five([[], [], [], ["Kh"], []])
    take(game, 0, GARDE_SANS)
    apply(game, A.CallKing(0, c("Kh"), 0))
    assert game.deal.partner == 3
    alone = five([["Kh"], [], [], [], []])
    take(alone, 0, GARDE_SANS)
    apply(alone, A.CallKing(0, c("Kh"), 0))  # calling a card one holds is allowed
    assert alone.deal.partner is None and view(alone, 0).partner == 0
    in_dog = five([[], [], [], [], []], dog=["Kh"])
    take(in_dog, 0, GARDE_SANS)
    apply(in_dog, A.CallKing(0, c("Kh"), 0))
    assert in_dog.deal.partner is None


def test_t_5_3_the_partner_stays_secret_until_the_called_card_is_played() -> None:
    game = five([["As"], [], [], ["Kh", "2s"], []], voids={3: "s"})
    events = take(game, 0, GARDE_SANS)
    events += apply(game, A.CallKing(0, c("Kh"), 0))
    events += apply(game, A.Chelem(0, False, 0))
    assert not has(events, E.PartnerRevealed)
    assert public_view(game).partner is None
    assert view(game, 3).i_am_partner and view(game, 3).partner == 3
    for seat in (0, 1, 2, 4):
        assert view(game, seat).partner is None and not view(game, seat).i_am_partner
    # seat 3 plays the called King on the first trick it may
    while not any(c("Kh") in t.cards for t in game.deal.tricks):
        seat = game.deal.current
        options = playable(game, seat)
        card = c("Kh") if c("Kh") in options else min(options)
        events += apply(game, A.Play(seat, card, 0))
    assert only(events, E.PartnerRevealed).partner == 3
    assert public_view(game).partner == 3 and view(game, 1).partner == 3


def test_t_5_3_a_called_card_in_an_unseen_dog_is_revealed_only_at_the_end() -> None:
    game = five([[], [], [], [], []], dog=["Kh"])
    take(game, 0, GARDE_SANS)
    apply(game, A.CallKing(0, c("Kh"), 0))
    apply(game, A.Chelem(0, False, 0))
    assert public_view(game).partner is None and view(game, 0).partner is None
    ev = play_out(game)
    end = only(ev, E.DealEnded)
    assert end.called == c("Kh") and end.partner is None and c("Kh") in end.dog
    assert end.scores[0] == 4 * end.per_defender  # alone: 4c


def test_t_5_4_the_first_lead_may_not_be_of_the_called_suit_but_the_king_itself() -> None:
    game = five([["2h", "3h", "As"], [], [], ["Kh"], []])
    take(game, 2, GARDE_SANS)
    apply(game, A.CallKing(2, c("Kh"), 0))
    apply(game, A.Chelem(2, False, 0))
    assert game.deal.current == 0
    assert not {c("2h"), c("3h")} & set(playable(game, 0))
    refused(game, A.Play(0, c("2h"), 0), "called_suit_first_lead")
    leader_holds = forced_game(
        [["Kh", "2h", "As"], [], [], [], []], ["5d", "6d", "7d"], dealer=4, rules=TAROT5
    )
    take(leader_holds, 2, GARDE_SANS)
    apply(leader_holds, A.CallKing(2, c("Kh"), 0))
    apply(leader_holds, A.Chelem(2, False, 0))
    assert c("Kh") in playable(leader_holds, 0) and c("2h") not in playable(leader_holds, 0)


def test_t_5_5_dog_and_ecart_are_three_cards_and_the_partner_scores_by_camp() -> None:
    game = five([[], [], [], ["Kh"], []], dog=["2s", "3s", "4s"])
    take(game, 0, GARDE)
    apply(game, A.CallKing(0, c("Kh"), 0))
    assert len(game.deal.seats[0].hand) == 18
    ev = lay_lowest_ecart(game)
    assert only(ev, E.EcartLaid).size == 3
    end = only(play_out(game), E.DealEnded)
    c_ = end.per_defender
    assert end.partner == 3 and end.scores[0] == 2 * c_ and end.scores[3] == c_
    assert sum(end.scores) == 0
