"""End to end through the Discord emulator: tarot deals with humans and AI players.

Every test ends with a leak scan: every version of every message (and every picture the bot
attached, through the description it stores inside the PNG) is checked against what its
reader could know at that moment, rebuilt from the bot's own log with the engine.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.games.tarot.faces import face, label
from bot.ui.cards import read_description
from emulator import Emulator, Message
from emulator.model import CREATE_PUBLIC_THREADS
from tamalou.games.tarot import actions as A
from tamalou.games.tarot.cards import DECK, code, from_code
from tamalou.games.tarot.codec import action_from_dict
from tamalou.games.tarot.engine import apply, new_game, playable
from tamalou.games.tarot.rules import TAROT, TAROT5, Rules
from tamalou.games.tarot.scoring import camps, deal_outcome
from tamalou.games.tarot.state import Game
from tests.bot.tarot.harness import (
    TarotHarness,
    find_seed,
    open_table,
    play_until,
    simulate_bidding,
)
from tests.support.bot_harness import BotHarness  # noqa: F401 (on every e2e backend: tests/conftest.py)
from tests.support.leak_scan import entry_faces, entry_text
from tests.support.shared_bot import SharedBot

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

SLACK_MS = 500
NEVER = 1 << 62
KINGS = [from_code(f"K{s}") for s in "shdc"]
FOUR = {"rules": TAROT, "players": 4, "ai": {2: "medium", 3: "medium"}, "bids": {0: 2}}
HUMANS = {0: "alice", 1: "bob"}


@pytest_asyncio.fixture(loop_scope="module")
async def harness(shared_bot: SharedBot) -> AsyncIterator[TarotHarness]:
    """A guild of its own on the bot the module's tests share."""
    async with shared_bot.scene(TarotHarness) as h:
        assert isinstance(h, TarotHarness)
        yield h


# -- the leak scan -------------------------------------------------------------------------

CARD_FIELDS = ("card", "cards", "hand", "trumps", "dog", "ecart", "called")


def _cards_of(e: Any) -> list[int]:
    out: list[int] = []
    for name in CARD_FIELDS:
        value = getattr(e, name, None)
        if isinstance(value, int):
            out.append(value)
        elif isinstance(value, tuple):
            out += [c for c in value if isinstance(c, int)]
    return out


def knowledge(h: TarotHarness) -> tuple[dict[int, int], dict[tuple[int, int], int]]:
    """From the bot's log: when each card became public, and when each seat first saw it."""
    m = h.newest_match()[0]
    seats = json.loads(m["seats"])
    game, events = new_game(
        Rules.model_validate_json(m["rules"]),
        len(seats),
        m["seed"],
        m["started_at"],
        [s["ai_level"] is not None for s in seats],
    )
    public: dict[int, int] = {}
    private: dict[tuple[int, int], int] = {}

    def learn(evs: list[Any], at: int) -> None:
        for e in evs:
            if e.to == ():
                continue  # the log only
            for c in _cards_of(e):
                if e.to is None:
                    public.setdefault(c, at)
                else:
                    for seat in e.to:
                        private.setdefault((c, seat), at)

    learn(events, m["started_at"])
    for r in h.sql("SELECT payload FROM actions WHERE match_id = ? ORDER BY n", m["id"]):
        action = action_from_dict(json.loads(r["payload"]))
        learn(apply(game, action), max(action.at, game.now))
    return public, private


LABELS = {label(code(c), lang): c for c in DECK for lang in ("en", "fr")}
FACES = {face(code(c), lang): c for c in DECK for lang in ("en", "fr")}
TOKEN = re.compile(r"`([^`]+)`")


