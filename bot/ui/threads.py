"""Tables in threads: what the channel keeps of a table that plays in a thread.

The lobby message stays in the channel; the thread is started from it (Discord gives the
thread the message's id) and every public message of the match goes there. Once the match
starts, the lobby message becomes this summary: the game, the players, the standing or the
result, and a link into the thread.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Literal

import discord
from discord.utils import escape_markdown

from bot import games
from bot.i18n import t
from bot.tables import LiveTable
from bot.ui.kit import button, cid, frozen_view, release_view, seat_name

if TYPE_CHECKING:
    from bot.app import GameBot
    from bot.ui.presenter import DiscordPresenter

log = logging.getLogger(__name__)

#: Discord hides a thread after this many minutes without a message (60, 1440, 4320, 10080)
AUTO_ARCHIVE_MINUTES: Final[Literal[4320]] = 4320
#: Discord's error codes: the thread is archived, or gone
ARCHIVED, UNKNOWN_CHANNEL, MISSING_PERMISSIONS = 50083, 10003, 50013


def thread_name(table: LiveTable, lang: str) -> str:
    name = t(lang, "thread.name", game=games.table_name(table, lang), id=table.id)
    return name[:100]


def thread_is_gone(exc: discord.HTTPException) -> bool:
    """A post or edit failed because the table's thread was archived or deleted."""
    return exc.code in (ARCHIVED, UNKNOWN_CHANNEL)


def _score(value: float) -> str:
    return f"{value:g}"


def ranked(totals: Sequence[float], lower_wins: bool) -> list[tuple[int, int]]:
    """(place, seat) best first, in the game's direction; equal totals share a place."""
    order = sorted(range(len(totals)), key=lambda s: totals[s] if lower_wins else -totals[s])
    return [(1 + sum(totals[o] != totals[s] for o in order[:i]), s) for i, s in enumerate(order)]


def tournament_line(part: dict[str, Any], lang: str) -> str:
    """A tournament table's place in it: the tournament, the round, the table."""
    return t(
        lang,
        "summary.tournament",
        name=escape_markdown(str(part.get("name", ""))),
        round=part.get("round", 0),
        rounds=part.get("rounds", 0),
        table=part.get("table", 0),
    )


def summary(
    table: LiveTable, lang: str, thread_id: int | None, reason: str | None = None
) -> discord.Embed:
    """The channel's message of a table that plays (or played) in a thread (None: the
    thread is being started)."""
    seats = table.match_seats
    # AI seats named in the server's language, as in the thread; a member's name escaped
    # (an embed's description is markdown)
    names = [seat_name(s, lang) for s in seats] or [seat_name(s, lang) for s in table.seats]
    lines = [t(lang, "summary.players", names=", ".join(names))]
    part = table.row.settings.get("tournament")
    if table.row.tournament_id is not None and isinstance(part, dict):
        lines.insert(0, tournament_line(part, lang))
    if table.game is not None and seats:
        totals, winners = table.module.match_result(table.game)
        order = ranked(totals, bool(table.module.LOWER_SCORE_WINS))
        scores = " · ".join(f"{p}. {names[s]} {_score(totals[s])}" for p, s in order)
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
        title=t(lang, "summary.title", game=games.table_name(table, lang), id=table.id),
        description="\n".join(lines),
        colour=discord.Colour.blurple() if live else discord.Colour.dark_grey(),
    )


