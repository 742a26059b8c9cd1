"""End to end: the real bot process and discord.py against the Discord emulator.

Each test drives simulated members through slash commands and clicks, and checks what each
member sees (public messages, their own ephemerals). Deals are scripted by choosing the
match seed (tests/e2e_bot.py); the oracle rebuilds the game from the bot's own log.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from tamalou.core import cards
from tamalou.games.tamalou.state import Game
from tests.support.bot_harness import BotHarness, find_seed, label, open_table, peek_all
from tests.support.shared_bot import SharedBot

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


@pytest_asyncio.fixture(loop_scope="module")
async def harness(shared_bot: SharedBot) -> AsyncIterator[BotHarness]:
    """A guild of its own on the bot the module's tests share."""
    async with shared_bot.scene() as h:
        yield h


async def test_lobby_join_start_and_refusals(harness: BotHarness) -> None:
    """A table opens, players join by button and command, only the host starts it."""
    h, emu = harness, harness.emu
    await h.start()
    inter = await emu.slash("alice", "tamalou new")
    assert f"Table {h.table_id()} is open" in emu.last_ephemeral("alice").content
    assert inter.response_data is not None
    lobby = h.table_message()
    assert "alice" in lobby.text and "waiting for players" in lobby.text
    await emu.click("bob", lobby, "Join")
    await emu.slash("carol", "tamalou join")
    assert "carol" in h.table_message().text
    await emu.slash("bob", "tamalou join")
    assert "déjà à cette table" in emu.last_ephemeral("bob").content  # bob reads French
    await emu.slash("alice", "tamalou new")
    assert "already has a live table" in emu.last_ephemeral("alice").content
    await emu.click("dave", h.table_message(), "Start")
    assert "Only the host" in emu.last_ephemeral("dave").content
    await emu.click("carol", h.table_message(), "Leave")
    assert "carol" not in h.table_message().text
    await emu.click("alice", h.table_message(), "Start")
    table = h.table_message()
    assert "round 1" in table.text and "Peek phase" in table.text
    await emu.click("dave", table, "My cards")
    assert "not at this table" in emu.last_ephemeral("dave").content
    await emu.slash("dave", "tamalou join")
    assert "already started" in emu.last_ephemeral("dave").content
    await emu.slash("erin", "tamalou hand", channel="tables")
    assert "no Tamalou table in this channel" in emu.last_ephemeral("erin").content


async def test_r_s2_peek_is_private_and_hidden_after_5_seconds(harness: BotHarness) -> None:
    """R-S2, R-S5: each player sees only their own cards 1 and 4, for 5 s, privately."""
    h, emu = harness, harness.emu
    await h.start()
    await open_table(h, ["alice", "bob"])
    await emu.click("alice", h.table_message(), "My cards")
    game = h.game()
    row = game.round.seats[0].row
    panel = emu.last_ephemeral("alice")
    assert label(row[0]) in panel.content and label(row[3]) in panel.content
    assert label(row[1]) not in panel.content and label(row[2]) not in panel.content
    for secret in (row[0], row[3]):
        assert emu.leaks(label(secret), owner="alice") == []
    h.advance(5_100)
    await emu.wait_for(
        lambda: label(row[0]) not in emu.last_ephemeral("alice").content,
        10,
        "the peek to be hidden",
    )
    await emu.click("alice", h.table_message(), "My cards")
    assert label(row[0]) not in emu.last_ephemeral("alice").content


async def test_r_t3_draw_then_replace_through_the_private_panel(harness: BotHarness) -> None:
    """R-T2, R-T3, R-T4: the drawn card reaches only the drawer; replacing discards the old card."""
    h, emu = harness, harness.emu
    seed = find_seed(
        2,
        lambda g: (
            g.round.first_player == 0
            and cards.rank(g.round.pile[-1]) not in ("J", "Q", "K")
            and cards.rank(g.round.seats[0].row[1] or 0) not in ("J", "Q", "K")
        ),
    )
    await h.start(seeds=[seed])
    await open_table(h, ["alice", "bob"])
    await peek_all(h, ["alice", "bob"])
    game = h.game()
    drawn = game.round.pile[-1]
    old = game.round.seats[0].row[1]
    await emu.click("bob", h.table_message(), "Draw")
    assert "pas votre tour" in emu.last_ephemeral("bob").content
    await emu.click("alice", h.table_message(), "Draw")
    panel = emu.last_ephemeral("alice")
    assert f"You drew **{label(drawn)}**" in panel.content
    assert emu.leaks(label(drawn), owner="alice") == []
    await emu.click("alice", panel, "Replace 2")
    table = h.table_message()
    assert label(old) in table.text  # the replaced card is face up on the discard
    assert emu.leaks(label(drawn), owner="alice") == []  # the kept card stays secret
    assert h.game().round.seats[0].row[1] == drawn
    assert "**bob** to play" in table.text


