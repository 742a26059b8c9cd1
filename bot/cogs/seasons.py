"""The seasons extension: ``/tamalou leaderboard``, ``stats``, ``season …`` (bot.seasons.commands)
and the match hook that records finished matches."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from discord.ext import commands

if TYPE_CHECKING:
    from bot.app import TamalouBot


class SeasonsCog(commands.Cog):
    """Seasons next to the storage, the match hook, the leaderboard buttons, the sweep."""

    def __init__(self, bot: TamalouBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        from bot.seasons import commands  # its commands join the /tamalou group on import

        self.bot.seasons = await commands.install(self.bot)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SeasonsCog(cast("TamalouBot", bot)))
