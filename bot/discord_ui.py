"""Old import path, kept while bot/seasons* import from it (the lead removes it later).

The bot lives in :mod:`bot.app`, shared components in :mod:`bot.ui`, the ``/tamalou``
commands in :mod:`bot.games.tamalou.commands`.
"""

from bot.app import TamalouBot
from bot.games.tamalou.commands import tamalou_group
from bot.ui.common import bot_of, frozen_view, reply, snowflake_ms

__all__ = ["TamalouBot", "bot_of", "frozen_view", "reply", "snowflake_ms", "tamalou_group"]
