"""End to end: deals chain into a match (T-M1), standings after each deal and at the end,
the season's tarot board records it (the highest total wins, T-M3), and a rematch opens."""

from __future__ import annotations

from pathlib import Path

import pytest

from emulator import Emulator
from tests.bot.tarot.harness import TarotHarness, open_table, play_until
from tests.support.bot_harness import BotHarness  # noqa: F401 (on every e2e backend: tests/conftest.py)

pytestmark = pytest.mark.e2e


@pytest.fixture
async def harness(emulator: Emulator, tmp_path: Path) -> TarotHarness:
    return TarotHarness(emulator, tmp_path)


def shown(h: TarotHarness) -> str:
    """The table message's text, or "" while the table moves to a new message."""
    try:
        return h.table_message().text
    except AssertionError:
        return ""


def button_id(h: TarotHarness, verb: str) -> str:
    for row in h.table_message().components:
        for c in row.get("components", []):
            if f"tarot:{verb}:" in str(c.get("custom_id", "")):
                return str(c["custom_id"])
    raise AssertionError(f"no {verb} button on the table message")


async def test_three_deals_make_a_match_with_standings_a_season_board_and_a_rematch(
    harness: TarotHarness,
) -> None:
    h = harness
    emu = h.emu
    await h.start(seeds=["match-a"])
    refused = await emu.slash("alice", "tarot join")
    assert "no tarot table in this channel" in refused.text
    refused = await emu.slash("alice", "tarot new", sans_chien=True)  # ruling 10
    assert "played by exactly three players" in refused.text
    assert h.sql("SELECT * FROM tables") == []
    await open_table(h, ["alice"], ai=2, preset="tarot3")
    humans = {0: "alice"}
    played = 0
    while True:
        game = await play_until(h, humans, lambda g: g.over or g.deal.phase == "over", bids={})
        assert len(game.history) == played + 1
        played += 1
        if game.over:
            break
        over = f"deal {played}/3 is over"
        await emu.wait_for(lambda o=over: o in shown(h), 10, "the deal's standings")
        assert "Standings" in h.table_message().text
        deal = game.deal.deal_no
        await emu.click("alice", h.table_message(), custom_id=button_id(h, "next"))
        await emu.wait_for(lambda d=deal: h.game().deal.deal_no > d, 10, "the next deal")
    assert played == 3
    # each deal gets its own message; the earlier ones keep their result (DESIGN, R-M1)
    moved = [m for m in emu.channel_messages() if m.content.startswith("This round is over")]
    assert len(moved) >= 2
    assert all(not m.components for m in moved)
    assert any("deal 1/3 is over" in m.text for m in moved)
    await emu.wait_for(lambda: "the match is over (3 deals)" in shown(h), 10, "the end")
    final = h.table_message()
    totals = game.cumulative
    assert sum(totals) == 0  # T-M3
    winner = totals.index(max(totals))
    names = ["alice", "AI 1", "AI 2"]
    assert (
        names[winner] in final.embeds[0]["fields"][-1]["value"]
    )  # the winner, by the highest total
    assert h.sql("SELECT status FROM matches")[0]["status"] == "finished"
    assert len(h.sql("SELECT * FROM rounds")) == 3
    # the season's tarot board: alice's match is recorded, won iff she had the highest total
    await emu.wait_for(lambda: h.sql("SELECT * FROM season_matches"), 10, "the season record")
    rows = h.sql("SELECT * FROM season_players WHERE game = 'tarot'")
    assert [r["matches"] for r in rows] == [1]
    assert rows[0]["wins"] == int(totals[0] == max(totals))
    board = await emu.slash("alice", "tarot leaderboard")
    assert "alice" in board.text
    card = await emu.slash("alice", "tarot stats")
    assert "alice" in card.text
    export = await emu.slash(
        "alice", "cardsadmin season export", game="tarot"
    )  # alice has Manage Server
    (csv,) = [a for m in export.messages for a in m.attachments]
    assert csv.filename.startswith("tarot-season-") and b"alice" in csv.data
    # rematch: the same seats at a new table
    await emu.click("alice", final, "Rematch")
    await h.shows("deal 1/3")
    assert len(h.sql("SELECT * FROM matches")) == 2
