"""Shared helpers for the engine tests: forced deals, refusals, visibility checks.

Every scripted test starts from :func:`tamalou.scripted.forced_game`; with ``play=True``
(the default) everybody has peeked at ``at=0`` and the first turn started at ``T0``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from tamalou import actions as A
from tamalou import cards, codec
from tamalou import events as E
from tamalou.engine import apply, legal_actions
from tamalou.errors import IllegalAction
from tamalou.rules import TAMALOU, Rules
from tamalou.scripted import forced_game
from tamalou.state import Game

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
    chosen = [c(x) for row in rows for x in row]
    chosen_pile = [c(x) for x in pile]
    chosen_discard = [c(x) for x in discard]
    used = set(chosen + chosen_pile + chosen_discard)
    rest = [x for x in game.rules.compiled.deck if x not in used]
    k = 0
    for seat, row in zip(r.seats, rows, strict=True):
        seat.row = list(chosen[k : k + len(row)])
        k += len(row)
    r.pile = rest + list(reversed(chosen_pile))
    r.discard = chosen_discard
    r.discard_seqs = list(range(1, len(chosen_discard) + 1))
    r.discard_spent = [False] * len(chosen_discard)
    r.seq = len(chosen_discard)


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
