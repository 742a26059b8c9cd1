"""``python -m bot status`` reads what the running bot writes (issue 24): its state, shards,
card emojis, last warnings, the live tables per game and shard, the commands' last sync."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.status import RecentProblems
from emulator import Emulator
from tests.support.bot_harness import BotHarness, open_table

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


async def status(h: BotHarness) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TAMALOU_"))}
    env |= {"PYTHONPATH": str(ROOT), "TAMALOU_DB": await h.database()}
    return await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot", "status"],
        cwd=h.db.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


async def stored_status(h: BotHarness, wanted: Callable[[dict[str, Any]], bool]) -> None:
    """Polls the status the bot writes (after its log line: a database write the emulator
    does not see)."""
    for _ in range(400):
        rows = h.sql("SELECT value FROM bot_state WHERE key LIKE 'status:%'")
        if any(wanted(json.loads(r["value"])) for r in rows):
            return
        await asyncio.sleep(0.025)
    raise AssertionError(f"no such status: {[r['value'] for r in rows]}")


async def test_status_of_a_running_then_stopped_bot(emulator: Emulator, tmp_path: Path) -> None:
    h, emu = BotHarness(emulator, tmp_path), emulator
    await h.start(TAMALOU_CARD_EMOJIS="1")
    await open_table(h, ["alice", "bob"])
    await emu.wait_for(
        lambda: "card emojis ready" in (emu.bot.log_path.read_text() if emu.bot else ""),
        120,
        "the card emojis",
    )
    await stored_status(
        h, lambda st: st["state"] == "ready" and str(st["emojis"]).startswith("ready")
    )
    done = await status(h)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "process (all shards)" in out and ": ready," in out
    assert "card emojis ready (" in out
    assert "live tables: 1" in out and "  tamalou: 1 (shard 0)" in out
    assert f"slash commands (guild {emu.guild.id}" in out
    await emu.stop_bot()
    done = await status(h)
    assert done.returncode == 1  # no process ready
    assert ": stopped," in done.stdout


def test_the_status_keeps_the_last_problems_first_line_only() -> None:
    recent = RecentProblems(keep=2)
    logger = logging.getLogger("bot.test_status")
    logger.addHandler(recent)
    try:
        logger.info("not kept")
        logger.warning("card emojis unavailable (%s)", "403")
        try:
            raise ValueError("boom")
        except ValueError:
            logger.exception("failed\nsecond line")
        logger.error("third")
    finally:
        logger.removeHandler(recent)
    assert [p["message"] for p in recent.lines] == ["failed", "third"]
    assert recent.counts == {"WARNING": 1, "ERROR": 2}
