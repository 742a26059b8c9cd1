"""Forced deals for scripted tests, tools and docs: a game with the cards you choose.

The deal is replaced before anybody speaks, so everything after it runs through the real
engine. Such a game does not replay from its seed: replay tests use dealt games.
"""

from __future__ import annotations

from collections.abc import Sequence

from tamalou.games.tarot.cards import DECK, from_code
from tamalou.games.tarot.engine import new_game
from tamalou.games.tarot.rules import TAROT, Rules
from tamalou.games.tarot.state import DealState, Game, SeatState


def card(text: str) -> int:
    return from_code(text)


def forced_game(
    hands: Sequence[Sequence[str]],
    dog: Sequence[str] = (),
    dealer: int = 0,
    rules: Rules = TAROT,
    at: int = 0,
    ai: list[bool] | None = None,
) -> Game:
    """A game whose hands and dog are given (codes of :mod:`tamalou.games.tarot.cards`).

    Hands may be partial: the cards not given fill them (then the dog) in deck order, so a
    test names only the cards its rule needs. Bidding starts at the seat after ``dealer``.
    """
    n = len(hands)
    game, _ = new_game(rules, n, "scripted", at, ai)
    redeal(game, hands, dog, dealer)
    return game


def redeal(
    game: Game, hands: Sequence[Sequence[str]], dog: Sequence[str] = (), dealer: int = 0
) -> None:
    """Replace the current deal (before anybody speaks) with the cards given."""
    n = game.players
    hand_size, dog_size = game.rules.deal_for(n)
    chosen = [[from_code(c) for c in h] for h in hands]
    chosen_dog = [from_code(c) for c in dog]
    used = [c for h in chosen for c in h] + chosen_dog
    if len(set(used)) != len(used):
        raise ValueError("a card is dealt twice")
    if any(len(h) > hand_size for h in chosen) or len(chosen_dog) > dog_size:
        raise ValueError("too many cards for a hand or the dog")
    rest = [c for c in DECK if c not in set(used)]
    for h in chosen:
        while len(h) < hand_size:
            h.append(rest.pop(0))
    while len(chosen_dog) < dog_size:
        chosen_dog.append(rest.pop(0))
    d = game.deal
    seats = [SeatState(list(h), is_ai=game.ai[i]) for i, h in enumerate(chosen)]
    game.deal = DealState(d.deal_no, d.seed, dealer, seats, chosen_dog, [list(h) for h in chosen])
    game.deal.phase = "bid"
    game.deal.current = (dealer + 1) % n
    game.deal.turn_started = game.now
    game.deal.deadline = game.now + game.rules.bid_ms
