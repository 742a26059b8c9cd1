"""A shard range per process (issue 15): the settings, and a table belongs to the process
that owns its guild's shard ``(guild_id >> 22) % shard_count`` (DESIGN "Scale")."""

from __future__ import annotations

from pathlib import Path

import pytest

import tamalou.games
from bot.config import Config, ConfigError, shard_of, shard_settings
from bot.games import rules_for
from bot.storage import SeatRow, open_storage
from bot.tables import TableService
from tests.bot.test_tables import Clock, Presenter


def guild_on(shard: int, count: int, n: int = 1) -> int:
    """A guild id (a snowflake) whose events Discord sends to ``shard``."""
    return (n * count + shard) << 22 | 12345


def test_a_range_a_list_or_one_shard() -> None:
    assert shard_settings("0-3", "8") == {"shard_ids": (0, 1, 2, 3), "shard_count": 8}
    assert shard_settings("5,1,2-3", "8") == {"shard_ids": (1, 2, 3, 5), "shard_count": 8}
    assert shard_settings("7", "8") == {"shard_ids": (7,), "shard_count": 8}
    assert shard_settings("", "4") == {"shard_count": 4}  # every shard, in this process
    assert shard_settings("", "") == {}  # as Discord recommends (AutoShardedBot)


@pytest.mark.parametrize(
    ("ids", "count", "said"),
    [
        ("0-3", "", "TAMALOU_SHARD_COUNT"),
        ("0-3", "zero", "TAMALOU_SHARD_COUNT"),
        ("3-1", "8", "0-3, or 0,2,5"),
        ("a", "8", "0-3, or 0,2,5"),
        ("6-8", "8", "numbers the shards 0 to 7"),
    ],
)
def test_a_wrong_shard_setting_says_how_to_write_it(ids: str, count: str, said: str) -> None:
    with pytest.raises(ConfigError) as err:
        shard_settings(ids, count)
    assert said in str(err.value)


def test_the_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAMALOU_SHARDS", "0-1")
    monkeypatch.setenv("TAMALOU_SHARD_COUNT", "4")
    config = Config.from_env(env_file=None)
    assert config.shard_ids == (0, 1) and config.shard_count == 4


def test_a_process_owns_the_guilds_of_its_shards() -> None:
    config = Config(token="x", shard_ids=(0, 1), shard_count=4)
    assert [shard_of(guild_on(s, 4), 4) for s in range(4)] == [0, 1, 2, 3]
    assert [config.owns(guild_on(s, 4)) for s in range(4)] == [True, True, False, False]
    assert Config(token="x").owns(guild_on(3, 4))  # one process: every guild


async def test_each_process_loads_and_times_only_its_own_tables(tmp_path: Path) -> None:
    """Two processes share one database: each rebuilds only the tables of its shards, so
    no table is timed or shown twice."""
    storage = open_storage(tmp_path / "t.sqlite3")
    await storage.open()
    mine, theirs = guild_on(0, 2), guild_on(1, 2)
    for channel, guild in ((10, mine), (11, theirs), (12, mine)):
        assert await storage.create_table(guild, channel, SeatRow(0, 100, "ann"), {}, 0)
    processes = []
    for shard in (0, 1):
        config = Config(token="x", shard_ids=(shard,), shard_count=2)
        service = TableService(
            storage,
            Presenter(),
            rules_for=rules_for,
            load_game=tamalou.games.load,
            clock=Clock(),
            owns=config.owns,
        )
        await service.load()
        processes.append(service)
    assert sorted(t.row.channel_id for t in processes[0].tables.values()) == [10, 12]
    assert sorted(t.row.channel_id for t in processes[1].tables.values()) == [11]
    lobbies = {s: {t.id for t in p.tables.values()} for s, p in enumerate(processes)}
    for shard, service in enumerate(processes):  # a lobby expires: timed by its owner only
        assert set(service.scheduler._planned) == lobbies[shard]
    await storage.close()