def cards_in(entry: Any) -> set[int]:
    """The cards a message version shows: `card` tokens in its text (the pictures' alt text
    included), card emojis in its text and on its components (tests/support/leak_scan.py), the faces
    of its pictures, and buttons and select options that are a card (a "Call K♠" button
    names a card without showing it)."""
    text = entry_text(entry) + "\n" + json.dumps(entry.embeds, ensure_ascii=False)
    found = {LABELS[t] for t in TOKEN.findall(text) if t in LABELS}
    found |= {FACES[f] for f in entry_faces(entry) if f in FACES}
    for row in entry.components:
        for comp in row.get("components", []):
            names = [comp.get("label") or ""] + [
                o.get("label", "") for o in comp.get("options", [])
            ]
            found |= {LABELS[name] for name in names if name in LABELS}
    return found


def leaks(h: TarotHarness, players: list[str]) -> list[tuple[Any, ...]]:
    emu = h.emu
    public, private = knowledge(h)
    seat_of = {emu.member(p).id: s for s, p in enumerate(players)}

    def may_see(card: int, audience: int | None, at: int) -> bool:
        if public.get(card, NEVER) <= at + SLACK_MS:
            return True
        seat = seat_of.get(audience) if audience is not None else None
        return seat is not None and private.get((card, seat), NEVER) <= at + SLACK_MS

    # the scan can fail: a card of alice's hand never became public, and bob never saw it
    dealt = min(private.values())
    secret = next(c for (c, s), at in private.items() if s == 0 and at == dealt)
    assert public.get(secret, NEVER) > dealt + SLACK_MS
    assert not may_see(secret, emu.member("bob").id, dealt)
    assert may_see(secret, emu.member("alice").id, dealt)
    bad: list[tuple[Any, ...]] = []
    seen = pictures = 0
    for entry in emu.history():
        seen += len(cards_in(entry))
        for card in cards_in(entry):
            if not may_see(card, entry.audience, entry.at_ms):
                bad.append((code(card), entry.audience, entry.action, entry.text[:300]))
    # pictures: the faces each attached PNG says it shows, and who received it
    users = {i.token: i.user_id for i in emu.interactions.values()}
    faces = FACES
    for req in emu.requests:
        if not req.files:
            continue
        token = next((tok for tok in users if tok in req.path), None)
        audience = users[token] if token is not None else None
        for f in req.files:
            pictures += 1
            described = read_description(f.data)
            assert described is not None, f"{f.filename}: no description of its faces"
            for shown in described["faces"]:
                card = faces[shown]
                if not may_see(card, audience, req.at_ms):
                    bad.append((code(card), audience, "picture", f.filename))
    assert seen > 50 and pictures > 5, (seen, pictures)  # the scan looked at something
    return bad


def reveal_time(h: TarotHarness) -> int:
    """When the called card was played (``PartnerRevealed``), from the bot's log."""
    m = h.newest_match()[0]
    seats = json.loads(m["seats"])
    rules = Rules.model_validate_json(m["rules"])
    ai = [s["ai_level"] is not None for s in seats]
    game, _ = new_game(rules, len(seats), m["seed"], m["started_at"], ai)
    for r in h.sql("SELECT payload FROM actions WHERE match_id = ? ORDER BY n", m["id"]):
        action = action_from_dict(json.loads(r["payload"]))
        at = max(action.at, game.now)
        if any(e.kind == "partner_revealed" for e in apply(game, action)):
            return at
    raise AssertionError("the called card was not played")


async def stale_press(emu: Emulator, user: str, msg: Message, custom_id: str) -> None:
    """A press on a button the message no longer (or never) shows: a stale or forged click."""
    data = {"custom_id": custom_id, "component_type": 2}
    inter = emu._new_interaction(
        3, emu.member(user), emu.channel(None), custom_id, data, locale=None, at=None, message=msg
    )
    comp = {"type": 2, "style": 2, "label": "card", "custom_id": custom_id}
    inter.payload["message"]["components"] = [{"type": 1, "components": [comp]}]
    await emu._send(inter, True, 10.0)


# -- the tests -----------------------------------------------------------------------------


