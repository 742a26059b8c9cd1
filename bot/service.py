"""Live tables: lobby, engine, action log, ordering, timers. No Discord in here.

The Discord layer (``bot/discord_ui.py``) turns clicks into calls on :class:`TableService`
and renders what it publishes through the :class:`Presenter` it is given. Every rule is
decided by the engine (``tamalou``); this module only orders, stores and schedules.

Ordering (R-D4): every action is queued with its interaction time and applied after the
reorder window, earliest first, under the table's lock, so an earlier press that arrives
later still goes first.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import heapq
import itertools
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.storage import MatchRow, RoundRecord, SeatRow, Storage, TableRow
from tamalou.core.errors import IllegalAction
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.codec import action_from_dict, action_to_dict
from tamalou.games.tamalou.engine import apply, new_game, next_deadline
from tamalou.games.tamalou.rules import TAMALOU, Rules
from tamalou.games.tamalou.state import FOREVER, Game

log = logging.getLogger(__name__)

AI_LEVELS = ("random", "easy", "medium", "hard")
AI_USER_BASE = 1  # AI seats get user ids 1..8 (never a Discord snowflake)


def now_ms() -> int:
    return int(time.time() * 1000)


class TableError(Exception):
    """A refusal the user must read (translated by the Discord layer from ``reason``)."""

    def __init__(self, reason: str, **detail: object) -> None:
        super().__init__(reason)
        self.reason = reason
        self.detail = detail


class Presenter(Protocol):
    async def table_changed(self, table: LiveTable) -> None: ...
    async def round_started(self, table: LiveTable) -> None: ...
    async def table_closed(self, table: LiveTable, reason: str) -> None: ...


@dataclass(slots=True)
class Outcome:
    """What applying one player's action produced."""

    events: list[E.Event]
    error: IllegalAction | None = None


@dataclass
class LiveTable:
    row: TableRow
    match: MatchRow | None = None
    game: Game | None = None
    logged: int = 0  # actions in the log of the current match
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    queue: list[tuple[int, int, Callable[[], Awaitable[None]]]] = field(default_factory=list)
    recent: deque[E.Event] = field(default_factory=lambda: deque(maxlen=6))
    ai: dict[int, Any] = field(default_factory=dict)  # seat -> AI player
    ai_due: int | None = None
    displayed: set[int] = field(default_factory=set)  # display moments already shown
    stale: bool = False  # a commit failed and the rebuild from the log did not finish yet

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def seats(self) -> list[SeatRow]:
        return self.row.seats

    def seat_of(self, user_id: int) -> int | None:
        for s in self.row.seats:
            if s.user_id == user_id and s.ai_level is None:
                return s.seat
        return None

    @property
    def rules(self) -> Rules:
        return rules_for(self.row.settings)


