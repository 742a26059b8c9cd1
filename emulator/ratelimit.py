"""Discord's rate limits, enforced by the emulator (docs/emulator.md, "Rate limits").

Three limits, each with its source in docs/emulator.md:

* the **global** limit: 50 requests in any second per bot token (every connection, so
  every process of one bot), interaction endpoints exempt;
* **per-route buckets** keyed by their top-level resource (a channel, a webhook id +
  token), fixed windows that open at a bucket's first request, with the
  ``X-RateLimit-*`` headers discord.py reads;
* the **invalid-request limit**: 10,000 answers of 401, 403 or 429 (not of ``shared``
  scope) in 10 minutes from one address restrict it (Cloudflare) for a while.

The limiter reads time from a callable (seconds): the emulator passes its injectable
clock, so ``emu.advance(seconds=5)`` resets a bucket, and unit tests pass a fake one.
"""

from __future__ import annotations

import hashlib
import math
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

#: Discord's rate-limits page: "All bots can make up to 50 requests per second"
GLOBAL_PER_S = 50
#: the same page: "this limit is 10,000 per 10 minutes" (401, 403, 429 not of shared scope)
INVALID_LIMIT = 10_000
INVALID_WINDOW_S = 600.0
#: "temporarily restricted": Discord gives no length; an hour is what bots report
RESTRICTION_S = 3600.0
#: a message younger than this has its own delete bucket (discord-api-docs#8330)
YOUNG_MESSAGE_S = 10.0
#: older than this, deletes take the slow bucket (discord-api-docs#8330)
OLD_MESSAGE_S = 14 * 24 * 3600.0

#: clock readings are floats: a window is over this close to its end
EPSILON_S = 1e-6

RATE_LIMITED = "You are being rate limited."
RESOURCE_RATE_LIMITED = "The resource is being rate limited."
#: what Cloudflare answers a restricted address: text, no ``Via`` header (discord.py
#: reads a 429 without ``Via`` as a Cloudflare ban and raises at once)
RESTRICTED_BODY = "error code: 1015"


@dataclass(frozen=True)
class RouteLimit:
    """One per-route bucket: ``limit`` requests in a window of ``per_s`` seconds that opens
    at the bucket's first request, per top-level resource."""

    name: str
    limit: int
    per_s: float

    @property
    def hash(self) -> str:
        """``X-RateLimit-Bucket``: an opaque string, the same for every resource."""
        return hashlib.sha256(self.name.encode()).hexdigest()[:32]


#: posting in a channel: 5 per 5 s per channel (observed; docs/emulator.md)
MESSAGE_CREATE = RouteLimit("channel-message-create", 5, 5.0)
#: editing a channel's messages: 5 per 5 s per channel, its own bucket (observed)
MESSAGE_EDIT = RouteLimit("channel-message-edit", 5, 5.0)
#: deleting a message younger than 10 s, or one that does not exist (discord-api-docs#8330)
MESSAGE_DELETE_YOUNG = RouteLimit("channel-message-delete-young", 5, 1.0)
#: deleting a message 10 s to 14 days old (discord-api-docs#8330)
MESSAGE_DELETE = RouteLimit("channel-message-delete", 3, 1 / 3)
#: deleting a message older than 14 days (discord-api-docs#8330)
MESSAGE_DELETE_OLD = RouteLimit("channel-message-delete-old", 30, 4.0)
#: everything an interaction token's webhook does: 5 per 2 s per token (observed)
INTERACTION_WEBHOOK = RouteLimit("interaction-webhook", 5, 2.0)


ROUTES = (
    MESSAGE_CREATE,
    MESSAGE_EDIT,
    MESSAGE_DELETE_YOUNG,
    MESSAGE_DELETE,
    MESSAGE_DELETE_OLD,
    INTERACTION_WEBHOOK,
)


@dataclass(frozen=True)
class RateLimits:
    """The figures the emulator enforces. ``RateLimits()`` is Discord's; a test that needs
    no limit passes ``RateLimits.off()`` (``Emulator(rate_limits=False)``)."""

    #: requests a second per bot token on the global budget; None: no global limit
    global_per_s: int | None = GLOBAL_PER_S
    #: per-route buckets (and their headers)
    routes: bool = True
    #: invalid requests in ``invalid_window_s`` that restrict the address; None: never
    invalid_limit: int | None = INVALID_LIMIT
    invalid_window_s: float = INVALID_WINDOW_S
    restriction_s: float = RESTRICTION_S

    @classmethod
    def off(cls) -> RateLimits:
        return cls(global_per_s=None, routes=False, invalid_limit=None)

    def but(self, **changes: Any) -> RateLimits:
        return replace(self, **changes)