class TableThreads:
    """Each table's thread: started from its lobby, its summary kept in the channel, archived
    when the table ends, replaced when a moderator deletes or archives it."""

    def __init__(self, bot: GameBot, presenter: DiscordPresenter) -> None:
        self.bot = bot
        #: the table message's owner: its edits, and what it knows the message shows
        self.presenter = presenter
        self._on: dict[int, bool] = {}  # guild -> its tables play in threads
        #: table -> the line its Rematch press is told (it plays in the channel: no thread)
        self.notes: dict[int, str] = {}

    def forget(self, table_id: int) -> None:
        self.notes.pop(table_id, None)

    def settings_changed(self, guild_id: int) -> None:
        """``/tamalou settings`` stored new values: read the threads setting again."""
        self._on.pop(guild_id, None)

    async def on(self, guild_id: int) -> bool:
        """The server's ``/tamalou settings threads:``, else the bot's ``TAMALOU_THREADS``."""
        cached = self._on.get(guild_id)
        if cached is None:
            settings = await self.bot.storage.guild_settings(guild_id)
            on = bool(settings.get("threads", self.bot.config.threads))
            cached = self._on.setdefault(guild_id, on)
        return cached

    async def start_thread(self, table: LiveTable, starter_id: int) -> bool:
        """Start the table's public thread from its channel message ``starter_id``;
        False when Discord refuses (no permission: the table plays in the channel)."""
        lang = await self.bot.guild_language(table.row.guild_id)
        try:
            data = await self.bot.http.start_thread_with_message(
                table.row.channel_id,
                starter_id,
                name=thread_name(table, lang),
                auto_archive_duration=AUTO_ARCHIVE_MINUTES,
            )
        except discord.HTTPException as exc:
            log.info(
                "table %s: no thread (%s %s); it plays in its channel",
                table.id,
                exc.status,
                exc.code,
            )
            return False
        self.bot.service.set_thread(table, int(data["id"]))
        await self.bot.storage.set_table_thread(table.id, table.row.thread_id)
        return True

    async def open_thread(self, table: LiveTable) -> bool:
        """A playing table without a thread (a rematch, a thread lost): its summary posted
        in the channel and the thread started from it; the summary goes again if Discord
        refuses the thread (the table plays in the channel)."""
        if not await self.on(table.row.guild_id):
            return False
        lang = await self.bot.guild_language(table.row.guild_id)
        with discord.http.handle_message_parameters(embed=summary(table, lang, None)) as params:
            data = await self.bot.http.send_message(table.row.channel_id, params=params)
        starter = int(data["id"])
        if await self.start_thread(table, starter):
            await self.edit_summary(table)
            return True
        with contextlib.suppress(discord.HTTPException):
            await self.bot.http.delete_message(table.row.channel_id, starter)
        return False

    async def edit_summary(self, table: LiveTable, reason: str | None = None) -> None:
        """The channel's message of a table in a thread: players, standing or result, a
        link into the thread (and Rematch once the match is over)."""
        thread = table.row.thread_id
        if thread is None:
            return
        lang = await self.bot.guild_language(table.row.guild_id)
        view: discord.ui.View | None = None
        if table.status == "finished" and table.row.tournament_id is None:
            view = discord.ui.View(timeout=None)
            view.add_item(
                button(
                    t(lang, "btn.rematch"),
                    cid(table.row.game, "rematch", table.id),
                    discord.ButtonStyle.primary,
                )
            )
        try:
            await self.presenter._edit_message(
                table,
                thread,
                table.row.channel_id,
                embed=summary(table, lang, thread, reason),
                view=frozen_view(view) if view is not None else None,
                content=None,
            )
        except discord.HTTPException as exc:  # deleted by someone: the thread goes on
            log.info("table %s: its summary is gone (%s)", table.id, exc.code)
        finally:
            release_view(view)

    async def close_thread(self, table: LiveTable, reason: str | None = None) -> None:
        """The match is over or the table closed: the summary says so, the thread is
        archived (after its last ping went)."""
        thread = table.row.thread_id
        if thread is None:
            return
        if table.row.message_id != thread:  # else: the lobby itself says it is closed
            await self.edit_summary(table, reason)
        try:
            await self.bot.http.edit_channel(thread, archived=True)
        except discord.HTTPException as exc:
            log.info("table %s: its thread was not archived (%s)", table.id, exc.code)

    async def thread_lost(self, table: LiveTable, exc: discord.HTTPException | None) -> None:
        """The table's thread was archived or deleted by a moderator (or the bot may not
        post there): the table is posted again, in a new thread, else in the channel.
        Nothing is lost: the game is the log's."""
        log.warning(
            "table %s: its thread %s is out of reach (%s); posting the table again",
            table.id,
            table.row.thread_id,
            exc.code if exc is not None else "gone",
        )
        old = table.row.thread_id
        self.bot.service.set_thread(table, None)
        table.row.message_id = None
        self.presenter._pictures.pop(table.id, None)
        self.presenter._shown.pop(table.id, None)
        await self.bot.storage.set_table_thread(table.id, None)
        if table.status == "playing" and (exc is None or exc.code != MISSING_PERMISSIONS):
            await self.open_thread(table)
        if old is not None:  # its channel summary linked to the lost thread: now to the new
            lang = await self.bot.guild_language(table.row.guild_id)
            with contextlib.suppress(discord.HTTPException):
                await self.presenter._edit_message(
                    table,
                    old,
                    table.row.channel_id,
                    embed=summary(table, lang, table.row.thread_id),
                    view=None,
                    content=None,
                )
