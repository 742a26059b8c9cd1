"""End to end: once no human of a match is left in play (each out or gone: away, the clock
playing for them), its AI players do not play on in the thread for nobody (a ruling,
docs/rules.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tamalou.games
from emulator import Emulator
from tests.bot.test_ai_wake_e2e import start_button
from tests.support.bot_harness import BotHarness

pytestmark = pytest.mark.e2e


@pytest.fixture
async def harness(emulator: Emulator, tmp_path: Path) -> BotHarness:
    return BotHarness(emulator, tmp_path)


def _status(h: BotHarness) -> str:
    return str(h.sql("SELECT status FROM matches ORDER BY id DESC LIMIT 1")[0]["status"])


def _logged(h: BotHarness) -> int:
    """The actions logged, any game's (counted, not decoded: ``h.actions()`` reads
    Tamalou's)."""
    return int(h.sql("SELECT COUNT(*) AS n FROM actions")[0]["n"])


async def let_the_clock_play(h: BotHarness, step_ms: int) -> None:
    """alice never acts: the clock moves a turn at a time until her match is no longer
    playing (each step waits for the bot's move: the clock's or an AI's)."""
    for _ in range(80):
        if _status(h) != "playing":
            return
        before = _logged(h)
        h.advance(step_ms)
        await h.until(
            lambda before=before: _status(h) != "playing" or _logged(h) > before,
            15,
            "the clock's or an AI's move",
        )
    raise AssertionError("the match never stopped")


def _actions_after_the_last_human_went_away(h: BotHarness) -> int:
    """The log's actions after the one that made alice (seat 0, the only human) away."""
    m = h.sql("SELECT * FROM matches ORDER BY id DESC LIMIT 1")[0]
    module = tamalou.games.load(m["game"])
    seats = json.loads(m["seats"])
    rules = module.rules_from_dict(json.loads(m["rules"]))
    ai = [s["ai_level"] is not None for s in seats]
    game, _ = module.new_game(rules, len(seats), m["seed"], m["started_at"], ai)
    rows = h.sql("SELECT payload FROM actions WHERE match_id = ? ORDER BY n", m["id"])
    for n, row in enumerate(rows):
        module.apply(game, module.action_from_dict(json.loads(row["payload"])))
        if module.away(game, 0):
            return len(rows) - n - 1
    raise AssertionError("alice was never away")


async def test_r_k4_ruling_every_human_gone_ends_the_match_with_its_standings(
    harness: BotHarness,
) -> None:
    """R-K4 and the ruling: alice, the only human, lets her turns run out twice (away):
    R-K4 ends the round, and the match ends with it, its standings and score sheet shown,
    instead of the table closing with no result ("Every human player left")."""
    h, emu = harness, harness.emu
    await h.start()
    await emu.slash("alice", "tamalou new")
    await emu.slash("alice", "tamalou addbot", level="easy")
    await emu.click("alice", h.table_message(), "Start")
    await let_the_clock_play(h, 46_000)
    assert _status(h) == "finished"
    game = h.game()
    assert game.over and len(game.history) == 1  # no round played for nobody
    assert game.history[0].reason == "away"
    end = await emu.wait_for(
        lambda: next(
            (m for m in reversed(h.public_messages()) if "the match is over" in m.text), None
        ),
        10,
        "the match's end",
    )
    assert "every human player was away: the match ends here, ranked by score" in end.text
    assert not any("Every human player left" in m.text for m in h.public_messages())


async def test_t_k4_ruling_every_human_gone_closes_a_tarot_table_at_once(
    harness: BotHarness,
) -> None:
    """T-K4 and the ruling (as Kalooki's K-K4): alice, the only human, lets her turns run
    out twice (away): the table closes at once, mid-deal, instead of the clock and the AI
    players playing the deal out for nobody first."""
    h, emu = harness, harness.emu
    await h.start(seeds=["gone1"])  # a seeded deal: the AI players and the clock alike
    await emu.slash("alice", "tarot new")
    await emu.slash("alice", "tarot addbot", level="easy")
    await emu.slash("alice", "tarot addbot", level="easy")
    await emu.click("alice", start_button(emu, "tarot"), "Start")
    await let_the_clock_play(h, 31_000)
    assert _status(h) == "cancelled"
    assert _actions_after_the_last_human_went_away(h) == 0  # nobody played on for nobody
    await emu.wait_for(
        lambda: any("Every human player left" in m.text for m in h.public_messages()),
        10,
        "the table closed",
    )


async def test_k_k4_every_human_gone_closes_a_kalooki_table_at_once(harness: BotHarness) -> None:
    """K-K4 (the rulebook: abandoned, no result), with the ruling's "at once": alice, the
    only human, lets two turns run out (away): the table closes with no move after, the AI
    players never playing on for nobody. (Kalooki already did: this guards it with the
    other games.)"""
    h, emu = harness, harness.emu
    await h.start(seeds=["gone1"])
    await emu.slash("alice", "kalooki new")
    await emu.slash("alice", "kalooki addbot", level="easy")
    await emu.click("alice", start_button(emu, "kalooki"), "Start")
    await let_the_clock_play(h, 91_000)
    assert _status(h) == "cancelled"
    assert _actions_after_the_last_human_went_away(h) == 0
    await emu.wait_for(
        lambda: any("Every human player left" in m.text for m in h.public_messages()),
        10,
        "the table closed",
    )
