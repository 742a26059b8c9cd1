"""Issue 10 "Nothing lost, nothing shown too long", through the emulator with the real bot:
restarts, stale and misplaced clicks, range checks, what players read.

Members: alice (en-US, Manage Server), bob and carol (French), dave (en-GB), erin (en-US);
the guild's preferred locale is en-US and no server language is stored.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tamalou.core import cards
from tests.bot_harness import BotHarness, find_seed, open_table, peek_all
from tests.emulator import Emulator

pytestmark = pytest.mark.e2e

FACES = ("J", "Q", "K")


@pytest.fixture
async def harness(emulator: Emulator, tmp_path: Path) -> BotHarness:
    return BotHarness(emulator, tmp_path)


def plain_first_turn(players: int) -> str:
    return find_seed(
        players,
        lambda g: g.round.first_player == 0 and cards.rank(g.round.pile[-1]) not in FACES,
    )


async def test_a_restart_keeps_the_servers_language_when_timers_render_before_the_guild_is_known(
    harness: BotHarness,
) -> None:
    """The scheduler ticks as soon as the tables are loaded, before the guild's GUILD_CREATE:
    the language of a guild with no stored setting is not guessed for good (was: French)."""
    h, emu = harness, harness.emu
    await h.start(seeds=[plain_first_turn(2)])
    await open_table(h, ["alice", "bob"])
    await peek_all(h, ["alice", "bob"])
    assert "to play" in h.table_message().text
    await emu.kill_bot()
    h.advance(45_100)  # alice's turn ran out while the bot was down: ticked at start-up
    await emu.start_bot("tests.e2e_bot", env=h.env)
    await emu.wait_for(lambda: "alice ran out of time" in h.table_message().text, 10, "the tick")
    await emu.settle()
    await emu.click("bob", h.table_message(), "Draw")  # and every later edit
    table = h.table_message()
    assert "bob drew from the pile" in table.text
    assert "Piocher" not in str(table.components) and "pioche" not in table.text
