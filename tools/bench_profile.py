"""Where the bot spends its time, from a py-spy profile of ``tools/bench_bot.py --py-spy``.

    .venv/bin/python -m tools.bench_bot --games kalooki --py-spy /tmp/kalooki.txt ...
    .venv/bin/python -m tools.bench_profile /tmp/kalooki.txt [--top 25]

Reads py-spy's collapsed stacks (``--format raw``: ``frame;frame;... count`` a line) and
prints the share of the samples spent in each layer (the bot's own code, its engines,
discord.py, aiohttp, Pillow, the event loop) and the bot's own functions (``bot/``,
``tamalou/``) that hold the most samples, counted inclusively (once a stack, callees
included) and by their own lines (the function at the top of the stack among ours).

Every frame, not only ours (it replaced ``tools/pyspy_top.py``)::

    python -m tools.bench_profile FILE --frames            # self and cumulative, the loop's thread
    python -m tools.bench_profile FILE --frames --all      # every thread
    python -m tools.bench_profile FILE --callers "Message.__init__ (discord/message.py)"
    python -m tools.bench_profile FILE --frames --under "DiscordPresenter.show_panel"
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
    """A frame's file from its package on (``discord/message.py``, ``bot/app.py``)."""
    for prefix in (r"^.*site-packages/", r"^.*/lib/python3\.\d+/"):
        file = re.sub(prefix, "", file, count=1)
    for root in ("bot/", "tamalou/", "tests/"):
        i = file.find(root)
        if i >= 0 and (i == 0 or file[i - 1] == "/"):
            return file[i:]
    return file


#: a frame every stack of the event loop's thread holds (asyncio's and uvloop's runners)
LOOP_FRAMES = ("run_forever", "Runner.run")


def frames_summary(
    path: Path,
    top: int,
    under: str | None = None,
    callers: str | None = None,
    every_thread: bool = False,
) -> list[str]:
    """Every function's share, by its own lines and inclusively (the trunk every sample
    shares left out); or who calls ``callers``. Only the event loop's thread unless
    ``every_thread`` (the others mostly wait: aiosqlite's worker, the launcher's reporter);
    ``under``: only the stacks through that frame, from it."""
    own: Counter[str] = Counter()
    cumulative: Counter[str] = Counter()
    calling: Counter[str] = Counter()
    total = 0
    for raw, n in parse(path):
        frames = [f"{func} ({short(file)})" for func, file in raw]
        if not every_thread and not any(x.startswith(LOOP_FRAMES) for x in frames):
            continue
        if under:
            at = [i for i, x in enumerate(frames) if under in x]
            if not at:
                continue
            frames = frames[at[0] :]
        if callers:
            hit = next((i for i, x in enumerate(frames) if callers in x and i > 0), None)
            if hit is not None:
                calling[frames[hit - 1]] += n
        total += n
        if frames:
            own[frames[-1]] += n
        for x in set(frames):
            cumulative[x] += n
    lines = [f"{path}: {total} samples"]
    if callers:
        lines.append(f"who calls {callers}:")
        lines += [f"  {n / max(1, total):6.1%}  {x}" for x, n in calling.most_common(top)]
        return lines
    lines.append("-- self --")
    lines += [f"  {n / max(1, total):6.1%}  {x}" for x, n in own.most_common(top)]
    lines.append("-- cumulative (the trunk every sample shares left out) --")
    for x in [x for x, n in cumulative.items() if n == total]:
        del cumulative[x]
    lines += [f"  {n / max(1, total):6.1%}  {x}" for x, n in cumulative.most_common(top)]
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("profile", type=Path, help="py-spy --format raw output")
    p.add_argument("--top", type=int, default=25)
    p.add_argument("--frames", action="store_true", help="every function, not only ours")
    p.add_argument("--under", help="with --frames: only the stacks through this frame")
    p.add_argument("--callers", help="who calls this frame (implies --frames)")
    p.add_argument("--all", action="store_true", help="with --frames: every thread")
    args = p.parse_args(argv)
    if args.frames or args.callers or args.under:
        lines = frames_summary(args.profile, args.top, args.under, args.callers, args.all)
    else:
        lines = summary(args.profile, args.top)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
