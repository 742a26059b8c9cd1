"""Tarot ``hard``'s card-play search (issue 26): its rollouts follow the engine's rules
(T-P2..T-P5), its determinizations only what the view proves (T-S5, T-B4/T-B5, T-5.3),
its count is the engine's (T-P7, T-P8, T-E2..T-E5), and the clock cap only cuts it short."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tamalou.games.tarot import actions as A
from tamalou.games.tarot import events as E
from tamalou.games.tarot.ai import make_player
from tamalou.games.tarot.ai.hard import HardPlayer, Knowledge
from tamalou.games.tarot.ai.search import (
    Situation,
    determinize,
    distinct,
    legal_cards,
    play_out,
    situation,
)
from tamalou.games.tarot.cards import IS_OUDLER, IS_TRUMP, KING, RANK, SUIT, TRUMP, from_code
from tamalou.games.tarot.engine import apply, legal_actions, new_game, playable
from tamalou.games.tarot.rules import GARDE_CONTRE, GARDE_SANS, TAROT
from tamalou.games.tarot.state import Game
from tamalou.games.tarot.views import PlayerView, view


def _play_deals(
    players: int, seed: str, on_play: Callable[[Game, int, PlayerView], None], deals: int = 1
) -> list[E.DealEnded]:
    """Seeded deals by medium players; ``on_play`` sees every card decision before it."""
    game, events = new_game(TAROT, players, seed, 0, ai=[True] * players)
    bots = [make_player("medium", s, TAROT, f"{seed}:{s}") for s in range(players)]
    ended: list[E.DealEnded] = []
    at = 0
    for _ in range(5_000):
        for b in bots:
            b.observe(E.stream_for(events, b.seat))
        ended += [e for e in events if isinstance(e, E.DealEnded)]
        if len(ended) >= deals or game.over:
            break
        at += 500
        if game.deal.phase == "over":
            events = apply(game, A.NextDeal(0, at))
            continue
        seat = game.deal.current
        seen = view(game, seat, at)
        if game.deal.phase == "play" and seat is not None:
            on_play(game, seat, seen)
        action = bots[seat].act(seen, legal_actions(game, seat, at), at)
        assert action is not None
        events = apply(game, action)
    return ended


def _situation(seen: PlayerView) -> Situation:
    hand = [from_code(x) for x in seen.hand]
    know = Knowledge(seen, hand)
    return situation(seen, hand, know.void, know.max_trump, TAROT)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_rollout_legality_is_the_engines(players: int) -> None:
    """T-P2..T-P5: follow, else trump (over the top if possible), the Excuse any time. (The
    search's candidates are the engine's legal cards; the rollouts play from the second
    card on, so T-5.4's first lead never reaches them.)"""
    checked = 0

    def check(game: Game, seat: int, seen: PlayerView) -> None:
        nonlocal checked
        d = game.deal
        trick = d.tricks[-1].cards
        if not trick and len(d.tricks) == 1 and d.called is not None:
            return  # T-5.4's first lead is the engine's legal list, never a rollout's
        got = legal_cards(game.deal.seats[seat].hand, trick)
        assert sorted(got) == sorted(playable(game, seat)), (trick, game.deal.seats[seat].hand)
        checked += 1

    _play_deals(players, f"legal:{players}", check, deals=3)
    assert checked > 100


@pytest.mark.parametrize("players", [3, 4, 5])
def test_determinizations_hold_only_what_the_view_allows(players: int) -> None:
    """Every sampled deal gives each seat its number of cards, no card of a suit (or trump
    above the bound) the public tricks proved it lacks, the shown dog to the taker (his hand
    or écart, T-B4), an écart without King, oudler or hidden trump (T-B5)."""
    rng = random.Random(1)
    checked = 0

    def check(game: Game, seat: int, seen: PlayerView) -> None:
        nonlocal checked
        if len(seen.hand) % 5:
            return
        sit = _situation(seen)
        know = Knowledge(seen, sit.hand)
        hidden = sit.aside_size - len(sit.aside_known) - len(sit.aside_trumps)
        assert len(sit.unknown) == sum(sit.counts) - len(sit.hand) + hidden
        truth = {c for p, s in enumerate(game.deal.seats) if p != seat for c in s.hand}
        assert truth <= set(sit.unknown)  # what it cannot see, it does not know
        for _ in range(5):
            hands, aside = determinize(sit, rng)
            assert [len(h) for h in hands] == sit.counts
            assert hands[seat] == sit.hand
            placed = [c for p, h in enumerate(hands) if p != seat for c in h] + aside
            assert sorted(placed) == sorted(sit.unknown)
            assert len(aside) == hidden
            for p, h in enumerate(hands):
                if p == seat:
                    continue
                for c in h:
                    assert SUIT[c] not in know.void[p] or SUIT[c] == 5
                    assert not IS_TRUMP[c] or c <= know.max_trump[p]
            for c in sit.dog_to_taker:
                assert c in hands[sit.taker] or c in aside
            if not sit.aside_free:
                assert all(RANK[c] != KING and not IS_OUDLER[c] and SUIT[c] < TRUMP for c in aside)
        checked += 1

    for i in range(3):
        _play_deals(players, f"det:{players}:{i}", check)
    assert checked > 5


@pytest.mark.parametrize("players", [3, 4, 5])
def test_play_out_counts_the_last_trick_as_the_engine(players: int) -> None:
    """Given the true hands and aside at the last trick, the search's count of the deal is
    the engine's score for the seat (T-P7 Excuse, T-P8, T-E2 margin, T-E3 Petit au bout,
    T-E4 poignées, T-E5 shares, the écart or dog by contract, the called King's camp)."""
    predicted: list[tuple[str, int, int, int]] = []
    tag = ""

    def check(game: Game, seat: int, seen: PlayerView) -> None:
        d = game.deal
        if len(d.seats[seat].hand) != 1:
            return
        sit = _situation(seen)
        hands = [list(s.hand) for s in d.seats]
        if d.contract in (GARDE_SANS, GARDE_CONTRE):
            aside = list(d.dog)
        else:
            aside = [c for c in d.ecart if c not in sit.aside_known and c not in sit.aside_trumps]
        predicted.append((tag, d.deal_no, seat, play_out(sit, hands, aside, hands[seat][0])))

    by_deal: dict[tuple[str, int], E.DealEnded] = {}
    for i in range(4):
        tag = f"count:{players}:{i}"
        for e in _play_deals(players, tag, check, deals=6):
            by_deal[tag, e.deal_no] = e
    assert len(predicted) >= 8 * players
    for seed, deal_no, seat, score in predicted:
        assert by_deal[seed, deal_no].scores[seat] == score, (seed, deal_no, seat)


def test_distinct_keeps_one_of_cards_that_play_alike() -> None:
    """2♥ and 3♥ are alike when no unseen card lies between (the unseen 4♥ splits 3♥ and
    5♥, the 7♥ 5♥ and 10♥); a Jack is worth more than a 10 and stays; trumps likewise (2
    and 3); the Petit and the 21 always stay."""
    cards = [from_code(x) for x in ("2h", "3h", "5h", "10h", "Jh", "T2", "T3", "T1", "T21")]
    unknown = [from_code(x) for x in ("4h", "7h", "T5")]
    kept = {x for x in ("2h", "5h", "10h", "Jh", "T2", "T1", "T21")}
    assert {from_code(x) for x in kept} == set(distinct(cards, unknown))


def test_a_zero_budget_plays_the_rules_card() -> None:
    """The bot's clock cap (``budget_ms``) cuts the search after one sample, which never
    overrides the rules: hard then plays exactly its rule-of-thumb card."""
    seen_any = 0

    def check(game: Game, seat: int, seen: PlayerView) -> None:
        nonlocal seen_any
        capped = HardPlayer(seat, TAROT, "cap", budget_ms=0.0)
        hand = [from_code(x) for x in seen.hand]
        cards = sorted(playable(game, seat))
        assert capped._play(seen, hand, cards) == capped._play_rules(seen, hand, cards)
        seen_any += 1

    _play_deals(4, "cap", check)
    assert seen_any > 50


def test_bot_players_are_capped_the_arenas_are_not() -> None:
    import tamalou.games.tarot as tarot

    bot = tarot.make_ai("hard", 0, TAROT, "s")
    assert isinstance(bot, HardPlayer) and bot.budget_ms == tarot.AI_BUDGET_MS
    arena = make_player("hard", 0, TAROT, "s")
    assert isinstance(arena, HardPlayer) and arena.budget_ms is None and arena.work > 0
    assert "hard" in tarot.SLOW_AI_LEVELS
