"""Live tables without Discord or storage, around a forced deal (for panel and render tests)."""

from __future__ import annotations

import json
from typing import Any

import discord

import tamalou.games
from bot.storage import SeatRow, TableRow
from bot.tables import LiveTable


def live_table(game: Any, table_id: int = 7) -> LiveTable:
    """A table playing ``game`` (any game's state: its game id is its package's)."""
    game_id = type(game).__module__.split(".")[2]  # tamalou.games.<game>.state
    seats = [SeatRow(i, 100 + i, f"p{i}") for i in range(game.players)]
    row = TableRow(table_id, 1, 10, 100, "playing", {}, None, 0, 0, seats, game_id)
    return LiveTable(row, game.rules, tamalou.games.load(row.game), game=game)


def custom_ids(view: discord.ui.View) -> list[str]:
    return [str(getattr(item, "custom_id", "")) for item in view.children]


def select_values(view: discord.ui.View) -> list[str]:
    selects = [i for i in view.children if isinstance(i, discord.ui.Select)]
    assert len(selects) == 1, custom_ids(view)
    select: Any = selects[0]
    return [o.value for o in select.options]


class FakeHttp:
    """``bot.http`` for a fake bot whose channel records ``PartialMessage.edit`` calls: the
    presenter edits table messages through ``http.edit_message``; the edit is given back to
    the channel's partial message as the keywords it came from (embed, view, attachments)."""

    def __init__(self, channel: Any) -> None:
        self.channel = channel

    async def edit_message(self, channel_id: int, message_id: int, *, params: Any) -> None:
        payload = params.payload
        if payload is None:  # with files: the JSON is a part of the multipart body
            payload = json.loads(params.multipart[0]["value"])
        kwargs: dict[str, Any] = {}
        if payload.get("embeds"):
            kwargs["embed"] = discord.Embed.from_dict(payload["embeds"][0])
        if "components" in payload:
            kwargs["view"] = type("Sent", (), {"children": payload["components"]})()
        if "attachments" in payload:
            kwargs["attachments"] = list(params.files or [])
        if "content" in payload:
            kwargs["content"] = payload["content"]
        await self.channel.get_partial_message(message_id).edit(**kwargs)
