"""End to end through the Discord emulator: whole matches of the house variants `dutch`,
`cabo` and `koubo` (R-V1, R-V4, R-V2), then of every other preset (R-V3, R-V5..R-V9), each
ended by its own match rule, humans scripted through the panels' buttons (the
narrowed many-choice moves and the table's «Play for someone» included), AI seats filling
in, then a scan of every version of every message for a card its reader could not see yet.

The scripted humans read nothing but their own buttons; the test's oracle (the game folded
from the bot's own log) only tells them *when* it is their turn and which card to aim a
play for someone at, as a player's memory would.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.games.tamalou.variants import VARIANTS, display_name, lobby_value
from bot.i18n import catalog
from emulator import Emulator, Message
from tamalou.core import cards
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.codec import action_from_dict
from tamalou.games.tamalou.engine import apply, legal_actions, new_game
from tamalou.games.tamalou.rules import DUTCH, DUTCH_ROI, Rules
from tamalou.games.tamalou.state import Game
from tests.support.bot_harness import BotHarness, find_seed
from tests.support.shared_bot import SharedBot

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

SLACK_MS = 500
NEVER = 1 << 62
DOUBLES = frozenset({"double", "double_for"})


@pytest_asyncio.fixture(loop_scope="module")
async def harness(shared_bot: SharedBot) -> AsyncIterator[BotHarness]:
    """A guild of its own on the bot the module's tests share."""
    async with shared_bot.scene() as h:
        yield h


# -- pressing buttons by what they do (their custom_id), in any language -------------------


def verb_of(custom_id: str | None) -> str:
    return (custom_id or "::").split(":")[1]


def buttons(msg: Message, verb: str) -> list[Any]:
    return [b for b in msg.buttons() if verb_of(b.custom_id) == verb and not b.disabled]


async def press(emu: Emulator, user: str, msg: Message, verb: str, index: int = 0) -> None:
    found = buttons(msg, verb)
    assert found, (verb, [b.custom_id for b in msg.buttons()])
    await emu.click(user, msg, custom_id=found[index].custom_id)


def arg_numbers(custom_id: str | None) -> list[int]:
    parts = (custom_id or "").split(":")
    return [int(p) for p in parts[3].split(".")] if len(parts) > 3 else []


# -- the scripted players -------------------------------------------------------------------


