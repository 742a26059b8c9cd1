"""End to end: a whole Baby Kalooki match through Discord (the real bot, the emulator).

Three humans (alice, bob, carol) and an ``easy`` AI play the three rounds. The seed is one
whose match (played in the engine alone by ``tests.bot.kalooki.policy``, the same choices
the test clicks) holds what the test wants: alice lays down at once after allowing a call,
bob and carol call the same up-card (their clicks delivered in the reverse order of their
interaction times: the earlier wins, K-CL3), carol calls in round 2 and later lays off and
shifts a joker (K-L4, K-L7). On the way: a refused illegal lay-down (which meld, which
limit), a restart of the bot in the middle of round 1, the standings after each round, the
rematch button, and a scan of every message version for cards its reader may not see
(pictures included, from the description each carries).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.games.kalooki.verbs import lay_off_value
from bot.ui.cards import BACK, HOLE, read_description, render_hand
from emulator import Emulator, Message
from emulator.model import SEND_MESSAGES_IN_THREADS, Attachment, HistoryEntry
from tamalou.core import cards
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.codec import action_from_dict
from tamalou.games.kalooki.engine import legal_actions, new_game
from tamalou.games.kalooki.rules import BABY, Rules
from tamalou.games.kalooki.state import Game
from tests.bot.kalooki.policy import human, simulate
from tests.support.bot_harness import BotHarness
from tests.support.leak_scan import entry_faces, entry_text, message_faces
from tests.support.shared_bot import SharedBot

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

SEED = "kb375921"
HUMANS = ["alice", "bob", "carol"]
AI_SEAT = 3
RULES = Rules.model_validate({**BABY.model_dump(), "call_window_s": 0})
TABLE_BUTTON = re.compile(r"kalooki:(join|draw|next|rematch):")
LABEL = re.compile(r"(?:10|[A2-9JQK])[♣♦♥♠]")


def script(game: Game, step: int) -> list[A.Action] | None:
    """The scripted calls: bob calls the up-card of round 1 (alice allows), carol the
    up-card of round 2 (bob allows)."""
    r = game.round
    if r.round_no == 1 and step == 0:
        return [A.Call(1, r.discard[-1]), A.Draw(0)]
    first_turn = r.stage == "draw" and r.current == 1 and len(r.discard) == 1 and r.live
    if r.round_no == 2 and first_turn and r.seats[2].calls == 0:
        return [A.Call(2, r.discard[-1]), A.Draw(1)]
    return None


class Kalooki:
    """The bot under test and an oracle: the match rebuilt from the bot's own log."""

    def __init__(self, h: BotHarness) -> None:
        self.h, self.emu = h, h.emu

    def table_message(self) -> Message:
        for msg in reversed(self.h.public_messages()):  # the channel and its threads
            if msg.components and TABLE_BUTTON.search(json.dumps(msg.components)):
                return msg
        raise AssertionError("no table message")

    def replay(self) -> tuple[Game, list[Any], list[A.Action]]:
        rows = self.h.newest_match()
        m = rows[0]
        payloads = self.h.actions_of(m["id"])  # read once: the game and the list agree
        game, events = self.h.replayed(m, payloads)
        return game, events, [action_from_dict(p) for p in payloads]

    def game(self) -> Game:
        return self.replay()[0]

    def logged(self) -> int:
        return int(
            self.h.sql(
                "SELECT COUNT(*) AS n FROM actions"
                " WHERE match_id IN (SELECT id FROM matches WHERE guild_id = ?)",
                self.h.guild_id,
            )[0]["n"]
        )

    def panel(self, user: str) -> Message:
        """The user's latest private panel."""
        for msg in reversed(self.emu.ephemerals(user)):
            if "kalooki:" in json.dumps(msg.components):
                return msg
        raise AssertionError(f"{user} has no panel")

    async def click(self, user: str, msg: Message, label: str) -> None:
        inter = await self.emu.click(user, msg, label)
        assert await self.emu.handled(inter) == []

    async def press(self, user: str, verb: str, rnd: int) -> None:
        """A button of the user's panel, by its verb (bob and carol read French)."""
        cid = f"kalooki:{verb}:{self.tid}:{rnd}"
        inter = await self.emu.click(user, self.panel(user), custom_id=cid)
        assert await self.emu.handled(inter) == []

    async def pick(self, user: str, marker: str, values: list[str]) -> None:
        msg = self.panel(user)
        select = next(s for s in msg.selects() if marker in s.custom_id)
        inter = await self.emu.select(user, msg, select.custom_id, values)
        assert await self.emu.handled(inter) == []

    async def play(self, user: str, action: A.Action) -> None:
        """Click in Discord what ``action`` is."""
        rnd = self.game().round.round_no
        match action:
            case A.Draw() | A.TakeDiscard():
                await self.table_shows_draw()
                verb = "draw" if isinstance(action, A.Draw) else "take"
                cid = f"kalooki:{verb}:{self.tid}:{rnd}"
                inter = await self.emu.click(user, self.table_message(), custom_id=cid)
                assert await self.emu.handled(inter) == []
            case A.LayDown():
                await self.press(user, "sugg", rnd)
                await self.press(user, "lay", rnd)
            case A.LayOff() | A.ShiftJoker():
                await self.pick(user, f":pick:{self.tid}:{rnd}.2", [lay_off_value(action)])
            case A.LayMeld():
                await self.press(user, "meld", rnd)
                await self.pick(user, f":pick:{self.tid}:{rnd}.4", [str(c) for c in action.cards])
                await self.press(user, "set" if action.meld_kind == 3 else "run", rnd)
            case A.Discard():
                await self.pick(user, f":pick:{self.tid}:{rnd}.1", [str(action.card)])
            case A.EndTurn():
                await self.press(user, "end", rnd)
            case _:
                raise AssertionError(action)

    async def until(self, predicate: Any, what: str) -> None:
        """Poll ``predicate`` (a write to the database sends nothing the emulator sees)."""
        for _ in range(400):
            if predicate():
                return
            await asyncio.sleep(0.025)
        game = self.game()
        tail = self.emu.bot.log_tail() if self.emu.bot else ""
        raise AssertionError(
            f"timed out waiting for {what}: round {game.round.round_no} current "
            f"{game.round.current} stage {game.round.stage}\n{tail}"
        )

    async def logged_past(self, before: int, what: str) -> None:
        await self.until(lambda: self.logged() > before, what)

    async def table_shows_draw(self) -> None:
        """The table message is up to date: its Draw button is live (an edit may trail the
        database by a moment)."""
        cid = f"kalooki:draw:{self.tid}:{self.game().round.round_no}"

        def live() -> bool:
            return not self.table_message().button(custom_id=cid).disabled

        await self.emu.wait_for(live, 10, "the table message's Draw")

    @property
    def tid(self) -> int:
        return self.h.table_id()


