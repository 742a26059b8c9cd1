"""The storage interface, on both backends: every test here runs on SQLite and PostgreSQL.

Tables, seats, matches and the action log as the table service uses them; the batched
action write and its fallback; a migration that fails; a writer held up behind another
one's lock (docs/storage.md).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bot.storage import (
    MigrationError,
    RoundRecord,
    SeatRow,
    Storage,
    StorageBusy,
    StorageConflict,
    StorageError,
    open_storage,
)
from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SqliteStorage
from tests.support.backends import another_writer

T0 = 1_800_000_000_000
GUILD = 7


async def lobby(storage: Storage, channel: int = 10, game: str = "tamalou") -> Any:
    table = await storage.create_table(GUILD, channel, SeatRow(0, 100, "ann"), {"t": 1}, T0, game)
    assert table is not None
    return table


async def playing(storage: Storage, channel: int = 10) -> tuple[Any, int]:
    table = await lobby(storage, channel)
    seats = [{"user_id": 100, "name": "ann"}, {"user_id": 101, "name": "bob"}]
    match_id = await storage.create_match(table, "seed", {"target": 100}, seats, T0 + 1)
    return table, match_id


def entries(first: int, count: int) -> list[tuple[int, dict[str, Any], int | None]]:
    return [(T0 + first + i, {"kind": "tick", "i": first + i}, 100) for i in range(count)]


# -- the backend is chosen by the database setting -------------------------------------------


def test_a_postgresql_url_selects_postgresql_and_anything_else_sqlite() -> None:
    assert isinstance(open_storage("postgresql://u@localhost/db"), PostgresStorage)
    assert isinstance(open_storage("postgres://u@localhost/db"), PostgresStorage)
    assert isinstance(open_storage("tamalou.sqlite3"), SqliteStorage)
    assert isinstance(open_storage(), SqliteStorage)
    assert open_storage("t.sqlite3", busy_timeout_ms=250).busy_timeout_ms == 250


def test_the_interface_is_not_a_backend() -> None:
    """``Storage`` is what every backend shares; it opens nothing itself (the factory does)."""
    with pytest.raises(TypeError, match="open_storage"):
        Storage("tamalou.sqlite3")


# -- tables, seats, matches, actions ---------------------------------------------------------


async def test_one_live_table_per_channel(storage: Storage) -> None:
    first = await lobby(storage)
    assert await storage.create_table(GUILD, 10, SeatRow(0, 5, "x"), {}, T0) is None
    await storage.set_table_status(first.id, "cancelled", T0 + 5)
    again = await lobby(storage)
    assert again.id > first.id
    assert [t.id for t in await storage.live_tables()] == [again.id]


async def test_tables_keep_their_game_seats_settings_and_message(storage: Storage) -> None:
    table = await lobby(storage, game="kalooki")
    await storage.save_seats(table.id, [SeatRow(0, 100, "ann"), SeatRow(1, 9, "AI", "hard")], 9)
    await storage.set_table_message(table.id, 2**62)  # Discord ids need 64 bits
    row = await storage.get_table(table.id)
    assert row is not None
    assert (row.game, row.host_id, row.settings, row.message_id) == ("kalooki", 9, {"t": 1}, 2**62)
    assert row.seats == [SeatRow(0, 100, "ann"), SeatRow(1, 9, "AI", "hard")]
    assert await storage.get_table(table.id + 1) is None


async def test_guild_settings_merge(storage: Storage) -> None:
    assert await storage.guild_settings(1) == {}
    await storage.set_guild_settings(1, "en", None)
    await storage.set_guild_settings(1, None, 45)
    assert await storage.guild_settings(1) == {"language": "en", "turn_seconds": 45}


async def test_actions_rounds_and_the_finished_match_commit_together(storage: Storage) -> None:
    table, match_id = await playing(storage)
    assert (await storage.current_match(table.id)) is not None
    await storage.append_actions(match_id, 0, entries(0, 3), [])
    record = RoundRecord(1, "called", 0, T0 + 9, [3.0, 12.5], [3.0, 12.5], [1, 2])
    await storage.append_actions(
        match_id, 3, entries(3, 1), [(record, [100, 101])], finished_at=T0 + 9, table_id=table.id
    )
    assert [a.n for a in await storage.actions(match_id)] == [0, 1, 2, 3]
    assert (await storage.actions(match_id))[1].payload == {"kind": "tick", "i": 1}
    match = await storage.get_match(match_id)
    assert match is not None and (match.status, match.ended_at) == ("finished", T0 + 9)
    scores = await storage.fetch(
        "SELECT seat, total, place FROM round_scores WHERE match_id = ? ORDER BY seat", match_id
    )
    assert [tuple(r) for r in scores] == [(0, 3.0, 1), (1, 12.5, 2)]
    assert await storage.live_tables() == []


async def test_a_failed_round_commit_keeps_nothing_of_it(storage: Storage) -> None:
    """The action, the round and the finish are one transaction: a duplicate fails them all."""
    table, match_id = await playing(storage)
    await storage.append_actions(match_id, 0, entries(0, 2), [])
    record = RoundRecord(1, "called", 0, T0 + 9, [3.0, 12.5], [3.0, 12.5], [1, 2])
    with pytest.raises(StorageConflict):  # n=1 is taken
        await storage.append_actions(
            match_id, 1, entries(1, 2), [(record, [100, 101])], T0 + 9, table.id
        )
    assert [a.n for a in await storage.actions(match_id)] == [0, 1]
    assert await storage.fetch("SELECT * FROM rounds") == []
    match = await storage.get_match(match_id)
    assert match is not None and match.status == "playing"


async def test_cancelling_a_table_cancels_its_match_in_the_same_commit(storage: Storage) -> None:
    table, match_id = await playing(storage)
    await storage.cancel_table(table.id, match_id, T0 + 50)
    row, match = await storage.get_table(table.id), await storage.get_match(match_id)
    assert row is not None and row.status == "cancelled"
    assert match is not None and (match.status, match.ended_at) == ("cancelled", T0 + 50)
    assert await lobby(storage) is not None  # the channel is free again


async def test_a_failed_cancel_changes_neither_row(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One transaction: if the table's write fails, the match's is rolled back too."""
    table, match_id = await playing(storage)
    with pytest.raises(StorageError):
        await storage.cancel_table(table.id + 10**20, match_id, T0 + 50)  # no such id fits
    match = await storage.get_match(match_id)
    assert match is not None and match.status == "playing"


