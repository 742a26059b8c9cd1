"""Two bot processes, a shard each, over one PostgreSQL (issue 15, DESIGN "Scale").

The emulator speaks sharded gateways: each process IDENTIFYs with its shard, and each
guild's events reach only the process of shard ``(guild_id >> 22) % shard_count``. A game
is played in a guild of each; one process is SIGKILLed mid-turn: the other's table goes on
untouched while it is down, its own tables resume when it restarts, and no action is lost
or applied twice (every action's number is taken once, the log replays to what was shown).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from emulator import BotProcess, Emulator, GuildSpec, Message
from tamalou.core import cards
from tests.support.bot_harness import BotHarness, find_seed, label

pytestmark = pytest.mark.e2e

SHARD_COUNT = 2
FIRST, SECOND = "general", "second"  # a channel of the first guild, of the second guild


def seed_without_a_power_on_top() -> str:
    return find_seed(
        2,
        lambda g: g.round.first_player == 0 and cards.rank(g.round.pile[-1]) not in ("J", "Q", "K"),
    )


class Shards:
    """Two bot processes on one emulator and one database, a shard range each."""

    def __init__(self, emu: Emulator, h: BotHarness) -> None:
        self.emu, self.h = emu, h
        self.processes: dict[str, BotProcess] = {}
        self.env: dict[str, dict[str, str]] = {}

    def shard_of(self, channel: str) -> int:
        guild_id = self.emu.channel(channel).guild_id
        assert guild_id is not None
        return (guild_id >> 22) % SHARD_COUNT

    async def start(self, channel: str, seed: str) -> None:
        """The process that owns ``channel``'s guild (commands synced globally)."""
        self.env[channel] = {
            **self.h.env,
            "TAMALOU_GUILD_ID": "",
            "TAMALOU_SHARDS": str(self.shard_of(channel)),
            "TAMALOU_SHARD_COUNT": str(SHARD_COUNT),
            "TAMALOU_TEST_SEEDS": seed,
        }
        await self.restart(channel)

    async def restart(self, channel: str) -> None:
        self.processes[channel] = await self.emu.start_bot(
            "tests.support.e2e_bot", env=self.env[channel], alongside=True
        )

    async def kill(self, channel: str) -> None:
        await self.emu.kill_bot(self.processes[channel])

    def table(self, channel: str) -> Message:
        return self.h.table_message(channel)

    def table_id(self, channel: str) -> int:
        rows = self.h.sql(
            "SELECT id FROM tables WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            self.emu.channel(channel).id,
        )
        return int(rows[0]["id"])

    def log(self, channel: str) -> list[tuple[int, int | None, str]]:
        """The match's action log: (number, who asked, what)."""
        rows = self.h.sql(
            "SELECT a.n, a.user_id, a.payload FROM actions a "
            "JOIN matches m ON m.id = a.match_id WHERE m.table_id = ? ORDER BY a.n",
            self.table_id(channel),
        )
        return [(r["n"], r["user_id"], json.loads(r["payload"])["kind"]) for r in rows]

    def human_moves(self, channel: str) -> list[tuple[int | None, str]]:
        return [(uid, kind) for _, uid, kind in self.log(channel) if uid is not None]


async def play_until_first_turn(s: Shards, channel: str, players: list[str]) -> None:
    emu = s.emu
    await emu.slash(players[0], "tamalou new", channel=channel)
    await emu.click(players[1], s.table(channel), "Join")
    await emu.click(players[0], s.table(channel), "Start")
    for p in players:
        await emu.click(p, s.table(channel), "My cards")


async def wait_text(s: Shards, channel: str, wanted: Callable[[str], bool], what: str) -> None:
    await s.emu.wait_for(lambda: wanted(s.table(channel).text), 10, what)


def edits_of(emu: Emulator, message: Message) -> int:
    return sum(1 for e in emu.history() if e.message_id == message.id and e.action == "edit")


