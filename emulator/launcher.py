"""Runs a bot module against the local Discord emulator.

    python -m emulator.launcher --port P -- MODULE [ARGS...]
    EMU_PORT=P python -m emulator.launcher MODULE [ARGS...]

It points discord.py at the emulator (``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``),
installs observation-only hooks, then runs MODULE as ``__main__`` (like ``python -m MODULE``).
The bot needs no test-specific code. The hooks report to the emulator (POST /_emu/events):

* ``consumed``: a REST reply was read by discord.py (sent two event-loop turns later, so the
  View that the reply registers is stored); clicks wait for it, so none is lost to the race
  between a click and ``store_view``.
* ``handled`` / ``settled``: every task discord.py spawned for an interaction finished
  (``settled``: also every task those tasks spawned, View timeouts excepted).
* ``log``: ERROR records (tracebacks), tagged with the interaction being handled.
* ``ready``: ``on_ready`` was dispatched.
* ``answered`` (only with ``EMU_ANSWER_TIMES=1``, the benchmark's open loop): the bot-side
  latency of an interaction, from its gateway frame's arrival in the process (aiohttp's
  ``data_received`` that completed the frame) to its first answer (the interaction
  callback) written to the socket (aiohttp's ``write_bytes`` done), in ``bot_ms``; and the
  time that frame waited before discord.py read it (``queued_ms``), and the reorder window
  its action waited by the rules (``rules_ms``: the project's bot tells it through
  ``bot.tables.service.RULES_WAIT``; 0 for any other bot).
* ``db`` (only with ``EMU_DB_ROUND_TRIPS=1``, the benchmark's scale runs): ``n`` PostgreSQL
  round trips the bot just started: every Sync and simple Query message asyncpg writes to
  its sockets, and a Flush that ends a write (a statement prepared); the client then waits
  for the server. A pipelined ``executemany`` is one.

``--ready-timeout`` (default 0.05 s) shortens discord.py's 2 s wait for more GUILD_CREATEs
before ``on_ready``; the emulator sends every guild at once. ``EMU_IDENTIFY_DELAY=0``
shortens the 5 s pause an AutoShardedClient makes between its shards' IDENTIFYs.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import contextvars
import ctypes
import functools
import http.client
import json
import logging
import os
import queue
import runpy
import sys
import threading
import time
import traceback
from collections.abc import Coroutine
from typing import Any

#: how long the reporter gathers events before it posts them (seconds; 0: one POST a wake-up,
#: as before issue 16's fourth-session measurements)
BATCH_S = float(os.environ.get("EMU_REPORT_BATCH_S", "0.002"))
#: the reporter thread's name for the OS (``/proc/<pid>/task/<tid>/comm``, 15 bytes at most)
REPORTER_THREAD = "emu-reporter"


def name_thread(name: str) -> None:
    """Names the calling thread for the OS (Linux; elsewhere nothing happens)."""
    try:
        libc = ctypes.CDLL(None)
        libc.prctl(15, name.encode()[:15], 0, 0, 0)  # PR_SET_NAME
    except (OSError, AttributeError):
        pass


CURRENT_INTERACTION: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "emulator_interaction", default=None
)


class Reporter:
    """Sends events to the emulator from a background thread (never blocks the bot's loop)."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        # SimpleQueue: put and get in C, no Python-level lock and condition a send (issue 25:
        # this instrument ran on the measured bot's loop, several events a click)
        self.queue: queue.SimpleQueue[dict[str, Any] | None] = queue.SimpleQueue()
        self.pid = os.getpid()
        self.idle = threading.Event()
        self.idle.set()
        self.thread = threading.Thread(target=self._run, name="emulator-reporter", daemon=True)
        self.thread.start()

    def send(self, kind: str, **data: Any) -> None:
        if self.idle.is_set():  # a plain read; clear() takes the event's lock
            self.idle.clear()
        self.queue.put({"kind": kind, "pid": self.pid, **data})

    def flush(self, timeout: float = 2.0) -> None:
        self.idle.wait(timeout)

    def _run(self) -> None:
        name_thread(REPORTER_THREAD)  # the benchmark leaves this thread's CPU out of the bot's
        conn: http.client.HTTPConnection | None = None
        while True:
            first = self.queue.get()
            batch = [first] if first is not None else []
            # a moment for the events of the same burst to join this one POST (under the
            # benchmark's load: 0.04 ms of the bot's CPU a click, 0.05-0.06 without it)
            time.sleep(BATCH_S)
            while True:
                try:
                    item = self.queue.get_nowait()
                except queue.Empty:
                    break
                if item is not None:
                    batch.append(item)
            # merge acks into one event
            acks = [r for e in batch if e["kind"] == "consumed" for r in e["request_ids"]]
            events = [e for e in batch if e["kind"] != "consumed"]
            if acks:
                events.insert(0, {"kind": "consumed", "request_ids": acks})
            body = json.dumps(events)
            for _attempt in range(2):
                try:
                    if conn is None:
                        conn = http.client.HTTPConnection(self.host, self.port, timeout=10)
                    conn.request(
                        "POST",
                        "/_emu/events",
                        body=body,
                        headers={"Content-Type": "application/json"},
                    )
                    conn.getresponse().read()
                    break
                except (OSError, http.client.HTTPException):
                    if conn is not None:
                        conn.close()
                    conn = None
            if self.queue.empty():
                self.idle.set()


class InteractionTracker:
    """Counts the tasks spawned for each interaction and reports when they are done."""

    def __init__(self, reporter: Reporter) -> None:
        self.reporter = reporter
        self.direct: dict[int, int] = {}
        self.started: dict[int, int] = {}
        self.deep: dict[int, int] = {}

    def track_direct(self, iid: int, tasks: list[asyncio.Task[Any]]) -> None:
        if not tasks:
            self.reporter.send("handled", interaction_id=iid, tasks=0)
            if self.deep.get(iid, 0) == 0:
                self.reporter.send("settled", interaction_id=iid, idle=True)
            return
        self.direct[iid] = len(tasks)
        self.started[iid] = len(tasks)
        for task in tasks:
            task.add_done_callback(functools.partial(self._direct_done, iid))

    def _direct_done(self, iid: int, _task: object = None) -> None:
        self.direct[iid] -= 1
        if self.direct[iid] == 0:
            del self.direct[iid]
            self.reporter.send("handled", interaction_id=iid, tasks=self.started.pop(iid, 0))
            if self.deep.get(iid, 0) == 0:
                self.reporter.send("settled", interaction_id=iid, idle=True)

    def track_deep(self, iid: int, task: asyncio.Future[Any]) -> None:
        count = self.deep.get(iid, 0)
        self.deep[iid] = count + 1
        if count == 0 and iid not in self.direct:
            self.reporter.send("settled", interaction_id=iid, idle=False)
        task.add_done_callback(functools.partial(self._deep_done, iid))

    def _deep_done(self, iid: int, _task: object = None) -> None:
        self.deep[iid] -= 1
        if self.deep[iid] == 0 and iid not in self.direct:
            self.reporter.send("settled", interaction_id=iid, idle=True)


def _ignored_for_settle(coro: Any) -> bool:
    name = getattr(coro, "__qualname__", "") or ""
    return "__timeout_task_impl" in name


def install(
    host: str, port: int, *, ready_timeout: float | None = 0.05, identify_delay: float | None = None
) -> Reporter:
    """Points discord.py at the emulator and installs the observation hooks."""
    import discord
    import discord.http
    import discord.state
    import discord.webhook.async_
    import yarl

    discord.http.Route.BASE = f"http://{host}:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://{host}:{port}/gateway")

    reporter = Reporter(host, port)
    tracker = InteractionTracker(reporter)
    atexit.register(reporter.flush)

    # 1. consumed acks for every REST reply (both modules hold their own reference).
    original_json_or_text = discord.http.json_or_text

    async def json_or_text(response: Any) -> Any:
        data = await original_json_or_text(response)
        rid = response.headers.get("X-Emu-Request-Id")
        if rid is not None:
            loop = asyncio.get_running_loop()
            loop.call_soon(loop.call_soon, _ack, int(rid))
        return data

    def _ack(rid: int) -> None:
        reporter.send("consumed", request_ids=[rid])

    discord.http.json_or_text = json_or_text
    discord.webhook.async_.json_or_text = json_or_text

    # 2. interaction tracking.
    state_cls = discord.state.ConnectionState
    original_parse = state_cls.parse_interaction_create
    factory_loops: set[int] = set()

    def ensure_task_factory(loop: asyncio.AbstractEventLoop) -> None:
        if id(loop) in factory_loops:
            return
        factory_loops.add(id(loop))
        previous = loop.get_task_factory()

        def factory(
            loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any], **kwargs: Any
        ) -> asyncio.Future[Any]:
            task: asyncio.Future[Any]
            if previous is not None:
                task = previous(loop, coro, **kwargs)
            else:
                task = asyncio.Task(coro, loop=loop, **kwargs)
            ctx = kwargs.get("context")
            iid = ctx.get(CURRENT_INTERACTION) if ctx is not None else CURRENT_INTERACTION.get()
            if iid is not None and not _ignored_for_settle(coro):
                tracker.track_deep(iid, task)
            if direct_sink:  # created while an INTERACTION_CREATE is parsed
                direct_sink[-1].append(task)
            return task

        loop.set_task_factory(factory)  # type: ignore[arg-type]

    direct_sink: list[list[asyncio.Future[Any]]] = []

    @functools.wraps(original_parse)  # its source stays discord.py's (bot.ui.clicked checks it)
    def parse_interaction_create(self: Any, data: Any) -> None:
        iid = int(data["id"])
        loop = asyncio.get_running_loop()
        ensure_task_factory(loop)
        created: list[asyncio.Future[Any]] = []
        direct_sink.append(created)  # the task factory collects the tasks parsing creates
        token = CURRENT_INTERACTION.set(iid)
        try:
            original_parse(self, data)
        finally:
            CURRENT_INTERACTION.reset(token)
            direct_sink.pop()
            tracker.track_direct(iid, [t for t in created if isinstance(t, asyncio.Task)])

    state_cls.parse_interaction_create = parse_interaction_create  # type: ignore[method-assign]

    # 3. ERROR records (tracebacks), whoever logs them and however logging is configured.
    original_handle = logging.Logger.handle

    def handle(self: logging.Logger, record: logging.LogRecord) -> Any:
        if record.levelno >= logging.ERROR and not getattr(record, "_emu_seen", False):
            setattr(record, "_emu_seen", True)  # noqa: B010
            tb = ""
            if record.exc_info and record.exc_info[0] is not None:
                tb = "".join(traceback.format_exception(*record.exc_info))
            elif record.stack_info:
                tb = record.stack_info
            try:
                message = record.getMessage()
            except Exception:
                message = str(record.msg)
            reporter.send(
                "log",
                level=record.levelname,
                logger=record.name,
                message=message,
                traceback=tb,
                interaction_id=CURRENT_INTERACTION.get(),
            )
        return original_handle(self, record)

    logging.Logger.handle = handle  # type: ignore[method-assign]

    # 4. on_ready, and a short guild_ready_timeout.
    original_dispatch = discord.Client.dispatch

    def dispatch(self: Any, event: str, /, *args: Any, **kwargs: Any) -> None:
        if event == "ready":
            reporter.send("ready")
        original_dispatch(self, event, *args, **kwargs)

    discord.Client.dispatch = dispatch  # type: ignore[method-assign]

    if ready_timeout is not None:
        original_init = state_cls.__init__

        def init(self: Any, *args: Any, **kwargs: Any) -> None:
            original_init(self, *args, **kwargs)
            self.guild_ready_timeout = min(self.guild_ready_timeout, ready_timeout)

        state_cls.__init__ = init  # type: ignore[method-assign]

    # 5. optional: shorten discord.py's 5 s pause between shard IDENTIFYs (EMU_IDENTIFY_DELAY).
    if identify_delay is not None:

        async def before_identify_hook(
            self: Any, shard_id: int | None, *, initial: bool = False
        ) -> None:
            if not initial:
                await asyncio.sleep(identify_delay)

        discord.Client.before_identify_hook = before_identify_hook  # type: ignore[method-assign]

    # 6. optional: the bot-side latency of each interaction (EMU_ANSWER_TIMES=1).
    if os.environ.get("EMU_ANSWER_TIMES") == "1":
        install_answer_times(reporter)

    # 7. optional: the PostgreSQL round trips (EMU_DB_ROUND_TRIPS=1).
    if os.environ.get("EMU_DB_ROUND_TRIPS") == "1":
        install_db_round_trips(reporter)

    reporter.send("hello")
    return reporter


