"""``python -m bot smoke`` against the emulator, its operator's clicks simulated: every
assumption it checks is printed as held when Discord (here, the emulator) behaves as the
design expects, and as not held when it does not (docs/operating.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from bot.smoke import CHANNEL_EDITED, GREY, PANEL_EDITED, picture
from emulator import Emulator
from emulator.model import CREATE_PUBLIC_THREADS

pytestmark = pytest.mark.e2e


async def run_smoke(
    emu: Emulator,
    tmp_path: Path,
    before_v2_clicks: Sequence[Callable[[], object] | None] = (None, None, None),
) -> tuple[int, str]:
    """Runs the smoke test, bob pressing its buttons when asked; ``before_v2_clicks[n]``
    is called just before bob presses the V2 table's button the n+1th time."""
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
    tables = lambda: [m for m in emu.channel_messages() if m.v2]  # noqa: E731
    await emu.wait_for(tables, 10, "the smoke's V2 table")
    (table,) = tables()
    for step, before in enumerate(before_v2_clicks, 1):
        asked = f"({step} of 3)"
        await emu.wait_for(lambda a=asked: a in table.display_text, 10, f"V2 click {asked}")
        if before is not None:
            before()
        await emu.click("bob", table, "Click me")
    code = await asyncio.wait_for(bot.proc.wait(), 60)
    emu.take_problems("bot_exit")
    return code, bot.log_path.read_text()


async def test_the_smoke_test_prints_every_assumption_held(
    emulator: Emulator, tmp_path: Path
) -> None:
    code, log = await run_smoke(emulator, tmp_path)
    held = [line for line in log.splitlines() if line.startswith("held: ")]
    assert code == 0, log[-3000:]
    assert len(held) == 10, log[-3000:]
    assert any("token's webhook bucket" in line and "5 per" in line for line in held)
    assert any("UPDATE_MESSAGE" in line and "smoke.png" in line for line in held)
    assert any("archives its own thread" in line for line in held)
    assert any("a table message edited" in line and "by bob" in line for line in held)
    assert any("X-RateLimit" in line for line in held)
    assert "NOT HELD" not in log


async def test_the_v2_checks_hold_on_v2_messages_as_a_player_reads_them(
    emulator: Emulator, tmp_path: Path
) -> None:
    """The V2 checks are held, and what they say they saw is what bob sees: an ephemeral
    V2 panel with its thumbnail, edited; the V2 table, its gallery's picture replaced by an
    UPDATE_MESSAGE, through bob's click token, then by the bot's channel edit, showing the
    last upload; every write to both V2, none refused."""
    code, log = await run_smoke(emulator, tmp_path)
    assert code == 0, log[-3000:]
    (panel_line,) = [x for x in log.splitlines() if "ephemeral V2 panel" in x]
    assert panel_line.startswith("held: ") and "ephemeral flag set" in panel_line
    assert PANEL_EDITED in panel_line and "pictures ['smoke-hand.png']" in panel_line
    (update_line,) = [x for x in log.splitlines() if "replaced by an UPDATE_MESSAGE" in x]
    assert update_line.startswith("held: ") and "smoke-1.png to smoke-2.png" in update_line
    assert "pictures ['smoke-2.png']" in update_line
    (table_line,) = [x for x in log.splitlines() if "a V2 table edited" in x]
    assert table_line.startswith("held: ") and "clicked by bob" in table_line
    (webhook_line,) = [x for x in log.splitlines() if "by a webhook edit" in x]
    assert webhook_line.startswith("held: ") and "smoke-2.png to smoke-3.png" in webhook_line
    (channel_line,) = [x for x in log.splitlines() if "by a channel edit" in x]
    assert channel_line.startswith("held: ") and "smoke-3.png to smoke-4.png" in channel_line

    (panel,) = [m for m in emulator.ephemerals("bob") if m.v2]
    assert panel.ephemeral and panel.display_text == PANEL_EDITED
    assert [m.kind for m in panel.media()] == ["thumbnail"]
    assert [a.filename for a in panel.pictures()] == ["smoke-hand.png"]
    (table,) = [m for m in emulator.channel_messages() if m.v2]
    assert CHANNEL_EDITED in table.display_text and not table.buttons()
    (shown,) = table.pictures()
    assert (shown.filename, shown.data) == ("smoke-4.png", picture(GREY))
    audit = emulator.v2_audit(messages=lambda mid: mid in (panel.id, table.id))
    assert audit.ok, (audit.not_v2, audit.refused)


async def test_an_assumption_that_fails_is_printed_not_held(
    emulator: Emulator, tmp_path: Path
) -> None:
    """Discord (the emulator) refusing what a check relies on: the thread cannot be started;
    the ephemeral panel's token edit, the table's UPDATE_MESSAGE, and both token edits of
    the table are answered 400 (as discord-api-docs#7529 reports for a gallery's new
    picture), and so is its channel edit. Each is printed NOT HELD with the answer; the
    other checks still run."""
    emu = emulator
    emu.deny_bot(CREATE_PUBLIC_THREADS)  # the thread cannot even be started

    def refuse_edits(times: int) -> Callable[[], object]:
        return lambda: emu.fail_next(
            "PATCH", "/messages/@original", 400, 50035, "unfurled media attachment not found", times
        )

    def refuse_update() -> object:
        return emu.fail_next("POST", "/callback", 400, 50035, "Invalid Form Body")

    def refuse_table_edits() -> object:
        refuse_edits(2)()
        return emu.fail_next("PATCH", "/channels/", 400, 50035, "Invalid Form Body")

    code, log = await run_smoke(emu, tmp_path, (refuse_edits(1), refuse_update, refuse_table_edits))
    assert code == 1
    lines = log.splitlines()
    (line,) = [x for x in lines if "archives its own thread" in x]
    assert line.startswith("NOT HELD: ") and "403" in line
    for check in (
        "ephemeral V2 panel",
        "replaced by an UPDATE_MESSAGE",
        "a V2 table edited",
        "by a webhook edit",
        "by a channel edit",
    ):
        (line,) = [x for x in lines if check in x]
        assert line.startswith("NOT HELD: ") and "refused: 400 50035" in line, line
    assert sum(x.startswith("held: ") for x in lines) == 4
    assert sum(x.startswith("NOT HELD: ") for x in lines) == 6
    await emu.settle()  # the refused UPDATE_MESSAGE left bob's second V2 click unanswered
    (lost,) = emu.take_problems("lost_interaction")
    assert "tamalou:smoke:v2" in lost.message
    refused = [p.message.split(" -> ")[0].split()[0] for p in emu.take_problems("rejected")]
    assert refused == ["PATCH", "POST", "PATCH", "PATCH", "PATCH"]  # the refusals made above