@pytest_asyncio.fixture(loop_scope="module")
async def k(shared_bot: SharedBot) -> AsyncIterator[Kalooki]:
    """A guild of its own on the bot the module's tests share."""
    async with shared_bot.scene() as h:
        yield Kalooki(h)


async def test_the_seed_gives_the_match_the_test_plays() -> None:
    """The chosen seed (searched with the engine alone) holds every step the e2e test needs."""
    played = simulate(RULES, SEED, AI_SEAT, script)
    kinds = [(a.kind, a.player) for a in played.actions]
    assert played.game.over
    assert kinds[:3] == [("call", 1), ("draw", 0), ("lay_down", 0)]
    assert ("call", 2) in kinds and ("lay_off", 2) in kinds and ("shift_joker", 2) in kinds


async def test_k_a_whole_baby_match_with_calls_lays_a_restart_and_no_leak(k: Kalooki) -> None:
    h, emu = k.h, k.emu
    # a reorder window wide enough for the race below; the restart narrows it (the rest
    # of the match plays faster)
    await h.start(seeds=[SEED], reorder_ms=400)
    await emu.slash("alice", "kalooki new", preset="baby", call_seconds=0)
    for user in ("bob", "carol"):
        await k.click(user, k.table_message(), "Join")
    await emu.slash("alice", "kalooki addbot", level="easy")
    assert "AI 1 (easy)" in k.table_message().text
    await k.click("alice", k.table_message(), "Start")
    # one private panel per member per round (issue 21): a round posts each member at most
    # three new ephemerals (a panel, a call's answer, a refusal), whatever they click
    shown = {user: len(emu.ephemerals(user)) for user in HUMANS}

    def at_most_three_new_ephemerals() -> None:
        new = {user: len(emu.ephemerals(user)) - shown[user] for user in shown}
        assert all(n <= 3 for n in new.values()), new
        shown.update({user: len(emu.ephemerals(user)) for user in shown})

    # -- round 1: two racing calls; the earlier interaction wins (K-CL3) -------------------
    game = k.game()
    assert game.round.dealer == AI_SEAT and game.round.current == 0
    up = game.round.discard[-1]
    msg = k.table_message()
    call = msg.button(custom_id=f"kalooki:call:{k.tid}:1.{up}")
    now = emu.clock.now_ms()
    late = await emu.click("carol", msg, custom_id=call.custom_id, at=now + 40, wait=False)
    early = await emu.click("bob", msg, custom_id=call.custom_id, at=now + 10, wait=False)
    for inter in (late, early):
        assert await emu.handled(inter) == []
    assert "Trop tard" in emu.last_ephemeral("carol").content  # carol reads French
    assert "appelez" in emu.last_ephemeral("bob").content
    await k.until(lambda: k.game().round.pending_call == 1, "bob's call in the log")
    assert "📣 **bob** calls" in k.table_message().text

    # K-CL4: the current player is asked to allow or refuse
    await k.click("alice", k.table_message(), "My hand")
    panel = k.panel("alice")
    assert "📣 **bob** calls" in panel.content
    assert panel.button("Allow (draw from the pile)") and panel.button(
        f"Refuse (take {cards.label(up)})"
    )

    # a restart in the middle of the round: the pending call is rebuilt from the log
    h.env["TAMALOU_REORDER_MS"] = "20"
    await h.restart()
    await k.click("alice", k.panel("alice"), "Allow (draw from the pile)")
    await k.logged_past(1, "the answer to the call")
    # the guild's language survives the restart (it was cached as French when the tables
    # were redrawn before the guild was known)
    assert "round 1/3" in k.table_message().text
    game = k.game()
    assert game.round.pending_call is None and up in game.round.seats[1].hand
    assert len(game.round.seats[1].hand) == 8  # the discard and a penalty card

    # a refused lay-down says which meld and which limit (K-L1); nothing changes
    await k.click("alice", k.panel("alice"), "Build my lay-down")
    hand = game.round.seats[0].hand
    ranks: dict[str, int] = {}
    for c in hand:
        ranks.setdefault(cards.rank(c), c)
    mixed = list(ranks.values())[:3]
    assert len({cards.rank(c) for c in mixed}) == 3
    await k.pick("alice", f":pick:{k.tid}:1.3.0", [str(c) for c in mixed])
    assert "❌ a set's cards must all have the same rank" in k.panel("alice").content
    await k.click("alice", k.panel("alice"), "Lay down")
    assert "❌ Refused, meld 1: a set's cards must all have the same rank" in (
        k.panel("alice").content
    )
    assert not k.game().round.seats[0].laid_down
    # a card picked for meld 2 leaves meld 1
    await k.pick("alice", f":pick:{k.tid}:1.3.1", [str(mixed[0])])
    lines = k.panel("alice").content.splitlines()
    first = next(line for line in lines if line.startswith("1. "))
    second = next(line for line in lines if line.startswith("2. "))
    assert labels_in(first) == labels_in(" ".join(cards.label(c) for c in mixed[1:]))
    assert labels_in(second) == labels_in(cards.label(mixed[0]))
    count = lambda line: len(LABEL.findall(line)) + line.count("🃏")  # noqa: E731
    assert (count(first), count(second)) == (2, 1)
    # the half-built lay-down is kept with the table: a restart gives it back (issue 30)
    stored = lambda: [r for r in h.guild_rows("panel_memory") if r["seat"] == 0]  # noqa: E731
    await k.until(lambda: '"mode":"build"' in str([r["data"] for r in stored()]), "the draft")
    await h.restart()
    await k.click("alice", k.table_message(), "My hand")
    again = k.panel("alice").content.splitlines()
    assert next(line for line in again if line.startswith("1. ")) == first
    assert next(line for line in again if line.startswith("2. ")) == second
    await k.click("alice", k.panel("alice"), "Back")

    # -- the rest of the match as the engine-only run played it ---------------------------
    expected = simulate(RULES, SEED, AI_SEAT, script)
    standings = 0
    while True:
        game, _, so_far = k.replay()
        logged = len(so_far)
        r = game.round
        if game.over:
            break
        if r.phase == "over":
            at_most_three_new_ephemerals()
            standings += 1
            # the log has the round's end before the table shows it (an AI's last move is
            # committed, then drawn, off any click)
            await emu.wait_for(lambda: "🏁" in k.table_message().text, 10, "the standings")
            over = k.table_message()  # the round's standings (in the guild's language)
            assert re.search(rf"(round|manche) {r.round_no}/3", over.text), over.text
            assert "🏁" in over.text
            next_id = f"kalooki:next:{k.tid}:{r.round_no}"
            inter = await emu.click("bob", over, custom_id=next_id)
            assert await emu.handled(inter) == []
            await k.until(lambda: k.game().round.phase == "play", "the next deal")
            continue
        scripted = script(game, 1)
        if scripted and r.round_no == 2:
            await k.table_shows_draw()
            msg = k.table_message()
            call_id = f"kalooki:call:{k.tid}:2.{r.discard[-1]}"
            inter = await emu.click("carol", msg, custom_id=call_id)
            assert await emu.handled(inter) == []
            draw = k.table_message().button(custom_id=f"kalooki:draw:{k.tid}:2")
            inter = await emu.click("bob", k.table_message(), custom_id=draw.custom_id)
            assert await emu.handled(inter) == []  # Draw allows the call (K-CL4)
            await k.logged_past(logged + 1, "the call and its answer")
            continue
        seat = r.current
        assert seat is not None
        if seat == AI_SEAT:
            await k.logged_past(logged, "the AI's move")
            continue
        action = human(game, seat, max(game.now, r.draw_at or 0), RULES)
        assert action is not None
        await k.play(HUMANS[seat], action)
        await k.logged_past(logged, f"{HUMANS[seat]}'s {action.kind}")
    at_most_three_new_ephemerals()
    game, events, done = k.replay()
    await emu.wait_for(  # committed before it is drawn (the last move may be the AI's)
        lambda: re.search(r"match over|partie terminée", emu.channel_messages()[-1].text),
        10,
        "the final message",
    )
    assert [(a.kind, a.player) for a in done if a.kind != "next_round"] == [
        (a.kind, a.player) for a in expected.actions
    ]  # the same match, click for click
    assert standings == 2
    final = emu.channel_messages()[-1]
    assert re.search(r"match over|partie terminée", final.text), final.text
    assert final.button(custom_id=f"kalooki:rematch:{k.tid}")
    # the score sheet: a line per round, each player's score in it, then the totals
    sheet = re.split(r"Score sheet|Feuille de marque", final.text, maxsplit=1)[1]
    rows = [line.split() for line in sheet.splitlines()]
    for result in game.history:
        assert any(r[:1] == [str(result.round_no)] and len(r) == 1 + game.players for r in rows)
    assert sorted(float(v) for v in next(r for r in rows if r[:1] == ["Total"])[1:]) == sorted(
        game.cumulative
    )
    assert any(isinstance(e, E.JokerShifted) and e.player == 2 for e in events)
    assert any(isinstance(e, E.LaidOff) and e.player == 2 for e in events)
    assert_no_leak(k, events)
    # every open panel of the last round is drawn once more: none offers a lay-off or the
    # hand's sorting after the match (the winner's did)
    last = f":{k.tid}:{game.round.round_no}"

    def stale() -> list[str]:
        return [
            user
            for user in HUMANS
            for m in emu.ephemerals(user)
            if any(f"kalooki:{verb}{last}" in json.dumps(m.components) for verb in ("sort", "pick"))
        ]

    await emu.wait_for(lambda: not stale(), 10, "the panels drawn after the match")

    # the season's board is per game: the match is recorded under kalooki
    def season(table: str) -> list[Any]:
        """The rows of ``table`` (season_results, season_players) of the guild's seasons."""
        return list(
            h.sql(
                f"SELECT * FROM {table} WHERE season_id IN"
                " (SELECT id FROM seasons WHERE guild_id = ?)",
                h.guild_id,
            )
        )

    await k.until(lambda: season("season_results"), "the season record")
    assert {r["game"] for r in season("season_results")} == {"kalooki"}
    assert len([r for r in season("season_players") if r["game"] == "kalooki"]) == 3
    # Rematch: the same seats and settings at a new table
    inter = await emu.click("alice", final, custom_id=f"kalooki:rematch:{k.tid}")
    assert await emu.handled(inter) == []
    await k.until(
        lambda: len(h.sql("SELECT * FROM matches WHERE guild_id = ?", h.guild_id)) == 2,
        "the rematch",
    )
    rows = h.sql("SELECT game, status FROM tables WHERE guild_id = ? ORDER BY id", h.guild_id)
    assert [(r["game"], r["status"]) for r in rows] == [
        ("kalooki", "finished"),
        ("kalooki", "playing"),
    ]
    assert k.game().players == 4 and k.game().round.round_no == 1
    assert emu.take_problems() == []


