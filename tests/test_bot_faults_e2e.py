"""Issue 23 "The faults real Discord brings", through the emulator with the real bot: every
answer truthful, every secret hidden, no channel held.

Members: alice (en-US, Manage Server), bob and carol (French), dave (en-GB), erin (en-US).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot_harness import BotHarness
from tests.emulator import Emulator
from tests.emulator.model import SEND_MESSAGES

pytestmark = pytest.mark.e2e


@pytest.fixture
async def harness(emulator: Emulator, tmp_path: Path) -> BotHarness:
    return BotHarness(emulator, tmp_path)


def table_posts(emu: Emulator) -> list[str]:
    return [m.text for m in emu.channel_messages() if m.embeds]


@pytest.mark.one_backend
async def test_a_lobby_the_bot_may_not_post_is_refused_by_name_and_never_holds_the_channel(
    harness: BotHarness,
) -> None:
    """``/tamalou new`` where the bot lacks Send Messages names what is missing and opens
    nothing; where Discord refuses the post anyway (403 50013), the channel is freed and
    the host is told so; the next ``/tamalou new`` opens a table there."""
    h, emu = harness, harness.emu
    await h.start()
    roles = emu.guild.roles
    kept = [r.permissions for r in roles]
    for role in roles:
        role.permissions &= ~SEND_MESSAGES
    await emu.slash("alice", "tamalou new")
    answer = emu.last_ephemeral("alice").content
    assert "Send Messages" in answer and "is open" not in answer
    assert table_posts(emu) == []
    for role, perms in zip(roles, kept, strict=True):
        role.permissions = perms

    channel = emu.channel()
    emu.fail_next("POST", f"/channels/{channel.id}/messages", 403, 50013, "Missing Permissions")
    await emu.slash("alice", "tamalou new")
    answer = emu.last_ephemeral("alice").content
    assert "could not post" in answer and "is open" not in answer
    assert table_posts(emu) == []

    await emu.slash("alice", "tamalou new")  # the channel is free
    assert "is open" in emu.last_ephemeral("alice").content
    assert "Join" in str(h.table_message().components)


@pytest.mark.one_backend
async def test_a_table_message_a_moderator_deletes_is_posted_again_at_once(
    harness: BotHarness,
) -> None:
    """The table message deleted (MESSAGE_DELETE) was posted again only at the table's next
    change; it comes back at once, while nothing happens at the table."""
    h, emu = harness, harness.emu
    await h.start()
    await emu.slash("alice", "tamalou new")
    await emu.click("bob", h.table_message(), "Join")
    lobby = h.table_message()
    await emu.delete_message(lobby)
    await emu.wait_for(
        lambda: any(
            m.id != lobby.id and "Join" in str(m.components) for m in emu.channel_messages()
        ),
        5,
        "the lobby posted again",
    )
    again = h.table_message()
    assert again.id != lobby.id and "bob" in again.text
    await emu.click("carol", again, "Join")  # and it is the table's message now
    assert "carol" in h.table_message().text and h.table_message().id == again.id
