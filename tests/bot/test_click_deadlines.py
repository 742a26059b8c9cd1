"""A click's deadlines, from its press in Discord's time (``bot/ui/pipeline.py``,
``bot/ui/discord_clock.py``), and what the error funnel knows of its move: the real table
service and pipeline, a fake Discord interaction."""

from __future__ import annotations

import asyncio
import contextvars
import email.utils
import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot import games
from bot.i18n import t
from bot.tables import LiveTable, TableError, TableService
from bot.ui.discord_clock import DiscordClock
from bot.ui.errors import answer_error
from bot.ui.kit import DISCORD_EPOCH
from bot.ui.pipeline import Click
from tamalou.games.tamalou import actions as A
from tests.test_service import T0, make, started_table


def expired() -> discord.HTTPException:
    response: Any = SimpleNamespace(status=404, reason="Not Found")
    return discord.NotFound(response, {"code": 10062, "message": "Unknown interaction"})


class Response:
    """An interaction's response: ``refuse`` makes Discord refuse it (its 3 s passed)."""

    def __init__(self, table: LiveTable, refuse: bool = False) -> None:
        self.table = table
        self.refuse = refuse
        self.deferred_at: int | None = None  # how many actions the table held then
        self.sent: list[str] = []

    def is_done(self) -> bool:
        return self.deferred_at is not None or bool(self.sent)

    async def defer(self) -> None:
        if self.refuse:
            raise expired()
        self.deferred_at = self.table.logged

    async def send_message(self, text: str, **kwargs: Any) -> None:
        if self.refuse:
            raise expired()
        self.sent.append(text)


def snowflake(at_ms: int) -> int:
    return (at_ms - DISCORD_EPOCH) << 22


def a_click(
    service: TableService, table: LiveTable, seat: int, pressed: int, refuse: bool = False
) -> Click:
    """Seat ``seat`` pressed at ``pressed`` (Discord's time; the service's clock is the
    bot's, and both agree here)."""
    bot = SimpleNamespace(
        service=service,
        config=SimpleNamespace(answer_deadline_ms=1500),
        discord_clock=DiscordClock(service.clock),
    )
    interaction: Any = SimpleNamespace(
        id=snowflake(pressed),
        client=bot,
        user=SimpleNamespace(id=100 + seat),
        response=Response(table, refuse),
        locale=discord.Locale("en-US"),
        extras={},
        followup=None,
    )
    return Click(
        interaction, games.plugin("tamalou"), table, "draw", [1], [], seat, "en", pressed, False
    )


async def turn_table(tmp_path: Path) -> tuple[TableService, LiveTable, Any, int]:
    service, _, clock = await make(tmp_path, reorder_ms=0)
    table = await started_table(service, players=2)
    clock.now += 10_000  # past the peek (R-S5), by more than a late click's age
    await service.tick(table)  # the first turn starts
    return service, table, clock, table.game.round.current


async def test_the_error_funnel_sees_a_move_the_click_applied(tmp_path: Path) -> None:
    """The click's move is applied in the task the safety deadline runs it in, not the
    click's own: the funnel could not see it and told the player "Something went wrong…
    try again" for a move that was played. Its answer failing now says it went through."""
    service, table, clock, seat = await turn_table(tmp_path)
    click = a_click(service, table, seat, clock.now)

    async def handled() -> None:  # as discord.py runs a click: a task of its own
        outcome = await click.act(A.Draw(seat, clock.now))
        assert outcome.error is None
        await answer_error(click.interaction, RuntimeError("the panel failed"), "button draw")

    await asyncio.create_task(handled(), context=contextvars.Context())
    assert click.interaction.response.sent == [t("en", "err.after_commit")]
    await service.storage.close()


