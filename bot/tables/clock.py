"""Where time and chance enter the bot: injected through ``Config`` (tests pass their own)."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable
from typing import Protocol, runtime_checkable

#: ms since the epoch, the unit of every ``at`` in the engines
Clock = Callable[[], int]
#: a fresh match seed each call (recorded in the match row: the deal replays from it)
SeedSource = Callable[[], str]


@runtime_checkable
class MovingClock(Protocol):
    """A clock that may jump (a test's) and says so: ``on_move(callback)`` calls
    ``callback`` (from any thread) after each jump, until the returned function is called."""

    def __call__(self) -> int: ...

    def on_move(self, callback: Callable[[], None]) -> Callable[[], None]: ...


def wall_clock_ms() -> int:
    return int(time.time() * 1000)


def random_seed() -> str:
    return secrets.token_hex(8)


def on_move(
    clock: Clock, loop: asyncio.AbstractEventLoop, wake: Callable[[], None]
) -> Callable[[], None]:
    """Run ``wake`` on ``loop`` whenever ``clock`` jumps; returns the unsubscribe. The wall
    clock never jumps: nothing to do."""
    if not isinstance(clock, MovingClock):
        return lambda: None

    def moved() -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(wake)

    return clock.on_move(moved)


async def sleep_until(clock: Clock, at: int, longest_s: float = 1.0) -> None:
    """Return once ``clock()`` reaches ``at``. A clock that may jump without saying so is
    read again at least every ``longest_s``; one that says so (``MovingClock``) also wakes
    the sleeper when it jumps."""
    if at - clock() <= 0:
        return
    moved = asyncio.Event()
    unsubscribe = on_move(clock, asyncio.get_running_loop(), moved.set)
    try:
        while (remaining := at - clock()) > 0:
            moved.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(moved.wait(), min(remaining / 1000, longest_s) + 0.01)
    finally:
        unsubscribe()
