"""The old admin subcommands of the games' groups (``/tamalou settings``, ``/<game> season
…``, ``/<game> tournament create|export``): Discord hides a command from members only at the
top level, so they moved to ``/cardsadmin`` (``bot/cogs/admin.py``). For one release they stay
and answer where they went, in the member's language, without acting."""

from __future__ import annotations

import discord

from bot.i18n import lang_of, t
from bot.ui.kit import reply

#: the top-level admin command's name key (``cmd.admin``)
ADMIN = "cmd.admin"


def admin_path(lang: str, *keys: str) -> str:
    """``/cardsadmin season start`` in the reader's language (the command's localised names)."""
    return "/" + " ".join(t(lang, key) for key in (ADMIN, *keys))


async def moved(interaction: discord.Interaction, *where: str) -> None:
    """Answer an old admin subcommand: where it went (``where``: the new path's words under
    ``/cardsadmin``, e.g. ``"season", "start"``), and that nothing was done."""
    lang = lang_of(interaction.locale)
    keys = [f"cmd.{where[0]}", *(f"cmd.{where[0]}.{w}" for w in where[1:])]
    text = t(lang, "admin.moved", path=admin_path(lang, *keys))
    if where == ("settings",):
        text = t(
            lang,
            "admin.moved_settings",
            path=admin_path(lang, "cmd.admin.settings"),
            tamalou=admin_path(lang, "cmd.tamalou"),
        )
    await reply(interaction, text)
