"""Driving the real bot through the emulator: start, restart, clock, and a test oracle.

The oracle rebuilds the game from the bot's own SQLite log with the engine, so a test
knows every card (to script doubles and check what each player was shown) without any
hook in the bot.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tamalou.core import cards
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou.codec import action_from_dict
from tamalou.games.tamalou.engine import apply, new_game
from tamalou.games.tamalou.rules import TAMALOU, Rules
from tamalou.games.tamalou.state import Game
from tests.emulator import Emulator, Message

TABLE_BUTTON = re.compile(r"tamalou:(join|draw|next|rematch):")


def find_seed(
    players: int, wanted: Callable[[Game], bool], rules: Rules = TAMALOU, limit: int = 20_000
) -> str:
    """A match seed whose first deal satisfies ``wanted`` (scripted deals for the real bot)."""
    for i in range(limit):
        seed = f"test{i}"
        game, _ = new_game(rules, players, seed, 0)
        if wanted(game):
            return seed
    raise AssertionError("no seed gives that deal")


class BotHarness:
    def __init__(self, emu: Emulator, tmp: Path) -> None:
        self.emu = emu
        self.db = tmp / "tamalou.sqlite3"
        self.clock_file = tmp / "clock_offset_ms"
        self.clock_file.write_text("0")
        self.offset = 0
        self.env: dict[str, str] = {}

    async def start(
        self, seeds: list[str] | tuple[str, ...] = (), reorder_ms: int = 20, **env: str
    ) -> None:
        self.env = {
            "TAMALOU_DB": str(self.db),
            "TAMALOU_GUILD_ID": str(self.emu.guild.id),
            "TAMALOU_REORDER_MS": str(reorder_ms),
            "TAMALOU_EDIT_INTERVAL_MS": "0",
            "TAMALOU_AI_DELAY_MS": "50",
            "TAMALOU_TEST_CLOCK_FILE": str(self.clock_file),
            "TAMALOU_TEST_SEEDS": ",".join(seeds),
            "TAMALOU_LOG_LEVEL": "INFO",
            # cards as text unless a test asks for the emojis (TAMALOU_CARD_EMOJIS="1"):
            # the text fallback stays tested by every flow, the emojis by the card tests
            "TAMALOU_CARD_EMOJIS": "0",
            **env,
        }
        await self.emu.start_bot("tests.e2e_bot", env=self.env)

    async def restart(self, seeds: tuple[str, ...] = ()) -> None:
        """SIGKILL the bot and start a new process on the same database."""
        await self.emu.kill_bot()
        self.env["TAMALOU_TEST_SEEDS"] = ",".join(seeds)
        await self.emu.start_bot("tests.e2e_bot", env=self.env)

    def advance(self, ms: int) -> None:
        """Move Discord's clock and the bot's clock forward together."""
        self.offset += ms
        self.emu.advance(ms)
        self.clock_file.write_text(str(self.offset))

    # -- reading --------------------------------------------------------------------

    def table_message(self) -> Message:
        """The newest public message that carries the table's buttons."""
        for msg in reversed(self.emu.channel_messages()):
            if msg.components and TABLE_BUTTON.search(json.dumps(msg.components)):
                return msg
        raise AssertionError("no table message in the channel")

    def sql(self, query: str, *args: Any) -> list[sqlite3.Row]:
        con = sqlite3.connect(self.db)
        con.row_factory = sqlite3.Row
        try:
            return con.execute(query, args).fetchall()
        finally:
            con.close()

    def game(self) -> Game:
        """The current match rebuilt from the bot's log (the test's oracle)."""
        rows = self.sql("SELECT * FROM matches ORDER BY id DESC LIMIT 1")
        assert rows, "no match in the database"
        m = rows[0]
        seats = json.loads(m["seats"])
        game, _ = new_game(
            Rules.model_validate_json(m["rules"]),
            len(seats),
            m["seed"],
            m["started_at"],
            [s["ai_level"] is not None for s in seats],
        )
        for r in self.sql("SELECT payload FROM actions WHERE match_id = ? ORDER BY n", m["id"]):
            apply(game, action_from_dict(json.loads(r["payload"])))
        return game

    def actions(self) -> list[A.Action]:
        rows = self.sql("SELECT payload FROM actions ORDER BY match_id, n")
        return [action_from_dict(json.loads(r["payload"])) for r in rows]


def label(card: int | None) -> str:
    """What a player reads for ``card`` (``7♣``)."""
    assert card is not None
    return cards.label(card)


async def open_table(h: BotHarness, players: list[str], **options: int) -> None:
    """``players[0]`` opens a table, the others join by button, the host starts it."""
    emu = h.emu
    await emu.slash(players[0], "tamalou new", **options)
    for p in players[1:]:
        await emu.click(p, h.table_message(), "Join")
    await emu.click(players[0], h.table_message(), "Start")


async def peek_all(h: BotHarness, players: list[str]) -> None:
    """Everybody opens their peek; then the peek phase ends (R-S5)."""
    for p in players:
        await h.emu.click(p, h.table_message(), "My cards")
    h.advance(5_100)
    await h.emu.wait_for(lambda: "to play" in h.table_message().text, 10, "the first turn")
