"""Drivers that work for any registered game: random play-outs for invariants and speed.

A game may ship its own faster or smarter driver (``tamalou/games/<game>/bench.py``); these
need nothing but the game protocol.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tamalou.core.errors import IllegalAction
from tamalou.core.protocol import GameModule


def random_playout(
    game: GameModule,
    state: Any,
    players: int,
    rng: random.Random,
    *,
    max_actions: int = 20_000,
    step_ms: tuple[int, int] = (200, 3_000),
    check: Callable[[Any, list[Any]], None] | None = None,
) -> int:
    """Play random legal actions (and the clock's ticks) until the match ends or
    ``max_actions`` were applied; return how many were applied.

    ``check(state, events)`` runs after every applied action (invariants in tests).
    """
    applied = 0
    at = game.now(state)
    while not game.match_over(state) and applied < max_actions:
        at += rng.randint(*step_ms)
        due = game.next_deadline(state)
        if due is not None and due <= at:
            events = game.apply(state, game.tick(max(at, due)))
        else:
            seats = list(range(players))
            rng.shuffle(seats)
            options: list[Any] = []
            for seat in seats:
                options = game.legal_actions(state, seat, at)
                if options:
                    break
            if not options:
                if due is None:
                    break  # nobody can act and no clock runs: the game waits forever
                at = max(at, due)
                continue
            try:
                events = game.apply(state, rng.choice(options))
            except IllegalAction:
                continue
        applied += 1
        if check is not None:
            check(state, events)
    return applied
