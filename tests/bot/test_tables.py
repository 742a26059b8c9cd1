"""The game-agnostic table service: its clock, its scheduler, its AI seats, its shutdown."""

from __future__ import annotations

import ast
import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import tamalou.games
from bot.games import rules_for
from bot.storage import Storage, open_storage
from bot.tables import LiveTable, TableService
from bot.tables.scheduler import Scheduler
from tamalou.games.tamalou import actions as A

ROOT = Path(__file__).resolve().parents[2]
T0 = 1_800_000_000_000


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> int:
        return self.now


class Presenter:
    """Records what the service publishes; ``slow_close`` makes closing take a while."""

    def __init__(self, slow_close: float = 0.0) -> None:
        self.calls: list[str] = []
        self.slow_close = slow_close

    async def table_changed(self, table: LiveTable) -> None:
        self.calls.append("changed")

    async def match_started(self, table: LiveTable) -> None:
        self.calls.append("match")

    async def round_started(self, table: LiveTable) -> None:
        self.calls.append("round")

    async def table_closed(self, table: LiveTable, reason: str) -> None:
        self.calls.append(f"closing:{reason}")
        await asyncio.sleep(self.slow_close)
        self.calls.append(f"closed:{reason}")


async def make(
    tmp_path: Path, presenter: Presenter | None = None, **options: int
) -> tuple[TableService, Storage, Clock]:
    storage = open_storage(tmp_path / "t.sqlite3")
    await storage.open()
    clock = Clock()
    service = TableService(
        storage,
        presenter or Presenter(),
        rules_for=rules_for,
        load_game=tamalou.games.load,
        reorder_ms=0,
        clock=clock,
        seeds=lambda: "fixed-seed",
        **options,
    )
    return service, storage, clock


def knowledge(player: Any) -> dict[str, Any]:
    """What an AI seat remembers (its random generator compared by its state)."""
    memory = player.memory
    known = {f.name: getattr(memory, f.name) for f in dataclasses.fields(memory)}
    known["_rng"] = memory._rng.getstate()
    return known


def test_the_table_service_never_imports_a_game() -> None:
    """DESIGN: bot/tables/ reaches a game through ``tamalou.games.load`` only."""
    for path in (ROOT / "bot" / "tables").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert not name.startswith(("tamalou.games.", "bot.games")), (path, name)


async def test_the_seed_source_is_injected(tmp_path: Path) -> None:
    service, storage, _ = await make(tmp_path)
    table = await service.open_table(1, 10, 100, "ann", {})
    await service.join(table, 101, "bob")
    await service.start(table, 100)
    assert table.match is not None and table.match.seed == "fixed-seed"
    await storage.close()


async def test_r_k2_a_deadline_that_passed_is_applied_before_the_action(tmp_path: Path) -> None:
    """The turn clock ran out before the press: the log holds the clock's move first, then
    the press, applied to the state after the timeout (R-K2)."""
    service, storage, clock = await make(tmp_path)
    table = await service.open_table(1, 10, 100, "ann", {})
    await service.join(table, 101, "bob")
    await service.start(table, 100)
    game = table.game
    assert game is not None and table.match is not None
    for seat in (0, 1):
        await service.act(table, A.Peek(seat, T0), 100 + seat)
    clock.now = T0 + game.rules.peek_ms
    await service.tick(table)  # the first turn starts
    first = game.round.current
    late = game.round.turn_deadline + 10  # nobody played: the next player presses after it
    outcome = await service.act(table, A.Draw(1 - first, late), 100 + (1 - first))
    assert outcome.error is None
    kinds = [row.payload["kind"] for row in await storage.actions(table.match.id)]
    assert kinds[-2:] == ["tick", "draw"]
    assert game.round.current == 1 - first and game.round.stage == "holding"
    await storage.close()


async def test_a_restart_rebuilds_each_ai_seats_memory_from_the_log(tmp_path: Path) -> None:
    """An AI seat fed the log again knows what it knew, and decides as it would have."""
    service, storage, clock = await make(tmp_path)
    table = await service.open_table(1, 10, 100, "ann", {})
    await service.add_ai(table, 100, "medium")
    await service.start(table, 100)
    game = table.game
    assert game is not None
    await service.act(table, A.Peek(0, T0), 100)
    await service.act(table, A.Peek(1, T0), None)
    clock.now = T0 + game.rules.peek_ms
    await service.tick(table)
    for _ in range(3):  # a few turns, both seats drawing and throwing
        seat = game.round.current
        await service.act(table, A.Draw(seat, clock.now), None)
        await service.act(table, A.Throw(seat, clock.now), None)
        if game.round.stage == "power" and game.round.current == seat:
            await service.act(table, A.Pass(seat, clock.now), None)
    before = table.ai[1].player
    again, storage2, _ = await make(tmp_path)
    assert await again.load() == 1
    rebuilt = again.tables[table.id]
    after = rebuilt.ai[1].player
    assert after.memory.events_seen == before.memory.events_seen > 0  # type: ignore[attr-defined]
    assert knowledge(after) == knowledge(before)
    module = rebuilt.module
    seen, legal = module.view(rebuilt.game, 1, clock.now), module.legal_actions(rebuilt.game, 1)
    assert after.act(seen, legal, clock.now) == before.act(seen, legal, clock.now)
    await storage.close()
    await storage2.close()