@pytest.mark.parametrize("shown_as", ["text", "emojis"])
@pytest.mark.one_backend
async def test_a_four_player_deal_from_bidding_to_score(
    harness: TarotHarness, shown_as: str
) -> None:
    """T-B2, T-B4, T-B5, T-P3, T-E5: two humans and two AI players; alice takes a Garde, lays
    her écart with the multi-select, the deal is played out and scored. Once with cards as
    text, once as emojis (issue 14): the same leak scan reads emojis and pictures."""
    h = harness
    seed = find_seed(lambda g: g.deal.taker == 0 and g.deal.contract == 2, **FOUR)
    emojis = shown_as == "emojis"
    await h.start(seeds=[seed], TAMALOU_CARD_EMOJIS="1" if emojis else "0")
    if emojis:
        log = lambda: Path(h.emu.bot_logs[-1]).read_text(encoding="utf-8", errors="replace")  # noqa: E731
        await h.emu.wait_for(lambda: "card emojis ready" in log(), 60, "the card emojis")
    await open_table(h, ["alice", "bob"], ai=2)
    game = await play_until(h, HUMANS, lambda g: g.deal.phase == "ecart", bids={0: 2})
    assert game.deal.taker == 0
    table = await h.shows("alice** takes: Garde")  # the contract, and the dog shown (T-B4)
    assert "Dog" in table.text
    panel = await h.open_panel("alice")
    assert "You are the taker (Garde)" in panel.content
    assert any(s.custom_id.startswith("tarot:pick:") for s in panel.selects())
    game = await play_until(h, HUMANS, lambda g: g.deal.phase == "over", bids={0: 2})
    table = await h.shows("deal 1/4 is over")
    assert "Standings" in table.text and "alice" in table.text
    rounds = h.sql("SELECT * FROM rounds WHERE match_id = ?", h.newest_match()[0]["id"])
    assert len(rounds) == 1
    result = game.history[-1]
    assert sum(result.scores) == 0  # T-E5
    assert f"{result.scores[0]:+d} this deal" in table.text
    if emojis:
        shown_cards(h)
    assert leaks(h, ["alice", "bob"]) == []


def shown_cards(h: TarotHarness) -> None:
    """With emojis: the cards are emojis in the table's text and on the panels' components,
    the panel carries a picture of the hand, the table message a picture of the trick."""
    history = h.emu.history()
    public = [e for e in history if e.audience is None]
    private = [e for e in history if e.audience is not None]
    assert any("<:" in e.text and entry_faces(e) for e in public)  # e.g. the dog, a trick
    assert any(
        "emoji" in json.dumps(e.components) and entry_faces(e) for e in private
    )  # card buttons and select options carry their card's emoji
    hands = [f for e in private for f in e.files if f.filename == "hand.png"]
    assert hands and read_description(hands[0].data) is not None
    tricks = [f for e in public for f in e.files if f.filename.startswith("trick-")]
    assert tricks, "no trick picture on the table message"
    assert all(f in FACES for f in read_description(tricks[-1].data)["faces"])


