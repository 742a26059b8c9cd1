"""Driving the real bot through the emulator: start, restart, clock, and a test oracle.

The oracle rebuilds the game from the bot's own log with the engine, so a test knows every
card (to script doubles and check what each player was shown) without any hook in the bot.

The bot's database is a SQLite file or a fresh database on the test session's PostgreSQL
(devkit/backends.py): ``tests/conftest.py`` runs every test that uses the harness on
the backends ``--e2e-db`` / ``TAMALOU_E2E_DB`` names (both in CI).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncpg

import tamalou.games
from bot.storage.dialect import numbered
from emulator import Emulator, Interaction, Message
from emulator.harness import ChannelRef
from tamalou.core import cards
from tamalou.core.replay import replay
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou.codec import action_from_dict
from tamalou.games.tamalou.engine import new_game
from tamalou.games.tamalou.rules import TAMALOU, Rules
from tamalou.games.tamalou.state import Game
from tests.support.backends import fresh_database

if TYPE_CHECKING:
    from tests.support.shared_bot import SharedBot

#: the backend of the bot's database for the test that runs now (set by tests/conftest.py)
E2E_DB = {"backend": "sqlite"}

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


class TestClock:
    """The bot's clock offset (ms) in a file, moved forward with the emulator's clock."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        path.write_text("0")

    def advance(self, emu: Emulator, ms: int) -> None:
        self.offset += ms
        emu.advance(ms)
        # atomically: the bot reads the file every few ms, and a write in place is first a
        # truncation, which it read as an offset of 0 (its clock went back by every advance
        # so far, for a moment: a turn ping started then came that much early)
        part = self.path.with_suffix(".part")
        part.write_text(str(self.offset))
        os.replace(part, self.path)


