"""What card faces a message shows, read the way a leak scan must read them (issue 14).

A card reaches a reader as text (``7♣``), as a card emoji in the text (``<:c1_7c:…>``), as a
component's emoji (a button or select option whose emoji is ``c1_7c``), or inside a picture.
Pictures are read from the bot's own description stored in the PNG
(``read_description(png)["faces"]``, docs/cards.md), and their alt text is read as text.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from bot.ui.cards import code_from_emoji_name, codes_in_markup, read_description
from emulator.model import (
    Attachment,
    HistoryEntry,
    Message,
    components_text,
    embeds_text,
    text_displays,
)


def _emoji_names(node: Any) -> Iterator[str]:
    """Every component emoji's name, at any depth (buttons, select options, accessories)."""
    if isinstance(node, dict):
        emoji = node.get("emoji")
        if isinstance(emoji, dict) and isinstance(emoji.get("name"), str):
            yield emoji["name"]
        for value in node.values():
            yield from _emoji_names(value)
    elif isinstance(node, list):
        for value in node:
            yield from _emoji_names(value)


def picture_faces(files: Iterable[Attachment]) -> list[str]:
    """The faces the pictures show, from each PNG's own description."""
    out: list[str] = []
    for f in files:
        described = read_description(f.data)
        if described is not None:
            out += described["faces"]
    return out


def faces(
    content: str, embeds: list[dict[str, Any]], components: list[dict[str, Any]], files: Any
) -> list[str]:
    """Face codes shown by emojis (text, a V2 message's text displays, components) and
    pictures; text labels aside."""
    text = "\n".join([content, *embeds_text(embeds), *text_displays(components)])
    found = codes_in_markup(text)
    found += [c for n in _emoji_names(components) if (c := code_from_emoji_name(n)) is not None]
    return found + picture_faces(files)


def alt_texts(files: Iterable[Attachment]) -> str:
    return "\n".join(f.description or "" for f in files)


def entry_faces(entry: HistoryEntry) -> list[str]:
    return faces(entry.content, entry.embeds, entry.components, entry.files)


def entry_text(entry: HistoryEntry) -> str:
    """Everything a reader reads as text, the pictures' alt text included."""
    return entry.text + "\n" + alt_texts(entry.files)


def message_faces(msg: Message) -> list[str]:
    return faces(msg.content, msg.embeds, msg.components, msg.attachments)


def message_text(msg: Message) -> str:
    parts = [msg.content, *embeds_text(msg.embeds), *components_text(msg.components)]
    return "\n".join(parts) + "\n" + alt_texts(msg.attachments)
