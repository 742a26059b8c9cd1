"""End to end through the Discord emulator: a duplicate tarot tournament of 8 members.

Sign-up with the tournament message's buttons, the host's start (a member's is refused),
two tables of four opened in the channel on one seed, the same cards dealt at the same seat
positions at both (read from the bot's own log, and from the hands two members are shown),
a SIGKILL in the middle of the round (the tournament and both tables carry on), and the
host's cancel closing both tables; then a whole tournament of 2 tables x 2 rounds played
through the members' panels, with a SIGKILL in the middle of a round and the duplicate
standings checked against a computation by hand from the bot's logs.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from emulator import Emulator, MemberSpec, Message
from tamalou.games.tarot import actions as A
from tamalou.games.tarot import events as E
from tamalou.games.tarot.codec import action_from_dict
from tamalou.games.tarot.engine import apply, new_game
from tamalou.games.tarot.rules import Rules
from tamalou.games.tarot.state import Game
from tests.bot.tarot.harness import TarotHarness, default_choice
from tests.support.bot_harness import BotHarness  # noqa: F401 (on every e2e backend: tests/conftest.py)

pytestmark = pytest.mark.e2e

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
MEMBERS = [MemberSpec(n, "en-US", admin=n == "alice") for n in NAMES]


def tournament_message(emu: Emulator) -> Message:
    for msg in reversed(emu.channel_messages()):
        if msg.embeds and "🏆" in str(msg.embeds[0].get("title", "")):
            return msg
    raise AssertionError("no tournament message")


def public(emu: Emulator) -> list[Message]:
    """The channel's messages and its threads' (each table plays in its own thread)."""
    msgs = list(emu.channel_messages())
    for thread in emu.threads():
        msgs += emu.channel_messages(thread)
    return sorted(msgs, key=lambda m: m.id)


def table_messages(emu: Emulator) -> list[Message]:
    return [m for m in public(emu) if ":hand:" in json.dumps(m.components)]


def dealt(h: TarotHarness, table_id: int) -> tuple[str, list[list[int]], list[str]]:
    """A table's seed, its first deal's hands by seat and the names seated, from the log."""
    m = h.sql("SELECT * FROM matches WHERE table_id = ?", table_id)[0]
    seats = json.loads(m["seats"])
    game, _ = new_game(
        Rules.model_validate_json(m["rules"]),
        len(seats),
        m["seed"],
        m["started_at"],
        [s["ai_level"] is not None for s in seats],
    )
    for r in h.sql("SELECT payload FROM actions WHERE match_id = ? ORDER BY n", m["id"]):
        apply(game, action_from_dict(json.loads(r["payload"])))
    return m["seed"], game.deal.dealt, [s["name"] for s in seats]


@pytest.mark.emulator(members=MEMBERS)
async def test_a_duplicate_tarot_tournament_seats_two_tables_on_one_deal_across_a_restart(
    emulator: Emulator, tmp_path: Path
) -> None:
    emu = emulator
    h = TarotHarness(emu, tmp_path)
    await h.start(seeds=["cup"], TAMALOU_THREADS="1")  # the default
    await emu.slash(
        "alice",
        "cardsadmin tournament create",
        game="tarot",
        name="Cup",
        players=4,
        rounds=2,
        length=1,
    )
    msg = tournament_message(emu)
    assert "Cup" in msg.text and "duplicate on" in msg.text
    for name in NAMES:
        await emu.click(name, tournament_message(emu), "Join")
    await emu.wait_for(lambda: "Signed up (8)" in tournament_message(emu).text, 10, "8 sign-ups")
    await emu.click("bob", tournament_message(emu), "Start")
    assert "Only the host" in emu.last_ephemeral("bob").content
    await emu.click("alice", tournament_message(emu), "Start")
    await emu.wait_for(lambda: len(table_messages(emu)) == 2, 15, "two tables")
    await emu.wait_for(lambda: "Round 1/2" in tournament_message(emu).text, 10, "the round")
    # threads on (the default): each table plays in its own thread, the tournament message
    # links to it, and the channel's summary of each table names the tournament and round
    threads = emu.threads()
    assert len(threads) == 2
    assert all(f"<#{thread.id}>" in tournament_message(emu).text for thread in threads)
    summaries = [m.text for m in emu.channel_messages() if m.id in {t.id for t in threads}]
    assert len(summaries) == 2
    for no in (1, 2):
        line = f"Tournament **Cup** · round 1/2 · table {no}"
        assert sum(line in text for text in summaries) == 1

    ids = [int(r["id"]) for r in h.sql("SELECT id FROM tables ORDER BY id")]
    assert len(ids) == 2
    (seed1, hands1, names1), (seed2, hands2, names2) = dealt(h, ids[0]), dealt(h, ids[1])
    assert seed1 == seed2 == "cup:round:1"
    assert hands1 == hands2  # the same cards at the same seat positions
    assert sorted(names1 + names2) == sorted(NAMES)
    assert "Join" not in json.dumps(tournament_message(emu).components)  # sign-up closed

    await h.restart()  # SIGKILL in the middle of the round
    await emu.wait_for(lambda: emu.bot is not None, 10, "the bot back")
    rows = h.sql("SELECT status FROM tournaments")
    assert [r["status"] for r in rows] == ["playing"]
    assert [r["status"] for r in h.sql("SELECT status FROM tables ORDER BY id")] == [
        "playing",
        "playing",
    ]
    # both tables answer after the restart: the first seat of each opens its hand
    for table_id, names in ((ids[0], names1), (ids[1], names2)):
        table_msg = next(
            m for m in table_messages(emu) if f"tarot:hand:{table_id}" in json.dumps(m.components)
        )
        before = len(emu.ephemerals(names[0]))
        await emu.click(names[0], table_msg, "My hand")
        await emu.wait_for(lambda n=names[0], b=before: len(emu.ephemerals(n)) > b, 10, "a hand")
    shown = [
        next(line for line in emu.last_ephemeral(names[0]).content.splitlines() if "hand" in line)
        for names in (names1, names2)
    ]
    assert shown[0].startswith("Your hand: `")
    assert shown[0] == shown[1]  # the same hand, shown to the member at seat 0 of each table

    await emu.slash("alice", "tarot tournament cancel")
    await emu.wait_for(
        lambda: "cancelled" in tournament_message(emu).text, 10, "the tournament cancelled"
    )
    assert [r["status"] for r in h.sql("SELECT status FROM tables ORDER BY id")] == [
        "cancelled",
        "cancelled",
    ]

    def closed(where: list[Message]) -> bool:
        return any("tournament was cancelled" in m.text for m in where)

    await emu.wait_for(  # in each thread, and on each summary in the channel
        lambda: (
            all(closed(emu.channel_messages(t)) for t in threads)
            and all(closed([emu.message(t.id)]) for t in threads)
        ),
        10,
        "both table messages closed",
    )


# -- a whole tournament through Discord -------------------------------------------------------


_FOLDED: dict[tuple[str, int], tuple[Game, list[Any], dict[str, Any], int]] = {}


def replayed(h: TarotHarness, table_id: int) -> tuple[Game, list[Any], dict[str, Any]]:
    """A table's match folded from the bot's log, with every event (the oracle); the actions
    already folded are kept, only the new ones are read and applied."""
    key = (str(h.db), table_id)
    if key not in _FOLDED:
        m = dict(h.sql("SELECT * FROM matches WHERE table_id = ?", table_id)[0])
        seats = json.loads(m["seats"])
        game, events = new_game(
            Rules.model_validate_json(m["rules"]), len(seats), m["seed"], m["started_at"],
            [s["ai_level"] is not None for s in seats],
        )  # fmt: skip
        _FOLDED[key] = (game, list(events), m, 0)
    game, events, m, n = _FOLDED[key]
    for r in h.sql(
        "SELECT n, payload FROM actions WHERE match_id = ? AND n >= ? ORDER BY n", m["id"], n
    ):
        events.extend(apply(game, action_from_dict(json.loads(r["payload"]))))
        n = int(r["n"]) + 1
    _FOLDED[key] = (game, events, m, n)
    return game, events, m


def _logged(h: TarotHarness, match_id: int) -> int:
    return int(h.sql("SELECT COUNT(*) AS n FROM actions WHERE match_id = ?", match_id)[0]["n"])


async def play_table(
    h: TarotHarness,
    table_id: int,
    bids: dict[int, int],
    until: Callable[[Game], bool] = lambda game: game.over,
) -> None:
    """The table's members play through their panels until ``until`` (the match's end): the
    scripted bids, the lowest écart, no chelem, the first legal card; Next after each deal."""
    while not until(replayed(h, table_id)[0]):
        await act_step(h, table_id, bids)


async def act_at(h: TarotHarness, table_id: int, user: str, game: Game, action: A.Action) -> None:
    """``user`` takes ``action`` through their panel at table ``table_id``."""
    emu = h.emu
    panel = live_panel(emu, user, table_id, wanted_id(table_id, game.deal.deal_no, action))
    if panel is None:  # none open that shows the move yet: "My hand" opens (or redraws) it
        table_msg = next(
            m for m in reversed(public(emu)) if f"tarot:hand:{table_id}" in json.dumps(m.components)
        )
        before = len(emu.ephemerals(user))
        await emu.click(user, table_msg, "My hand")
        await emu.wait_for(lambda: len(emu.ephemerals(user)) > before, 10, "a panel")
        panel = emu.last_ephemeral(user)
    deal = game.deal.deal_no
    match action:
        case A.Bid():
            await emu.click(user, panel, custom_id=f"tarot:bid:{table_id}:{deal}.{action.contract}")
        case A.Chelem():
            cid = f"tarot:chelem:{table_id}:{deal}.{int(action.announce)}"
            await emu.click(user, panel, custom_id=cid)
        case A.Ecart():
            select = next(
                s
                for s in panel.selects()
                if s.custom_id.startswith(f"tarot:pick:{table_id}:{deal}.1")
            )
            await emu.select(user, panel, select.custom_id, [str(c) for c in action.cards])
            ids = ".".join(str(c) for c in action.cards)
            await emu.click(user, panel, custom_id=f"tarot:ecart:{table_id}:{deal}.{ids}")
        case A.Play():
            cid = f"tarot:play:{table_id}:{deal}.{action.card}"
            if cid in json.dumps(panel.components):
                await emu.click(user, panel, custom_id=cid)
            else:
                select = next(
                    s
                    for s in panel.selects()
                    if str(action.card) in [o["value"] for o in s.options]
                )
                await emu.select(user, panel, select.custom_id, [str(action.card)])
        case _:
            raise AssertionError(f"no click for {action}")


def wanted_id(table_id: int, deal: int, action: A.Action) -> str:
    """A custom id the member's panel shows when it offers ``action``."""
    match action:
        case A.Bid():
            return f"tarot:bid:{table_id}:{deal}.{action.contract}"
        case A.Chelem():
            return f"tarot:chelem:{table_id}:{deal}.{int(action.announce)}"
        case A.Play():
            return f"tarot:play:{table_id}:{deal}.{action.card}"
        case _:
            return f"tarot:pick:{table_id}:{deal}.1"