async def poll(predicate: Callable[[], bool], timeout: float) -> bool:
    """Whether ``predicate`` (read from the bot's database, which the emulator does not
    watch) comes true within ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            return False
        await asyncio.sleep(0.05)
    return True


class Script:
    """Humans at a table: each acts only through its panel, called when the oracle says it
    is their move."""

    def __init__(self, h: BotHarness, humans: list[str], calls: bool = True) -> None:
        self.h, self.emu, self.humans = h, h.emu, humans
        self.calls = calls  # call whenever the panel offers it
        self.played_for: list[A.DoubleFor] = []
        self.kinds: set[str] = set()  # the kinds of action the humans played

    def seat_of(self, g: Game, user: str) -> int:
        uid = self.emu.member(user).id
        rows = self.h.sql(
            "SELECT seats FROM matches WHERE guild_id = ? ORDER BY id DESC LIMIT 1", self.h.guild_id
        )
        seats = json.loads(rows[0]["seats"])
        return next(i for i, s in enumerate(seats) if s["user_id"] == uid)

    def grew(self, before: int, phase: str | None = None) -> Callable[[], bool]:
        """Whether the log has grown past ``before`` actions (or the phase left ``phase``)."""

        def check() -> bool:
            if len(self.h.actions()) > before:
                return True
            return phase is not None and self.h.game().round.phase != phase

        return check

    async def panel(self, user: str) -> Message:
        await press(self.emu, user, self.h.table_message(), "hand")
        return self.h.panel(user)  # the open panel, edited in place

    async def walk(self, user: str, msg: Message) -> None:
        """Follow a power's buttons to a move: narrowing steps, then a move (R-X1..R-X4)."""
        for _ in range(6):
            if buttons(msg, "act"):
                await press(self.emu, user, msg, "act")
                return
            steps = [b for b in buttons(msg, "step") if len(arg_numbers(b.custom_id)) > 1]
            if steps:
                await self.emu.click(user, msg, custom_id=steps[-1].custom_id)
                msg = self.h.panel(user)
                continue
            if buttons(msg, "qmine"):
                await press(self.emu, user, msg, "qmine")
                msg = self.h.panel(user)
                select = msg.selects()[0]
                value = select.options[0]["value"]
                await self.emu.select(user, msg, select.custom_id, [value])
                return
            for verb in ("look", "pass"):
                if buttons(msg, verb):
                    await press(self.emu, user, msg, verb)
                    return
            raise AssertionError(f"no move on the panel: {msg.text}")

    async def play_for_someone(self, g: Game, user: str) -> bool:
        """Through the table's «Play for someone»: aim at another's card of the discard top's
        rank (R-X10), naming it and one of yours, by the step buttons."""
        seat = self.seat_of(g, user)
        fors = [a for a in legal_actions(g, seat) if isinstance(a, A.DoubleFor)]
        r = g.round
        if not fors or not r.discard:
            return False
        rank = cards.rank(r.discard[-1])
        hits = [
            a
            for a in fors
            if (card := r.seats[a.target].row[a.target_slot - 1]) is not None
            and cards.rank(card) == rank
        ]
        if not hits:
            return False
        aim = hits[0]
        want = (aim.target, aim.target_slot, aim.slot)
        table = self.h.table_message()
        await press(self.emu, user, table, "for")
        msg = self.h.panel(user)
        for _ in range(4):
            finals = [
                b for b in buttons(msg, "dfor") if tuple(arg_numbers(b.custom_id)[1:4]) == want
            ]
            if finals:
                before = len(self.h.actions())
                await self.emu.click(user, msg, custom_id=finals[0].custom_id)
                assert await poll(self.grew(before), 10), "the play"
                self.played_for.append(aim)
                return True
            for b in buttons(msg, "step"):
                parts = arg_numbers(b.custom_id)
                chosen = parts[2:]
                if chosen and tuple(chosen) == want[: len(chosen)]:
                    await self.emu.click(user, msg, custom_id=b.custom_id)
                    msg = self.h.panel(user)
                    break
            else:
                raise AssertionError(f"no step towards {want}: {msg.text}")
        raise AssertionError("the play for someone was not reached")

    async def act(self, g: Game, user: str) -> None:
        """One move of ``user`` through their panel."""
        seat = self.seat_of(g, user)
        legal = {a.kind for a in legal_actions(g, seat)} - DOUBLES
        self.kinds |= legal
        msg = await self.panel(user)
        if "peek" in legal:
            return  # "My cards" opened the peek (R-S5)
        if "call" in legal and self.calls and buttons(msg, "call"):
            await press(self.emu, user, msg, "call")
        elif "draw" in legal:
            await press(self.emu, user, msg, "draw")
        elif "throw" in legal:
            await press(self.emu, user, msg, "throw")
        elif "replace" in legal:
            await press(self.emu, user, msg, "rep")
        elif "end_turn" in legal:
            await press(self.emu, user, msg, "act")
        else:
            await self.walk(user, msg)

    def next_round(self) -> list[Message]:
        """The table message, if it offers the next round now."""
        try:
            table = self.h.table_message()
        except AssertionError:  # between the table's two messages
            return []
        return [table] if buttons(table, "next") else []

    def round_moved(self, r: Any) -> bool:
        g = self.h.game()
        return g.over or g.round.round_no != r.round_no

    async def match(self, limit: int = 400) -> Game:
        """Play until the match is over."""
        for _ in range(limit):
            g = self.h.game()
            if g.over:
                return g
            await self.match_step()
        raise AssertionError("the match did not end")

    async def match_step(self) -> None:
        """One move of the match: a human's, an AI's, or the clock's."""
        h, emu = self.h, self.emu
        g = h.game()
        r = g.round
        before = len(h.actions())
        if r.phase == "over":
            # the round's end is drawn after it is stored: the table message may be moving
            # below the round's summary (none in the channel for a moment, under load)
            ready = await poll(lambda: bool(self.next_round()) or self.round_moved(r), 5)
            if not ready:  # a slow machine: the next round starts by itself (R-M4)
                h.advance(g.rules.next_round_ms + 100)
                ready = await poll(lambda: bool(self.next_round()) or self.round_moved(r), 10)
            shown = [(m.content, m.embeds, m.components) for m in h.public_messages()[-3:]]
            assert ready, f"no Next round at the round's end: {shown}"
            nexts = self.next_round()
            if not nexts:  # an AI started the next round
                return
            await press(emu, self.humans[0], nexts[0], "next")
        elif r.phase == "final":
            h.advance(g.rules.final_window_ms + 100)
        elif r.phase == "peek":
            for user in self.humans:
                if any(a.kind == "peek" for a in legal_actions(g, self.seat_of(g, user))):
                    await self.act(g, user)
            h.advance(g.rules.peek_ms + 100)
        else:
            movers = [
                u
                for u in self.humans
                if {a.kind for a in legal_actions(g, self.seat_of(g, u))} - DOUBLES
            ]
            if not movers:  # an AI's move (or a window): let it come
                if r.window_until:
                    h.advance(g.rules.open_doubles_ms + 100)
                # a slow machine: the clock plays for the AI (R-K2). Only once it waited long
                # and nothing moved: a turn's worth of clock moved just after the AI's move
                # ran the human's next turn out, and two in a row made them away (R-K4: the
                # table then closed with "every human left", once in a loaded full run)
                if not await poll(self.grew(before), 15) and len(h.actions()) == before:
                    h.advance(g.rules.turn_ms)
                assert await poll(self.grew(before), 10), "an AI move"
                return
            other = [u for u in self.humans if u != movers[0]]
            if (
                g.rules.play_for_someone
                and not self.played_for
                and other
                and await self.play_for_someone(g, other[0])
            ):
                return
            await self.act(g, movers[0])
        assert await poll(self.grew(before, r.phase), 10), "the move logged"


