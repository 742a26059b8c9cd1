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

from bot.storage import MatchRow
from bot.tables import LiveTable, MatchSeat
from bot.ui.presenter import DiscordPresenter
from tamalou.games.tamalou import actions as A
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
        self.config = type(
            "C",
            (),
            {
                "edit_interval_ms": interval_ms,
                "ping_after_s": 10.0,
                "answer_deadline_ms": 1500,
                "threads": False,
            },
        )()
        self.service = type("S", (), {"lobby_timeout_ms": 600_000, "clock": lambda self: 0})()
        self.messages: dict[int, int | None] = {}

        class Storage:
            async def set_table_message(_, table_id: int, message_id: int | None) -> None:
                self.messages[table_id] = message_id

            async def guild_settings(_, guild_id: int) -> dict[str, Any]:
                return {}

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
    bot, presenter, table = setup(interval_ms=1000)  # a busy machine's render fits in it
    await presenter.table_changed(table, at_once=True)  # the table message, with buttons
    await presenter.table_changed(table)  # coalesced: an edit waits for its turn
    assert table.id in presenter._pending
    table.row.status = "cancelled"
    await presenter.table_closed(table, "cancelled")
    await asyncio.sleep(1.2)  # past the coalescing interval
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


async def test_a_table_edit_that_would_change_nothing_is_not_sent() -> None:
    """Issue 25: the table drawn again in the very state its message shows costs no REST
    call; a change is drawn; a message posted again (deleted) is edited again."""
    bot, presenter, table = setup(interval_ms=0)
    await presenter.table_changed(table, at_once=True)  # posted
    calls: list[int] = []

    class Http:
        async def edit_message(self, channel_id: int, mid: int, *, params: Any) -> Any:
            calls.append(mid)
            return {"id": str(mid)}

    bot.http = Http()  # type: ignore[assignment]
    await presenter.table_changed(table, at_once=True)
    await presenter.table_changed(table, at_once=True)  # the same state: not sent
    assert len(calls) == 1
    game = table.game
    assert game is not None
    table.module.apply(game, A.Draw(game.round.current, 0))  # the table shows the draw
    await presenter.table_changed(table, at_once=True)
    await presenter.table_changed(table, at_once=True)
    assert len(calls) == 2
    message_id = table.row.message_id
    assert message_id is not None
    bot.service.by_channel = {table.row.channel_id: table.id}  # type: ignore[attr-defined]
    bot.service.tables = {table.id: table}  # type: ignore[attr-defined]
    await presenter.message_deleted(table.row.channel_id, message_id)  # posted again
    await presenter.table_changed(table, at_once=True)  # the new message: edited again
    assert len(calls) == 3 and calls[-1] == table.row.message_id != message_id


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
    assert await presenter.nudges.wants_ping(1, 7) is False
    assert await presenter.nudges.wants_ping(1, 7) is False
    assert await presenter.nudges.wants_ping(1, 8) is True  # never chosen: on
    assert reads == [(1, 7), (1, 8)]
    presenter.nudges.ping_choice(1, 7, True)
    assert await presenter.nudges.wants_ping(1, 7) is True and len(reads) == 2
    release.clear()
    in_flight = asyncio.create_task(presenter.nudges.wants_ping(2, 7))  # reads "on" (no row)
    await asyncio.sleep(0)
    presenter.nudges.ping_choice(2, 7, False)  # the member says no meanwhile
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

    presenter.desk._edit_panel = edit_panel  # type: ignore[method-assign,assignment]
    await presenter.desk.show(Deferred(log), table, 0, "en", edit=False)  # type: ignore[arg-type]
    kinds = [k for k, _ in log]
    assert kinds == ["post", "store", "edit"], log
    posted, shown = log[0][1], log[2][1]
    assert "2♥" not in posted and "5♥" not in posted  # nothing secret before the store
    assert "2♥" in shown and "5♥" in shown  # then the peeked cards (R-S2)
    for task in list(presenter.desk._tasks):
        task.cancel()


