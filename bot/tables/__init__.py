"""The game-agnostic table service: lobby, seats, ordering, action log, timers, AI seats.

Never imports a game (``tamalou.games.*``) nor a bot game plugin (``bot.games.*``): a
table's game is reached through the game protocol, by the ``load_game`` and ``rules_for``
the bot gives the service (the registries ``tamalou.games.load`` and
``bot.games.rules_for``).
"""

from bot.tables.ai import AiRunner, AiSeat
from bot.tables.clock import Clock, SeedSource, random_seed, wall_clock_ms
from bot.tables.errors import TableError
from bot.tables.service import (
    LiveTable,
    LoadGame,
    MatchSeat,
    Outcome,
    Presenter,
    RulesFor,
    TableService,
    TableStatus,
)

__all__ = [
    "AiRunner",
    "AiSeat",
    "Clock",
    "LiveTable",
    "LoadGame",
    "MatchSeat",
    "Outcome",
    "Presenter",
    "RulesFor",
    "SeedSource",
    "TableError",
    "TableService",
    "TableStatus",
    "random_seed",
    "wall_clock_ms",
]
