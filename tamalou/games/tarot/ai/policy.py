"""Tarot AI players: ``random`` and the rule-of-thumb players (``easy``, ``medium``).

A player sees only its own :class:`PlayerView` (its hand, the public table: bids, dog when
shown, every played trick) and its own event stream; it never receives the engine state.
Its choices are seeded by its seed and the number of events it has seen, so a replay of
the same table makes the same choices.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tamalou.games.tarot import actions as A
from tamalou.games.tarot.ai.search import card_beats
from tamalou.games.tarot.cards import (
    EXCUSE,
    EXCUSE_SUIT,
    IS_OUDLER,
    IS_TRUMP,
    KING,
    PETIT,
    POINTS,
    QUEEN,
    RANK,
    SUIT,
    TRUMP,
    TRUMP_21,
    from_code,
)
from tamalou.games.tarot.events import Event
from tamalou.games.tarot.rules import GARDE, GARDE_CONTRE, GARDE_SANS, PASS, PETITE, Rules
from tamalou.games.tarot.views import PlayerView


@dataclass(frozen=True, slots=True)
class Style:
    """The knobs that make a level."""

    bid_scale: float = 1.0  # > 1 bids more boldly
    max_contract: int = GARDE_CONTRE
    blunder_p: float = 0.0  # chance of a random legal card instead of the chosen one
    poignee: bool = True  # the taker shows a poignée when it has one
    smear: bool = True  # give points to a trick the own camp wins
    save_petit: bool = True


MEDIUM = Style()
EASY = Style(bid_scale=0.9, max_contract=GARDE, blunder_p=0.2, poignee=False, save_petit=False)


class AIPlayer:
    """One AI seat: feed it events (``observe``), ask it to act (``act``)."""

    level: str = "ai"

    def __init__(self, seat: int, rules: Rules, seed: int | str) -> None:
        self.seat = seat
        self.rules = rules
        self.seed = str(seed)
        self.events_seen = 0
        self._calls = 0
        self._calls_at = -1

    def observe(self, events: Iterable[Event]) -> None:
        """Events in order (its own stream; other seats' private events are skipped)."""
        for e in events:
            if e.to is None or self.seat in e.to:
                self.events_seen += 1

    def _rng(self) -> random.Random:
        """A generator that depends only on the seed and the events seen: a replay agrees."""
        if self.events_seen != self._calls_at:
            self._calls_at, self._calls = self.events_seen, 0
        self._calls += 1
        return random.Random(f"{self.seed}:{self.events_seen}:{self._calls}")

    def act(self, view: PlayerView, legal: Sequence[A.Action], at: int) -> A.Action | None:
        """The action to take now among ``legal`` (never a NextDeal), or None."""
        mine: list[A.Action] = [
            a for a in legal if a.player == self.seat and not isinstance(a, A.NextDeal)
        ]
        if not mine:
            return None
        choice = self.choose(view, mine)
        return dataclasses.replace(choice, at=at)

    def choose(self, view: PlayerView, legal: list[A.Action]) -> A.Action:
        raise NotImplementedError


class RandomPlayer(AIPlayer):
    """Any legal action, uniformly (the arena's baseline)."""

    level = "random"

    def choose(self, view: PlayerView, legal: list[A.Action]) -> A.Action:
        return self._rng().choice(legal)


# -- hand strength (T-B) --------------------------------------------------------------------


def hand_strength(hand: list[int]) -> float:
    """A bidding count on the 4-player scale (18 cards): oudlers, trumps, Kings, long suits."""
    trumps = [c for c in hand if IS_TRUMP[c]]
    score = 0.0
    if TRUMP_21 in hand:
        score += 10
    if EXCUSE in hand:
        score += 8
    if PETIT in hand:
        score += 8 if len(trumps) >= 5 else 4
    score += 2 * len(trumps) + sum(1 for c in trumps if RANK[c] >= 16)
    for s in range(4):
        suit = [c for c in hand if SUIT[c] == s]
        ranks = {RANK[c] for c in suit}
        score += 6 * (KING in ranks) + 3 * (QUEEN in ranks) + 1 * (12 in ranks)
        if KING in ranks and QUEEN in ranks:
            score += 1
        if len(suit) >= 5:
            score += 3 * (len(suit) - 4)
        elif not suit:
            score += 5
        elif len(suit) == 1:
            score += 2
    return score * 18 / max(1, len(hand))


def wanted_contract(strength: float, players: int, style: Style) -> int:
    s = strength * style.bid_scale * (1.1 if players == 5 else 1.0)
    for contract, floor in ((GARDE_CONTRE, 86), (GARDE_SANS, 74), (GARDE, 58), (PETITE, 42)):
        if s >= floor:
            return min(contract, style.max_contract)
    return PASS


# -- the trick ------------------------------------------------------------------------------


def winner_of(plays: list[tuple[int, int]]) -> tuple[int, int]:
    """(seat, card) winning ``plays`` so far (T-P6); (-1, -1) if nothing counts yet."""
    led = -1
    best, who, card = -1, -1, -1
    for p, c in plays:
        s = SUIT[c]
        if s == EXCUSE_SUIT:
            continue
        if led < 0:
            led = s
        key = 100 + c if s == TRUMP else (RANK[c] if s == led else -1)
        if key > best:
            best, who, card = key, p, c
    return who, card


def beats(card: int, plays: list[tuple[int, int]]) -> bool:
    return card_beats(card, winner_of(plays)[1])


class HeuristicPlayer(AIPlayer):
    """Bids from hand strength, builds a sound écart, plays for its camp."""

    level = "medium"

    def __init__(
        self, seat: int, rules: Rules, seed: int | str, style: Style = MEDIUM, level: str = ""
    ) -> None:
        super().__init__(seat, rules, seed)
        self.style = style
        if level:
            self.level = level

    def choose(self, view: PlayerView, legal: list[A.Action]) -> A.Action:
        first = legal[0]
        hand = [from_code(c) for c in view.hand]
        if isinstance(first, A.Bid):
            want = wanted_contract(hand_strength(hand), len(view.public.seats), self.style)
            bids = [a for a in legal if isinstance(a, A.Bid)]
            return max((a for a in bids if a.contract <= want), key=lambda a: a.contract)
        if isinstance(first, A.CallKing):
            return self._call(hand, legal)
        if isinstance(first, A.Discard):
            return self._discard(hand, legal)
        if isinstance(first, A.Chelem):
            return next((a for a in legal if isinstance(a, A.Chelem) and not a.announce), legal[-1])
        if self.style.poignee and view.public.taker == self.seat:
            shows = [a for a in legal if isinstance(a, A.Poignee)]
            if shows:
                return max(shows, key=lambda a: len(a.cards))
        plays = [a for a in legal if isinstance(a, A.Play)]
        if self.style.blunder_p and self._rng().random() < self.style.blunder_p:
            return self._rng().choice(plays)
        card = self._play(view, hand, [a.card for a in plays])
        return next(a for a in plays if a.card == card)

    def _call(self, hand: list[int], legal: list[A.Action]) -> A.Action:
        calls = [a for a in legal if isinstance(a, A.CallKing)]
        held = set(hand)

        def key(a: A.CallKing) -> tuple[bool, int]:  # a card not held, in my longest suit
            return (a.card not in held, sum(1 for c in hand if SUIT[c] == SUIT[a.card]))

        return max(calls, key=key)

    def _discard(self, hand: list[int], legal: list[A.Action]) -> A.Action:
        """Empty the short suits first (points in the écart are safe); trumps last, lowest."""
        options = [a for a in legal if isinstance(a, A.Discard)]

        def key(a: A.Discard) -> tuple[int, int]:
            c = a.card
            if IS_TRUMP[c]:
                return (100, RANK[c])
            return (sum(1 for h in hand if SUIT[h] == SUIT[c]), -POINTS[c])

        return min(options, key=key)

    # -- card play ----------------------------------------------------------------------

    def _camp(self, view: PlayerView) -> tuple[set[int], set[int]]:
        """(allies, opponents) as far as this seat knows."""
        pub = view.public
        n = len(pub.seats)
        taker = pub.taker if pub.taker is not None else -1
        partner = view.partner
        attack = {taker} | ({partner} if partner is not None else set())
        if self.seat in attack or view.i_am_partner:
            allies = attack | {self.seat}
            return allies, set(range(n)) - allies
        opponents = attack
        return set(range(n)) - opponents, opponents

    def _play(self, view: PlayerView, hand: list[int], cards: list[int]) -> int:
        if len(cards) == 1:
            return cards[0]
        pub = view.public
        n = len(pub.seats)
        trick = pub.trick
        plays = [(p, from_code(c)) for p, c in trick.plays] if trick else []
        allies, _ = self._camp(view)
        if EXCUSE in cards and len(hand) == 2:
            return EXCUSE  # never keep the Excuse to the last trick (T-P8)
        played = {from_code(c) for t in pub.tricks for _, c in t.plays}
        if not plays:
            return self._lead(view, hand, cards, played)
        last = len(plays) == n - 1
        who, best = winner_of(plays)
        points = sum(POINTS[c] for _, c in plays)
        ally_wins = who in allies
        safe = ally_wins and (last or (IS_TRUMP[best] and best >= 71) or RANK[best] == KING)
        if safe and self.style.smear:
            if self.style.save_petit and PETIT in cards:
                return PETIT
            plain = [c for c in cards if not IS_OUDLER[c]]
            if plain:
                return max(plain, key=lambda c: (POINTS[c], -IS_TRUMP[c], RANK[c]))
        winners = [c for c in cards if beats(c, plays)]
        if winners and not ally_wins:
            if last:
                if self.style.save_petit and PETIT in winners:
                    return PETIT
                return min(winners, key=lambda c: (IS_TRUMP[c], RANK[c]))
            trumps = [c for c in winners if IS_TRUMP[c]]
            if trumps:
                big = [c for c in trumps if c != TRUMP_21]
                if points >= 9 or not big:
                    return max(trumps)
                return max(big) if len(trumps) > 2 else min(big)
            return max(winners, key=lambda c: RANK[c])
        if EXCUSE in cards and points >= 7:
            return EXCUSE
        return min(
            [c for c in cards if c != EXCUSE] or cards,
            key=lambda c: (c == PETIT, POINTS[c], IS_TRUMP[c], RANK[c]),
        )

    def _lead(self, view: PlayerView, hand: list[int], cards: list[int], played: set[int]) -> int:
        pub = view.public
        called = from_code(pub.called) if pub.called else None
        if pub.taker == self.seat and called is not None and called not in played:
            to_king = [k for k in cards if SUIT[k] == SUIT[called]]
            if to_king and called not in hand:  # lead low to the called King's holder
                return min(to_king, key=lambda k: RANK[k])
        led_suits = {SUIT[from_code(t.plays[0][1])] for t in pub.tricks if t.plays}
        for c in cards:  # a King in a suit nobody has led yet
            if SUIT[c] < TRUMP and RANK[c] == KING and SUIT[c] not in led_suits:
                return c
        trumps = [c for c in cards if IS_TRUMP[c] and c != PETIT]
        if pub.taker == self.seat and len(trumps) * 2 >= len(hand) and trumps:
            return max(trumps) if max(trumps) == TRUMP_21 else min(trumps)
        suits = [c for c in cards if SUIT[c] < TRUMP]
        if suits:
            length = {s: sum(1 for c in hand if SUIT[c] == s) for s in range(4)}
            return min(suits, key=lambda c: (-length[SUIT[c]], POINTS[c], RANK[c]))
        if trumps:
            return min(trumps)
        return min(cards, key=lambda c: (c == EXCUSE, RANK[c]))