def test_the_scheduler_looks_only_at_tables_that_are_due() -> None:
    """A heap of deadlines: a pass over 500 waiting tables asks about the one that is due."""
    now = {"t": 1_000}
    due = {i: 5_000 + i for i in range(500)}
    due[42] = 900
    asked: list[int] = []

    def due_of(table_id: int) -> int | None:
        asked.append(table_id)
        return due[table_id]

    async def wake(table_id: int) -> None:
        return None

    scheduler = Scheduler(lambda: now["t"], due_of, wake)
    for table_id in due:
        scheduler.plan(table_id)
    asked.clear()
    assert scheduler.due_now() == [42]
    assert asked == [42]
    now["t"] = 5_002  # two more come due; a table planned again keeps one live entry
    due[1] = 9_000
    scheduler.plan(1)
    asked.clear()
    assert sorted(scheduler.due_now()) == [0, 2]
    assert sorted(asked) == [0, 2]


async def test_shutdown_waits_for_the_timer_work_in_progress(tmp_path: Path) -> None:
    """``stop`` returns once the scheduler's wakes are done: nothing writes after the storage
    closes (here: a lobby expiring while the bot shuts down)."""
    presenter = Presenter(slow_close=0.2)
    service, storage, clock = await make(tmp_path, presenter, lobby_timeout_s=1)
    await service.open_table(1, 10, 100, "ann", {})
    service.start_scheduler()
    clock.now = T0 + 2_000
    for _ in range(100):
        await asyncio.sleep(0.01)
        if "closing:expired" in presenter.calls:
            break
    assert "closing:expired" in presenter.calls
    await service.stop()
    assert presenter.calls[-1] == "closed:expired"
    assert all(task.done() for task in service.scheduler._tasks)
    await storage.close()


class MovingClock(Clock):
    """A test clock that says when it jumps (as the e2e entry point's file clock does)."""

    def __init__(self) -> None:
        super().__init__()
        self.listeners: list[Any] = []

    def on_move(self, callback: Any) -> Any:
        self.listeners.append(callback)
        return lambda: self.listeners.remove(callback)

    def jump(self, ms: int) -> None:
        self.now += ms
        for listener in list(self.listeners):
            listener()


async def test_the_scheduler_wakes_when_the_clock_jumps(monkeypatch: Any) -> None:
    """A jump of a clock that says so wakes the due table at once, not at the next nap
    (naps are made endless here: only the jump can wake it)."""
    from bot.tables import scheduler as scheduler_module

    monkeypatch.setattr(scheduler_module, "MAX_NAP_S", 3600.0)
    clock = MovingClock()
    woken = asyncio.Event()

    async def wake(table_id: int) -> None:
        woken.set()

    scheduler = Scheduler(clock, lambda table_id: None if woken.is_set() else T0 + 60_000, wake)
    scheduler.start()
    scheduler.plan(7)
    await asyncio.sleep(0)  # the loop naps until the table is due, an hour of real time
    clock.jump(60_000)
    await asyncio.wait_for(woken.wait(), 30)
    await scheduler.stop()
    assert clock.listeners == []  # stopped: it listens no more


async def test_sleep_until_wakes_when_the_clock_jumps() -> None:
    """``sleep_until`` on a clock that says when it jumps returns at the jump, however long
    its naps (an hour here)."""
    from bot.tables.clock import sleep_until

    clock = MovingClock()
    sleeper = asyncio.create_task(sleep_until(clock, T0 + 45_000, longest_s=3600))
    await asyncio.sleep(0)
    clock.jump(30_000)
    await asyncio.sleep(0.05)
    assert not sleeper.done()  # not due yet: it sleeps on
    clock.jump(15_000)
    await asyncio.wait_for(sleeper, 30)
    assert clock.listeners == []


async def test_the_test_entry_clock_says_when_its_file_moves(tmp_path: Path) -> None:
    """The e2e bot's clock (an offset in a file) tells its listeners when the test moves it,
    and has the new time once it does."""
    from tests.support.e2e_bot import OffsetClock

    path = tmp_path / "clock_offset_ms"
    path.write_text("0")
    clock = OffsetClock(str(path))
    loop = asyncio.get_running_loop()
    moved = asyncio.Event()
    unsubscribe = clock.on_move(lambda: loop.call_soon_threadsafe(moved.set))
    before = clock()
    part = path.with_suffix(".part")
    part.write_text("45000")
    part.replace(path)
    await asyncio.wait_for(moved.wait(), 30)
    assert clock() - before >= 45_000
    unsubscribe()
