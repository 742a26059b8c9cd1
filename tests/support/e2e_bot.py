"""The real bot entry point (``python -m bot``) with two test controls, for the emulator.

* ``TAMALOU_TEST_SEEDS``: comma-separated match seeds used in order (scripted deals: the
  test picks seeds whose deal it wants), then random ones again.
* ``TAMALOU_TEST_CLOCK_FILE``: a file holding a clock offset in ms that the test moves
  forward together with the emulator's clock, so a 45 s turn can run out without waiting
  45 s.

Both enter through the configuration (``Config.clock``, ``Config.seeds``), as any embedder
would give them: nothing in the process is patched (``time.time`` and ``secrets`` stay
real).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

from bot.config import Config
from bot.tables.clock import random_seed


class OffsetClock:
    """The wall clock plus the offset the test writes in a file (read at most every 5 ms)."""

    def __init__(self, path: str | None) -> None:
        self.path = Path(path) if path else None
        self.checked = 0.0
        self.offset = 0.0

    def __call__(self) -> int:
        if self.path is not None:
            now = time.monotonic()
            if now - self.checked > 0.005:
                self.checked = now
                with contextlib.suppress(OSError, ValueError):  # an unreadable file: the last
                    self.offset = float(self.path.read_text())
        return int(time.time() * 1000 + self.offset)


class SeedQueue:
    """The test's seeds in order, then random ones."""

    def __init__(self, seeds: list[str]) -> None:
        self.queue = list(seeds)

    def __call__(self) -> str:
        return self.queue.pop(0) if self.queue else random_seed()


def main() -> int:
    seeds = [s for s in os.environ.get("TAMALOU_TEST_SEEDS", "").split(",") if s]
    config = Config.from_env().replace(
        clock=OffsetClock(os.environ.get("TAMALOU_TEST_CLOCK_FILE")),
        seeds=SeedQueue(seeds),
    )
    from bot.__main__ import main as bot_main

    return bot_main(config)


if __name__ == "__main__":
    sys.exit(main())
