"""The presenter: coalesced table edits never redraw a closed table, per-table records are
pruned, and shutdown waits for the edits in flight."""

from __future__ import annotations

import asyncio
import itertools
import logging
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.tables import LiveTable
from bot.ui.presenter import DiscordPresenter
from tamalou.games.tamalou.scripted import forced_game
from tests.support.live_tables import FakeHttp, live_table

ROWS = [["2h", "3h", "4h", "5h"], ["2s", "3s", "4s", "5s"]]


@dataclass
class Sent:
    id: int


@dataclass
class Channel:
    """A channel that records every message version: (message id, has buttons, title)."""

    edits: list[tuple[int, bool, str]] = field(default_factory=list)
    slow: float = 0.0
    ids: Any = field(default_factory=lambda: itertools.count(1000))
    refuse: Exception | None = None  # every post answers it (a 403, a 5xx)
    refuse_edit: Exception | None = None  # every edit answers it

    async def send(self, embed: Any = None, view: Any = None, **_: Any) -> Sent:
        if self.refuse is not None:
            raise self.refuse
        sent = Sent(next(self.ids))
        self.edits.append((sent.id, bool(view and view.children), embed.title if embed else ""))
        return sent

    def get_partial_message(self, message_id: int) -> Any:
        channel = self

        class Partial:
            async def edit(self, embed: Any = None, view: Any = None, **_: Any) -> None:
                await asyncio.sleep(channel.slow)
                if channel.refuse_edit is not None:
                    raise channel.refuse_edit
                title = embed.title if embed else ""
                channel.edits.append((message_id, bool(view and view.children), title))

        return Partial()


class FakeBot:
    def __init__(self, interval_ms: int) -> None:
        self.channel = Channel()
        self.http = FakeHttp(self.channel)
        self.allowed_mentions = None
        self.config = type("C", (), {"edit_interval_ms": interval_ms, "answer_deadline_ms": 1500})()
        self.service = type("S", (), {"lobby_timeout_ms": 600_000, "clock": lambda self: 0})()
        self.messages: dict[int, int | None] = {}

        class Storage:
            async def set_table_message(_, table_id: int, message_id: int | None) -> None:
                self.messages[table_id] = message_id

        self.storage = Storage()

    def get_partial_messageable(self, channel_id: int, guild_id: int | None = None) -> Channel:
        return self.channel

    async def guild_language(self, guild_id: int | None) -> str:
        return "en"


def setup(interval_ms: int = 150) -> tuple[FakeBot, DiscordPresenter, LiveTable]:
    bot = FakeBot(interval_ms)
    presenter = DiscordPresenter(bot)  # type: ignore[arg-type]
    return bot, presenter, live_table(forced_game(ROWS))


async def test_cancel_drops_the_pending_edit_of_a_live_table() -> None:
    bot, presenter, table = setup()
    await presenter.table_changed(table, at_once=True)  # the table message, with buttons
    await presenter.table_changed(table)  # coalesced: an edit waits for its turn
    assert table.id in presenter._pending
    table.row.status = "cancelled"
    await presenter.table_closed(table, "cancelled")
    await asyncio.sleep(0.3)  # past the coalescing interval
    last = bot.channel.edits[-1]
    assert last[1] is False and "closed" in last[2].lower()  # no live buttons drawn again
    assert presenter.tracked() == set()


async def test_a_finished_table_leaves_no_record_behind() -> None:
    _, presenter, table = setup(interval_ms=0)
    await presenter.table_changed(table, at_once=True)
    table.row.status = "finished"
    await presenter.table_changed(table)
    assert presenter.tracked() == set()


async def test_shutdown_waits_for_an_edit_in_flight() -> None:
    bot, presenter, table = setup(interval_ms=50)
    await presenter.table_changed(table, at_once=True)
    bot.channel.slow = 0.2
    await presenter.table_changed(table)  # fires after 50 ms and takes 200 ms
    await asyncio.sleep(0.1)
    count = len(bot.channel.edits)
    await presenter.stop()
    assert len(bot.channel.edits) == count + 1  # the edit in flight finished
    assert not presenter._tasks
    await presenter.table_changed(table)  # after shutdown nothing more is drawn
    assert len(bot.channel.edits) == count + 1


async def test_a_table_edit_builds_no_message_from_discords_answer() -> None:
    """Issue 16: the edit goes through ``http.edit_message``; Discord's answer (the whole
    message) is not parsed into a ``discord.Message`` nobody reads."""
    bot, presenter, table = setup(interval_ms=0)
    await presenter.table_changed(table, at_once=True)  # posted
    message_id = bot.channel.edits[-1][0]
    calls: list[tuple[int, int, bool]] = []

    class Http:
        async def edit_message(self, channel_id: int, mid: int, *, params: Any) -> Any:
            calls.append((channel_id, mid, bool(params.payload["components"])))
            return {"id": str(mid), "components": params.payload["components"]}

    bot.http = Http()  # type: ignore[assignment]
    bot.channel.get_partial_message = None  # type: ignore[assignment,method-assign]
    await presenter.table_changed(table, at_once=True)
    assert calls == [(table.row.channel_id, message_id, True)]