@pytest.mark.one_backend
async def test_r_d4_earlier_press_wins_even_when_it_arrives_later(harness: BotHarness) -> None:
    """R-D4: two doubles on one card, delivered out of order: the earlier press wins."""
    h, emu = harness, harness.emu

    def wanted(g: Game) -> bool:
        top = cards.rank(g.round.pile[-1])
        rows = [g.round.seats[s].row for s in (1, 2)]
        return (
            g.round.first_player == 0
            and top not in ("J", "Q", "K")
            and all(any(cards.rank(c or 0) == top for c in row) for row in rows)
        )

    seed = find_seed(3, wanted)
    await h.start(seeds=[seed], reorder_ms=400)
    await open_table(h, ["alice", "bob", "carol"])
    await peek_all(h, ["alice", "bob", "carol"])
    game = h.game()
    rank = cards.rank(game.round.pile[-1])
    bob_slot = 1 + next(
        i for i, c in enumerate(game.round.seats[1].row) if cards.rank(c or 0) == rank
    )
    carol_slot = 1 + next(
        i for i, c in enumerate(game.round.seats[2].row) if cards.rank(c or 0) == rank
    )
    await emu.click("alice", h.table_message(), "Draw")
    await emu.click("alice", h.panel("alice"), "Throw it")
    table = h.table_message()
    now = emu.clock.now_ms()
    late = await emu.click("carol", table, f"Double {carol_slot}", at=now + 200, wait=False)
    early = await emu.click("bob", table, f"Double {bob_slot}", at=now + 100, wait=False)
    await emu.handled(late)
    await emu.handled(early)
    game = h.game()
    assert game.round.seats[1].row[bob_slot - 1] is None  # bob's card left: his double won
    assert game.round.seats[2].row[carol_slot - 1] is not None
    assert len(game.round.seats[2].row) == 5  # carol drew a penalty card (R-D5)
    assert "Trop tard" in emu.last_ephemeral("carol").content
    assert "Double !" in emu.last_ephemeral("bob").content
    assert "bob doubled" in h.table_message().text


async def test_restart_mid_turn_loses_nothing(harness: BotHarness) -> None:
    """SIGKILL while a player holds a drawn card: a new process rebuilds the table from the log."""
    h, emu = harness, harness.emu
    seed = find_seed(
        2,
        lambda g: g.round.first_player == 0 and cards.rank(g.round.pile[-1]) not in ("J", "Q", "K"),
    )
    await h.start(seeds=[seed])
    await open_table(h, ["alice", "bob"])
    await peek_all(h, ["alice", "bob"])
    drawn = h.game().round.pile[-1]
    await emu.click("alice", h.table_message(), "Draw")
    await h.restart()
    await emu.slash("alice", "tamalou hand")
    panel = emu.last_ephemeral("alice")
    assert f"You drew **{label(drawn)}**" in panel.content
    await emu.click("alice", panel, "Throw it")
    assert label(drawn) in h.table_message().text
    assert h.game().round.current == 1
    h.advance(45_100)  # the timers run on after the restart
    await emu.wait_for(lambda: "bob ran out of time" in h.table_message().text, 10, "a timeout")


@pytest.mark.one_backend
async def test_ai_seat_plays_its_turns_and_an_ai_only_table_is_refused(harness: BotHarness) -> None:
    """AI seats (issue: AI players) peek, draw and discard by themselves at a human pace."""
    h, emu = harness, harness.emu
    seed = find_seed(2, lambda g: g.round.first_player == 1)
    await h.start(seeds=[seed])
    await emu.slash("alice", "tamalou new")
    await emu.slash("alice", "tamalou addbot", level="medium")
    assert "AI 1 (medium)" in h.table_message().text
    await emu.slash("bob", "tamalou addbot", level="easy")
    assert "Seul l'hôte" in emu.last_ephemeral("bob").content
    await emu.click("alice", h.table_message(), "Start")
    await emu.click("alice", h.table_message(), "My cards")
    await emu.wait_for(lambda: h.game().round.seats[1].peek_until is not None, 10, "the AI peek")
    h.advance(5_100)
    await emu.wait_for(lambda: h.game().round.current == 0, 15, "the AI to play its turn")
    kinds = [a.kind for a in h.actions() if a.player == 1]
    assert kinds[0] == "peek"
    assert {"draw", "take_discard", "call"} & set(kinds)
    assert "AI 1 (medium)" in h.table_message().text


async def test_ai_only_lobby_closes_when_the_last_human_leaves(harness: BotHarness) -> None:
    """A table needs a human: the host leaving a lobby of AI seats closes it."""
    h, emu = harness, harness.emu
    await h.start()
    await emu.slash("alice", "tamalou new")
    await emu.click("alice", h.table_message(), "Add AI")
    await emu.click("alice", h.table_message(), "Leave")
    assert "Everybody left the table" in emu.channel_messages()[-1].text
    await emu.slash("alice", "tamalou join")
    assert "no Tamalou table" in emu.last_ephemeral("alice").content


