"""Discord's clock, as the bot can know it: a click's deadlines run from its press (its
snowflake, Discord's time), so the bot must read its own clock in Discord's time.

How far the bot's clock is from Discord's (``offset``: Discord's time minus the bot's) is
bounded by Discord's own timestamps, never guessed from a delay:

* a click cannot reach the bot before it was pressed: its snowflake time ``P``, seen at the
  bot's time ``A``, gives ``offset >= P - A`` (:meth:`DiscordClock.pressed`);
* every REST answer carries Discord's ``Date`` header, ``D`` (whole seconds), stamped
  between the bot's send, ``S``, and its receipt, ``R``: ``D - R <= offset < D + 1000 - S``
  (:meth:`DiscordClock.answered`, fed by discord.py's ``http_trace``).

The offset taken is the one nearest 0 inside every bound kept: the bot's clock is trusted
(NTP keeps both near) until Discord's own stamps prove it off, and then corrected by no more
than they prove. Bounds that contradict each other (a clock stepped) drop the oldest until
they agree. The estimate only decides when a click is acknowledged before its answer is
ready; whether a late click is still alive is Discord's answer to that acknowledgement.
"""

from __future__ import annotations

import email.utils
import math
from collections import deque
from collections.abc import Callable
from typing import Any

import aiohttp

#: bounds kept of each kind (the newest): enough to pin the offset to the network's delay
KEEP = 64


class DiscordClock:
    """The bot's clock (``clock``, ms) read in Discord's time."""

    def __init__(self, clock: Callable[[], int], keep: int = KEEP) -> None:
        self.clock = clock
        self._seq = 0
        #: (bound, sequence): Discord's time minus the bot's is at least / at most bound
        self._lower: deque[tuple[float, int]] = deque(maxlen=keep)
        self._upper: deque[tuple[float, int]] = deque(maxlen=keep)
        self._offset: float | None = 0.0

    def _add(self, kept: deque[tuple[float, int]], bound: float) -> None:
        self._seq += 1
        kept.append((bound, self._seq))
        self._offset = None

    def pressed(self, press_ms: int, seen_ms: int | None = None) -> None:
        """A click pressed at ``press_ms`` (Discord's time) reached the bot at ``seen_ms``
        (the bot's; now if None)."""
        self._add(self._lower, press_ms - (self.clock() if seen_ms is None else seen_ms))

    def answered(self, date: str | None, sent_ms: int, received_ms: int) -> None:
        """A REST answer sent at ``sent_ms`` and received at ``received_ms`` (the bot's
        time) carried Discord's ``Date`` header ``date``."""
        if not date:
            return
        try:
            stamped = email.utils.parsedate_to_datetime(date).timestamp() * 1000
        except (TypeError, ValueError, IndexError):
            return
        self._add(self._lower, stamped - received_ms)
        self._add(self._upper, stamped + 1000 - sent_ms)

    @property
    def offset(self) -> int:
        """Discord's time minus the bot's, in ms (0 until Discord's stamps say otherwise)."""
        if self._offset is None:
            self._offset = self._estimate()
        return round(self._offset)

    def _estimate(self) -> float:
        lower, upper = self._lower, self._upper
        while True:
            low = max((b for b, _ in lower), default=-math.inf)
            high = min((b for b, _ in upper), default=math.inf)
            if low <= high:
                return min(max(0.0, low), high)
            # contradicting bounds: a clock stepped; the older of the two heads goes
            if upper and (not lower or upper[0][1] < lower[0][1]):
                upper.popleft()
            else:
                lower.popleft()

    def now(self) -> int:
        """The time now, in Discord's clock (ms)."""
        return self.clock() + self.offset

    def age(self, press_ms: int) -> int:
        """How long ago (ms) a click pressed at ``press_ms`` (its snowflake time) was."""
        return self.now() - press_ms

    def trace(self) -> aiohttp.TraceConfig:
        """For discord.py's ``http_trace``: every REST answer's ``Date`` header read."""
        config = aiohttp.TraceConfig()
        clock = self.clock

        async def on_request_start(
            session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestStartParams
        ) -> None:
            context.sent_ms = clock()

        async def on_request_end(
            session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestEndParams
        ) -> None:
            sent = getattr(context, "sent_ms", None)
            if sent is not None:
                self.answered(params.response.headers.get("Date"), sent, clock())

        config.on_request_start.append(on_request_start)
        config.on_request_end.append(on_request_end)
        return config


__all__ = ["KEEP", "DiscordClock"]
