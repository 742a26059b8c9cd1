"""``bot.ui.clicked``: the clicked message parsed only when read (issue 16). It reaches into
discord.py internals; the first test fails if they change (then fix or drop the module)."""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import discord
import discord.state
import pytest

from bot.app import GameBot
from bot.config import Config
from bot.ui import clicked
from tests.bot.test_routing import button, component_payload, select


def test_the_discord_py_internals_it_relies_on_are_unchanged() -> None:
    """``discord.state`` builds interactions through its global ``Interaction``;
    ``Interaction._from_data`` sets ``message`` from ``data['message']`` (a slot) and then
    gives it the interaction's guild; ``clicked._dispatch_view`` is discord.py's
    ``dispatch_view`` with the message id read from the payload. On the discord.py the
    project installs (2.7.1) they are as the module expects, so it is installed."""
    if discord.__version__ != "2.7.1":  # install() keeps discord.py's parsing then (below)
        pytest.skip(f"discord.py {discord.__version__}: port bot/ui/clicked.py, then the pins")
    dispatch = inspect.getsource(clicked.DISCORD_DISPATCH_VIEW)
    assert "message_id = msg.id" in dispatch
    assert hashlib.sha256(dispatch.encode()).hexdigest() == clicked.DISPATCH_VIEW_SHA256
    assert clicked.compatible()
    assert discord.state.Interaction in (discord.Interaction, clicked.LazyMessageInteraction)


def test_on_another_discord_py_nothing_is_replaced(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A release whose internals differ keeps discord.py's own parsing (and says so)."""
    monkeypatch.setattr(clicked, "DISPATCH_VIEW_SHA256", "0" * 64)
    monkeypatch.setattr(discord.state, "Interaction", discord.Interaction)
    dispatch = clicked.ViewStore.dispatch_view
    assert not clicked.compatible()
    assert clicked.install() is False
    assert discord.state.Interaction is discord.Interaction
    assert clicked.ViewStore.dispatch_view is dispatch
    assert "internals differ" in caplog.text


async def test_a_view_stored_for_a_message_is_still_dispatched(state: Any) -> None:
    """The replaced ``dispatch_view`` finds a View stored for the clicked message (by the
    payload's id) as discord.py does, and persistent ones stored without a message id."""
    pressed: list[str] = []

    class One(discord.ui.View):
        def __init__(self, custom_id: str) -> None:
            super().__init__(timeout=None)
            item: Any = discord.ui.Button(label="x", custom_id=custom_id)

            async def callback(interaction: discord.Interaction) -> None:
                pressed.append(custom_id)

            item.callback = callback
            self.add_item(item)

    state.store_view(One("by-message"), 5000)
    state.store_view(One("persistent"))
    for custom_id in ("by-message", "persistent", "nowhere"):
        payload = component_payload(custom_id, 2, [button(custom_id)])
        interaction = clicked.LazyMessageInteraction(data=payload, state=state)
        state._view_store.dispatch_view(2, custom_id, interaction)
        assert interaction._parsed_message is clicked._UNSET  # not parsed to find the view
    await asyncio.sleep(0.05)
    assert sorted(pressed) == ["by-message", "persistent"]


@pytest.fixture
async def state(tmp_path: Path) -> Any:
    bot = GameBot(Config(token="x", database=str(tmp_path / "t.sqlite3")))  # installs it
    await bot._async_setup_hook()
    me = {"id": "1000", "username": "bot", "discriminator": "0", "avatar": None}
    bot._connection.user = discord.ClientUser(state=bot._connection, data=me)  # type: ignore[arg-type]
    try:
        yield bot._connection
    finally:
        await bot.close()


def components(message: discord.Message) -> list[tuple[int, str | None]]:
    return [
        (int(child.type.value), getattr(child, "custom_id", None))
        for row in message.components
        for child in getattr(row, "children", ())
    ]


@pytest.mark.parametrize("flags", [0, 64])
async def test_the_lazy_message_is_the_message_discord_py_parses(state: Any, flags: int) -> None:
    payload = component_payload(
        "tamalou:draw:42:3", 2, [button("tamalou:draw:42:3"), select("tamalou:qswap:42:3.1")]
    )
    payload["message"]["flags"] = flags
    payload["message"]["embeds"] = [{"title": "Table 42", "description": "x", "color": 5}]
    eager = discord.Interaction(data=payload, state=state)
    lazy = clicked.LazyMessageInteraction(data=payload, state=state)
    assert discord.state.Interaction is clicked.LazyMessageInteraction
    assert "message" in payload  # the payload is left as it came
    assert clicked.raw_message(lazy) is payload["message"]
    assert clicked.message_id(lazy) == clicked.message_id(eager) == 5000
    assert clicked.from_ephemeral(lazy) is clicked.from_ephemeral(eager) is bool(flags)
    for custom_id in ("tamalou:draw:42:3", "tamalou:qswap:42:3.1", "tamalou:draw:42:2"):
        assert clicked.carries(lazy, custom_id) is clicked.carries(eager, custom_id)
    assert lazy._parsed_message is not None and lazy._parsed_message is not eager.message
    message, expected = lazy.message, eager.message
    assert message is not None and expected is not None
    assert lazy.message is message  # parsed once
    assert (message.id, message.flags.value, message.channel.id) == (
        expected.id,
        expected.flags.value,
        expected.channel.id,
    )
    assert message.guild is not None and expected.guild is not None
    assert message.guild.id == expected.guild.id == 2000
    assert components(message) == components(expected)
    assert [e.to_dict() for e in message.embeds] == [e.to_dict() for e in expected.embeds]


async def test_an_interaction_without_a_message_has_none(state: Any) -> None:
    payload = component_payload("tamalou:draw:42:3", 2, [])
    del payload["message"]
    lazy = clicked.LazyMessageInteraction(data=payload, state=state)
    assert lazy.message is None and clicked.raw_message(lazy) is None
    assert clicked.message_id(lazy) is None and not clicked.carries(lazy, "tamalou:draw:42:3")


@pytest.mark.parametrize("answer_times", ["0", "1"])
def test_the_emulator_launcher_keeps_it_installed(answer_times: str) -> None:
    """The launcher that runs the bot in the e2e tests and the benchmark wraps
    ``parse_interaction_create`` (twice with the open loop's EMU_ANSWER_TIMES=1);
    ``compatible()`` must still see discord.py's source, or every e2e test and benchmark
    runs a bot without the lazy message (as it once did)."""
    if discord.__version__ != "2.7.1":
        pytest.skip(f"discord.py {discord.__version__}")
    code = (
        "from emulator import launcher\n"
        "launcher.install('127.0.0.1', 9)\n"  # nothing listens: the reporter only drops
        "from bot.ui import clicked\n"
        "print(clicked.compatible())\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "EMU_ANSWER_TIMES": answer_times},
    )
    assert done.stdout.strip().splitlines()[-1:] == ["True"], done.stderr[-2000:]
