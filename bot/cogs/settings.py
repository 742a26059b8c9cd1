"""``/tamalou settings``, moved to ``/cardsadmin settings`` and ``/cardsadmin tamalou``
(``bot/cogs/admin.py``): for one release it stays and answers where it went, without acting.
A member's own turn-ping choice (``ping``) is a seat command of every game's group
(``bot/ui/lobby.py``)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import ls
from bot.ui.moved import moved


@app_commands.command(
    name=ls("settings", "cmd.settings"),
    description=ls("Moved to the admin command", "cmd.moved.desc"),
)
async def cmd_settings(interaction: discord.Interaction) -> None:
    await moved(interaction, "settings")


#: the commands this Cog puts in the ``/tamalou`` group
COMMANDS: tuple[app_commands.Command[Any, Any, None], ...] = (cmd_settings,)


class SettingsCog(commands.Cog):
    """Puts ``settings`` in the ``/tamalou`` group on the tree while loaded."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.group: app_commands.Group | None = None

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("tamalou")
        if not isinstance(group, app_commands.Group):
            return
        for command in COMMANDS:
            if group.get_command(command.name) is None:
                group.add_command(command)
        self.group = group

    async def cog_unload(self) -> None:
        if self.group is not None:
            for command in COMMANDS:
                self.group.remove_command(command.name)
            self.group = None


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SettingsCog(bot))
