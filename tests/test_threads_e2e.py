"""Each table in its own thread (issue 22), through the emulator: the lobby in the channel,
the match in the thread started from it, the channel keeping a summary, the thread archived
at the end, the channel as the fallback, a restart in the same thread, and a thread a
moderator took away replaced."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from emulator.model import CREATE_PUBLIC_THREADS, Channel, Message
from tamalou.core import cards
from tamalou.games.tamalou.rules import TAMALOU
from tamalou.games.tamalou.state import Game
from tests.support.bot_harness import BotHarness, find_seed, open_table, peek_all
from tests.support.shared_bot import SharedBot

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

FACES = ("J", "Q", "K")
THREADS = {"TAMALOU_THREADS": "1", "TAMALOU_PING_AFTER_S": "1"}


@pytest_asyncio.fixture(loop_scope="module")
async def harness(shared_bot: SharedBot) -> AsyncIterator[BotHarness]:
    """A guild of its own on the bot the module's tests share."""
    async with shared_bot.scene() as h:
        yield h


def quick_match() -> str:
    """A two-player deal where alice's call wins the match to 10 at once (R-A2, R-M2)."""
    value = TAMALOU.compiled.value

    def wanted(g: Game) -> bool:
        r = g.round
        low, high = (sum(value[c] for c in s.row) for s in r.seats)
        return r.first_player == 0 and low <= 5 < 10 < high and cards.rank(r.pile[-1]) not in FACES

    return find_seed(2, wanted)


def the_thread(h: BotHarness) -> Channel:
    (thread,) = h.emu.threads("general")
    return thread


def summary_of(h: BotHarness, lobby: Message) -> Message:
    return h.emu.message(lobby.id)


def summary(h: BotHarness) -> Message:
    (only,) = h.emu.channel_messages("general")  # the channel keeps the lobby, nothing else
    return only


async def test_a_tamalou_table_plays_in_its_thread_and_the_channel_keeps_a_summary(
    harness: BotHarness,
) -> None:
    h, emu = harness, harness.emu
    await h.start(seeds=[quick_match()], **THREADS)
    await emu.slash("alice", "tamalou new", target=10)
    lobby = emu.last_message("general")
    thread = the_thread(h)
    assert thread.id == lobby.id and thread.parent_id == emu.channel("general").id
    assert lobby.button("Join") is not None  # the lobby stays in the channel
    await emu.click("bob", lobby, "Join")
    await emu.click("alice", lobby, "Start")
    table = h.table_message()
    assert table.channel_id == thread.id
    assert summary(h).id == lobby.id and not lobby.buttons()
    assert "alice, bob" in lobby.text and f"<#{thread.id}>" in lobby.text
    await peek_all(h, ["alice", "bob"])
    await emu.wait_for(lambda: [m for m in emu.channel_messages(thread) if m.mentions], 10, "ping")
    (ping,) = [m for m in emu.channel_messages(thread) if m.mentions]  # in the thread
    assert ping.mentions == [emu.member("alice").id]
    await emu.click("alice", h.table_message(), "Tamalou!")
    await emu.click("bob", h.table_message(), "Draw")
    await emu.click("bob", h.panel("bob"), "Jeter")
    h.advance(5_100)
    await emu.wait_for(lambda: thread.archived, 10, "the thread archived at the match end")
    final = h.table_message()
    assert final.channel_id == thread.id and "match is over" in final.text
    assert "Won by" in summary(h).text and summary(h).button("Rematch") is not None
    assert emu.channel_messages(thread) and not [
        m for m in emu.channel_messages(thread) if m.mentions
    ]
    assert all(m.channel_id == thread.id for m in emu.channel_messages(thread))
    # Rematch, from the summary: the new match gets its own thread, unless Discord refuses
    # it (a 403 on the thread route): then it plays in the channel
    emu.deny_bot(CREATE_PUBLIC_THREADS)
    await emu.click("bob", summary_of(h, lobby), "Rematch")
    await emu.wait_for(
        lambda: h.table_message().channel_id == emu.channel("general").id, 10, "the rematch"
    )
    refused = emu.requests_to("POST", "/threads")[-1]
    assert refused.status == 403 and emu.threads("general") == [thread]
    assert [m.id for m in emu.channel_messages("general")] == [lobby.id, h.table_message().id]
    # the press is told why, in one line and its language, as /tamalou new tells its host
    await emu.wait_for(
        lambda: any("se joue dans ce salon" in (m.content or "") for m in emu.ephemerals("bob")),
        10,
        "the rematch's line",
    )


async def test_a_cancelled_lobby_archives_its_thread(harness: BotHarness) -> None:
    h, emu = harness, harness.emu
    await h.start(**THREADS)
    await emu.slash("alice", "tamalou new")
    thread = the_thread(h)
    await emu.slash("alice", "tamalou cancel")
    await emu.wait_for(lambda: thread.archived, 10, "the thread archived")
    assert "cancelled" in summary(h).text


async def test_without_thread_permissions_the_table_plays_in_the_channel(
    harness: BotHarness,
) -> None:
    h, emu = harness, harness.emu
    emu.deny_bot(CREATE_PUBLIC_THREADS)
    await h.start(**THREADS)
    await emu.slash("alice", "tamalou new")
    assert emu.threads("general") == []
    assert "plays in this channel" in emu.last_ephemeral("alice").content
    await emu.click("bob", h.table_message(), "Join")
    await emu.click("alice", h.table_message(), "Start")
    assert h.table_message().channel_id == emu.channel("general").id
    # no POST on the thread route: the interaction's app_permissions said no
    assert not emu.requests_to("POST", "/threads")


