"""Set-up (R-S): a new match, each round's deal and its first player (R-M4, R-X17), the
long peek (R-X14).
"""

from __future__ import annotations

import random

from tamalou.core.errors import IllegalAction
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine.common import Events, _active
from tamalou.games.tamalou.engine.turns import _start_turn
from tamalou.games.tamalou.rules import Rules
from tamalou.games.tamalou.state import FOREVER, Game, RoundState, SeatState


def new_game(
    rules: Rules, players: int, seed: str | int, at: int = 0, ai: list[bool] | None = None
) -> tuple[Game, Events]:
    """A new match with its first round dealt (R-S1)."""
    if not rules.min_players <= players <= rules.max_players:
        raise IllegalAction("bad_player_count", min=rules.min_players, max=rules.max_players)
    unsupported = rules.unsupported()
    if unsupported:
        raise IllegalAction("unsupported_rules", what=", ".join(unsupported))
    ai = list(ai) if ai is not None else [False] * players
    if len(ai) != players:
        raise IllegalAction("bad_player_count", min=players, max=players)
    placeholder = RoundState(0, "", 0, [], [], [], [], [], at)
    game = Game(
        rules, str(seed), players, ai, placeholder, [0.0] * players, now=at, out=[False] * players
    )
    events: Events = []
    _deal(game, at, None, events)
    return game, events


def _deal(game: Game, at: int, first: int | None, ev: Events) -> None:
    rules = game.rules
    n = game.players
    round_no = len(game.history) + 1
    seed = f"{game.seed}:{round_no}"
    rng = random.Random(f"{seed}:deal")
    deck = list(rules.compiled.deck)
    rng.shuffle(deck)
    active = _active(game)
    if first is None:
        first = active[rng.randrange(len(active))] if len(active) < n else rng.randrange(n)
    k = rules.cards_per_player
    rows: list[list[int | None]] = [[] for _ in range(n)]
    for j, i in enumerate(active):
        rows[i] = list(deck[j * k : (j + 1) * k])
    pile = deck[len(active) * k :]
    seats = [SeatState(row=rows[i], is_ai=game.ai[i], out=i not in active) for i in range(n)]
    game.round = RoundState(round_no, seed, first, seats, pile, [], [], [], at, current=first)
    game.next_round_deadline = None
    ev.append(E.Dealt(round_no, seed, first, tuple(tuple(r) for r in rows), tuple(pile)))  # type: ignore[arg-type]
    ev.append(E.RoundStarted(round_no, first, k, at + rules.peek_phase_max_ms))
    if rules.long_peek:
        _open_long_peek(game, at, ev)


def _open_long_peek(game: Game, at: int, ev: Events) -> None:
    """R-X14: no peek phase; each player's peek slots stay viewable until their first draw."""
    r = game.round
    for i, seat in enumerate(r.seats):
        if seat.out:
            continue
        shown = tuple(
            (s, c)
            for s in game.rules.peek_slots
            if s <= len(seat.row) and (c := seat.row[s - 1]) is not None
        )
        seat.peek_until, seat.peek_open, seat.peeked = at, True, list(shown)
        ev.append(E.PeekShown(i, shown, FOREVER, to=(i,)))
    r.phase = "play"
    _start_turn(game, r.first_player, at, ev)


def _next_round(game: Game, at: int, ev: Events) -> None:
    last = game.history[-1]
    n = game.players
    active = [i for i in _active(game)]
    rules = game.rules
    if rules.first_player == "rotate":  # R-X17: the seat after the previous starter
        first = next(
            (last.first_player + k) % n
            for k in range(1, n + 1)
            if (last.first_player + k) % n in active
        )
    else:
        best = min(last.totals[i] for i in active)
        tied = [i for i in active if last.totals[i] == best]
        if rules.first_player == "caller_tie" and last.caller is not None:
            # dutch_roi (R-V8): a tie goes to the caller, else the tied player first after him
            start = last.caller
            first = next((start + k) % n for k in range(n) if (start + k) % n in tied)
        else:
            winners = [i for i, p in enumerate(last.places) if p == 1 and i in active] or tied
            order = [(last.first_player + k) % n for k in range(n)]
            first = next(i for i in order if i in winners)  # R-M4; shared: seat order
    away = [s.away for s in game.round.seats]
    _deal(game, at, first, ev)
    for seat, was_away in zip(game.round.seats, away, strict=True):
        seat.away = was_away  # away players stay away until they act (R-K4)
