"""Seasons: records, the rating, leaderboards, stats and the CSV export (docs/seasons.md).

The data side (no Discord) is exported here; the slash commands and buttons live in
:mod:`bot.seasons.commands`, imported by the bot at start-up.
"""

from bot.seasons.analysis import SeatResult, analyse_match
from bot.seasons.chart import rating_chart
from bot.seasons.rating import MODEL, display_rating, rate, rating_text
from bot.seasons.store import (
    CSV_HEADER,
    DEFAULT_GAME,
    DEFAULT_MIN_MATCHES,
    PAGE_SIZE,
    SORTS,
    Board,
    BoardLine,
    PlayerCard,
    PlayerRecord,
    Season,
    SeasonError,
    Seasons,
    now_ms,
)

__all__ = [
    "CSV_HEADER",
    "DEFAULT_GAME",
    "DEFAULT_MIN_MATCHES",
    "MODEL",
    "PAGE_SIZE",
    "SORTS",
    "Board",
    "BoardLine",
    "PlayerCard",
    "PlayerRecord",
    "Season",
    "SeasonError",
    "Seasons",
    "SeatResult",
    "analyse_match",
    "display_rating",
    "now_ms",
    "rate",
    "rating_chart",
    "rating_text",
]
