"""Thirty members whose names are Discord's longest (32 characters) and markdown-heavy,
through every message that carries names: a tournament's sign-up, standings and tables, the
tables' messages, lobbies, panels and channel summaries. The emulator refuses what Discord
refuses (a field over 1,024 characters, a label over 80: ``emulator/validation.py``), and a
refused request fails the test."""

from __future__ import annotations

from pathlib import Path

import pytest
from discord.utils import escape_markdown

from emulator import Emulator, MemberSpec, Message
from tests.support.bot_harness import BotHarness

pytestmark = pytest.mark.e2e


def long_name(i: int) -> str:
    name = ("_*~|>`" * 6)[:28] + f"m{i:03d}"
    assert len(name) == 32
    return name


MEMBERS = [MemberSpec(f"m{i:02d}", nick=long_name(i), admin=i == 0) for i in range(30)]


def tournament_message(emu: Emulator) -> Message:
    for msg in reversed(emu.channel_messages()):  # a table's summary names "Cup" too
        if msg.embeds and "🏆" in str(msg.embeds[0].get("title", "")):
            return msg
    raise AssertionError("no tournament message")


@pytest.mark.one_backend
@pytest.mark.emulator(members=MEMBERS)
async def test_thirty_long_markdown_names_through_every_message_that_carries_names(
    emulator: Emulator, tmp_path: Path
) -> None:
    emu = emulator
    h = BotHarness(emu, tmp_path)
    await h.start(TAMALOU_THREADS="1")  # tables in threads: the channel keeps a summary
    # a table of four in its thread: lobby, table message, panels, the channel's summary
    await emu.slash("m00", "tamalou new", channel="tables", variant="dutch")
    for i in (1, 2, 3):
        await emu.click(f"m{i:02d}", h.table_message("tables"), "Join")
    await emu.click("m00", h.table_message("tables"), "Start")
    for i in range(4):
        await emu.click(f"m{i:02d}", h.table_message("tables"), "My cards")
    table = h.table_message("tables")
    assert escape_markdown(long_name(3)) in table.text
    (summary,) = [m for m in emu.channel_messages("tables") if "Players: " in m.text]
    assert escape_markdown(long_name(0)) in summary.text  # the channel's summary: escaped

    # a tournament of all thirty: the sign-up list past 1,024 characters, then its tables
    await emu.slash(
        "m00", "cardsadmin tournament create", game="tamalou", name="Cup", players=4, rounds=2
    )
    for i in range(30):
        await emu.click(f"m{i:02d}", tournament_message(emu), "Join")
    await emu.wait_for(
        lambda: "Signed up (30)" in tournament_message(emu).text, 10, "30 sign-ups shown"
    )
    signed = next(f for f in tournament_message(emu).embeds[0]["fields"] if "(30)" in f["name"])
    assert len(signed["value"]) <= 1024 and signed["value"].splitlines()[-1].startswith("… and")
    await emu.click("m00", tournament_message(emu), "Start")
    # eight tables posted in one channel: Discord's 5 posts in 5 s a channel paces them
    await emu.wait_for(lambda: "Round 1/2" in tournament_message(emu).text, 90, "round 1")
    await emu.wait_for(lambda: len(h.sql("SELECT id FROM tables")) == 1 + 8, 90, "8 tables")
    await emu.slash("m00", "tamalou tournament cancel")
    await emu.wait_for(
        lambda: "cancelled" in tournament_message(emu).text, 60, "the tournament cancelled"
    )
    await emu.settle()
    assert emu.take_problems("rejected") == []  # nothing Discord would refuse