def live_panel(emu: Emulator, user: str, table_id: int, wanted: str) -> Message | None:
    """The member's newest panel at that table if it already offers the move (the bot edits
    the open panel in place when the turn comes): one click a move instead of two."""
    for m in reversed(emu.ephemerals(user)):
        ids = json.dumps(m.components)
        if f":{table_id}:" in ids:
            return m if wanted in ids else None
    return None


def duplicate_by_hand(h: TarotHarness) -> dict[str, float]:
    """Each member's tournament score worked out from the logs without the tournament code:
    for each round and seeded deal, a seat's score minus the mean of that seat's scores over
    the round's tables (a deal all passed: 0 at every seat)."""
    totals: dict[str, float] = dict.fromkeys(NAMES, 0.0)
    for (round_no,) in [
        (r["round_no"],) for r in h.sql("SELECT DISTINCT round_no FROM tournament_tables")
    ]:
        per_deal: dict[int, list[tuple[list[str], list[float]]]] = {}
        for tt in h.sql("SELECT table_id FROM tournament_tables WHERE round_no = ?", round_no):
            _, events, m = replayed(h, int(tt["table_id"]))
            names = [s["name"] for s in json.loads(m["seats"])]
            for e in events:
                if isinstance(e, E.DealEnded):
                    per_deal.setdefault(e.deal_no, []).append((names, [float(x) for x in e.scores]))
                elif isinstance(e, E.DealAnnulled) and e.reason == "all_passed":
                    per_deal.setdefault(e.deal_no, []).append((names, [0.0] * 4))
        for played in per_deal.values():
            for seat in range(4):
                mean = sum(scores[seat] for _, scores in played) / len(played)
                for names, scores in played:
                    totals[names[seat]] += scores[seat] - mean
    return totals


