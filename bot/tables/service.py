"""Live tables: lobby, seats, ordering, the action log, timers and AI seats. No Discord here,
and no game either: every game is reached through the game protocol
(:class:`tamalou.core.protocol.GameModule`), which the bot gives as ``load_game`` (the
registry's ``tamalou.games.load``).

The Discord layer turns clicks into calls on :class:`TableService` and renders what it
publishes through the :class:`Presenter` it is given. Every rule is decided by the engine;
this module only orders, stores and schedules. What a table's settings mean as rules is the
game plugin's job (``rules_for``, given by the bot).

Ordering (R-D4): every action is queued with its interaction time and applied earliest
first, under the table's lock. An action that an earlier press could still change (the
game's ``contested``: a race, or a state where another seat may act) waits the reorder
window first, so an earlier press that arrives later still goes first; any other is applied
as soon as it arrives (``_uncontested``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import heapq
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, cast

import orjson
from pydantic import BaseModel

from bot.storage import (
    ActionRow,
    MatchRow,
    RoundRecord,
    SeatRow,
    Storage,
    StorageBusy,
    TableRow,
    display_state,
)
from bot.tables.ai import AiRunner, AiSeat
from bot.tables.clock import Clock, SeedSource, random_seed, wall_clock_ms
from bot.tables.errors import TableError
from bot.tables.scheduler import Scheduler
from tamalou.core.errors import IllegalAction
from tamalou.core.events import public
from tamalou.core.protocol import GameModule
from tamalou.core.replay import replay

log = logging.getLogger(__name__)

#: the reorder window an action waited by the rules (seconds), told to whoever set a list
#: here for the click being handled (the benchmark's launcher: a click's own latency in
#: the bot is its answer's time less this wait, which the rules require)
RULES_WAIT: contextvars.ContextVar[list[float] | None] = contextvars.ContextVar(
    "rules_wait", default=None
)

AI_USER_BASE = 1  # AI seats get user ids 1..8 (never a Discord snowflake)
#: matches whose logs a restart reads in one query
LOAD_BATCH = 20
#: the event kinds after which a table's message is posted anew (a new round or deal: R-M1;
#: DESIGN: "one public table message per table, re-posted each round")
NEW_MESSAGE_EVENTS = frozenset({"round_started", "deal_started"})

TableStatus = Literal["lobby", "playing", "finished", "cancelled"]
#: a table's settings (from ``/<game> new``) -> the game's rules model
RulesFor = Callable[[str, dict[str, Any]], BaseModel]
#: a game id -> the game's engine module (the protocol)
LoadGame = Callable[[str], GameModule]

#: one log entry: (time, the action as JSON, the user who asked; None for the clock or an AI)
Entry = tuple[int, dict[str, Any], int | None]


class Presenter(Protocol):
    async def table_changed(self, table: LiveTable) -> None: ...
    async def match_started(self, table: LiveTable) -> None: ...
    async def round_started(self, table: LiveTable) -> None: ...
    async def table_closed(self, table: LiveTable, reason: str) -> None: ...


@dataclass(frozen=True, slots=True)
class MatchSeat:
    """Who sits at one seat of a match (stored as JSON in the match row)."""

    user_id: int
    name: str
    ai_level: str | None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchSeat:
        return cls(int(data["user_id"]), str(data["name"]), data.get("ai_level"))

    def to_dict(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "name": self.name, "ai_level": self.ai_level}


@dataclass(slots=True)
class Outcome:
    """What applying one player's action produced."""

    events: list[Any]
    error: IllegalAction | None = None


