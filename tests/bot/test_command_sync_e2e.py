"""The real bot restarted against the emulator syncs its slash commands (a PUT of every
group with its translations) only on the first start, when they changed, or when
TAMALOU_SYNC_COMMANDS forces it (issue 24: Discord rate-limits command updates)."""

from __future__ import annotations

from pathlib import Path

import pytest

from emulator import Emulator
from tests.support.bot_harness import BotHarness

pytestmark = pytest.mark.e2e


def command_puts(emu: Emulator) -> int:
    return sum(1 for r in emu.requests if r.method == "PUT" and r.path.endswith("/commands"))


async def test_a_restart_syncs_the_commands_only_when_they_changed(
    emulator: Emulator, tmp_path: Path
) -> None:
    h, emu = BotHarness(emulator, tmp_path), emulator
    await h.start()
    assert command_puts(emu) == 1  # the first start: nothing synced before
    await h.restart()
    await h.restart()
    assert command_puts(emu) == 1  # twice the same commands: no PUT
    assert emu.bot is not None
    assert "unchanged since their last sync" in emu.bot.log_path.read_text()
    await emu.slash("alice", "tamalou new")  # the commands synced first still work
    assert emu.last_message().components
    # a new version whose commands differ (its hash no longer matches the stored one)
    h.sql("UPDATE bot_state SET value = 'older' WHERE key LIKE 'commands:%'")
    await h.restart()
    assert command_puts(emu) == 2
    h.env["TAMALOU_SYNC_COMMANDS"] = "1"  # forced
    await h.restart()
    assert command_puts(emu) == 3
    h.env["TAMALOU_SYNC_COMMANDS"] = "0"
    h.sql("DELETE FROM bot_state")
    await h.restart()
    assert command_puts(emu) == 3
    await emu.slash("bob", "tamalou join")  # known to Discord, and answered
    emu.check()


async def test_stopping_right_after_a_restart_leaves_no_traceback(
    emulator: Emulator, tmp_path: Path
) -> None:
    """Ctrl-C while ``on_ready`` redraws the live tables: it ends before the storage closes
    (it read a closed database and logged a traceback; found by the test above)."""
    h, emu = BotHarness(emulator, tmp_path), emulator
    await h.start()
    await emu.slash("alice", "tamalou new")
    for _ in range(3):
        await h.restart()
        await emu.stop_bot()  # at once: on_ready is still redrawing the table
        assert emu.bots[-1].proc.returncode == 0
        assert "Traceback" not in emu.bots[-1].log_path.read_text()
    emu.check()