class BotHarness:
    """One test's bot: its own process and database (``BotHarness(emu, tmp_path)``), or a
    guild of its own on a bot that the tests of a module share (``shared=``,
    tests/support/shared_bot.py): the same calls either way."""

    def __init__(
        self,
        emu: Emulator,
        tmp: Path,
        backend: str | None = None,
        *,
        shared: SharedBot | None = None,
    ) -> None:
        self.emu = emu
        self.shared = shared
        if shared is not None:
            self.backend = shared.backend
            self.db = shared.db
            self.clock = shared.clock
        else:
            self.backend = backend or E2E_DB["backend"]
            self.db = tmp / "tamalou.sqlite3"
            self.clock = TestClock(tmp / "clock_offset_ms")
        self.clock_file = self.clock.path
        #: TAMALOU_DB: the SQLite file, or a PostgreSQL URL made at the first start
        self.target: str | None = str(self.db) if self.backend == "sqlite" else None
        self.env: dict[str, str] = {}
        #: the test's guild (a shared bot's tests each have their own)
        self.guild_id = emu.guild.id

    @property
    def offset(self) -> int:
        return self.clock.offset

    def bot_env(self, reorder_ms: int, env: dict[str, str]) -> dict[str, str]:
        """The bot's settings for a test (``env`` overrides the defaults)."""
        return {
            "TAMALOU_REORDER_MS": str(reorder_ms),
            "TAMALOU_EDIT_INTERVAL_MS": "0",
            "TAMALOU_AI_DELAY_MS": "50",
            "TAMALOU_TEST_CLOCK_FILE": str(self.clock_file),
            "TAMALOU_LOG_LEVEL": "INFO",
            # cards as text unless a test asks for the emojis (TAMALOU_CARD_EMOJIS="1"):
            # the text fallback stays tested by every flow, the emojis by the card tests
            "TAMALOU_CARD_EMOJIS": "0",
            # tables in the channel unless a test asks for threads (TAMALOU_THREADS="1"):
            # the channel fallback stays tested by every flow, threads by the thread tests
            "TAMALOU_THREADS": "0",
            **env,
        }

    async def start(
        self, seeds: list[str] | tuple[str, ...] = (), reorder_ms: int = 20, **env: str
    ) -> None:
        if self.shared is not None:
            self.target = await self.shared.database()
            self.env = self.bot_env(reorder_ms, env)
            await self.shared.serve(self.env, seeds)
            assert self.shared.env is not None
            self.env = self.shared.env  # the process's (a test may start one itself)
            return
        self.env = {
            "TAMALOU_DB": await self.database(),
            "TAMALOU_GUILD_ID": str(self.emu.guild.id),
            "TAMALOU_TEST_SEEDS": ",".join(seeds),
            **self.bot_env(reorder_ms, env),
        }
        await self.emu.start_bot("tests.support.e2e_bot", env=self.env)

    async def restart(self, seeds: tuple[str, ...] = ()) -> None:
        """SIGKILL the bot and start a new process on the same database."""
        if self.shared is not None:
            await self.shared.restart(seeds)
            return
        await self.emu.kill_bot()
        self.env["TAMALOU_TEST_SEEDS"] = ",".join(seeds)
        await self.emu.start_bot("tests.support.e2e_bot", env=self.env)

    def advance(self, ms: int) -> None:
        """Move Discord's clock and the bot's clock forward together."""
        self.clock.advance(self.emu, ms)

    # -- reading --------------------------------------------------------------------

    def table_message(self, channel: ChannelRef = None) -> Message:
        """The newest public message that carries the table's buttons (in ``channel`` or
        one of its threads: a table plays in the thread started from its lobby)."""
        for msg in reversed(self.public_messages(channel)):
            if msg.components and TABLE_BUTTON.search(json.dumps(msg.components)):
                return msg
        raise AssertionError("no table message in the channel")

    def public_messages(self, channel: ChannelRef = None) -> list[Message]:
        """The public messages of a channel and of its threads, oldest first."""
        chan = self.emu.channel(channel)
        msgs = list(self.emu.channel_messages(chan))
        for thread in self.emu.threads(chan) if not chan.is_thread else ():
            msgs += self.emu.channel_messages(thread)
        return sorted(msgs, key=lambda m: m.id)

    def panel(self, user: str) -> Message:
        """The member's private panel as last shown: a Draw on the table message updates the
        open panel in place, so it is not always the newest ephemeral."""
        panels = [
            m
            for m in self.emu.ephemerals(user)
            if m.content.startswith(("**Your cards**", "**Vos cartes**"))
        ]
        assert panels, f"{user} has no panel"
        return max(panels, key=lambda m: m.last_request_id or 0)

    async def database(self) -> str:
        """The bot's TAMALOU_DB (a fresh PostgreSQL database is made once, at first use)."""
        if self.shared is not None:
            self.target = await self.shared.database()
        if self.target is None:
            self.target = await fresh_database()
        return self.target

    def table_id(self) -> int:
        """The id of the newest table of the test's guild (``Table 3``: the database's
        count, which a shared bot's tests before this one moved on)."""
        if self.shared is None:
            rows = self.sql("SELECT id FROM tables ORDER BY id DESC LIMIT 1")
        else:
            rows = self.sql(
                "SELECT id FROM tables WHERE guild_id = ? ORDER BY id DESC LIMIT 1", self.guild_id
            )
        assert rows, "no table in the database"
        return int(rows[0]["id"])

    def newest_match(self) -> Sequence[Any]:
        """The newest ``matches`` row of the test (none, or one)."""
        if self.shared is None:
            return self.sql("SELECT * FROM matches ORDER BY id DESC LIMIT 1")
        return self.sql(
            "SELECT * FROM matches WHERE guild_id = ? ORDER BY id DESC LIMIT 1", self.guild_id
        )

    def guild_rows(self, name: str) -> Sequence[Any]:
        """Every row of ``name`` (a database table keyed by ``table_id``: ``turn_pings``,
        ``open_panels``...) that belongs to a table of the test's guild."""
        return self.sql(
            f"SELECT * FROM {name} WHERE table_id IN (SELECT id FROM tables WHERE guild_id = ?)",
            self.guild_id,
        )

    def sql(self, query: str, *args: Any) -> Sequence[Any]:
        """Rows of ``query`` (``?`` placeholders) in the bot's database, by column name."""
        assert self.target is not None, "start the bot first"
        if self.backend == "sqlite":
            con = sqlite3.connect(self.db)
            con.row_factory = sqlite3.Row
            try:
                with con:  # a write (a test setting up a fault) is committed
                    return con.execute(query, args).fetchall()
            finally:
                con.close()
        return pg_fetch(self.target, query, *args)

    def game(self, table_id: int | None = None) -> Game:
        """The current match (of ``table_id``) rebuilt from the bot's log (the oracle)."""
        if table_id is None:
            rows = self.newest_match()
        else:
            rows = self.sql(
                "SELECT * FROM matches WHERE table_id = ? ORDER BY id DESC LIMIT 1", table_id
            )
        assert rows, "no match in the database"
        game, _ = self.replayed(rows[0])
        return game

    def replayed(
        self, m: dict[str, Any], payloads: list[dict[str, Any]] | None = None
    ) -> tuple[Any, list[Any]]:
        """The match of the row ``m`` (``matches``) folded from the bot's log, as the bot
        folds it (``tamalou.core.replay``), and its events. A caller that also reads the
        actions passes the ones it read (``payloads``): a second read may see a move the
        bot logged in between, and the game would lag the actions read."""
        module = tamalou.games.load(m["game"])
        seats = json.loads(m["seats"])
        if payloads is None:
            payloads = self.actions_of(m["id"])
        return replay(
            module,
            module.rules_from_dict(json.loads(m["rules"])),
            len(seats),
            m["seed"],
            m["started_at"],
            [s["ai_level"] is not None for s in seats],
            payloads,
        )

    def actions_of(self, match_id: int) -> list[dict[str, Any]]:
        """A match's logged actions, in order (one read)."""
        return [
            json.loads(r["payload"])
            for r in self.sql("SELECT payload FROM actions WHERE match_id = ? ORDER BY n", match_id)
        ]

    async def until(self, predicate: Callable[[], Any], timeout: float, what: str) -> Any:
        """Wait for a state of the bot's database (the emulator sees no write: polled every
        25 ms); ``predicate``'s value once truthy."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not (value := predicate()):
            if loop.time() > end:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
            await asyncio.sleep(0.025)
        return value

    def actions(self) -> list[A.Action]:
        if self.shared is not None:
            rows = self.sql(
                "SELECT a.payload FROM actions a JOIN matches m ON m.id = a.match_id"
                " WHERE m.guild_id = ? ORDER BY a.match_id, a.n",
                self.guild_id,
            )
            return [action_from_dict(json.loads(r["payload"])) for r in rows]
        rows = self.sql("SELECT payload FROM actions ORDER BY match_id, n")
        return [action_from_dict(json.loads(r["payload"])) for r in rows]


class _PgReader:
    """The test's synchronous queries on PostgreSQL: one thread with its own loop, and the
    connections of the last few databases kept open. A connection a query (with a thread
    and a loop of its own) cost 30-60 ms of the test's loop, which also runs the emulator:
    a test that polls the database stalled the bot's REST calls (the Kalooki match ran 135 s
    on PostgreSQL against 62 on SQLite)."""

    KEEP = 3  # databases: a test's, and a harness or two of the tests before it

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()
        self._cons: OrderedDict[str, asyncpg.Connection] = OrderedDict()

    def _running(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="pg-reader", daemon=True).start()
                self._loop = loop
            return self._loop

    async def _fetch(self, url: str, query: str, args: tuple[Any, ...]) -> list[asyncpg.Record]:
        con = self._cons.get(url)
        if con is None or con.is_closed():
            con = await asyncpg.connect(url)
            self._cons[url] = con
            while len(self._cons) > self.KEEP:
                _, old = self._cons.popitem(last=False)
                await old.close()
        self._cons.move_to_end(url)
        try:
            return list(await con.fetch(numbered(query), *args))
        except (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, OSError):
            self._cons.pop(url, None)  # a server restarted under it: once more, anew
            await con.close(timeout=1)
            con = await asyncpg.connect(url)
            self._cons[url] = con
            return list(await con.fetch(numbered(query), *args))

    def fetch(self, url: str, query: str, *args: Any) -> list[asyncpg.Record]:
        future = asyncio.run_coroutine_threadsafe(self._fetch(url, query, args), self._running())
        return future.result(timeout=30)


_PG = _PgReader()


def pg_fetch(url: str, query: str, *args: Any) -> list[asyncpg.Record]:
    """A query on PostgreSQL from synchronous test code (the test's loop is busy running
    the test): on the reader's own thread and loop, its connection kept for the next."""
    return _PG.fetch(url, query, *args)


def label(card: int | None) -> str:
    """What a player reads for ``card`` (``7♣``)."""
    assert card is not None
    return cards.label(card)


async def forged_click(
    h: BotHarness,
    user: str,
    custom_id: str,
    *,
    on: Message | None = None,
    values: list[str] | None = None,
    wait: bool = True,
) -> Interaction:
    """A press on a component the bot never sent (a stale or crafted custom_id).

    The interaction's message carries a button (or select) with that custom_id, as a
    message from an older round, table or bot version would.
    """
    emu = h.emu
    msg = on if on is not None else h.table_message()
    member = emu.member(user)
    if values is None:
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        comp: dict[str, Any] = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
    else:
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        comp = {
            "type": 3,
            "custom_id": custom_id,
            "options": [{"label": v, "value": v} for v in values],
        }
    inter = emu._new_interaction(
        3, member, emu.channel(None), custom_id, data, locale=None, at=None, message=msg
    )
    inter.payload["message"]["components"] = [{"type": 1, "components": [comp]}]
    return await emu._send(inter, wait, 10.0)


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