async def test_two_processes_a_shard_each_and_one_killed_loses_nothing(
    emulator_factory: Callable[..., Any], tmp_path: Path
) -> None:
    emu: Emulator = await emulator_factory(
        shard_count=SHARD_COUNT, extra_guilds=[GuildSpec("Second Guild", (SECOND,))]
    )
    h = BotHarness(emu, tmp_path, backend="postgresql")
    s = Shards(emu, h)
    assert {s.shard_of(FIRST), s.shard_of(SECOND)} == {0, 1}  # a guild on each shard
    h.env = {
        "TAMALOU_DB": await h.database(),
        "TAMALOU_REORDER_MS": "20",
        "TAMALOU_EDIT_INTERVAL_MS": "0",
        "TAMALOU_AI_DELAY_MS": "50",
        "TAMALOU_TEST_CLOCK_FILE": str(h.clock_file),
        "TAMALOU_LOG_LEVEL": "INFO",
        # text cards: the emoji upload's redraw would be an edit of the other table
        "TAMALOU_CARD_EMOJIS": "0",
    }
    seed = seed_without_a_power_on_top()
    await s.start(FIRST, seed)
    await s.start(SECOND, seed)
    # each guild's events reach the process of its shard only
    sessions = {shard: session.generation for shard, session in emu.sessions.items()}
    assert sessions == {
        s.shard_of(FIRST): s.processes[FIRST].generation,
        s.shard_of(SECOND): s.processes[SECOND].generation,
    }

    alice, bob, erin, dave = (emu.member(n).id for n in ("alice", "bob", "erin", "dave"))
    await play_until_first_turn(s, FIRST, ["alice", "bob"])
    await play_until_first_turn(s, SECOND, ["erin", "dave"])
    h.advance(5_100)  # the peek phase ends at both tables, each timed by its own process
    for channel in (FIRST, SECOND):
        await wait_text(s, channel, lambda text: "to play" in text, f"the first turn in {channel}")

    # the first guild: alice holds a drawn card when her process is killed
    drawn = h.game(s.table_id(FIRST)).round.pile[-1]
    await emu.click("alice", s.table(FIRST), "Draw")
    await s.kill(FIRST)

    # the second guild plays on meanwhile, on the other process
    await emu.click("erin", s.table(SECOND), "Draw")
    await emu.click("erin", emu.last_ephemeral("erin"), "Throw it")
    await wait_text(s, SECOND, lambda text: "dave" in text and "to play" in text, "dave's turn")
    second_before = s.log(SECOND)
    second_message = s.table(SECOND)
    second_edits = edits_of(emu, second_message)

    await s.restart(FIRST)  # SIGKILLed process back: its table resumes from the log
    await emu.slash("alice", "tamalou hand", channel=FIRST)
    panel = emu.last_ephemeral("alice")
    assert f"You drew **{label(drawn)}**" in panel.content
    await emu.click("alice", panel, "Throw it")
    await wait_text(s, FIRST, lambda text: label(drawn) in text, "alice's discard shown")
    assert h.game(s.table_id(FIRST)).round.current == 1

    # the restart touched nothing of the other process's table
    assert s.log(SECOND) == second_before
    assert edits_of(emu, second_message) == second_edits
    await emu.click("dave", s.table(SECOND), "Draw")
    await emu.click("dave", emu.last_ephemeral("dave"), "Throw it")
    assert h.game(s.table_id(SECOND)).round.current == 0

    # every action once, in order: numbers 0..n-1, each accepted click exactly once
    for channel in (FIRST, SECOND):
        numbers = [n for n, _, _ in s.log(channel)]
        assert numbers == list(range(len(numbers)))
    first_moves = s.human_moves(FIRST)
    second_moves = s.human_moves(SECOND)
    assert [m for m in first_moves if m[1] != "peek"] == [(alice, "draw"), (alice, "throw")]
    assert sorted(m for m in first_moves if m[1] == "peek") == sorted(
        [(alice, "peek"), (bob, "peek")]
    )
    assert [m for m in second_moves if m[1] != "peek"] == [
        (erin, "draw"),
        (erin, "throw"),
        (dave, "draw"),
        (dave, "throw"),
    ]
    assert sorted(m for m in second_moves if m[1] == "peek") == sorted(
        [(erin, "peek"), (dave, "peek")]
    )
    await emu.kill_bots()
