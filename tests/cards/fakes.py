"""A client whose application already has every card emoji (no Discord, no emulator), and
the installed-emojis fixture the render tests use."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.ui.cards import ALL_CODES, CardEmojis, emoji_name
from bot.ui.cards import display as card_display


@dataclass
class Emoji:
    name: str
    id: int


class EmojiClient:
    """``fetch_application_emojis`` lists every card face (or none); every upload fails as an
    outage would (``OSError``), and is counted."""

    def __init__(self, present: bool = True) -> None:
        ids = itertools.count(9_000_000_000_000_000)
        self.emojis = [Emoji(emoji_name(c), next(ids)) for c in ALL_CODES] if present else []
        self.attempts = 0

    async def fetch_application_emojis(self) -> list[Emoji]:
        return list(self.emojis)

    async def create_application_emoji(self, *, name: str, image: bytes) -> Any:
        self.attempts += 1
        raise OSError(f"no route to Discord ({name})")


async def synced() -> CardEmojis:
    emojis = CardEmojis(EmojiClient())  # type: ignore[arg-type]
    assert await emojis.sync()
    return emojis


@pytest.fixture
async def with_emojis() -> AsyncIterator[CardEmojis]:
    """Card emojis installed for the render code, removed after the test."""
    emojis = await synced()
    card_display.use(emojis)
    yield emojis
    card_display.use(None)


@pytest.fixture
def as_text() -> Iterator[None]:
    """No card emojis (the fallback): render code shows text."""
    card_display.use(None)
    yield
    card_display.use(None)
