"""The seasons extension: ``leaderboard``, ``stats`` and ``season …`` in every game's slash
group, and the match hook that records finished matches."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from discord import app_commands
from discord.ext import commands

from bot.seasons.commands import GameCommand, game_commands, install
from tamalou.games import game_ids

if TYPE_CHECKING:
    from bot.app import GameBot


class SeasonsCog(commands.Cog):
    """Seasons next to the storage, the match hook, the leaderboard buttons, the sweep."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.added: list[tuple[app_commands.Group, GameCommand]] = []

    async def cog_load(self) -> None:
        # The games' extensions are loaded first: each game's group is on the tree by now.
        for game in game_ids():
            group = self.bot.tree.get_command(game)
            if not isinstance(group, app_commands.Group):
                continue
            for command in game_commands(game):
                if group.get_command(command.name) is None:
                    group.add_command(command)
                    self.added.append((group, command))
        self.bot.seasons = await install(self.bot)

    async def cog_unload(self) -> None:
        for group, command in self.added:
            group.remove_command(command.name)
        self.added.clear()


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SeasonsCog(cast("GameBot", bot)))
