"""The ranges of the table options (``/tamalou new``, ``/tamalou settings``), read from the
rules model's bounds so that they are said once: Discord enforces them on the command, and
the bot checks them again (a value from elsewhere, a stored server default) with a clear
answer instead of a validation traceback."""

from __future__ import annotations

from typing import Any

from annotated_types import Ge, Le

from bot.tables import TableError
from tamalou.games.tamalou.rules import Rules


def bounds(name: str) -> tuple[int, int]:
    """The ``ge``/``le`` bounds of a field of the rules model."""
    low = high = None
    for item in Rules.model_fields[name].metadata:
        if isinstance(item, Ge):
            low = int(item.ge)  # type: ignore[call-overload]
        elif isinstance(item, Le):
            high = int(item.le)  # type: ignore[call-overload]
    assert low is not None and high is not None, f"{name} has no bounds"
    return low, high


TARGET_MIN, TARGET_MAX = bounds("target")
TURN_MIN_S, TURN_MAX_S = (ms // 1000 for ms in bounds("turn_ms"))
PLAYERS_MIN, PLAYERS_MAX = bounds("max_players")
RANGES: dict[str, tuple[int, int]] = {
    "target": (TARGET_MIN, TARGET_MAX),
    "turn_seconds": (TURN_MIN_S, TURN_MAX_S),
    "max_players": (PLAYERS_MIN, PLAYERS_MAX),
}


def in_range(name: str, value: Any) -> bool:
    low, high = RANGES[name]
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def checked(name: str, value: Any) -> int:
    """``value`` when it is in the option's range; else a refusal that says the range."""
    if not in_range(name, value):
        low, high = RANGES[name]
        raise TableError("bad_option", option=name, min=low, max=high)
    return int(value)