# -- the batched write of plain moves ----------------------------------------------------------


async def test_moves_arriving_together_are_written_in_one_statement(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, match_id = await playing(storage)
    sizes: list[int] = []
    insert = storage._insert_actions

    async def spy(rows: list[tuple[Any, ...]]) -> None:
        sizes.append(len(rows))
        await insert(rows)

    monkeypatch.setattr(storage, "_insert_actions", spy)
    await asyncio.gather(
        *(storage.append_actions(match_id, n, entries(n, 1), []) for n in range(5))
    )
    assert sizes == [5]
    assert [a.n for a in await storage.actions(match_id)] == [0, 1, 2, 3, 4]


async def test_a_bad_request_in_a_batch_fails_alone(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fallback: the batch's INSERT fails, each request is retried alone."""
    _, match_id = await playing(storage)
    await storage.append_actions(match_id, 0, entries(0, 1), [])
    sizes: list[int] = []
    insert = storage._insert_actions

    async def spy(rows: list[tuple[Any, ...]]) -> None:
        sizes.append(len(rows))
        await insert(rows)

    monkeypatch.setattr(storage, "_insert_actions", spy)
    results = await asyncio.gather(
        storage.append_actions(match_id, 1, entries(1, 2), []),
        storage.append_actions(match_id, 0, entries(0, 1), []),  # n=0 is taken
        storage.append_actions(match_id, 3, entries(3, 2), []),
        return_exceptions=True,
    )
    assert sizes == [5, 2, 1, 2]  # the batch, then each request alone
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], StorageConflict)
    assert [a.n for a in await storage.actions(match_id)] == [0, 1, 2, 3, 4]


