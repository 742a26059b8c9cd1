"""The real bot entry point (``python -m bot``) with two test controls, for the emulator.

* ``TAMALOU_TEST_SEEDS``: comma-separated match seeds used in order (scripted deals: the
  test picks seeds whose deal it wants), then random ones again.
* ``TAMALOU_TEST_CLOCK_FILE``: a file holding a clock offset in ms that the test moves
  forward together with the emulator's clock (``time.time`` in this process follows it),
  so a 45 s turn can run out without waiting 45 s.

Nothing in ``bot/`` knows about this: the patches are applied here, then ``bot.__main__``
runs as usual.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

_real_time = time.time
_real_time_ns = time.time_ns
_clock_file = os.environ.get("TAMALOU_TEST_CLOCK_FILE")
_cache: dict[str, float] = {"checked": 0.0, "offset": 0.0}


def _offset_ms() -> float:
    if not _clock_file:
        return 0.0
    now = time.monotonic()
    if now - _cache["checked"] > 0.005:
        _cache["checked"] = now
        with contextlib.suppress(OSError, ValueError):
            _cache["offset"] = float(Path(_clock_file).read_text() or 0)
    return _cache["offset"]


def _time() -> float:
    return _real_time() + _offset_ms() / 1000


def _time_ns() -> int:
    return _real_time_ns() + int(_offset_ms() * 1_000_000)


def main() -> int:
    time.time = _time
    time.time_ns = _time_ns
    seeds = [s for s in os.environ.get("TAMALOU_TEST_SEEDS", "").split(",") if s]
    if seeds:
        import bot.service

        real_token_hex = bot.service.secrets.token_hex
        queue = list(seeds)

        def token_hex(nbytes: int | None = None) -> str:
            return queue.pop(0) if queue else real_token_hex(nbytes)

        bot.service.secrets.token_hex = token_hex  # type: ignore[assignment]
    from bot.__main__ import main as bot_main

    return bot_main()


if __name__ == "__main__":
    sys.exit(main())
