"""One timer task for every table of the process: a heap of deadlines, not a scan.

Each table has at most one planned wake (``plan``). The table service re-plans a table
whenever its state changes; an entry whose time is no longer the table's planned time is
stale and skipped when it comes out of the heap. When a wake is due, ``due_of`` is asked
again (the truth is the table's state) and the table is woken in its own task; a table is
never woken twice at once, and it is planned again once its wake is done.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
from collections.abc import Awaitable, Callable

from bot.tables.clock import Clock, on_move

log = logging.getLogger(__name__)

#: longest nap: an injected clock may jump (tests) without telling the scheduler; one that
#: tells (``MovingClock``, the test entry point's) wakes it at once
MAX_NAP_S = 1.0


class Scheduler:
    def __init__(
        self,
        clock: Clock,
        due_of: Callable[[int], int | None],
        wake: Callable[[int], Awaitable[None]],
    ) -> None:
        self.clock = clock
        self._due_of = due_of  # table id -> when it must be woken (None: never / gone)
        self._wake = wake
        self._heap: list[tuple[int, int]] = []  # (due, table id)
        self._planned: dict[int, int] = {}  # table id -> its one live heap entry's time
        self._waking: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._event = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._unsubscribe: Callable[[], None] = lambda: None

    # -- planning --------------------------------------------------------------------

    def plan(self, table_id: int) -> None:
        """The table's state changed: plan its next wake from it."""
        due = self._due_of(table_id)
        if due is None:
            self._planned.pop(table_id, None)
            return
        if self._planned.get(table_id) == due:
            return
        self._planned[table_id] = due
        heapq.heappush(self._heap, (due, table_id))
        self._event.set()

    def forget(self, table_id: int) -> None:
        self._planned.pop(table_id, None)

    @property
    def planned(self) -> int:
        return len(self._planned)

    # -- running ---------------------------------------------------------------------

    def start(self) -> None:
        if self._task is None:
            self._unsubscribe = on_move(self.clock, asyncio.get_running_loop(), self._event.set)
            self._task = asyncio.create_task(self._loop(), name="tables-scheduler")

    async def stop(self, grace_s: float = 5.0) -> None:
        """Stop planning, let running wakes finish (up to ``grace_s``), then cancel the rest;
        returns once every task it started is done."""
        self._unsubscribe()
        self._unsubscribe = lambda: None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._tasks:
            _, pending = await asyncio.wait(set(self._tasks), timeout=grace_s)
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)

    def due_now(self) -> list[int]:
        """Pop every table whose planned wake has come; the ones to wake now."""
        now = self.clock()
        ready: list[int] = []
        while self._heap and self._heap[0][0] <= now:
            due, table_id = heapq.heappop(self._heap)
            if self._planned.get(table_id) != due:
                continue  # stale: the table was planned again since
            del self._planned[table_id]
            real = self._due_of(table_id)
            if real is None:
                continue
            if real > now:
                self._planned[table_id] = real
                heapq.heappush(self._heap, (real, table_id))
                continue
            if table_id not in self._waking:  # a running wake plans the table when done
                ready.append(table_id)
        return ready

    async def _loop(self) -> None:
        while True:
            self._event.clear()
            for table_id in self.due_now():
                self._waking.add(table_id)
                task = asyncio.create_task(self._run(table_id), name=f"tables-wake-{table_id}")
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
            now = self.clock()
            delay = MAX_NAP_S if not self._heap else max(0.005, (self._heap[0][0] - now) / 1000)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._event.wait(), timeout=min(delay, MAX_NAP_S))

    async def _run(self, table_id: int) -> None:
        try:
            await self._wake(table_id)
        finally:
            self._waking.discard(table_id)
            self.plan(table_id)
