"""The bot's start-up and shutdown, without a connection to Discord."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot import games
from bot.app import GameBot
from bot.config import Config


async def unconnected(config: Config) -> GameBot:
    """A bot as ``login`` leaves it before connecting (discord.py's own async set-up)."""
    bot = GameBot(config)
    await bot._async_setup_hook()
    return bot


async def test_close_ends_every_writer_before_the_storage_closes(tmp_path: Path) -> None:
    bot = await unconnected(Config(token="x", database=str(tmp_path / "t.sqlite3")))
    await bot.storage.open()
    order: list[str] = []
    real_stop, real_presenter_stop, real_disconnect = (
        bot.service.stop,
        bot.presenter.stop,
        bot.storage.disconnect,
    )

    async def service_stop() -> None:
        await real_stop()
        order.append("service")

    async def presenter_stop() -> None:
        await real_presenter_stop()
        order.append("presenter")

    async def slow_insert(rows: list[tuple[Any, ...]]) -> None:
        await asyncio.sleep(0.05)
        order.append("flushed")

    async def disconnect() -> None:
        order.append("storage")
        await real_disconnect()

    bot.service.stop = service_stop  # type: ignore[method-assign]
    bot.presenter.stop = presenter_stop  # type: ignore[method-assign]
    bot.storage.disconnect = disconnect  # type: ignore[method-assign]
    bot.storage._insert_actions = slow_insert  # type: ignore[method-assign]
    last_move = asyncio.create_task(bot.storage.append_actions(1, 0, [(0, {}, None)], []))
    await asyncio.sleep(0)  # the move waits in the batch
    await bot.close()
    assert order == ["service", "presenter", "flushed", "storage"]
    assert last_move.done() and last_move.exception() is None


def test_the_storage_gets_the_configured_busy_timeout(tmp_path: Path) -> None:
    """TAMALOU_DB_BUSY_MS reaches the storage the bot builds (docs/storage.md)."""
    config = Config(token="x", database=str(tmp_path / "t.sqlite3"), database_busy_ms=1234)
    assert GameBot(config).storage.busy_timeout_ms == 1234


def test_a_shard_range_reaches_discord_py(tmp_path: Path) -> None:
    config = Config(
        token="x", database=str(tmp_path / "t.sqlite3"), shard_ids=(2, 3), shard_count=4
    )
    bot = GameBot(config)
    assert bot.shard_ids == [2, 3] and bot.shard_count == 4
    assert bot.service.owns(2 << 22) and not bot.service.owns(1 << 22)


async def test_setup_loads_one_extension_per_game_and_the_shared_ones(tmp_path: Path) -> None:
    config = Config(token="x", database=str(tmp_path / "t.sqlite3"), sync_commands=False)
    bot = await unconnected(config)
    await bot.setup_hook()
    try:
        assert set(bot.extensions) == {games.plugin(g).extension for g in games.REGISTRY} | {
            "bot.cogs.settings",
            "bot.cogs.seasons",
            "bot.cogs.tournaments",
            "bot.cogs.admin",
        }
        cogs = {"TamalouCog", "SettingsCog", "SeasonsCog", "TournamentsCog", "AdminCog"}
        assert cogs <= set(bot.cogs)
        assert len(bot.cogs) == len(games.REGISTRY) + 4  # one Cog per game
        group = bot.tree.get_command("tamalou")
        assert group is not None
        names = {c.name for c in group.commands}  # type: ignore[union-attr]
        assert {
            "new",
            "join",
            "cancel",
            "hand",
            "settings",
            "leaderboard",
            "tournament",
        } <= names, " ".join(sorted(names))
        admin = bot.tree.get_command("cardsadmin")
        assert isinstance(admin, app_commands.Group)
        assert admin.default_permissions == discord.Permissions(manage_guild=True)
        assert {c.name for c in admin.commands} == {
            "settings",
            "tamalou",
            "kalooki",
            "tarot",
            "table_role",
            "season",
            "tournament",
        }
    finally:
        await bot.close()


async def test_every_command_is_on_the_tree_whatever_was_imported_before(tmp_path: Path) -> None:
    """``load_extension`` executes a game's commands module afresh: commands must reach the
    group on the tree even when the modules were imported earlier (as the test collection
    and any tool importing the package do)."""
    import importlib

    importlib.import_module("bot.games.tamalou.commands")
    importlib.import_module("bot.seasons.commands")
    importlib.import_module("bot.cogs.settings")
    for _ in range(2):  # and again after a full close, as a restart in one process would
        config = Config(token="x", database=str(tmp_path / "t.sqlite3"), sync_commands=False)
        bot = await unconnected(config)
        await bot.setup_hook()
        try:
            group = bot.tree.get_command("tamalou")
            names = {c.name for c in group.commands}  # type: ignore[union-attr]
            assert {"settings", "leaderboard", "stats", "season"} <= names
            assert bot.tree.get_command("cardsadmin") is not None
        finally:
            await bot.close()


async def test_the_bot_keeps_no_message_cache(tmp_path: Path) -> None:
    """Issue 25: discord.py's cache of 1,000 messages kept every table message the bot
    posted (about 5 kB each, at 1,000 tables); nothing reads it."""
    bot = await unconnected(Config(token="x", database=str(tmp_path / "t.sqlite3")))
    assert bot._connection.max_messages is None and bot._connection._messages is None
    await bot.close()
