"""The panel desk (bot/ui/desk.py): one record per seat, dropped with its table, and a click
waiting for its panel's previous edit acknowledged by its deadline."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.tables.clock import wall_clock_ms
from bot.ui.desk import PanelDesk
from bot.ui.discord_clock import DiscordClock
from emulator.snowflake import snowflake_from_ms


class Response:
    def __init__(self, fail: bool = False) -> None:
        self.deferred = False
        self.fail = fail

    def is_done(self) -> bool:
        return self.deferred

    async def defer(self) -> None:
        if self.fail:
            raise RuntimeError("Discord refused the acknowledgement")
        self.deferred = True


class Client:
    discord_clock = DiscordClock(wall_clock_ms)


class Interaction:
    """A click pressed now: its deadlines run from its snowflake, in Discord's time."""

    def __init__(self, fail: bool = False) -> None:
        self.id = snowflake_from_ms(wall_clock_ms())
        self.response = Response(fail)
        self.client = Client()
        self.extras: dict[str, Any] = {}


def desk() -> PanelDesk:
    return PanelDesk(
        storage=None,  # type: ignore[arg-type]
        clock=lambda: 0,
        answer_deadline_ms=50,
        plugin=lambda game_id: None,  # type: ignore[arg-type,return-value]
        webhook=lambda token: None,  # type: ignore[arg-type,return-value]
    )


async def test_a_click_behind_a_stuck_edit_is_acknowledged_by_its_deadline() -> None:
    d = desk()
    record = d.seat(7, 0)
    await record.lock.acquire()  # the panel's previous edit, retried by discord.py
    click: Any = Interaction()
    waiting = asyncio.create_task(d._hold(record, click))

    async def acknowledged() -> None:  # by its 50 ms deadline, whatever the load
        while not click.response.deferred:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(acknowledged(), 5)
    assert not waiting.done()  # answered, still waiting its turn
    record.lock.release()
    await waiting
    assert record.lock.locked()  # its drawing's turn


async def test_a_click_whose_acknowledgement_fails_leaves_no_lock_behind() -> None:
    d = desk()
    record = d.seat(7, 0)
    await record.lock.acquire()
    with pytest.raises(RuntimeError):
        await d._hold(record, Interaction(fail=True))  # type: ignore[arg-type]
    record.lock.release()
    await asyncio.sleep(0.01)
    assert not record.lock.locked()


async def test_ending_a_table_drops_its_records_in_one_call() -> None:
    d = desk()
    d._closing = True  # no storage here: the rows' drop is not spawned
    d.seat(7, 0).state = "kept"
    d.seat(7, 1)
    d.seat(8, 0)
    d.drop(7)
    assert set(d.tables) == {8} and d.state(7, 0) is None


async def test_a_record_a_click_answers_goes_once_the_answer_is_done() -> None:
    d = desk()
    d._closing = True
    with d.answering(7, 0):
        d.seat(7, 1)
        d.drop(7)  # the table ends while seat 0's click is answered
        assert set(d.tables[7].seats) == {0}  # its answer still shows the panel
    assert d.tables == {}