# -- the leak scan --------------------------------------------------------------------------


def knowledge(h: BotHarness) -> tuple[Rules, dict[int, int], dict[tuple[int, int], int]]:
    """From the bot's log: when each card became public, and when each (card, seat) became
    known to that seat alone (peeks, draws, looks, a swap shown to its target)."""
    m = h.sql("SELECT * FROM matches WHERE guild_id = ? ORDER BY id DESC LIMIT 1", h.guild_id)[0]
    seats = json.loads(m["seats"])
    rules = Rules.model_validate_json(m["rules"])
    ai = [s["ai_level"] is not None for s in seats]
    game, first = new_game(rules, len(seats), m["seed"], m["started_at"], ai)
    public: dict[int, int] = {}
    private: dict[tuple[int, int], int] = {}

    def learn(events: list[Any], at: int) -> None:
        for e in events:
            match e:
                case E.PeekShown():
                    for _, card in e.cards:
                        private.setdefault((card, e.player), at)
                case E.DrawnCard() | E.LookShown():
                    private.setdefault((e.card, e.player), at)
                case E.SwapShown():
                    for entry in e.cards:
                        for seat in e.to:
                            private.setdefault((entry[-1], seat), at)
                case E.Drew() if e.card is not None:
                    public.setdefault(e.card, at)
                case E.Replaced():
                    public.setdefault(e.discarded, at)
                case E.Threw() | E.Doubled() | E.DoubleMissed() | E.DoubledFor():
                    public.setdefault(e.card, at)
                case E.Called():
                    for _, card in e.cards:
                        public.setdefault(card, at)
                case E.RoundEnded():
                    for hand in e.hands:
                        for card in hand:
                            if card is not None:
                                public.setdefault(card, at)

    learn(first, m["started_at"])
    rows = h.sql("SELECT payload FROM actions WHERE match_id = ? ORDER BY n", m["id"])
    for row in rows:
        action = action_from_dict(json.loads(row["payload"]))
        at = max(action.at, game.now)
        learn(apply(game, action), at)
    return rules, public, private


