"""Tamalou's table as its Discord side reads it: the rules, and the views of one moment
(``bot/ui/seen.py``: each computed once a click). No other module of this package calls
the engine's ``view``, ``public_view`` or ``legal_actions``."""

from __future__ import annotations

from typing import cast

from bot.tables import LiveTable
from bot.ui import seen
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou.rules import Rules
from tamalou.games.tamalou.state import Game
from tamalou.games.tamalou.views import PlayerView, PublicView

Seen = seen.Seen[Game, PlayerView, PublicView, A.Action]


def seen_at(table: LiveTable, at: int, kept: Seen | None = None) -> Seen:
    """``bot.ui.seen.seen_at``, typed for this game."""
    return cast(Seen, seen.seen_at(table, at, kept))


def rules_of(table: LiveTable) -> Rules:
    return cast(Rules, table.rules)


def turn_of(table: LiveTable, at: int) -> tuple[int, tuple[int, int]] | None:
    """The seat whose turn it is in the play (not the peek, the last turns or the end), and
    the turn's key: its round and start (R-T1)."""
    game = table.game
    if game is None:
        return None
    # public facts only (the public view's ``phase`` and ``current``), read without
    # building the whole public view: this runs at every table edit
    r = game.round
    if r.phase != "play" or r.current is None:
        return None
    return r.current, (r.round_no, r.turn_started)
