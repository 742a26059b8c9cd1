"""The presenter: a table's public message, and the timed hiding of private panels.

- Edits of a table message coalesce to about one per ``edit_interval_ms`` per table; the
  edit that fires renders the table's latest state.
- Each round gets a new message (R-M1: old messages are hard to edit after an hour).
- A closed table's pending edit is dropped (it would redraw live buttons on a closed
  table) and every per-table record is pruned.
- Shutdown (:meth:`stop`) waits for the edits and hides in flight.
- Pictures (docs/cards.md): a panel's ``picture`` and the plugin's optional
  ``table_picture`` are rendered off the event loop and attached; a table message is sent
  its picture again only when the picture changed, and every panel edit replaces the
  panel's attachments (a hidden card leaves the picture too).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

import discord

from bot import games
from bot.games import Panel
from bot.i18n import t
from bot.tables import LiveTable
from bot.ui.cards.display import CardPicture
from bot.ui.common import closed_message, frozen_view

if TYPE_CHECKING:
    from bot.app import TamalouBot

log = logging.getLogger(__name__)

#: a table whose message the presenter keeps drawing
LIVE = ("lobby", "playing")
#: the picture on a table message is not known (a restart, a new message)
UNKNOWN = "?"


async def picture_files(picture: CardPicture | None) -> list[discord.File]:
    """The attachment of a picture (rendered in a worker thread), or none."""
    return [] if picture is None else [await picture.file()]


def table_picture(plugin: Any, table: LiveTable, lang: str, at: int) -> CardPicture | None:
    """The plugin's picture for its table message, if the game draws one."""
    draw = getattr(plugin, "table_picture", None)
    return None if draw is None else draw(table, lang, at)