#: PostgreSQL's typeless start-up packets: (length, code) with code the protocol 3.0
STARTUP_CODE = b"\x00\x03\x00\x00"


def round_trips(data: bytes) -> int:
    """How many round trips a client's write to PostgreSQL starts: its Sync ('S') and
    simple Query ('Q') messages, and a Flush ('H') that ends the write (asyncpg prepares a
    statement with Parse, Describe, Flush, then waits). Frontend protocol 3: a type byte,
    then a length that counts itself; the start-up packet has no type byte."""
    count = 0
    i, end = 0, len(data)
    if data[4:8] == STARTUP_CODE:
        i = int.from_bytes(data[0:4], "big")
    while i + 5 <= end:
        kind = data[i]
        i += 1 + int.from_bytes(data[i + 1 : i + 5], "big")
        if kind in (0x53, 0x51) or (kind == 0x48 and i >= end):  # 'S', 'Q'; 'H' last
            count += 1
    return count


def install_db_round_trips(reporter: Reporter) -> None:
    """Counts the PostgreSQL round trips of the bot's process (asyncpg writes whole
    messages; ``round_trips`` reads their types). Observation only."""
    import asyncio.selector_events

    import asyncpg.protocol.protocol

    protocol_cls = asyncpg.protocol.protocol.BaseProtocol
    transport_cls = asyncio.selector_events._SelectorSocketTransport
    original_write = transport_cls.write
    original_writelines = transport_cls.writelines

    def write(self: Any, data: Any) -> None:
        if isinstance(self._protocol, protocol_cls):
            n = round_trips(bytes(data))
            if n:
                reporter.send("db", n=n)
        original_write(self, data)

    def writelines(self: Any, list_of_data: Any) -> None:
        if isinstance(self._protocol, protocol_cls):
            list_of_data = list(list_of_data)
            n = round_trips(b"".join(bytes(d) for d in list_of_data))
            if n:
                reporter.send("db", n=n)
        original_writelines(self, list_of_data)

    transport_cls.write = write  # type: ignore[method-assign]
    if "writelines" in vars(transport_cls):  # Python 3.12+; before, writelines calls write
        transport_cls.writelines = writelines  # type: ignore[method-assign]


