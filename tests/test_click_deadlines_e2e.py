"""A click's deadlines run from its press (its snowflake, Discord's time), not from when the
bot starts handling it: no move is applied behind "This interaction failed", and a move
applied whose own answer fails is still shown in the member's open panel."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.i18n import t
from tamalou.core import cards
from tests.support.bot_harness import BotHarness, find_seed, open_table, peek_all
from tests.support.shared_bot import SharedBot

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

FACES = ("J", "Q", "K")


@pytest_asyncio.fixture(loop_scope="module")
async def harness(shared_bot: SharedBot) -> AsyncIterator[BotHarness]:
    """A guild of its own on the bot the module's tests share."""
    async with shared_bot.scene() as h:
        yield h


async def started(h: BotHarness) -> None:
    seed = find_seed(
        2, lambda g: g.round.first_player == 0 and cards.rank(g.round.pile[-1]) not in FACES
    )
    await h.start(seeds=[seed])
    await open_table(h, ["alice", "bob"])
    await peek_all(h, ["alice", "bob"])


@pytest.mark.one_backend
async def test_a_click_delivered_past_discords_3_s_is_not_applied(harness: BotHarness) -> None:
    """Alice's Draw reaches the bot 3.5 s after she pressed it (a late gateway delivery):
    Discord has already shown her "This interaction failed", so nothing may be applied (the
    drawn card turned up in her panel behind the red line). The bot acknowledges a click
    past its safety deadline before it acts; Discord refuses that, and the Draw is dropped,
    logged once at INFO. Her next press draws as usual."""
    h, emu = harness, harness.emu
    await started(h)
    logged = len(h.actions())
    panel = h.panel("alice")
    late = await emu.click("alice", h.table_message(), "Draw", at=emu.clock.now_ms() - 3500)
    assert late.expired and not late.responded
    assert [p.kind for p in emu.take_problems("lost_interaction")] == ["lost_interaction"]
    assert len(h.actions()) == logged  # nothing applied
    assert "You drew" not in h.panel("alice").content and h.panel("alice").id == panel.id
    log = emu.bot.log_path.read_text(errors="replace")
    lines = [line for line in log.splitlines() if "not applied" in line]
    assert len(lines) == 1 and " INFO " in lines[0], lines
    await emu.click("alice", h.table_message(), "Draw")  # pressed now: taken
    assert len(h.actions()) == logged + 1
    assert "You drew" in h.panel("alice").content


@pytest.mark.one_backend
async def test_a_move_whose_own_answer_fails_is_shown_in_the_open_panel(
    harness: BotHarness,
) -> None:
    """Alice throws the card she drew, from her panel; the click's answer cannot be given
    any more (Discord's 3 s ran out under her: a callback rate-limited past them, a clock
    the bot misread). The throw was applied and committed: her panel, edited through the
    token that last showed it, says what was played, and she is never asked to try again."""
    h, emu = harness, harness.emu
    await started(h)
    await emu.click("alice", h.table_message(), "Draw")
    panel = h.panel("alice")
    assert "You drew" in panel.content
    logged = len(h.actions())
    emu.response_deadline = 0.0  # Discord gives up on the next click at once
    await emu.click("alice", panel, "Throw it")
    emu.response_deadline = 3.0
    emu.take_problems("lost_interaction")
    assert len(h.actions()) == logged + 1  # the throw went through
    await emu.wait_for(
        lambda: "You drew" not in h.panel("alice").content, 5, "the panel to show the throw"
    )
    assert h.panel("alice").id == panel.id  # her open panel, edited in place
    assert not any(t("en", "err.unexpected") in m.content for m in emu.ephemerals("alice"))


@pytest.mark.one_backend
async def test_a_table_click_whose_acknowledgement_fails_still_shows_its_move_in_the_panel(
    harness: BotHarness,
) -> None:
    """Alice's Draw on the table message is applied, then Discord refuses the click's
    acknowledgement (its 3 s ran out under her): the drawn card was never shown. Her open
    panel shows it, edited through its own token."""
    h, emu = harness, harness.emu
    await started(h)
    panel = h.panel("alice")
    logged = len(h.actions())
    emu.response_deadline = 0.0  # Discord gives up on the next click at once
    await emu.click("alice", h.table_message(), "Draw")
    emu.response_deadline = 3.0
    emu.take_problems("lost_interaction")
    assert len(h.actions()) == logged + 1  # the draw went through
    await emu.wait_for(lambda: "You drew" in h.panel("alice").content, 5, "the drawn card")
    assert h.panel("alice").id == panel.id
