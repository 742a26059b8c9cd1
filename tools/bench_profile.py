"""Where the bot spends its time, from a py-spy profile of ``tools/bench_bot.py --py-spy``.

    .venv/bin/python -m tools.bench_bot --games kalooki --py-spy /tmp/kalooki.txt ...
    .venv/bin/python -m tools.bench_profile /tmp/kalooki.txt [--top 25]

Reads py-spy's collapsed stacks (``--format raw``: ``frame;frame;... count`` a line) and
prints the share of the samples spent in each layer (the bot's own code, its engines,
discord.py, aiohttp, Pillow, the event loop) and the bot's own functions (``bot/``,
``tamalou/``) that hold the most samples, counted inclusively (once a stack, callees
included) and by their own lines (the function at the top of the stack among ours).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

FRAME = re.compile(r"^(?P<func>.*?) \((?P<file>[^()]*?)(?::(?P<line>\d+))?\)$")

#: layer of a frame, by its file (the first that matches)
LAYERS = (
    ("engines (tamalou/)", ("tamalou/",)),
    ("bot's own code (bot/)", ("bot/",)),
    ("emulator launcher (tests/)", ("tests/",)),
    ("Pillow", ("PIL/",)),
    ("discord.py", ("discord/",)),
    ("aiohttp / yarl / multidict", ("aiohttp/", "yarl/", "multidict/")),
    ("SQLite (aiosqlite)", ("aiosqlite/", "sqlite3/")),
    ("json / pydantic", ("json/", "pydantic")),
    ("asyncio / selectors", ("asyncio/", "selectors")),
)


def parse(path: Path) -> list[tuple[list[tuple[str, str]], int]]:
    """Each stack as (function, file) frames, outermost first, with its sample count."""
    stacks = []
    for raw in path.read_text(errors="replace").splitlines():
        head, _, count = raw.rpartition(" ")
        if not head or not count.isdigit():
            continue
        frames = []
        for part in head.split(";"):
            m = FRAME.match(part.strip())
            if m:
                frames.append((m["func"], m["file"]))
        stacks.append((frames, int(count)))
    return stacks


def ours(file: str) -> bool:
    return file.startswith(("bot/", "tamalou/")) or "/bot/" in file or "/tamalou/" in file


def layer_of(file: str) -> str | None:
    for name, needles in LAYERS:
        if any(n in file for n in needles):
            return name
    return None


def summary(path: Path, top: int) -> list[str]:
    stacks = parse(path)
    total = sum(n for _, n in stacks) or 1
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    leaf_layer: Counter[str] = Counter()
    for frames, n in stacks:
        seen: set[str] = set()
        last_ours = None
        for func, file in frames:
            if ours(file):
                name = f"{func} ({short(file)})"
                if name not in seen:
                    seen.add(name)
                    inclusive[name] += n
                last_ours = name
        if last_ours is not None:
            own[last_ours] += n
        # the layer of the innermost frame that has one: where the CPU went
        layer = next((ly for _, f in reversed(frames) if (ly := layer_of(f))), "other")
        leaf_layer[layer] += n
    lines = [f"{path}: {total} samples"]
    lines.append("where the samples end (innermost frame with a known layer):")
    for name, n in leaf_layer.most_common():
        lines.append(f"  {n / total:6.1%}  {name}")
    lines.append(f"the bot's own functions, inclusive (callees included), top {top}:")
    for name, n in inclusive.most_common(top):
        lines.append(f"  {n / total:6.1%}  {name}")
    lines.append(f"the bot's own functions, innermost of ours on the stack, top {top}:")
    for name, n in own.most_common(top):
        lines.append(f"  {n / total:6.1%}  {name}")
    return lines


def short(file: str) -> str:
    for root in ("bot/", "tamalou/"):
        i = file.find(root)
        if i >= 0:
            return file[i:]
    return file


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("profile", type=Path, help="py-spy --format raw output")
    p.add_argument("--top", type=int, default=25)
    args = p.parse_args(argv)
    print("\n".join(summary(args.profile, args.top)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