async def test_an_illegal_card_is_refused_with_the_reason(harness: TarotHarness) -> None:
    """T-P3: a card that does not follow the suit led (a stale or forged button) is refused by
    the engine, the player reads why, and the game is unchanged."""
    h = harness
    seed = find_seed(lambda g: g.deal.taker == 0 and g.deal.contract == 2, **FOUR)
    await h.start(seeds=[seed])
    await open_table(h, ["alice", "bob"], ai=2)

    def bob_must_follow(g: Game) -> bool:
        d = g.deal
        if d.phase != "play" or d.current != 1 or not d.tricks[-1].cards:
            return False
        return any(c not in playable(g, 1) for c in d.seats[1].hand)

    game = await play_until(h, HUMANS, bob_must_follow, bids={0: 2})
    if game.deal.phase == "over":
        pytest.skip("bob never had to follow in this deal")
    wrong = next(c for c in game.deal.seats[1].hand if c not in playable(game, 1))
    panel = await h.open_panel("bob")
    assert f"tarot:play:{h.table_id()}:{game.deal.deal_no}.{wrong}" not in json.dumps(
        panel.components
    )  # the panel offers the engine's list only
    logged = len(h.sql("SELECT * FROM actions WHERE match_id = ?", h.newest_match()[0]["id"]))
    await stale_press(h.emu, "bob", panel, f"tarot:play:{h.table_id()}:{game.deal.deal_no}.{wrong}")
    answer = h.emu.last_ephemeral("bob").content
    assert "Vous devez" in answer  # bob reads French: "follow" / "trump" / "go higher"
    assert (
        len(h.sql("SELECT * FROM actions WHERE match_id = ?", h.newest_match()[0]["id"])) == logged
    )  # nothing applied
    # T-K2/T-K3: bob lets his clock run out; the bot plays his lowest legal card
    h.advance(31_000)
    await h.shows("bob ran out of time")
    after = h.game()
    auto = next(t for t in reversed(after.deal.tricks) if 1 in t.players)
    assert auto.cards[auto.players.index(1)] in playable(game, 1)
    assert leaks(h, ["alice", "bob"]) == []


@pytest.mark.one_backend
async def test_five_players_the_called_partner_stays_secret_until_the_card_is_played(
    harness: TarotHarness,
) -> None:
    """T-5.1–T-5.3: alice calls the King bob holds; bob's panel tells him, no public message
    names him until the King is played; then the table shows the camps."""
    h = harness

    def bob_holds_a_king(g: Game) -> bool:
        d = g.deal
        hand0, hand1 = d.seats[0].hand, d.seats[1].hand
        return d.taker == 0 and any(k in hand1 and k not in hand0 for k in KINGS)

    five = {"rules": TAROT5, "players": 5, "ai": {2: "medium", 3: "medium", 4: "medium"}}
    seed = find_seed(bob_holds_a_king, bids={0: 2}, **five)
    dealt = new_game(TAROT5, 5, seed, 0, [False, False, True, True, True])[0]
    king = next(
        k for k in KINGS if k in dealt.deal.seats[1].hand and k not in dealt.deal.seats[0].hand
    )
    await h.start(seeds=[seed])
    await open_table(h, ["alice", "bob"], ai=3, preset="tarot5")
    game = await play_until(h, HUMANS, lambda g: g.deal.phase == "play", bids={0: 2}, call=king)
    assert game.deal.called == king and game.deal.partner == 1
    table = await h.shows(f"Called card: `{label(code(king), 'en')}`")
    assert "partner still secret" in table.text
    panel = await h.open_panel("bob")
    assert "vous jouez avec alice" in panel.content  # bob reads French
    game = await play_until(
        h, HUMANS, lambda g: any(king in t.cards for t in g.deal.tricks), bids={0: 2}, call=king
    )
    revealed = reveal_time(h)  # the moment the King fell, from the bot's log
    await h.shows("partner: **bob**")
    for entry in h.emu.history():
        if entry.audience is None and entry.at_ms < revealed - SLACK_MS:
            assert "partner: **bob**" not in entry.text
            assert "bob plays with the taker" not in entry.text
    assert all("you play with" not in m.content for m in h.emu.ephemerals("alice"))
    await play_until(h, HUMANS, lambda g: g.deal.phase == "over", bids={0: 2}, call=king)
    assert leaks(h, ["alice", "bob"]) == []