def labels_in(text: str) -> set[str]:
    return set(LABEL.findall(text))


def is_french(code: str) -> bool:
    """A face of a French card (not a joker, a back or a hole)."""
    return code not in (cards.JOKER, BACK, HOLE) and not code.startswith(("t", "T", "E", "B"))


@dataclass
class Knowledge:
    """Per round: the cards shown to everyone, each seat's own cards, the hands shown at
    the round's end (labels: duplicates of two decks read the same)."""

    public: dict[int, set[str]] = field(default_factory=dict)
    private: dict[int, dict[int, set[str]]] = field(default_factory=dict)
    ended: dict[int, set[str]] = field(default_factory=dict)

    def known_by(self, seat: int) -> set[str]:
        """Every card ``seat`` could see at some time in the match."""
        return set().union(
            *(self.private[r].get(seat, set()) | self.public.get(r, set()) for r in self.private)
        )


def knowledge(events: list[Any]) -> Knowledge:
    k = Knowledge()
    rnd = 0
    for e in events:
        if isinstance(e, E.Dealt):
            rnd = e.round_no
            k.public.setdefault(rnd, set()).add(cards.label(e.up_card))
            for seat, hand in enumerate(e.hands):
                k.private.setdefault(rnd, {}).setdefault(seat, set()).update(map(cards.label, hand))
        elif isinstance(e, E.DrawnCard | E.PenaltyCard):
            k.private[rnd].setdefault(e.player, set()).add(cards.label(e.card))
        elif isinstance(e, E.Discarded | E.Called | E.LaidOff | E.JokerShifted):
            k.public[rnd].add(cards.label(e.card))
        elif isinstance(e, E.LaidDown):
            k.public[rnd].update(cards.label(c) for _, _, m in e.melds for c in m)
        elif isinstance(e, E.MeldLaid):
            k.public[rnd].update(map(cards.label, e.cards))
        elif isinstance(e, E.RoundEnded):
            k.ended[rnd] = {cards.label(c) for hand in e.hands for c in hand}
    return k