@dataclass
class LiveTable:
    row: TableRow
    rules: BaseModel  # from the table's settings, by its game's plugin
    module: GameModule  # the table's game (it never changes)
    match: MatchRow | None = None
    game: Any = None  # the game's state (the protocol's opaque ``state``)
    logged: int = 0  # actions in the log of the current match
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    queue: list[tuple[int, int, Callable[[], Awaitable[None]]]] = field(default_factory=list)
    recent: deque[Any] = field(default_factory=lambda: deque(maxlen=6))  # public events
    ai: dict[int, AiSeat] = field(default_factory=dict)
    ai_due: int | None = None
    displayed: set[int] = field(default_factory=set)  # display moments already shown
    #: member id -> when (the service's clock) their last move was applied: a turn ping
    #: waits for a move of its player and goes once they made one
    acted: dict[int, int] = field(default_factory=dict)
    stale: bool = False  # a commit failed and the rebuild from the log did not finish yet

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def status(self) -> TableStatus:
        return cast(TableStatus, self.row.status)

    @property
    def seats(self) -> list[SeatRow]:
        return self.row.seats

    @property
    def match_seats(self) -> list[MatchSeat]:
        return [] if self.match is None else [MatchSeat.from_dict(s) for s in self.match.seats]

    @property
    def channels(self) -> tuple[int, ...]:
        """Where the table's messages and buttons live: its channel, and its thread."""
        thread = self.row.thread_id
        return (self.row.channel_id,) if thread is None else (self.row.channel_id, thread)

    def seat_of(self, user_id: int) -> int | None:
        for s in self.row.seats:
            if s.user_id == user_id and s.ai_level is None:
                return s.seat
        return None


def seat_limits(rules: BaseModel) -> tuple[int, int]:
    """Fewest and most players (every game's rules model has ``min_players``/``max_players``)."""
    return int(getattr(rules, "min_players", 2)), int(getattr(rules, "max_players", 8))


class SharedRules:
    """Equal rules are one object (the memory of a live table). A thousand tables
    of one preset held a thousand equal frozen models, each with its compiled rules: about
    9 kB a table. The engines' rules are frozen pydantic models; read-only once made."""

    LIMIT = 4096  # distinct rule sets kept (presets times table settings): a bound, not a goal

    def __init__(self) -> None:
        self._kept: dict[tuple[str, bytes], Any] = {}

    def get(self, game: str, data: Any, make: Callable[[], Any]) -> Any:
        key = (game, orjson.dumps(data, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS))
        found = self._kept.get(key)
        if found is None:
            found = make()  # a refusal (ValidationError) is raised, not kept
            if len(self._kept) >= self.LIMIT:
                self._kept.clear()
            self._kept[key] = found
        return found


