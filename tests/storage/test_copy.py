"""``python -m bot.storage copy SOURCE TARGET``: a whole database moves between backends.

The source is filled the way the bot fills it (tables, seats, matches, actions, rounds,
seasons with their records); the copy is compared row by row with the source, and the
target goes on working (ids follow the copied ones).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.seasons import Seasons
from bot.storage import SeatRow, Storage, StorageError, open_storage
from bot.storage.copy import CopyMismatch, copy_database, verify_database
from bot.storage.dialect import TABLES
from bot.storage.display_state import (
    LapsedPing,
    MemberPanel,
    TimedPanel,
    TurnPing,
    save_lapsed_ping,
    save_member_panel,
    save_panel_memory,
    save_timed_panel,
    save_turn_ping,
    set_turn_ping,
)
from bot.tournaments.store import TournamentStore
from tamalou.core.tournament import Format, TablePlan
from tests.seasons.test_seasons import humans, store_match
from tests.support.backends import fresh_database

ROOT = Path(__file__).resolve().parents[2]


async def filled(target: str) -> Storage:
    storage = open_storage(target)
    await storage.open()
    seasons = Seasons(storage, min_matches=1)
    for seed, lineup in enumerate([(1, 2, 3), (2, 3), (1, 3)], start=300):
        match_id, _ = await store_match(storage, humans(*lineup), seed=seed)
        await seasons.record_match(match_id)
    await seasons.end(4242)
    table = await storage.create_table(
        4242, 999, SeatRow(0, 1, "ann"), {"target": 50}, 5, "kalooki"
    )
    assert table is not None
    await storage.set_guild_settings(4242, "fr", 45, kalooki_turn_s=60, opener_role_id=7)
    await set_turn_ping(storage, 4242, 1, False)
    await save_timed_panel(storage, TimedPanel(table.id, 0, "tok", 77, 5, 5_005, "fr"))
    await save_turn_ping(storage, TurnPing(table.id, (1, (2, 3_000)), 78, 9))
    await save_lapsed_ping(storage, LapsedPing(table.id, 1, 80, 9, 4_000))
    await save_panel_memory(storage, table.id, 0, {"draft": None, "sort": "rank"})
    tournaments = TournamentStore(storage, lambda: 7)
    cup = await tournaments.create(
        4242, 999, "tarot", "Cup", 1, Format(players=2, rounds=1), {}, "s"
    )
    await tournaments.sign_up(cup.id, 1, "ann")
    await tournaments.start_round(cup.id, 1, [TablePlan(1, "s:round:1", (1, None))])
    await tournaments.score_round(cup.id, 1, {1: 2.5})
    await save_member_panel(storage, MemberPanel(table.id, 0, 1, "tok", 79, 5, "fr"))
    return storage


async def counts(storage: Storage) -> dict[str, int]:
    return {t: int(await storage.fetchval(f"SELECT COUNT(*) FROM {t}")) for t, _ in TABLES}


async def test_sqlite_to_postgresql_and_back_keeps_every_row(tmp_path: Path) -> None:
    source = await filled(str(tmp_path / "source.sqlite3"))
    pg = open_storage(await fresh_database())
    await pg.open()
    back = open_storage(tmp_path / "back.sqlite3")
    await back.open()
    try:
        copied = await copy_database(source, pg)
        assert copied == await counts(source)
        assert all(copied[t] > 0 for t, _ in TABLES)  # every table took part
        assert await verify_database(source, pg) == copied
        assert await copy_database(pg, back) == copied
        assert await verify_database(source, back) == copied
        # the copy works on: the next table id follows the copied ones, on both
        top = int(await source.fetchval("SELECT MAX(id) FROM tables"))
        for db in (pg, back):
            table = await db.create_table(1, 1, SeatRow(0, 1, "x"), {}, 1)
            assert table is not None and table.id == top + 1
    finally:
        for db in (source, pg, back):
            await db.close()


async def test_a_copy_into_a_database_with_rows_is_refused(tmp_path: Path) -> None:
    source = await filled(str(tmp_path / "a.sqlite3"))
    target = await filled(await fresh_database())
    try:
        with pytest.raises(StorageError, match="is not empty"):
            await copy_database(source, target)
    finally:
        await source.close()
        await target.close()


async def test_a_row_that_differs_is_found_and_named(tmp_path: Path) -> None:
    source = await filled(str(tmp_path / "a.sqlite3"))
    target = open_storage(await fresh_database())
    await target.open()
    try:
        await copy_database(source, target)
        await target.execute("UPDATE season_players SET wins = wins + 1 WHERE user_id = 2")
        with pytest.raises(CopyMismatch, match=r"season_players: the row .* differs in wins"):
            await verify_database(source, target)
    finally:
        await source.close()
        await target.close()


async def test_the_command_copies_and_reports(tmp_path: Path) -> None:
    source = await filled(str(tmp_path / "a.sqlite3"))
    expected = await counts(source)
    await source.close()
    url = await fresh_database()
    done = subprocess.run(
        [sys.executable, "-m", "bot.storage", "copy", str(tmp_path / "a.sqlite3"), url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert f"actions: {expected['actions']} rows copied and verified" in done.stdout
    assert f"copied {sum(expected.values())} rows from sqlite to postgresql" in done.stdout
    again = subprocess.run(
        [sys.executable, "-m", "bot.storage", "copy", str(tmp_path / "a.sqlite3"), url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 2 and "is not empty" in again.stderr
