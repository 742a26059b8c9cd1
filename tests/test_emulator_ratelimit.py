"""The emulator enforces Discord's rate limits (emulator/ratelimit.py; each figure's source
is in docs/emulator.md, "Rate limits"): the global 50 a second per bot token with the
interaction endpoints exempt, per-route buckets keyed by their top-level resource with
Discord's headers and 429 bodies, and the invalid-request restriction."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord
import pytest

from emulator import running_emulator
from emulator.ratelimit import (
    INTERACTION_WEBHOOK,
    MESSAGE_CREATE,
    MESSAGE_DELETE,
    MESSAGE_DELETE_OLD,
    MESSAGE_DELETE_YOUNG,
    MESSAGE_EDIT,
    RESTRICTED_BODY,
    Admission,
    RateLimiter,
    RateLimits,
    Refusal,
    classify,
)

TOKEN = "Bot token-a"


class FakeClock:
    def __init__(self) -> None:
        self.s = 1_700_000_000.0

    def __call__(self) -> float:
        return self.s


def limiter(limits: RateLimits | None = None) -> tuple[RateLimiter, FakeClock]:
    clock = FakeClock()
    return RateLimiter(limits or RateLimits(), clock), clock


def post(channel: int = 1) -> tuple[str, str, Any]:
    return (
        "POST",
        f"/channels/{channel}/messages",
        classify("POST", "/channels/{cid}/messages", {"cid": str(channel)}),
    )


def get_me() -> tuple[str, str, Any]:
    return "GET", "/users/@me", classify("GET", "/users/@me", {})


def webhook_edit(token: str = "tok") -> tuple[str, str, Any]:
    template = "/webhooks/{app}/{token}/messages/{mid}"
    params = {"app": "9", "token": token, "mid": "@original"}
    return "PATCH", f"/webhooks/9/{token}/messages/@original", classify("PATCH", template, params)


def callback(token: str = "tok") -> tuple[str, str, Any]:
    template = "/interactions/{iid}/{token}/callback"
    params = {"iid": "5", "token": token}
    return "POST", f"/interactions/5/{token}/callback", classify("POST", template, params)


# ---------------------------------------------------------------------- global limit
def test_the_global_limit_is_50_requests_in_any_second_per_bot_token() -> None:
    rl, clock = limiter()
    for _ in range(50):
        assert isinstance(rl.admit(*get_me(), TOKEN), Admission)
        clock.s += 0.01
    refused = rl.admit(*get_me(), TOKEN)
    assert isinstance(refused, Refusal) and refused.scope == "global"
    assert refused.status == 429
    assert refused.body == {
        "message": "You are being rate limited.",
        "retry_after": 0.5,
        "global": True,
    }
    assert refused.headers["X-RateLimit-Global"] == "true"
    assert refused.headers["X-RateLimit-Scope"] == "global"
    assert refused.headers["Retry-After"] == "1"
    assert isinstance(rl.admit(*get_me(), "Bot another-bot"), Admission)  # its own budget
    clock.s += 0.5  # the first request of the 50 is now a second old
    assert isinstance(rl.admit(*get_me(), TOKEN), Admission)


def test_the_global_limit_is_a_sliding_second_not_a_window_a_burst_could_straddle() -> None:
    rl, clock = limiter()
    clock.s += 0.9
    for _ in range(50):
        assert isinstance(rl.admit(*get_me(), TOKEN), Admission)
    clock.s += 0.2  # past a whole-second boundary, but the 50 are 0.2 s old
    assert isinstance(rl.admit(*get_me(), TOKEN), Refusal)


def test_interaction_endpoints_are_not_bound_to_the_global_limit() -> None:
    rl, _ = limiter()
    for _ in range(50):
        assert isinstance(rl.admit(*get_me(), TOKEN), Admission)
    for n in range(20):  # a callback and an edit through each of 20 interaction tokens
        assert isinstance(rl.admit(*callback(f"t{n}"), TOKEN), Admission)
        assert isinstance(rl.admit(*webhook_edit(f"t{n}"), TOKEN), Admission)
    assert len(rl.global_bound) == 50


# ---------------------------------------------------------------------- per-route buckets
def test_posting_in_a_channel_is_5_per_5_seconds_per_channel_with_discords_headers() -> None:
    rl, clock = limiter()
    for left in (4, 3, 2, 1, 0):
        admitted = rl.admit(*post(1), TOKEN)
        assert isinstance(admitted, Admission)
        assert admitted.headers["X-RateLimit-Limit"] == "5"
        assert admitted.headers["X-RateLimit-Remaining"] == str(left)
        assert admitted.headers["X-RateLimit-Bucket"] == MESSAGE_CREATE.hash
        clock.s += 0.5
    refused = rl.admit(*post(1), TOKEN)
    assert isinstance(refused, Refusal) and refused.scope == "user"
    assert refused.body == {
        "message": "You are being rate limited.",
        "retry_after": 2.5,
        "global": False,
    }
    assert refused.headers["X-RateLimit-Scope"] == "user"
    assert refused.headers["X-RateLimit-Remaining"] == "0"
    assert refused.headers["X-RateLimit-Reset-After"] == "2.500"
    assert refused.headers["Retry-After"] == "3"
    assert float(refused.headers["X-RateLimit-Reset"]) == pytest.approx(clock.s + 2.5)
    assert isinstance(rl.admit(*post(2), TOKEN), Admission)  # another channel: its own
    clock.s += 2.5  # the window, opened at the first post, is over
    assert isinstance(rl.admit(*post(1), TOKEN), Admission)


def test_editing_a_channels_messages_is_a_bucket_apart_from_posting_in_it() -> None:
    rl, _ = limiter()
    edit = classify("PATCH", "/channels/{cid}/messages/{mid}", {"cid": "1", "mid": "7"})
    for _ in range(5):
        assert isinstance(rl.admit(*post(1), TOKEN), Admission)
    for _ in range(5):
        admitted = rl.admit("PATCH", "/channels/1/messages/7", edit, TOKEN)
        assert isinstance(admitted, Admission)
        assert admitted.headers["X-RateLimit-Bucket"] == MESSAGE_EDIT.hash
    assert isinstance(rl.admit("PATCH", "/channels/1/messages/8", edit, TOKEN), Refusal)


def test_an_interaction_tokens_webhook_bucket_is_5_per_2_seconds_per_token() -> None:
    rl, clock = limiter()
    for _ in range(5):
        admitted = rl.admit(*webhook_edit("a"), TOKEN)
        assert isinstance(admitted, Admission)
        assert admitted.headers["X-RateLimit-Bucket"] == INTERACTION_WEBHOOK.hash
    refused = rl.admit(*webhook_edit("a"), TOKEN)
    assert isinstance(refused, Refusal) and refused.body["retry_after"] == 2.0  # type: ignore[index]
    assert isinstance(rl.admit(*webhook_edit("b"), TOKEN), Admission)
    clock.s += 2
    assert isinstance(rl.admit(*webhook_edit("a"), TOKEN), Admission)


def test_a_messages_delete_bucket_depends_on_its_age() -> None:
    ages = {1: 2.0, 2: 60.0, 3: 15 * 24 * 3600.0}

    def bucket(mid: int) -> str:
        params = {"cid": "1", "mid": str(mid)}
        scoped = classify("DELETE", "/channels/{cid}/messages/{mid}", params, ages.get)
        assert scoped.route is not None and not scoped.exempt
        return scoped.route.name

    assert bucket(1) == MESSAGE_DELETE_YOUNG.name
    assert bucket(2) == MESSAGE_DELETE.name
    assert bucket(3) == MESSAGE_DELETE_OLD.name
    assert bucket(4) == MESSAGE_DELETE_YOUNG.name  # an unknown message: Discord's 404 bucket


def test_a_shared_resource_answers_429_of_shared_scope_which_is_not_an_invalid_request() -> None:
    rl, clock = limiter(RateLimits(invalid_limit=3))
    rl.admit(*post(1), TOKEN)
    rl.limit_shared("channel:1", 30)
    refused = rl.admit(*post(1), TOKEN)
    assert isinstance(refused, Refusal) and refused.scope == "shared"
    assert refused.body["message"] == "The resource is being rate limited."  # type: ignore[index]
    assert refused.headers["X-RateLimit-Remaining"] == "4"  # the bot's own bucket is not out
    for _ in range(5):
        rl.settle(429, "shared")
    assert rl.invalid_count() == 0 and rl.restricted_until is None
    clock.s += 30
    assert isinstance(rl.admit(*post(1), TOKEN), Admission)


# ---------------------------------------------------------------------- invalid requests
def test_401_403_and_429_count_as_invalid_requests_and_other_errors_do_not() -> None:
    rl, clock = limiter()
    for status, scope in ((401, None), (403, None), (429, "user"), (429, "global")):
        rl.settle(status, scope)
    for status in (400, 404, 500, 200):
        rl.settle(status, None)
    assert rl.invalid_count() == 4
    clock.s += 600  # ten minutes later they are forgotten
    assert rl.invalid_count() == 0


def test_past_the_invalid_limit_in_ten_minutes_the_address_is_restricted() -> None:
    rl, clock = limiter(RateLimits(invalid_limit=10, restriction_s=3600))
    for _ in range(9):
        rl.settle(403, None)
        clock.s += 60
    assert rl.restricted_until is None
    rl.settle(403, None)
    refused = rl.admit(*callback(), TOKEN)  # every route, exempt ones too
    assert isinstance(refused, Refusal) and refused.scope == "restricted"
    assert refused.body == RESTRICTED_BODY and "Via" not in refused.headers
    clock.s += 3600
    assert isinstance(rl.admit(*get_me(), TOKEN), Admission)


def test_the_default_invalid_limit_is_10000_in_10_minutes() -> None:
    rl, _ = limiter()
    for _ in range(9_999):
        rl.settle(401, None)
    assert rl.restricted_until is None
    rl.settle(401, None)
    assert rl.restricted_until is not None


def test_limits_off_refuse_nothing_and_send_no_headers() -> None:
    rl, _ = limiter(RateLimits.off())
    for _ in range(200):
        admitted = rl.admit(*post(1), TOKEN)
        assert isinstance(admitted, Admission) and admitted.headers == {}
    for _ in range(20_000):
        rl.settle(403, None)
    assert rl.restricted_until is None


def test_peak_global_is_the_most_global_bound_requests_in_any_second() -> None:
    rl, clock = limiter()
    for step in (0.0, 0.1, 0.1, 0.5, 0.4, 0.05):
        clock.s += step
        rl.admit(*get_me(), TOKEN)
    assert rl.peak_global() == 4  # the 2nd to 5th lie within 0.9 s; with the 6th, 1.05 s


# ---------------------------------------------------------------------- over HTTP
async def raw(
    http: aiohttp.ClientSession, emu: Any, method: str, path: str, **kwargs: Any
) -> aiohttp.ClientResponse:
    headers = {"Authorization": f"Bot {emu.token}"}
    async with http.request(method, emu.api_base + path, headers=headers, **kwargs) as resp:
        await resp.read()
        return resp


async def test_the_emulator_answers_429s_with_discords_headers_and_body() -> None:
    async with running_emulator() as emu, aiohttp.ClientSession() as http:
        path = f"/channels/{emu.channel('general').id}/messages"
        for _ in range(5):
            ok = await raw(http, emu, "POST", path, json={"content": "hi"})
            assert ok.status == 200 and ok.headers["Via"] == "1.1 google"
            assert ok.headers["X-RateLimit-Limit"] == "5"
        headers = {"Authorization": f"Bot {emu.token}"}
        async with http.post(emu.api_base + path, headers=headers, json={"content": "x"}) as r:
            assert r.status == 429 and r.headers["Via"] == "1.1 google"
            assert r.headers["X-RateLimit-Scope"] == "user"
            assert (await r.json())["global"] is False
        assert emu.requests[-1].status == 429  # recorded like any request
        assert [m.content for m in emu.channel_messages()] == ["hi"] * 5
        assert emu.rate_limiter.invalid_count() == 1
        emu.advance(seconds=5)  # the emulator's clock drives the buckets
        assert (await raw(http, emu, "POST", path, json={"content": "hi"})).status == 200


async def test_two_connections_share_one_bots_global_limit() -> None:
    async with (
        running_emulator() as emu,
        aiohttp.ClientSession() as first,
        aiohttp.ClientSession() as second,
    ):
        answers = await asyncio.gather(*(raw(first, emu, "GET", "/users/@me") for _ in range(50)))
        assert {a.status for a in answers} == {200}
        refused = await raw(second, emu, "GET", "/users/@me")
        assert refused.status == 429 and refused.headers["X-RateLimit-Global"] == "true"


async def test_the_restricted_address_gets_cloudflares_answer_and_a_problem_is_recorded() -> None:
    limits = RateLimits(invalid_limit=3)
    async with running_emulator(rate_limits=limits) as emu, aiohttp.ClientSession() as http:
        path = f"/channels/{emu.channel('general').id}/messages"
        emu.fail_next("POST", path, 403, 50013, "Missing Permissions", times=3)
        for _ in range(3):
            assert (await raw(http, emu, "POST", path, json={"content": "x"})).status == 403
        blocked = await raw(http, emu, "GET", "/users/@me")
        assert blocked.status == 429 and "Via" not in blocked.headers
        assert blocked.content_type == "text/html"
        (problem,) = emu.take_problems("restricted")
        assert "10,000" in problem.message


async def test_discord_py_waits_on_the_headers_and_honours_a_global_429(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """discord.py's own HTTP client against the emulator: it reads the route headers (no
    429 on a bucket it has seen) and retries after a global 429 (its ``Via`` check)."""
    limits = RateLimits(global_per_s=3)
    async with running_emulator(rate_limits=limits) as emu:
        monkeypatch.setattr(discord.http.Route, "BASE", emu.api_base)
        http = discord.http.HTTPClient(asyncio.get_running_loop())
        await http.static_login(emu.token)
        try:
            await asyncio.gather(*(http.get_user(emu.bot_user.id) for _ in range(5)))
            channel = emu.channel("general").id
            emu.advance(seconds=1)
            for n in range(6):
                await http.send_message(channel, params=_content(f"m{n}"))
        finally:
            await http.close()
        statuses = [r.status for r in emu.requests]
        scopes = [r.scope for r in emu.rate_limiter.refused]
        assert "global" in scopes and "user" not in scopes
        assert statuses.count(200) == 1 + 5 + 6  # login, users, posts
        posts = [r for r in emu.requests if r.method == "POST"]
        assert (posts[-1].at_ms - posts[0].at_ms) >= 4_000  # the 6th waited for the reset


def _content(text: str) -> Any:
    with discord.http.handle_message_parameters(content=text) as params:
        return params


def test_a_long_run_forgets_the_buckets_whose_window_is_over() -> None:
    rl, clock = limiter()
    for n in range(10_000):  # a bucket an interaction token
        rl.admit(*webhook_edit(f"t{n}"), TOKEN)
    clock.s += 5  # every window is over
    rl.admit(*webhook_edit("new"), TOKEN)
    assert len(rl._windows) == 1