async def test_a_restart_in_the_middle_of_a_trick_loses_nothing(harness: TarotHarness) -> None:
    """The table is rebuilt from the log after a SIGKILL in the middle of trick 2; the same
    message's buttons still work and the deal goes on to its score."""
    h = harness
    seed = find_seed(lambda g: g.deal.taker == 0 and g.deal.contract == 2, **FOUR)
    await h.start(seeds=[seed])
    await open_table(h, ["alice", "bob"], ai=2)

    def mid_trick_two(g: Game) -> bool:
        d = g.deal
        return d.phase == "play" and len(d.tricks) == 2 and len(d.tricks[-1].cards) in (1, 2)

    before = await play_until(h, HUMANS, mid_trick_two, bids={0: 2})
    assert mid_trick_two(before)
    played = [list(t.cards) for t in before.deal.tricks]
    await h.restart()
    after = h.game()
    assert [list(t.cards) for t in after.deal.tricks][: len(played)] == played
    await h.shows("Trick 2")
    # trick 1 is still readable after trick 2's lead: its cards and who took it
    previous = (await h.shows("Previous trick (1)")).text.split("Previous trick (1)", 1)[1]
    assert "🏆" in previous.splitlines()[1]
    game = await play_until(h, HUMANS, lambda g: g.deal.phase == "over", bids={0: 2})
    assert len(game.history) == 1
    await h.shows("deal 1/4 is over")
    assert leaks(h, ["alice", "bob"]) == []


async def test_a_closed_tarot_table_is_titled_tarot(harness: TarotHarness) -> None:
    """The shared "table is closed" message names the table's game (the plugin's
    ``display_name``), not Tamalou."""
    h = harness
    await h.start()
    await h.emu.slash("alice", "tarot new")
    table = h.table_message()
    await h.emu.slash("alice", "tarot cancel")
    await h.emu.wait_for(lambda: not table.components, 10, "the table to close")
    title = table.embeds[0]["title"]
    assert title == f"Tarot — table {h.table_id()} is closed"
    assert "Tamalou" not in table.text


def poignee_seed() -> str:
    """A seed where alice (seat 0, four players) holds at least ten trumps (T-A2: a simple
    poignée at four) and the deal is taken."""
    for i in range(20_000):
        seed = f"tarot{i}"
        dealt = new_game(TAROT, 4, seed, 0, [False, False, True, True])[0]
        if sum(1 for c in dealt.deal.seats[0].hand if code(c).startswith("T")) < 10:
            continue
        if simulate_bidding(seed=seed, **FOUR) is not None:
            return seed
    raise AssertionError("no seed gives alice ten trumps")


@pytest.mark.one_backend
async def test_t_a2_t_a3_a_poignee_is_announced_shown_on_the_table_and_scored(
    harness: TarotHarness,
) -> None:
    """T-A2: alice holds ten trumps; her panel offers a simple poignée with her card to the
    first trick; she shows it, the table message shows the trumps; T-A3: the deal's score
    carries the 20-point bonus (the engine's score with and without it differ by 20 per
    defender), and the deal-over message names it."""
    h = harness
    seed = poignee_seed()
    await h.start(seeds=[seed])
    await open_table(h, ["alice", "bob"], ai=2)

    def alice_leads_or_plays_to_trick_one(g: Game) -> bool:
        d = g.deal
        first = len(d.tricks) <= 1 and (not d.tricks or 0 not in d.tricks[-1].players)
        return d.phase == "play" and d.current == 0 and first

    game = await play_until(h, HUMANS, alice_leads_or_plays_to_trick_one, bids={0: 2})
    assert alice_leads_or_plays_to_trick_one(game), game.deal.phase
    panel = await h.open_panel("alice")
    tid, deal = h.table_id(), game.deal.deal_no
    assert "You may show a poignée of 10" in panel.content
    button = f"tarot:poig:{tid}:{deal}.1"
    assert button in json.dumps(panel.components)
    assert any(s.custom_id == f"tarot:pick:{tid}:{deal}.20" for s in panel.selects())
    await h.emu.click("alice", panel, custom_id=button)
    await h.emu.wait_for(lambda: h.game().deal.seats[0].poignee == 1, 10, "the poignée")
    shown = [code(c) for c in h.game().deal.seats[0].poignee_cards]
    assert len(shown) == 10 and all(c.startswith("T") for c in shown)
    table = await h.shows("**alice**: simple poignée")
    assert "Poignées" in table.text
    assert all(f"`{label(c, 'en')}`" in table.text for c in shown)  # the trumps, public
    game = await play_until(h, HUMANS, lambda g: g.deal.phase == "over", bids={0: 2})
    table = await h.shows("deal 1/4 is over")
    assert "alice showed a simple poignée." in table.text
    result = game.history[-1]
    assert result.poignees[0] == 1
    rules = TAROT
    common: dict[str, Any] = {
        "rules": rules,
        "camp": camps(4, result.taker, result.partner),
        "taker": result.taker,
        "partner": result.partner,
        "contract": result.contract,
        "attack_hp": result.attack_hp,
        "oudlers": result.oudlers,
        "pab": result.petit_au_bout,
        "chelem": result.chelem,
    }
    scored = deal_outcome(poignees=result.poignees, **common)
    without = deal_outcome(poignees=[0, 0, 0, 0], **common)
    assert list(scored.scores) == list(result.scores)
    assert abs(scored.per_defender - without.per_defender) == rules.poignee_bonus[0] == 20
    assert f"**alice**: {result.scores[0]:+d} this deal" in table.text
    assert leaks(h, ["alice", "bob"]) == []