def leaks(
    h: BotHarness, humans: list[str], secrets: bool = True
) -> list[tuple[str, int | None, str]]:
    """Every card label in a message version whose reader could not see such a card yet
    (``secrets`` False: as if nobody knew any card privately, to prove the scan sees them)."""
    rules, public, private = knowledge(h)
    if not secrets:
        private = {}
    emu = h.emu
    seats = json.loads(
        h.sql("SELECT seats FROM matches WHERE guild_id = ? ORDER BY id DESC LIMIT 1", h.guild_id)[
            0
        ]["seats"]
    )
    uid_seat = {s["user_id"]: i for i, s in enumerate(seats) if s["ai_level"] is None}
    by_label: dict[str, list[int]] = {}
    for card in rules.compiled.deck:
        by_label.setdefault(cards.label(card), []).append(card)
    bad = []
    for entry in emu.history():
        seen = entry.at_ms + SLACK_MS
        seat = uid_seat.get(entry.audience) if entry.audience is not None else None
        for text_label, ids in by_label.items():
            if text_label not in entry.text:
                continue
            if any(public.get(c, NEVER) <= seen for c in ids):
                continue
            if seat is not None and any(private.get((c, seat), NEVER) <= seen for c in ids):
                continue
            bad.append((text_label, entry.audience, entry.text[:300]))
    return bad


def no_card_in_logs(emu: Emulator, rules: Rules) -> None:
    labels = {cards.label(c) for c in rules.compiled.deck}
    for path in emu.bot_logs:
        log = Path(path).read_text(encoding="utf-8", errors="replace")
        assert [lb for lb in labels if lb in log] == [], path


# -- the matches ----------------------------------------------------------------------------


async def open_variant(h: BotHarness, variant: str, humans: list[str], ais: int) -> None:
    emu = h.emu
    await emu.slash(humans[0], "tamalou new", variant=variant)
    names = (catalog("en")[f"variant.{variant}"], catalog("fr")[f"variant.{variant}"])
    assert any(n in h.table_message().text for n in names)  # the lobby names the variant
    for user in humans[1:]:
        await press(emu, user, h.table_message(), "join")
    for _ in range(ais):
        await emu.slash(humans[0], "tamalou addbot", level="easy")
    await press(emu, humans[0], h.table_message(), "start")


def dutch_deal(g: Game) -> bool:
    """alice first, a Queen on the pile for her (swap any two, R-X2), and a Queen in bob's or
    the AI's row for a play for someone on it (R-X10)."""
    r = g.round
    return (
        r.first_player == 0
        and cards.rank(r.pile[-1]) == "Q"
        and any(c is not None and cards.rank(c) == "Q" for s in r.seats[1:] for c in s.row)
    )


@pytest.mark.one_backend
async def test_r_v1_a_whole_dutch_match_with_two_humans_and_an_ai(harness: BotHarness) -> None:
    h, emu = harness, harness.emu
    seed = find_seed(3, dutch_deal, rules=DUTCH, limit=20_000)
    await h.start(seeds=[seed])
    humans = ["alice", "bob"]
    await open_variant(h, "dutch", humans, ais=1)
    assert "Dutch" in h.table_message().text
    script = Script(h, humans)
    game = await script.match()
    assert game.rules.name == "dutch" and game.over
    log = h.actions()
    assert any(isinstance(a, A.SwapTwo) and a.player == 0 for a in log)  # narrowed, R-X2
    assert any(isinstance(a, A.DoubleFor) for a in log)  # the table's button, R-X10
    assert any(isinstance(a, A.EndTurn) for a in log) or any(
        isinstance(a, A.CallTamalou) for a in log
    )
    assert leaks(h, humans) == []
    assert leaks(h, humans, secrets=False)  # the scan does see the players' own cards
    no_card_in_logs(emu, game.rules)
    emu.check()


@pytest.mark.one_backend
async def test_r_v4_a_whole_cabo_match(harness: BotHarness) -> None:
    h, emu = harness, harness.emu
    await h.start(seeds=["cabo-e2e"])
    humans = ["alice"]
    await open_variant(h, "cabo", humans, ais=1)
    script = Script(h, humans, calls=False)
    game = await script.match()
    assert game.rules.name == "cabo" and game.over
    assert max(game.cumulative) >= 50  # R-V4: reaching 50 ends it
    assert leaks(h, humans) == []
    no_card_in_logs(emu, game.rules)
    emu.check()


