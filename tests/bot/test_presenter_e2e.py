"""End to end: a table cancelled while its message edit waits its turn stays closed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from emulator import Emulator
from tests.support.bot_harness import BotHarness, open_table

pytestmark = pytest.mark.e2e


@pytest.fixture
async def harness(emulator: Emulator, tmp_path: Path) -> BotHarness:
    return BotHarness(emulator, tmp_path)


@pytest.mark.one_backend
async def test_cancel_while_a_table_edit_waits_leaves_the_table_closed(
    harness: BotHarness,
) -> None:
    h, emu = harness, harness.emu
    await h.start(TAMALOU_EDIT_INTERVAL_MS="1500")  # edits coalesce over 1.5 s
    await open_table(h, ["alice", "bob"])
    table = h.table_message()
    await emu.click("bob", table, "My cards")  # bob peeks: the table's edit must wait
    await emu.slash("alice", "tamalou cancel")
    assert "is closed" in emu.last_ephemeral("alice").content
    await asyncio.sleep(2.0)  # past the moment the coalesced edit was due
    assert "The table was cancelled" in table.text
    assert table.components == []  # no live buttons drawn again on a closed table