async def test_a_table_edit_discord_refuses_is_one_warning_line_and_a_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 23: a table edit under Missing Permissions or an outage was an ERROR with its
    traceback at every change; it is one WARNING line naming the table and the cause."""
    from bot.ui.kit import FAULTS

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


# -- turn pings are nudges (issue 22) ---------------------------------------------------------


class PingBot:
    """A bot whose clock the test moves, recording the pings posted and deleted."""

    def __init__(self, ping_after_s: float = 10.0, stored: dict[str, Any] | None = None) -> None:
        self.now = 0
        self.allowed_mentions = None
        self.config = type(
            "C",
            (),
            {"edit_interval_ms": 0, "ping_after_s": ping_after_s, "answer_deadline_ms": 1500},
        )()
        bot = self
        self.service = type("S", (), {"clock": lambda _: bot.now})()
        self.posted: list[tuple[int, str]] = []
        self.deleted: list[int] = []
        self.edited: list[tuple[int, str]] = []
        self.ids = itertools.count(500)
        self.kept: list[Any] = []
        #: set by a test: a post waits for it once Discord made the message (a slow answer)
        self.answer: asyncio.Event | None = None

        class Http:
            async def send_message(_, channel_id: int, *, params: Any) -> dict[str, Any]:
                mid = next(bot.ids)
                bot.posted.append((mid, params.payload["content"]))
                if bot.answer is not None:
                    await bot.answer.wait()
                return {"id": str(mid)}

            async def delete_message(_, channel_id: int, message_id: int) -> None:
                bot.deleted.append(message_id)

            async def edit_message(_, channel_id: int, message_id: int, *, params: Any) -> None:
                bot.edited.append((message_id, params.payload["content"]))

        class Storage:
            async def guild_settings(_, guild_id: int) -> dict[str, Any]:
                return dict(stored or {})

            async def fetchval(_, *args: Any) -> Any:
                return None  # nobody turned pings off

            async def execute(_, query: str, *args: Any) -> None:
                bot.kept.append((query.split()[0], args))

        self.http = Http()
        self.storage = Storage()

    async def guild_language(self, guild_id: int | None) -> str:
        return "en"


class Turns:
    """A game plugin whose turn the test sets: (seat, key)."""

    def __init__(self) -> None:
        self.turn: Any = (0, (1, 0))
        self.since: int | None = None  # the turn's start on the game's clock, if it says

    def turn_of(self, table: LiveTable, at: int) -> Any:
        return self.turn

    def turn_since(self, table: LiveTable) -> int | None:
        return self.since


def nudging(
    monkeypatch: Any, **bot_args: Any
) -> tuple[PingBot, DiscordPresenter, LiveTable, Turns]:
    bot = PingBot(**bot_args)
    turns = Turns()
    monkeypatch.setattr("bot.ui.presenter.games.plugin", lambda game_id: turns)
    table = live_table(forced_game(ROWS))
    table.match = MatchRow(
        1, table.id, 1, "s", {}, [s.to_dict() for s in seats_of(table)], 0, None, "playing"
    )
    return bot, DiscordPresenter(bot), table, turns  # type: ignore[arg-type]


def seats_of(table: LiveTable) -> list[MatchSeat]:
    return [MatchSeat(s.user_id, s.name, s.ai_level) for s in table.seats]


async def nudged(presenter: DiscordPresenter) -> None:
    """Until every watched turn's timer has done its check (its naps are up to 1 s)."""
    for _ in range(300):
        if all(n.timer is None or n.timer.done() for n in presenter.nudges._pings.values()):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("a nudge did not finish")


async def later(bot: PingBot, ms: int) -> None:
    bot.now += ms
    await asyncio.sleep(0.05)  # the nudge's nap sees the new time


async def test_a_player_who_plays_at_once_is_never_pinged(monkeypatch: Any) -> None:
    bot, presenter, table, turns = nudging(monkeypatch)
    await presenter.nudges.watch(table)  # seat 0's turn starts
    await later(bot, 2_000)
    table.acted[100] = bot.now  # seat 0 moves after 2 s
    turns.turn = (1, (1, 1))  # and the turn passes
    await presenter.nudges.watch(table)
    await later(bot, 9_000)
    assert bot.posted == [] and bot.deleted == []
    await presenter.stop()


async def test_a_slow_player_is_pinged_once_after_the_default_ten_seconds(
    monkeypatch: Any,
) -> None:
    bot, presenter, table, _ = nudging(monkeypatch)
    await presenter.nudges.watch(table)
    await later(bot, 9_900)
    assert bot.posted == []  # not before 10 s
    await later(bot, 200)
    await nudged(presenter)
    assert bot.posted == [(500, "<@100>, your turn at table 7.")]
    await presenter.nudges.watch(table)  # the table is drawn again: the same turn
    await later(bot, 30_000)
    assert len(bot.posted) == 1 and bot.deleted == []  # once, and kept while they wait
    table.acted[100] = bot.now  # they move (their turn goes on)
    await presenter.nudges.watch(table)
    assert bot.deleted == [500]
    await later(bot, 30_000)
    assert len(bot.posted) == 1  # never again for that turn
    await presenter.stop()


