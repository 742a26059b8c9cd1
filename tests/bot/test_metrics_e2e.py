"""Optional Prometheus metrics (issue 24): off by default; on a local port they count the
clicks and commands by kind, Discord's REST answers, the live tables, commits and AI
decisions."""

from __future__ import annotations

import asyncio
import re
import urllib.request
from pathlib import Path

import pytest
from prometheus_client import generate_latest

from bot.app import GameBot
from bot.config import Config
from bot.metrics import rest_kind
from bot.tables.ai import AiSeat
from emulator import Emulator
from tests.support.bot_harness import BotHarness, open_table
from tests.test_bot_entry import free_port, run_bot

pytestmark = pytest.mark.e2e


def value(text: str, name: str, **labels: str) -> float:
    """A sample's value in Prometheus' text format (0 if absent)."""
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    pattern = re.escape(name) + (r"\{" + re.escape(wanted) + r"\}" if labels else "") + r" (\S+)"
    found = re.search("^" + pattern + "$", text, re.M)
    return float(found.group(1)) if found else 0.0


async def scrape(port: int) -> str:
    def get() -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
            return str(r.read().decode())

    return await asyncio.to_thread(get)


@pytest.mark.one_backend
async def test_metrics_count_what_the_bot_does(emulator: Emulator, tmp_path: Path) -> None:
    h, emu = BotHarness(emulator, tmp_path), emulator
    port = free_port()
    await h.start(TAMALOU_METRICS_PORT=str(port))
    await open_table(h, ["alice", "bob"])
    await emu.click("alice", h.table_message(), "My cards")
    text = await scrape(port)
    assert (
        value(text, "tamalou_interactions_total", type="application_command", kind="tamalou new")
        == 1
    )
    assert value(text, "tamalou_interactions_total", type="component", kind="tamalou:join") == 1
    assert value(text, "tamalou_interactions_total", type="component", kind="tamalou:start") == 1
    assert value(text, "tamalou_rest_responses_total", kind="answer", status="200") == 4
    assert value(text, "tamalou_interactions_total", type="component", kind="tamalou:hand") == 1
    assert value(text, "tamalou_live_tables", game="tamalou") == 1
    assert value(text, "tamalou_commit_seconds_count") >= 1
    assert value(text, "tamalou_rest_rate_limited_total", kind="answer") == 0
    emu.check()


def test_metrics_are_off_by_default(tmp_path: Path) -> None:
    bot = GameBot(Config(token="x", database=str(tmp_path / "t.sqlite3")))
    assert bot.metrics is None
    # the Discord budget's count (bot/budget.py) and the Date reader (bot/ui/discord_clock.py)
    # only: no metrics' counter
    trace = bot.http.http_trace
    assert trace is not None and len(trace.on_request_end) == 2


async def test_ai_decisions_and_commits_are_timed(tmp_path: Path) -> None:
    bot = GameBot(Config(token="x", database=str(tmp_path / "t.sqlite3"), metrics_port=9108))
    assert bot.metrics is not None and bot.http.http_trace is not None

    class Player:
        def act(self, seen: object, legal: list[str], at: int) -> str:
            return legal[0]

    seat = AiSeat(seat=1, level="easy", player=Player(), slow=False)  # type: ignore[arg-type]
    assert await bot.service.ai_runner.act(seat, None, ["draw"], 0) == "draw"
    text = generate_latest(bot.metrics.registry).decode()
    assert value(text, "tamalou_ai_decision_seconds_count", level="easy") == 1
    await bot.storage.open()
    try:
        assert value(text, "tamalou_commit_seconds_count") == 0
        await bot.storage.append_actions(1, 0, [], [])
        text = generate_latest(bot.metrics.registry).decode()
        assert value(text, "tamalou_commit_seconds_count") == 1
    finally:
        await bot.storage.close()


def test_a_metrics_port_in_use_is_one_line_and_exit_2(tmp_path: Path) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = run_bot(tmp_path, DISCORD_TOKEN="x", TAMALOU_METRICS_PORT=str(port))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith(f"error: TAMALOU_METRICS_PORT={port}")
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("method", "path", "kind"),
    [
        ("POST", "/api/v10/interactions/1/tok/callback", "answer"),
        ("PATCH", "/api/v10/webhooks/1/tok/messages/@original", "original"),
        ("POST", "/api/v10/webhooks/1/tok", "followup"),
        ("PATCH", "/api/v10/webhooks/1/tok/messages/5", "followup"),
        ("POST", "/api/v10/channels/2/messages", "message"),
        ("PATCH", "/api/v10/channels/2/messages/3", "edit"),
        ("DELETE", "/api/v10/channels/2/messages/3", "delete"),
        ("GET", "/api/v10/users/@me", "other"),
    ],
)
def test_rest_kinds(method: str, path: str, kind: str) -> None:
    assert rest_kind(method, path) == kind
