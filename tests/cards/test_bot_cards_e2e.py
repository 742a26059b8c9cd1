"""The real bot shows cards as cards through the Discord emulator (issue 14).

At start it lists the application's emojis, uploads the missing faces in the background
(start-up does not wait) and, once they are there, draws its messages with them; a restart
uploads nothing. When they cannot be uploaded it plays on with text cards and says so once
in its log. The end-of-round reveal is a picture on the public table message (R-E1), and a
peek is a picture in the player's ephemeral, gone when the peek is hidden again (R-S2).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ui.cards import ALL_CODES, BACK, codes_in_markup, read_description
from emulator import Emulator
from tamalou.core import cards
from tamalou.games.tamalou.rules import TAMALOU
from tamalou.games.tamalou.state import Game
from tests.support.bot_harness import BotHarness, find_seed, open_table, peek_all
from tests.support.leak_scan import message_faces, message_text

pytestmark = pytest.mark.e2e

PLAYERS = ["alice", "bob"]
READY = "card emojis ready"
WARNING = "card emojis unavailable"


@pytest.fixture
async def harness(emulator: Emulator, tmp_path: Path) -> BotHarness:
    return BotHarness(emulator, tmp_path)


def low_first(g: Game) -> bool:
    """alice plays first and her total is 5 or less: her Tamalou is right (R-A1, R-A2)."""
    value = TAMALOU.compiled.value
    row = g.round.seats[0].row
    return g.round.first_player == 0 and sum(value[c] for c in row if c is not None) <= 5


def log_text(emu: Emulator) -> str:
    return "".join(Path(p).read_text(encoding="utf-8", errors="replace") for p in emu.bot_logs)


async def test_the_table_shows_card_emojis_and_a_restart_uploads_nothing(
    harness: BotHarness,
) -> None:
    h, emu = harness, harness.emu
    await h.start(TAMALOU_CARD_EMOJIS="1")
    await emu.wait_for(lambda: READY in log_text(emu), 60, "the card emojis")
    assert emu.app_emojis.uploads == len(ALL_CODES)
    await open_table(h, PLAYERS)
    # R-S1: every card of the table is a back, drawn as the back's emoji
    table = h.table_message()
    shown = codes_in_markup(message_text(table))
    assert shown.count(BACK) == 8 and "🂠" not in message_text(table)
    # R-S2: alice's peek shows her two cards as emojis and her row as a picture
    await emu.click("alice", h.table_message(), "My cards")
    peek = emu.last_ephemeral("alice")
    row = h.game().round.seats[0].row
    peeked = {cards.code(c) for c in (row[0], row[3]) if c is not None}
    assert peeked <= set(codes_in_markup(peek.content))
    assert len(peek.attachments) == 1
    described = read_description(peek.attachments[0].data)
    assert described is not None and set(described["faces"]) == peeked
    assert peek.attachments[0].description  # the alt text, for screen readers
    await emu.click("bob", h.table_message(), "My cards")
    h.advance(5_100)
    await emu.wait_for(lambda: not peek.attachments, 10, "the peek picture removed")
    assert set(codes_in_markup(peek.content)) == {BACK}
    # a restart finds every emoji: nothing uploaded again, the table still drawn with them
    await h.restart()
    await emu.wait_for(lambda: log_text(emu).count(READY) == 2, 60, "the emojis again")
    assert emu.app_emojis.uploads == len(ALL_CODES)
    assert "(0 uploaded now)" in log_text(emu)
    await emu.wait_for(
        lambda: BACK in codes_in_markup(message_text(h.table_message())), 10, "emoji table"
    )


async def test_refused_emojis_leave_text_cards_said_once_in_the_log(harness: BotHarness) -> None:
    h, emu = harness, harness.emu
    emu.app_emojis.refuse = (403, 50013, "Missing Permissions")
    await h.start(seeds=[find_seed(2, low_first)], TAMALOU_CARD_EMOJIS="1")  # alice first
    await emu.wait_for(lambda: WARNING in log_text(emu), 60, "the warning")
    await open_table(h, PLAYERS)
    await peek_all(h, PLAYERS)
    table = h.table_message()
    assert codes_in_markup(message_text(table)) == [] and "🂠" in message_text(table)
    await emu.click("alice", table, "Draw")  # the game goes on
    await emu.wait_for(lambda: h.game().round.held is not None, 10, "alice's drawn card")
    held = h.game().round.held
    assert held is not None
    await emu.wait_for(
        lambda: cards.label(held) in emu.last_ephemeral("alice").content, 10, "her panel"
    )
    log = log_text(emu)
    assert log.count(WARNING) == 1 and "cards are shown as text" in log
    assert "HTTP 403, code 50013" in log
    assert emu.app_emojis.uploads == 0 and message_faces(table) == []


async def test_the_round_reveal_is_a_picture_of_every_row(harness: BotHarness) -> None:
    """R-E1: at the round's end every row is shown; the public message carries the picture
    (attached once, not on every edit), described by the faces it shows."""
    h, emu = harness, harness.emu
    await h.start(seeds=[find_seed(2, low_first)])  # pictures need no emojis
    await open_table(h, PLAYERS)
    await peek_all(h, PLAYERS)
    await emu.click("alice", h.table_message(), "Tamalou!")
    for _ in range(6):  # the others' last turns run out (R-A3)
        if "is over" in h.table_message().text:
            break
        before = len(h.actions())
        h.advance(45_100)
        await emu.wait_for(lambda before=before: len(h.actions()) > before, 10, "a timeout")
        if h.game().round.phase == "over":  # drawn just after the commit: no more time
            break
    await emu.wait_for(lambda: "is over" in h.table_message().text, 20, "the round end")
    over = h.table_message()
    await emu.wait_for(lambda: bool(over.attachments), 10, "the reveal picture")
    game = h.game()
    hands = {cards.code(c) for seat in game.round.seats for c in seat.row if c is not None}
    (picture,) = over.attachments
    described = read_description(picture.data)
    assert described is not None and set(described["faces"]) == hands
    assert described["kind"] == "table" and len(described["rows"]) == len(PLAYERS)
    assert over.embeds[0]["image"]["url"].startswith("attachment://")
    uploads = [e for e in emu.history() if e.message_id == over.id and e.files]
    assert len({id(e.files[0]) for e in uploads}) == 1  # one upload, kept on later edits
