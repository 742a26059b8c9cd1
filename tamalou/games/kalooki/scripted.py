"""Forced deals for scripted tests, tools and docs: a Kalooki game with the cards you choose.

The deal is replaced before anybody acts, so everything after it runs through the real
engine. Such a game does not replay from its seed: replay tests use dealt games.
Card codes are those of :mod:`tamalou.core.cards` with an optional ``@deck`` suffix for
duplicates: ``7h`` and ``7h@1`` are the two seven of hearts of a two-deck pack, ``JK``,
``JK@1`` (deck 0's second joker) ... ``JK@3`` are the four jokers.
"""

from __future__ import annotations

from collections.abc import Sequence

from tamalou.core import cards
from tamalou.games.kalooki.engine import _start_turn, new_game
from tamalou.games.kalooki.rules import KALOOKI, Rules, build_pack
from tamalou.games.kalooki.state import Game


def card(text: str) -> int:
    """``7h`` -> deck 0's seven of hearts; ``7h@1`` -> deck 1's; ``JK@n`` -> the n-th joker."""
    return cards.from_text(text)


def forced_game(
    hands: Sequence[Sequence[str]],
    pile: Sequence[str] = (),
    discard: Sequence[str] = (),
    first: int = 0,
    rules: Rules = KALOOKI,
    round_no: int = 1,
    at: int = 0,
    ai: list[bool] | None = None,
) -> Game:
    """A game at round ``round_no`` whose hands, draw pile (first element drawn first) and
    discard pile (last on top; default: one card from the pack) are given; ``first`` plays
    first, the seat before is the dealer and discarded the top (K-S3)."""
    game, _ = new_game(rules, len(hands), "scripted", at, ai)
    r = game.round
    n = len(hands)
    r.round_no = round_no
    chosen = [[card(c) for c in h] for h in hands]
    chosen_pile = [card(c) for c in pile]
    chosen_discard = [card(c) for c in discard]
    used = [c for h in chosen for c in h] + chosen_pile + chosen_discard
    if len(set(used)) != len(used):
        raise ValueError("a card is dealt twice")
    decks, jokers = rules.pack(n)
    rest = [c for c in build_pack(decks, jokers) if c not in set(used)]
    if not chosen_discard:
        chosen_discard = [rest.pop()]
    for seat, h in zip(r.seats, chosen, strict=True):
        seat.hand = list(h)
    r.pile = rest + chosen_pile[::-1]
    r.discard = chosen_discard
    r.dealer = (first - 1) % n
    r.discarder = r.dealer
    r.live, r.discard_at = True, at
    r.turns = 0  # the deal's first turn starts now
    _start_turn(game, first, at, [])
    return game


def place_melds(game: Game, melds: Sequence[tuple[int, int, Sequence[str]]]) -> None:
    """Put melds on the table as if laid earlier in the round: (owner, kind, card codes),
    a run lowest first. Their owners count as laid down; the first owner laid down first."""
    from tamalou.games.kalooki.melds import normalize
    from tamalou.games.kalooki.state import Meld

    r = game.round
    for owner, kind, codes in melds:
        ordered, low = normalize(kind, [card(c) for c in codes])
        for c in ordered:
            if c in r.pile:
                r.pile.remove(c)  # the card was left over in the pile: it is on the table now
            elif any(c in s.hand for s in r.seats) or c in r.discard:
                raise ValueError(f"card {c} is already dealt")
        r.melds.append(Meld(owner, kind, ordered, low if kind == 4 else 0))
        r.seats[owner].laid_down = True
        if r.first_down is None:
            r.first_down = owner
