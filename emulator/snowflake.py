"""Discord snowflakes and the emulator's injectable clock."""

from __future__ import annotations

import itertools
import time

DISCORD_EPOCH_MS = 1420070400000


def snowflake_from_ms(at_ms: int, increment: int = 0, worker: int = 1, process: int = 0) -> int:
    """A snowflake whose timestamp is ``at_ms`` (Unix milliseconds)."""
    if at_ms < DISCORD_EPOCH_MS:
        raise ValueError(f"timestamp {at_ms} is before the Discord epoch")
    return (
        ((at_ms - DISCORD_EPOCH_MS) << 22)
        | ((worker & 0x1F) << 17)
        | ((process & 0x1F) << 12)
        | (increment & 0xFFF)
    )


def snowflake_time_ms(snowflake: int) -> int:
    """Unix milliseconds encoded in a snowflake (same as ``discord.utils.snowflake_time``)."""
    return (int(snowflake) >> 22) + DISCORD_EPOCH_MS


class Clock:
    """Wall clock in milliseconds that a test can fast-forward without sleeping.

    Used for snowflake times, message timestamps and the 15-minute interaction-token
    expiry. The 3 s initial-response deadline is real time (the bot runs in real time).
    """

    def __init__(self, start_ms: int | None = None) -> None:
        self._offset_ms = 0 if start_ms is None else start_ms - self._real_ms()

    @staticmethod
    def _real_ms() -> int:
        return time.time_ns() // 1_000_000

    def now_ms(self) -> int:
        return self._real_ms() + self._offset_ms

    def advance(self, ms: int = 0, *, seconds: float = 0, minutes: float = 0) -> None:
        self._offset_ms += int(ms + seconds * 1000 + minutes * 60_000)


class SnowflakeGenerator:
    """Unique, increasing snowflakes for ids the emulator mints."""

    def __init__(self, clock: Clock, worker: int = 1) -> None:
        self._clock = clock
        self._worker = worker
        self._counter = itertools.count()
        self._last = 0

    def next(self, at_ms: int | None = None) -> int:
        """Next id; with ``at_ms`` the id's timestamp is exactly that instant."""
        ms = self._clock.now_ms() if at_ms is None else at_ms
        value = snowflake_from_ms(ms, next(self._counter), self._worker)
        if at_ms is None and value <= self._last:
            value = self._last + 1
        if at_ms is None:
            self._last = value
        return value
