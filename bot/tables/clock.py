"""Where time and chance enter the bot: injected through ``Config`` (tests pass their own)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

#: ms since the epoch, the unit of every ``at`` in the engines
Clock = Callable[[], int]
#: a fresh match seed each call (recorded in the match row: the deal replays from it)
SeedSource = Callable[[], str]


def wall_clock_ms() -> int:
    return int(time.time() * 1000)


def random_seed() -> str:
    return secrets.token_hex(8)