@dataclass(frozen=True)
class Scoped:
    """Where a request stands: exempt from the global limit or not, and its bucket."""

    exempt: bool
    route: RouteLimit | None = None
    resource: str = ""  # the top-level resource the bucket is keyed by


def classify(
    method: str,
    template: str,
    params: Mapping[str, str],
    message_age_s: Callable[[int], float | None] = lambda _mid: None,
) -> Scoped:
    """``template`` is the route below ``/api/v{version}``, as the emulator declares it
    (``/channels/{cid}/messages/{mid}``); ``params`` its values."""
    if template.startswith("/interactions/") and template.endswith("/callback"):
        # one answer an interaction (a second is refused 40060): no bucket to model
        return Scoped(exempt=True)
    if template.startswith("/webhooks/{app}/{token}"):
        return Scoped(True, INTERACTION_WEBHOOK, f"webhook:{params['app']}+{params['token']}")
    channel = params.get("cid", "")
    if template == "/channels/{cid}/messages" and method == "POST":
        return Scoped(False, MESSAGE_CREATE, f"channel:{channel}")
    if template == "/channels/{cid}/messages/{mid}":
        if method == "PATCH":
            return Scoped(False, MESSAGE_EDIT, f"channel:{channel}")
        if method == "DELETE":
            age = message_age_s(int(params["mid"]))
            if age is None or age < YOUNG_MESSAGE_S:
                route = MESSAGE_DELETE_YOUNG
            elif age < OLD_MESSAGE_S:
                route = MESSAGE_DELETE
            else:
                route = MESSAGE_DELETE_OLD
            return Scoped(False, route, f"channel:{channel}")
    return Scoped(exempt=False)


@dataclass
class _Window:
    opened_s: float
    used: int = 0


@dataclass(frozen=True)
class Refusal:
    """A 429 (or the restriction's answer) and its headers, for the server to send."""

    status: int
    body: dict[str, Any] | str
    headers: dict[str, str]
    scope: str  # "global", "user", "shared" or "restricted"


@dataclass
class Admission:
    """A request let through: its headers are added to the answer in :meth:`settle`."""

    scoped: Scoped
    headers: dict[str, str] = field(default_factory=dict)
    global_bound: bool = False


@dataclass(frozen=True)
class Refused:
    """A request the limiter answered: when, which, why (``emu.rate_limiter.refused``)."""

    at_s: float
    method: str
    path: str
    scope: str
    retry_after: float


