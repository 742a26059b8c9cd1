"""A panel's groups through the real bot (issue 21, the panel grid): ``repg``, the group of
slots a long row replaces from (R-T3), is a panel step the platform checks like any verb.

No preset deals a row past 24 cards through play (R-D6 blocks doubles after five misses a
round, one card each), so the groups themselves are tested on forced deals
(``tests/bot/test_tamalou_panel.py``). Here the verb goes through the emulator and the bot:
pressed on the member's panel as an older version of it carried it, a group the row does
not have (the row fits now) is read as no group and the panel is updated in place, every slot's replacement offered, nothing played;
pressed on the public table message it is refused, as every panel verb is.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from emulator import Emulator
from tamalou.games.tamalou.state import Game
from tests.support.bot_harness import BotHarness, find_seed, forged_click, open_table, peek_all

pytestmark = [pytest.mark.e2e, pytest.mark.one_backend]

PLAYERS = ["alice", "bob"]


async def test_repg_from_the_panel_shows_the_slots_in_place_and_is_refused_on_the_table(
    emulator: Emulator, tmp_path: Path
) -> None:
    h = BotHarness(emulator, tmp_path)
    emu = h.emu

    def alice_first(g: Game) -> bool:
        return g.round.first_player == 0

    await h.start(seeds=[find_seed(2, alice_first)])
    await open_table(h, PLAYERS)
    await peek_all(h, PLAYERS)
    tid = int(h.sql("SELECT id FROM tables ORDER BY id DESC LIMIT 1")[0]["id"])
    rnd = h.game().round.round_no
    await emu.wait_for(lambda: h.game().round.phase == "play", 10, "the play")
    draw = f"tamalou:draw:{tid}:{rnd}"
    inter = await emu.click("alice", h.table_message(), custom_id=draw)
    assert await emu.handled(inter) == []
    await emu.wait_for(lambda: h.game().round.stage == "holding", 10, "alice's draw")
    panel = h.panel("alice")
    replaces = [f"tamalou:rep:{tid}:{rnd}.{slot}" for slot in range(1, 5)]
    before = json.dumps(panel.components)
    assert all(r in before for r in replaces)
    moves = len(h.sql("SELECT n FROM actions"))
    # the panel as drawn when the row was longer: a group of slots it no longer has
    inter = await forged_click(h, "alice", f"tamalou:repg:{tid}:{rnd}.3", on=panel)
    assert await emu.handled(inter) == []
    after = h.panel("alice")
    assert after.id == panel.id  # updated in place: a panel step
    assert all(r in json.dumps(after.components) for r in replaces)  # no group: every slot
    assert len(h.sql("SELECT n FROM actions")) == moves  # nothing played
    await forged_click(h, "alice", f"tamalou:repg:{tid}:{rnd}", on=h.table_message())
    assert "This button is not valid" in emu.last_ephemeral("alice").content
    assert len(h.sql("SELECT n FROM actions")) == moves
    assert emu.take_problems() == []