@pytest.mark.one_backend
@pytest.mark.emulator(members=MEMBERS)
async def test_a_whole_duplicate_tarot_tournament_through_discord_with_a_restart(
    emulator: Emulator, tmp_path: Path
) -> None:
    """8 members, 2 tables x 2 rounds of one turn of deals (4 deals a table): played through
    the panels, a SIGKILL in the middle of round 1, the standings on the message and in the
    database against a computation by hand."""
    emu = emulator
    h = TarotHarness(emu, tmp_path)
    await h.start(seeds=["cup2"], TAMALOU_THREADS="1")  # the default
    await emu.slash(
        "alice",
        "cardsadmin tournament create",
        game="tarot",
        name="Cup",
        players=4,
        rounds=2,
        length=1,
    )
    for name in NAMES:
        await emu.click(name, tournament_message(emu), "Join")
    await emu.click("alice", tournament_message(emu), "Start")
    await emu.wait_for(lambda: len(h.sql("SELECT id FROM tables")) == 2, 15, "two tables")
    # the tables play differently: a Petite from seat 0 at one, a Garde from seat 1 at the other
    bids = ({0: 1}, {1: 2})
    first = [int(r["id"]) for r in h.sql("SELECT id FROM tables ORDER BY id")]
    # both tables at once (a table left waiting would see its turn clocks run out)
    await asyncio.gather(
        play_table(h, first[0], bids[0], lambda game: len(game.history) >= 2),
        play_table(h, first[1], bids[1], lambda game: len(game.history) >= 2),
    )
    await h.restart()  # SIGKILL in the middle of round 1
    await asyncio.gather(play_table(h, first[0], bids[0]), play_table(h, first[1], bids[1]))
    await emu.wait_for(lambda: len(h.sql("SELECT id FROM tables")) == 4, 20, "round 2 seated")
    second = [int(r["id"]) for r in h.sql("SELECT id FROM tables ORDER BY id")][2:]
    await asyncio.gather(play_table(h, second[0], bids[0]), play_table(h, second[1], bids[1]))
    await emu.wait_for(
        lambda: h.sql("SELECT status FROM tournaments")[0]["status"] == "finished", 20, "the end"
    )
    expected = duplicate_by_hand(h)
    rows = h.sql("SELECT name, score, final_rank FROM tournament_entrants ORDER BY final_rank")
    assert {r["name"]: r["score"] for r in rows} == pytest.approx(expected)
    assert [r["final_rank"] for r in rows] == list(range(1, 9))
    assert any(abs(v) > 0 for v in expected.values())  # the tables did play differently
    await emu.wait_for(
        lambda: "Final ranking" in tournament_message(emu).text, 10, "the final ranking shown"
    )
    best = rows[0]
    assert f"**1.** {best['name']} — **{best['score']:+g}**" in tournament_message(emu).text
    assert int(h.sql("SELECT COUNT(*) AS n FROM tournament_scores")[0]["n"]) == 16  # once
    # a finished tournament table offers no Rematch (it was shown, and refused when pressed)
    assert not [m.id for m in emu.channel_messages() if ":rematch:" in json.dumps(m.components)]


