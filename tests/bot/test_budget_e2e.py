"""Two bot processes, a shard each, share one bot token's global limit: each keeps to its
shards' share of ``TAMALOU_DISCORD_BUDGET`` (bot/budget.py), so together they stay under
Discord's limit and draw no 429 (docs/deploy.md, "Discord's budget").

The emulator's global limit is lowered (4 a second, the budget 3) so that a few tables'
start-up and play are enough load to cross it; the rule is the same at 50 and 40.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from emulator import Emulator, GuildSpec
from emulator.ratelimit import RateLimits
from tests.support.bot_harness import BotHarness

pytestmark = pytest.mark.e2e

SHARD_COUNT = 2
GLOBAL_PER_S = 4
BUDGET_PER_S = 3
CHANNELS = ("general", "tables", "second", "second-b")  # two in each guild


async def open_table(emu: Emulator, h: BotHarness, channel: str, players: list[str]) -> None:
    await emu.slash(players[0], "tamalou new", channel=channel)
    await emu.click(players[1], h.table_message(channel), "Join")
    await emu.click(players[0], h.table_message(channel), "Start")
    for p in players:
        await emu.click(p, h.table_message(channel), "My cards")


async def test_two_processes_keep_together_under_the_global_limit_with_no_429(
    emulator_factory: Callable[..., Any], tmp_path: Path
) -> None:
    emu: Emulator = await emulator_factory(
        shard_count=SHARD_COUNT,
        extra_guilds=[GuildSpec("Second Guild", ("second", "second-b"))],
        rate_limits=RateLimits(global_per_s=GLOBAL_PER_S),
    )
    h = BotHarness(emu, tmp_path, backend="postgresql")
    env = {
        "TAMALOU_DB": await h.database(),
        "TAMALOU_GUILD_ID": "",
        "TAMALOU_REORDER_MS": "20",
        "TAMALOU_EDIT_INTERVAL_MS": "0",
        "TAMALOU_AI_DELAY_MS": "50",
        "TAMALOU_TEST_CLOCK_FILE": str(h.clock_file),
        "TAMALOU_CARD_EMOJIS": "0",
        "TAMALOU_THREADS": "0",
        "TAMALOU_SHARD_COUNT": str(SHARD_COUNT),
        "TAMALOU_DISCORD_BUDGET": str(BUDGET_PER_S),
    }
    shards = {(emu.channel(c).guild_id or 0) >> 22 for c in ("general", "second")}
    assert {g % SHARD_COUNT for g in shards} == {0, 1}
    await asyncio.gather(
        *(
            emu.start_bot(
                "tests.support.e2e_bot", env={**env, "TAMALOU_SHARDS": str(shard)}, alongside=True
            )
            for shard in range(SHARD_COUNT)
        )
    )
    # each process is ready when its own shard is: the other's may still be identifying
    # (its IDENTIFY waits on the global limit, lowered here)
    await emu.wait_for(lambda: len(emu.sessions) == SHARD_COUNT, 30, "a gateway session a shard")
    pairs = (["alice", "bob"], ["carol", "dave"], ["alice", "erin"], ["bob", "carol"])
    await asyncio.gather(*(open_table(emu, h, c, p) for c, p in zip(CHANNELS, pairs, strict=True)))
    for channel in CHANNELS:  # every table shows its game: nothing was lost on the way
        await emu.wait_for(
            lambda c=channel: "peek" in h.table_message(c).text.lower(), 20, f"{channel}'s table"
        )

    limiter = emu.rate_limiter
    # more than two seconds' allowance: the start-up alone would cross the limit unpaced
    # (table edits ride the clicks' tokens now, so the tables add few requests of their own)
    assert len(limiter.global_bound) > 2 * GLOBAL_PER_S
    assert [r for r in emu.requests if r.status == 429] == []
    assert limiter.refused == []
    assert limiter.peak_global() <= GLOBAL_PER_S
    await emu.kill_bots()
