"""Live tables without Discord or storage, around a forced deal (for panel and render tests)."""

from __future__ import annotations

from typing import Any

import discord

import tamalou.games
from bot.storage import SeatRow, TableRow
from bot.tables import LiveTable
from tamalou.games.tamalou.state import Game


def live_table(game: Game, table_id: int = 7) -> LiveTable:
    seats = [SeatRow(i, 100 + i, f"p{i}") for i in range(game.players)]
    row = TableRow(table_id, 1, 10, 100, "playing", {}, None, 0, 0, seats)
    return LiveTable(row, game.rules, tamalou.games.load(row.game), game=game)


def custom_ids(view: discord.ui.View) -> list[str]:
    return [str(getattr(item, "custom_id", "")) for item in view.children]


def select_values(view: discord.ui.View) -> list[str]:
    selects = [i for i in view.children if isinstance(i, discord.ui.Select)]
    assert len(selects) == 1, custom_ids(view)
    select: Any = selects[0]
    return [o.value for o in select.options]
