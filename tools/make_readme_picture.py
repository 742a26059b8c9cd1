"""Draws docs/img/table.png, the README's picture of a table, with the bot's own code.

    .venv/bin/python -m tools.make_readme_picture [--out docs/img/table.png]

A scripted Tamalou round for four players, ended by a right Tamalou (R-A2), and the
end-of-round reveal the bot attaches to the public table message (``tables.table_picture``,
rendered by ``CardPicture.render`` as the presenter does). Same bytes on every run.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import tamalou.games
from bot.games.tamalou import table as tables
from bot.storage import SeatRow, TableRow
from bot.tables import LiveTable
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou.engine import apply, next_deadline
from tamalou.games.tamalou.scripted import forced_game

NAMES = ["Alice", "Bob", "Chloé", "Dev"]
ROWS = [
    ["Ac", "2h", "JK", "2s"],
    ["Kd", "10h", "7c", "Qs"],
    ["5d", "9s", "3c"],
    ["Kh", "4d", "8h", "6c"],
]
OUT = Path(__file__).resolve().parent.parent / "docs" / "img" / "table.png"


def reveal_table() -> LiveTable:
    rows: list[list[str]] = [list(r) for r in ROWS]
    game = forced_game(rows, pile=["9h", "9d", "9c", "8c"], discard=["4c"])
    apply(game, A.CallTamalou(0, game.now))  # Alice: A + 2 + joker + 2 = 4 (R-A1, R-A2)
    while game.round.phase != "over":
        due = next_deadline(game)
        assert due is not None
        apply(game, A.Tick(due))
    seats = [SeatRow(i, 100 + i, name) for i, name in enumerate(NAMES)]
    row = TableRow(1, 1, 10, 100, "playing", {}, None, 0, 0, seats)
    return LiveTable(row, game.rules, tamalou.games.load(row.game), game=game)


async def draw(out: Path) -> int:
    table = reveal_table()
    assert table.game is not None
    picture = tables.table_picture(table, "en", table.game.now)
    assert picture is not None
    result = await picture.render()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(result.png)
    print(f"{out}: {result.width}x{result.height}, {len(result.png):,} bytes; {result.alt_text}")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, default=OUT)
    return asyncio.run(draw(p.parse_args(argv).out))


if __name__ == "__main__":
    raise SystemExit(main())