class TableService:
    def __init__(
        self,
        storage: Storage,
        presenter: Presenter,
        *,
        rules_for: RulesFor,
        load_game: LoadGame,
        reorder_ms: int = 250,
        ai_delay_ms: int = 1500,
        lobby_timeout_s: int = 600,
        clock: Clock = wall_clock_ms,
        seeds: SeedSource = random_seed,
        ai_runner: AiRunner | None = None,
        owns: Callable[[int], bool] | None = None,
    ) -> None:
        self.storage = storage
        self.presenter = presenter
        self.rules_for = rules_for
        self.load_game = load_game
        self.reorder_ms = reorder_ms
        self.ai_delay_ms = ai_delay_ms
        self.lobby_timeout_ms = lobby_timeout_s * 1000
        self.clock = clock
        self.seeds = seeds
        self.ai_runner = ai_runner or AiRunner()
        #: whether this process serves a guild (a shard range: the others' tables are
        #: loaded, timed and shown by the process that owns their shard)
        self.owns = owns or (lambda guild_id: True)
        self.tables: dict[int, LiveTable] = {}
        self.by_channel: dict[int, int] = {}
        self._rules = SharedRules()
        self._counter = itertools.count()
        #: tables closed by ``load`` (a kill had come between their last write and their
        #: cancel): their message is drawn closed once Discord is reachable
        self.closed_at_start: list[tuple[LiveTable, str]] = []
        self.scheduler = Scheduler(clock, self._due_of, self._wake)
        #: called once a match is finished and committed (seasons record it)
        self.on_match_finished: Callable[[int], Awaitable[None]] | None = None
        #: called once a table is cancelled (id, reason), after its message was closed
        #: (a tournament scores the round without it)
        self.on_table_closed: Callable[[int, str], Awaitable[None]] | None = None

    # -- start-up ----------------------------------------------------------------------

    async def load(self) -> int:
        """Rebuild every live table from the database (restart: nothing lost).

        The matches are read at once and the logs by ``LOAD_BATCH`` matches: two reads a
        table were most of a restart's time."""
        rows = [row for row in await self.storage.live_tables() if self.owns(row.guild_id)]
        matches = await self.storage.live_matches()
        for start in range(0, len(rows), LOAD_BATCH):
            batch = rows[start : start + LOAD_BATCH]
            playing = {
                row.id: matches[row.id]
                for row in batch
                if row.status == "playing" and row.id in matches
            }
            try:
                logs = await self.storage.actions_of([m.id for m in playing.values()])
            except ValueError:  # a row that is not JSON: each table reads its own log, and
                # the one that holds it closes alone (below), as one that does not decode
                log.warning("a log row is not JSON: reading the batch's logs one by one")
                logs = {}
            for row in batch:
                match = playing.get(row.id)
                try:
                    table = self._live(row)
                    if match is not None:
                        await self._rebuild(table, match, logs.get(match.id))
                except Exception:  # one unreadable table must not keep the bot down
                    log.exception("table %s: its log does not replay; closing it", row.id)
                    await self._close_unreplayable(row.id, match.id if match else None)
                    continue
                reason = self._nobody_left(table)
                if reason is not None:  # its cancel was cut short: it never holds its channel
                    log.warning("table %s: closed at start (%s)", row.id, reason)
                    await self._close_unreplayable(row.id, match.id if match else None)
                    table.row.status = "cancelled"
                    self.closed_at_start.append((table, reason))
                    continue
                self._register(table)
        log.info("loaded %d live tables", len(self.tables))
        return len(self.tables)

    async def unshown_finals(self) -> list[LiveTable]:
        """Tables whose match finished but whose final message was never drawn (a kill
        between the last commit and the rendering), rebuilt from their log to be drawn."""
        tables = []
        for table_id in await display_state.finished_without_final(self.storage):
            try:
                row = await self.storage.get_table(table_id)
                match = await display_state.last_match(self.storage, table_id)
                if row is None or match is None:
                    continue
                table = self._live(row)
                await self._rebuild(table, match)
            except Exception:
                log.exception("table %s: its finished match does not replay", table_id)
                continue
            tables.append(table)
        return tables

    async def _close_unreplayable(self, table_id: int, match_id: int | None) -> None:
        """A table whose log does not replay is closed, so that it never blocks its channel
        (its buttons answer that the table is gone; the log stays for a post-mortem)."""
        now = self.clock()
        try:
            await self.storage.cancel_table(table_id, match_id, now)
        except Exception:
            log.exception("table %s: could not close it either", table_id)

    @staticmethod
    def _nobody_left(table: LiveTable) -> str | None:
        """Why a table must close at once, if it must: a lobby with no member seated (the
        last one left), a match nobody is left to play (R-K4), a playing table whose match
        is no longer live. Such a table is cancelled by the write after the one that made
        it so; a kill between the two left a zombie that held its channel,
        healed here at start."""
        if table.status == "lobby" and all(s.ai_level for s in table.seats):
            return "empty"
        game = table.game
        if table.status == "playing" and game is None:
            # no match left to play under it (cancelled by an older version's separate
            # write, or by hand): it told a click "closed" while ``/new`` saw it live
            return "cancelled"
        if table.status == "playing" and game is not None and table.module.abandoned(game):
            return "humans_left"
        return None

    def _live(self, row: TableRow) -> LiveTable:
        rules = self._rules.get(
            f"{row.game}:settings", row.settings, lambda: self.rules_for(row.game, row.settings)
        )
        return LiveTable(row, rules, self.load_game(row.game))

    async def _rebuild(
        self, table: LiveTable, match: MatchRow, rows: list[ActionRow] | None = None
    ) -> None:
        """The match folded from its log (``rows``: already read); AI seats fed the same
        streams again (their memory)."""
        module = self.load_game(match.game)
        rules = self._rules.get(
            match.game, match.rules, lambda: module.rules_from_dict(match.rules)
        )
        seats = [MatchSeat.from_dict(s) for s in match.seats]
        ai = [s.ai_level is not None for s in seats]
        if rows is None:
            rows = await self.storage.actions(match.id)
        table.match, table.logged = match, 0
        table.recent.clear()
        self._seat_ai(table, rules)

        def fed(events: list[Any]) -> None:
            table.recent.extend(public(events))
            self._feed_ai(table, events)

        # the bot's own rows: no pydantic validation for them (about 0.1 s of 1,000 tables'
        # restart), any other row validated as ever (``action_from_log``)
        payloads = (entry.payload for entry in rows)
        started = match.started_at
        table.game, _ = replay(module, rules, len(seats), match.seed, started, ai, payloads, fed)
        table.logged = len(rows)

    def _register(self, table: LiveTable) -> None:
        self.tables[table.id] = table
        for channel in table.channels:  # a command in the table's thread finds it too
            if table.row.tournament_id is None or channel != table.row.channel_id:
                self.by_channel[channel] = table.id  # a tournament's tables share its channel
        self.scheduler.plan(table.id)

    def _forget(self, table: LiveTable) -> None:
        self.tables.pop(table.id, None)
        self.scheduler.forget(table.id)
        for channel in table.channels:
            if self.by_channel.get(channel) == table.id:
                del self.by_channel[channel]

    def set_thread(self, table: LiveTable, thread_id: int | None) -> None:
        """The table plays in another thread (None: in its channel) from now on; the
        caller stores it."""
        old = table.row.thread_id
        if old is not None and self.by_channel.get(old) == table.id:
            del self.by_channel[old]
        table.row.thread_id = thread_id
        if thread_id is not None and table.id in self.tables:
            self.by_channel[thread_id] = table.id

    def start_scheduler(self) -> None:
        self.scheduler.start()

    async def stop(self) -> None:
        """Shutdown: the scheduler and its wakes end, AI workers end; storage stays open."""
        await self.scheduler.stop()
        await self.ai_runner.close()

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
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        settings: dict[str, Any],
        game: str = "tamalou",
    ) -> LiveTable:
        if channel_id in self.by_channel:
            raise TableError("table_exists")
        rules = self.rules_for(game, settings)  # validates the settings before anything is stored
        row = await self.storage.create_table(
            guild_id, channel_id, SeatRow(0, user_id, name), settings, self.clock(), game
        )
        if row is None:
            raise TableError("table_exists")
        table = LiveTable(row, rules, self.load_game(game))
        self._register(table)
        return table

    async def open_seated(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        seats: list[SeatRow],
        settings: dict[str, Any],
        game: str,
        seed: str,
        tournament_id: int | None = None,
    ) -> LiveTable:
        """A table seated by its caller (members and AI seats, in seat order) whose match
        starts at once on ``seed``: a tournament's table (docs/tournaments.md). It shares
        its channel with its tournament's other tables, so no channel lookup finds it."""
        rules = self.rules_for(game, settings)
        low, high = seat_limits(rules)
        if not low <= len(seats) <= high:
            raise TableError("not_enough_players", min=low)
        first = seats[0]
        row = await self.storage.create_table(
            guild_id, channel_id, first, settings, self.clock(), game, tournament_id
        )
        if row is None:
            raise TableError("table_exists")
        row.seats = [SeatRow(i, s.user_id, s.name, s.ai_level) for i, s in enumerate(seats)]
        row.host_id = host_id
        await self.storage.save_seats(row.id, row.seats, host_id)
        table = LiveTable(row, rules, self.load_game(game))
        self._register(table)
        async with table.lock:
            await self._start_match(table, seed)
        await self.presenter.match_started(table)
        self.scheduler.plan(table.id)
        return table

    def _lobby(self, table: LiveTable) -> None:
        if table.status != "lobby":
            raise TableError("already_started")

    def _room(self, table: LiveTable) -> None:
        most = seat_limits(table.rules)[1]
        if len(table.seats) >= most:
            raise TableError("table_full", max=most)

    async def join(self, table: LiveTable, user_id: int, name: str) -> None:
        async with table.lock:
            self._lobby(table)
            if table.seat_of(user_id) is not None:
                raise TableError("already_seated")
            self._room(table)
            table.seats.append(SeatRow(len(table.seats), user_id, name))
            await self.storage.save_seats(table.id, table.seats, table.row.host_id)
        await self.presenter.table_changed(table)

    async def add_ai(self, table: LiveTable, user_id: int, level: str) -> SeatRow:
        levels = table.module.AI_LEVELS
        if level not in levels:
            raise TableError("bad_ai_level", levels=", ".join(levels))
        async with table.lock:
            self._lobby(table)
            self._host_only(table, user_id)
            self._room(table)
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

    async def cancel(self, table: LiveTable, reason: str, present: bool = True) -> None:
        """Close the table and its match. ``present``: draw it closed (not when its message
        could never be posted)."""
        async with table.lock:
            if table.status not in ("lobby", "playing"):
                raise TableError("table_gone")
            # one transaction: a kill between two writes left a table whose match was
            # cancelled and which blocked its channel for ever
            match_id = table.match.id if table.match is not None else None
            await self.storage.cancel_table(table.id, match_id, self.clock())
            table.row.status = "cancelled"
            self._forget(table)
        if present:
            await self.presenter.table_closed(table, reason)
        if self.on_table_closed is not None:
            try:
                await self.on_table_closed(table.id, reason)
            except Exception:
                log.exception("table %s: its closing hook failed", table.id)

    async def start(self, table: LiveTable, user_id: int) -> None:
        async with table.lock:
            self._lobby(table)
            self._host_only(table, user_id)
            fewest = seat_limits(table.rules)[0]
            if len(table.seats) < fewest:
                raise TableError("not_enough_players", min=fewest)
            if all(s.ai_level for s in table.seats):
                raise TableError("ai_only")
            await self._start_match(table)
        await self.presenter.match_started(table)
        self.scheduler.plan(table.id)

    async def _start_match(self, table: LiveTable, seed: str | None = None) -> None:
        module, rules = table.module, table.rules
        now = self.clock()
        seed = self.seeds() if seed is None else seed
        seats = [MatchSeat(s.user_id, s.name, s.ai_level) for s in table.seats]
        stored = [s.to_dict() for s in seats]
        dumped = rules.model_dump(mode="json")
        match_id = await self.storage.create_match(table.row, seed, dumped, stored, now)
        await display_state.set_final_shown(self.storage, table.id, False)  # drawn when it ends
        table.row.status = "playing"
        table.match = MatchRow(
            match_id,
            table.id,
            table.row.guild_id,
            seed,
            dumped,
            stored,
            now,
            None,
            "playing",
            table.row.game,
        )
        game, events = module.new_game(
            rules, len(seats), seed, now, [s.ai_level is not None for s in seats]
        )
        table.game, table.logged = game, 0
        table.recent.clear()
        table.recent.extend(public(events))
        self._seat_ai(table, rules)
        self._feed_ai(table, events)

    async def rematch(
        self,
        table_id: int,
        user_id: int,
        channel_id: int | None = None,
        may_open: Callable[[], Awaitable[None]] | None = None,
    ) -> LiveTable:
        """End of match: the same seats and settings play a new match at a new table row.

        Only a finished table's message carries a Rematch button, in its own channel: any
        other press is a button that was never shown (``bad_button``). ``may_open``: asked
        once the press is a rematch that could open (the server's role allowed to open
        tables, from the Discord side); it raises to refuse.
        """
        old = await self.storage.get_table(table_id)
        if old is None or old.status != "finished":
            raise TableError("bad_button")
        if channel_id is not None and channel_id not in (old.channel_id, old.thread_id):
            raise TableError("bad_button")
        if not any(s.user_id == user_id and s.ai_level is None for s in old.seats):
            raise TableError("not_seated")
        if old.tournament_id is not None:  # its tournament seats the next round
            raise TableError("tournament_table")
        if old.channel_id in self.by_channel:
            raise TableError("rematch_started")  # a second press, or a table opened since
        if may_open is not None:
            await may_open()
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
            raise TableError("rematch_started")
        row.seats = [SeatRow(i, s.user_id, s.name, s.ai_level) for i, s in enumerate(old.seats)]
        row.host_id = old.host_id
        await self.storage.save_seats(row.id, row.seats, row.host_id)
        fresh = self._live(row)
        self._register(fresh)
        async with fresh.lock:
            await self._start_match(fresh)
        await self.presenter.match_started(fresh)
        self.scheduler.plan(fresh.id)
        return fresh

    # -- play --------------------------------------------------------------------------

    def seat_for(self, table: LiveTable, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated")
        if table.game is None:
            raise TableError("not_started")
        return seat

    async def act(
        self,
        table: LiveTable,
        action: Any,
        user_id: int | None,
        *,
        may_apply: Callable[[], bool] | None = None,
    ) -> Outcome:
        """Queue ``action`` by its press time and apply it under the table's lock, earliest
        first (R-D4). It waits the reorder window only when an earlier press could still
        change it (``_uncontested``): else it is applied as soon as it arrives.
        ``may_apply``: asked under the lock, just before applying; False (the click can no
        longer be answered) refuses it, ``TableError("too_late")``, nothing applied. The
        outcome's ``error`` is None exactly when the action was applied and committed."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Outcome] = loop.create_future()

        async def run() -> None:
            try:
                if may_apply is not None and not may_apply():
                    raise TableError("too_late")
                done.set_result(await self._apply_logged(table, action, user_id))
            except BaseException as exc:  # the waiter answers the user and logs
                if not done.done():
                    done.set_exception(exc)

        entry = (action.at, next(self._counter), run)
        heapq.heappush(table.queue, entry)
        if self.reorder_ms:
            arrived = loop.time()
            async with table.lock:  # decided and applied in one hold: the state cannot move
                if not done.done() and self._uncontested(table, action, entry):
                    heapq.heappop(table.queue)  # the earliest press queued: this one
                    await run()
            if not done.done():
                wait = max(0.0, arrived + self.reorder_ms / 1000 - loop.time())
                if (told := RULES_WAIT.get()) is not None:
                    told.append(wait)
                await asyncio.sleep(wait)
        if not done.done():
            async with table.lock:
                while table.queue and (table.queue[0][0], table.queue[0][1]) <= (
                    action.at,
                    1 << 62,
                ):
                    _, _, job = heapq.heappop(table.queue)
                    await job()
                    if done.done():
                        break
        outcome = await done
        if outcome.events:
            await self._after(table, outcome.events)
        return outcome

    def _uncontested(self, table: LiveTable, action: Any, entry: tuple[Any, ...]) -> bool:
        """Nothing pressed before ``action`` could still change it, so it need not wait the
        reorder window (under the table's lock): it is the earliest press queued (an earlier
        one waiting its window goes first), no deadline falls due by its time (the tick
        applied first could open a race), and the game says nobody can race it
        (``contested``: R-D4's doubles, K-CL3's calls, any out-of-turn move)."""
        game = table.game
        if game is None or table.stale or table.status != "playing" or table.queue[0] is not entry:
            return False
        module = table.module
        due = module.next_deadline(game)
        if due is not None and due <= max(action.at, module.now(game)):
            return False
        try:
            return not module.contested(game, action)
        except Exception:  # a fault in the game's answer keeps the window: never a lost click
            log.exception("table %s: contested() failed; keeping the reorder window", table.id)
            return False

    async def _apply_logged(self, table: LiveTable, action: Any, user_id: int | None) -> Outcome:
        """Apply (ticking first), commit to the log, then return the events. Holds the lock."""
        await self._fresh(table)
        game = table.game
        if game is None or table.match is None or table.status != "playing":
            raise TableError("not_started" if table.status == "lobby" else "table_gone")
        module = table.module
        entries: list[Entry] = []
        events: list[Any] = []
        due = module.next_deadline(game)
        at = max(action.at, module.now(game))
        if due is not None and due <= at:  # a deadline that passed first is applied first
            tick = module.tick(at)
            events += module.apply(game, tick)
            entries.append((at, module.action_to_dict(tick), None))
        error: IllegalAction | None = None
        try:
            if user_id is None and entries and module.abandoned(game):
                # the tick made every human gone (K-K4): an AI's move pressed by then is
                # for nobody; the table closes after this hold
                raise IllegalAction("abandoned")
            events += module.apply(game, action)
            entries.append((at, module.action_to_dict(action), user_id))
        except IllegalAction as exc:  # a refusal: its traceback (this frame) is not kept
            error = exc.with_traceback(None)
        if entries:
            await self._commit_or_reload(table, entries, events)
        if error is None and user_id is not None:
            table.acted[user_id] = self.clock()
        return Outcome(events, error)

    async def _commit_or_reload(
        self, table: LiveTable, entries: list[Entry], events: list[Any]
    ) -> None:
        """Every path that applied something commits it, or rolls the game back to the log:
        the log is the truth, never keep a state the database did not take."""
        try:
            await self._commit(table, entries, events)
        except Exception as exc:
            if isinstance(exc, StorageBusy):  # expected under load: the user is told to retry
                log.warning("table %s: %s; rebuilding it from the log", table.id, exc)
            else:
                log.exception("table %s: could not commit; rebuilding it from the log", table.id)
            table.stale = True
            try:
                await self._reload(table)
            except Exception:  # retried before the table's next action or tick
                log.exception("table %s: the rebuild failed too; retrying later", table.id)
                self.scheduler.plan(table.id)
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
        self.scheduler.plan(table.id)  # its deadlines are the log's again

    async def _commit(self, table: LiveTable, entries: list[Entry], events: list[Any]) -> None:
        assert table.match is not None and table.game is not None
        module = table.module
        user_ids = [s.user_id for s in table.match_seats]
        at = entries[-1][0]
        rounds = [
            (
                RoundRecord(
                    s.round_no,
                    s.reason,
                    s.caller,
                    at,
                    list(s.totals),
                    list(s.scores),
                    list(s.places),
                ),
                user_ids,
            )
            for s in module.round_summaries(events)
        ]
        finished = module.match_over(table.game)
        await self.storage.append_actions(
            table.match.id,
            table.logged,
            entries,
            rounds,
            finished_at=at if finished else None,
            table_id=table.id if finished else None,
        )
        table.logged += len(entries)
        table.recent.extend(public(events))
        if finished:
            table.row.status = "finished"
            table.match.status = "finished"
            self._forget(table)
        self._feed_ai(table, events)

    async def _after(self, table: LiveTable, events: list[Any]) -> None:
        module = table.module
        game = table.game
        finished = (
            game is not None and module.match_over(game) and bool(module.round_summaries(events))
        )
        if finished and table.match is not None and self.on_match_finished is not None:
            try:
                await self.on_match_finished(table.match.id)
            except Exception:
                log.exception("match %s: recording the season failed", table.match.id)
        if game is not None and table.status == "playing" and module.abandoned(game):
            with contextlib.suppress(TableError):
                await self.cancel(table, "humans_left")  # R-K4: nobody left to play
            return
        if any(getattr(e, "kind", None) in NEW_MESSAGE_EVENTS for e in events):
            await self.presenter.round_started(table)
        else:
            await self.presenter.table_changed(table)
        if table.status == "playing":
            self.scheduler.plan(table.id)

    async def tick(self, table: LiveTable) -> None:
        """The clock: apply the deadlines that are due (auto-play, peek end, next round)."""
        async with table.lock:
            await self._fresh(table)
            if table.game is None or table.status != "playing":
                return
            module = table.module
            due = module.next_deadline(table.game)
            now = self.clock()
            if due is None or due > now:
                return
            tick = module.tick(now)
            events = module.apply(table.game, tick)
            await self._commit_or_reload(table, [(now, module.action_to_dict(tick), None)], events)
        await self._after(table, events)

    # -- AI seats ----------------------------------------------------------------------

    def _seat_ai(self, table: LiveTable, rules: Any) -> None:
        table.ai.clear()
        if table.match is None:
            return
        module = table.module
        for seat, info in enumerate(table.match_seats):
            if info.ai_level:
                player = module.make_ai(info.ai_level, seat, rules, f"{table.match.seed}:ai:{seat}")
                slow = info.ai_level in module.SLOW_AI_LEVELS
                table.ai[seat] = AiSeat(seat, info.ai_level, player, slow)

    def _feed_ai(self, table: LiveTable, events: Sequence[Any]) -> None:
        if not table.ai:
            return
        module = table.module
        for seat, ai in table.ai.items():
            ai.observe(module.stream_for(events, seat))
        table.ai_due = self.clock() + self.ai_delay_ms

    def _wake_ai_at(self, table: LiveTable, moment: int) -> None:
        """A moment of the game passed with no action (a window closed, a block ended):
        the AI seats' legal moves may have changed, so they look again within their delay
        of it (Kalooki's AI sat out its whole turn clock at a call window, as
        nothing but a commit ever woke it)."""
        if not table.ai:
            return
        due = moment + self.ai_delay_ms
        if table.ai_due is None or due < table.ai_due:
            table.ai_due = due

    async def _ai_step(self, table: LiveTable) -> None:
        """One AI move: the first AI seat that wants to act (out of turn included) acts."""
        table.ai_due = None
        game = table.game
        if game is None or table.status != "playing":
            return
        module = table.module
        now = self.clock()
        for seat, ai in list(table.ai.items()):
            # Under the table's lock no event reaches the player's memory while it thinks.
            async with table.lock:
                if table.game is not game or table.status != "playing":
                    return
                if module.abandoned(game):
                    # every human gone: the move that made it so closes the table once
                    # out of the lock; no AI move for nobody slips in before
                    return
                seen = module.view(game, seat, now)
                legal = module.legal_actions(game, seat, now)
                choice = await self.ai_runner.act(ai, seen, legal, now)
            if choice is None:
                continue
            if getattr(choice, "at", now) != now:  # actions are dataclasses stamped ``at``
                choice = dataclasses.replace(choice, at=now)
            outcome = await self.act(table, choice, None)
            if outcome.error is not None:
                # "abandoned": the human's deadline fell first and the table closes: no fault
                level = logging.INFO if outcome.error.reason == "abandoned" else logging.WARNING
                log.log(
                    level, "AI seat %s: refused %s (%s)", seat, choice.kind, outcome.error.reason
                )
            return  # one AI action at a time: the others see its result first

    # -- the clock ---------------------------------------------------------------------

    def next_wake(self, table: LiveTable) -> int | None:
        if table.status == "lobby":
            return table.row.created_at + self.lobby_timeout_ms
        if table.stale:
            return self.clock() + 1000  # retry the interrupted rebuild
        if table.game is None or table.status != "playing":
            return None
        times = [table.module.next_deadline(table.game), table.ai_due, self._display_due(table)]
        due = [t for t in times if t is not None]
        return min(due) if due else None

    def _due_of(self, table_id: int) -> int | None:
        table = self.tables.get(table_id)
        return None if table is None else self.next_wake(table)

    def _display_due(self, table: LiveTable) -> int | None:
        """When the table message must change with no action (the game says when)."""
        if table.game is None:
            return None
        moments = table.module.display_moments(table.game) - table.displayed
        return min(moments) if moments else None

    async def _wake(self, table_id: int) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        try:
            if table.status == "lobby":
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
                self._wake_ai_at(table, display)
                await self.presenter.table_changed(table)
        except TableError:
            pass
        except Exception:
            log.exception("table %s: timer failed", table.id)
            await asyncio.sleep(1)  # do not spin on a table whose timer keeps failing