async def test_table_edits_are_coalesced_and_the_latest_state_wins(harness: BotHarness) -> None:
    """DESIGN: no more than about one edit a second per table message; the last state shows."""
    h, emu = harness, harness.emu
    seed = find_seed(
        2,
        lambda g: g.round.first_player == 0 and cards.rank(g.round.pile[-1]) not in ("J", "Q", "K"),
    )
    await h.start(seeds=[seed], TAMALOU_EDIT_INTERVAL_MS="1000")
    await open_table(h, ["alice", "bob"])
    await peek_all(h, ["alice", "bob"])
    table = h.table_message()
    drawn = h.game().round.pile[-1]
    loop = asyncio.get_running_loop()

    def at_most() -> int:  # edits a second apart since the first move (one, then one a second)
        return 1 + int(loop.time() - start)

    before = len(emu.requests_to("PATCH", f"/messages/{table.id}"))
    start = loop.time()
    await emu.click("alice", table, "Draw")
    await emu.click("alice", h.panel("alice"), "Throw it")
    await emu.click("bob", h.table_message(), "Draw")
    edits_now = len(emu.requests_to("PATCH", f"/messages/{table.id}")) - before
    assert edits_now <= at_most()  # three moves within a second here: one edit so far
    await emu.wait_for(
        lambda: "bob drew from the pile" in h.table_message().text, 5, "the coalesced edit"
    )
    assert label(drawn) in h.table_message().text  # the latest state, alice's throw included
    assert len(emu.requests_to("PATCH", f"/messages/{table.id}")) - before <= at_most()


async def test_r_m3_a_whole_match_to_100_points(harness: BotHarness) -> None:
    """R-M1..R-M4, R-K4: lobby to the end of a match to 100, round after round.

    alice stops playing: her turns run out (R-K2) until she is away (R-K4), so every round
    ends with no caller and everyone scores their total (R-M2) until someone passes 100.
    """
    h, emu = harness, harness.emu
    seed = find_seed(2, lambda g: g.round.first_player == 0)
    await h.start(seeds=[seed])
    await open_table(h, ["alice", "bob"])
    await peek_all(h, ["alice", "bob"])
    for round_no in range(1, 16):
        if round_no > 1:
            await emu.click("bob", h.table_message(), "Next round")
            await emu.wait_for(
                lambda r=round_no: f"round {r}" in h.table_message().text, 10, "the next round"
            )
            h.advance(30_100)  # R-S5: nobody peeks, play starts after 30 s
            await emu.wait_for(lambda: "to play" in h.table_message().text, 10, "play")
        while (game := h.game()).round.phase != "over":
            if game.round.current == 1 and game.round.stage == "power":
                await emu.click("bob", h.panel("bob"), "Passer")  # a J/Q/K thrown
            elif game.round.current == 1:
                await emu.click("bob", h.table_message(), "Draw")
                await emu.click("bob", h.panel("bob"), "Jeter")
            else:
                logged = len(h.actions())
                h.advance(45_100)  # alice's turn runs out
                await emu.wait_for(lambda n=logged: len(h.actions()) > n, 10, "the clock")
        await emu.wait_for(
            lambda r=round_no: (
                f"round {r} is over" in h.table_message().text
                or "match is over" in h.table_message().text
            ),
            10,
            "the round's end",
        )
        if h.game().over:
            break
    game = h.game()
    assert game.over and len(game.history) >= 2
    assert (
        max(game.cumulative)
        > 100
        >= max(sum(r.scores[s] for r in game.history[:-1]) for s in range(2))
    )
    for result in game.history:
        assert result.caller is None and result.scores == result.totals  # R-M2, no caller
        assert result.reason == "away"
    winner = min(range(2), key=lambda s: game.cumulative[s])
    assert game.winners == [winner]
    over = h.table_message().text
    assert "match is over" in over and "Rematch" in str(h.table_message().components)
    # the score sheet: every round's score per player, the winner's column first
    names = ["alice", "bob"]
    order = [winner, 1 - winner]
    rows = [line.split() for line in over.split("Score sheet", 1)[1].splitlines()]
    assert ["Round", *(names[s] for s in order)] in rows
    for result in game.history:
        assert [str(result.round_no), *(f"{result.scores[s]:g}" for s in order)] in rows
    assert ["Total", *(f"{game.cumulative[s]:g}" for s in order)] in rows


@pytest.mark.one_backend
async def test_a_hard_ai_searches_off_the_event_loop_and_plays(harness: BotHarness) -> None:
    """The hard AI's search runs in a thread: its turns happen and the bot stays responsive."""
    h, emu = harness, harness.emu
    seed = find_seed(2, lambda g: g.round.first_player == 1)
    await h.start(seeds=[seed])
    await emu.slash("alice", "tamalou new")
    await emu.slash("alice", "tamalou addbot", level="hard")
    await emu.click("alice", h.table_message(), "Start")
    await emu.click("alice", h.table_message(), "My cards")
    await emu.wait_for(lambda: h.game().round.seats[1].peek_until is not None, 10, "the AI peek")
    h.advance(5_100)
    await emu.wait_for(lambda: h.game().round.current == 0, 15, "the hard AI to play its turn")
    assert next(a.kind for a in h.actions() if a.player == 1) == "peek"
    await emu.click("alice", h.table_message(), "My cards")  # still answered at once
    assert "Your cards" in emu.last_ephemeral("alice").content
