"""Kalooki AI players: they see their own view, their legal actions and their own stream.

- ``random``: any legal action (calls now and then);
- ``easy``: lays whatever it can, draws from the pile unless the discard makes a set,
  discards its least connected card, never calls;
- ``medium``: as easy, plus takes or calls (K-CL) a card that completes a meld, refuses
  a call on a card it wants, and discards away from what it holds and what is on the table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki.events import Event
from tamalou.games.kalooki.melds import is_joker, points, positions, rank_of, suit_of
from tamalou.games.kalooki.rules import Rules
from tamalou.games.kalooki.views import PlayerView


class RandomPlayer:
    """Uniform over the legal actions; out of turn it calls one time in five."""

    level = "random"

    def __init__(self, seat: int, rules: Rules, seed: int | str) -> None:
        self.seat = seat
        self.rules = rules
        self.rng = random.Random(f"{seed}:ai:{seat}:random")

    def observe(self, events: Sequence[Event]) -> None:
        return None

    def act(self, seen: PlayerView, legal: Sequence[Any], at: int) -> A.Action | None:
        options = [a for a in legal if a.kind != "next_round"]
        if not options:
            return None
        if all(a.kind == "call" for a in options) and self.rng.random() >= 0.2:
            return None
        choice: A.Action = self.rng.choice(options)
        return choice


def _wants(card: int, hand: Sequence[int], contract: Sequence[int] = (3, 4)) -> int:
    """How much ``card`` helps the hand toward ``contract``: 2 if it completes a meld (a
    set of 3, a run of 4 from 3 in a 4-wide window), 1 if it joins a pair or a near-run,
    0 if it is surplus (a fourth of a rank, a duplicate in a run) or of a kind not needed."""
    if is_joker(card):
        return 3
    r, s = rank_of(card), suit_of(card)
    others = [c for c in hand if c != card and not is_joker(c)]
    score = 0
    if 3 in contract:
        same_rank = sum(1 for c in others if rank_of(c) == r)
        score = {0: 0, 1: 1, 2: 2}.get(same_rank, 0)
    if 4 in contract and not any(rank_of(c) == r and suit_of(c) == s for c in others):
        mine = {p for c in others if suit_of(c) == s for p in positions(c)}
        for p in positions(card):
            for low in range(max(1, p - 3), min(p, 11) + 1):
                have = sum(1 for q in range(low, low + 4) if q in mine)
                if have >= 3:
                    return 2
                if have == 2:
                    score = max(score, 1)
    return score


class HeuristicPlayer:
    """``easy`` and ``medium``: lay as soon as it can, keep what connects, shed points."""

    def __init__(self, seat: int, rules: Rules, seed: int | str, level: str) -> None:
        self.seat = seat
        self.rules = rules
        self.level = level
        self.rng = random.Random(f"{seed}:ai:{seat}:{level}")

    def observe(self, events: Sequence[Event]) -> None:
        return None

    def act(self, seen: PlayerView, legal: Sequence[Any], at: int) -> A.Action | None:
        by_kind: dict[str, list[Any]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        medium = self.level == "medium"
        pub = seen.public
        hand = seen.hand
        top = pub.discard_top
        contract = pub.contract
        if "call" in by_kind:
            if medium and top is not None and _wants(top, hand, contract) >= 2:
                return by_kind["call"][0]
            return None
        if "draw" in by_kind:
            if "take_discard" in by_kind and top is not None:
                need = 2 if medium else 3
                if _wants(top, hand, contract) >= need:
                    return by_kind["take_discard"][0]
            return by_kind["draw"][0]
        for kind in ("lay_down", "shift_joker", "lay_meld"):
            if kind in by_kind:
                return by_kind[kind][0]
        if "lay_off" in by_kind:
            naturals = [a for a in by_kind["lay_off"] if not is_joker(a.card)]
            if naturals:
                return max(naturals, key=lambda a: points(a.card))
            if medium or len([c for c in hand if not is_joker(c)]) == 0:
                return by_kind["lay_off"][0]
        if "discard" in by_kind:
            return self._discard(seen, by_kind["discard"])
        if "end_turn" in by_kind:
            return by_kind["end_turn"][0]
        return None

    def _discard(self, seen: PlayerView, options: list[A.Discard]) -> A.Discard:
        hand = seen.hand
        if self.level == "easy" and self.rng.random() < 0.25:
            return self.rng.choice(options)
        on_table: set[int] = set()
        if self.level != "easy":  # ranks of sets on the table: cards to lay off once down
            for m in seen.public.melds:
                if m.kind == 3:
                    on_table.update(rank_of(c) for c in m.cards if not is_joker(c))
        down = seen.public.seats[seen.seat].laid_down

        def cost(a: A.Discard) -> tuple[int, int, int]:
            keep = 0 if down else _wants(a.card, hand, seen.public.contract)
            later = 1 if rank_of(a.card) in on_table else 0
            return (keep, later, -points(a.card))

        return min(options, key=lambda a: (cost(a), a.card))
