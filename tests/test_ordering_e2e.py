"""Moves nobody can race are answered at once; races still wait the reorder window.

On the default settings (a 250 ms reorder window), through the real bot: a move of the seat
to act that no other seat could race (the game's ``contested``) is answered well inside the
window, in the emulator's time from the click's delivery to the bot's callback; a move a
double or a call could race is answered after it (R-D4, K-CL3). The races themselves are
tested on their own (``test_bot_e2e.py::test_r_d4_earlier_press_wins_even_when_it_arrives_later``,
the Kalooki match's reversed calls).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.config import Config
from emulator import Emulator, Interaction
from tamalou.core import cards
from tamalou.games.kalooki import engine as kalooki
from tamalou.games.kalooki.codec import action_from_dict as kalooki_action
from tamalou.games.kalooki.rules import KALOOKI
from tamalou.games.kalooki.rules import Rules as KalookiRules
from tamalou.games.kalooki.state import Game as KalookiGame
from tamalou.games.tarot import actions as TA
from tamalou.games.tarot.engine import legal_actions as tarot_legal
from tamalou.games.tarot.rules import TAROT
from tamalou.games.tarot.state import Game as TarotGame
from tests.bot.tarot.harness import TarotHarness, find_seed, open_table, play_until
from tests.support.bot_harness import BotHarness, peek_all
from tests.support.bot_harness import find_seed as tamalou_seed
from tests.support.bot_harness import open_table as open_tamalou
from tests.support.shared_bot import SharedBot

pytestmark = [pytest.mark.e2e, pytest.mark.one_backend, pytest.mark.asyncio(loop_scope="module")]

#: a four-seat tarot deal: alice (seat 0) takes a Garde, bob plays, two AI players
FOUR = {"rules": TAROT, "players": 4, "ai": {2: "medium", 3: "medium"}, "bids": {0: 2}}

#: the setting as shipped (``TAMALOU_REORDER_MS``)
DEFAULT_REORDER_MS: int = Config.model_fields["reorder_ms"].default


@pytest_asyncio.fixture(loop_scope="module")
async def harness(shared_bot: SharedBot) -> AsyncIterator[BotHarness]:
    """A guild of its own on the bot the module's tests share."""
    async with shared_bot.scene() as h:
        yield h


@pytest_asyncio.fixture(loop_scope="module")
async def tarot(shared_bot: SharedBot) -> AsyncIterator[TarotHarness]:
    async with shared_bot.scene(TarotHarness) as h:
        yield h


def answer_ms(emu: Emulator, inter: Interaction) -> int:
    """From the click's delivery to the bot's callback, in the emulator's time."""
    assert inter.callback_request_id is not None, "the click was never answered"
    # request ids run on over the requests a shared emulator forgot (the tests before)
    rec = emu.requests[inter.callback_request_id - 1 - emu.requests_forgotten]
    return rec.at_ms - inter.delivered_ms


def at_once(waits: list[int]) -> bool:
    """Answered without the window: half of them within half the window (each one waited
    the whole window before moves nobody can race skipped it; the other half may meet a
    busy machine)."""
    return statistics.median(waits) < DEFAULT_REORDER_MS / 2


async def test_r_d1_the_first_turn_with_nothing_to_double_is_answered_at_once(
    harness: BotHarness,
) -> None:
    """R-D1: before the first discard nobody may double: the first player's draw and throw
    are answered at once; the next player's draw, which a double of the thrown card could
    race (R-D4), after the reorder window."""
    h, emu = harness, harness.emu
    seed = tamalou_seed(
        2,
        lambda g: g.round.first_player == 0 and cards.rank(g.round.pile[-1]) not in "JQK",
    )
    await h.start(seeds=[seed], reorder_ms=DEFAULT_REORDER_MS)
    await open_tamalou(h, ["alice", "bob"])
    await peek_all(h, ["alice", "bob"])
    draw = await emu.click("alice", h.table_message(), "Draw")
    throw = await emu.click("alice", h.panel("alice"), "Throw it")
    assert h.game().round.current == 1 and h.game().round.discard
    waits = [answer_ms(emu, draw), answer_ms(emu, throw)]
    assert at_once(waits), waits
    raced = await emu.click("bob", h.table_message(), "Draw")
    assert answer_ms(emu, raced) >= DEFAULT_REORDER_MS
    assert h.game().round.held is not None
    emu.check()