async def test_a_cancelled_flush_fails_its_waiters_instead_of_hanging(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shutdown cancels the flusher: every move waiting on it gets an answer (cancelled)."""
    _, match_id = await playing(storage)
    started = asyncio.Event()

    async def stuck(rows: list[tuple[Any, ...]]) -> None:
        started.set()
        await asyncio.Event().wait()  # never returns

    with monkeypatch.context() as m:
        m.setattr(storage, "_insert_actions", stuck)
        waiters = [
            asyncio.create_task(storage.append_actions(match_id, n, entries(n, 1), []))
            for n in range(3)
        ]
        await asyncio.wait_for(started.wait(), 5)
        assert storage._flusher is not None
        storage._flusher.cancel()
        results = await asyncio.wait_for(asyncio.gather(*waiters, return_exceptions=True), 5)
    assert all(isinstance(r, asyncio.CancelledError) for r in results)
    assert await storage.actions(match_id) == []
    # a new move after the cancellation starts a new flusher and is written
    await storage.append_actions(match_id, 0, entries(0, 1), [])
    assert [a.n for a in await storage.actions(match_id)] == [0]


# -- migrations ---------------------------------------------------------------------------------

GOOD = (1, "CREATE TABLE alpha (x INTEGER NOT NULL);")
BAD = (2, "CREATE TABLE beta (x INTEGER);\nINSERT INTO alpha (x) VALUES (1);\nCREATE TABLE (;")


async def test_a_failing_migration_rolls_back_whole(db_target: str) -> None:
    first = open_storage(db_target, migrations=[GOOD])
    await first.open()
    await first.close()
    broken = open_storage(db_target, migrations=[GOOD, BAD])
    with pytest.raises(MigrationError, match="Migration 002 failed and was rolled back"):
        await broken.open()
    after = open_storage(db_target, migrations=[GOOD])
    await after.open()
    try:
        assert await after.schema_version() == 1  # unchanged
        assert await after.fetchval("SELECT COUNT(*) FROM alpha") == 0  # no partial insert
        with pytest.raises(StorageError):  # no partial schema
            await after.fetch("SELECT * FROM beta")
    finally:
        await after.close()


async def test_migrations_apply_once_and_in_order(storage: Storage, db_target: str) -> None:
    numbers = [n for n, _ in storage.migrations()]
    assert numbers == sorted(numbers) and numbers[:4] == [1, 2, 3, 4]
    assert await storage.schema_version() == numbers[-1]
    again = open_storage(db_target)
    await again.open()  # nothing left to apply: no error from re-creating tables
    assert await again.schema_version() == numbers[-1]
    await again.close()


# -- a writer held up behind another one's lock (issue 10) --------------------------------------


async def test_a_lock_longer_than_the_busy_timeout_raises_storage_busy(db_target: str) -> None:
    storage = open_storage(db_target, busy_timeout_ms=200)
    await storage.open()
    try:
        table, match_id = await playing(storage)
        async with another_writer(db_target):
            began = time.monotonic()
            with pytest.raises(StorageBusy) as busy:
                await storage.set_table_status(table.id, "cancelled", T0)
            assert time.monotonic() - began < 3
            assert "locked by another writer" in str(busy.value) and "Retry" in str(busy.value)
            with pytest.raises(StorageBusy):  # the batched path of plain moves too
                await storage.append_actions(match_id, 0, entries(0, 1), [])
            with pytest.raises(StorageBusy):  # and a transaction
                await storage.create_match(table, "s", {}, [], T0)
        # the lock is gone: the same writes go through, nothing was half-written
        await storage.append_actions(match_id, 0, entries(0, 1), [])
        await storage.set_table_status(table.id, "cancelled", T0)
        assert [a.n for a in await storage.actions(match_id)] == [0]
    finally:
        await storage.close()


async def test_close_commits_the_moves_still_waiting_in_the_batch(db_target: str) -> None:
    """Shutdown: moves handed to the batched writer before close() are in the database
    after it (the bot's close() relies on it; no reaching into the flusher)."""
    storage = open_storage(db_target)
    await storage.open()
    _, match_id = await playing(storage)
    pending = [
        asyncio.create_task(storage.append_actions(match_id, n, entries(n, 1), []))
        for n in range(5)
    ]
    await asyncio.sleep(0)  # the moves are queued, the flusher started
    await storage.close()
    assert all(task.done() and task.exception() is None for task in pending)
    again = open_storage(db_target)
    await again.open()
    try:
        assert [a.n for a in await again.actions(match_id)] == [0, 1, 2, 3, 4]
    finally:
        await again.close()


async def test_a_restart_reads_every_live_match_and_their_logs_at_once(storage: Storage) -> None:
    """Issue 16: the matches of the playing tables in one read, the logs of several matches
    in another; the same rows as ``current_match`` and ``actions`` give one by one."""
    t1, m1 = await playing(storage, 10)
    t2, m2 = await playing(storage, 11)
    await lobby(storage, 12)  # no match yet
    await storage.append_actions(m1, 0, entries(0, 3), [])
    await storage.append_actions(m2, 0, entries(10, 2), [])
    matches = await storage.live_matches()
    assert {t: m.id for t, m in matches.items()} == {t1.id: m1, t2.id: m2}
    assert matches[t1.id] == await storage.current_match(t1.id)
    logs = await storage.actions_of([m2, m1])
    assert logs == {m1: await storage.actions(m1), m2: await storage.actions(m2)}
    assert [a.payload["i"] for a in logs[m2]] == [10, 11]
    assert await storage.actions_of([]) == {}
    await storage.append_actions(m2, 2, entries(12, 1), [], finished_at=T0 + 9, table_id=t2.id)
    assert set(await storage.live_matches()) == {t1.id}  # a finished match is not live


COUNT_STATEMENT_TRIPS = """
import asyncio, sys
from bot.storage.postgres import PostgresStorage
from emulator import launcher

class Reporter:
    n = 0
    def send(self, kind, **data):
        Reporter.n += data["n"]

async def main(url):
    storage = PostgresStorage(url)
    await storage.connect()
    await storage.fetchval("SELECT ?::int", 1)  # prepared once
    launcher.install_db_round_trips(Reporter())
    counts = []
    for value in (2, 3):
        before = Reporter.n
        await storage.fetchval("SELECT ?::int", value)
        counts.append(Reporter.n - before)
    async with storage.transaction() as tx:  # a transaction still rolls back on release
        await tx.execute("CREATE TEMP TABLE t (x int)")
    await storage.disconnect()
    print(counts)

asyncio.run(main(sys.argv[1]))
"""


async def test_a_pooled_statement_costs_one_round_trip_to_postgresql() -> None:
    """Issue 25 (round trips a click): asyncpg's pool sent its reset query (advisory
    unlock, CLOSE ALL, UNLISTEN, RESET ALL) after every statement, a second round trip for
    each; the bot keeps no session state for it to undo."""
    import subprocess
    import sys
    from pathlib import Path

    from tests.support.backends import fresh_database

    url = await fresh_database()  # skips without a PostgreSQL server
    done = subprocess.run(
        [sys.executable, "-c", COUNT_STATEMENT_TRIPS, url],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.strip() == "[1, 1]", done.stderr[-2000:]