async def act_step(h: TarotHarness, table_id: int, bids: dict[int, int]) -> None:
    """One move of the table (as play_table, once)."""
    game, _, m = replayed(h, table_id)
    names = [s["name"] for s in json.loads(m["seats"])]
    before = _logged(h, m["id"])
    d = game.deal
    if d.phase == "over":
        msg = next(
            x
            for x in reversed(public(h.emu))
            if f"tarot:next:{table_id}:" in json.dumps(x.components)
        )
        await h.emu.click(names[0], msg, custom_id=f"tarot:next:{table_id}:{d.deal_no}")
    else:
        await act_at(h, table_id, names[d.current], game, default_choice(game, d.current, bids))
    await h.emu.wait_for(lambda: _logged(h, m["id"]) > before, 15, "the move applied")


@pytest.mark.one_backend
@pytest.mark.emulator(members=MEMBERS)
async def test_a_tournament_carried_on_by_a_restart_speaks_the_servers_language_at_once(
    emulator: Emulator, tmp_path: Path
) -> None:
    """The bot is killed right after a tournament table ended and before its tournament
    heard of it (the table's close committed, in the one transaction the service writes;
    then the SIGKILL). At the restart the tournament carries on, scores its only round and
    shows its final ranking: in English on this English server, not in French, and the bot
    is ready without first waiting 10 s for a READY that could not come (the carry-on ran
    in ``setup_hook``, before the gateway, and its render asked for the guild's language)."""
    emu = emulator
    h = TarotHarness(emu, tmp_path)
    await h.start(seeds=["cup3"])
    await emu.slash(
        "alice",
        "cardsadmin tournament create",
        game="tarot",
        name="Cup",
        players=4,
        rounds=1,
        length=1,
    )
    for name in NAMES[:4]:
        await emu.click(name, tournament_message(emu), "Join")
    await emu.click("alice", tournament_message(emu), "Start")
    await emu.wait_for(lambda: len(h.sql("SELECT id FROM tables")) == 1, 15, "the table")
    await emu.wait_for(lambda: "Round 1/1" in tournament_message(emu).text, 10, "the round")
    await emu.settle()

    await emu.kill_bot()  # the table ended; its tournament was not told
    table_id = int(h.sql("SELECT id FROM tables")[0]["id"])
    h.sql("UPDATE matches SET status = 'cancelled' WHERE table_id = ?", table_id)
    h.sql("UPDATE tables SET status = 'cancelled' WHERE id = ?", table_id)
    started = asyncio.get_running_loop().time()
    await emu.start_bot("tests.support.e2e_bot", env=h.env)  # returns once on_ready ran
    ready_after = asyncio.get_running_loop().time() - started
    await emu.wait_for(
        lambda: h.sql("SELECT status FROM tournaments")[0]["status"] == "finished", 15, "the end"
    )
    await emu.wait_for(
        lambda: "Final ranking" in tournament_message(emu).text, 10, "the final ranking"
    )
    assert "Classement" not in tournament_message(emu).text
    assert ready_after < 10, f"ready {ready_after:.1f} s after the restart"  # GUILD_WAIT_S
