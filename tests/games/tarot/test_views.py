"""What each seat sees (T-S5, T-B4, T-B5, T-5.3): hands, the dog, the écart, the partner."""

from __future__ import annotations

from tamalou.games.tarot import actions as A
from tamalou.games.tarot import events as E
from tamalou.games.tarot.engine import apply
from tamalou.games.tarot.rules import GARDE, GARDE_SANS, PETITE
from tamalou.games.tarot.views import public_view, view

from .helpers import c, dealt, lay_lowest_ecart, play_out, take, to_play


def test_the_dog_is_public_when_shown_and_only_at_the_end_otherwise() -> None:
    dog = ["2s", "3s", "4s", "5s", "6s", "7s"]
    shown = dealt([[], [], [], []], dog=dog)
    assert public_view(shown).dog == []  # not before the bidding ends
    take(shown, 0, PETITE)
    assert all(view(shown, s).public.dog == dog for s in range(4))
    hidden = dealt([[], [], [], []], dog=dog)
    to_play(hidden, taker=0, contract=GARDE_SANS)
    assert public_view(hidden).dog == []
    play_out(hidden)
    assert public_view(hidden).dog == dog  # the end summary shows it (T-B4)
    assert public_view(hidden).last_deal is not None
    assert public_view(hidden).last_deal.dog == dog


def test_the_ecart_is_seen_by_the_taker_only_its_trumps_by_all() -> None:
    game = dealt([[], [], [], []], dog=["2s", "3s", "4s", "5s", "6s", "7s"])
    take(game, 2, GARDE)
    events = lay_lowest_ecart(game)
    assert len(view(game, 2).ecart) == 6
    for seat in (0, 1, 3):
        v = view(game, seat)
        assert v.ecart == [] and v.public.ecart_size == 6
        assert all(e.player == 2 for e in E.stream_for(events, seat) if isinstance(e, E.Discarded))
        assert not any(
            isinstance(e, (E.Discarded, E.EcartCards)) for e in E.stream_for(events, seat)
        )


def test_played_tricks_are_public_and_the_trick_in_progress_too() -> None:
    game = dealt([["As"], ["Ks"], ["2s"], ["3s"]])
    to_play(game, taker=1)
    apply(game, A.Play(0, c("As"), game.now))
    pub = public_view(game)
    assert pub.trick is not None and pub.trick.plays == [(0, "As")]
    for card in ("Ks", "2s", "3s"):
        apply(game, A.Play(game.deal.current, c(card), game.now))
    pub = public_view(game)
    assert pub.tricks[0].plays == [(0, "As"), (1, "Ks"), (2, "2s"), (3, "3s")]
    assert pub.tricks[0].winner == 1 and pub.seats[1].tricks == 1


def test_a_view_offers_exactly_the_legal_cards_and_bids() -> None:
    game = dealt([["Qs"], ["2s", "Ks", "3h"], [], []])
    v = view(game, 0)
    assert v.bids == [0, 1, 2, 3, 4] and v.legal == ["bid"]
    assert view(game, 1).bids == [] and view(game, 1).legal == []
    to_play(game, taker=3)
    apply(game, A.Play(0, c("Qs"), game.now))
    mine = view(game, 1)
    assert "3h" not in mine.playable and {"2s", "Ks"} <= set(mine.playable)


def test_the_partner_is_named_to_nobody_else_before_the_called_card_is_played() -> None:
    from tamalou.games.tarot.rules import TAROT5

    game = dealt([[], [], ["Kd"], [], []], rules=TAROT5)
    events = take(game, 0, GARDE_SANS)
    events += apply(game, A.CallKing(0, c("Kd"), 0))
    for seat in (0, 1, 3, 4):
        dumped = view(game, seat).model_dump_json()
        assert '"i_am_partner":false' in dumped and '"partner":null' in dumped
    assert not any(isinstance(e, E.PartnerRevealed) for e in events)
