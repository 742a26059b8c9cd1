"""The shared card API every game's render code calls (bot.ui.cards.display, docs/cards.md):
emojis once the bot has them, text otherwise, and picture recipes the presenter renders."""

from __future__ import annotations

from typing import Any

import discord

from bot.ui import cards as card_faces
from bot.ui.cards import CardEmojis, CardPicture, codes_in_markup, read_description
from bot.ui.cards import display as card_display
from tests.cards.fakes import EmojiClient, as_text, with_emojis

__all__ = ["as_text", "with_emojis"]  # fixtures


def test_without_emojis_every_card_is_text(as_text: None) -> None:
    assert card_faces.show("7c") == "7♣"
    assert card_faces.line(["7c", "Qh"]) == "7♣ Q♥"
    assert card_faces.emoji("7c") is None
    assert card_faces.partial_emoji("7c") is None
    assert not card_faces.available()


def test_with_emojis_a_card_is_its_application_emoji(with_emojis: CardEmojis) -> None:
    shown = card_faces.show("10h")
    assert shown.startswith("<:c1_10h:") and codes_in_markup(shown) == ["10h"]
    assert codes_in_markup(card_faces.line(["7c", "BK", "Qh"])) == ["7c", "BK", "Qh"]
    emoji = card_faces.partial_emoji("Qs")
    assert isinstance(emoji, discord.PartialEmoji) and emoji.name == "c1_Qs" and emoji.id
    assert card_faces.available()


async def test_emojis_not_synced_yet_are_text() -> None:
    """Start-up does not wait for the upload: until it is done, cards are text."""
    card_display.use(CardEmojis(EmojiClient()))  # type: ignore[arg-type]
    try:
        assert card_faces.show("7c") == "7♣" and card_faces.partial_emoji("7c") is None
    finally:
        card_display.use(None)


async def test_a_failed_sync_keeps_text(as_text: None) -> None:
    emojis = CardEmojis(EmojiClient(present=False))  # type: ignore[arg-type]
    assert not await emojis.sync()  # its upload is refused
    card_display.use(emojis)
    assert card_faces.show("7c") == "7♣" and card_faces.line(["7c", "Qh"]) == "7♣ Q♥"


def test_a_picture_recipe_is_keyed_by_its_content() -> None:
    a = CardPicture.hand(["7c", "BK"], captions=["1", "2"], overlap=False)
    assert a.key == CardPicture.hand(["7c", "BK"], captions=("1", "2"), overlap=False).key
    assert a.key != CardPicture.hand(["7c", "8c"], captions=["1", "2"], overlap=False).key
    assert a.url == "attachment://hand.png"
    rows = [("alice", ["7c", "HO"]), ("bob", ["Qh", "Ks"])]
    assert CardPicture.table(rows).key != CardPicture.table(rows[:1]).key


async def test_a_picture_renders_with_its_description_and_alt_text() -> None:
    picture = CardPicture.table([("1. alice", ["7c", "HO"]), ("2. bob", ["Qh", "BK"])])
    result = await picture.render()
    described = read_description(result.png)
    assert described is not None and sorted(described["faces"]) == ["7c", "Qh"]
    file = await picture.file()
    assert file.filename == "table.png" and file.description == result.alt_text
    trick = await CardPicture.trick([("a", "T21"), ("b", "EX")], winner=0).render()
    assert trick.faces == {"T21", "EX"}


def test_card_emojis_are_on_unless_the_setting_says_no(monkeypatch: Any) -> None:
    from bot.config import Config

    monkeypatch.delenv("TAMALOU_CARD_EMOJIS", raising=False)
    assert Config.from_env(None).card_emojis
    monkeypatch.setenv("TAMALOU_CARD_EMOJIS", "0")
    assert not Config.from_env(None).card_emojis
