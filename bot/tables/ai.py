"""AI seats and where their thinking runs.

A fast AI decides on the event loop (microseconds). A slow one (the game says which levels
are slow: ``SLOW_AI_LEVELS``; Tamalou's ``hard`` searches for up to 50 ms) thinks in a
worker *process*: a thread would still hold the GIL and stall every other table's clicks.
The player object travels to the worker with the view and the legal actions, and comes
back with the decision, so its memory and its random draws advance exactly as if it had
thought in this process (a replay of the log rebuilds the same memory).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from tamalou.core.protocol import AIPlayer

log = logging.getLogger(__name__)


@dataclass(slots=True)
class AiSeat:
    """An AI player at one seat of a live match."""

    seat: int
    level: str
    player: AIPlayer
    slow: bool  # thinks in the worker pool

    def observe(self, events: Sequence[Any]) -> None:
        self.player.observe(events)


#: how much nicer than the bot's process its AI workers are: on a busy machine the event
#: loop, which answers every player's click, gets the CPU before a search does (a search
#: is bounded by the clock: it then does fewer rollouts, and never delays a click)
WORKER_NICENESS = 10


def _watch_parent(parent: int) -> None:
    """In each worker: yield the CPU to the bot's loop (:data:`WORKER_NICENESS`), and exit
    when the bot process is gone (a SIGKILL gives it no time to end its workers, and a
    worker blocked on its queue would wait forever)."""
    with contextlib.suppress(OSError, AttributeError):  # no os.nice on some systems
        os.nice(WORKER_NICENESS)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def think(player: AIPlayer, seen: Any, legal: Sequence[Any], at: int) -> tuple[Any, AIPlayer]:
    """In the worker: the decision and the player as it is after deciding."""
    return player.act(seen, legal, at), player


class AiRunner:
    """Runs AI decisions: fast ones inline, slow ones in a process pool opened on first use."""

    def __init__(self, workers: int = 1, executor: Executor | None = None) -> None:
        self.workers = workers
        self._executor = executor
        self._own = executor is None

    def _pool(self) -> Executor:
        if self._executor is None:
            # spawn: a fresh interpreter, a direct child (no fork of a running event loop)
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_watch_parent,
                initargs=(os.getpid(),),
            )
        return self._executor

    async def act(self, ai: AiSeat, seen: Any, legal: Sequence[Any], at: int) -> Any | None:
        if not ai.slow:
            return ai.player.act(seen, legal, at)
        loop = asyncio.get_running_loop()
        choice, player = await loop.run_in_executor(
            self._pool(), think, ai.player, seen, list(legal), at
        )
        ai.player = player
        return choice

    async def close(self) -> None:
        """Wait for the thinking in progress, then end the workers."""
        executor, self._executor = self._executor, None
        if executor is not None and self._own:
            await asyncio.to_thread(executor.shutdown, True, cancel_futures=True)
