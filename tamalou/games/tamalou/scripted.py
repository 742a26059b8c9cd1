"""Forced deals for scripted tests, tools and docs: a game with the cards you choose.

The deal is replaced before anybody acts, so everything after it runs through the real
engine. Such a game does not replay from its seed: replay tests use dealt games.
"""

from __future__ import annotations

from collections.abc import Sequence

from tamalou.core import cards
from tamalou.games.tamalou.actions import Peek, Tick
from tamalou.games.tamalou.engine import new_game, step
from tamalou.games.tamalou.rules import TAMALOU, Rules
from tamalou.games.tamalou.state import Game


def forced_game(
    rows: list[list[str]],
    pile: list[str] | None = None,
    discard: list[str] | None = None,
    first: int = 0,
    rules: Rules = TAMALOU,
    at: int = 0,
    play: bool = True,
    ai: list[bool] | None = None,
    scores: Sequence[float] | None = None,
    out: Sequence[bool] | None = None,
) -> Game:
    """A game whose rows, draw pile (first element drawn first) and discard (last on top) are given.

    Card codes name copies (:func:`tamalou.core.cards.from_text`): ``JK@1`` is the second
    joker, ``7h@1`` the second deck's seven of hearts. Cards left over from the deck go under
    the given pile. ``scores`` and ``out`` start the match in its middle: the cumulative
    scores so far and the seats already eliminated (R-X16; their rows are empty, ``[]``).
    With ``play`` the peek phase is skipped (everyone in peeks, time passes), and the first
    turn of ``first`` has started.
    """
    game, _ = new_game(rules, len(rows), "scripted", at, ai)
    gone = [False] * len(rows) if out is None else list(out)
    if len(gone) != len(rows) or (scores is not None and len(scores) != len(rows)):
        raise ValueError("one score and one out flag a seat")
    if any(g and row for g, row in zip(gone, rows, strict=True)):
        raise ValueError("an eliminated seat is dealt no card")
    if gone[first] or all(gone):
        raise ValueError("the first player must still be in the match")
    if scores is not None:
        game.cumulative = [float(s) for s in scores]
    game.out = gone
    redeal(game, rows, pile or [], discard or [])
    r = game.round
    for seat, g in zip(r.seats, gone, strict=True):
        seat.out = g
    r.first_player = r.current = first
    if rules.long_peek:  # R-X14: no peek phase; the peek shows the forced cards
        for seat in r.seats:
            seat.peeked = [
                (s, c)
                for s in rules.peek_slots
                if s <= len(seat.row) and (c := seat.row[s - 1]) is not None
            ]
            seat.peek_open = seat.peek_open and not seat.out
        r.current = first
        return game
    if play:
        for p in range(len(rows)):
            if not gone[p]:
                step(game, Peek(p, at))
        step(game, Tick(at + rules.peek_ms))
    return game


def card(code: str) -> int:
    return cards.from_text(code)


def redeal(
    game: Game, rows: list[list[str]], pile: Sequence[str] = (), discard: Sequence[str] = ()
) -> None:
    """Replace the current round's deal (before anybody acts) with the cards given."""
    chosen = [cards.from_text(c) for row in rows for c in row]
    chosen_pile = [cards.from_text(c) for c in pile]
    chosen_discard = [cards.from_text(c) for c in discard]
    used = chosen + chosen_pile + chosen_discard
    if len(set(used)) != len(used):
        raise ValueError("a card is dealt twice")
    taken = set(used)
    r = game.round
    k = 0
    for seat, row in zip(r.seats, rows, strict=True):
        seat.row = list(chosen[k : k + len(row)])
        k += len(row)
    r.pile = [c for c in game.rules.compiled.deck if c not in taken] + chosen_pile[::-1]
    r.discard = chosen_discard
    r.discard_seqs = list(range(1, len(chosen_discard) + 1))
    r.discard_spent = [False] * len(chosen_discard)
    r.seq = len(chosen_discard)