def text_leaks(
    entries: list[HistoryEntry], know: Knowledge, seats: dict[int, int]
) -> list[tuple[HistoryEntry, set[str]]]:
    """Message versions (those naming their round) showing a card their reader may not
    see in that round, with the cards."""
    found = []
    for entry in entries:
        named = re.search(r"(?:round|manche) (\d)/3", entry.text)
        if not named:
            continue
        r = int(named.group(1))
        allowed = set(know.public.get(r, set()))
        if entry.audience is None:
            if re.search(r"/3 over|fin de la manche|match over|partie terminée", entry.text):
                allowed |= know.ended.get(r, set())
        else:
            allowed |= know.private.get(r, {}).get(seats[entry.audience], set())
        shown = labels_in(entry_text(entry)) | {
            cards.label(cards.from_code(c)) for c in entry_faces(entry) if is_french(c)
        }
        if not shown <= allowed:
            found.append((entry, shown - allowed))
    return found


def picture_leaks(faces: list[str], know: Knowledge, seat: int) -> set[str]:
    """The faces of a picture sent to ``seat`` that ``seat`` never held nor saw."""
    shown = {cards.label(cards.from_code(c)) for c in faces if c != cards.JOKER}
    return shown - know.known_by(seat)


def assert_no_leak(k: Kalooki, events: list[Any]) -> None:
    """Every card label a message version shows is public in its round, or in the reader's
    own hand that round; every picture's faces (its description) were its reader's."""
    know = knowledge(events)
    seats = {k.emu.member(u).id: seat for seat, u in enumerate(HUMANS)}
    history = k.emu.history()
    assert text_leaks(history, know, seats) == []
    assert sum(1 for e in history if re.search(r"(?:round|manche) \d/3", e.text)) > 50
    pictures = 0
    by_token = {i.token: i for i in k.emu.interactions.values()}
    for request in k.emu.requests:  # every picture ever sent, every version
        if not request.files:
            continue
        owner = next((i for t, i in by_token.items() if t in request.path), None)
        assert owner is not None, request.path  # pictures only answer a player's click
        for attachment in request.files:
            description = read_description(attachment.data)
            assert description is not None
            assert picture_leaks(description["faces"], know, seats[owner.user_id]) == set()
            pictures += 1
    for msg in k.emu.channel_messages():
        assert not msg.attachments  # the table message never carries a hand
    assert pictures >= 1


