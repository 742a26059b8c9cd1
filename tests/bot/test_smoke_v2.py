"""How the smoke test's V2 checks read a message as real Discord answers it, which the
emulator does not reproduce: media urls on Discord's CDN (``…/name?ex=…``) with their
``attachment_id``, and ``attachments`` empty when the components reference every file
(discord-api-docs ``resources/message.mdx``, Message Object: "any attached files that are
not referenced in embeds or components"; issue #8277). The end-to-end runs are in
``test_smoke_e2e.py``."""

from __future__ import annotations

from typing import Any
from unittest.mock import MagicMock

import discord

from bot.smoke import V2Seen

V2, EPHEMERAL = 1 << 15, 1 << 6


def cdn(name: str) -> dict[str, Any]:
    return {
        "url": f"https://cdn.discordapp.com/attachments/2/9/{name}?ex=68&is=67&hm=ab",
        "proxy_url": f"https://media.discordapp.net/attachments/2/9/{name}?ex=68",
        "attachment_id": "9",
    }


def answer(
    *,
    flags: int = V2,
    gallery: str = "smoke-2.png",
    text: str = "Edited through the click token of bob",
    attachments: tuple[str, ...] = (),
    components: list[dict[str, Any]] | None = None,
) -> discord.Message:
    """A message as Discord answers a fetch of it; by default the V2 table: a container
    with texts, a separator and a gallery, and small text below."""
    data: dict[str, Any] = {
        "id": "1",
        "channel_id": "2",
        "type": 0,
        "content": "",
        "author": {"id": "3", "username": "smokebot", "discriminator": "0", "avatar": None},
        "attachments": [
            {
                "id": str(10 + n),
                "filename": name,
                "size": 90,
                "url": "https://cdn/x",
                "proxy_url": "",
            }
            for n, name in enumerate(attachments)
        ],
        "embeds": [],
        "mentions": [],
        "mention_roles": [],
        "pinned": False,
        "mention_everyone": False,
        "tts": False,
        "timestamp": "2026-12-07T00:00:00+00:00",
        "edited_timestamp": None,
        "flags": flags,
        "components": components
        or [
            {
                "type": 17,
                "id": 1,
                "accent_color": 0x1E783C,
                "components": [
                    {"type": 10, "id": 2, "content": "## Tamalou smoke test: Components V2"},
                    {"type": 10, "id": 3, "content": text},
                    {"type": 14, "id": 4, "divider": True, "spacing": 1},
                    {"type": 12, "id": 5, "items": [{"media": cdn(gallery)}]},
                ],
            },
            {"type": 10, "id": 6, "content": f"-# picture: {gallery}"},
        ],
    }
    return discord.Message(state=MagicMock(), channel=MagicMock(), data=data)


def test_a_table_as_discord_answers_it_shows_its_new_picture() -> None:
    seen = V2Seen.of(answer())
    assert (seen.v2, seen.pictures, seen.attachments) == (True, ["smoke-2.png"], [])
    assert seen.shows("Edited through the click token of bob", "smoke-2.png")


def test_the_old_picture_a_missing_flag_or_text_or_a_file_left_behind_do_not_hold() -> None:
    text = "Edited through the click token of bob"
    assert not V2Seen.of(answer(gallery="smoke-1.png")).shows(text, "smoke-2.png")
    assert not V2Seen.of(answer(flags=0)).shows(text, "smoke-2.png")
    assert not V2Seen.of(answer(text="Press “Click me”")).shows(text, "smoke-2.png")
    left = V2Seen.of(answer(attachments=("smoke-1.png",)))  # the replaced file still there
    assert not left.shows(text, "smoke-2.png")
    assert "attachments ['smoke-1.png']" in str(left)


def test_a_panels_thumbnail_beside_its_text_is_read() -> None:
    section = {
        "type": 9,
        "id": 2,
        "components": [{"type": 10, "id": 3, "content": "Your panel"}],
        "accessory": {"type": 11, "id": 4, "media": cdn("smoke-hand.png")},
    }
    panel = [{"type": 17, "id": 1, "components": [section]}]
    seen = V2Seen.of(answer(flags=V2 | EPHEMERAL, components=panel))
    assert (seen.ephemeral, seen.texts, seen.pictures) == (True, ["Your panel"], ["smoke-hand.png"])
    assert seen.shows("Your panel", "smoke-hand.png")
