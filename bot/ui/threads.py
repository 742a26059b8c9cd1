"""Tables in threads (issue 22): what the channel keeps of a table that plays in a thread.

The lobby message stays in the channel; the thread is started from it (Discord gives the
thread the message's id) and every public message of the match goes there. Once the match
starts, the lobby message becomes this summary: the game, the players, the standing or the
result, and a link into the thread.
"""

from __future__ import annotations

from typing import Final, Literal

import discord
from discord.utils import escape_markdown

from bot import games
from bot.i18n import t
from bot.tables import LiveTable

#: Discord hides a thread after this many minutes without a message (60, 1440, 4320, 10080)
AUTO_ARCHIVE_MINUTES: Final[Literal[4320]] = 4320
#: Discord's error codes: the thread is archived, or gone
ARCHIVED, UNKNOWN_CHANNEL, MISSING_PERMISSIONS = 50083, 10003, 50013


def thread_name(table: LiveTable, lang: str) -> str:
    name = t(lang, "thread.name", game=games.display_name(table.row.game, lang), id=table.id)
    return name[:100]


def thread_is_gone(exc: discord.HTTPException) -> bool:
    """A post or edit failed because the table's thread was archived or deleted."""
    return exc.code in (ARCHIVED, UNKNOWN_CHANNEL)


def _score(value: float) -> str:
    return f"{value:g}"


def summary(
    table: LiveTable, lang: str, thread_id: int | None, reason: str | None = None
) -> discord.Embed:
    """The channel's message of a table that plays (or played) in a thread (None: the
    thread is being started)."""
    seats = table.match_seats
    # an embed's description is markdown: a member's name escaped, as everywhere else
    names = [escape_markdown(s.name) for s in seats] or [
        escape_markdown(s.name) for s in table.seats
    ]
    lines = [t(lang, "summary.players", names=", ".join(names))]
    if table.game is not None and seats:
        totals, winners = table.module.match_result(table.game)
        scores = " · ".join(f"{names[i]} {_score(v)}" for i, v in enumerate(totals))
        lines.append(t(lang, "summary.standing", scores=scores))
        if table.status == "finished" and winners:
            lines.append(t(lang, "summary.winners", names=", ".join(names[w] for w in winners)))
    if reason is not None:
        lines.append(t(lang, f"closed.{reason}"))
    live = table.status in ("lobby", "playing")
    if thread_id is not None:
        key = "summary.live" if live else "summary.done"
        lines.append(t(lang, key, thread=f"<#{thread_id}>"))
    return discord.Embed(
        title=t(lang, "summary.title", game=games.display_name(table.row.game, lang), id=table.id),
        description="\n".join(lines),
        colour=discord.Colour.blurple() if live else discord.Colour.dark_grey(),
    )
