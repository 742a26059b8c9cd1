"""Issue 10 "Nothing lost, nothing shown too long", through the emulator with the real bot:
restarts, stale and misplaced clicks, range checks, what players read.

Members: alice (en-US, Manage Server), bob and carol (French), dave (en-GB), erin (en-US);
the guild's preferred locale is en-US and no server language is stored.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tamalou.core import cards
from tests.bot_harness import BotHarness, find_seed, open_table, peek_all
from tests.emulator import Emulator, Interaction, Message

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


async def click_seen_before(h: BotHarness, user: str, custom_id: str, on: Message) -> Interaction:
    """A press on a button the member saw on ``on`` before it was edited: Discord sends the
    old custom_id with the message as it is now."""
    emu = h.emu
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
    inter = emu._new_interaction(
        3, emu.member(user), emu.channel(None), custom_id, data, locale=None, at=None, message=on
    )
    return await emu._send(inter, True, 10.0)


def custom_id_of(message: Message, label: str) -> str:
    return str(message.button(label).custom_id)


async def test_every_click_is_answered_even_on_a_button_the_message_no_longer_has(
    harness: BotHarness,
) -> None:
    """A Double button of a discard that has changed since (its custom_id names the old
    discard) was dropped by discord.py: "This interaction failed". It gets an answer."""
    h, emu = harness, harness.emu
    await h.start(seeds=[plain_first_turn(2)])
    await open_table(h, ["alice", "bob"])
    await peek_all(h, ["alice", "bob"])
    old_double = custom_id_of(h.table_message(), "Double 1")
    await emu.click("alice", h.table_message(), "Draw")
    await emu.click("alice", emu.last_ephemeral("alice"), "Throw it")
    table = h.table_message()
    assert custom_id_of(table, "Double 1") != old_double
    before = h.actions()
    await click_seen_before(h, "bob", old_double, table)
    assert "Ce bouton a changé" in emu.last_ephemeral("bob").content
    assert h.actions() == before