async def test_the_leak_scan_catches_a_card_shown_to_the_wrong_reader() -> None:
    """The scan can fail: bob's card in carol's ephemeral, or in a public message, or in a
    picture sent to carol, is caught; the same card in bob's own panel is not."""
    game, events = new_game(RULES, 4, SEED, 0, [False, False, False, True])
    know = knowledge(events)
    bobs = know.private[1][1] - know.private[1][2] - know.public[1]
    secret = sorted(bobs)[0]
    seats = {1001: 0, 1002: 1, 1003: 2}
    code = next(cards.code(c) for c in game.round.seats[1].hand if cards.label(c) == secret)

    def entry(audience: int | None) -> HistoryEntry:
        text = f"Kalooki — table 1 · round 1/3\nYour hand: {secret}"
        return HistoryEntry(1, "edit", 5, 6, audience, text, [], [], 64, [], 0, None)

    def pictured(audience: int) -> HistoryEntry:
        png = render_hand([code]).png
        files = (Attachment(1, "hand.png", png),)
        return HistoryEntry(1, "edit", 5, 6, audience, "round 1/3", [], [], 64, [], 0, None, files)

    assert text_leaks([entry(1002)], know, seats) == []
    assert [bad for _, bad in text_leaks([entry(1003), entry(None)], know, seats)] == [
        {secret},
        {secret},
    ]
    assert [bad for _, bad in text_leaks([pictured(1003)], know, seats)] == [{secret}]
    assert text_leaks([pictured(1002)], know, seats) == []
    assert picture_leaks([code], know, 2) == {secret}
    assert picture_leaks([code], know, 1) == set()


