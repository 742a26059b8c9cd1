"""Optional Prometheus metrics (``TAMALOU_METRICS_PORT``, off by default; docs/operating.md).

Needs ``prometheus-client`` (``pip install -e '.[metrics]'``). Served on 127.0.0.1 only:
put a reverse proxy or the Prometheus agent on the same host to scrape it. Every label has
a small, fixed set of values (no ids, no names).

* ``tamalou_interactions_total{type, kind}``: clicks (``component``, kind ``game:verb``) and
  slash commands (``command``, kind ``group sub``) received.
* ``tamalou_rest_responses_total{kind, status}``: Discord's answers to the bot's REST
  requests, by what they were (``answer``: an interaction's first response; ``followup``,
  ``original`` (its edits), ``message``, ``edit``, ``delete``, ``other``).
* ``tamalou_rest_rate_limited_total{kind}`` (429s) and ``tamalou_rest_retried_total{kind}``
  (429s and 5xx: discord.py sends those requests again).
* ``tamalou_live_tables{game}``: the tables this process serves.
* ``tamalou_commit_seconds``: from a move handed to the storage to its commit.
* ``tamalou_ai_decision_seconds{level}``: an AI player's decision.
"""

from __future__ import annotations

import functools
import re
import time
from collections import Counter as Tally
from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

import aiohttp

if TYPE_CHECKING:
    from bot.app import GameBot

T = TypeVar("T")

#: a REST path's kind (the first that matches), by method
_KINDS: tuple[tuple[str | None, re.Pattern[str], str], ...] = (
    (None, re.compile(r"/interactions/\d+/[^/]+/callback$"), "answer"),
    (None, re.compile(r"/webhooks/\d+/[^/]+/messages/@original$"), "original"),
    (None, re.compile(r"/webhooks/\d+/[^/]+(/messages/\d+)?$"), "followup"),
    ("POST", re.compile(r"/channels/\d+/messages$"), "message"),
    ("PATCH", re.compile(r"/channels/\d+/messages/\d+$"), "edit"),
    ("DELETE", re.compile(r"/channels/\d+/messages/\d+$"), "delete"),
)


def rest_kind(method: str, path: str) -> str:
    for wanted, pattern, kind in _KINDS:
        if (wanted is None or wanted == method) and pattern.search(path):
            return kind
    return "other"


class Metrics:
    """The bot's metrics, in a registry of their own."""

    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Histogram

        self.registry = CollectorRegistry()
        self.interactions = Counter(
            "tamalou_interactions",
            "Interactions received: clicks (component) and slash commands (command)",
            ["type", "kind"],
            registry=self.registry,
        )
        self.rest = Counter(
            "tamalou_rest_responses",
            "Discord's answers to the bot's REST requests, by kind and HTTP status",
            ["kind", "status"],
            registry=self.registry,
        )
        self.rate_limited = Counter(
            "tamalou_rest_rate_limited", "429 answers", ["kind"], registry=self.registry
        )
        self.retried = Counter(
            "tamalou_rest_retried",
            "Answers that discord.py retries (429 and 5xx)",
            ["kind"],
            registry=self.registry,
        )
        self.commit = Histogram(
            "tamalou_commit_seconds",
            "From a move handed to the storage to its commit",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
            registry=self.registry,
        )
        self.ai = Histogram(
            "tamalou_ai_decision_seconds",
            "An AI player's decision",
            ["level"],
            buckets=(0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1),
            registry=self.registry,
        )
        self._bot: GameBot | None = None

    def serve(self, port: int) -> None:
        from prometheus_client import start_http_server

        start_http_server(port, addr="127.0.0.1", registry=self.registry)

    def attach(self, bot: GameBot) -> None:
        """Live tables read from ``bot``; its commits and AI decisions timed."""
        self._bot = bot
        self.registry.register(_LiveTables(bot))
        storage: Any = bot.storage  # its method replaced on this instance only
        storage.append_actions = self.timed(storage.append_actions, self.commit)
        runner = bot.service.ai_runner
        act = runner.act

        async def timed_act(ai: Any, *args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await act(ai, *args, **kwargs)
            finally:
                self.ai.labels(ai.level).observe(time.perf_counter() - start)

        runner.act = timed_act  # type: ignore[method-assign]

    @staticmethod
    def timed(call: Callable[..., Awaitable[T]], histogram: Any) -> Callable[..., Awaitable[T]]:
        @functools.wraps(call)
        async def timed_call(*args: Any, **kwargs: Any) -> T:
            start = time.perf_counter()
            try:
                return await call(*args, **kwargs)
            finally:
                histogram.observe(time.perf_counter() - start)

        return timed_call

    def interaction(self, kind: str, name: str) -> None:
        self.interactions.labels(kind, name).inc()

    def trace(self, config: aiohttp.TraceConfig | None = None) -> aiohttp.TraceConfig:
        """For discord.py's ``http_trace`` (added to ``config``): every REST answer counted."""
        config = config or aiohttp.TraceConfig()

        async def on_request_end(
            session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestEndParams
        ) -> None:
            kind = rest_kind(params.method, params.url.path)
            status = params.response.status
            self.rest.labels(kind, str(status)).inc()
            if status == 429:
                self.rate_limited.labels(kind).inc()
            if status == 429 or status in (500, 502, 503, 504):
                self.retried.labels(kind).inc()

        config.on_request_end.append(on_request_end)
        return config


class _LiveTables:
    """``tamalou_live_tables{game}``, read at each scrape."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import GaugeMetricFamily

        family = GaugeMetricFamily(
            "tamalou_live_tables", "Tables this process serves (lobby or playing)", labels=["game"]
        )
        games = Tally(t.row.game for t in list(self.bot.service.tables.values()))
        for game, count in sorted(games.items()):
            family.add_metric([game], count)
        yield family

    def describe(self) -> Iterator[Any]:
        return iter(())
