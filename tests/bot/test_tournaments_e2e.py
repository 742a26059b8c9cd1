"""End to end through the Discord emulator: a duplicate tarot tournament of 8 members.

Sign-up with the tournament message's buttons, the host's start (a member's is refused),
two tables of four opened in the channel on one seed, the same cards dealt at the same seat
positions at both (read from the bot's own log, and from the hands two members are shown),
a SIGKILL in the middle of the round (the tournament and both tables carry on), and the
host's cancel closing both tables. Playing whole rounds and scoring them (duplicate
standings against a computation by hand, a restart mid-round) is
tests/bot/test_tournament_runner.py, on the same runner and table service without Discord.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tamalou.games.tarot.codec import action_from_dict
from tamalou.games.tarot.engine import apply, new_game
from tamalou.games.tarot.rules import Rules
from tests.bot.tarot.harness import TarotHarness
from tests.bot_harness import BotHarness  # noqa: F401 (on every e2e backend: tests/conftest.py)
from tests.emulator import Emulator, MemberSpec, Message

pytestmark = pytest.mark.e2e

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
MEMBERS = [MemberSpec(n, "en-US", admin=n == "alice") for n in NAMES]


def tournament_message(emu: Emulator) -> Message:
    for msg in reversed(emu.channel_messages()):
        if "tourney:" in json.dumps(msg.components) or "tournament" in msg.text:
            return msg
    raise AssertionError("no tournament message")


def table_messages(emu: Emulator) -> list[Message]:
    return [m for m in emu.channel_messages() if ":hand:" in json.dumps(m.components)]


def dealt(h: TarotHarness, table_id: int) -> tuple[str, list[list[int]], list[str]]:
    """A table's seed, its first deal's hands by seat and the names seated, from the log."""
    m = h.sql("SELECT * FROM matches WHERE table_id = ?", table_id)[0]
    seats = json.loads(m["seats"])
    game, _ = new_game(
        Rules.model_validate_json(m["rules"]),
        len(seats),
        m["seed"],
        m["started_at"],
        [s["ai_level"] is not None for s in seats],
    )
    for r in h.sql("SELECT payload FROM actions WHERE match_id = ? ORDER BY n", m["id"]):
        apply(game, action_from_dict(json.loads(r["payload"])))
    return m["seed"], game.deal.dealt, [s["name"] for s in seats]


@pytest.mark.emulator(members=MEMBERS)
async def test_a_duplicate_tarot_tournament_seats_two_tables_on_one_deal_across_a_restart(
    emulator: Emulator, tmp_path: Path
) -> None:
    emu = emulator
    h = TarotHarness(emu, tmp_path)
    await h.start(seeds=["cup"])
    await emu.slash("alice", "tarot tournament create", name="Cup", players=4, rounds=2, length=1)
    msg = tournament_message(emu)
    assert "Cup" in msg.text and "duplicate on" in msg.text
    for name in NAMES:
        await emu.click(name, tournament_message(emu), "Join")
    await emu.wait_for(lambda: "Signed up (8)" in tournament_message(emu).text, 10, "8 sign-ups")
    await emu.click("bob", tournament_message(emu), "Start")
    assert "Only the host" in emu.last_ephemeral("bob").content
    await emu.click("alice", tournament_message(emu), "Start")
    await emu.wait_for(lambda: len(table_messages(emu)) == 2, 15, "two tables")
    await emu.wait_for(lambda: "Round 1/2" in tournament_message(emu).text, 10, "the round")

    ids = [int(r["id"]) for r in h.sql("SELECT id FROM tables ORDER BY id")]
    assert len(ids) == 2
    (seed1, hands1, names1), (seed2, hands2, names2) = dealt(h, ids[0]), dealt(h, ids[1])
    assert seed1 == seed2 == "cup:round:1"
    assert hands1 == hands2  # the same cards at the same seat positions
    assert sorted(names1 + names2) == sorted(NAMES)
    assert "Join" not in json.dumps(tournament_message(emu).components)  # sign-up closed

    await h.restart()  # SIGKILL in the middle of the round
    await emu.wait_for(lambda: emu.bot is not None, 10, "the bot back")
    rows = h.sql("SELECT status FROM tournaments")
    assert [r["status"] for r in rows] == ["playing"]
    assert [r["status"] for r in h.sql("SELECT status FROM tables ORDER BY id")] == [
        "playing",
        "playing",
    ]
    # both tables answer after the restart: the first seat of each opens its hand
    for table_id, names in ((ids[0], names1), (ids[1], names2)):
        table_msg = next(
            m for m in table_messages(emu) if f"tarot:hand:{table_id}" in json.dumps(m.components)
        )
        before = len(emu.ephemerals(names[0]))
        await emu.click(names[0], table_msg, "My hand")
        await emu.wait_for(lambda n=names[0], b=before: len(emu.ephemerals(n)) > b, 10, "a hand")
    shown = [
        next(line for line in emu.last_ephemeral(names[0]).content.splitlines() if "hand" in line)
        for names in (names1, names2)
    ]
    assert shown[0].startswith("Your hand: `")
    assert shown[0] == shown[1]  # the same hand, shown to the member at seat 0 of each table

    await emu.slash("alice", "tarot tournament cancel")
    await emu.wait_for(
        lambda: "cancelled" in tournament_message(emu).text, 10, "the tournament cancelled"
    )
    assert [r["status"] for r in h.sql("SELECT status FROM tables ORDER BY id")] == [
        "cancelled",
        "cancelled",
    ]
    await emu.wait_for(
        lambda: sum("tournament was cancelled" in m.text for m in emu.channel_messages()) == 2,
        10,
        "both table messages closed",
    )