async def test_kalooki_commands_lobby_refusals_and_another_games_table(k: Kalooki) -> None:
    """/kalooki rules in the reader's language; /kalooki without a table, or where the
    channel's table plays Tamalou, is refused in words, as /tamalou and /tarot are at a
    Kalooki table; the lobby's buttons and commands
    (join, add an AI, kick, leave); a started table's buttons and /kalooki hand; cancel."""
    h, emu = k.h, k.emu
    await h.start()
    await emu.slash("alice", "kalooki rules")
    await emu.slash("bob", "kalooki rules")
    assert "Kalooki (Jamaican rummy) in short" in emu.last_ephemeral("alice").content
    assert "Le Kalooki (rami jamaïcain) en bref" in emu.last_ephemeral("bob").content
    await emu.slash("erin", "kalooki join")
    assert "no Kalooki table" in emu.last_ephemeral("erin").content
    group = next(c for c in emu.commands() if c["name"] == "kalooki")
    names = {o["name"] for o in group.get("options", [])}
    assert {"new", "join", "addbot", "cancel", "hand", "rules"} <= names
    assert {"leaderboard", "stats", "season"} <= names  # seasons: a board per game
    inter = await emu.slash("erin", "kalooki leaderboard")
    assert inter.responded and not inter.errors
    await emu.slash("dave", "tamalou new")
    await emu.slash("erin", "kalooki join")
    assert "plays tamalou: use /tamalou" in emu.last_ephemeral("erin").content
    await emu.slash("alice", "tamalou cancel")
    await emu.slash("dave", "kalooki new", preset="classic4", turn_seconds=60)
    lobby = k.table_message()
    # the preset's short name: its rounds follow once ("Classic (4 rounds) · 4 rounds" before)
    assert "Classic Kalooki · 4 rounds · 60 s per turn" in lobby.text
    for other in ("tamalou", "tarot"):  # another game's seat commands never touch it
        await emu.slash("erin", f"{other} join")
        assert "plays kalooki: use /kalooki" in emu.last_ephemeral("erin").content
    assert "erin" not in k.table_message().text
    await k.click("erin", lobby, "Join")
    await emu.slash("bob", "kalooki join")
    await k.click("dave", k.table_message(), "Add AI")
    assert "AI 1 (medium)" in k.table_message().text  # the lobby button seats the default
    await emu.slash("dave", "kalooki kick", seat=3)
    assert "bob" not in k.table_message().text
    await k.click("erin", k.table_message(), "Leave")
    assert "erin" not in k.table_message().text
    await k.click("dave", k.table_message(), "Start")
    await k.until(lambda: h.newest_match(), "the match")
    game = k.game()
    assert game.players == 2 and len(game.round.seats[0].hand) == 9  # K-R1: round 1 deals 9
    assert {b.label for b in k.table_message().buttons()} >= {"Draw", "My hand"}
    await emu.slash("dave", "kalooki hand")
    panel = emu.last_ephemeral("dave")
    assert "Your hand (9)" in panel.content and "3 sets" in panel.content
    await emu.slash("bob", "kalooki hand")
    assert "Vous n'êtes pas à cette table" in emu.last_ephemeral("bob").content
    await emu.slash("dave", "kalooki cancel")
    assert [
        r["status"]
        for r in h.sql("SELECT status FROM tables WHERE guild_id = ? ORDER BY id", h.guild_id)
    ] == [
        "cancelled",
        "cancelled",
    ]


