"""A click leaves no reference cycle behind (issue 16): a cycle keeps every object it
reaches alive until a garbage collection, and the collections of that garbage cost the bot
about 7% of its CPU under load. Each test runs with the collector off: what it checks is
freed by reference counting alone."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

__all__ = ["bot"]  # a fixture

from bot.app import GameBot
from bot.tables import TableError
from bot.ui import routing
from bot.ui.kit import frozen_view, release_view, reply
from tamalou.games.tamalou import actions as A
from tests.bot.test_presenter import setup
from tests.bot.test_routing import bot, button, click, component_payload
from tests.test_service import make, started_table


@pytest.fixture
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def a_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for i in range(5):
        view.add_item(discord.ui.Button(label=str(i), custom_id=f"tamalou:draw:1:{i}"))
    return frozen_view(view)


def test_a_released_view_is_freed_without_a_collection(no_collector: None) -> None:
    view = a_view()
    kept = weakref.ref(view)
    del view
    assert kept() is not None  # its items point back at it: a cycle
    view = a_view()
    released = weakref.ref(view)
    release_view(view)
    del view
    assert released() is None


async def test_the_table_message_view_is_released_once_sent(no_collector: None) -> None:
    bot, presenter, table = setup(interval_ms=0)
    sent: list[Any] = []
    send = bot.channel.send

    async def recording_send(embed: Any = None, view: Any = None, **kw: Any) -> Any:
        sent.append(weakref.ref(view))
        return await send(embed=embed, view=view, **kw)

    bot.channel.send = recording_send  # type: ignore[method-assign]
    await presenter.table_changed(table, at_once=True)
    assert bot.channel.edits and bot.channel.edits[-1][1]  # posted with its buttons
    assert sent and all(ref() is None for ref in sent)


async def test_a_reply_with_a_view_releases_it(no_collector: None) -> None:
    class Response:
        def is_done(self) -> bool:
            return False

        async def send_message(self, text: str, **kwargs: Any) -> None:
            assert kwargs["view"].children  # sent whole

    interaction: Any = type("I", (), {"response": Response(), "id": 1})()
    view = a_view()
    kept = weakref.ref(view)
    await reply(interaction, "x", view=view)
    del view
    assert kept() is None


async def test_an_answered_refusal_leaves_no_cycle_of_frames(
    no_collector: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refusal kept in an outcome (as ``service.act`` returns it) and raised: once
    answered, the click's frames and its interaction are freed."""

    class Outcome:
        error: Exception | None = None

    refused: list[weakref.ref[Any]] = []

    async def component(*args: Any) -> None:
        outcome = Outcome()
        outcome.error = TableError("not_seated")
        refused.append(weakref.ref(outcome))
        raise outcome.error  # this frame holds the outcome, the outcome the error

    async def answer_error(
        interaction: Any, exc: BaseException, what: str, game: str | None = None
    ) -> None:
        assert isinstance(exc, TableError)

    monkeypatch.setattr(routing, "_component", component)
    monkeypatch.setattr(routing, "answer_error", answer_error)
    interaction: Any = type("I", (), {"locale": discord.Locale.american_english, "id": 1})()
    await routing.on_component(interaction, "tamalou", "draw", 1, "1", [])
    assert refused and refused[0]() is None


async def test_a_refused_action_keeps_no_traceback(tmp_path: Path) -> None:
    service, storage, clock = await make(tmp_path)
    try:
        table = await started_table(service)
        assert table.game is not None
        other = (table.game.round.current + 1) % 3
        outcome = await service.act(table, A.Draw(other, clock.now + 20), 100 + other)
        assert outcome.error is not None  # refused (a draw out of turn, or in the peek)
        assert outcome.error.__traceback__ is None  # no frame of the service kept alive
    finally:
        await storage.close()


async def test_a_routed_click_frees_its_interaction_once_handled(
    bot: GameBot, monkeypatch: pytest.MonkeyPatch, no_collector: None
) -> None:
    interactions: list[weakref.ref[Any]] = []

    class Probe:
        pass

    async def on_component(interaction: Any, *args: Any) -> None:
        assert not interaction.response.is_done()  # the response is used, as a click does
        probe = Probe()  # interactions take no weak reference: this lives as long as it
        interaction.extras["probe"] = probe
        interactions.append(weakref.ref(probe))

    cid = "tamalou:dbl:42:3.1.2"
    payload = component_payload(cid, 2, [button(cid)])
    monkeypatch.setattr(routing, "on_component", on_component)
    await click(bot, payload, monkeypatch, patch_component=False)
    assert interactions and interactions[0]() is None