# -- the turn ping -------------------------------------------------------------------------


def pings(h: TarotHarness) -> list[Message]:
    return [m for m in h.emu.channel_messages() if m.mentions]


async def test_the_human_to_bid_or_lay_the_ecart_is_pinged_and_the_last_ping_goes(
    harness: TarotHarness,
) -> None:
    """A tarot player was never told their turn had come (only Tamalou pinged). The seat to
    act is pinged, a mention allowed for them only and no card named (T-B2: alice speaks
    first; T-B5: her écart); the previous ping is deleted when the turn moves on; an AI's
    turn pings nobody; ``/tarot ping on:False`` turns it off for that member."""
    h, emu = harness, harness.emu
    seed = find_seed(lambda g: g.deal.dealer == 3 and g.deal.taker == 0, **FOUR)
    await h.start(seeds=[seed], TAMALOU_PING_AFTER_S="1")  # slow after a second
    await open_table(h, ["alice", "bob"], ai=2)
    alice, bob = emu.member("alice"), emu.member("bob")
    game = await h.wait_turn(HUMANS)
    assert game.deal.phase == "bid" and game.deal.current == 0
    await emu.wait_for(lambda: pings(h), 10, "alice's ping")
    (first,) = pings(h)
    assert first.mentions == [alice.id] and f"your turn at table {h.table_id()}" in first.content
    sent = [r for r in emu.requests_to("POST", "/messages") if "<@" in str(r.body)]
    assert [int(u) for u in sent[-1].body["allowed_mentions"]["users"]] == [alice.id]
    assert sent[-1].body["allowed_mentions"]["parse"] == []
    await emu.slash("bob", "tarot ping", on=False)
    assert "ne serez plus notifié" in emu.last_ephemeral("bob").content
    await h.act("alice", game, 0, A.Bid(0, 2))  # Garde
    await emu.wait_for(lambda: h.game().deal.current == 1, 10, "bob's turn to bid")
    await emu.wait_for(lambda: not pings(h), 10, "alice's ping to go")  # bob: none
    await emu.slash("bob", "tarot ping", on=True)
    await h.act("bob", h.game(), 1, A.Bid(1, 0))  # pass; the AI players speak, alice takes
    await emu.wait_for(lambda: h.game().deal.phase == "ecart", 20, "alice's écart")
    # bob's own ping (his turn may have waited a second after he turned them on) may be
    # still going
    await emu.wait_for(
        lambda: [p.mentions for p in pings(h)] == [[alice.id]], 10, "alice's ping for her écart"
    )
    (ecart,) = pings(h)
    assert ecart.id != first.id and ecart.mentions == [alice.id]
    assert bob.id not in ecart.mentions
    # whose turn it is and the table, nothing else: no card (the dog is on the table)
    assert ecart.content == f"<@{alice.id}>, your turn at table {h.table_id()}."


