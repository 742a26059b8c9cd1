"""The bot's card emojis at start-up (issue 14): installed for the render code at once,
synced in a task start-up never waits for, cancelled by ``close``; off by setting."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.app import GameBot
from bot.config import Config
from bot.ui.cards import display as card_display


async def test_start_up_does_not_wait_for_the_emoji_upload(tmp_path: Path) -> None:
    config = Config(token="x", database=str(tmp_path / "t.sqlite3"), sync_commands=False)
    bot = GameBot(config)
    await bot._async_setup_hook()
    listing = asyncio.Event()

    async def never_answers() -> list[Any]:  # Discord does not answer the emoji list
        listing.set()
        await asyncio.Event().wait()
        return []

    bot.fetch_application_emojis = never_answers  # type: ignore[method-assign]
    try:
        await asyncio.wait_for(bot.setup_hook(), 30)  # returns although the list hangs
        assert card_display.current() is bot.cards and not card_display.available()
        assert card_display.show("7c") == "7♣"  # text meanwhile
        await asyncio.wait_for(listing.wait(), 30)  # the faces drawn, the list asked
        task = bot._cards_task
        assert task is not None and not task.done()
    finally:
        await bot.close()
    assert task.cancelled() and card_display.current() is None


async def test_with_emojis_off_nothing_is_asked(tmp_path: Path) -> None:
    config = Config(
        token="x", database=str(tmp_path / "t.sqlite3"), sync_commands=False, card_emojis=False
    )
    bot = GameBot(config)
    await bot._async_setup_hook()
    try:
        await bot.setup_hook()
        assert bot._cards_task is None and card_display.show("7c") == "7♣"
    finally:
        await bot.close()