async def test_a_click_past_its_safety_deadline_is_acknowledged_before_it_acts(
    tmp_path: Path,
) -> None:
    """Pressed 2 s ago (a late delivery): the answer may not be ready in Discord's 3 s, so
    the click is deferred first, then applied."""
    service, table, clock, seat = await turn_table(tmp_path)
    logged = table.logged
    click = a_click(service, table, seat, clock.now - 2_000)
    outcome = await click.act(A.Draw(seat, clock.now - 2_000))
    assert outcome.error is None and table.logged == logged + 1
    assert click.interaction.response.deferred_at == logged  # before the move
    await service.storage.close()


async def test_a_click_discord_gave_up_on_is_not_applied_and_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Pressed 3.5 s ago: Discord refuses its acknowledgement (10062). Nothing is applied,
    one INFO line says so (nothing of the move in it), and the funnel answers nothing (the
    player already saw "This interaction failed")."""
    service, table, clock, seat = await turn_table(tmp_path)
    logged = table.logged
    click = a_click(service, table, seat, clock.now - 3_500, refuse=True)
    with caplog.at_level(logging.INFO), pytest.raises(TableError) as refused:
        await click.act(A.Draw(seat, clock.now - 3_500))
    assert refused.value.reason == "too_late" and table.logged == logged
    lines = [r for r in caplog.records if "not applied" in r.getMessage()]
    assert [r.levelno for r in lines] == [logging.INFO]
    await answer_error(click.interaction, refused.value, "button draw")
    assert click.interaction.response.sent == []
    await service.storage.close()


async def test_a_queued_click_past_its_safety_deadline_unacknowledged_is_not_applied(
    tmp_path: Path,
) -> None:
    """In the table's queue, a click whose acknowledgement has not gone through by its
    safety deadline is refused when its turn comes, nothing applied."""
    service, table, clock, seat = await turn_table(tmp_path)
    logged = table.logged
    with pytest.raises(TableError, match="too_late"):
        await service.act(table, A.Draw(seat, clock.now), 100 + seat, may_apply=lambda: False)
    assert table.logged == logged
    outcome = await service.act(table, A.Draw(seat, clock.now), 100 + seat, may_apply=lambda: True)
    assert outcome.error is None and table.logged == logged + 1
    await service.storage.close()


def date(ms: int) -> str:
    return email.utils.formatdate(ms / 1000, usegmt=True)


def test_discords_clock_is_the_bots_until_its_stamps_prove_otherwise() -> None:
    now = [T0]
    clock = DiscordClock(lambda: now[0])
    assert clock.offset == 0 and clock.age(T0 - 700) == 700
    clock.answered(date(T0 + 200), T0 - 10, T0 + 10)  # 0 is within [D - R, D + 1000 - S]
    clock.pressed(T0 - 50)
    assert clock.offset == 0


def test_a_bot_clock_behind_discords_is_corrected_by_what_the_stamps_prove() -> None:
    """The bot's clock 5 s behind: clicks arrive "from the future"; a click pressed 1 s
    ago is 1 s old, not -4 s."""
    now = [T0]
    clock = DiscordClock(lambda: now[0])
    for delay in (30, 20, 40):
        clock.pressed(T0 + 5_000 - delay)
    assert clock.offset == 5_000 - 20
    assert clock.age(T0 + 4_000) == 980


def test_a_bot_clock_ahead_of_discords_is_bounded_by_the_date_headers() -> None:
    """The bot's clock 4 s ahead: every Date header says Discord is earlier; its whole
    seconds, stamped at several moments, pin the offset to the network's delay."""
    now = [T0]
    clock = DiscordClock(lambda: now[0])
    for step in range(0, 1000, 5):  # answers at every phase of Discord's second
        sent = T0 + step
        discord_time = sent - 4_000 + 5  # stamped 5 ms after the send
        clock.answered(date(discord_time // 1000 * 1000), sent, sent + 10)
    assert -4_010 <= clock.offset <= -3_990


def test_contradicting_stamps_drop_the_oldest_a_clock_stepped() -> None:
    now = [T0]
    clock = DiscordClock(lambda: now[0])
    clock.pressed(T0 + 60_000)  # before the step: Discord a minute ahead
    clock.answered(date(T0), T0 - 10, T0 + 10)  # after it: the same as the bot's
    assert clock.offset == 0