async def test_cards_as_emojis_on_the_table_in_the_panel_and_its_selects(k: Kalooki) -> None:
    """With the card emojis uploaded, the discard, the hand and the melds are faces; the
    panel's card options carry the face; no face reaches a reader who may not see it."""
    h, emu = k.h, k.emu
    await h.start(seeds=[SEED], TAMALOU_CARD_EMOJIS="1", reorder_ms=20)
    await emu.wait_for(
        lambda: any("card emojis ready" in Path(p).read_text() for p in emu.bot_logs),
        60,
        "the card emojis",
    )
    await emu.slash("alice", "kalooki new", preset="baby", call_seconds=0)
    await k.click("bob", k.table_message(), "Join")
    await k.click("alice", k.table_message(), "Start")
    game = k.game()
    first = HUMANS[game.round.current or 0]
    up = cards.code(game.round.discard[-1])
    await emu.wait_for(
        lambda: up in message_faces(k.table_message()), 10, "the discard as an emoji"
    )
    inter = await emu.click(first, k.table_message(), custom_id=f"kalooki:draw:{k.tid}:1")
    assert await emu.handled(inter) == []
    await k.logged_past(0, "the draw")
    game = k.game()
    seat = HUMANS.index(first)
    panel = k.panel(first)
    hand = [cards.code(c) for c in game.round.seats[seat].hand]
    shown = set(message_faces(panel))
    assert set(hand) - {cards.JOKER} <= shown  # the hand line and the options: faces
    assert not labels_in(panel.content.split("\n")[1])  # the hand line: emojis, no text
    discard = next(s for s in panel.selects() if f":pick:{k.tid}:1.1" in s.custom_id)
    assert all(o.get("emoji") for o in discard.options)  # each card option shows its face
    take = k.table_message().button(custom_id=f"kalooki:take:{k.tid}:1")
    assert take.raw.get("emoji") and "<:" not in (take.label or "")  # issue 21: a label
    events = k.replay()[1]  # cannot render emoji markup (the emulator records it if one has)
    know = knowledge(events)
    seats = {emu.member(u).id: i for i, u in enumerate(HUMANS[:2])}
    assert text_leaks(emu.history(), know, seats) == []
    assert emu.take_problems() == []


# -- the turn ping -------------------------------------------------------------------------


def pings(k: Kalooki) -> list[Message]:
    return [m for m in k.emu.channel_messages() if m.mentions]


