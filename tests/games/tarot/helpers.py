"""Shared helpers for the tarot engine tests: forced deals, refusals, quick play.

Cards are written as codes (:func:`tamalou.games.tarot.cards.code`): ``Ks`` King of spades,
``Ch`` Cavalier of hearts, ``10d``, ``T1`` the Petit, ``T21``, ``EX`` the Excuse.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from tamalou.core.errors import IllegalAction
from tamalou.games.tarot import actions as A
from tamalou.games.tarot import codec
from tamalou.games.tarot import events as E
from tamalou.games.tarot.cards import DECK, code, from_code, lowest_key
from tamalou.games.tarot.engine import apply, legal_actions, playable
from tamalou.games.tarot.rules import TAROT, Rules
from tamalou.games.tarot.scripted import forced_game
from tamalou.games.tarot.state import Game, Trick


def c(text: str) -> int:
    return from_code(text)


def cs(*texts: str) -> tuple[int, ...]:
    return tuple(from_code(t) for t in texts)


def suit(s: str, ranks: str = "A 2 3 4 5 6 7 8 9 10 J C Q K") -> list[str]:
    return [f"{r}{s}" for r in ranks.split()]


def trumps(*numbers: int) -> list[str]:
    return [f"T{n}" for n in numbers]


def snapshot(game: Game) -> dict[str, Any]:
    return codec.game_to_dict(game)


def refused(game: Game, action: A.Action, reason: str) -> IllegalAction:
    """``action`` raises ``IllegalAction(reason)`` and leaves the state exactly as it was."""
    before = snapshot(game)
    with pytest.raises(IllegalAction) as info:
        apply(game, action)
    assert info.value.reason == reason, info.value
    assert snapshot(game) == before, "state changed after an illegal action"
    return info.value


def only(events: Iterable[E.Event], kind: type[Any]) -> Any:
    found = [e for e in events if isinstance(e, kind)]
    assert len(found) == 1, (kind, found)
    return found[0]


def has(events: Iterable[E.Event], kind: type[Any]) -> bool:
    return any(isinstance(e, kind) for e in events)


def bid_round(game: Game, contracts: Sequence[int]) -> list[E.Event]:
    """Everyone speaks in turn from the current bidder with ``contracts`` (0 pass)."""
    out: list[E.Event] = []
    for contract in contracts:
        if game.deal.phase != "bid":
            break
        out += apply(game, A.Bid(game.deal.current, contract, game.now))
    return out


def take(game: Game, taker: int, contract: int) -> list[E.Event]:
    """Bidding where ``taker`` bids ``contract`` and everybody else passes."""
    out: list[E.Event] = []
    while game.deal.phase == "bid":
        p = game.deal.current
        out += apply(game, A.Bid(p, contract if p == taker else 0, game.now))
    return out


def lay_lowest_ecart(game: Game) -> list[E.Event]:
    """The taker discards the legal cards one at a time, lowest first (T-K3)."""
    out: list[E.Event] = []
    while game.deal.phase == "ecart":
        options = [a for a in legal_actions(game, game.deal.taker) if isinstance(a, A.Discard)]
        out += apply(game, min(options, key=lambda a: lowest_key(a.card)))
    return out


def play(game: Game, *codes: str) -> list[E.Event]:
    """The current players play these cards in turn."""
    out: list[E.Event] = []
    for t in codes:
        out += apply(game, A.Play(game.deal.current, c(t), game.now))
    return out


def play_out(game: Game) -> list[E.Event]:
    """Everybody plays their lowest legal card until the deal ends."""
    out: list[E.Event] = []
    while game.deal.phase == "play":
        p = game.deal.current
        out += apply(game, A.Play(p, min(playable(game, p), key=lowest_key), game.now))
    return out


def four_hands(
    hands: Sequence[Sequence[str]], dog: Sequence[str] = (), dealer: int = 3, rules: Rules = TAROT
) -> Game:
    """A forced 4-player deal (partial hands filled in deck order); seat 0 speaks first."""
    return forced_game(hands, dog, dealer=dealer, rules=rules)


def trick(leader: int, players: Sequence[int], codes: Sequence[str], winner: int) -> Trick:
    return Trick(leader, list(players), [c(t) for t in codes], winner)


def rest_of_deck(*used: Iterable[str]) -> list[str]:
    taken = {x for group in used for x in group}
    return [code(k) for k in DECK if code(k) not in taken]


def kind_of(card: str) -> str:
    """``T`` for a trump, ``E`` for the Excuse, else the suit letter."""
    if card == "EX":
        return "E"
    return "T" if card.startswith("T") else card[-1]


def dealt(
    hands: Sequence[Sequence[str]],
    voids: dict[int, str] | None = None,
    dog: Sequence[str] = (),
    rules: Rules = TAROT,
    dealer: int | None = None,
) -> Game:
    """A forced deal: the given cards, the rest filled (the most constrained kinds first, else in
    deck order), each into the hand with
    the most room that is not void of its kind (``voids``: seat -> kinds such as ``"sT"``),
    else the dog. Seat 0 speaks (and leads) first unless ``dealer`` says otherwise."""
    n = len(hands)
    hand_size, dog_size = rules.deal_for(n)
    voids = voids or {}
    full = [list(h) for h in hands]
    the_dog = list(dog)
    rest = rest_of_deck(*hands, dog)
    rest.sort(key=lambda x: sum(kind_of(x) not in voids.get(s, "") for s in range(n)))
    for card in rest:
        room = [
            (hand_size - len(full[s]), -s)
            for s in range(n)
            if len(full[s]) < hand_size and kind_of(card) not in voids.get(s, "")
        ]
        if room:
            full[-max(room)[1]].append(card)
        else:
            the_dog.append(card)
    assert len(the_dog) == dog_size, "the voids asked for do not fit in the deal"
    return forced_game(full, the_dog, dealer=n - 1 if dealer is None else dealer, rules=rules)


def to_play(game: Game, taker: int = 0, contract: int = 3) -> list[E.Event]:
    """``taker`` bids ``contract`` (Garde sans by default), the others pass, no chelem."""
    out = take(game, taker, contract)
    if game.deal.phase == "call":
        out += apply(game, A.CallKing(taker, c("Kc"), game.now))
    if game.deal.phase == "ecart":
        out += lay_lowest_ecart(game)
    if game.deal.phase == "chelem":
        out += apply(game, A.Chelem(taker, False, game.now))
    return out
