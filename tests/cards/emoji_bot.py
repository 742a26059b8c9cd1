"""A minimal bot for the emoji tests (run through the emulator's launcher, not the product).

It syncs the card emojis the way the real bot does (a task started in ``setup_hook``), then
posts one line in the channel ``EMOJI_BOT_CHANNEL``: ``cards: <the four faces> uploaded=<n>``.
"""

from __future__ import annotations

import asyncio
import logging
import os

import discord

from bot.ui.cards import CardEmojis

SHOWN = ["7c", "10h", "T21", "tCh"]


class EmojiBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.cards = CardEmojis(self)
        self.synced: asyncio.Task[bool] | None = None

    async def setup_hook(self) -> None:
        self.synced = asyncio.create_task(self.cards.sync())

    async def on_ready(self) -> None:
        assert self.synced is not None
        await self.synced
        # By id over REST: under load on_ready may come before the guild is cached.
        channel = await self.fetch_channel(int(os.environ["EMOJI_BOT_CHANNEL"]))
        assert isinstance(channel, discord.TextChannel)
        await channel.send(f"cards: {self.cards.line(SHOWN)} uploaded={self.cards.uploaded}")


def main() -> None:
    EmojiBot().run(os.environ["DISCORD_TOKEN"], log_level=logging.INFO, root_logger=True)


if __name__ == "__main__":
    main()