async def test_k_t1_a_turn_start_pings_its_player_only_and_the_last_ping_goes(
    k: Kalooki,
) -> None:
    """A Kalooki player was never told their turn had come (only Tamalou pinged). The player
    to play is pinged, a mention allowed for them only and no card named; the previous ping
    is deleted when the turn moves on; ``/kalooki ping on:False`` turns it off for that
    member (one choice per server, for every game)."""
    h, emu = k.h, k.emu
    await h.start(seeds=[SEED], TAMALOU_PING_AFTER_S="1")  # slow after a second
    await emu.slash("alice", "kalooki new", preset="baby", call_seconds=0)
    await k.click("bob", k.table_message(), "Join")
    await k.click("alice", k.table_message(), "Start")
    await k.until(lambda: h.newest_match(), "the match")
    game = k.game()
    seat = game.round.current
    player, other = HUMANS[seat], HUMANS[1 - seat]
    member = emu.member(player)
    await emu.wait_for(lambda: pings(k), 10, f"{player}'s ping")
    (first,) = pings(k)
    assert first.mentions == [member.id]
    assert first.content == f"<@{member.id}>, your turn at table {k.tid}."  # no card
    sent = [r for r in emu.requests_to("POST", "/messages") if "<@" in str(r.body)]
    assert [int(u) for u in sent[-1].body["allowed_mentions"]["users"]] == [member.id]
    assert sent[-1].body["allowed_mentions"]["parse"] == []
    await emu.slash(other, "kalooki ping", on=False)
    off = {"alice": "no longer be pinged", "bob": "ne serez plus notifié"}[other]
    assert off in emu.last_ephemeral(other).content  # in the member's language

    async def play_a_turn(user: str, seat: int) -> None:
        before = k.logged()
        await k.play(user, A.Draw(seat))
        await k.logged_past(before, f"{user}'s draw")
        legal = legal_actions(k.game(), seat)
        await k.play(user, next(a for a in legal if isinstance(a, A.Discard)))
        await k.until(lambda: k.game().round.current != seat, f"{user}'s discard")

    await play_a_turn(player, seat)
    await emu.wait_for(lambda: not pings(k), 10, f"{player}'s ping to go")  # other: none
    await emu.slash(other, "kalooki ping", on=True)
    await play_a_turn(other, 1 - seat)
    # the other's own ping, posted if their turn waited a second, may still be being deleted
    await emu.wait_for(
        lambda: [p.mentions for p in pings(k)] == [[member.id]], 10, f"{player}'s new ping"
    )
    (again,) = pings(k)
    assert again.id != first.id and again.mentions == [member.id]
    assert first.id not in [m.id for m in emu.channel_messages()]


# -- threads (issue 22) ------------------------------------------------------------------------


@pytest.mark.one_backend
async def test_a_kalooki_table_plays_in_its_thread_until_it_is_cancelled(k: Kalooki) -> None:
    """The lobby in the channel, the match in the thread started from it, the channel
    keeping only the summary; a slow player pinged there; a restart goes on in the same
    thread; cancelled, the thread is archived."""
    h, emu = k.h, k.emu
    await h.start(seeds=[SEED], TAMALOU_THREADS="1", TAMALOU_PING_AFTER_S="1")
    await emu.slash("alice", "kalooki new", preset="baby", call_seconds=0)
    lobby = emu.last_message("general")
    (thread,) = emu.threads("general")
    assert thread.id == lobby.id
    await k.click("bob", lobby, "Join")
    await k.click("alice", lobby, "Start")
    await k.until(lambda: k.table_message().channel_id == thread.id, "the table in the thread")
    assert emu.channel_messages("general") == [lobby] and not lobby.buttons()
    assert f"<#{thread.id}>" in lobby.text and "Kalooki" in lobby.text
    await emu.wait_for(lambda: pings_in(emu, thread), 10, "the slow player's ping")
    # the ping's row is written before its post, its message id once Discord answered:
    # this test's restart comes once both are stored
    await k.until(
        lambda: [r for r in h.guild_rows("turn_pings") if r["message_id"] != 0], "the ping"
    )
    await h.restart()
    table = k.table_message()
    await k.click("alice", table, "My hand")
    assert k.table_message().id == table.id and emu.threads("general") == [thread]
    await emu.slash("alice", "kalooki cancel", channel=thread)  # a command in the thread
    await emu.wait_for(lambda: thread.archived, 10, "the thread archived")
    assert "cancelled" in lobby.text
    # the last ping goes with the table (its deletion may come after the archive)
    await emu.wait_for(lambda: not pings_in(emu, thread), 10, "the last ping deleted")


def pings_in(emu: Emulator, thread: Any) -> list[Message]:
    return [m for m in emu.channel_messages(thread) if m.mentions]


@pytest.mark.one_backend
async def test_without_thread_permissions_a_kalooki_table_plays_in_the_channel(
    k: Kalooki,
) -> None:
    h, emu = k.h, k.emu
    emu.deny_bot(SEND_MESSAGES_IN_THREADS)
    await h.start(TAMALOU_THREADS="1")
    await emu.slash("bob", "kalooki new", preset="baby")
    assert emu.threads("general") == [] and not emu.requests_to("POST", "/threads")
    assert "se joue dans ce salon" in emu.last_ephemeral("bob").content  # bob reads French
    await k.click("alice", k.table_message(), "Join")
    await k.click("bob", k.table_message(), "Start")
    await k.until(lambda: h.newest_match(), "the match")
    assert k.table_message().channel_id == emu.channel("general").id