class RateLimiter:
    """Admits or refuses each REST request as Discord would, and counts invalid answers."""

    def __init__(self, limits: RateLimits, now: Callable[[], float]) -> None:
        self.limits = limits
        self.now = now
        self._global: dict[str, deque[float]] = {}  # token -> times in the last second
        self._windows: dict[tuple[str, str], _Window] = {}  # (bucket, resource)
        self._shared: dict[str, float] = {}  # resource -> limited until
        self._invalid: deque[float] = deque()
        self.restricted_until: float | None = None
        #: every request on the global budget let through: its time (seconds)
        self.global_bound: list[float] = []
        self.refused: list[Refused] = []

    # ------------------------------------------------------------------ the test's levers
    def limit_shared(self, resource: str, seconds: float) -> None:
        """Another user exhausts a shared resource (``channel:<id>``) for ``seconds``:
        requests on it get 429s of ``shared`` scope, which count as no invalid request."""
        self._shared[resource] = self.now() + seconds

    def forget_records(self) -> None:
        """Forgets what was let through, refused and counted invalid so far (a new scene:
        ``Emulator.forget_records``); the buckets' windows run on."""
        self.global_bound.clear()
        self.refused.clear()
        self._invalid.clear()
        self._shared.clear()

    def invalid_count(self) -> int:
        self._forget_invalid(self.now())
        return len(self._invalid)

    def peak_global(self, window_s: float = 1.0) -> int:
        """The most requests on the global budget let through in any ``window_s``."""
        times, best, first = self.global_bound, 0, 0
        for last, at in enumerate(times):
            while at - times[first] >= window_s - EPSILON_S:
                first += 1
            best = max(best, last - first + 1)
        return best

    # ------------------------------------------------------------------ per request
    def admit(
        self, method: str, path: str, scoped: Scoped, token: str | None
    ) -> Admission | Refusal:
        now = self.now()
        limits = self.limits
        if self.restricted_until is not None:
            if now < self.restricted_until:
                return self._refuse(method, path, now, _restricted(self.restricted_until - now))
            self.restricted_until = None
        route = scoped.route if limits.routes else None
        global_bound = not scoped.exempt and limits.global_per_s is not None
        if global_bound:
            assert limits.global_per_s is not None
            sent = self._global.setdefault(token or "", deque())
            while sent and now - sent[0] >= 1.0 - EPSILON_S:
                sent.popleft()
            if len(sent) >= limits.global_per_s:
                return self._refuse(method, path, now, _global(sent[0] + 1.0 - now))
        headers: dict[str, str] = {}
        if route is not None:
            key = (route.name, scoped.resource)
            window = self._windows.get(key)
            if window is None or now - window.opened_s >= route.per_s - EPSILON_S:
                if window is None and len(self._windows) >= 10_000:
                    self._forget_windows(now)  # a bucket a token: a long run makes many
                window = self._windows[key] = _Window(now)
            reset_after = window.opened_s + route.per_s - now
            until = self._shared.get(scoped.resource)
            if until is not None and now < until:
                left = route.limit - window.used
                return self._refuse(method, path, now, _shared(route, left, until - now, now))
            if window.used >= route.limit:
                return self._refuse(method, path, now, _user(route, 0, reset_after, now))
            window.used += 1
            headers = _route_headers(route, route.limit - window.used, reset_after, now)
        if global_bound:
            self._global[token or ""].append(now)
            self.global_bound.append(now)
        return Admission(scoped, headers, global_bound)

    def settle(self, status: int, scope: str | None) -> None:
        """Counts an answer: 401, 403, and 429 not of ``shared`` scope are invalid."""
        if self.limits.invalid_limit is None:
            return
        if not (status in (401, 403) or (status == 429 and scope != "shared")):
            return
        now = self.now()
        self._forget_invalid(now)
        self._invalid.append(now)
        if len(self._invalid) >= self.limits.invalid_limit:
            self.restricted_until = now + self.limits.restriction_s

    def _forget_windows(self, now: float) -> None:
        longest = max((w.per_s for w in ROUTES), default=0.0)
        self._windows = {k: w for k, w in self._windows.items() if now - w.opened_s < longest}

    def _forget_invalid(self, now: float) -> None:
        while self._invalid and now - self._invalid[0] >= self.limits.invalid_window_s - EPSILON_S:
            self._invalid.popleft()

    def _refuse(self, method: str, path: str, now: float, refusal: Refusal) -> Refusal:
        retry = refusal.body["retry_after"] if isinstance(refusal.body, dict) else 0.0
        self.refused.append(Refused(now, method, path, refusal.scope, float(retry)))
        return refusal


def _seconds(value: float) -> float:
    return round(max(value, 0.0), 3)


def _route_headers(
    route: RouteLimit, remaining: int, reset_after: float, now: float
) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(route.limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{now + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{_seconds(reset_after):.3f}",
        "X-RateLimit-Bucket": route.hash,
    }


def _retry_after(seconds: float) -> str:
    """``Retry-After``: whole seconds, rounded up (Discord's examples: 64.57 -> 65)."""
    return str(max(1, math.ceil(seconds)))


def _user(route: RouteLimit, remaining: int, reset_after: float, now: float) -> Refusal:
    headers = _route_headers(route, remaining, reset_after, now)
    headers |= {"X-RateLimit-Scope": "user", "Retry-After": _retry_after(reset_after)}
    body = {"message": RATE_LIMITED, "retry_after": _seconds(reset_after), "global": False}
    return Refusal(429, body, headers, "user")


def _shared(route: RouteLimit, remaining: int, seconds: float, now: float) -> Refusal:
    # the route's headers say what is left of the bot's own bucket: the resource is out
    headers = _route_headers(route, remaining, seconds, now)
    headers |= {"X-RateLimit-Scope": "shared", "Retry-After": _retry_after(seconds)}
    body = {"message": RESOURCE_RATE_LIMITED, "retry_after": _seconds(seconds), "global": False}
    return Refusal(429, body, headers, "shared")


def _global(seconds: float) -> Refusal:
    headers = {
        "X-RateLimit-Global": "true",
        "X-RateLimit-Scope": "global",
        "Retry-After": _retry_after(seconds),
    }
    body = {"message": RATE_LIMITED, "retry_after": _seconds(seconds), "global": True}
    return Refusal(429, body, headers, "global")


def _restricted(seconds: float) -> Refusal:
    return Refusal(429, RESTRICTED_BODY, {"Retry-After": _retry_after(seconds)}, "restricted")
