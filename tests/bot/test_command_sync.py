"""Slash commands are synced only when their payload changed since the last sync, whose
hash the database keeps (issue 24), or when TAMALOU_SYNC_COMMANDS forces it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.app import GameBot
from bot.config import Config
from bot.storage.state import states
from tests.bot.test_app import unconnected


async def ready_bot(tmp_path: Path, **settings: Any) -> tuple[GameBot, list[Any]]:
    """A bot set up without syncing, whose ``tree.sync`` records its calls."""
    config = Config(
        token="x", database=str(tmp_path / "t.sqlite3"), sync_commands=False, **settings
    )
    bot = await unconnected(config)
    await bot.setup_hook()
    bot._connection.application_id = 4242
    synced: list[Any] = []

    async def sync(*, guild: Any = None) -> list[Any]:
        synced.append(guild.id if guild is not None else None)
        return []

    bot.tree.sync = sync  # type: ignore[method-assign]
    return bot, synced


async def test_commands_are_synced_once_then_only_when_they_change(tmp_path: Path) -> None:
    bot, synced = await ready_bot(tmp_path)
    try:
        assert await bot.sync_commands()
        assert not await bot.sync_commands()  # same payload: no PUT
        assert synced == [None]
        stored = await states(bot.storage, "commands:")
        assert list(stored) == ["commands:4242:global"]
        group = bot.tree.get_command("tamalou")
        assert group is not None
        group.description = "A changed description"  # a new version's commands
        assert await bot.sync_commands()
        assert await bot.sync_commands(force=True)  # TAMALOU_SYNC_COMMANDS=1
        assert synced == [None, None, None]
    finally:
        await bot.close()


async def test_each_application_and_scope_has_its_own_hash(tmp_path: Path) -> None:
    bot, synced = await ready_bot(tmp_path)
    try:
        assert await bot.sync_commands()
        bot._connection.application_id = 777  # another application on the same database
        assert await bot.sync_commands()
    finally:
        await bot.close()
    guild_bot, guild_synced = await ready_bot(tmp_path, guild_id=99)
    try:
        assert await guild_bot.sync_commands()  # the guild's commands were never synced
        assert not await guild_bot.sync_commands()
        assert guild_synced == [99]
        assert set(await states(guild_bot.storage, "commands:")) == {
            "commands:4242:global",
            "commands:777:global",
            "commands:4242:guild 99",
        }
    finally:
        await guild_bot.close()
    assert synced == [None, None]


@pytest.mark.parametrize(
    ("raw", "mode"),
    [("", "auto"), ("auto", "auto"), ("1", "always"), ("yes", "always"), ("0", "never")],
)
def test_the_sync_setting(raw: str, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAMALOU_SYNC_COMMANDS", raw)
    assert Config.from_env(None).sync_commands == mode