@pytest.mark.one_backend
async def test_r_v2_a_whole_koubo_match_of_ten_rounds(harness: BotHarness) -> None:
    h, emu = harness, harness.emu
    await h.start(seeds=["koubo-e2e"])
    humans = ["alice"]
    await open_variant(h, "koubo", humans, ais=1)
    script = Script(h, humans)
    game = await script.match(limit=600)
    assert game.rules.name == "koubo" and game.over
    assert len(game.history) == 10  # R-V2: a match is 10 rounds
    assert "call" in script.kinds
    assert leaks(h, humans) == []
    no_card_in_logs(emu, game.rules)
    emu.check()


async def test_a_server_default_variant_and_the_rules_of_a_variant(harness: BotHarness) -> None:
    """/tamalou settings variant: (Manage Server) is the default of /tamalou new; /tamalou
    rules variant: says what a variant changes, in the reader's language."""
    h, emu = harness, harness.emu
    await h.start()
    await emu.slash("alice", "cardsadmin tamalou", variant="cabo")
    assert "variant Cabo" in emu.last_ephemeral("alice").content
    await emu.slash("dave", "tamalou new")
    lobby = h.table_message().text
    assert "Cabo" in lobby and "50" in lobby  # cabo plays to 50 (R-V4)
    await emu.slash("bob", "tamalou rules", variant="koubo")
    text = emu.last_ephemeral("bob").content
    assert "Koubo" in text and "32 cartes" in text
    await emu.slash("alice", "tamalou rules")
    assert "Variants:" in emu.last_ephemeral("alice").content
    assert "Dutch au Roi rouge" not in emu.last_ephemeral("alice").content  # English names
    await emu.slash("bob", "tamalou rules", variant="dutch_roi")
    assert "Dutch au Roi rouge" in emu.last_ephemeral("bob").content
    emu.check()


async def test_a_fixed_rounds_variant_refuses_a_target_and_says_its_rounds(
    harness: BotHarness,
) -> None:
    """Koubo plays 10 rounds (R-V2): ``target:`` on it is refused with why, in the reader's
    words, and no table opens; its lobby and table say "Match of 10 rounds" (they said
    "Match to 100 points", a target the match does not have)."""
    h, emu = harness, harness.emu
    await h.start()
    before = [m.id for m in emu.messages.values() if not m.ephemeral]
    await emu.slash("alice", "tamalou new", variant="koubo", target=60)
    said = emu.last_ephemeral("alice").content
    assert said == (
        "Koubo plays a match of 10 rounds: it has no target score. Open the table without target."
    )
    await emu.slash("bob", "tamalou new", variant="koubo", target=60)
    assert emu.last_ephemeral("bob").content.startswith("Koubo se joue en 10 manches :")
    assert "sans objectif" in emu.last_ephemeral("bob").content
    assert [m.id for m in emu.messages.values() if not m.ephemeral] == before  # no table
    await emu.slash("alice", "tamalou new", variant="koubo")
    lobby = h.table_message().text
    assert "Match of 10 rounds" in lobby and "Match to" not in lobby
    emu.check()


def roi_deal(g: Game) -> bool:
    """alice first, a plain 7 to 10 on the pile for her; of the others only dave holds that
    rank (bob and carol will claim his card, R-X10 in the R-X11 window)."""
    r = g.round
    if r.first_player != 0:
        return False
    top = cards.rank(r.pile[-1])
    if top not in ("7", "8", "9", "10"):
        return False
    holders = [i for i, s in enumerate(r.seats) if any(c and cards.rank(c) == top for c in s.row)]
    return holders == [3]


