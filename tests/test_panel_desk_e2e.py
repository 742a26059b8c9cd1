"""The panel desk under a stuck panel edit, Tamalou through the emulator.

While Discord answers a panel's webhook edits 502, discord.py retries the edit for seconds
(1 s, then 3 s, then 5 s). A click of the same member meanwhile ("My cards") waited for that
edit before it was even acknowledged, and expired ("This interaction failed"). It is
acknowledged by the safety deadline whatever the previous edit does, and the panel ends
showing the newest state.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from emulator import Emulator
from tests.support.bot_harness import BotHarness, open_table, peek_all

pytestmark = [pytest.mark.e2e, pytest.mark.one_backend]

PLAYERS = ["alice", "bob", "carol"]


@pytest.fixture
async def harness(emulator: Emulator, tmp_path: Path) -> BotHarness:
    return BotHarness(emulator, tmp_path)


async def test_a_click_behind_a_panel_edit_discord_answers_502_is_still_answered(
    harness: BotHarness,
) -> None:
    h, emu = harness, harness.emu
    await h.start()
    await open_table(h, PLAYERS)
    await peek_all(h, PLAYERS)
    tid = int(h.sql("SELECT id FROM tables ORDER BY id DESC LIMIT 1")[0]["id"])
    r = h.game().round
    assert r.current is not None
    user, rnd = PLAYERS[r.current], r.round_no
    panel = h.panel(user)
    # the open panel's edits fail three times: discord.py retries them for about 4 s (and 5 s
    # more after the third), the seat's panel lock held all the while
    path = f"/messages/{panel.id}"
    emu.fail_next("PATCH", path, 502, 0, "Bad Gateway", times=3)
    table = h.table_message()
    draw = await emu.click(user, table, custom_id=f"tamalou:draw:{tid}:{rnd}", wait=False)
    await emu.responded(draw)
    assert draw.responded and not draw.expired  # acknowledged, its panel edit retried
    await emu.wait_for(
        lambda: any(q.status == 502 for q in emu.requests_to("PATCH", path)), 10, "a 502"
    )
    assert h.game().round.stage == "holding"
    # "My cards" while the draw's edit of the panel is being retried
    mine = await emu.click(user, table, custom_id=f"tamalou:hand:{tid}:{rnd}", wait=False)
    await emu.responded(mine)
    assert mine.responded and not mine.expired, "the click waited for the stuck edit"
    # the panel ends on the newest state (the card drawn, to throw or keep)
    await emu.wait_for(
        lambda: f"tamalou:throw:{tid}" in json.dumps(h.panel(user).components) and not emu.faults,
        20,
        "the panel after the draw",
    )
    await emu.settle()
    assert h.panel(user).id == panel.id  # the same panel throughout
    assert f"tamalou:throw:{tid}" in json.dumps(h.panel(user).components)
    assert emu.take_problems() == []