async def test_a_turn_seen_late_is_pinged_ten_seconds_after_its_start(monkeypatch: Any) -> None:
    """The wait counts from the turn's start the game gives (``turn_since``), not from the
    drawing that showed it: a drawing 6 s late leaves 4 s, not 10."""
    bot, presenter, table, turns = nudging(monkeypatch)
    turns.since = bot.now
    await later(bot, 6_000)  # the table's drawing of the turn was held this long
    await presenter.nudges.watch(table)
    await later(bot, 3_900)
    assert bot.posted == []
    await later(bot, 200)
    await nudged(presenter)
    assert len(bot.posted) == 1
    await presenter.stop()


async def test_a_turn_that_ends_while_its_ping_is_posted_still_gets_it_deleted(
    monkeypatch: Any,
) -> None:
    """The turn's end cancelled its timer even in the middle of the ping's post: Discord
    made the message, the bot never learnt its id, and the mention stayed (a Kalooki table
    cancelled right after a restart, in a full run). The post is let finish, then deleted."""
    bot, presenter, table, turns = nudging(monkeypatch, ping_after_s=1.0)
    bot.answer = asyncio.Event()
    await presenter.nudges.watch(table)
    await later(bot, 1_100)
    for _ in range(100):  # until Discord made it; its answer is held
        if bot.posted:
            break
        await asyncio.sleep(0.01)
    (posted,) = bot.posted
    turns.turn = None  # the table is cancelled: no turn any more
    await presenter.nudges.watch(table)
    bot.answer.set()
    await nudged(presenter)
    for _ in range(100):
        if bot.deleted:
            break
        await asyncio.sleep(0.01)
    assert bot.deleted == [posted[0]]
    await presenter.stop()


async def test_the_ping_goes_when_the_turn_ends_and_follows_the_servers_delay(
    monkeypatch: Any,
) -> None:
    bot, presenter, table, turns = nudging(monkeypatch, stored={"ping_after_s": 30})
    await presenter.nudges.watch(table)
    await later(bot, 20_000)
    assert bot.posted == []  # the server waits 30 s
    await later(bot, 10_100)
    await nudged(presenter)
    assert [p[0] for p in bot.posted] == [500]
    table.acted[200] = bot.now  # the other player's move is not theirs
    turns.turn = (1, (1, 1))  # the clock played for them: the turn is over
    await presenter.nudges.watch(table)
    # not deleted: Discord's notification would lead nowhere; it says what happened
    assert bot.deleted == []
    assert bot.edited == [(500, "<@100>, your turn at table 7 ran out: the bot played for you.")]
    await later(bot, 1_000)
    await presenter.nudges.watch(table)
    assert bot.deleted == []  # kept until they act
    table.acted[100] = bot.now
    await presenter.nudges.watch(table)
    assert bot.deleted == [500]
    await presenter.stop()


async def test_a_lapsed_ping_goes_when_its_member_is_pinged_again(monkeypatch: Any) -> None:
    """The thread does not collect a member's lapsed pings: their next ping replaces it."""
    bot, presenter, table, turns = nudging(monkeypatch, ping_after_s=1.0)
    await presenter.nudges.watch(table)
    await later(bot, 1_100)
    await nudged(presenter)
    turns.turn = (1, (1, 1))  # seat 0's turn ran out
    await presenter.nudges.watch(table)
    assert [e[0] for e in bot.edited] == [500]
    turns.turn = (0, (2, 0))  # seat 0 again, still away from the keyboard (seat 1 was quick)
    await presenter.nudges.watch(table)
    await later(bot, 1_100)
    await nudged(presenter)
    assert [p[0] for p in bot.posted] == [500, 501]
    assert bot.deleted == [500]
    await presenter.stop()


async def test_no_ping_for_an_ai_seat_nor_a_player_away(monkeypatch: Any) -> None:
    bot, presenter, table, turns = nudging(monkeypatch, ping_after_s=1.0)
    table.game.round.seats[0].away = True
    await presenter.nudges.watch(table)
    await later(bot, 5_000)
    await nudged(presenter)
    table.game.round.seats[0].away = False
    assert table.match is not None
    table.match.seats[1]["ai_level"] = "easy"
    turns.turn = (1, (1, 1))  # an AI's turn
    await presenter.nudges.watch(table)
    await later(bot, 5_000)
    await nudged(presenter)
    assert bot.posted == []
    await presenter.stop()
