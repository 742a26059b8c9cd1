"""End to end: no message ever shows a card to someone who may not see it at that moment.

Three humans play a scripted round through Discord with many secret-bearing actions
(peeks, draws, replaces, a King look, a Queen swap, doubles, a wrong call, timeouts). Then
every version of every message (``emu.history()``, with its audience) is checked against
what each reader could know at that time, rebuilt from the bot's own log with the engine:
a card is public from the moment it is discarded, shown by a miss or a call, or revealed at
the round's end; it is private to a player from their peek, look or draw of it.

A card is read wherever it can reach a reader (issue 14, tests/support/leak_scan.py): its text
label, a card emoji in the text or on a component, and the faces a picture shows (read from
the bot's description stored in the PNG). The round is played twice: cards as text, and
cards as application emojis with pictures.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.ui.cards import local_text
from emulator import Emulator, Message
from emulator.model import HistoryEntry
from tamalou.core import cards
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.codec import action_from_dict
from tamalou.games.tamalou.engine import apply, new_game
from tamalou.games.tamalou.rules import TAMALOU, Rules
from tamalou.games.tamalou.state import Game
from tests.support.bot_harness import BotHarness, find_seed
from tests.support.leak_scan import entry_faces, entry_text, message_faces, message_text

pytestmark = pytest.mark.e2e

FACES = ("J", "Q", "K")
PLAYERS = ["alice", "bob", "carol"]
#: the bot's clock and the emulator's may differ by a few ms (the clock file is cached)
SLACK_MS = 500
NEVER = 1 << 62


@pytest.fixture
async def harness(emulator: Emulator, tmp_path: Path) -> BotHarness:
    return BotHarness(emulator, tmp_path)


def rank(card: int | None) -> str:
    assert card is not None
    return cards.rank(card)


def total(row: list[int | None]) -> float:
    value = TAMALOU.compiled.value
    return sum(value[c] for c in row if c is not None)


def wanted(g: Game) -> bool:
    """alice first; she draws a King; bob keeps a plain card and discards his card 3, which
    carol can double; carol draws a Queen (after alice's penalty card); the rest are plain."""
    r = g.round
    pile, b, c = r.pile, r.seats[1], r.seats[2]
    b3 = b.row[2]
    return (
        r.first_player == 0
        and rank(pile[-1]) == "K"
        and rank(pile[-2]) not in FACES
        and rank(b3) not in FACES
        and rank(c.row[1]) == rank(b3)
        and rank(pile[-4]) == "Q"
        and rank(pile[-5]) not in FACES
        and total([b.row[0], b.row[1], pile[-2], b.row[3]]) > 5
        and rank(pile[-7]) not in FACES
    )


async def stale_press(emu: Emulator, user: str, msg: Message, custom_id: str | None) -> None:
    """A press on a button as it was before the message changed (a slow client)."""
    assert custom_id is not None
    data = {"custom_id": custom_id, "component_type": 2}
    inter = emu._new_interaction(
        3, emu.member(user), emu.channel(None), custom_id, data, locale=None, at=None, message=msg
    )
    comp = {"type": 2, "style": 2, "label": "Double", "custom_id": custom_id}
    inter.payload["message"]["components"] = [{"type": 1, "components": [comp]}]
    await emu._send(inter, True, 10.0)


def violations(
    emu: Emulator, players: list[str], public: dict[int, int], private: dict[tuple[int, int], int]
) -> list[tuple[str, int | None, str, int, str]]:
    """Every card shown in a message version whose reader could not see that card yet."""
    uid_seat = {emu.member(p).id: s for s, p in enumerate(players)}
    return scan(emu.history(), uid_seat, public, private)


def words(card: int) -> tuple[str, ...]:
    """A card as text for every reader: ``K♥``, and ``R♥`` for a French one."""
    return (cards.label(card), local_text(cards.code(card), "fr"))


def shown_cards(entry: HistoryEntry) -> set[int]:
    """The deck's cards an entry shows: labels in its text (alt text included), card
    emojis in its text and components, faces in its pictures."""
    deck = TAMALOU.compiled.deck
    text = entry_text(entry)
    by_label = {c for c in deck if any(word in text for word in words(c))}
    codes = set(entry_faces(entry))
    return by_label | {c for c in deck if cards.code(c) in codes}


def scan(
    entries: list[HistoryEntry],
    uid_seat: dict[int, int],
    public: dict[int, int],
    private: dict[tuple[int, int], int],
) -> list[tuple[str, int | None, str, int, str]]:
    """(label, audience, action, seq, text) of each card shown to a reader too early."""
    bad = []
    for entry in entries:
        seen = entry.at_ms + SLACK_MS
        seat = uid_seat.get(entry.audience) if entry.audience is not None else None
        for card in sorted(shown_cards(entry)):
            if public.get(card, NEVER) <= seen:
                continue
            if seat is not None and private.get((card, seat), NEVER) <= seen:
                continue
            bad.append(
                (cards.label(card), entry.audience, entry.action, entry.seq, entry.text[:200])
            )
    return bad


def shows(msg: Message, card: int) -> bool:
    """The message shows ``card``, as text, as an emoji or in a picture."""
    text = message_text(msg)
    return any(word in text for word in words(card)) or cards.code(card) in message_faces(msg)


def knowledge(h: BotHarness) -> tuple[dict[int, int], dict[tuple[int, int], int], int]:
    """From the bot's log: when each card became public, when each (card, seat) became
    known privately, and when the round ended."""
    m = h.sql("SELECT * FROM matches ORDER BY id DESC LIMIT 1")[0]
    seats = json.loads(m["seats"])
    game, _ = new_game(
        Rules.model_validate_json(m["rules"]), len(seats), m["seed"], m["started_at"]
    )
    public: dict[int, int] = {}
    private: dict[tuple[int, int], int] = {}
    ended = 0

    def show(card: int | None, at: int, seat: int | None = None) -> None:
        if card is None:
            return
        if seat is None:
            public.setdefault(card, at)
        else:
            private.setdefault((card, seat), at)

    rows = h.sql("SELECT payload FROM actions WHERE match_id = ? ORDER BY n", m["id"])
    for row in rows:
        action = action_from_dict(json.loads(row["payload"]))
        at = max(action.at, game.now)
        for e in apply(game, action):
            match e:
                case E.PeekShown():
                    for _, card in e.cards:
                        show(card, at, e.player)
                case E.DrawnCard():
                    show(e.card, at, e.player)
                case E.LookShown():
                    show(e.card, at, e.player)
                case E.Drew():
                    show(e.card, at)
                case E.Replaced():
                    show(e.discarded, at)
                    show(e.kept, at)
                case E.Threw() | E.Doubled() | E.DoubleMissed():
                    show(e.card, at)
                case E.Called():
                    for _, card in e.cards:
                        show(card, at)
                case E.RoundEnded():
                    ended = ended or at
                    for hand in e.hands:
                        for card in hand:
                            show(card, at)
    return public, private, ended


@pytest.mark.parametrize("shown_as", ["text", "emojis"])
async def test_no_card_reaches_a_reader_before_they_may_see_it(
    harness: BotHarness, shown_as: str
) -> None:
    h, emu = harness, harness.emu
    seed = find_seed(3, wanted, limit=60_000)
    await h.start(seeds=[seed], TAMALOU_CARD_EMOJIS="1" if shown_as == "emojis" else "0")
    if shown_as == "emojis":
        await emu.wait_for(lambda: "card emojis ready" in bot_log(emu), 60, "the card emojis")
    await emu.slash("alice", "tamalou new")
    for p in PLAYERS[1:]:
        await emu.click(p, h.table_message(), "Join")
    await emu.click("alice", h.table_message(), "Start")
    for p in PLAYERS:
        await emu.click(p, h.table_message(), "My cards")
    h.advance(5_100)
    await emu.wait_for(lambda: "**alice** to play" in h.table_message().text, 10, "alice's turn")
    g = h.game()
    a2, a3 = g.round.seats[0].row[1], g.round.seats[0].row[2]
    kept_by_bob = g.round.pile[-2]
    # alice: a King, thrown; she looks at her card 2
    await emu.click("alice", h.table_message(), "Draw")
    await emu.click("alice", h.panel("alice"), "Throw it")
    await emu.click("alice", h.panel("alice"), "Look at 2")
    assert shows(h.panel("alice"), a2)
    if shown_as == "emojis":  # her own card: its emoji, and her row as a picture
        assert cards.code(a2) in message_faces(h.panel("alice"))
        assert h.panel("alice").attachments
    h.advance(2_100)
    await emu.wait_for(lambda: not shows(emu.last_ephemeral("alice"), a2), 10, "the look hidden")
    # bob: draws (rather than the transmitted look) and keeps the card in slot 3
    await emu.click("bob", h.table_message(), "My cards")
    await emu.click("bob", h.panel("bob"), "Piocher")
    await emu.click("bob", h.panel("bob"), "Remplacer 3")
    # carol doubles bob's discarded card; alice's press on the same button is too late
    table = h.table_message()
    stale = table.button("Double 2").custom_id
    await emu.click("carol", table, "Double 2")
    assert "Double !" in emu.last_ephemeral("carol").content
    await stale_press(emu, "alice", table, stale)  # her screen still showed the button
    assert "Too late" in emu.last_ephemeral("alice").content
    # carol: a Queen, thrown; she swaps her card 1 with alice's card 3
    await emu.click("carol", h.table_message(), "Draw")
    await emu.click("carol", h.panel("carol"), "Jeter")
    await emu.click("carol", h.panel("carol"), "Ma carte 1")
    await emu.select("carol", h.panel("carol"), None, ["0.3"])
    assert h.game().round.seats[2].row[0] == a3
    h.advance(2_100)
    # alice: draws (rather than the transmitted swap) and keeps it in slot 1
    await emu.click("alice", h.table_message(), "Draw")
    await emu.click("alice", h.panel("alice"), "Replace 1")
    # bob: a wrong Tamalou (his cards are shown for 5 s), then carol plays
    await emu.click("bob", h.table_message(), "Tamalou!")
    assert "wrong" in h.table_message().text
    h.advance(5_100)
    await emu.click("carol", h.table_message(), "Draw")
    await emu.click("carol", h.panel("carol"), "Jeter")
    # everybody lets the clock play until all but one are away (R-K4)
    for ms in (45_100, 45_100, 45_100, 15_100, 15_100):
        before = len(h.actions())
        h.advance(ms)
        await emu.wait_for(lambda before=before: len(h.actions()) > before, 10, "a timeout")
    await emu.wait_for(lambda: "round 1 is over" in h.table_message().text, 10, "the round end")
    over = h.table_message()
    await emu.wait_for(lambda: bool(over.attachments), 10, "the reveal picture")
    revealed = {c for row in h.game().round.seats for c in row.row if c is not None}
    assert {cards.code(c) for c in revealed} <= set(message_faces(over))

    public, private, ended = knowledge(h)
    assert ended and (kept_by_bob, 1) in private and (a2, 0) in private
    assert violations(emu, PLAYERS, public, private) == []
    # the scanner does see secrets: without the private knowledge, the peeks, the look
    # and the drawn cards are flagged
    flagged = {lb for lb, *_ in violations(emu, PLAYERS, public, {})}
    assert cards.label(a2) in flagged and cards.label(kept_by_bob) in flagged
    # the plain way: no secret a player held before the round's end reached anyone else
    for s, p in enumerate(PLAYERS):
        for card, seat in private:
            if seat != s or public.get(card, NEVER) < ended:
                continue
            uid = emu.member(p).id
            early = [
                e
                for e in emu.history()
                if e.audience != uid and e.at_ms + SLACK_MS < ended and card in shown_cards(e)
            ]
            assert early == [], (p, cards.label(card), early)
    # the bot's log files hold no card at all
    labels = [cards.label(c) for c in TAMALOU.compiled.deck]
    for path in emu.bot_logs:
        log = Path(path).read_text(encoding="utf-8", errors="replace")
        assert "loaded" in log or "ready" in log
        assert [lb for lb in labels if lb in log] == [], path
    if shown_as == "emojis":  # the cards were shown as emojis, not as text
        assert any(entry_faces(e) for e in emu.history())
        assert "cards are shown as text" not in bot_log(emu)


def bot_log(emu: Emulator) -> str:
    return Path(emu.bot_logs[-1]).read_text(encoding="utf-8", errors="replace")