async def test_a_members_ping_choice_is_read_once_and_follows_the_command() -> None:
    """Issue 16: the ``/tamalou ping`` choice is kept, not read at every turn; the command
    updates it, and a read in flight never overwrites a newer choice."""
    bot, presenter, _ = setup()
    reads: list[tuple[int, int]] = []
    stored = {(1, 7): False}
    release = asyncio.Event()

    async def fetchval(query: str, guild_id: int, user_id: int) -> Any:
        reads.append((guild_id, user_id))
        await release.wait()
        return stored.get((guild_id, user_id))

    bot.storage.fetchval = fetchval  # type: ignore[attr-defined]
    release.set()
    assert await presenter.wants_ping(1, 7) is False
    assert await presenter.wants_ping(1, 7) is False
    assert await presenter.wants_ping(1, 8) is True  # never chosen: on
    assert reads == [(1, 7), (1, 8)]
    presenter.ping_choice(1, 7, True)
    assert await presenter.wants_ping(1, 7) is True and len(reads) == 2
    release.clear()
    in_flight = asyncio.create_task(presenter.wants_ping(2, 7))  # reads "on" (no row)
    await asyncio.sleep(0)
    presenter.ping_choice(2, 7, False)  # the member says no meanwhile
    release.set()
    assert await in_flight is False


def http_error(status: int, code: int) -> discord.HTTPException:
    """Discord's refusal as discord.py raises it."""
    response: Any = SimpleNamespace(status=status, reason="refused")
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    return kind(response, {"code": code, "message": "refused"})


async def test_a_new_round_the_bot_may_not_post_goes_on_in_the_last_message() -> None:
    """Issue 23: a new round's post refused (403 50013) left the table with no message at
    all; the round is drawn in the last round's message instead, buttons and all."""
    bot, presenter, table = setup(interval_ms=0)
    await presenter.table_changed(table, at_once=True)
    first = bot.channel.edits[-1][0]
    bot.channel.refuse = http_error(403, 50013)
    await presenter.round_started(table)
    assert table.row.message_id == first
    assert bot.channel.edits[-1][:2] == (first, True)  # the table, live, in the old message
    bot.channel.refuse = None
    await presenter.round_started(table)  # the next round posts again
    assert table.row.message_id != first and bot.messages[table.id] == table.row.message_id


class Followups:
    def __init__(self, log: list[tuple[str, str]]) -> None:
        self.log = log
        self.ids = itertools.count(5000)

    async def send(self, text: str, **_: Any) -> Sent:
        self.log.append(("post", text))
        return Sent(next(self.ids))


class Deferred:
    """A click already acknowledged (the verbs defer before the move): a panel is a followup."""

    def __init__(self, log: list[tuple[str, str]]) -> None:
        self.token = "token"
        self.followup = Followups(log)
        self.response = SimpleNamespace(is_done=lambda: True)


async def test_a_timed_secrets_hide_is_stored_before_the_secret_is_shown() -> None:
    """Issue 23: a peek shown less than a moment before a kill was never hidden after the
    restart (its hide was stored after it was shown). A new panel is posted without the
    cards, its hide stored, and only then is it edited to show them."""
    from tamalou.games.tamalou import actions as A
    from tamalou.games.tamalou.engine import apply

    game = forced_game(ROWS, play=False)
    apply(game, A.Peek(0, 10))
    bot, presenter, _ = setup(interval_ms=0)
    table = live_table(game)
    log: list[tuple[str, str]] = []

    async def execute(sql: str, *args: Any) -> None:
        if "open_panels" in sql:
            log.append(("store", str(args[5])))

    bot.storage.execute = execute  # type: ignore[attr-defined]

    async def edit_panel(opened: Any, shown: Any) -> bool:
        log.append(("edit", shown.text))
        return True

    presenter._edit_panel = edit_panel  # type: ignore[method-assign]
    await presenter.show_panel(Deferred(log), table, 0, "en", edit=False)  # type: ignore[arg-type]
    kinds = [k for k, _ in log]
    assert kinds == ["post", "store", "edit"], log
    posted, shown = log[0][1], log[2][1]
    assert "2♥" not in posted and "5♥" not in posted  # nothing secret before the store
    assert "2♥" in shown and "5♥" in shown  # then the peeked cards (R-S2)
    for task in list(presenter._tasks):
        task.cancel()


async def test_a_table_edit_discord_refuses_is_one_warning_line_and_a_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 23: a table edit under Missing Permissions or an outage was an ERROR with its
    traceback at every change; it is one WARNING line naming the table and the cause."""
    from bot.ui.common import FAULTS

    bot, presenter, table = setup(interval_ms=0)
    await presenter.table_changed(table, at_once=True)
    before = FAULTS["table edit failed"]
    for error in (http_error(403, 50013), http_error(503, 0)):
        bot.channel.refuse_edit = error
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            await presenter.table_changed(table, at_once=True)
        assert [(r.levelno, r.exc_info) for r in caplog.records] == [(logging.WARNING, None)]
        assert f"table {table.id}" in caplog.records[0].getMessage()
    assert FAULTS["table edit failed"] == before + 2


async def test_a_rematch_the_bot_may_not_post_is_closed_unseen_and_said() -> None:
    """Issue 23: a rematch's first message refused (403 50013) left a table nobody could
    see holding the channel; it is cancelled unseen and the press answered ``not_posted``."""
    from bot.tables import TableError

    bot, presenter, table = setup(interval_ms=0)
    cancelled: list[tuple[int, str, bool]] = []

    async def cancel(t: LiveTable, reason: str, present: bool = True) -> None:
        cancelled.append((t.id, reason, present))

    bot.service.cancel = cancel  # type: ignore[attr-defined]
    bot.channel.refuse = http_error(403, 50013)
    with pytest.raises(TableError, match="not_posted"):
        await presenter.match_started(table)  # a rematch: no message yet
    assert cancelled == [(table.id, "not_posted", False)]
    assert presenter.tracked() == set()
    bot.channel.refuse = None
    await presenter.match_started(table)  # posted: a table that can be seen
    assert table.row.message_id is not None
