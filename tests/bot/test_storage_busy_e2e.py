"""A database held by another writer past the busy timeout (TAMALOU_DB_BUSY_MS): the
player is told, in their language, that the server is busy and to retry; nothing of the
move was kept, the table is as the log says, and the same click works once the lock is
gone (issue 10/15; on both backends)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import t
from emulator import Emulator
from tamalou.core import cards
from tests.support.backends import another_writer
from tests.support.bot_harness import BotHarness, find_seed, open_table, peek_all

pytestmark = pytest.mark.e2e


@pytest.fixture
async def harness(emulator: Emulator, tmp_path: Path) -> BotHarness:
    return BotHarness(emulator, tmp_path)


async def test_a_busy_database_asks_to_retry_and_keeps_the_game_whole(
    harness: BotHarness,
) -> None:
    h, emu = harness, harness.emu
    seed = find_seed(
        2,
        lambda g: g.round.first_player == 0 and cards.rank(g.round.pile[-1]) not in ("J", "Q", "K"),
    )
    await h.start(seeds=[seed], TAMALOU_DB_BUSY_MS="300")
    await open_table(h, ["alice", "bob"])
    await peek_all(h, ["alice", "bob"])
    # the peeks' hides are done writing (each forgets its timed panel once the edit is
    # answered): a write of theirs under the lock below would be a real error
    await h.until(lambda: not h.sql("SELECT * FROM open_panels"), 10, "the peeks forgotten")
    logged = len(h.actions())
    assert h.target is not None
    async with another_writer(h.target):  # another process holds the write lock
        await emu.click("alice", h.table_message(), "Draw")
        answer = emu.last_ephemeral("alice")
    assert answer.content == t("en", "err.busy")
    assert len(h.actions()) == logged  # nothing of the refused move was kept
    assert h.game().round.stage == "start"
    assert emu.take_problems() == []  # a warning in the log, not an error's traceback
    await emu.click("alice", h.table_message(), "Draw")  # the same click, once it is free
    assert "You drew" in h.panel("alice").content  # her open panel is updated in place
    assert len(h.actions()) == logged + 1
