"""The presenter attaches a game's pictures (docs/cards.md): the table message's picture is
uploaded when it changes, not on every edit; an unknown message (after a restart) is given
its attachments again; a panel edit always replaces the panel's attachments."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.ui.cards import read_description
from bot.ui.presenter import DiscordPresenter
from tamalou.games.tamalou.scripted import forced_game
from tests.cards.test_tamalou_faces import ROWS, round_over
from tests.support.live_tables import FakeHttp, live_table


@dataclass
class Channel:
    """Records each send and edit: (what, attachment names or None when left unchanged)."""

    calls: list[tuple[str, list[str] | None]] = field(default_factory=list)
    pngs: list[bytes] = field(default_factory=list)

    def _names(self, files: list[discord.File] | None) -> list[str] | None:
        if files is None:
            return None
        self.pngs += [f.fp.read() for f in files]
        return [f.filename for f in files]

    async def send(self, embed: Any = None, view: Any = None, **kw: Any) -> Any:
        self.calls.append(("send", self._names(kw.get("files", []))))
        return type("Sent", (), {"id": 1000})()

    def get_partial_message(self, message_id: int) -> Any:
        channel = self

        class Partial:
            async def edit(self, **kw: Any) -> None:
                channel.calls.append(("edit", channel._names(kw.get("attachments"))))

        return Partial()


class FakeBot:
    def __init__(self) -> None:
        self.channel = Channel()
        self.http = FakeHttp(self.channel)
        self.allowed_mentions = None
        self.config = type("C", (), {"edit_interval_ms": 0, "answer_deadline_ms": 1500})()
        self.service = type("S", (), {"lobby_timeout_ms": 600_000, "clock": lambda self: 0})()

        class Storage:
            async def set_table_message(_, table_id: int, message_id: int | None) -> None:
                pass

        self.storage = Storage()

    def get_partial_messageable(self, channel_id: int, guild_id: int | None = None) -> Channel:
        return self.channel

    async def guild_language(self, guild_id: int | None) -> str:
        return "en"


async def test_r_e1_the_reveal_is_uploaded_once_and_again_after_a_restart() -> None:
    bot = FakeBot()
    game = round_over()
    table = live_table(game)
    presenter = DiscordPresenter(bot)  # type: ignore[arg-type]
    await presenter.table_changed(table, at_once=True)
    await presenter.table_changed(table, at_once=True)
    assert bot.channel.calls == [("send", ["round-1.png"]), ("edit", None)]
    described = read_description(bot.channel.pngs[0])
    assert described is not None and described["kind"] == "table"
    again = DiscordPresenter(bot)  # a restarted bot does not know what the message carries
    await again.table_changed(table, at_once=True)
    assert bot.channel.calls[-1] == ("edit", ["round-1.png"])


async def test_a_message_whose_picture_is_gone_loses_its_attachment() -> None:
    bot = FakeBot()
    presenter = DiscordPresenter(bot)  # type: ignore[arg-type]
    table = live_table(round_over())
    await presenter.table_changed(table, at_once=True)
    table.game = forced_game(ROWS)  # the same message now shows a round in play
    await presenter.table_changed(table, at_once=True)
    assert bot.channel.calls[-1] == ("edit", [])
