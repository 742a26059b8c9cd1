"""``python -m bot smoke`` against the emulator, its operator's clicks simulated: every
assumption it checks is printed as held when Discord (here, the emulator) behaves as the
design expects, and as not held when it does not (docs/operating.md)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from emulator import Emulator
from emulator.model import CREATE_PUBLIC_THREADS

pytestmark = pytest.mark.e2e


async def run_smoke(emu: Emulator, tmp_path: Path) -> tuple[int, str]:
    channel = emu.channel("general")
    bot = await emu.start_bot(
        "bot",
        args=("smoke", str(channel.id), "--age-s", "1", "--wait-s", "30"),
        env={"TAMALOU_DB": str(tmp_path / "unused.sqlite3")},
    )
    posted = lambda: [m for m in emu.channel_messages() if "Press" in m.content]  # noqa: E731
    await emu.wait_for(posted, 10, "the smoke's button")
    (message,) = posted()
    await emu.click("bob", message, "Click me")
    await emu.wait_for(lambda: "again" in message.content, 10, "the second click asked for")
    await emu.click("bob", message, "Click me")
    emu.advance(minutes=10)  # the first click's token is 10 minutes old at the last edit
    code = await asyncio.wait_for(bot.proc.wait(), 60)
    emu.take_problems("bot_exit")
    return code, bot.log_path.read_text()


async def test_the_smoke_test_prints_every_assumption_held(
    emulator: Emulator, tmp_path: Path
) -> None:
    code, log = await run_smoke(emulator, tmp_path)
    held = [line for line in log.splitlines() if line.startswith("held: ")]
    assert code == 0, log[-3000:]
    assert len(held) == 5, log[-3000:]
    assert any("token's webhook bucket" in line and "5 per" in line for line in held)
    assert any("UPDATE_MESSAGE" in line and "smoke.png" in line for line in held)
    assert any("archives its own thread" in line for line in held)
    assert any("@original" in line and "by bob" in line for line in held)
    assert any("X-RateLimit" in line for line in held)
    assert "NOT HELD" not in log


async def test_an_assumption_that_fails_is_printed_not_held(
    emulator: Emulator, tmp_path: Path
) -> None:
    emulator.deny_bot(CREATE_PUBLIC_THREADS)  # the thread cannot even be started
    code, log = await run_smoke(emulator, tmp_path)
    assert code == 1
    (line,) = [x for x in log.splitlines() if "archives its own thread" in x]
    assert line.startswith("NOT HELD: ") and "403" in line
    assert sum(x.startswith("held: ") for x in log.splitlines()) == 4
