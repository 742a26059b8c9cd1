"""The real bot entry point (``python -m bot``) with two test controls, for the emulator.

* ``TAMALOU_TEST_SEEDS``: comma-separated match seeds used in order (scripted deals: the
  test picks seeds whose deal it wants), then random ones again; or
  ``TAMALOU_TEST_SEEDS_FILE``, the same given anew by each test of a shared bot
  (:class:`SeedQueue`).
* ``TAMALOU_TEST_CLOCK_FILE``: a file holding a clock offset in ms that the test moves
  forward together with the emulator's clock, so a 45 s turn can run out without waiting
  45 s.

Both enter through the configuration (``Config.clock``, ``Config.seeds``), as any embedder
would give them: nothing in the process is patched (``time.time`` and ``secrets`` stay
real).
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from bot.config import Config
from bot.tables.clock import random_seed


class OffsetClock:
    """The wall clock plus the offset the test writes in a file (re-read whenever the file
    changed: the test moves the clock, then presses; a read at most every few ms let a
    loaded bot see the press with the old offset and count the jump as the press's age).

    It says when the offset moves (``on_move``, a :class:`bot.tables.clock.MovingClock`): a
    thread watches the file while anybody listens, so the bot's timers wake at a jump instead
    of at their next nap."""

    POLL_S = 0.005

    def __init__(self, path: str | None) -> None:
        self.path = Path(path) if path else None
        self.stamp: tuple[int, int, int] | None = None
        self.offset = 0.0
        self._lock = threading.Lock()
        self._listeners: dict[int, Callable[[], None]] = {}
        self._ids = itertools.count()
        self._watcher: threading.Thread | None = None

    def __call__(self) -> int:
        if self.path is not None:
            self._read()
        return int(time.time() * 1000 + self.offset)

    def _read(self) -> None:
        assert self.path is not None
        with self._lock:
            try:
                # the test replaces the file at each move: a new inode, time and maybe size
                st = os.stat(self.path)
                stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
                if stamp == self.stamp:
                    return
                offset = float(self.path.read_text())
            except (OSError, ValueError):  # an unreadable file: the last offset stays
                return
            self.stamp = stamp
            moved = offset != self.offset
            self.offset = offset
            listeners = list(self._listeners.values()) if moved else []
        for listener in listeners:
            listener()

    def on_move(self, callback: Callable[[], None]) -> Callable[[], None]:
        if self.path is None:
            return lambda: None
        key = next(self._ids)
        with self._lock:
            self._listeners[key] = callback
            if self._watcher is None:
                self._watcher = threading.Thread(
                    target=self._watch, name="test-clock-watcher", daemon=True
                )
                self._watcher.start()

        def unsubscribe() -> None:
            with self._lock:
                self._listeners.pop(key, None)

        return unsubscribe

    def _watch(self) -> None:
        while True:
            time.sleep(self.POLL_S)
            self._read()


class SeedQueue:
    """The test's seeds in order, then random ones.

    With a file (``TAMALOU_TEST_SEEDS_FILE``, for a bot that several tests share one after
    another): ``{"test": n, "seeds": [...]}``, read at each match; a new ``test`` number
    replaces the queue, so each test's seeds are its own whatever the tests before it used."""

    def __init__(self, seeds: list[str], path: str | None = None) -> None:
        self.queue = list(seeds)
        self.path = Path(path) if path else None
        self.test: int | None = None

    def __call__(self) -> str:
        if self.path is not None:
            self._read()
        return self.queue.pop(0) if self.queue else random_seed()

    def _read(self) -> None:
        assert self.path is not None
        try:
            wanted = json.loads(self.path.read_text())
        except (OSError, ValueError):  # none yet: the queue stays
            return
        if wanted["test"] != self.test:
            self.test = wanted["test"]
            self.queue = list(wanted["seeds"])


def main() -> int:
    seeds = [s for s in os.environ.get("TAMALOU_TEST_SEEDS", "").split(",") if s]
    config = Config.from_env().replace(
        clock=OffsetClock(os.environ.get("TAMALOU_TEST_CLOCK_FILE")),
        seeds=SeedQueue(seeds, os.environ.get("TAMALOU_TEST_SEEDS_FILE")),
    )
    from bot.__main__ import main as bot_main

    return bot_main(config)


if __name__ == "__main__":
    sys.exit(main())
