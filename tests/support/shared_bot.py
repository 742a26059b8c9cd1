"""One bot process for the end-to-end tests of a module, each test in a guild of its own.

Starting the bot is most of a short end-to-end test (1 to 1.7 s, imports mostly). A module
that uses these fixtures starts one emulator and one bot per database backend; each test
gets a :class:`~tests.support.bot_harness.BotHarness` on it whose guild is new (the bot is
added to it: GUILD_CREATE, as on Discord) and is the emulator's default channel's, so
``emu.slash("alice", "tamalou new")`` and ``emu.channel("tables")`` act there. A test
reads only what it made: the emulator forgets every message, version and request of the
tests before (``Emulator.forget_records``), so the leak scans read every version shown in
the test, and nothing else. When the test ends the bot is removed from its guild
(GUILD_DELETE: its tables close, their timers stop), and the problems the emulator
recorded fail the test, as the ``emulator`` fixture does.

What stays per process is given per test:

* the match seeds, through ``TAMALOU_TEST_SEEDS_FILE`` (``tests/support/e2e_bot.py``:
  each test's list replaces the last);
* the clock: one offset for the process, moved forward only (``h.advance``), so every
  test's jumps add up; nothing of the test before is left to wake at them;
* the settings: a test that asks ``h.start(...)`` for other ones gets a new process on
  the same database (so do ``h.restart()`` and a test that killed the bot); the tests of
  a module that ask for the same settings share one.

A test that needs an emulator of its own (``@pytest.mark.emulator(...)`` options, a second
process) takes ``own_emulator`` (the ``emulator`` fixture in the module's event loop) and
makes its ``BotHarness(own_emulator, tmp_path)`` as before.

Usage, in a test module::

    pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

    @pytest_asyncio.fixture(loop_scope="module")
    async def harness(shared_bot: SharedBot) -> AsyncIterator[BotHarness]:
        async with shared_bot.scene() as h:
            yield h
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
from collections.abc import AsyncIterator, Iterable
from pathlib import Path

import pytest
import pytest_asyncio

from emulator import Emulator, EmulatorError
from emulator.harness import running_emulator
from emulator.model import DEFAULT_CHANNELS, GuildSpec
from tests.support.backends import fresh_database
from tests.support.bot_harness import E2E_DB, BotHarness, TestClock

ENTRY = "tests.support.e2e_bot"
LIVE = ("lobby", "playing")


class SharedBot:
    """The emulator, database, clock and bot process that a module's tests share on one
    backend."""

    def __init__(self, emu: Emulator, tmp: Path, backend: str) -> None:
        self.emu = emu
        self.backend = backend
        self.db = tmp / "tamalou.sqlite3"
        self.target: str | None = str(self.db) if backend == "sqlite" else None
        self.clock = TestClock(tmp / "clock_offset_ms")
        self.seeds_file = tmp / "seeds.json"
        self._tests = itertools.count(1)
        self.env: dict[str, str] | None = None  # the running process's settings
        self.response_deadline = emu.response_deadline

    async def database(self) -> str:
        if self.target is None:
            self.target = await fresh_database()
        return self.target

    def give_seeds(self, seeds: Iterable[str]) -> None:
        """The seeds of the test's matches, replacing the last test's (atomically: the bot
        may read the file at any moment)."""
        part = self.seeds_file.with_suffix(".part")
        part.write_text(json.dumps({"test": next(self._tests), "seeds": list(seeds)}))
        os.replace(part, self.seeds_file)

    async def serve(self, env: dict[str, str], seeds: Iterable[str]) -> None:
        """The bot runs with these settings (a new process if it ran with others, or not
        at all), the test's seeds next."""
        self.give_seeds(seeds)
        wanted = {
            "TAMALOU_DB": await self.database(),
            "TAMALOU_TEST_SEEDS_FILE": str(self.seeds_file),
            **env,
        }
        if self.emu._bot_alive() and wanted == self.env:
            return
        await self.emu.kill_bots()
        self.env = wanted
        await self.emu.start_bot(ENTRY, env=wanted)

    async def restart(self, seeds: Iterable[str]) -> None:
        """SIGKILL the bot and start a new process on the same database and settings."""
        assert self.env is not None, "start the bot first"
        self.give_seeds(seeds)
        await self.emu.kill_bot()
        await self.emu.start_bot(ENTRY, env=self.env)

    @contextlib.asynccontextmanager
    async def scene(self, harness: type[BotHarness] = BotHarness) -> AsyncIterator[BotHarness]:
        """A harness whose guild is new; when the test ends the bot leaves it (its tables
        close) and the emulator's problems are checked."""
        emu = self.emu
        left = emu.take_problems()
        if left:  # recorded after the test before had ended
            raise AssertionError(f"problems recorded after the test before ended: {left}")
        emu.forget_records()
        emu.response_deadline = self.response_deadline
        guild = await emu.add_guild(GuildSpec(emu.guild.name, DEFAULT_CHANNELS))
        emu.default_channel = guild.channels[0]
        h = harness(emu, Path(), shared=self)
        h.guild_id = guild.id
        try:
            yield h
        finally:
            await self._leave(h, guild.id)
        try:
            emu.check()
        finally:
            emu.take_problems()  # this test's: the next one starts with none

    async def _leave(self, h: BotHarness, guild_id: int) -> None:
        emu = self.emu
        with contextlib.suppress(TimeoutError, EmulatorError):
            await emu.settle()
        alive = emu._bot_alive()
        if guild_id in emu.guilds:  # not removed by the test itself
            await emu.remove_bot(guild_id)  # GUILD_DELETE: its tables close
        if self.target is None:
            return  # no bot was started
        if alive:
            await h.until(lambda: not live_tables(h, guild_id), 10, "the guild's tables to close")
            with contextlib.suppress(TimeoutError, EmulatorError):
                await emu.settle()
        else:  # a test that killed the bot: the next process must not bring them back
            for table in ("matches", "tables"):
                h.sql(
                    f"UPDATE {table} SET status = 'cancelled' "
                    "WHERE guild_id = ? AND status IN ('lobby', 'playing')",
                    guild_id,
                )


