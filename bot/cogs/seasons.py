"""The seasons extension: ``/tamalou leaderboard``, ``stats``, ``season …`` (bot.seasons_commands)
and the match hook that records finished matches."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from discord.ext import commands

if TYPE_CHECKING:
    from bot.app import TamalouBot


async def setup(bot: commands.Bot) -> None:
    from bot import seasons_commands  # its commands join the /tamalou group on import

    app = cast("TamalouBot", bot)
    app.seasons = await seasons_commands.install(app)
