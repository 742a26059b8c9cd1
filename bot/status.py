"""The bot's state for its operator: ``python -m bot status`` (docs/operating.md).

Each bot process writes its status into the database (``bot_state``, key ``status:<its
shards>``) when it starts, when it is ready, when the card emojis are synced or fail, every
``HEARTBEAT_S`` and when it stops: its shards, their latency, the guilds, the emojis and
its last warnings and errors (their first line only: no traceback, and nothing that is not
already in the log at WARNING). ``python -m bot status`` reads those and the live tables
(per game and shard) from the database, so it needs no connection to the bot process and
works for several processes over one PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import socket
import time
from collections import Counter, deque
from typing import TYPE_CHECKING, Any

from bot.config import Config, shard_of
from bot.storage import StorageError, open_storage
from bot.storage.state import set_state, states

if TYPE_CHECKING:
    from bot.app import GameBot

log = logging.getLogger(__name__)

#: seconds between two status writes of a running process
HEARTBEAT_S = 30.0
#: a process whose last write is older than this many heartbeats is reported as silent
SILENT_AFTER = 3
#: warnings and errors kept in a status
RECENT = 10


def shards_key(config: Config) -> str:
    """The status key of a process: its shard range, or ``all`` (one process)."""
    if config.shard_ids is None:
        return "status:all"
    return "status:" + ",".join(map(str, config.shard_ids))


class RecentProblems(logging.Handler):
    """The last WARNING and ERROR records, as one line each (time, logger, message)."""

    def __init__(self, keep: int = RECENT) -> None:
        super().__init__(logging.WARNING)
        self.lines: deque[dict[str, Any]] = deque(maxlen=keep)
        self.counts: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage().splitlines()[0][:300] if record.msg else ""
        except Exception:  # a record that cannot be formatted is no reason to fail
            text = str(record.msg)[:300]
        self.counts[record.levelname] += 1
        self.lines.append(
            {
                "at": int(record.created * 1000),
                "level": record.levelname,
                "logger": record.name,
                "message": text,
            }
        )


class StatusReporter:
    """Writes one bot process's status (see the module's docstring)."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.started_at = int(time.time() * 1000)
        self.problems = RecentProblems()
        self.emojis = "off" if not bot.config.card_emojis else "syncing"
        self._task: asyncio.Task[None] | None = None
        self._started = False

    def install(self) -> None:
        logging.getLogger().addHandler(self.problems)

    def uninstall(self) -> None:
        logging.getLogger().removeHandler(self.problems)

    def snapshot(self, state: str) -> dict[str, Any]:
        bot, config = self.bot, self.bot.config
        latencies = {}
        for shard_id, shard in getattr(bot, "shards", {}).items():
            latency = shard.latency
            latencies[str(shard_id)] = round(latency * 1000) if math.isfinite(latency) else None
        games = Counter(t.row.game for t in bot.service.tables.values())
        return {
            "state": state,
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "started_at": self.started_at,
            "shards": list(config.shard_ids) if config.shard_ids is not None else None,
            "shard_count": bot.shard_count,
            "latency_ms": latencies,
            "guilds": len(bot.guilds),
            "tables": dict(sorted(games.items())),
            "emojis": self.emojis,
            "warnings": self.problems.counts["WARNING"],
            "errors": self.problems.counts["ERROR"] + self.problems.counts["CRITICAL"],
            "recent": list(self.problems.lines),
        }

    async def write(self, state: str) -> None:
        """One status write; a failure is logged, never raised (the status is no reason to
        stop serving)."""
        try:
            value = json.dumps(self.snapshot(state), ensure_ascii=False)
            await set_state(self.bot.storage, shards_key(self.bot.config), value, _now())
        except StorageError as exc:
            log.warning("could not write the status (%s)", exc.message)
        except Exception:
            log.exception("could not write the status")

    def start(self) -> None:
        self._started = True
        self._task = asyncio.create_task(self._beat(), name="status-heartbeat")

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            await self.write("ready" if self.bot.is_ready() else "connecting")

    async def stop(self) -> None:
        """Ends the heartbeat and writes the last status (before the storage closes)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._started:  # else the storage may never have opened
            self._started = False
            await self.write("stopped")
        self.uninstall()


def _now() -> int:
    return int(time.time() * 1000)


async def write_connecting(
    config: Config, since: int, attempts: int = 0, last_error: str | None = None
) -> None:
    """Before the first login and after each failed one: "connecting since …" (the process
    has no bot object yet, so ``python -m bot status`` knows it runs and is trying). Written
    on a storage of its own; a failure is logged, never raised (the login goes on)."""
    value = {
        "state": "connecting",
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "started_at": since,
        "connecting_since": since,
        "attempts": attempts,
        "last_error": last_error,
        "shards": list(config.shard_ids) if config.shard_ids is not None else None,
        "shard_count": config.shard_count,
    }
    try:
        storage = open_storage(config.database, busy_timeout_ms=config.database_busy_ms)
        await storage.open()
        try:
            await set_state(storage, shards_key(config), json.dumps(value), _now())
        finally:
            await storage.close()
    except StorageError as exc:
        log.warning("could not write the status (%s)", exc.message)


def _age(ms: int, now: int) -> str:
    seconds = max(0, (now - ms) // 1000)
    if seconds < 120:
        return f"{seconds} s ago"
    if seconds < 7200:
        return f"{seconds // 60} min ago"
    return f"{seconds // 3600} h ago"


async def report(config: Config) -> tuple[str, bool]:
    """The status text of every bot process on ``config``'s database, and whether it is
    healthy: every process that did not stop wrote in the last heartbeats, and none is
    reported yet as stopped or silent only."""
    storage = open_storage(config.database, busy_timeout_ms=config.database_busy_ms)
    await storage.open()
    try:
        now = _now()
        lines = [f"database: {storage.name}, schema version {await storage.schema_version()}"]
        processes = {
            k.removeprefix("status:"): v for k, v in (await states(storage, "status:")).items()
        }
        healthy = bool(processes)
        shard_count = config.shard_count
        if not processes:
            lines.append("bot processes: none has written a status yet (never started here?)")
        for name, (value, written) in processes.items():
            status = json.loads(value)
            shard_count = shard_count or status.get("shard_count")
            silent = now - written > SILENT_AFTER * HEARTBEAT_S * 1000
            state = status.get("state", "?")
            if state == "connecting" and status.get("connecting_since"):
                state = f"connecting since {_age(status['connecting_since'], now)}"
                if n := status.get("attempts"):
                    state += f" ({n} failed attempt{'' if n == 1 else 's'}"
                    state += f", last: {status['last_error']})" if status.get("last_error") else ")"
            if silent and not state.startswith("stopped"):
                state = f"silent (was {state})"
            if state != "ready":  # connecting, silent or stopped
                healthy = False
            shards = "all shards" if name == "all" else f"shards {name}"
            latency = ", ".join(
                f"{s}: {ms} ms" if ms is not None else f"{s}: -"
                for s, ms in (status.get("latency_ms") or {}).items()
            )
            lines.append(
                f"process ({shards}) pid {status.get('pid')} on {status.get('host')}: {state}, "
                f"written {_age(written, now)}, started {_age(status.get('started_at', 0), now)}"
            )
            lines.append(
                f"  guilds {status.get('guilds', 0)}; latency {latency or '-'}; "
                f"card emojis {status.get('emojis', '?')}; "
                f"{status.get('warnings', 0)} warnings, {status.get('errors', 0)} errors"
            )
            for problem in status.get("recent", [])[-5:]:
                lines.append(
                    f"  {_age(problem['at'], now)} {problem['level']} {problem['logger']}: "
                    f"{problem['message']}"
                )
        tables = await storage.live_tables()
        by_game: Counter[tuple[str, str]] = Counter()
        for table in tables:
            shard = str(shard_of(table.guild_id, shard_count)) if shard_count else "-"
            by_game[(table.game, shard)] += 1
        lines.append(f"live tables: {len(tables)}")
        for (game, shard), count in sorted(by_game.items()):
            lines.append(f"  {game}: {count}" + (f" (shard {shard})" if shard != "-" else ""))
        synced = await states(storage, "commands:")
        for key, (_, written) in synced.items():
            _, app, scope = key.split(":", 2)
            lines.append(
                f"slash commands ({scope}, application {app}): synced {_age(written, now)}"
            )
        if not synced:
            lines.append("slash commands: never synced from this database")
        return "\n".join(lines), healthy
    finally:
        await storage.close()
