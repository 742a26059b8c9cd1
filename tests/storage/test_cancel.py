"""Cancelling a table is one transaction (issue 10): a process killed inside the cancel
leaves the table as it was, never a table whose match is cancelled while the table still
holds its channel (a zombie that refused ``/tamalou new`` for ever). On both backends."""

from __future__ import annotations

from typing import Any

import pytest

import tamalou.games
from bot.games import rules_for
from bot.storage import SeatRow, Storage, open_storage
from bot.storage import postgres as pg_backend
from bot.storage import sqlite as sqlite_backend
from bot.tables import TableError, TableService
from tests.bot.test_tables import Clock, Presenter

GUILD, CHANNEL = 1, 10


class Killed(BaseException):
    """The process dies here (SIGKILL): nothing after this statement runs."""


def kill_at_the_table_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process dies when the table's row is about to be marked cancelled, after the
    match's row was (whether the two writes share a transaction or not)."""

    def dying(real: Any) -> Any:
        async def execute(self: Any, sql: str, *args: Any) -> None:
            if sql.lstrip().startswith("UPDATE tables SET status") and "cancelled" in (
                sql + repr(args)
            ):
                raise Killed
            await real(self, sql, *args)

        return execute

    for cls in (
        sqlite_backend.SqliteStorage,
        sqlite_backend._Tx,
        pg_backend.PostgresStorage,
        pg_backend._Tx,
    ):
        monkeypatch.setattr(cls, "execute", dying(cls.execute))


async def service_on(target: str) -> tuple[TableService, Storage]:
    storage = open_storage(target)
    await storage.open()
    service = TableService(
        storage,
        Presenter(),
        rules_for=rules_for,
        load_game=tamalou.games.load,
        clock=Clock(),
        seeds=lambda: "s",
    )
    await service.load()
    return service, storage


async def test_a_kill_inside_cancel_leaves_no_zombie_table(
    db_target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, storage = await service_on(db_target)
    table = await service.open_table(GUILD, CHANNEL, 100, "ann", {})
    await service.join(table, 101, "bob")
    await service.start(table, 100)
    with monkeypatch.context() as m:
        kill_at_the_table_write(m)
        with pytest.raises(Killed):
            await service.cancel(table, "host")
    await storage.close()  # the process is gone; its open transaction with it

    service, storage = await service_on(db_target)  # the restart
    try:
        again = service.table_in(CHANNEL)
        assert again.status == "playing"
        assert again.match is not None and again.game is not None  # its match goes on
        await service.cancel(again, "host")  # and the host can still cancel it
        with pytest.raises(TableError):
            service.table_in(CHANNEL)
        fresh = await service.open_table(GUILD, CHANNEL, 100, "ann", {})  # /tamalou new
        assert fresh.status == "lobby"
        statuses = await storage.fetch("SELECT status FROM matches ORDER BY id")
        assert [r["status"] for r in statuses] == ["cancelled"]
    finally:
        await storage.close()


async def test_cancel_writes_the_table_and_its_match_together(storage: Storage) -> None:
    table = await storage.create_table(GUILD, CHANNEL, SeatRow(0, 100, "ann"), {}, 0)
    assert table is not None
    match_id = await storage.create_match(table, "s", {}, [{"user_id": 100}], 1)
    await storage.cancel_table(table.id, match_id, 2)
    assert await storage.live_tables() == []
    match = await storage.get_match(match_id)
    assert match is not None and match.status == "cancelled"