def install_answer_times(reporter: Reporter) -> None:
    """Times each interaction inside the bot's process: from the moment aiohttp read the
    gateway frame that carried it off the socket to the moment its first answer (the
    interaction callback) was written to the socket. Observation only."""
    import aiohttp.client_proto
    import aiohttp.client_reqrep
    import discord.gateway
    import discord.state

    clock = time.perf_counter
    #: interaction id -> the reorder windows its action waited, as the rules require (the
    #: project's bot tells them through ``bot.tables.service.RULES_WAIT``; others: none)
    ruled: dict[int, list[float]] = {}
    frames: dict[int, float] = {}  # id(a received message's data) -> when it arrived
    current = {"arrived": 0.0, "read": 0.0}  # the frame discord.py is reading now
    arrivals: dict[int, tuple[float, float]] = {}  # interaction id -> (arrived, read)

    protocol_cls = aiohttp.client_proto.ResponseHandler
    original_data_received = protocol_cls.data_received

    def data_received(self: Any, data: bytes) -> None:
        buffer = getattr(self._payload, "_buffer", None) if self._payload_parser else None
        if buffer is None:  # not a websocket: a REST answer
            original_data_received(self, data)
            return
        now = clock()
        before = len(buffer)
        original_data_received(self, data)
        for i in range(before, len(buffer)):  # every message this chunk completed
            frames[id(buffer[i][0].data)] = now
        if len(frames) > 10_000:  # messages aiohttp handled itself (pings) are never read
            frames.clear()

    protocol_cls.data_received = data_received  # type: ignore[method-assign]

    ws_cls = discord.gateway.DiscordWebSocket
    original_received = ws_cls.received_message

    @functools.wraps(original_received)
    async def received_message(self: Any, msg: Any, /) -> None:
        now = clock()
        current["arrived"] = frames.pop(id(msg), now)
        current["read"] = now
        await original_received(self, msg)

    ws_cls.received_message = received_message  # type: ignore[method-assign]

    # discord.py parses a dispatch before its first await: ``current`` is this frame's
    state_cls = discord.state.ConnectionState
    wrapped_parse = state_cls.parse_interaction_create

    @functools.wraps(wrapped_parse)
    def parse_interaction_create(self: Any, data: Any) -> None:
        iid = int(data["id"])
        arrivals[iid] = (current["arrived"], current["read"])
        # the tasks discord.py starts for this interaction copy the context set here
        told = getattr(sys.modules.get("bot.tables.service"), "RULES_WAIT", None)
        if told is not None:
            ruled[iid] = []
            told.set(ruled[iid])
        wrapped_parse(self, data)

    state_cls.parse_interaction_create = parse_interaction_create  # type: ignore[method-assign]

    request_cls = aiohttp.client_reqrep.ClientRequest
    original_write_bytes = request_cls.write_bytes

    async def write_bytes(self: Any, *args: Any, **kwargs: Any) -> None:
        try:
            await original_write_bytes(self, *args, **kwargs)
        finally:
            path = self.url.raw_path
            if path.endswith("/callback") and "/interactions/" in path:
                with contextlib.suppress(ValueError, IndexError):
                    iid = int(path.split("/interactions/", 1)[1].split("/", 1)[0])
                    got = arrivals.pop(iid, None)
                    if got is not None:
                        reporter.send(
                            "answered",
                            interaction_id=iid,
                            bot_ms=(clock() - got[0]) * 1000,
                            queued_ms=(got[1] - got[0]) * 1000,
                            rules_ms=float(sum(ruled.pop(iid, ()))) * 1000,
                        )

    request_cls.write_bytes = write_bytes  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default=os.environ.get("EMU_HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("EMU_PORT", "0")))
    parser.add_argument(
        "--ready-timeout", type=float, default=float(os.environ.get("EMU_READY_TIMEOUT", "0.05"))
    )
    parser.add_argument("module", help="module to run as __main__, e.g. bot")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    ns = parser.parse_args(argv)
    if not ns.port:
        parser.error("--port (or EMU_PORT) is required")
    if ns.host not in ("127.0.0.1", "localhost", "::1"):
        parser.error("the emulator only runs on the loopback interface")
    delay = os.environ.get("EMU_IDENTIFY_DELAY")
    reporter = install(
        ns.host,
        ns.port,
        ready_timeout=ns.ready_timeout,
        identify_delay=float(delay) if delay else None,
    )
    args = ns.args[1:] if ns.args[:1] == ["--"] else ns.args
    sys.argv = [ns.module, *args]
    try:
        runpy.run_module(ns.module, run_name="__main__", alter_sys=True)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:
        reporter.send(
            "log",
            level="CRITICAL",
            logger="launcher",
            message=f"bot module {ns.module} crashed: {exc!r}",
            traceback=traceback.format_exc(),
            interaction_id=None,
        )
        reporter.flush()
        raise
    finally:
        reporter.flush()


if __name__ == "__main__":
    main()