@pytest.mark.one_backend
async def test_r_x11_claims_on_one_card_are_settled_by_priority_not_by_arrival(
    harness: BotHarness,
) -> None:
    """dutch_roi: carol presses first, bob second, both playing for dave's card in the open
    doubles window; at the close bob (first in seat order after the turn player) wins."""
    h, emu = harness, harness.emu
    rules = DUTCH_ROI
    seed = find_seed(4, roi_deal, rules=rules, limit=40_000)
    await h.start(seeds=[seed])
    humans = ["alice", "bob", "carol", "dave"]
    await open_variant(h, "dutch_roi", humans, ais=0)
    script = Script(h, humans)
    for user in humans:
        await script.act(h.game(), user)  # the peek
    h.advance(rules.peek_ms + 100)
    assert await poll(lambda: h.game().round.phase == "play", 10), "the first turn"
    msg = await script.panel("alice")
    await press(emu, "alice", msg, "draw")
    await press(emu, "alice", h.panel("alice"), "throw")
    g = h.game()
    assert g.round.window_until  # R-X11: the window is open
    assert await script.play_for_someone(g, "carol")
    assert "settled when the window closes" in emu.last_ephemeral("carol").text or (
        "fermeture de la fenêtre" in emu.last_ephemeral("carol").text
    )
    assert await script.play_for_someone(h.game(), "bob")
    before = len(h.actions())
    h.advance(rules.open_doubles_ms + 100)
    assert await poll(script.grew(before), 10), "the window's close"
    events = replayed_events(h)
    claims = [e for e in events if isinstance(e, E.Claimed)]
    assert [e.player for e in claims] == [2, 1]  # carol's press came first
    won = [e for e in events if isinstance(e, E.DoubledFor)]
    lost = [e for e in events if isinstance(e, E.ClaimLost)]
    assert [e.player for e in won] == [1] and [e.player for e in lost] == [2]
    assert "bob" in h.table_message().text
    assert leaks(h, humans) == []
    emu.check()


def replayed_events(h: BotHarness) -> list[Any]:
    """Every event of the current match, folded from the bot's log."""
    m = h.sql("SELECT * FROM matches WHERE guild_id = ? ORDER BY id DESC LIMIT 1", h.guild_id)[0]
    seats = json.loads(m["seats"])
    rules = Rules.model_validate_json(m["rules"])
    ai = [s["ai_level"] is not None for s in seats]
    game, events = new_game(rules, len(seats), m["seed"], m["started_at"], ai)
    out = list(events)
    for row in h.sql("SELECT payload FROM actions WHERE match_id = ? ORDER BY n", m["id"]):
        out += apply(game, action_from_dict(json.loads(row["payload"])))
    return out


async def test_a_variant_table_survives_a_restart(harness: BotHarness) -> None:
    """A swiss table killed in the middle of a round is rebuilt from its log with its
    variant, and its match plays on to the end (elimination, R-V6)."""
    h, emu = harness, harness.emu
    await h.start(seeds=["swiss-e2e"])
    humans = ["alice"]
    await open_variant(h, "swiss", humans, ais=1)
    script = Script(h, humans)
    for _ in range(3):
        await script.match_step()
    await h.restart()
    assert "Swiss (Dune) · " in h.table_message().text  # the footer names the variant
    game = await script.match()
    assert game.rules.name == "swiss" and game.over
    assert leaks(h, humans) == []
    emu.check()


# -- every other preset: a whole match, ended by its own match rule -------------------------

#: the presets a dedicated whole-match test already plays (tamalou: tests/test_bot_e2e.py
#: test_r_m3_a_whole_match_to_100_points; the others above)
WHOLE_MATCH_ELSEWHERE = frozenset({"tamalou", "dutch", "koubo", "cabo"})
#: the rule each preset is (RULES.md R-V); fontenay's «mi-partie» is an option of R-V9
RULE_IDS = {
    "tamalou": "R-M3",
    "dutch": "R-V1",
    "koubo": "R-V2",
    "tamoul": "R-V3",
    "cabo": "R-V4",
    "classique": "R-V5",
    "swiss": "R-V6",
    "dutch_sec": "R-V7",
    "dutch_roi": "R-V8",
    "fontenay": "R-V9",
    "fontenay_half": "R-V9",
}
OTHER_PRESETS = [v for v in VARIANTS if v not in WHOLE_MATCH_ELSEWHERE]


