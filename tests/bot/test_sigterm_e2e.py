"""SIGTERM (what systemd and docker send to stop a service) closes the bot as SIGINT does:
the process ends by itself with status 0, its moves committed (docs/deploy.md)."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from emulator import Emulator
from tests.support.bot_harness import BotHarness, open_table

pytestmark = pytest.mark.e2e


@pytest.fixture
async def harness(emulator: Emulator, tmp_path: Path) -> BotHarness:
    return BotHarness(emulator, tmp_path)


async def test_sigterm_closes_the_bot_cleanly(harness: BotHarness) -> None:
    h, emu = harness, harness.emu
    await h.start()
    await open_table(h, ["alice", "bob"])
    await emu.click("alice", h.table_message(), "My cards")
    peeks = len(h.actions())
    bot = emu.bot
    assert bot is not None
    bot.stopping = True  # the test ends it: not a crash
    bot.proc.send_signal(signal.SIGTERM)
    code = await asyncio.wait_for(bot.proc.wait(), 20)
    assert code == 0, bot.log_tail()  # closed, not killed by the signal (-15)
    assert "SIGTERM: closing" in bot.log_path.read_text()
    assert len(h.actions()) == peeks == 1
    await h.restart()  # and the table is back
    await emu.click("bob", h.table_message(), "My cards")
    assert len(h.actions()) == 2
