"""Shared helpers for the engine tests: forced deals, refusals, visibility checks.

Every scripted test starts from :func:`tamalou.games.tamalou.scripted.forced_game`; with ``play=True``
(the default) everybody has peeked at ``at=0`` and the first turn started at ``T0``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest

from tamalou.core import cards
from tamalou.core.errors import IllegalAction
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import codec
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import apply, double_actions, legal_actions, next_deadline
from tamalou.games.tamalou.rules import TAMALOU, Rules
from tamalou.games.tamalou.scripted import forced_game, redeal
from tamalou.games.tamalou.state import Game

T0 = TAMALOU.peek_ms  # when the first turn of a forced game starts (everyone peeked at 0)

ALL_CODES: tuple[str, ...] = tuple(cards.code(c) for c in TAMALOU.compiled.deck)


def c(code: str) -> int:
    return cards.from_code(code)


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


def kinds(events: Iterable[E.Event]) -> list[str]:
    return [e.kind for e in events]


def only(events: Iterable[E.Event], kind: type[Any]) -> Any:
    found = [e for e in events if isinstance(e, kind)]
    assert len(found) == 1, (kind, found)
    return found[0]


def has(events: Iterable[E.Event], kind: type[Any]) -> bool:
    return any(isinstance(e, kind) for e in events)


def legal_kinds(game: Game, player: int, at: int | None = None) -> set[str]:
    return {a.kind for a in legal_actions(game, player, at)}


def crowded_rows(
    players: int, keep: Sequence[Sequence[str]], pile: Sequence[str], discard: Sequence[str]
) -> list[list[str]]:
    """Rows that hold every card not in ``pile`` or ``discard``: the draw pile is exactly ``pile``.

    Row ``i`` starts with ``keep[i]``; the other cards are dealt round the table after them.
    """
    rows = [list(k) for k in keep] + [[] for _ in range(players - len(keep))]
    used = {code for row in rows for code in row} | set(pile) | set(discard)
    rest = [code for code in ALL_CODES if code not in used]
    for i, code in enumerate(rest):
        rows[i % players].append(code)
    return rows


def force_deal(
    game: Game,
    rows: list[list[str]],
    pile: Sequence[str] = (),
    discard: Sequence[str] = (),
) -> None:
    """Re-deal the current round (before anybody peeked), as ``forced_game`` does for round 1."""
    r = game.round
    assert r.phase == "peek" and all(s.peek_until is None for s in r.seats)
    redeal(game, rows, pile, discard)


def skip_peek(game: Game) -> None:
    """Everybody peeks now and the peek phase runs out: the first turn starts."""
    at = game.now
    for p in range(game.players):
        apply(game, A.Peek(p, at))
    apply(game, A.Tick(at + game.rules.peek_ms))


def draw_throw(game: Game, at: int | None = None) -> list[E.Event]:
    """The current player draws from the pile and throws the card (passing any power)."""
    at = game.now if at is None else at
    p = game.round.current
    ev = apply(game, A.Draw(p, at)) + apply(game, A.Throw(p, at))
    if game.round.phase == "play" and game.round.stage == "power" and game.round.current == p:
        ev += apply(game, A.Pass(p, at))
    return ev


def game_with(
    rows: list[list[str]],
    pile: Sequence[str] = (),
    discard: Sequence[str] = (),
    first: int = 0,
    rules: Rules = TAMALOU,
    play: bool = True,
    ai: list[bool] | None = None,
) -> Game:
    return forced_game(rows, list(pile), list(discard), first, rules, 0, play, ai)


def deck_counts(game: Game) -> list[int]:
    """Every card of the round, wherever it is (rows, pile, discard, held), sorted."""
    r = game.round
    out = [x for s in r.seats for x in s.row if x is not None]
    out += r.pile + r.discard
    if r.held is not None:
        out.append(r.held)
    return sorted(out)


# -- random players ---------------------------------------------------------------------


def random_action(
    game: Game, rng: random.Random, at: int, double_rate: float = 0.04, memory: float = 0.75
) -> A.Action | None:
    """A random legal action at ``at`` (a Tick when a deadline is due), or None (nobody acts).

    Players mostly play their turn; sometimes somebody tries a double (half the time with a
    card of the right rank, as a good memory would); sometimes the clock runs out.
    """
    due = next_deadline(game)
    if due is not None and due <= at:
        return A.Tick(at)
    r = game.round
    if r.phase == "peek":
        waiting = [p for p in range(game.players) if r.seats[p].peek_until is None]
        if waiting and rng.random() < 0.9:
            return A.Peek(rng.choice(waiting), at)
        return None
    if r.phase == "over":
        return A.NextRound(rng.randrange(game.players), at) if rng.random() < 0.3 else None
    if rng.random() < double_rate:
        compiled = game.rules.compiled
        top = compiled.rank[r.discard[-1]] if r.discard else None
        good: list[A.Action] = []
        tries: list[A.Action] = []
        for player in range(game.players):
            row = r.seats[player].row
            for d in double_actions(game, player, at):
                assert isinstance(d, A.Double)
                tries.append(d)
                if compiled.rank[row[d.slot - 1] or 0] == top:
                    good.append(d)
        if rng.random() < memory:
            if good:
                return rng.choice(good)
        elif tries:
            return rng.choice(tries)
    if r.phase != "play":
        return None
    options = [a for a in legal_actions(game, r.current, at) if not isinstance(a, A.Double)]
    if not options:
        return None
    value = game.rules.compiled.value
    row = r.seats[r.current].row
    calls = [a for a in options if isinstance(a, A.CallTamalou)]
    if calls:
        total = sum(value[x] for x in row if x is not None)
        if total <= game.rules.call_threshold and rng.random() < 0.7:
            return calls[0]  # a player who remembers well
        if len(options) > 1 and rng.random() < 0.9:
            options.remove(calls[0])  # a bet now and then, not one turn in three
    if r.stage == "start" and rng.random() < 0.8:
        worst = max(_slots_of(row), key=lambda s: value[row[s - 1] or 0])
        takes = [a for a in options if isinstance(a, A.TakeDiscard)]
        if takes and value[r.discard[-1]] < min(3, value[row[worst - 1] or 0]):
            return takes[0]
        return A.Draw(r.current, at)
    if r.held is not None and rng.random() < 0.9:
        worst = max(_slots_of(row), key=lambda s: value[row[s - 1] or 0])
        if value[row[worst - 1] or 0] > value[r.held] or r.held_from == "discard":
            return A.Replace(r.current, worst, at)
        if r.held_from == "pile":
            return A.Throw(r.current, at)
    swaps = [a for a in options if isinstance(a, A.Swap)]
    if swaps and rng.random() < 0.8:

        def gain(a: A.Swap) -> float:
            theirs = r.seats[a.target].row[a.target_slot - 1] or 0
            return value[row[a.slot - 1] or 0] - value[theirs]

        return max(swaps, key=gain)
    return rng.choice(options)


def _slots_of(row: list[int | None]) -> list[int]:
    return [i + 1 for i, x in enumerate(row) if x is not None]


def play_random_round(
    game: Game,
    rng: random.Random,
    on_action: Callable[[Game, A.Action, list[E.Event]], None] | None = None,
    max_actions: int = 3_000,
    idle_rate: float = 0.03,
    log: list[A.Action] | None = None,
    double_rate: float = 0.04,
    memory: float = 0.75,
) -> int:
    """Play the current round to its end; return the number of actions applied.

    ``on_action`` runs after every applied action; ``log`` collects the actions.
    """
    r = game.round
    applied = 0
    at = game.now
    while game.round is r and r.phase != "over":
        assert applied < max_actions, "the round does not terminate"
        due = next_deadline(game)
        at += rng.randrange(50, 2_500)
        if due is not None and rng.random() < idle_rate:
            at = max(at, due)  # nobody acts: the clock does
        action = random_action(game, rng, at, double_rate, memory)
        if action is None:
            continue
        events = apply(game, action)
        applied += 1
        if log is not None:
            log.append(action)
        if on_action is not None:
            on_action(game, action, events)
    return applied
