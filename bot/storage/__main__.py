"""``python -m bot.storage``: database chores.

    python -m bot.storage migrate TARGET        open TARGET, apply pending migrations
    python -m bot.storage copy SOURCE TARGET    copy a whole database into an empty one

TARGET and SOURCE are a SQLite file path or a ``postgresql://`` URL. Errors are printed
as one message saying what is wrong and what to do (exit status 2).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot.storage import StorageError, open_storage
from bot.storage.copy import copy_database


async def migrate(target: str) -> int:
    storage = open_storage(target)
    await storage.open()
    try:
        print(f"{storage.name} {target}: schema version {await storage.schema_version()}")
    finally:
        await storage.close()
    return 0


async def copy(source_target: str, target_target: str) -> int:
    source, target = open_storage(source_target), open_storage(target_target)
    await source.open()
    try:
        await target.open()
        try:
            counts = await copy_database(source, target)
        finally:
            await target.close()
    finally:
        await source.close()
    for table, n in counts.items():
        print(f"{table}: {n} rows copied and verified")
    print(f"copied {sum(counts.values())} rows from {source.name} to {target.name}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.storage", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    m = commands.add_parser("migrate", help="apply pending migrations")
    m.add_argument("target")
    c = commands.add_parser("copy", help="copy a whole database into an empty one")
    c.add_argument("source")
    c.add_argument("target")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        if args.command == "migrate":
            return asyncio.run(migrate(args.target))
        return asyncio.run(copy(args.source, args.target))
    except StorageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
