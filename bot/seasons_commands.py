"""Moved to :mod:`bot.seasons.commands`; this name stays until every import has moved.

Importing it registers the season commands on the ``/tamalou`` group, as before.
"""

from bot.seasons.commands import *  # noqa: F403
from bot.seasons.commands import install

__all__ = ["install"]
