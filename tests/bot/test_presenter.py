"""The presenter: coalesced table edits never redraw a closed table, per-table records are
pruned, and shutdown waits for the edits in flight."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field
from typing import Any

from bot.storage import MatchRow
from bot.tables import LiveTable, MatchSeat
from bot.ui.presenter import DiscordPresenter
from tamalou.games.tamalou.scripted import forced_game
from tests.bot.helpers import FakeHttp, live_table

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

    async def send(self, embed: Any = None, view: Any = None, **_: Any) -> Sent:
        sent = Sent(next(self.ids))
        self.edits.append((sent.id, bool(view and view.children), embed.title if embed else ""))
        return sent

    def get_partial_message(self, message_id: int) -> Any:
        channel = self

        class Partial:
            async def edit(self, embed: Any = None, view: Any = None, **_: Any) -> None:
                await asyncio.sleep(channel.slow)
                title = embed.title if embed else ""
                channel.edits.append((message_id, bool(view and view.children), title))

        return Partial()


class FakeBot:
    def __init__(self, interval_ms: int) -> None:
        self.channel = Channel()
        self.http = FakeHttp(self.channel)
        self.allowed_mentions = None
        self.config = type("C", (), {"edit_interval_ms": interval_ms, "ping_after_s": 10.0})()
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


# -- turn pings are nudges (issue 22) ---------------------------------------------------------


class PingBot:
    """A bot whose clock the test moves, recording the pings posted and deleted."""

    def __init__(self, ping_after_s: float = 10.0, stored: dict[str, Any] | None = None) -> None:
        self.now = 0
        self.allowed_mentions = None
        self.config = type("C", (), {"edit_interval_ms": 0, "ping_after_s": ping_after_s})()
        bot = self
        self.service = type("S", (), {"clock": lambda _: bot.now})()
        self.posted: list[tuple[int, str]] = []
        self.deleted: list[int] = []
        self.ids = itertools.count(500)
        self.kept: list[Any] = []

        class Http:
            async def send_message(_, channel_id: int, *, params: Any) -> dict[str, Any]:
                mid = next(bot.ids)
                bot.posted.append((mid, params.payload["content"]))
                return {"id": str(mid)}

            async def delete_message(_, channel_id: int, message_id: int) -> None:
                bot.deleted.append(message_id)

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

    def turn_of(self, table: LiveTable, at: int) -> Any:
        return self.turn


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
        if all(n.timer is None or n.timer.done() for n in presenter._pings.values()):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("a nudge did not finish")


async def later(bot: PingBot, ms: int) -> None:
    bot.now += ms
    await asyncio.sleep(0.05)  # the nudge's nap sees the new time


async def test_a_player_who_plays_at_once_is_never_pinged(monkeypatch: Any) -> None:
    bot, presenter, table, turns = nudging(monkeypatch)
    await presenter._ping_turn(table)  # seat 0's turn starts
    await later(bot, 2_000)
    table.acted[100] = bot.now  # seat 0 moves after 2 s
    turns.turn = (1, (1, 1))  # and the turn passes
    await presenter._ping_turn(table)
    await later(bot, 9_000)
    assert bot.posted == [] and bot.deleted == []
    await presenter.stop()


async def test_a_slow_player_is_pinged_once_after_the_default_ten_seconds(
    monkeypatch: Any,
) -> None:
    bot, presenter, table, _ = nudging(monkeypatch)
    await presenter._ping_turn(table)
    await later(bot, 9_900)
    assert bot.posted == []  # not before 10 s
    await later(bot, 200)
    await nudged(presenter)
    assert bot.posted == [(500, "<@100>, your turn at table 7.")]
    await presenter._ping_turn(table)  # the table is drawn again: the same turn
    await later(bot, 30_000)
    assert len(bot.posted) == 1 and bot.deleted == []  # once, and kept while they wait
    table.acted[100] = bot.now  # they move (their turn goes on)
    await presenter._ping_turn(table)
    assert bot.deleted == [500]
    await later(bot, 30_000)
    assert len(bot.posted) == 1  # never again for that turn
    await presenter.stop()


async def test_the_ping_goes_when_the_turn_ends_and_follows_the_servers_delay(
    monkeypatch: Any,
) -> None:
    bot, presenter, table, turns = nudging(monkeypatch, stored={"ping_after_s": 30})
    await presenter._ping_turn(table)
    await later(bot, 20_000)
    assert bot.posted == []  # the server waits 30 s
    await later(bot, 10_100)
    await nudged(presenter)
    assert [p[0] for p in bot.posted] == [500]
    turns.turn = (1, (1, 1))  # the clock played for them: the turn is over
    await presenter._ping_turn(table)
    assert bot.deleted == [500]
    await presenter.stop()


async def test_no_ping_for_an_ai_seat_nor_a_player_away(monkeypatch: Any) -> None:
    bot, presenter, table, turns = nudging(monkeypatch, ping_after_s=1.0)
    table.game.round.seats[0].away = True
    await presenter._ping_turn(table)
    await later(bot, 5_000)
    await nudged(presenter)
    table.game.round.seats[0].away = False
    assert table.match is not None
    table.match.seats[1]["ai_level"] = "easy"
    turns.turn = (1, (1, 1))  # an AI's turn
    await presenter._ping_turn(table)
    await later(bot, 5_000)
    await nudged(presenter)
    assert bot.posted == []
    await presenter.stop()