def over_after(rules: Rules, cumulative: list[float], rounds: int, out: list[bool]) -> str | None:
    """How a match ends after ``rounds`` rounds with these scores, read from the preset's
    rules (R-M3, R-X16); None: it goes on. ``out``: the seats already eliminated."""
    seats = [i for i, o in enumerate(out) if not o]
    if rules.match_end == "elimination":
        left = [i for i in seats if cumulative[i] < rules.target]
        if len(left) <= 1:
            return f"all but the last one in eliminated at {rules.target:g}+"
    if rules.win_at is not None and any(cumulative[i] <= rules.win_at for i in seats):
        return f"a grand winner at {rules.win_at:g} or less"
    if rules.match_end == "exceed" and any(cumulative[i] > rules.target for i in seats):
        return f"a seat over {rules.target:g}"
    if rules.match_end == "reach" and any(cumulative[i] >= rules.target for i in seats):
        return f"a seat at {rules.target:g} or more"
    if rules.max_rounds is not None and rounds >= rules.max_rounds:
        return f"{rules.max_rounds} rounds played"
    return None


def match_ending(game: Game) -> str:
    """How ``game``'s match ended by its preset's match rule, checked round by round from its
    scores: the match was not over after any earlier round, and is after the last one."""
    rules = game.rules
    cumulative = [0.0] * game.players
    out = [False] * game.players
    ending = None
    for n, result in enumerate(game.history, start=1):
        assert ending is None, f"the match went on after {ending}"
        for i, score in enumerate(result.scores):
            if not result.active[i]:
                continue
            cumulative[i] += score
            if rules.exact_target_falls_to is not None and cumulative[i] == rules.target:
                cumulative[i] = rules.exact_target_falls_to  # R-X16: falls back
        ending = over_after(rules, cumulative, n, out)
        if rules.match_end == "elimination":
            out = [o or cumulative[i] >= rules.target for i, o in enumerate(out)]
    assert ending is not None, "the match ended by no rule of its preset"
    assert cumulative == game.cumulative and game.out == out
    if rules.match_end == "elimination" and not all(out) and "rounds played" not in ending:
        assert game.winners == [i for i, o in enumerate(out) if not o]  # the last one in
    else:  # the lowest of those still in wins (R-M3; swiss after its 100 rounds), ties share
        among = [i for i, a in enumerate(game.history[-1].active) if a]
        best = min(cumulative[i] for i in among)
        assert game.winners == [i for i in among if cumulative[i] == best]
    return ending


@pytest.mark.one_backend  # the presets' rules: dutch, cabo and koubo cover both backends
@pytest.mark.parametrize(
    "variant", OTHER_PRESETS, ids=[f"{RULE_IDS[v]}-{v}" for v in OTHER_PRESETS]
)
async def test_r_v_every_other_preset_plays_a_whole_match(
    harness: BotHarness, variant: str
) -> None:
    """R-V3, R-V5..R-V9 (fontenay's «mi-partie» too): one human and an AI play a whole match
    of the preset through Discord, and it ends by the preset's own match rule (R-M3, R-X16:
    a target exceeded or reached, a grand winner, fixed rounds, elimination)."""
    h, emu = harness, harness.emu
    await h.start(seeds=[f"{variant}-e2e"])
    humans = ["alice"]
    await open_variant(h, variant, humans, ais=1)
    script = Script(h, humans)
    game = await script.match(limit=1500)
    rules = game.rules
    assert rules == VARIANTS[variant] and game.over
    ending = match_ending(game)
    print(f"{variant}: {ending} after {len(game.history)} rounds, {game.cumulative}")
    # the match-over table message (edited once the bot is done) names the variant and how
    # its match ends
    footers = [lobby_value(rules, lang) for lang in ("en", "fr")]

    def named() -> bool:
        text = h.table_message().text
        return buttons(h.table_message(), "rematch") != [] and any(f in text for f in footers)

    await emu.wait_for(named, 10, "the match-over message naming the variant")
    assert any(display_name(variant, lang) in h.table_message().text for lang in ("en", "fr"))
    assert leaks(h, humans) == []
    no_card_in_logs(emu, rules)
    emu.check()
