"""Kalooki's table as its Discord side reads it: the rules, the state, and the views of
one moment (``bot/ui/seen.py``: each computed once a click). No other module of this
package calls the engine's ``view``, ``public_view`` or ``legal_actions``."""

from __future__ import annotations

from typing import cast

from bot.tables import LiveTable
from bot.ui import seen
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki.engine import turn
from tamalou.games.kalooki.rules import Rules
from tamalou.games.kalooki.state import Game
from tamalou.games.kalooki.views import PlayerView, PublicView

Seen = seen.Seen[Game, PlayerView, PublicView, A.Action]


def seen_at(table: LiveTable, at: int, kept: Seen | None = None) -> Seen:
    """``bot.ui.seen.seen_at``, typed for this game."""
    return cast(Seen, seen.seen_at(table, at, kept))


def rules_of(table: LiveTable) -> Rules:
    return cast(Rules, table.rules)


def game_of(table: LiveTable) -> Game:
    game = table.game
    assert game is not None
    return cast(Game, game)


def turn_of(table: LiveTable, at: int) -> tuple[int, tuple[int, int, int]] | None:
    """The human seat whose turn it is and the turn's key (round, deal, turn number: new at
    each turn started, K-T1), or None: an AI plays, the round or the match is over. A call
    (K-CL4) waits within the current player's turn: nobody else is pinged for it."""
    if table.game is None:
        return None
    game = game_of(table)
    now = turn(game)
    if now is None or game.ai[now[0]]:
        return None
    return now
