"""The tournaments extension: ``tournament …`` in every game's slash group, the sign-up
buttons, the table hooks, and the carry-on after a restart (docs/tournaments.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from discord import app_commands
from discord.ext import commands

from bot.tournaments.commands import TournamentButton, Tournaments, tournament_group
from bot.tournaments.runner import TournamentRunner
from bot.tournaments.store import TournamentStore
from tamalou.games import game_ids, load

if TYPE_CHECKING:
    from bot.app import GameBot


class TournamentsCog(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.added: list[tuple[app_commands.Group, app_commands.Group]] = []

    async def cog_load(self) -> None:
        bot = self.bot
        for game in game_ids():
            group = bot.tree.get_command(game)
            if isinstance(group, app_commands.Group) and group.get_command("tournament") is None:
                sub = tournament_group(game)
                group.add_command(sub)
                self.added.append((group, sub))
        store = TournamentStore(bot.storage, bot.config.clock)
        runner = TournamentRunner(
            store, bot.service, lower_wins=lambda game: bool(load(game).LOWER_SCORE_WINS)
        )
        bot.tournaments = Tournaments(bot, runner)
        runner.on_change = bot.tournaments.show
        service = bot.service
        before = service.on_match_finished  # the seasons' hook: each table counts there too

        async def finished(match_id: int) -> None:
            if before is not None:
                await before(match_id)
            await runner.match_finished(match_id)

        service.on_match_finished = finished
        service.on_table_closed = runner.table_closed
        bot.add_dynamic_items(TournamentButton)
        bot.after_ready.append(runner.sweep)  # once the guilds are known (their language)

    async def cog_unload(self) -> None:
        for group, sub in self.added:
            group.remove_command(sub.name)
        self.added.clear()


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TournamentsCog(cast("GameBot", bot)))