def live_tables(h: BotHarness, guild_id: int) -> list[object]:
    return list(
        h.sql(
            "SELECT id FROM tables WHERE guild_id = ? AND status IN ('lobby', 'playing')",
            guild_id,
        )
    )


class SharedBots:
    """A module's shared bots, one per backend (the tests of a module run backend after
    backend: ``tests/conftest.py``), only one running at a time."""

    def __init__(self, tmp: pytest.TempPathFactory, request: pytest.FixtureRequest) -> None:
        self.tmp = tmp
        self.request = request
        self.stack = contextlib.AsyncExitStack()
        self.current: SharedBot | None = None

    async def get(self, backend: str) -> SharedBot:
        if self.current is not None and self.current.backend == backend:
            return self.current
        await self.stack.aclose()
        self.stack = contextlib.AsyncExitStack()
        tmp = self.tmp.mktemp(f"shared-{backend}")
        log_dir = tmp / "emulator"
        log_dir.mkdir()
        # problems are checked by each test (SharedBot.scene), not at the module's end
        emu = await self.stack.enter_async_context(running_emulator(log_dir=log_dir, check=False))
        self.current = SharedBot(emu, tmp, backend)
        return self.current

    async def close(self) -> None:
        await self.stack.aclose()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_bots(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> AsyncIterator[SharedBots]:
    bots = SharedBots(tmp_path_factory, request)
    try:
        yield bots
    finally:
        await bots.close()


@pytest_asyncio.fixture(loop_scope="module")
async def shared_bot(shared_bots: SharedBots, e2e_db: str | None) -> SharedBot:
    """The module's bot on this test's backend (``e2e_db``)."""
    return await shared_bots.get(e2e_db or E2E_DB["backend"])


@pytest_asyncio.fixture(loop_scope="module")
async def own_emulator(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Emulator]:
    """The ``emulator`` fixture, in the module's event loop (a module that shares a bot
    runs its tests in one loop)."""
    marker = request.node.get_closest_marker("emulator")
    options = dict(marker.kwargs) if marker else {}
    options.setdefault("log_dir", tmp_path / "emulator")
    Path(options["log_dir"]).mkdir(parents=True, exist_ok=True)
    async with running_emulator(**options) as emu:
        yield emu
