"""Random players for every preset, and the invariants every step must keep.

The players pick among ``legal_actions`` only (so a preset's new actions are played as soon
as the engine offers them), with a little sense: they keep low cards, call when low, double
with the right rank most of the time, and sometimes let the clock play.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from tamalou.core import cards
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import apply, legal_actions, next_deadline
from tamalou.games.tamalou.state import Game
from tamalou.games.tamalou.views import public_view, view

DOUBLES = (A.Double, A.DoubleFor)


def _total(game: Game, seat: int) -> float:
    value = game.rules.compiled.value
    return sum(value[c] for c in game.round.seats[seat].row if c is not None)


def random_action(
    game: Game, rng: random.Random, at: int, double_rate: float = 0.06
) -> A.Action | None:
    due = next_deadline(game)
    if due is not None and due <= at:
        return A.Tick(at)
    r = game.round
    if r.phase == "peek":
        waiting = [p for p in range(game.players) if legal_actions(game, p, at)]
        return A.Peek(rng.choice(waiting), at) if waiting and rng.random() < 0.9 else None
    if r.phase == "over":
        return A.NextRound(rng.randrange(game.players), at) if rng.random() < 0.3 else None
    compiled = game.rules.compiled
    if rng.random() < double_rate and r.discard:
        top = compiled.rank[r.discard[-1]]
        good: list[A.Action] = []
        tries: list[A.Action] = []
        for p in range(game.players):
            for d in legal_actions(game, p, at):
                if not isinstance(d, DOUBLES):
                    continue
                tries.append(d)
                owner, slot = (
                    (d.target, d.target_slot) if isinstance(d, A.DoubleFor) else (p, d.slot)
                )
                c = r.seats[owner].row[slot - 1]
                if c is not None and compiled.rank[c] == top:
                    good.append(d)
        pool = good if good and rng.random() < 0.8 else tries
        if pool:
            return rng.choice(pool)
    if r.phase != "play":
        return None
    actor = r.pending[-1][0] if r.pending else r.current
    options = [a for a in legal_actions(game, actor, at) if not isinstance(a, DOUBLES)]
    if not options:
        return None
    value = compiled.value
    row = r.seats[actor].row
    slots = [i + 1 for i, c in enumerate(row) if c is not None]
    by_kind: dict[str, list[A.Action]] = {}
    for a in options:
        by_kind.setdefault(a.kind, []).append(a)
    if "call" in by_kind:
        low = _total(game, actor) <= min(game.rules.call_threshold, 5)
        if (low and rng.random() < 0.7) or rng.random() < 0.02:
            return by_kind["call"][0]
        if "end_turn" in by_kind:
            return by_kind["end_turn"][0]
    if "contre" in by_kind and rng.random() < 0.3:
        return by_kind["contre"][0]
    if "draw" in by_kind and rng.random() < 0.85:
        takes = by_kind.get("take_discard", [])
        if takes and slots and value[r.discard[-1]] < 3 and rng.random() < 0.7:
            return takes[0]
        return by_kind["draw"][0]
    if r.held is not None and actor == r.current and not r.pending and rng.random() < 0.9:
        if slots:
            worst = max(slots, key=lambda s: value[row[s - 1] or 0])
            if value[row[worst - 1] or 0] > value[r.held] or r.held_from == "discard":
                return A.Replace(actor, worst, at)
        if "throw" in by_kind:
            return by_kind["throw"][0]
    return rng.choice(options)


def card_ids(e: E.Event) -> set[int]:
    """The cards an event tells its audience about."""
    out: set[int] = set()
    for name in ("card", "kept", "discarded"):
        v = getattr(e, name, None)
        if (isinstance(v, int) and name != "card") or (name == "card" and isinstance(v, int)):
            out.add(v)
    if isinstance(e, E.PeekShown | E.Called):
        out.update(c for _, c in e.cards)
    if isinstance(e, E.SwapShown):
        out.update(c for _, _, c in e.cards)
    if isinstance(e, E.RoundEnded):
        out.update(c for h in e.hands for c in h if c is not None)
    if isinstance(e, E.Dealt | E.ReshuffleOrder):
        pass  # log only
    return out


PRIVATE = (E.PeekShown, E.DrawnCard, E.LookShown, E.SwapShown)


class Invariants:
    """Checks after every step; each seat's knowledge comes from its own stream only."""

    def __init__(self, game: Game) -> None:
        self.seen: list[set[int]] = [set() for _ in range(game.players)]
        self.views_checked = 0

    def learn(self, game: Game, events: Iterable[E.Event]) -> None:
        for e in events:
            if isinstance(e, PRIVATE):
                assert e.to == (e.player,), e
            elif isinstance(e, E.Dealt | E.ReshuffleOrder):
                assert e.to == (), e
            else:
                assert e.to is None, e
            if isinstance(e, E.Drew):
                assert (e.card is None) == (e.source == "pile"), e
            if isinstance(e, E.RoundStarted):
                for s in self.seen:
                    s.clear()
            for seat in range(game.players):
                if e.to is None or seat in e.to:
                    self.seen[seat].update(card_ids(e))

    def check(self, game: Game) -> None:
        r = game.round
        placed = [c for s in r.seats for c in s.row if c is not None] + r.pile + r.discard
        if r.held is not None:
            placed.append(r.held)
        assert sorted(placed) == sorted(game.rules.compiled.deck), "every card exactly once"
        assert len(r.discard) == len(r.discard_seqs) == len(r.discard_spent)
        if r.phase in ("play", "final"):
            assert r.pile, "R-T7: the draw pile is refilled eagerly"
        at = game.now
        pub = public_view(game, at)
        for i, sv in enumerate(pub.seats):
            for slot, code in sv.revealed.items():
                card = r.seats[i].row[slot - 1]
                assert card is not None and cards.code(card) == code
        for seat in range(game.players):
            v = view(game, seat, at)
            known = self.seen[seat]
            shown: list[tuple[int, int, str]] = [
                (seat, sv.slot, sv.card) for sv in v.row if sv.card is not None
            ]
            if v.look is not None:
                shown.append(v.look[:3])
            shown.extend(g[:3] for g in v.glimpses)
            for target, slot, code in shown:
                card = r.seats[target].row[slot - 1]
                assert card is not None and cards.code(card) == code, "a view shows a wrong card"
                assert card in known, (seat, target, slot, code, "never told to this seat")
                self.views_checked += 1
            if v.held is not None:
                assert r.held is not None and r.held in known


def play_match(
    game: Game,
    rng: random.Random,
    on_step: Callable[[Game, A.Action, list[E.Event]], None] | None = None,
    max_actions: int = 60_000,
    idle_rate: float = 0.03,
    double_rate: float = 0.06,
) -> list[A.Action]:
    """Play the match to its end; return the actions applied."""
    log: list[A.Action] = []
    at = game.now
    while not game.over:
        assert len(log) < max_actions, "the match does not end"
        due = next_deadline(game)
        at += rng.randrange(50, 2_500)
        if due is not None and rng.random() < idle_rate:
            at = max(at, due)
        action = random_action(game, rng, at, double_rate)
        if action is None:
            continue
        events = apply(game, action)
        log.append(action)
        if on_step is not None:
            on_step(game, action, events)
    return log


def fold(
    rules: Any, players: int, seed: str, actions: list[A.Action]
) -> tuple[Game, list[E.Event]]:
    from tamalou.games.tamalou.engine import new_game

    game, events = new_game(rules, players, seed, 0)
    for a in actions:
        events.extend(apply(game, a))
    return game, events