def rules_for(settings: dict[str, Any]) -> Rules:
    """The table's rules: the tamalou preset with the table settings (R-M5, R-K1).

    Raises pydantic's ``ValidationError`` for settings the rules model refuses.
    """
    return _rules(
        float(settings.get("target", TAMALOU.target)),
        int(settings.get("turn_seconds", TAMALOU.turn_ms // 1000)),
        int(settings.get("max_players", TAMALOU.max_players)),
    )


@functools.lru_cache(maxsize=256)
def _rules(target: float, turn_seconds: int, max_players: int) -> Rules:
    data = TAMALOU.model_dump()
    data.update(target=target, turn_ms=turn_seconds * 1000, max_players=max_players)
    return Rules.model_validate(data)  # validated, unlike model_copy(update=...)


class TableService:
    def __init__(
        self,
        storage: Storage,
        presenter: Presenter,
        reorder_ms: int = 250,
        ai_delay_ms: int = 1500,
        lobby_timeout_s: int = 600,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.storage = storage
        self.presenter = presenter
        self.reorder_ms = reorder_ms
        self.ai_delay_ms = ai_delay_ms
        self.lobby_timeout_ms = lobby_timeout_s * 1000
        self.clock = clock
        self.tables: dict[int, LiveTable] = {}
        self.by_channel: dict[int, int] = {}
        self._counter = itertools.count()
        self._wakeup = asyncio.Event()
        self._scheduler: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._waking: set[int] = set()
        #: called once a match is finished and committed (seasons record it: bot/seasons.py)
        self.on_match_finished: Callable[[int], Awaitable[None]] | None = None

    # -- start-up ----------------------------------------------------------------------

    async def load(self) -> int:
        """Rebuild every live table from the database (restart: nothing lost)."""
        for row in await self.storage.live_tables():
            table = LiveTable(row)
            if row.status == "playing":
                match = await self.storage.current_match(row.id)
                if match is not None:
                    try:
                        await self._rebuild(table, match)
                    except Exception:  # one unreadable log must not keep the bot down
                        log.exception("table %s: its log does not replay; closing it", row.id)
                        await self._close_unreplayable(row.id, match.id)
                        continue
            self._register(table)
        log.info("loaded %d live tables", len(self.tables))
        return len(self.tables)

    async def _close_unreplayable(self, table_id: int, match_id: int) -> None:
        """A table whose log does not replay is closed, so that it never blocks its channel
        (its buttons answer that the table is gone; the log stays for a post-mortem)."""
        now = self.clock()
        try:
            await self.storage.cancel_match(match_id, now)
            await self.storage.set_table_status(table_id, "cancelled", now)
        except Exception:
            log.exception("table %s: could not close it either", table_id)

    async def _rebuild(self, table: LiveTable, match: MatchRow) -> None:
        rules = Rules.model_validate(match.rules)
        ai = [s.get("ai_level") is not None for s in match.seats]
        game, _ = new_game(rules, len(match.seats), match.seed, match.started_at, ai)
        rows = await self.storage.actions(match.id)
        for entry in rows:
            events = apply(game, action_from_dict(entry.payload))
            table.recent.extend(E.public(events))
        table.match, table.game, table.logged = match, game, len(rows)
        self._seat_ai(table)
        await self._replay_ai(table, rows)  # AI memory: fed the same stream again

    def _register(self, table: LiveTable) -> None:
        self.tables[table.id] = table
        self.by_channel[table.row.channel_id] = table.id

    def _forget(self, table: LiveTable) -> None:
        self.tables.pop(table.id, None)
        if self.by_channel.get(table.row.channel_id) == table.id:
            del self.by_channel[table.row.channel_id]

    def start_scheduler(self) -> None:
        if self._scheduler is None:
            self._scheduler = asyncio.create_task(self._schedule_loop(), name="tamalou-scheduler")

    async def stop(self) -> None:
        if self._scheduler is not None:
            self._scheduler.cancel()
            self._scheduler = None

    def table_in(self, channel_id: int) -> LiveTable:
        table_id = self.by_channel.get(channel_id)
        if table_id is None:
            raise TableError("no_table_here")
        return self.tables[table_id]

    def table(self, table_id: int) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("table_gone")
        return table

    # -- lobby -------------------------------------------------------------------------

    async def open_table(
        self, guild_id: int, channel_id: int, user_id: int, name: str, settings: dict[str, Any]
    ) -> LiveTable:
        if channel_id in self.by_channel:
            raise TableError("table_exists")
        rules_for(settings)  # validates the settings before anything is stored
        row = await self.storage.create_table(
            guild_id, channel_id, SeatRow(0, user_id, name), settings, self.clock()
        )
        if row is None:
            raise TableError("table_exists")
        table = LiveTable(row)
        self._register(table)
        self._wakeup.set()
        return table

    def _lobby(self, table: LiveTable) -> None:
        if table.row.status != "lobby":
            raise TableError("already_started")

    async def join(self, table: LiveTable, user_id: int, name: str) -> None:
        async with table.lock:
            self._lobby(table)
            if table.seat_of(user_id) is not None:
                raise TableError("already_seated")
            if len(table.seats) >= table.rules.max_players:
                raise TableError("table_full", max=table.rules.max_players)
            table.seats.append(SeatRow(len(table.seats), user_id, name))
            await self.storage.save_seats(table.id, table.seats, table.row.host_id)
        await self.presenter.table_changed(table)

    async def add_ai(self, table: LiveTable, user_id: int, level: str) -> SeatRow:
        if level not in AI_LEVELS:
            raise TableError("bad_ai_level", levels=", ".join(AI_LEVELS))
        async with table.lock:
            self._lobby(table)
            self._host_only(table, user_id)
            if len(table.seats) >= table.rules.max_players:
                raise TableError("table_full", max=table.rules.max_players)
            used = {s.user_id for s in table.seats if s.ai_level is not None}
            uid = next(i for i in itertools.count(AI_USER_BASE) if i not in used)
            seat = SeatRow(len(table.seats), uid, f"AI {uid} ({level})", level)
            table.seats.append(seat)
            await self.storage.save_seats(table.id, table.seats, table.row.host_id)
        await self.presenter.table_changed(table)
        return seat

    def _host_only(self, table: LiveTable, user_id: int) -> None:
        if table.row.host_id != user_id:
            raise TableError("host_only")

    async def leave(self, table: LiveTable, user_id: int) -> None:
        async with table.lock:
            self._lobby(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            await self._remove_seat(table, seat)
        if not table.seats or all(s.ai_level for s in table.seats):
            await self.cancel(table, "empty")
        else:
            await self.presenter.table_changed(table)

    async def kick(self, table: LiveTable, host_id: int, seat: int) -> SeatRow:
        async with table.lock:
            self._lobby(table)
            self._host_only(table, host_id)
            if not 0 <= seat < len(table.seats):
                raise TableError("bad_seat")
            if table.seats[seat].user_id == host_id:
                raise TableError("cannot_kick_self")
            removed = table.seats[seat]
            await self._remove_seat(table, seat)
        await self.presenter.table_changed(table)
        return removed

    async def _remove_seat(self, table: LiveTable, seat: int) -> None:
        leaving = table.seats.pop(seat)
        for i, s in enumerate(table.seats):
            s.seat = i
        if leaving.user_id == table.row.host_id:
            humans = [s for s in table.seats if s.ai_level is None]
            if humans:
                table.row.host_id = humans[0].user_id  # the host hands the table on
        await self.storage.save_seats(table.id, table.seats, table.row.host_id)

    async def cancel(self, table: LiveTable, reason: str) -> None:
        async with table.lock:
            if table.row.status not in ("lobby", "playing"):
                raise TableError("table_gone")
            now = self.clock()
            if table.match is not None:
                await self.storage.cancel_match(table.match.id, now)
            await self.storage.set_table_status(table.id, "cancelled", now)
            table.row.status = "cancelled"
            self._forget(table)
        await self.presenter.table_closed(table, reason)

    async def start(self, table: LiveTable, user_id: int) -> None:
        async with table.lock:
            self._lobby(table)
            self._host_only(table, user_id)
            rules = table.rules
            if len(table.seats) < rules.min_players:
                raise TableError("not_enough_players", min=rules.min_players)
            if all(s.ai_level for s in table.seats):
                raise TableError("ai_only")
            await self._start_match(table, rules)
        await self.presenter.round_started(table)
        self._wakeup.set()

    async def _start_match(self, table: LiveTable, rules: Rules) -> None:
        now = self.clock()
        seed = secrets.token_hex(8)
        seats = [
            {"user_id": s.user_id, "name": s.name, "ai_level": s.ai_level} for s in table.seats
        ]
        match_id = await self.storage.create_match(
            table.row, seed, rules.model_dump(mode="json"), seats, now
        )
        table.row.status = "playing"
        table.match = MatchRow(
            match_id,
            table.id,
            table.row.guild_id,
            seed,
            rules.model_dump(mode="json"),
            seats,
            now,
            None,
            "playing",
            table.row.game,
        )
        game, events = new_game(
            rules, len(seats), seed, now, [s["ai_level"] is not None for s in seats]
        )
        table.game, table.logged = game, 0
        table.recent.clear()
        table.recent.extend(E.public(events))
        self._seat_ai(table)
        self._feed_ai(table, events)

    async def rematch(self, table_id: int, user_id: int) -> LiveTable:
        """End of match: the same seats and settings play a new match at a new table row."""
        old = await self.storage.get_table(table_id)
        if old is None or old.status != "finished":
            raise TableError("match_not_over")
        if not any(s.user_id == user_id and s.ai_level is None for s in old.seats):
            raise TableError("not_seated")
        if old.channel_id in self.by_channel:
            raise TableError("table_exists")
        host = old.seats[0]
        row = await self.storage.create_table(
            old.guild_id,
            old.channel_id,
            SeatRow(0, host.user_id, host.name, host.ai_level),
            old.settings,
            self.clock(),
            old.game,
        )
        if row is None:
            raise TableError("table_exists")
        row.seats = [SeatRow(i, s.user_id, s.name, s.ai_level) for i, s in enumerate(old.seats)]
        row.host_id = old.host_id
        await self.storage.save_seats(row.id, row.seats, row.host_id)
        fresh = LiveTable(row)
        self._register(fresh)
        async with fresh.lock:
            await self._start_match(fresh, fresh.rules)
        await self.presenter.round_started(fresh)
        self._wakeup.set()
        return fresh

    # -- play --------------------------------------------------------------------------

    def seat_for(self, table: LiveTable, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated")
        if table.game is None:
            raise TableError("not_started")
        return seat

    async def act(self, table: LiveTable, action: A.Action, user_id: int | None) -> Outcome:
        """Queue ``action`` by its time, apply it after the reorder window (R-D4)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Outcome] = loop.create_future()

        async def run() -> None:
            try:
                done.set_result(await self._apply_logged(table, action, user_id))
            except BaseException as exc:  # the waiter answers the user and logs
                if not done.done():
                    done.set_exception(exc)

        heapq.heappush(table.queue, (action.at, next(self._counter), run))
        if self.reorder_ms:
            await asyncio.sleep(self.reorder_ms / 1000)
        async with table.lock:
            while table.queue and (table.queue[0][0], table.queue[0][1]) <= (action.at, 1 << 62):
                _, _, job = heapq.heappop(table.queue)
                await job()
                if done.done():
                    break
        outcome = await done
        if outcome.events:
            await self._after(table, outcome.events)
        return outcome

    async def _apply_logged(
        self, table: LiveTable, action: A.Action, user_id: int | None
    ) -> Outcome:
        """Apply (ticking first), commit to the log, then return the events. Holds the lock."""
        await self._fresh(table)
        game = table.game
        if game is None or table.match is None or table.row.status != "playing":
            raise TableError("not_started" if table.row.status == "lobby" else "table_gone")
        entries: list[tuple[int, dict[str, Any], int | None]] = []
        events: list[E.Event] = []
        due = next_deadline(game)
        at = max(action.at, game.now)
        if due is not None and due <= at:
            tick = A.Tick(at)
            events += apply(game, tick)
            entries.append((at, action_to_dict(tick), None))
        error: IllegalAction | None = None
        try:
            events += apply(game, action)
            entries.append((at, action_to_dict(action), user_id))
        except IllegalAction as exc:
            error = exc
        if entries:
            await self._commit_or_reload(table, entries, events)
        return Outcome(events, error)

    async def _commit_or_reload(
        self,
        table: LiveTable,
        entries: list[tuple[int, dict[str, Any], int | None]],
        events: list[E.Event],
    ) -> None:
        """Every path that applied something commits it, or rolls the game back to the log:
        the log is the truth, never keep a state the database did not take."""
        try:
            await self._commit(table, entries, events)
        except Exception:
            log.exception("table %s: could not commit; rebuilding it from the log", table.id)
            table.stale = True
            try:
                await self._reload(table)
            except Exception:  # retried before the table's next action or tick
                log.exception("table %s: the rebuild failed too; retrying later", table.id)
            raise

    async def _fresh(self, table: LiveTable) -> None:
        """Finish a rebuild that a storage failure interrupted (under the table's lock)."""
        if table.stale:
            await self._reload(table)

    async def _reload(self, table: LiveTable) -> None:
        match = await self.storage.current_match(table.id)
        table.game, table.match, table.logged = None, None, 0
        table.recent.clear()
        if match is not None:
            await self._rebuild(table, match)
        table.stale = False

    async def _commit(
        self,
        table: LiveTable,
        entries: list[tuple[int, dict[str, Any], int | None]],
        events: list[E.Event],
    ) -> None:
        assert table.match is not None and table.game is not None
        user_ids = [s["user_id"] for s in table.match.seats]
        rounds = [
            (
                RoundRecord(
                    e.round_no,
                    e.reason,
                    e.caller,
                    entries[-1][0],
                    list(e.totals),
                    list(e.scores),
                    list(e.places),
                ),
                user_ids,
            )
            for e in events
            if isinstance(e, E.RoundEnded)
        ]
        finished = table.game.over
        await self.storage.append_actions(
            table.match.id,
            table.logged,
            entries,
            rounds,
            finished_at=entries[-1][0] if finished else None,
            table_id=table.id if finished else None,
        )
        table.logged += len(entries)
        table.recent.extend(E.public(events))
        if finished:
            table.row.status = "finished"
            table.match.status = "finished"
            self._forget(table)
        self._feed_ai(table, events)

    async def _after(self, table: LiveTable, events: list[E.Event]) -> None:
        finished = any(isinstance(e, E.RoundEnded) and e.match_over for e in events)
        if finished and table.match is not None and self.on_match_finished is not None:
            try:
                await self.on_match_finished(table.match.id)
            except Exception:
                log.exception("match %s: recording the season failed", table.match.id)
        game = table.game
        if (
            game is not None
            and not game.over
            and game.round.phase == "over"
            and game.next_round_deadline is None
            and table.row.status == "playing"
            and all(s.away for s in game.round.seats if not s.is_ai)
        ):
            with contextlib.suppress(TableError):
                await self.cancel(table, "humans_left")  # R-K4: nobody left to play
            return
        if any(isinstance(e, E.RoundStarted) for e in events):
            await self.presenter.round_started(table)
        else:
            await self.presenter.table_changed(table)
        self._wakeup.set()

    async def tick(self, table: LiveTable) -> None:
        """The clock: apply the deadlines that are due (auto-play, peek end, next round)."""
        async with table.lock:
            await self._fresh(table)
            if table.game is None or table.row.status != "playing":
                return
            due = next_deadline(table.game)
            now = self.clock()
            if due is None or due > now:
                return
            outcome = await self._apply_logged_tick(table, now)
        if outcome:
            await self._after(table, outcome)

    async def _apply_logged_tick(self, table: LiveTable, now: int) -> list[E.Event]:
        assert table.game is not None
        tick = A.Tick(now)
        events = apply(table.game, tick)
        await self._commit_or_reload(table, [(now, action_to_dict(tick), None)], events)
        return events

    # -- AI seats ----------------------------------------------------------------------

    def _seat_ai(self, table: LiveTable) -> None:
        table.ai.clear()
        if table.match is None:
            return
        try:
            from tamalou.games.tamalou.ai import make_player
        except ImportError:  # pragma: no cover - the AI package ships with the engine
            return
        rules = table.rules if table.game is None else table.game.rules
        for seat, info in enumerate(table.match.seats):
            level = info.get("ai_level")
            if level:
                table.ai[seat] = make_player(level, seat, rules, f"{table.match.seed}:ai:{seat}")

    async def _replay_ai(self, table: LiveTable, rows: list[Any]) -> None:
        if not table.ai or table.match is None:
            return
        rules = Rules.model_validate(table.match.rules)
        ai = [s.get("ai_level") is not None for s in table.match.seats]
        game, events = new_game(
            rules, len(table.match.seats), table.match.seed, table.match.started_at, ai
        )
        self._feed_ai(table, events)
        for entry in rows:
            self._feed_ai(table, apply(game, action_from_dict(entry.payload)))

    def _feed_ai(self, table: LiveTable, events: list[E.Event]) -> None:
        for seat, player in table.ai.items():
            player.observe(E.stream_for(events, seat))
        if table.ai:
            table.ai_due = self.clock() + self.ai_delay_ms

    async def _ai_step(self, table: LiveTable) -> None:
        """One AI move: a double it is sure of, or its turn's next action (human-like pace)."""
        from tamalou.games.tamalou.engine import legal_actions
        from tamalou.games.tamalou.views import view

        table.ai_due = None
        game = table.game
        if game is None or table.row.status != "playing":
            return
        now = self.clock()
        for seat, player in list(table.ai.items()):
            # Under the table's lock no event reaches the player's memory while it thinks.
            async with table.lock:
                seen = view(game, seat, now)
                legal = legal_actions(game, seat, now)
                if player.level == "hard":  # a search of up to 50 ms: off the event loop
                    choice = await asyncio.to_thread(_ai_choice, player, seen, legal, now)
                else:
                    choice = _ai_choice(player, seen, legal, now)
            if choice is None:
                continue
            outcome = await self.act(table, dataclasses.replace(choice, at=now), None)
            if outcome.error is not None:
                log.warning("AI seat %s: refused %s (%s)", seat, choice.kind, outcome.error.reason)
            return  # one AI action at a time: the others see its result first

    # -- the scheduler -----------------------------------------------------------------

    def next_wake(self, table: LiveTable) -> int | None:
        if table.row.status == "lobby":
            return table.row.created_at + self.lobby_timeout_ms
        if table.stale:
            return self.clock() + 1000  # retry the interrupted rebuild
        if table.game is None or table.row.status != "playing":
            return None
        due = next_deadline(table.game)
        if table.ai_due is not None:
            due = table.ai_due if due is None else min(due, table.ai_due)
        display = self._display_due(table)
        if display is not None:
            due = display if due is None else min(due, display)
        return due

    def _display_due(self, table: LiveTable) -> int | None:
        """When the table message must change with no action: the fuse of a turn's last
        seconds starts (R-K1), doubles paused by a Queen swap open again (R-D7), or a
        player's double block ends (R-D6)."""
        game = table.game
        if game is None or game.round.phase not in ("play", "final"):
            return None
        r = game.round
        moments = {r.no_double_until} if r.no_double_until else set()
        moments.update(s.blocked_until for s in r.seats if 0 < s.blocked_until < FOREVER)
        if r.phase == "play":
            moments.add(r.turn_deadline - game.rules.fuse_ms)
        moments -= table.displayed
        return min(moments) if moments else None

    async def _schedule_loop(self) -> None:
        while True:
            self._wakeup.clear()
            now = self.clock()
            soonest: int | None = None
            for table in list(self.tables.values()):
                due = self.next_wake(table)
                if due is None:
                    continue
                if due <= now:
                    if table.id in self._waking:
                        continue
                    self._waking.add(table.id)
                    task = asyncio.create_task(self._wake(table), name=f"tamalou-wake-{table.id}")
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
                    continue
                soonest = due if soonest is None else min(soonest, due)
            delay = 3600.0 if soonest is None else max(0.01, (soonest - now) / 1000)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), timeout=min(delay, 1.0))

    async def _wake(self, table: LiveTable) -> None:
        try:
            if table.row.status == "lobby":
                if self.clock() >= table.row.created_at + self.lobby_timeout_ms:
                    await self.cancel(table, "expired")
                return
            if table.ai_due is not None and table.ai_due <= self.clock():
                await self._ai_step(table)
            await self.tick(table)
            display = self._display_due(table)
            if display is not None and display <= self.clock():
                if len(table.displayed) > 32:
                    table.displayed = {m for m in table.displayed if m >= display}
                table.displayed.add(display)
                await self.presenter.table_changed(table)
        except TableError:
            pass
        except Exception:
            log.exception("table %s: timer failed", table.id)
            await asyncio.sleep(1)  # do not spin on a table whose timer keeps failing
        finally:
            self._waking.discard(table.id)
            self._wakeup.set()


def _ai_choice(player: Any, seen: Any, legal: list[A.Action], now: int) -> A.Action | None:
    """A double the AI is sure of, or its turn's next action, or None."""
    choice: A.Action | None = player.wants_double(seen, now) or player.decide(seen, legal, now)
    return choice
