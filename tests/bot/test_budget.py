"""The Discord budget (bot/budget.py) on a fake clock: every request on the bot token's
global limit waits its turn at the process's rate, in order; interaction requests pass;
a global 429 pauses the process; invalid answers open a breaker before Discord's
restriction (docs/deploy.md, "Discord's budget")."""

from __future__ import annotations

import asyncio

import pytest

from bot.budget import DEFAULT_INVALID_CAP, DiscordBudget, process_share, request_kind


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


def budget(per_s: float = 40.0, **kwargs: object) -> tuple[DiscordBudget, FakeTime]:
    t = FakeTime()
    return DiscordBudget(per_s, clock=t.clock, sleep=t.sleep, **kwargs), t  # type: ignore[arg-type]


API = "/api/v10"


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        (f"{API}/interactions/123/tok-en/callback", "callback"),
        (f"{API}/webhooks/9/tok-en", "interaction"),
        (f"{API}/webhooks/9/tok-en/messages/@original", "interaction"),
        (f"{API}/webhooks/9/tok-en/messages/456", "interaction"),
        (f"{API}/channels/1/messages", "global"),
        (f"{API}/channels/1/messages/2", "global"),
        (f"{API}/channels/1/messages/2/threads", "global"),
        (f"{API}/channels/1", "global"),
        (f"{API}/users/@me", "global"),
        (f"{API}/applications/9/emojis", "global"),
        ("/", "other"),  # the gateway's websocket
    ],
)
def test_interaction_requests_are_exempt_and_every_other_rest_request_is_global(
    path: str, kind: str
) -> None:
    assert request_kind(path) == kind


async def test_requests_go_at_the_process_rate_never_more_than_rate_plus_one_a_second() -> None:
    b, t = budget(40.0)
    sent: list[float] = []
    for _ in range(100):
        await b.acquire()
        sent.append(t.now)
    assert sent[-1] - sent[0] == pytest.approx(99 / 40)
    most = max(sum(1 for s in sent if start <= s < start + 1.0) for start in sent)
    assert most <= 41
    assert b.spent == 100


async def test_waiting_requests_go_in_the_order_they_came() -> None:
    b, _ = budget(10.0)
    order: list[int] = []

    async def request(n: int) -> None:
        await b.acquire()
        order.append(n)

    await asyncio.gather(*(request(n) for n in range(20)))
    assert order == list(range(20))


async def test_a_cancelled_waiter_takes_no_token_and_holds_nobody() -> None:
    b, _ = budget(10.0)
    await b.acquire()  # the bucket is empty now
    order: list[int] = []

    async def request(n: int) -> None:
        await b.acquire()
        order.append(n)

    first = asyncio.create_task(request(1))
    await asyncio.sleep(0)
    second = asyncio.create_task(request(2))
    third = asyncio.create_task(request(3))
    await asyncio.sleep(0)
    second.cancel()
    await asyncio.gather(first, third, return_exceptions=True)
    assert order == [1, 3] and b.spent == 3


async def test_a_global_429_pauses_every_global_request_for_its_retry_after() -> None:
    b, t = budget(40.0)
    await b.acquire()
    b.answered(
        429, {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global", "Retry-After": "2"}
    )
    start = t.now
    await b.acquire()
    assert t.now - start >= 2.0
    assert b.global_429s == 1


async def test_a_route_429_does_not_pause_the_process() -> None:
    b, t = budget(40.0)
    b.answered(429, {"X-RateLimit-Scope": "user", "Retry-After": "5"})
    start = t.now
    await b.acquire()
    assert t.now - start < 0.1 and b.global_429s == 0


async def test_invalid_answers_open_the_breaker_until_the_oldest_is_ten_minutes_old() -> None:
    b, t = budget(40.0, invalid_cap=3)
    b.answered(403, {})
    t.now += 60
    b.answered(401, {})
    b.answered(429, {"X-RateLimit-Scope": "shared", "Retry-After": "1"})  # not counted
    b.answered(404, {})  # not an invalid request
    assert b.invalid_count() == 2
    await b.acquire()  # under the cap: goes
    b.answered(429, {"X-RateLimit-Scope": "user", "Retry-After": "1"})
    assert b.invalid_count() == 3
    start = t.now
    await b.acquire()  # the breaker holds it until the first 403 is ten minutes old
    assert t.now - start == pytest.approx(540.0, abs=0.1)
    assert b.invalid_count() == 2


async def test_an_interaction_request_waits_only_while_the_breaker_is_open() -> None:
    b, t = budget(1.0, invalid_cap=1)
    await b.acquire()  # the global bucket is empty: an interaction request does not care
    start = t.now
    await b.hold_if_broken()
    assert t.now == start
    b.answered(401, {})
    await b.hold_if_broken()
    assert t.now - start == pytest.approx(600.0)


def test_a_process_takes_its_shards_share_of_the_bots_budget() -> None:
    assert process_share(None, None) == 1.0
    assert process_share((0, 1), 8) == 0.25
    whole = DiscordBudget.for_process(40.0)
    assert whole.per_s == 40.0 and whole.invalid_cap == DEFAULT_INVALID_CAP
    half = DiscordBudget.for_process(40.0, shard_ids=(1,), shard_count=2)
    assert half.per_s == 20.0 and half.invalid_cap == DEFAULT_INVALID_CAP // 2
