"""The leak scan reads every way a card reaches a reader (issue 14): a planted leak in a
picture, in a card emoji in the text, or in a component's emoji is caught, and the same
card shown to a reader who may see it is not."""

from __future__ import annotations

from typing import Any

from bot.ui.cards import emoji_name, render_hand, render_table
from emulator.model import Attachment, HistoryEntry
from tamalou.core import cards
from tests.test_bot_leaks_e2e import scan, shown_cards

ALICE, BOB = 100, 101
UID_SEAT = {ALICE: 0, BOB: 1}
SECRET = cards.from_code("7c")  # alice's own card, known to her only (her peek at t=0)
PRIVATE = {(SECRET, 0): 0}


def entry(
    audience: int | None,
    *,
    content: str = "",
    components: list[dict[str, Any]] | None = None,
    png: bytes | None = None,
    description: str | None = None,
) -> HistoryEntry:
    files = (Attachment(1, "cards.png", png, "image/png", description),) if png else ()
    return HistoryEntry(
        seq=0,
        action="create",
        message_id=1,
        channel_id=1,
        audience=audience,
        content=content,
        embeds=[],
        components=components or [],
        flags=0,
        attachments=[f.filename for f in files],
        at_ms=1_000,
        interaction_id=None,
        files=files,
    )


def leaked(*entries: HistoryEntry, public: dict[int, int] | None = None) -> list[str]:
    return [label for label, *_ in scan(list(entries), UID_SEAT, public or {}, PRIVATE)]


def test_a_secret_card_in_a_public_picture_is_caught() -> None:
    hand = render_hand(["BK", "7c", "BK", "BK"])  # the plant: a face where a back belongs
    assert leaked(entry(None, png=hand.png)) == ["7♣"]
    assert leaked(entry(BOB, png=hand.png)) == ["7♣"]  # another player's ephemeral
    assert leaked(entry(ALICE, png=hand.png)) == []  # her own panel: she peeked it


def test_a_picture_is_read_from_its_description_not_its_file_name_or_text() -> None:
    reveal = render_table([("alice", ["7c", "HO"])])
    plain = entry(None, content="round over", png=reveal.png, description=None)
    assert SECRET in shown_cards(plain)
    assert leaked(plain) == ["7♣"]
    assert leaked(plain, public={SECRET: 500}) == []  # revealed before it was shown
    backs = render_hand(["BK", "BK", "HO"])
    assert leaked(entry(None, png=backs.png)) == []  # backs and holes reveal nothing


def test_a_secret_card_emoji_in_text_or_on_a_button_is_caught() -> None:
    markup = f"<:{emoji_name('7c')}:123456789012345678>"
    assert leaked(entry(None, content=f"bob drew {markup}")) == ["7♣"]
    button = {"type": 2, "custom_id": "x", "emoji": {"name": emoji_name("7c"), "id": "1"}}
    option = {"label": "swap", "value": "1", "emoji": {"name": emoji_name("7c"), "id": "1"}}
    select = {"type": 3, "custom_id": "y", "options": [option]}
    assert leaked(entry(BOB, components=[{"type": 1, "components": [button]}])) == ["7♣"]
    assert leaked(entry(BOB, components=[{"type": 1, "components": [select]}])) == ["7♣"]
    assert leaked(entry(ALICE, content=markup)) == []


def test_a_secret_card_emoji_in_a_v2_text_display_is_caught() -> None:
    """A Components V2 message has no content: its text displays render the emojis."""
    markup = f"<:{emoji_name('7c')}:123456789012345678>"
    seat = {"type": 9, "components": [{"type": 10, "content": f"bob: {markup}"}]}
    layout = [{"type": 17, "components": [seat]}]
    assert leaked(entry(BOB, components=layout)) == ["7♣"]
    assert leaked(entry(ALICE, components=layout)) == []


def test_a_v2_gallery_alt_text_is_read_as_text() -> None:
    item = {"media": {"url": "attachment://cards.png"}, "description": "7♣"}
    assert leaked(entry(None, components=[{"type": 12, "items": [item]}])) == ["7♣"]


def test_a_picture_alt_text_is_read_as_text() -> None:
    other = render_hand(["BK"])  # the pixels show a back, the alt text names the card
    assert leaked(entry(None, png=other.png, description="7♣")) == ["7♣"]


def test_a_secret_card_in_french_letters_is_caught() -> None:
    king = cards.from_code("Kh")
    private = {(king, 0): 0}
    french = entry(BOB, content="Vous avez pioché **R♥**")
    found = [label for label, *_ in scan([french], UID_SEAT, {}, private)]
    assert found == ["K♥"]
    assert scan([entry(ALICE, content="R♥")], UID_SEAT, {}, private) == []