@pytest.mark.one_backend
async def test_one_private_panel_per_member_over_a_whole_four_human_deal(
    harness: TarotHarness,
) -> None:
    """Issue 21: four humans play a whole deal, each pressing "My hand" before every move
    (bids, écart, every card); each member's open panel of the deal is edited in place, so
    a deal posts each of them at most three new ephemeral messages (it posted one a press)."""
    h = harness
    four = {"rules": TAROT, "players": 4, "ai": {}, "bids": {0: 2}}
    seed = find_seed(lambda g: g.deal.taker == 0, **four)
    await h.start(seeds=[seed])
    humans = {0: "alice", 1: "bob", 2: "carol", 3: "dave"}
    await open_table(h, list(humans.values()), ai=0)
    game = await play_until(h, humans, lambda g: g.deal.phase == "over", bids={0: 2})
    assert game.deal.phase == "over"
    await h.shows("deal 1/4 is over")
    new = {user: len(h.emu.ephemerals(user)) for user in humans.values()}
    assert all(n <= 3 for n in new.values()), new
    assert leaks(h, list(humans.values())) == []
    # issue 25: a panel edit that keeps the hand (a turn's start waking the panel, a bid)
    # keeps its picture; it rendered and uploaded the same picture again
    kept, again = uploads_of_the_same_picture(h)
    assert kept > 10 and again == 0, (kept, again)  # 71 uploaded again before


def uploads_of_the_same_picture(h: TarotHarness) -> tuple[int, int]:
    """Over every private message's versions: the edits that kept its hand picture (the
    same attachment), and those that uploaded the very same bytes as a new attachment."""
    last: dict[int, Any] = {}
    kept = again = 0
    for entry in h.emu.history():
        if entry.audience is None or entry.action not in ("edit", "create"):
            continue
        hand = next((f for f in entry.files if f.filename == "hand.png"), None)
        before = last.get(entry.message_id)
        if hand is not None and before is not None:
            if hand.id == before.id:
                kept += 1
            elif hand.data == before.data:
                again += 1
        last[entry.message_id] = hand
    return kept, again


# -- threads (issue 22) ------------------------------------------------------------------------


@pytest.mark.one_backend
async def test_a_tarot_table_plays_in_its_thread_until_it_is_cancelled(
    harness: TarotHarness,
) -> None:
    """The lobby in the channel, the deal in the thread started from it (AI players
    included), the channel keeping only the summary; a restart goes on in the same thread;
    cancelled, the thread is archived."""
    h, emu = harness, harness.emu
    await h.start(TAMALOU_THREADS="1")
    await open_table(h, ["alice", "bob"], ai=2)
    lobby = emu.channel_messages("general")[0]
    (thread,) = emu.threads("general")
    assert thread.id == lobby.id
    await emu.wait_for(lambda: h.table_message().channel_id == thread.id, 10, "the deal")
    assert emu.channel_messages("general") == [lobby] and not lobby.buttons()
    assert f"<#{thread.id}>" in lobby.text and "alice, bob" in lobby.text
    await h.restart()
    table = h.table_message()
    assert table.channel_id == thread.id and emu.threads("general") == [thread]
    await emu.slash("alice", "tarot cancel")  # in the channel: the table is still found
    await emu.wait_for(lambda: thread.archived, 10, "the thread archived")
    assert "cancelled" in lobby.text


@pytest.mark.one_backend
async def test_without_thread_permissions_a_tarot_table_plays_in_the_channel(
    harness: TarotHarness,
) -> None:
    h, emu = harness, harness.emu
    emu.deny_bot(CREATE_PUBLIC_THREADS)
    await h.start(TAMALOU_THREADS="1")
    await open_table(h, ["alice", "bob"], ai=2)
    assert emu.threads("general") == [] and not emu.requests_to("POST", "/threads")
    assert "plays in this channel" in emu.ephemerals("alice")[0].content
    await emu.wait_for(
        lambda: h.table_message().channel_id == emu.channel("general").id, 10, "the deal"
    )