class DiscordPresenter:
    """Posts and edits table messages; hides timed secrets in private panels."""

    def __init__(self, bot: TamalouBot) -> None:
        self.bot = bot
        self._pending: dict[int, asyncio.Task[None]] = {}
        self._last_edit: dict[int, float] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()  # edits and hides in flight
        self._pictures: dict[int, str | None] = {}  # table -> key of its message's picture
        self._closing = False

    # -- bookkeeping -----------------------------------------------------------------

    def tracked(self) -> set[int]:
        """Tables the presenter keeps a record of (pruned when a table ends)."""
        return set(self._pending) | set(self._last_edit) | set(self._locks) | set(self._pictures)

    def _spawn(self, coro: Any, name: str) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    def _prune(self, table_id: int) -> None:
        pending = self._pending.pop(table_id, None)
        if pending is not None and pending is not asyncio.current_task():
            pending.cancel()
        self._last_edit.pop(table_id, None)
        self._pictures.pop(table_id, None)
        lock = self._locks.get(table_id)
        if lock is not None and not lock.locked():
            del self._locks[table_id]

    async def stop(self) -> None:
        """Shutdown: no new edits; the ones in flight and the hides finish or are cancelled."""
        self._closing = True
        for task in list(self._pending.values()):
            task.cancel()
        if self._tasks:
            _, pending = await asyncio.wait(set(self._tasks), timeout=5)
            for task in pending:
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)

    # -- the table message -------------------------------------------------------------

    def _channel(self, table: LiveTable) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.row.channel_id, guild_id=table.row.guild_id)

    async def _render(
        self, table: LiveTable
    ) -> tuple[discord.Embed, discord.ui.View | None, CardPicture | None]:
        lang = await self.bot.guild_language(table.row.guild_id)
        plugin = games.plugin(table.row.game)
        if table.status == "lobby":
            expires = table.row.created_at + self.bot.service.lobby_timeout_ms
            return (*plugin.lobby_message(table, lang, expires), None)
        if table.game is None:
            name = games.display_name(table.row.game, lang)
            return closed_message(table.id, lang, "cancelled", name), None, None
        at = self.bot.service.clock()
        embed, view = plugin.table_message(table, lang, at)
        return embed, view, table_picture(plugin, table, lang, at)

    async def table_changed(self, table: LiveTable, at_once: bool = False) -> None:
        if self._closing or table.status == "cancelled":
            return  # a closed table is drawn once, by table_closed
        if table.id in self._pending and not at_once:
            return  # the pending edit will render the latest state
        interval = self.bot.config.edit_interval_ms / 1000
        last = self._last_edit.get(table.id, 0.0)
        wait = 0.0 if at_once else max(0.0, last + interval - time.monotonic())
        if wait <= 0:  # edit now, inside the interaction that changed the table
            await self._edit_now(table)
            return
        self._pending[table.id] = self._spawn(
            self._edit_later(table, wait), f"table-edit-{table.id}"
        )

    async def _edit_now(self, table: LiveTable) -> None:
        self._last_edit[table.id] = time.monotonic()
        try:
            await self._show(table)
        except Exception:
            log.exception("table %s: could not refresh its message", table.id)
        if table.status not in LIVE:
            self._prune(table.id)  # a finished match: its last message is drawn

    async def _edit_later(self, table: LiveTable, wait: float) -> None:
        try:
            await asyncio.sleep(wait)
        finally:
            if self._pending.get(table.id) is asyncio.current_task():
                del self._pending[table.id]
        if table.status == "cancelled":
            return
        await self._edit_now(table)

    async def _show(self, table: LiveTable) -> None:
        async with self._lock(table.id):
            if table.status == "cancelled":
                return
            embed, view, picture = await self._render(table)
            view = frozen_view(view) if view is not None else None
            key = picture.key if picture is not None else None
            channel = self._channel(table)
            if table.row.message_id is not None:
                extra: dict[str, Any] = {}
                if self._pictures.get(table.id, UNKNOWN) != key:  # else: already attached
                    extra["attachments"] = await picture_files(picture)
                try:
                    await channel.get_partial_message(table.row.message_id).edit(
                        embed=embed, view=view, content=None, **extra
                    )
                    self._pictures[table.id] = key
                    return
                except discord.NotFound:
                    pass  # deleted by someone: post it again
            files = await picture_files(picture)
            extra = {"files": files} if files else {}
            message = await (
                channel.send(embed=embed, view=view, **extra)
                if view
                else channel.send(embed=embed, **extra)
            )
            table.row.message_id = message.id
            self._pictures[table.id] = key
            await self.bot.storage.set_table_message(table.id, message.id)

    async def match_started(self, table: LiveTable) -> None:
        """The lobby message becomes the table of the first round."""
        await self.table_changed(table, at_once=True)

    async def round_started(self, table: LiveTable) -> None:
        """R-M1: a new round gets a new message (old messages are hard to edit after an hour)."""
        async with self._lock(table.id):
            old = table.row.message_id
            if old is not None:
                try:
                    lang = await self.bot.guild_language(table.row.guild_id)
                    await (
                        self._channel(table)
                        .get_partial_message(old)
                        .edit(content=t(lang, "table.moved"), view=None)
                    )
                except discord.HTTPException:
                    pass
            table.row.message_id = None
            self._pictures.pop(table.id, None)
        await self.table_changed(table, at_once=True)

    async def table_closed(self, table: LiveTable, reason: str) -> None:
        pending = self._pending.pop(table.id, None)
        if pending is not None:
            pending.cancel()  # it would draw the live table again, buttons and all
        lang = await self.bot.guild_language(table.row.guild_id)
        embed = closed_message(table.id, lang, reason, games.display_name(table.row.game, lang))
        try:
            async with self._lock(table.id):  # after an edit in flight, never before it
                if table.row.message_id is not None:
                    try:
                        await (
                            self._channel(table)
                            .get_partial_message(table.row.message_id)
                            .edit(embed=embed, view=None, content=None)
                        )
                        return
                    except discord.HTTPException:
                        pass
                await self._channel(table).send(embed=embed)
        finally:
            self._prune(table.id)

    # -- private panels ----------------------------------------------------------------

    async def show_panel(
        self,
        interaction: discord.Interaction,
        table: LiveTable,
        seat: int,
        lang: str,
        edit: bool,
        **choice: Any,
    ) -> None:
        """Send (or update in place) the player's private panel; hide timed cards when due."""
        plugin = games.plugin(table.row.game)
        shown = plugin.panel(table, seat, lang, self.bot.service.clock(), **choice)
        view = frozen_view(shown.view)
        files = await picture_files(shown.picture)
        extra: dict[str, Any] = {"files": files} if files else {}
        message: discord.InteractionMessage | discord.WebhookMessage | None = None
        if edit:  # the attachments are replaced: an older picture never outlives its panel
            await interaction.edit_original_response(
                content=shown.text, view=view, attachments=files
            )
        elif not interaction.response.is_done():  # the panel is the answer (@original)
            await interaction.response.send_message(shown.text, view=view, ephemeral=True, **extra)
        else:
            message = await interaction.followup.send(
                shown.text, view=view, ephemeral=True, wait=True, **extra
            )
        if shown.hide_at is not None and not self._closing:
            self._spawn(
                self._hide_later(interaction, message, table, seat, lang, shown.hide_at),
                f"panel-hide-{table.id}-{seat}",
            )

    async def _hide_later(
        self,
        interaction: discord.Interaction,
        message: discord.WebhookMessage | discord.InteractionMessage | None,
        table: LiveTable,
        seat: int,
        lang: str,
        until: int,
    ) -> None:
        """R-S2/R-P3: the ephemeral is edited to hide the cards when their time is up."""
        clock = self.bot.service.clock
        while (remaining := until - clock()) > 0:  # short naps: the clock may jump (tests)
            await asyncio.sleep(min(0.25, remaining / 1000) + 0.01)
        if table.game is None:
            return
        plugin = games.plugin(table.row.game)
        hidden: Panel = plugin.panel(table, seat, lang, max(clock(), until))
        files = await picture_files(hidden.picture)  # the picture loses the hidden card too
        with contextlib.suppress(discord.HTTPException):
            if message is None:
                await interaction.edit_original_response(
                    content=hidden.text, view=frozen_view(hidden.view), attachments=files
                )
            else:
                await message.edit(
                    content=hidden.text, view=frozen_view(hidden.view), attachments=files
                )
            return
        log.info("table %s: could not hide a timed card panel (token expired?)", table.id)
