"""The bot with ``tracemalloc`` on, for ``tools.bench_bot --trace-memory``: each SIGUSR1
writes a snapshot to ``$TAMALOU_TRACE_FILE`` (``tracemalloc.Snapshot.dump``), and
``python -m tools.trace_memory EMPTY FULL [TABLES]`` prints the allocation sites that grew
between two snapshots, by size, and by table when told how many tables the second had.

Its frames cost CPU and memory of their own: read sites and shares from it, never the
benchmark's figures (those come from runs without it).
"""

from __future__ import annotations

import os
import signal
import sys
import tracemalloc
from types import FrameType


def _dump(signum: int, frame: FrameType | None) -> None:
    path = os.environ.get("TAMALOU_TRACE_FILE", "bot.tracemalloc")
    snapshot = tracemalloc.take_snapshot()
    snapshot.dump(path + ".part")
    os.replace(path + ".part", path)


def run_bot() -> int:
    tracemalloc.start(int(os.environ.get("TAMALOU_TRACE_FRAMES", "8")))
    signal.signal(signal.SIGUSR1, _dump)
    from bot.__main__ import main

    return int(main() or 0)


def summary(empty: str, full: str, tables: int = 1, top: int = 30) -> str:
    ignore = [
        tracemalloc.Filter(False, tracemalloc.__file__),
        tracemalloc.Filter(False, "<frozen *"),
    ]
    before = tracemalloc.Snapshot.load(empty).filter_traces(ignore)
    after = tracemalloc.Snapshot.load(full).filter_traces(ignore)
    lines = []
    total = 0
    for key in ("lineno", "traceback"):
        stats = after.compare_to(before, key)
        if key == "lineno":
            total = sum(s.size_diff for s in stats)
            lines.append(f"grown: {total / 1024:.0f} kB, {total / 1024 / tables:.2f} kB a table")
        lines.append(f"-- by {key} --")
        for s in stats[:top]:
            if s.size_diff <= 0:
                continue
            where = s.traceback.format(limit=1 if key == "lineno" else 6)
            lines.append(
                f"{s.size_diff / 1024 / tables:8.3f} kB/table {s.count_diff / tables:7.2f} "
                f"blocks/table  " + " <- ".join(w.strip() for w in where if w.strip())
            )
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) >= 3:
        print(summary(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1))
    else:
        sys.exit(run_bot())
