"""One private panel per member per round (issue 21), Tamalou through the emulator.

Three members play a whole round from the table's Draw and Tamalou! buttons and their
panels' Throw and Pass, with a restart in the middle: each member's first "My cards" posts
their panel of the round; the table's buttons then edit that panel, a panel click updates
it, and a member's turn starting edits it to offer Draw before they click anything. The
round posts each member at most three new ephemeral messages (it posted one per Draw on
the table until the open panel was reused, and one per "My cards").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from emulator import Emulator
from tamalou.games.tamalou.rules import TAMALOU
from tamalou.games.tamalou.state import Game
from tests.support.bot_harness import BotHarness, find_seed, open_table, peek_all

pytestmark = [pytest.mark.e2e, pytest.mark.one_backend]

PLAYERS = ["alice", "bob", "carol"]


@pytest.fixture
async def harness(emulator: Emulator, tmp_path: Path) -> BotHarness:
    return BotHarness(emulator, tmp_path)


def logged(h: BotHarness) -> int:
    return len(h.sql("SELECT n FROM actions"))


# Discord's limits off: with them (no 429, the moves faster than the table's channel bucket
# of 5 edits in 5 s, so its edits wait), some panel clicks make two calls through their
# token (the callback, then an @original edit) instead of one. The table edited through the
# clicks' tokens (exempt from the channel's bucket) is the fix; until then this counts the
# calls of a bot that Discord never holds back. The other tests here run on the limits.
@pytest.mark.emulator(rate_limits=False)
async def test_one_private_panel_per_member_over_a_whole_round_and_a_restart(
    harness: BotHarness,
) -> None:
    h, emu = harness, harness.emu

    def wanted(g: Game) -> bool:  # alice's Tamalou! is right (R-A2): a last turn each
        value = TAMALOU.compiled.value
        return g.round.first_player == 0 and sum(value[c] for c in g.round.seats[0].row) <= 5

    await h.start(seeds=[find_seed(3, wanted)])
    await open_table(h, PLAYERS)
    await peek_all(h, PLAYERS)  # each "My cards": the member's first panel of the round
    tid = int(h.sql("SELECT id FROM tables ORDER BY id DESC LIMIT 1")[0]["id"])
    first = {user: h.panel(user).id for user in PLAYERS}
    turns, restarted = 0, False
    calls: dict[str, list[int]] = {"panel": [], "table": []}  # REST calls a click's token made

    async def press(user: str, origin: str, custom_id: str) -> None:
        msg = h.table_message() if origin == "table" else h.panel(user)
        inter = await emu.click(user, msg, custom_id=custom_id)
        assert await emu.handled(inter) == []
        calls[origin].append(sum(inter.token in r.path for r in emu.requests))

    while (r := h.game().round).phase != "over":
        if r.phase == "final":  # R-A3: the last turns are played, a 5-second window
            h.advance(5_100)
            await emu.wait_for(lambda: h.game().round.phase == "over", 10, "the round's end")
            break
        seat = r.current
        assert seat is not None
        user, rnd, before = PLAYERS[seat], r.round_no, logged(h)
        draw = f"tamalou:draw:{tid}:{rnd}"
        if r.stage == "start" and seat == 0 and turns >= 3 and r.caller is None:
            await press(user, "table", f"tamalou:call:{tid}:{rnd}")
        elif r.stage == "start":
            # the turn's start edited the member's open panel: it offers Draw already
            await emu.wait_for(
                lambda u=user, d=draw: d in json.dumps(h.panel(u).components), 10, "a woken panel"
            )
            await press(user, "table", draw)
            turns += 1
        elif r.stage == "holding":
            await press(user, "panel", f"tamalou:throw:{tid}:{rnd}")
        elif r.stage == "power":
            await press(user, "panel", f"tamalou:pass:{tid}:{rnd}")
        else:
            raise AssertionError(f"stage {r.stage}")
        await emu.wait_for(lambda b=before: logged(h) > b, 10, f"{user}'s move")
        if turns == 4 and not restarted:  # the open panels survive a restart
            restarted = True
            await h.restart()
    assert restarted and turns >= 4 and h.game().round.caller == 0
    assert {user: h.panel(user).id for user in PLAYERS} == first  # the same panel throughout
    # answer once: each click's one callback carries its result (a table click's panel is
    # the open panel, edited through that panel's own token)
    assert set(calls["panel"]) == {1} and set(calls["table"]) == {1}, calls
    new = {user: len(emu.ephemerals(user)) for user in PLAYERS}
    assert all(n <= 3 for n in new.values()), new
    assert emu.take_problems() == []


async def test_my_cards_on_a_panel_that_shows_it_already_costs_only_its_acknowledgement(
    harness: BotHarness,
) -> None:
    """Issue 25: a table's "My cards" whose open panel already shows what it would show is
    answered by its acknowledgement alone, without an edit of the panel that would change
    nothing the member sees; the same after a restart, once the panel was drawn again."""
    h, emu = harness, harness.emu
    await h.start()
    await open_table(h, PLAYERS)
    await peek_all(h, PLAYERS)
    h.advance(2_000)  # well past the peeks' end (R-S5): the panels show nothing timed
    await emu.wait_for(lambda: not h.sql("SELECT * FROM open_panels"), 10, "the peeks hidden")
    user = "bob"

    async def my_cards() -> tuple[int, int]:
        """The click's REST calls through its token, and the edits of the open panel."""
        panel = h.panel(user).id
        before = [r.id for r in emu.requests if r.method == "PATCH" and str(panel) in r.path]
        inter = await emu.click(user, h.table_message(), "My cards")
        assert await emu.handled(inter) == []
        edits = [r.id for r in emu.requests if r.method == "PATCH" and str(panel) in r.path]
        return sum(inter.token in r.path for r in emu.requests), len(edits) - len(before)

    calls, edits = await my_cards()  # edited if the game moved on since it was drawn
    assert calls == 1 and edits <= 1
    # asked again at once: a member who does not see their panel (the next test), answered
    # by a new panel in the click's one callback, never an edit of the old one
    assert await my_cards() == (1, 0)
    posted = len(emu.ephemerals(user))
    assert await my_cards() == (1, 0)  # the new panel shows it already: its acknowledgement only
    assert len(emu.ephemerals(user)) == posted
    await h.restart()  # what it shows is not known: the start or this click draws it
    calls, edits = await my_cards()
    assert calls == 1 and edits <= 1
    assert emu.take_problems() == []


