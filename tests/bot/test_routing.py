"""The click path (issue 16): a table's button or select reaches ``on_component`` through the
bot's own router, without discord.py rebuilding a View of the clicked message per click;
foreign, stale and mistyped custom ids are still answered (docs/reliability.md, Clicks)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.app import GameBot
from bot.config import Config
from bot.ui import routing

GUILD, CHANNEL, USER = 2000, 3000, 4001


def component_payload(custom_id: str, component_type: int, on_message: list[dict[str, Any]]) -> Any:
    """An INTERACTION_CREATE for a click on a message that carries ``on_message``."""
    user = {"id": str(USER), "username": "alice", "discriminator": "0", "avatar": None}
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
    if component_type == 3:
        data["values"] = ["1.2"]
    return {
        "id": str((1 << 22) * 1000),
        "application_id": "1000",
        "type": 3,
        "token": "itok",
        "version": 1,
        "guild_id": str(GUILD),
        "channel_id": str(CHANNEL),
        "channel": {
            "id": str(CHANNEL),
            "type": 0,
            "guild_id": str(GUILD),
            "name": "c",
            "position": 0,
        },
        "member": {"user": user, "roles": [], "flags": 0, "joined_at": None, "permissions": "0"},
        "app_permissions": "0",
        "locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(GUILD)},
        "context": 0,
        "attachment_size_limit": 10485760,
        "data": data,
        "message": {
            "id": "5000",
            "channel_id": str(CHANNEL),
            "type": 0,
            "content": "",
            "author": {"id": "1000", "username": "bot", "discriminator": "0", "avatar": None},
            "attachments": [],
            "embeds": [],
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "mention_everyone": False,
            "tts": False,
            "timestamp": "2026-12-01T00:00:00+00:00",
            "edited_timestamp": None,
            "flags": 0,
            "components": [{"type": 1, "components": on_message}],
        },
    }


def button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}


def select(custom_id: str) -> dict[str, Any]:
    return {"type": 3, "custom_id": custom_id, "options": [{"label": "a", "value": "1.2"}]}


@pytest.fixture
async def bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    config = Config(token="x", database=str(tmp_path / "t.sqlite3"), sync_commands=False)
    bot = GameBot(config)
    await bot._async_setup_hook()
    await bot.setup_hook()
    me = {"id": "1000", "username": "bot", "discriminator": "0", "avatar": None}
    bot._connection.user = discord.ClientUser(state=bot._connection, data=me)  # type: ignore[arg-type]

    def no_view_rebuild(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a View was rebuilt from the clicked message")

    monkeypatch.setattr(discord.ui.View, "from_message", no_view_rebuild)
    monkeypatch.setattr(discord.ui.LayoutView, "from_message", no_view_rebuild)
    try:
        yield bot
    finally:
        await bot.close()


async def click(
    bot: GameBot, payload: Any, monkeypatch: pytest.MonkeyPatch, patch_component: bool = True
) -> dict[str, Any]:
    """Feeds the click to discord.py as the gateway would; returns what was called."""
    seen: dict[str, Any] = {"components": [], "replies": [], "messages": 0}
    parse = discord.message.Message.__init__

    def counted(self: Any, *args: Any, **kwargs: Any) -> None:
        seen["messages"] += 1
        parse(self, *args, **kwargs)

    monkeypatch.setattr(discord.message.Message, "__init__", counted)

    async def on_component(interaction: Any, *args: Any) -> None:
        seen["components"].append(args)

    async def reply(interaction: Any, text: str, *args: Any, **kwargs: Any) -> None:
        seen["replies"].append(text)

    if patch_component:
        monkeypatch.setattr(routing, "on_component", on_component)
    monkeypatch.setattr("bot.app.reply", reply)
    before = asyncio.all_tasks()
    bot._connection.parse_interaction_create(payload)
    await asyncio.gather(*(asyncio.all_tasks() - before))
    return seen


async def test_a_table_button_click_is_routed_once_without_rebuilding_a_view(
    bot: GameBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid = "tamalou:dbl:42:3.1.2"
    seen = await click(bot, component_payload(cid, 2, [button(cid)]), monkeypatch)
    assert seen["components"] == [("tamalou", "dbl", 42, "3.1.2", [])]
    assert seen["replies"] == []
    assert seen["messages"] == 0  # the clicked message is not parsed either (bot.ui.clicked)


async def test_a_table_select_click_is_routed_once_with_its_values(
    bot: GameBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid = "tamalou:qswap:42:3.1"
    seen = await click(bot, component_payload(cid, 3, [select(cid)]), monkeypatch)
    assert seen["components"] == [("tamalou", "qswap", 42, "3.1", ["1.2"])]
    assert seen["replies"] == []


async def test_a_button_the_message_no_longer_carries_is_answered_as_changed(
    bot: GameBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    payload = component_payload("tamalou:dbl:42:3.1.2", 2, [button("tamalou:dbl:42:3.0.5")])
    seen = await click(bot, payload, monkeypatch)
    assert seen["components"] == []
    assert seen["replies"] == [
        "This button has changed since you saw it: use the one on the message now."
    ]


@pytest.mark.parametrize(
    ("custom_id", "component_type", "on_message"),
    [
        ("not-ours", 2, [button("not-ours")]),  # a custom id no item matches
        ("tamalou:qswap:42:3.1", 2, [button("tamalou:qswap:42:3.1")]),  # a select as a button
        ("tamalou:draw:42:3", 3, [select("tamalou:draw:42:3")]),  # a button as a select
    ],
)
async def test_a_custom_id_that_is_not_one_of_our_items_is_answered_as_not_valid(
    bot: GameBot,
    monkeypatch: pytest.MonkeyPatch,
    custom_id: str,
    component_type: int,
    on_message: list[dict[str, Any]],
) -> None:
    seen = await click(bot, component_payload(custom_id, component_type, on_message), monkeypatch)
    assert (seen["components"], seen["replies"]) == ([], ["This button is not valid."])
