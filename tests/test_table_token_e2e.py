"""The table message edited through a click's token, off the bot's global budget.

Discord's global limit (50 requests a second for the whole bot) counts
``PATCH /channels/{c}/messages/{m}``; interaction endpoints (the callback, every
``/webhooks/{application}/{token}/…``) are exempt. Two members play a stretch of a
Tamalou round, Draw on the table message and Throw or Pass on their panels: the table
message is edited by the Draw's own answer (an UPDATE_MESSAGE carrying the table) and,
after a panel click, through the newest table click's token (``@original``), never through
the channel (it was one channel edit a move); the lobby's clicks lend theirs to the lobby
and the first round's table. When no token is fresh (past 14 minutes)
or the token's edit is refused, the channel's route draws it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from emulator import Emulator
from emulator.ratelimit import classify
from tests.support.bot_harness import BotHarness, open_table, peek_all
from tests.support.shared_bot import SharedBot

pytestmark = [pytest.mark.e2e, pytest.mark.one_backend, pytest.mark.asyncio(loop_scope="module")]

PLAYERS = ["alice", "bob"]


@pytest_asyncio.fixture(loop_scope="module")
async def harness(shared_bot: SharedBot) -> AsyncIterator[BotHarness]:
    """A guild of its own on the bot the module's tests share."""
    async with shared_bot.scene() as h:
        yield h


def logged(h: BotHarness) -> int:
    return len(h.actions())


def channel_edits(emu: Emulator, message_id: int) -> list[object]:
    """The global-bound edits of the table message: ``PATCH /channels/…/messages/{id}``."""
    return [
        r
        for r in emu.requests
        if r.method == "PATCH" and "/channels/" in r.path and r.path.endswith(f"/{message_id}")
    ]


def token_edits(emu: Emulator) -> list[object]:
    """Edits of a click's original response (a table message) through its token."""
    return [r for r in emu.requests if r.method == "PATCH" and r.path.endswith("/@original")]


async def play_turns(h: BotHarness, tid: int, turns: int) -> None:
    """``turns`` turns of the two members: Draw on the table, then Throw (or Pass a power)
    on their panels, each move waited for as a player would see it; then the table shows
    the next turn."""
    emu = h.emu
    done = 0
    while done < turns or h.game().round.stage != "start":
        r = h.game().round
        assert r.phase == "play", r.phase
        seat = r.current
        assert seat is not None
        user, rnd, before = PLAYERS[seat], r.round_no, logged(h)
        if r.stage == "start":
            draw = f"tamalou:draw:{tid}:{rnd}"
            await emu.wait_for(
                lambda u=user, d=draw: d in json.dumps(h.panel(u).components), 10, "a woken panel"
            )
            inter = await emu.click(user, h.table_message(), custom_id=draw)
            assert inter.response_type == 7, inter  # the table, in the click's one callback
            done += 1
        elif r.stage == "holding":
            inter = await emu.click(user, h.panel(user), custom_id=f"tamalou:throw:{tid}:{rnd}")
        elif r.stage == "power":
            inter = await emu.click(user, h.panel(user), custom_id=f"tamalou:pass:{tid}:{rnd}")
        else:
            raise AssertionError(f"stage {r.stage}")
        assert await emu.handled(inter) == []
        await emu.wait_for(lambda b=before: logged(h) > b, 10, f"{user}'s move")
    # every move is drawn: the table names the player to act now
    await emu.wait_for(lambda: shows_turn(h), 10, "the table showing the turn")


def shows_turn(h: BotHarness) -> bool:
    """The table message names the player to act now (its "Now" field)."""
    r = h.game().round
    return r.current is not None and f"Now\n**{PLAYERS[r.current]}**" in h.table_message().text


async def test_two_members_play_a_stretch_without_a_channel_edit_of_the_table(
    harness: BotHarness,
) -> None:
    h, emu = harness, harness.emu
    await h.start()
    await open_table(h, PLAYERS)
    await peek_all(h, PLAYERS)  # each member's first panel (an ephemeral: no table token)
    tid = h.table_id()
    table = h.table_message().id
    # the lobby's joins and start, the peeks' end: through the lobby clicks' tokens
    assert channel_edits(emu, table) == []
    via_token = len(token_edits(emu))
    await play_turns(h, tid, 6)
    assert h.table_message().id == table  # one round: one table message
    # was a channel edit a move or more (17 here before): now none, each carried by a click
    assert channel_edits(emu, table) == []
    assert len(token_edits(emu)) - via_token >= 1  # a panel click's move, through a token
    assert emu.take_problems() == []


