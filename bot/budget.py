"""One budget for every Discord request this process sends on the bot token's global limit.

Discord gives a bot token 50 requests a second in all, whatever the number of shards and
processes, and restricts an address that gets 10,000 invalid answers (401, 403, 429 not of
``shared`` scope) in 10 minutes (docs/deploy.md, "Discord's budget"). discord.py learns of
the global limit only from a 429, one process at a time. So every request passes here at
the moment it is sent (an aiohttp trace hook on discord.py's session: its retries and its
waits on a route's bucket included):

* **exempt** requests go at once: an interaction's callback, and every request through an
  interaction token's webhook (follow-ups, ``@original`` and follow-up edits). Discord
  does not count them against the global limit.
* every other request takes a token of a bucket refilled at this process's **share** of
  the bot's budget (``TAMALOU_DISCORD_BUDGET``, 40 a second by default, times the share of
  the shards this process runs). Requests wait their turn in order; none is dropped or
  overtaken. A table edit that waits holds its table's next edits, which coalesce.
* a **global 429** (``X-RateLimit-Global``) holds every such request for its
  ``Retry-After``, in the whole process.
* a **circuit breaker** counts this process's invalid answers over 10 minutes; at its
  share of 5,000 (half of Discord's 10,000), requests wait until the oldest is forgotten,
  so no loop of refusals runs on toward the restriction.

Per-route buckets stay discord.py's (it reads ``X-RateLimit-*`` on every answer).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp

log = logging.getLogger(__name__)

#: requests a second the whole bot spends on Discord's global limit (50): 10 of headroom
DEFAULT_BUDGET_PER_S = 40.0
#: Discord's invalid-request limit, and the part of it the bot allows itself
DISCORD_INVALID_LIMIT = 10_000
INVALID_WINDOW_S = 600.0
DEFAULT_INVALID_CAP = DISCORD_INVALID_LIMIT // 2
#: clock readings are floats: a wait shorter than this is no wait
EPSILON_S = 1e-6

_API = re.compile(r"/api/v\d+(/.*)$")
_CALLBACK = re.compile(r"^/interactions/\d+/[^/]+/callback$")
_INTERACTION_WEBHOOK = re.compile(r"^/webhooks/\d+/[^/]+(/messages/[^/]+)?$")


def request_kind(path: str) -> str:
    """``callback``, ``interaction`` (an interaction token's webhook), ``global`` (the
    bot token's global limit) or ``other`` (not Discord's REST API: the gateway)."""
    api = _API.match(path)
    if api is None:
        return "other"
    route = api.group(1)
    if _CALLBACK.match(route):
        return "callback"
    if _INTERACTION_WEBHOOK.match(route):
        return "interaction"
    return "global"


def process_share(shard_ids: tuple[int, ...] | None, shard_count: int | None) -> float:
    """The part of the bot this process is: its shards out of all (1 without a range)."""
    if shard_ids is None or shard_count is None:
        return 1.0
    return len(shard_ids) / shard_count


class DiscordBudget:
    """A FIFO token bucket (``per_s`` a second, ``burst`` at once) with a global-429 pause
    and an invalid-answer breaker. ``clock`` and ``sleep`` are injectable for tests."""

    def __init__(
        self,
        per_s: float,
        *,
        burst: float = 1.0,
        invalid_cap: int = DEFAULT_INVALID_CAP,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        if per_s <= 0:
            raise ValueError("a budget spends more than 0 requests a second")
        self.per_s = per_s
        self.burst = max(burst, 1.0)
        self.invalid_cap = max(invalid_cap, 1)
        self._clock = clock
        self._sleep = sleep
        self._tokens = self.burst
        self._filled_at = clock()
        self._paused_until = 0.0
        self._invalid: deque[float] = deque()
        self._breaker_open = False
        self._turn = asyncio.Lock()  # FIFO: waiters are woken in the order they came
        #: requests let through on the global budget, and how long they waited in all
        self.spent = 0
        self.waited_s = 0.0
        self.global_429s = 0

    @classmethod
    def for_process(
        cls,
        bot_per_s: float = DEFAULT_BUDGET_PER_S,
        *,
        shard_ids: tuple[int, ...] | None = None,
        shard_count: int | None = None,
    ) -> DiscordBudget:
        """This process's share of the bot's budget and of its invalid-answer allowance."""
        share = process_share(shard_ids, shard_count)
        return cls(bot_per_s * share, invalid_cap=int(DEFAULT_INVALID_CAP * share))

    # ------------------------------------------------------------------ the gate
    async def acquire(self) -> None:
        """Waits for this request's turn on the global budget, then takes its token."""
        start = self._clock()
        async with self._turn:
            while (wait := self._wait_s()) > EPSILON_S:
                await self._sleep(wait)
            self._tokens = max(self._tokens - 1, 0.0)
        self.spent += 1
        self.waited_s += self._clock() - start

    async def hold_if_broken(self) -> None:
        """An exempt request waits only while the breaker is open."""
        while (wait := self._breaker_wait_s()) > EPSILON_S:
            await self._sleep(wait)

    def _wait_s(self) -> float:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._filled_at) * self.per_s)
        self._filled_at = now
        waits = [
            self._paused_until - now,
            self._breaker_wait_s(),
            (1 - self._tokens) / self.per_s if self._tokens < 1 else 0.0,
        ]
        return max(waits)

    def _breaker_wait_s(self) -> float:
        now = self._clock()
        while self._invalid and now - self._invalid[0] >= INVALID_WINDOW_S - EPSILON_S:
            self._invalid.popleft()
        if len(self._invalid) < self.invalid_cap:
            if self._breaker_open:
                self._breaker_open = False
                log.warning(
                    "Discord's invalid answers are below %d again: sending", self.invalid_cap
                )
            return 0.0
        return self._invalid[0] + INVALID_WINDOW_S - now

    # ------------------------------------------------------------------ answers
    def answered(self, status: int, headers: Any) -> None:
        """Every answer: an invalid one is counted, a global 429 pauses the process."""
        if status not in (401, 403, 429):
            return
        scope = headers.get("X-RateLimit-Scope")
        if status == 429 and (headers.get("X-RateLimit-Global") or scope == "global"):
            self.global_429s += 1
            self.pause(float(headers.get("Retry-After") or 1))
        if status == 429 and scope == "shared":
            return  # another user's load on a shared resource: Discord does not count it
        self._invalid.append(self._clock())
        if len(self._invalid) >= self.invalid_cap and not self._breaker_open:
            self._breaker_open = True
            log.warning(
                "%d invalid answers from Discord (401, 403, 429) in 10 minutes: requests "
                "wait until older ones are forgotten (Discord restricts the address at "
                "%d)",
                len(self._invalid),
                DISCORD_INVALID_LIMIT,
            )

    def pause(self, seconds: float) -> None:
        """Nothing on the global budget goes for ``seconds`` (a global 429's Retry-After)."""
        self._paused_until = max(self._paused_until, self._clock() + seconds)

    def invalid_count(self) -> int:
        self._breaker_wait_s()
        return len(self._invalid)

    # ------------------------------------------------------------------ discord.py
    def trace(self, config: aiohttp.TraceConfig | None = None) -> aiohttp.TraceConfig:
        """Hooks for discord.py's ``http_trace``: the gate before each request is sent
        (interaction requests use the same session), the count after each answer."""
        config = config or aiohttp.TraceConfig()

        async def on_request_start(
            session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestStartParams
        ) -> None:
            kind = request_kind(params.url.path)
            if kind == "global":
                await self.acquire()
            elif kind == "interaction":
                await self.hold_if_broken()

        async def on_request_end(
            session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestEndParams
        ) -> None:
            if request_kind(params.url.path) != "other":
                self.answered(params.response.status, params.response.headers)

        config.on_request_start.append(on_request_start)
        config.on_request_end.append(on_request_end)
        return config