async def test_my_cards_twice_in_a_row_posts_a_new_panel_for_a_member_who_lost_theirs(
    harness: BotHarness,
) -> None:
    """A table's "My cards" edits the member's open panel, which Discord's client drops when
    the member dismisses it or reloads: pressing it then showed nothing, again and again
    (only ``/tamalou hand`` helped). The second press in a row (30 s, no click on the panel
    between) is answered by a new panel; a click on the panel means they see it."""
    h, emu = harness, harness.emu
    await h.start()
    await open_table(h, PLAYERS)
    await peek_all(h, PLAYERS)
    h.advance(2_000)  # past the peeks' end (R-S5)
    await emu.wait_for(lambda: not h.sql("SELECT * FROM open_panels"), 10, "the peeks hidden")
    user = "bob"
    first = h.panel(user)
    count = len(emu.ephemerals(user))
    await emu.click(user, h.table_message(), "My cards")
    assert len(emu.ephemerals(user)) == count and h.panel(user).id == first.id  # edited
    await emu.click(user, h.table_message(), "My cards")  # they saw nothing: a new panel
    assert len(emu.ephemerals(user)) == count + 1
    second = h.panel(user)
    assert second.id != first.id  # h.panel: the newest panel of the member
    await emu.click(user, h.table_message(), "My cards")  # that one is the open panel now
    assert len(emu.ephemerals(user)) == count + 1 and h.panel(user).id == second.id
    assert emu.take_problems() == []
