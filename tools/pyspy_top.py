"""Top entries of a py-spy profile of the bot (docs/benchmarks.md, "Per-click cost").

    py-spy record -p <bot pid> -r 200 -d 15 -f raw --nolineno -o bot.raw
    python -m tools.pyspy_top bot.raw                  # self and cumulative, event loop only
    python -m tools.pyspy_top bot.raw --callers "Message.__init__ (discord/message.py)"
    python -m tools.pyspy_top bot.raw --under "DiscordPresenter.show_panel"

Only the stacks of the event loop's thread count (``--all``: every thread; the others
mostly wait: aiosqlite's worker, the launcher's reporter). Percentages are of those samples.
"""

from __future__ import annotations

import argparse
import collections
import re
import sys


def short(frame: str) -> str:
    """``func (path)`` with the path shortened to its package."""
    match = re.match(r"(.*) \((.*)\)$", frame)
    if not match:
        return frame
    func, path = match.groups()
    for prefix in (
        r"^.*site-packages/",
        r"^.*/lib/python3\.\d+/",
        r"^/.*?/(?=(?:bot|tamalou|tests)/)",
    ):
        path = re.sub(prefix, "", path, count=1)
    return f"{func} ({path})"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("raw", help="py-spy's raw (collapsed stacks) output")
    p.add_argument("-n", type=int, default=25, help="entries shown")
    p.add_argument("--under", help="only the stacks under this frame, from it")
    p.add_argument("--callers", help="who calls this frame")
    p.add_argument("--all", action="store_true", help="every thread, not only the loop's")
    args = p.parse_args(argv)
    own: collections.Counter[str] = collections.Counter()
    cumulative: collections.Counter[str] = collections.Counter()
    callers: collections.Counter[str] = collections.Counter()
    total = 0
    with open(args.raw, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip()
            if not line:
                continue
            stack, count = line.rsplit(" ", 1)
            n = int(count)
            frames = [short(x) for x in stack.split(";")]
            if not args.all and not any("run_forever" in x for x in frames):
                continue
            if args.under:
                at = [i for i, x in enumerate(frames) if args.under in x]
                if not at:
                    continue
                frames = frames[at[0] :]
            if args.callers:
                for i, x in enumerate(frames):
                    if args.callers in x and i > 0:
                        callers[frames[i - 1]] += n
                        break
            total += n
            own[frames[-1]] += n
            for x in set(frames):
                cumulative[x] += n
    print(f"{total} samples")
    if args.callers:
        for x, n in callers.most_common(args.n):
            print(f"{100 * n / max(1, total):5.1f}%  {x}")
        return 0
    print("-- self --")
    for x, n in own.most_common(args.n):
        print(f"{100 * n / max(1, total):5.1f}%  {x}")
    print("-- cumulative (the trunk every sample shares left out) --")
    trunk = [x for x, n in cumulative.items() if n == total]
    for x in trunk:
        del cumulative[x]
    for x, n in cumulative.most_common(args.n):
        print(f"{100 * n / max(1, total):5.1f}%  {x}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