async def test_the_channel_draws_the_table_when_no_token_is_fresh_or_it_is_refused(
    harness: BotHarness,
) -> None:
    h, emu = harness, harness.emu
    await h.start()
    await open_table(h, PLAYERS)
    await peek_all(h, PLAYERS)
    tid = h.table_id()
    table = h.table_message().id
    await play_turns(h, tid, 1)  # a Draw's token
    r = h.game().round
    user, rnd = PLAYERS[r.current or 0], r.round_no
    # the token's edit refused (Discord forgot it): the channel's route draws the move
    emu.fail_next("PATCH", "/@original", 404, 10015, "Unknown Webhook")
    before, via_token = len(channel_edits(emu, table)), len(token_edits(emu))
    draw = await emu.click(user, h.table_message(), custom_id=f"tamalou:draw:{tid}:{rnd}")
    assert await emu.handled(draw) == []
    if h.game().round.stage == "holding":
        stage_before = logged(h)
        throw = await emu.click(user, h.panel(user), custom_id=f"tamalou:throw:{tid}:{rnd}")
        assert await emu.handled(throw) == []
        await emu.wait_for(lambda: logged(h) > stage_before, 10, "the throw")
    await emu.wait_for(lambda: len(channel_edits(emu, table)) > before, 10, "a channel edit")
    assert len(token_edits(emu)) > via_token  # tried first
    # past 14 minutes no token is fresh: the turn's time-out is drawn through the channel
    before = len(channel_edits(emu, table))
    mover, moves = h.game().round.current, logged(h)
    h.advance(15 * 60 * 1000)
    await emu.wait_for(lambda: logged(h) > moves, 10, "the turn timed out")
    await emu.wait_for(lambda: len(channel_edits(emu, table)) > before, 10, "a channel edit")
    assert mover is not None
    emu.take_problems()  # the refused token edit, injected
    assert emu.take_problems() == []


def global_bound(emu: Emulator, since: int) -> Counter[str]:
    """The requests on the bot token's global limit since request ``since``, by route."""
    out: Counter[str] = Counter()
    for r in emu.requests[since:]:
        template = (r.route or r.path).removeprefix("/api/v{version}")
        if not classify(r.method, template, PARAMS).exempt:
            out[f"{r.method} {template}"] += 1
    return out


#: a route's parameters: only its kind matters to whether it is exempt
PARAMS = {"cid": "1", "mid": "1", "app": "1", "token": "t", "iid": "1"}


async def test_a_round_in_a_thread_spends_the_global_limit_only_on_what_must_be_posted(
    harness: BotHarness,
) -> None:
    # With threads on, the table is a new message in the thread: no lobby click's token
    # edits it. Each member's first "My cards" opens their panel; the first one is
    # acknowledged by a deferred update (its token then edits the table) and the panel
    # follows as an ephemeral follow-up. The peek's end and every move are drawn through
    # tokens: the round's only global-bound requests are the lobby, the thread and the
    # table's posts (the peeks' end was a channel edit, and every edit until a Draw).
    h, emu = harness, harness.emu
    # no turn waits an hour: a ping (a new message, global-bound) on a slow machine would
    # be counted with the round's posts
    await h.start(TAMALOU_THREADS="1", TAMALOU_PING_AFTER_S="3600")
    since = len(emu.requests)
    await open_table(h, PLAYERS)
    first = await emu.click(PLAYERS[0], h.table_message(), "My cards")
    assert first.response_type in (6, 7), first  # the table is its original response
    (panel,) = first.followups
    assert panel.ephemeral and panel.content.startswith("**Your cards**")
    # a fresh token edits the table now: the second panel is the click's own answer (or a
    # follow-up, when a loaded machine made the click wait its safety deadline)
    await emu.click(PLAYERS[1], h.table_message(), "My cards")
    assert h.panel(PLAYERS[1]).ephemeral
    h.advance(5_100)
    await emu.wait_for(lambda: "to play" in h.table_message().text, 10, "the first turn")
    tid = h.table_id()
    await play_turns(h, tid, 4)
    assert global_bound(emu, since) == {
        "POST /channels/{cid}/messages": 2,  # the lobby (the summary), the table
        "POST /channels/{cid}/messages/{mid}/threads": 1,
    }
    assert emu.take_problems() == []
