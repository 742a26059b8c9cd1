"""Tournaments in the database (bot/tournaments/store.py), on both backends: each step is
stored once, even when it is asked again after a restart."""

from __future__ import annotations

from bot.storage import SeatRow, Storage, open_storage
from bot.tournaments.store import TournamentStore
from tamalou.core.tournament import Format, TablePlan, TableResult, standings

GUILD, CHANNEL = 1, 10
FMT = Format(players=4, rounds=2)


def clock() -> int:
    return 1_800_000_000_000


async def signed_up(store: TournamentStore, members: int = 8) -> int:
    t = await store.create(GUILD, CHANNEL, "tarot", "Cup", 500, FMT, {"ai_level": "easy"}, "s")
    for user in range(100, 100 + members):
        assert await store.sign_up(t.id, user, f"m{user}")
    return t.id


async def test_a_tournament_and_its_sign_ups_are_kept(storage: Storage) -> None:
    store = TournamentStore(storage, clock)
    tid = await signed_up(store, 3)
    assert not await store.sign_up(tid, 100, "again")  # once
    await store.leave(tid, 101)
    found = await store.get(tid)
    assert found is not None
    assert (found.name, found.game, found.status, found.format) == ("Cup", "tarot", "signup", FMT)
    assert found.settings == {"ai_level": "easy"}
    assert [(e.user_id, e.entry_no) for e in found.entrants] == [(100, 1), (102, 3)]
    assert [t.id for t in await store.live()] == [tid]


async def test_no_sign_up_after_the_start(storage: Storage) -> None:
    store = TournamentStore(storage, clock)
    tid = await signed_up(store, 4)
    assert await store.start_round(tid, 1, [TablePlan(1, "s:round:1", (100, 101, 102, 103))])
    assert not await store.sign_up(tid, 200, "late")
    assert not await store.start_round(tid, 1, [])  # a round is seated once


async def test_rounds_tables_and_scores_are_stored_exactly_once(
    storage: Storage, db_target: str
) -> None:
    store = TournamentStore(storage, clock)
    tid = await signed_up(store, 7)
    plans = [
        TablePlan(1, "s:round:1", (100, 101, 102, 103)),
        TablePlan(2, "s:round:1", (104, None, 105, 106)),
    ]
    assert await store.start_round(tid, 1, plans)
    # a tournament's tables share the channel, with each other and with an ordinary table
    host = SeatRow(0, 100, "m100")
    ordinary = await storage.create_table(GUILD, CHANNEL, host, {}, clock(), "tarot")
    assert ordinary is not None
    for table_no in (1, 2):
        row = await storage.create_table(GUILD, CHANNEL, host, {}, clock(), "tarot", tid)
        assert row is not None and row.tournament_id == tid
        await store.attach_table(tid, 1, table_no, row.id)
    assert await storage.create_table(GUILD, CHANNEL, host, {}, clock(), "tarot") is None
    tables = await store.tables(tid, 1)
    assert [t.seats for t in tables] == [p.seats for p in plans]
    assert tables[1].plan() == plans[1]
    result = TableResult(1, plans[0].seats, {1: (30.0, -10.0, -10.0, -10.0)}, (30, -10, -10, -10))
    assert await store.finish_table(tables[0], result)
    assert not await store.finish_table(tables[0], result)  # once
    assert tables[0].table_id is not None
    stored = await store.table_of(tables[0].table_id)
    assert stored is not None and stored.status == "finished" and stored.result == result
    assert await store.finish_table(tables[1], None)  # closed without a result
    assert await store.score_round(tid, 1, {100: 5.0, 104: -5.0})

    # a restart: a new connection on the same database; asking again changes nothing
    again = open_storage(db_target)
    await again.open()
    try:
        store2 = TournamentStore(again, clock)
        assert not await store2.score_round(tid, 1, {100: 99.0})
        assert await store2.scores(tid) == [{100: 5.0, 104: -5.0}]
        assert await store2.rounds(tid) == [(1, "scored")]
        found = await store2.get(tid)
        assert found is not None and found.status == "playing"
        ranking = standings([(e.user_id, e.name) for e in found.entrants], [{100: 5.0}])
        assert await store2.finish(tid, ranking)
        assert not await store2.finish(tid, ranking)  # once
        csv_text = await store2.export_csv(tid)
        assert csv_text.splitlines()[:2] == [
            "rank,user_id,name,score,buchholz,withdrawn",
            "1,100,m100,5,0,0",
        ]
        assert await store2.member_results(GUILD, 100, "tarot") == [("Cup", 1, 7, 5.0)]
        assert await store2.member_results(GUILD, 100, "tamalou") == []
    finally:
        await again.close()


async def test_a_cancelled_tournament_names_its_tables_to_close(storage: Storage) -> None:
    store = TournamentStore(storage, clock)
    tid = await signed_up(store, 4)
    await store.start_round(tid, 1, [TablePlan(1, "s:round:1", (100, 101, 102, 103))])
    row = await storage.create_table(
        GUILD, CHANNEL, SeatRow(0, 100, "m"), {}, clock(), "tarot", tid
    )
    assert row is not None
    await store.attach_table(tid, 1, 1, row.id)
    assert await store.cancel(tid) == [row.id]
    found = await store.get(tid)
    assert found is not None and found.status == "cancelled"
    assert await store.rounds(tid) == [(1, "cancelled")]
    assert await store.live() == []


async def test_a_withdrawn_member_is_kept_as_withdrawn(storage: Storage) -> None:
    store = TournamentStore(storage, clock)
    tid = await signed_up(store, 2)
    await store.withdraw(tid, 101)
    found = await store.get(tid)
    assert found is not None
    assert [e.user_id for e in found.active] == [100]
    assert found.entrant(101) is not None and found.entrant(101).withdrawn  # type: ignore[union-attr]
