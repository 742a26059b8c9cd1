"""Shared helpers for the Kalooki tests: card codes, forced deals, stepping with time."""

from __future__ import annotations

from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.engine import step
from tamalou.games.kalooki.scripted import card, forced_game, place_melds
from tamalou.games.kalooki.state import Game

AFTER_WINDOW = 10_000  # a time after the 3 s call window of a game forced at 0


def cs(*codes: str) -> list[int]:
    return [card(c) for c in codes]


def kinds(events: list[E.Event]) -> list[str]:
    return [e.kind for e in events]


def play(game: Game, action: A.Action) -> list[E.Event]:
    """Apply the deadlines due, then the action."""
    return step(game, action)


__all__ = [
    "AFTER_WINDOW",
    "card",
    "cs",
    "forced_game",
    "kinds",
    "place_melds",
    "play",
]
