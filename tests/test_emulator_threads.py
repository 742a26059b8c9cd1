"""The emulator speaks threads as Discord does (docs/topics/Threads.md, discord-api-spec's
``create_thread_from_message``), driven through the sample bot's real discord.py.

One emulator and one sample bot for the module; each test fails at teardown on any problem
it did not take.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from emulator import CommandNotAvailableError, Emulator, running_emulator
from emulator.model import (
    CREATE_PUBLIC_THREADS,
    HAS_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES_IN_THREADS,
    Message,
)
from tests.test_emulator import SAMPLE, api, sample_env

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Emulator]:
    log_dir = tmp_path_factory.mktemp("emulator-threads")
    async with running_emulator(log_dir=log_dir, check=False) as emu:
        await emu.start_bot(SAMPLE, env=sample_env(emu))
        yield emu


@pytest_asyncio.fixture(loop_scope="module")
async def emu(shared: Emulator) -> AsyncIterator[Emulator]:
    shared.take_problems()
    yield shared
    await shared.settle()
    shared.guild.denied.clear()
    shared.check()


async def started_thread(emu: Emulator) -> tuple[Message, int]:
    """``/demo thread``: the starter message (in #general) and the thread's id."""
    inter = await emu.slash("alice", "demo thread")
    starter = inter.response
    assert starter is not None
    thread = emu.thread_of(starter)
    assert thread is not None
    return starter, thread.id


async def test_a_thread_started_from_a_message_has_its_id_and_its_own_messages(
    emu: Emulator,
) -> None:
    inter = await emu.slash("alice", "demo thread")
    starter = inter.response
    assert starter is not None
    thread = emu.thread_of(starter)
    assert thread is not None
    general = emu.channel("general")
    # the thread and the message it was started from share the same id
    assert thread.id == starter.id and thread.type == PUBLIC_THREAD
    assert thread.parent_id == general.id and thread.owner_id == emu.bot_user.id
    assert thread.auto_archive_duration == 60 and not thread.archived
    assert starter.flags & HAS_THREAD
    # discord.py read the answer as a Thread of #general
    assert inter.followups[-1].content == f"thread={thread.id} parent={general.id} type=11"
    [created] = emu.requests_to("POST", f"/messages/{starter.id}/threads")
    assert created.status == 201 and created.response["thread_metadata"]["archived"] is False
    # the thread's messages carry its id as channel_id, and stay out of the channel
    [in_thread] = emu.channel_messages(thread)
    assert in_thread.content == "in the thread" and in_thread.channel_id == thread.id
    assert in_thread not in emu.channel_messages(general)
    assert emu.threads(general)[-1] is thread
    # THREAD_CREATE reached discord.py's cache
    listing = await emu.slash("bob", "demo threads")
    assert f"demo thread:{thread.id}" in listing.response.content  # type: ignore[union-attr]


async def test_a_click_in_a_thread_comes_from_the_thread(emu: Emulator) -> None:
    _, thread_id = await started_thread(emu)
    [in_thread] = emu.channel_messages(thread_id)
    click = await emu.click("bob", in_thread, "Count")
    assert click.channel_id == thread_id
    channel = click.payload["channel"]
    assert channel["type"] == PUBLIC_THREAD and channel["parent_id"] == str(
        emu.channel("general").id
    )
    assert "thread_metadata" in channel
    assert emu.message(in_thread.id).content == "count=1"


async def test_an_archived_thread_refuses_posts_and_edits(emu: Emulator) -> None:
    inter = await emu.slash("alice", "demo thread", archive=True)
    assert inter.followups[-1].content == "archived: 400 50083"
    thread = emu.thread_of(inter.response)  # type: ignore[arg-type]
    assert thread is not None and thread.archived
    [in_thread] = emu.channel_messages(thread)
    status, _, body = await api(
        emu, "POST", f"/channels/{thread.id}/messages", json={"content": "hello?"}
    )
    assert status == 400 and body == {"code": 50083, "message": "Thread is archived"}
    status, _, body = await api(
        emu, "PATCH", f"/channels/{thread.id}/messages/{in_thread.id}", json={"content": "x"}
    )
    assert status == 400 and isinstance(body, dict) and body["code"] == 50083
    # renaming an archived thread is refused too; only unarchiving it is allowed
    status, _, body = await api(emu, "PATCH", f"/channels/{thread.id}", json={"name": "new"})
    assert status == 400 and isinstance(body, dict) and body["code"] == 50083
    # THREAD_UPDATE reached discord.py: an archived thread leaves its cache
    listing = await emu.slash("bob", "demo threads")
    assert f":{thread.id}" not in listing.response.content  # type: ignore[union-attr]
    with pytest.raises(CommandNotAvailableError):
        await emu.slash("bob", "demo hello", channel=thread)
    # the bot, who started it, may unarchive it (not locked) and post again
    status, _, body = await api(emu, "PATCH", f"/channels/{thread.id}", json={"archived": False})
    assert status == 200 and isinstance(body, dict)
    assert body["thread_metadata"]["archived"] is False
    status, _, _ = await api(emu, "POST", f"/channels/{thread.id}/messages", json={"content": "ok"})
    assert status == 200


async def test_a_locked_thread_stays_closed_to_the_bot(emu: Emulator) -> None:
    _, thread_id = await started_thread(emu)
    # locking takes MANAGE_THREADS, which the bot's role lacks
    status, _, body = await api(emu, "PATCH", f"/channels/{thread_id}", json={"locked": True})
    assert status == 403 and isinstance(body, dict) and body["code"] == 50013
    await emu.archive_thread(thread_id, locked=True)  # a moderator
    status, _, body = await api(emu, "PATCH", f"/channels/{thread_id}", json={"archived": False})
    assert status == 403 and isinstance(body, dict) and body["code"] == 50013
    [in_thread] = emu.channel_messages(thread_id)
    status, _, body = await api(
        emu, "DELETE", f"/channels/{thread_id}/messages/{in_thread.id}"
    )  # deleting is allowed in an archived thread, unless it is locked
    assert status == 400 and isinstance(body, dict) and body["code"] == 50083


async def test_starting_threads_follows_discord_rules(emu: Emulator) -> None:
    starter, thread_id = await started_thread(emu)
    general = emu.channel("general")
    route = f"/channels/{general.id}/messages/{starter.id}/threads"
    status, _, body = await api(emu, "POST", route, json={"name": "again"})
    assert status == 400 and isinstance(body, dict) and body["code"] == 160004
    [in_thread] = emu.channel_messages(thread_id)
    status, _, body = await api(
        emu, "POST", f"/channels/{thread_id}/messages/{in_thread.id}/threads", json={"name": "x"}
    )
    assert status == 400 and isinstance(body, dict) and body["code"] == 50024
    post = await api(emu, "POST", f"/channels/{general.id}/messages", json={"content": "m"})
    assert post[0] == 200 and isinstance(post[2], dict)
    fresh = f"/channels/{general.id}/messages/{post[2]['id']}/threads"
    status, _, body = await api(emu, "POST", fresh, json={"name": "n", "auto_archive_duration": 5})
    assert status == 400 and isinstance(body, dict) and body["code"] == 50035
    status, _, body = await api(emu, "POST", fresh, json={"name": "n" * 101})
    assert status == 400 and isinstance(body, dict) and body["code"] == 50035
    assert len(emu.take_problems("rejected")) == 2  # malformed bodies are the bot's bugs


async def test_thread_permissions_are_read_from_the_bot_and_told_to_interactions(
    emu: Emulator,
) -> None:
    _, thread_id = await started_thread(emu)
    general = emu.channel("general")
    emu.deny_bot(CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS)
    post = await api(emu, "POST", f"/channels/{general.id}/messages", json={"content": "m"})
    assert post[0] == 200 and isinstance(post[2], dict)  # SEND_MESSAGES is still there
    route = f"/channels/{general.id}/messages/{post[2]['id']}/threads"
    status, _, body = await api(emu, "POST", route, json={"name": "n"})
    assert status == 403 and isinstance(body, dict) and body["code"] == 50013
    status, _, body = await api(
        emu, "POST", f"/channels/{thread_id}/messages", json={"content": "x"}
    )  # SEND_MESSAGES has no effect in threads
    assert status == 403 and isinstance(body, dict) and body["code"] == 50013
    inter = await emu.slash("bob", "demo when", wait=False)
    perms = int(inter.payload["app_permissions"])
    assert not perms & CREATE_PUBLIC_THREADS and not perms & SEND_MESSAGES_IN_THREADS
    await emu.handled(inter)
    emu.allow_bot(CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS)
    status, _, _ = await api(emu, "POST", route, json={"name": "n"})
    assert status == 201


async def test_a_thread_deleted_by_a_moderator_is_gone(emu: Emulator) -> None:
    _, thread_id = await started_thread(emu)
    await emu.delete_thread(thread_id)
    assert emu.channel_messages(thread_id) == []
    status, _, body = await api(emu, "GET", f"/channels/{thread_id}")
    assert status == 404 and isinstance(body, dict) and body["code"] == 10003
    status, _, body = await api(
        emu, "POST", f"/channels/{thread_id}/messages", json={"content": "x"}
    )
    assert status == 404 and isinstance(body, dict) and body["code"] == 10003
    listing = await emu.slash("bob", "demo threads")  # THREAD_DELETE reached discord.py
    assert f":{thread_id}" not in listing.response.content  # type: ignore[union-attr]


async def test_guild_create_carries_the_active_threads_only(emu: Emulator) -> None:
    _, open_id = await started_thread(emu)
    _, closed_id = await started_thread(emu)
    await emu.archive_thread(closed_id)
    threads = [t["id"] for t in emu.guild_payload(full=True)["threads"]]
    assert str(open_id) in threads and str(closed_id) not in threads
