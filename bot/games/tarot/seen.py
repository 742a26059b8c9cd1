"""Tarot's table as its Discord side reads it: the rules, and the views of one moment
(``bot/ui/seen.py``: each computed once a click). No other module of this package calls
the engine's ``view``, ``public_view`` or ``legal_actions``."""

from __future__ import annotations

from typing import cast

from bot.tables import LiveTable
from bot.ui import seen
from tamalou.games.tarot import actions as A
from tamalou.games.tarot.engine import turn
from tamalou.games.tarot.rules import Rules
from tamalou.games.tarot.state import Game
from tamalou.games.tarot.views import PlayerView, PublicView

Seen = seen.Seen[Game, PlayerView, PublicView, A.Action]


def seen_at(table: LiveTable, at: int, kept: Seen | None = None) -> Seen:
    """``bot.ui.seen.seen_at``, typed for this game."""
    return cast(Seen, seen.seen_at(table, at, kept))


def rules_of(table: LiveTable) -> Rules:
    return cast(Rules, table.rules)


def turn_of(table: LiveTable, at: int) -> tuple[int, tuple[int, int]] | None:
    """The human seat to act and the turn's key (deal, turn number: new at each bid, call,
    écart, chelem window and card, T-B2, T-P1), or None: an AI acts, the deal or the match
    is over."""
    if table.game is None:
        return None
    game = cast(Game, table.game)
    now = turn(game)
    if now is None or game.ai[now[0]]:
        return None
    return now


def level_of(table: LiveTable, size: int) -> int:
    """Which poignée (1 simple, 2 double, 3 triple) shows ``size`` cards at this table."""
    players = table.game.players if table.game is not None else len(table.seats)
    return rules_of(table).poignee_trumps[players].index(size) + 1
