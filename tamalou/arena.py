"""AI strength for any registered game: ``python -m tamalou.arena [--game G] [options]``.

The game's own ``arena`` module does the work and prints its report;
``--game`` defaults to ``tamalou``. ``--help`` after ``--game G`` lists that game's options.
"""

from __future__ import annotations

import argparse
import importlib

from tamalou.games import REGISTRY


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tamalou.arena", add_help=False)
    parser.add_argument("--game", default="tamalou", choices=sorted(REGISTRY))
    args, rest = parser.parse_known_args(argv)
    module = importlib.import_module(f"{REGISTRY[args.game]}.arena")
    module.main(rest)


if __name__ == "__main__":
    main()