async def test_k_t1_the_discard_after_the_draw_is_answered_at_once(harness: BotHarness) -> None:
    """K-K2: the draw races the calls on the live up-card: it is answered after the reorder
    window. K-T1, K-CL2: once drawn, nobody else may act, and a call pressed before the
    discard is refused by its stamp: the discard is answered at once."""
    h, emu = harness, harness.emu
    humans = ["alice", "bob", "carol"]
    await h.start(seeds=["order:kalooki"], reorder_ms=DEFAULT_REORDER_MS)
    await emu.slash("alice", "kalooki new")
    for p in humans[1:]:
        await emu.click(p, emu.channel_messages()[-1], "Join")
    await emu.click("alice", emu.channel_messages()[-1], "Start")
    tid = h.table_id()
    waits: list[int] = []
    for _ in range(2):  # two turns: the first player's, then the next one's
        current = kalooki_game(h).round.current
        user = humans[current]
        h.advance(KALOOKI.call_window_s * 1000 + 500)  # K-K2: the draw opens after the window
        table = next(
            m for m in reversed(emu.channel_messages()) if f"kalooki:draw:{tid}:" in _ids(m)
        )
        await emu.wait_for(
            lambda t=table: not t.button(custom_id=f"kalooki:draw:{tid}:1").disabled, 10, "Draw"
        )
        drew = await emu.click(user, table, custom_id=f"kalooki:draw:{tid}:1")
        assert await emu.handled(drew) == []
        assert answer_ms(emu, drew) >= DEFAULT_REORDER_MS  # a call could race it
        hand = kalooki_game(h).round.seats[current].hand
        card = next(c for c in hand if c % kalooki.DECK < 52)  # not a joker (K-T4)
        panel = next(m for m in reversed(emu.ephemerals(user)) if f":pick:{tid}:1.1" in _ids(m))
        select = next(s for s in panel.selects() if f":pick:{tid}:1.1" in s.custom_id)
        discarded = await emu.select(user, panel, select.custom_id, [str(card)])
        assert await emu.handled(discarded) == []
        assert kalooki_game(h).round.current != current
        waits.append(answer_ms(emu, discarded))
    assert at_once(waits), waits
    emu.check()


async def test_t_p1_the_card_of_the_player_to_play_is_answered_at_once(
    tarot: TarotHarness,
) -> None:
    """T-P1: the cards go in turn and nothing races them: each card a human plays is
    answered at once, not after the reorder window."""
    h = tarot
    emu = h.emu
    humans = {0: "alice", 1: "bob"}
    seed = find_seed(lambda g: g.deal.taker == 0 and g.deal.contract == 2, **FOUR)
    await h.start(seeds=[seed], reorder_ms=DEFAULT_REORDER_MS)
    await open_table(h, ["alice", "bob"], ai=2)
    waits: list[int] = []

    def humans_card(g: TarotGame) -> bool:
        return g.deal.phase == "play" and g.deal.current in humans

    while len(waits) < 4:
        game = await play_until(h, humans, humans_card, bids={0: 2})
        if game.deal.phase == "over":
            break
        seat = game.deal.current
        user = humans[seat]
        card = next(a for a in tarot_legal(game, seat) if isinstance(a, TA.Play)).card
        panel = await h.open_panel(user)
        cid = f"tarot:play:{h.table_id()}:{game.deal.deal_no}.{card}"
        if cid in json.dumps(panel.components):
            inter = await emu.click(user, panel, custom_id=cid)
        else:
            select = next(
                s for s in panel.selects() if str(card) in [o["value"] for o in s.options]
            )
            inter = await emu.select(user, panel, select.custom_id, [str(card)])
        assert await emu.handled(inter) == []
        waits.append(answer_ms(emu, inter))
    assert len(waits) >= 2, waits
    assert at_once(waits), waits
    emu.check()


def kalooki_game(h: BotHarness) -> KalookiGame:
    """The match as the bot's log says."""
    m = h.newest_match()[0]
    rules = KalookiRules.model_validate_json(m["rules"])
    game, _ = kalooki.new_game(rules, len(json.loads(m["seats"])), m["seed"], m["started_at"])
    for payload in h.actions_of(m["id"]):
        kalooki.apply(game, kalooki_action(payload))
    return game


def _ids(msg: object) -> str:
    return json.dumps(getattr(msg, "components", []))


async def test_the_launcher_is_told_the_reorder_window_a_click_waited_by_the_rules(
    own_emulator: Emulator, tmp_path: Path
) -> None:
    """The open loop's "added" latency (tools/bench_bot.py): the first answer in the bot's
    process less the reorder window the rules made it wait. A move nobody can race waited
    none; the draw a double could race (R-D4) waited the window, less what its arrival
    took, and is told so. (An emulator of its own: the test spies on its bot events, with
    other settings.)"""
    emulator = own_emulator
    seen: list[dict[str, object]] = []
    original = emulator._on_bot_event

    def spy(ev: dict[str, object]) -> None:
        seen.append(ev)
        original(ev)

    emulator._on_bot_event = spy  # type: ignore[method-assign]
    h, emu = BotHarness(emulator, tmp_path), emulator
    seed = tamalou_seed(
        2,
        lambda g: g.round.first_player == 0 and cards.rank(g.round.pile[-1]) not in "JQK",
    )
    await h.start(seeds=[seed], reorder_ms=DEFAULT_REORDER_MS, EMU_ANSWER_TIMES="1")
    await open_tamalou(h, ["alice", "bob"])
    await peek_all(h, ["alice", "bob"])
    draw = await emu.click("alice", h.table_message(), "Draw")
    await emu.click("alice", h.panel("alice"), "Throw it")
    raced = await emu.click("bob", h.table_message(), "Draw")

    def told(inter: Interaction) -> float | None:
        for e in seen:
            if e.get("kind") == "answered" and e.get("interaction_id") == inter.id:
                rules_ms = e["rules_ms"]
                assert isinstance(rules_ms, float)
                return rules_ms
        return None

    await emu.wait_for(lambda: told(raced) is not None, 10, "the raced draw's report")
    assert told(draw) == 0.0
    rules_ms = told(raced)
    assert rules_ms is not None and 0 < rules_ms <= DEFAULT_REORDER_MS
    emu.check()