async def test_a_restart_goes_on_in_the_same_thread(harness: BotHarness) -> None:
    h, emu = harness, harness.emu
    await h.start(**THREADS)
    await open_table(h, ["alice", "bob"])
    thread = the_thread(h)
    table = h.table_message()
    await h.restart()
    await emu.click("alice", h.table_message(), "My cards")
    assert h.table_message().id == table.id and table.channel_id == thread.id
    await emu.slash("bob", "tamalou hand", channel=thread)  # a command in the thread
    assert (
        "Your cards" in emu.last_ephemeral("bob").content
        or "Vos cartes" in emu.last_ephemeral("bob").content
    )
    assert emu.threads("general") == [thread]


async def test_a_thread_a_moderator_deletes_mid_match_gets_the_table_posted_again(
    harness: BotHarness,
) -> None:
    h, emu = harness, harness.emu
    await h.start(**THREADS)
    await open_table(h, ["alice", "bob"])
    first = the_thread(h)
    await emu.delete_thread(first)
    await emu.wait_for(
        lambda: len(emu.threads("general")) == 1 and emu.threads("general")[0] is not first,
        10,
        "a new thread",
    )
    second = emu.threads("general")[0]
    await emu.wait_for(lambda: emu.channel_messages(second), 10, "the table in the new thread")
    assert h.table_message().channel_id == second.id
    await peek_all(h, ["alice", "bob"])  # the match goes on


async def test_a_thread_a_moderator_archives_mid_match_gets_the_table_posted_again(
    harness: BotHarness,
) -> None:
    h, emu = harness, harness.emu
    await h.start(**THREADS)
    await open_table(h, ["alice", "bob"])
    first = the_thread(h)
    await emu.archive_thread(first, locked=True)
    await emu.wait_for(
        lambda: [t for t in emu.threads("general") if not t.archived], 10, "a new thread"
    )
    (second,) = [t for t in emu.threads("general") if not t.archived]
    await emu.wait_for(lambda: h.table_message().channel_id == second.id, 10, "the table again")
    # the summary the lost thread was started from linked to it: it links to the new one
    old_summary = emu.message(first.id)
    await emu.wait_for(lambda: f"<#{second.id}>" in emu.message(first.id).text, 10, "relinked")
    assert f"<#{first.id}>" not in emu.message(first.id).text and not old_summary.deleted
    await peek_all(h, ["alice", "bob"])
    await asyncio.sleep(0)


@pytest.mark.one_backend
async def test_a_server_may_keep_its_tables_out_of_threads(harness: BotHarness) -> None:
    h, emu = harness, harness.emu
    await h.start(**THREADS)
    await emu.slash("alice", "cardsadmin settings", threads=False)
    assert "tables in threads off" in emu.last_ephemeral("alice").content
    await open_table(h, ["alice", "bob"])
    assert emu.threads("general") == [] and not emu.requests_to("POST", "/threads")
    assert h.table_message().channel_id == emu.channel("general").id


async def test_a_french_dutch_tables_summary_names_its_variant_and_its_ai_in_french(
    harness: BotHarness,
) -> None:
    """The summary and the thread speak the server's language and name the variant (R-V):
    "Dutch — table 1", "IA 1 (moyen)" as in the thread, never "Tamalou" or "AI 1 (medium)"."""
    h, emu = harness, harness.emu
    await h.start(**THREADS)
    await emu.slash("alice", "cardsadmin settings", language="fr")
    await emu.slash("bob", "tamalou new", variant="dutch")
    await emu.slash("bob", "tamalou addbot")
    await emu.slash("bob", "tamalou start")
    thread = the_thread(h)
    await emu.wait_for(lambda: f"<#{thread.id}>" in summary(h).text, 10, "the summary")
    text = summary(h).text
    tid = h.table_id()
    assert summary(h).embeds[0]["title"] == f"Dutch — table {tid}"
    assert "Joueurs : bob, IA 1 (moyen)" in text and "AI 1" not in text
    assert "1. bob 0 · 1. IA 1 (moyen) 0" in text  # ranked; equal totals share a place
    assert thread.name == f"Dutch · table {tid}"
    assert h.table_message().embeds[0]["title"].startswith(f"Dutch — table {tid}")


async def test_new_says_the_table_plays_in_its_thread_and_ping_says_what_it_does(
    harness: BotHarness,
) -> None:
    """/tamalou new said "open in this channel" of a table that plays in a thread; /tamalou
    ping promised a ping "when your turn starts" (it comes after the server's wait)."""
    h, emu = harness, harness.emu
    await h.start(**THREADS)
    await emu.slash("alice", "tamalou new")
    thread = the_thread(h)
    said = emu.last_ephemeral("alice").content
    first = h.table_id()
    assert said.startswith(f"Table {first} is open: it plays in its thread <#{thread.id}>.")
    await emu.slash("alice", "tamalou ping", on=True)
    assert "when your turn has waited 1 s without your move" in emu.last_ephemeral("alice").content
    await emu.slash("bob", "tamalou ping", on=False)
    said = emu.last_ephemeral("bob").content
    assert said.startswith("Vous ne serez plus notifié quand votre tour vous attend")
    assert "commence" not in said
    await emu.slash("alice", "tamalou cancel")
    await emu.slash("bob", "tamalou new")
    (_, second) = emu.threads("general")
    said = emu.last_ephemeral("bob").content
    assert said.startswith(
        f"La table {first + 1} est ouverte : elle se joue dans son fil <#{second.id}>."
    )
