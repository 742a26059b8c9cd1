"""The presenter: a table's public message and the match hooks (the table service calls).

Private panels are the panel desk's (``desk.py``): the presenter tells it when a turn
starts (its open panels may gain moves) and when a table ends (its records go).

- Edits of a table message coalesce to about one per ``edit_interval_ms`` per table; the
  edit that fires renders the table's latest state.
- Each round gets a new message (R-M1: old messages are hard to edit after an hour).
- A closed table's pending edit is dropped (it would redraw live buttons on a closed
  table) and every per-table record is pruned.
- The table message is edited through the newest fresh token of a click on it
  (``table_token.py``: exempt from Discord's global limit), through the channel only when
  there is none; a click on it whose edit falls due answers with the new table.
- Shutdown (:meth:`stop`) waits for the edits and hides in flight.
- Pictures (docs/cards.md): a panel's ``picture`` and the plugin's optional
  ``table_picture`` are rendered off the event loop and attached; a table message is sent
  its picture again only when the picture changed, and every panel edit replaces the
  panel's attachments (a hidden card leaves the picture too).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import discord
import orjson

from bot import games
from bot.i18n import t
from bot.storage import display_state
from bot.tables import LiveTable, TableError
from bot.ui import clicked, pipeline, threads
from bot.ui.cards.display import CardPicture
from bot.ui.desk import PanelDesk, desk_for, picture_files
from bot.ui.kit import closed_message, fault, frozen_view, release_view
from bot.ui.nudges import Nudges
from bot.ui.open_panel import UNKNOWN
from bot.ui.table_token import CARRYING, Carried, TableTokens, edit_original, token_of

if TYPE_CHECKING:
    from bot.app import GameBot

log = logging.getLogger(__name__)

#: a table whose message the presenter keeps drawing
LIVE = ("lobby", "playing")
#: Discord's JSON error code for a channel that no longer exists (deleted, or the bot was
#: removed from its server)
UNKNOWN_CHANNEL = 10003


def table_print(embed: discord.Embed, view: discord.ui.View | None, picture: str | None) -> bytes:
    """A digest of what a table message shows: its embed, its components, its picture's key."""
    components = view.to_components() if view is not None else []
    raw = orjson.dumps([embed.to_dict(), components, picture])
    return hashlib.blake2b(raw, digest_size=16).digest()


def without_rematch(view: discord.ui.View) -> discord.ui.View | None:
    """``view`` less its Rematch button (a tournament's table); None if nothing is left."""
    for item in list(view.children):
        verb = (item.custom_id or "").split(":")[1:2] if isinstance(item, discord.ui.Button) else []
        if verb == ["rematch"]:
            view.remove_item(item)
    return view if view.children else None


class DiscordPresenter:
    """Posts and edits table messages; hides timed secrets in private panels."""

    def __init__(self, bot: GameBot, desk: PanelDesk | None = None) -> None:
        self.bot = bot
        #: the members' private panels (given by the app; a test's bot gets its own)
        self.desk = desk if desk is not None else desk_for(bot)
        self._pending: dict[int, asyncio.Task[None]] = {}
        self._last_edit: dict[int, float] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()  # edits and hides in flight
        #: each table's thread: started, summarised, archived, replaced (threads.py)
        self.threads = threads.TableThreads(bot, self)
        self._pictures: dict[int, str | None] = {}  # table -> key of its message's picture
        #: table -> what its message shows (:func:`table_print`), while it is known
        self._shown: dict[int, bytes] = {}
        self._previous: dict[int, int | None] = {}  # table -> its last round's message
        self._gone: set[int] = set()  # tables whose channel answered 10003, while they close
        #: each table's turn, watched: its player pinged if it waits (nudges.py)
        self.nudges = Nudges(bot, self)
        #: each table's newest token whose original response is its message
        self.tokens = TableTokens()
        self.desk.acknowledge = self.acknowledge
        self.desk.before_new_panel = self.lend_token
        self._closing = False

    # -- bookkeeping -----------------------------------------------------------------

    def tracked(self) -> set[int]:
        """Tables the presenter keeps a record of (pruned when a table ends)."""
        return (
            set(self._pending)
            | set(self._last_edit)
            | set(self._locks)
            | set(self._pictures)
            | set(self._shown)
            | set(self.desk.tables)
            | self.tokens.tables()
        )

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
        self._shown.pop(table_id, None)
        self._previous.pop(table_id, None)
        self.threads.forget(table_id)
        self.tokens.drop(table_id)
        lock = self._locks.get(table_id)
        if lock is not None and not lock.locked():
            del self._locks[table_id]
        self.desk.drop(table_id)  # its panels, their state and their rows

    async def stop(self) -> None:
        """Shutdown: no new edits; the ones in flight and the hides finish or are cancelled."""
        self._closing = True
        for task in list(self._pending.values()):
            task.cancel()
        self.nudges.stop()
        if self._tasks:
            _, pending = await asyncio.wait(set(self._tasks), timeout=5)
            for task in pending:
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.desk.stop()

    # -- the table message -------------------------------------------------------------

    def _channel(self, table: LiveTable) -> discord.PartialMessageable:
        """Where the table's new public messages go."""
        return self.bot.get_partial_messageable(
            self.public_channel_id(table), guild_id=table.row.guild_id
        )

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
        if view is not None and table.row.tournament_id is not None:
            view = without_rematch(view)  # the tournament deals its next table itself
        return embed, view, plugin.table_picture(table, lang, at)

    async def table_changed(self, table: LiveTable, at_once: bool = False) -> None:
        if self._closing or table.status == "cancelled" or table.id in self._gone:
            return  # a closed table is drawn once, by table_closed
        if table.id in self._pending and not at_once:
            return  # the pending edit will render the latest state
        interval = self.bot.config.edit_interval_ms / 1000
        last = self._last_edit.get(table.id, 0.0)
        wait = 0.0 if at_once else max(0.0, last + interval - time.monotonic())
        if wait <= 0:  # edit now, inside the interaction that changed the table
            carried = CARRYING.get()
            if (
                not at_once
                and carried is not None
                and carried.open
                and carried.table_id == table.id
            ):
                # a click on the table message: its answer carries the edit, or its token
                self._last_edit[table.id] = time.monotonic()
                carried.owed = True
                return
            await self._edit_now(table)
            return
        self._pending[table.id] = self._spawn(
            self._edit_later(table, wait), f"table-edit-{table.id}"
        )

    async def _edit_now(self, table: LiveTable) -> None:
        if await self._edit_shown(table):
            await self._after_shown(table)

    async def _edit_shown(self, table: LiveTable) -> bool:
        """The table message edited to show the table now (refusals logged, counted);
        False when its channel is gone (the table closes: nothing follows)."""
        self._last_edit[table.id] = time.monotonic()
        try:
            await self._show(table)
            if table.status == "finished":  # its final message is drawn (else: at start)
                await display_state.set_final_shown(self.bot.storage, table.id, True)
        except discord.HTTPException as exc:  # the next change draws it again
            if self._refused(table, exc, "table edit failed"):
                return False
        except Exception:
            log.exception("table %s: could not refresh its message", table.id)
        return True

    async def _after_shown(self, table: LiveTable) -> None:
        """What follows a drawing of the table: pings, the members' panels, a closed
        table's thread and records."""
        try:
            await self.nudges.watch(table)
        except discord.HTTPException as exc:
            if self._refused(table, exc, "turn ping failed"):
                return
        except Exception:
            log.exception("table %s: could not ping the player to play", table.id)
        try:
            await self.desk.wake(table)
        except Exception:
            log.exception("table %s: could not wake the members' panels", table.id)
        if table.status not in LIVE:
            await self.threads.close_thread(table)  # after its last ping went
            self._prune(table.id)  # a finished match: its last message is drawn

    async def message_deleted(self, channel_id: int, message_id: int) -> None:
        """MESSAGE_DELETE: a live table whose message a moderator deleted is posted again at
        once (it was only at the table's next change, or never while nothing happened)."""
        table_id = self.bot.service.by_channel.get(channel_id)
        table = self.bot.service.tables.get(table_id) if table_id is not None else None
        if table is None or table.row.message_id != message_id or self._closing:
            return
        async with self._lock(table.id):
            if table.row.message_id != message_id:
                return  # posted again meanwhile
            table.row.message_id = None
            self._pictures.pop(table.id, None)
            self._shown.pop(table.id, None)
        log.warning("table %s: its message was deleted; posting it again", table.id)
        await self.table_changed(table, at_once=True)

    async def post_table(self, table: LiveTable) -> None:
        """Draw a new table's first message now; Discord's refusal is raised (the caller
        frees the channel: a table nobody can see must not hold it)."""
        self._last_edit[table.id] = time.monotonic()
        await self._show(table)

    async def forget(self, table: LiveTable) -> None:
        """Drop every record of a table that is not shown (never posted, or its channel is
        gone)."""
        self._prune(table.id)
        self.nudges.forget(table.id)

    async def channel_gone(self, channel_id: int) -> None:
        """CHANNEL_DELETE: the channel's table closes (its match cancelled, its timers
        stopped); there is nothing left to draw it in."""
        table_id = self.bot.service.by_channel.get(channel_id)
        table = self.bot.service.tables.get(table_id) if table_id is not None else None
        if table is not None:
            await self.tables_gone([table], "channel deleted")

    async def guild_gone(self, guild_id: int) -> None:
        """GUILD_DELETE (the bot was removed from the server): every table there closes."""
        tables = [t for t in self.bot.service.tables.values() if t.row.guild_id == guild_id]
        await self.tables_gone(tables, "bot removed from the server")

    async def tables_gone(self, tables: list[LiveTable], cause: str) -> None:
        """Tables whose channel is gone: closed in one write each, never drawn again."""
        for table in tables:
            log.warning("table %s: closed, %s", table.id, cause)
            with contextlib.suppress(TableError):  # already closed
                await self.bot.service.cancel(table, "channel_gone", present=False)
            await self.forget(table)
            self._gone.discard(table.id)

    def _refused(self, table: LiveTable, exc: discord.HTTPException, kind: str) -> bool:
        """Discord refused a table's message (Missing Permissions, an outage): one WARNING
        line and a count. True when the channel is gone (10003: deleted, or the bot
        removed): the table closes instead of failing at every change."""
        if exc.code == UNKNOWN_CHANNEL:
            if table.status in LIVE and table.id not in self._gone:
                self._gone.add(table.id)  # no more edits while it closes
                self._spawn(self.tables_gone([table], "its channel is gone (10003)"), "gone")
            return True
        fault(kind, f"table {table.id}", exc)
        return False

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
            try:
                await self._send_table(table, embed, view, picture)
            finally:
                release_view(view)

    async def _send_table(
        self,
        table: LiveTable,
        embed: discord.Embed,
        view: discord.ui.View | None,
        picture: CardPicture | None,
    ) -> None:
        """Edit the table message (post it again if it is gone). Under the table's lock."""
        key = picture.key if picture is not None else None
        if table.row.message_id is not None:
            shows = table_print(embed, view, key)
            if self._shown.get(table.id) == shows and self._pictures.get(table.id, UNKNOWN) == key:
                return  # it shows this already: an edit would change nothing
            self._shown.pop(table.id, None)  # not known while the edit is in flight
            extra: dict[str, Any] = {}
            if self._pictures.get(table.id, UNKNOWN) != key:  # else: already attached
                extra["attachments"] = await picture_files(picture)
            in_thread = self._message_channel_id(table) == table.row.thread_id
            try:
                await self._edit_message(
                    table, table.row.message_id, embed=embed, view=view, content=None, **extra
                )
                self._pictures[table.id] = key
                self._shown[table.id] = shows
                return
            except discord.HTTPException as exc:
                if in_thread and threads.thread_is_gone(exc):
                    await self.threads.thread_lost(table, exc)  # the table goes on elsewhere
                elif not isinstance(exc, discord.NotFound):
                    raise
                # else: deleted by someone: post it again
        previous = self._previous.pop(table.id, None)
        try:
            try:
                message = await self._post_table(table, embed, view, picture)
            except discord.HTTPException as exc:
                if self.public_channel_id(table) != table.row.thread_id or not (
                    threads.thread_is_gone(exc) or exc.code == threads.MISSING_PERMISSIONS
                ):
                    raise
                await self.threads.thread_lost(table, exc)
                message = await self._post_table(table, embed, view, picture)
        except discord.HTTPException as exc:
            if previous is None:
                raise
            # A new round's message refused (403, 5xx): the round goes on in the last
            # message rather than in none (a table nobody could see).
            log.warning(
                "table %s: the new round could not be posted (%s %s); it goes on in its "
                "last message",
                table.id,
                exc.status,
                exc.code,
            )
            table.row.message_id = previous
            await self._edit_message(
                table,
                previous,
                embed=embed,
                view=view,
                content=None,
                attachments=await picture_files(picture),
            )
            self._pictures[table.id] = key
            return
        table.row.message_id = message.id
        self._pictures[table.id] = key
        await self.bot.storage.set_table_message(table.id, message.id)
        if previous is not None:  # the last round's message points to this one
            with contextlib.suppress(discord.HTTPException):
                lang = await self.bot.guild_language(table.row.guild_id)
                await self._edit_message(table, previous, content=t(lang, "table.moved"), view=None)

    async def _post_table(
        self,
        table: LiveTable,
        embed: discord.Embed,
        view: discord.ui.View | None,
        picture: CardPicture | None,
    ) -> Any:
        files = await picture_files(picture)
        extra: dict[str, Any] = {"files": files} if files else {}
        channel = self._channel(table)
        if view:
            return await channel.send(embed=embed, view=view, **extra)
        return await channel.send(embed=embed, **extra)

    async def _edit_message(
        self, table: LiveTable, message_id: int, channel_id: int | None = None, **fields: Any
    ) -> None:
        """``PartialMessage.edit`` without building a ``discord.Message`` from Discord's
        answer, which nothing reads. Its views are frozen: none is stored.
        ``channel_id``: where the message is (default: where the table message is).
        The route: the answer of the click on it being answered (an UPDATE_MESSAGE), else
        the newest fresh token whose original response it is (exempt from the global
        limit), else the channel (``PATCH /channels/{c}/messages/{m}``, global-bound), which
        stays the fallback when the token's edit fails."""
        carried = CARRYING.get()
        if (
            carried is not None
            and carried.table_id == table.id
            and carried.message_id == message_id
        ):
            if carried.answering and await self._answer_with(carried, fields):
                return
            self.keep_token(carried.interaction, table.id, message_id)
        if "content" in fields:  # as PartialMessage.edit: the bot's mentions (none)
            fields["previous_allowed_mentions"] = self.bot.allowed_mentions
        where = channel_id if channel_id is not None else self._message_channel_id(table)
        token = self.tokens.fresh(table.id, message_id, self.bot.service.clock())
        with discord.http.handle_message_parameters(**fields) as params:
            if token is not None:
                try:
                    await edit_original(self.bot, token, params)
                    return
                except discord.HTTPException as exc:  # expired, unknown: the channel's way
                    self.tokens.drop(table.id, token)
                    fault("table token edit failed", f"table {table.id}", exc)
                    for file in params.files or ():
                        file.reset()  # read once already
            await self.bot.http.edit_message(where, message_id, params=params)

    async def _answer_with(self, carried: Carried, fields: dict[str, Any]) -> bool:
        """The table edit made by the click's own answer (an UPDATE_MESSAGE, one call); False
        when it cannot be (answered already, refused): the edit takes another route."""
        interaction = carried.interaction
        if interaction.response.is_done():
            return False
        try:
            await interaction.response.edit_message(**fields)
        except (discord.HTTPException, discord.InteractionResponded) as exc:
            if isinstance(exc, discord.HTTPException):
                fault("table answer failed", f"table {carried.table_id}", exc)
            for file in fields.get("attachments") or ():
                if isinstance(file, discord.File):
                    file.reset()
            return False
        return True

    def keep_token(self, interaction: discord.Interaction, table_id: int, message_id: int) -> None:
        """A click on a table message answered by a deferred update or an UPDATE_MESSAGE:
        its token edits that message from now on (the table's newest such token)."""
        table = self.bot.service.tables.get(table_id)
        if table is None or table.status not in LIVE or self._closing:
            return  # a closed table's records are pruned: none is kept again
        token = token_of(interaction, message_id, self.bot.service.clock())
        if token is not None:
            self.tokens.keep(table_id, token)

    # -- a click on the table message ----------------------------------------------------

    @contextlib.asynccontextmanager
    async def carrying(
        self, interaction: discord.Interaction, table: LiveTable, from_panel: bool
    ) -> AsyncIterator[None]:
        """A play click is being answered. When it is on the table's current message, the
        table's edit falling due meanwhile is left to it (:meth:`acknowledge`), or made at its
        end through the freshest token; its token is kept for the edits to come."""
        message_id = None if from_panel else clicked.message_id(interaction)
        if message_id is None or message_id != table.row.message_id:
            yield
            return
        carried = Carried(interaction, table.id, message_id)
        reset = CARRYING.set(carried)
        failed = False
        try:
            yield
        except BaseException:
            failed = True
            raise
        finally:
            CARRYING.reset(reset)
            carried.open = False
            self.keep_token(interaction, table.id, message_id)
            owed, rest = carried.owed, carried.rest
            carried.owed = carried.rest = False
            if owed or rest:
                work = self._edit_now(table) if owed else self._after_shown(table)
                if failed:  # the refusal is answered first
                    self._spawn(work, f"table-edit-{table.id}")
                else:
                    await work

    async def acknowledge(self, interaction: discord.Interaction) -> None:
        """Acknowledge a click without a message of its own (a deferred update, type 6), or,
        when the click on the table message owes its table's edit, answer it with the new
        table (an UPDATE_MESSAGE, type 7): one call instead of two. What follows the drawing
        (pings, other panels) waits for the click's end."""
        carried = CARRYING.get()
        table = self.bot.service.tables.get(carried.table_id) if carried is not None else None
        if (
            carried is not None
            and table is not None
            and carried.open
            and carried.owed
            and carried.interaction is interaction
            and not interaction.response.is_done()
            and not self._closing
        ):
            carried.owed = False
            carried.rest = carried.answering = True
            try:
                shown = self._edit_shown(table)
                if not await pipeline.in_time(
                    interaction, shown, self.bot.config.answer_deadline_ms
                ):
                    carried.rest = False
            finally:
                carried.answering = False
        if not interaction.response.is_done():
            await interaction.response.defer()

    async def lend_token(self, interaction: discord.Interaction) -> None:
        """A click on the table's current message about to be answered with a new private
        panel (a first "My cards", a Draw with no panel open): when no fresh token edits
        that message, the click is acknowledged first, by a deferred update or by the new
        table when it owes its edit, so that the table message is its original response
        and its token edits the table from now on (exempt from the global limit); the panel
        follows as an ephemeral follow-up (exempt too). Without it, a round whose table
        clicks all opened panels drew every edit through the channel."""
        carried = CARRYING.get()
        if (
            carried is None
            or not carried.open
            or carried.interaction is not interaction
            or interaction.response.is_done()
            or self._closing
            or self.tokens.fresh(carried.table_id, carried.message_id, self.bot.service.clock())
        ):
            return
        await self.acknowledge(interaction)
        self.keep_token(interaction, carried.table_id, carried.message_id)

    # -- threads --------------------------------------------------------------

    def public_channel_id(self, table: LiveTable) -> int:
        """Where the table's new public messages go: its thread once the match started
        (the lobby stays in the channel, the thread's starter), else its channel."""
        thread = table.row.thread_id
        if thread is not None and table.status != "lobby":
            return thread
        return table.row.channel_id

    def _message_channel_id(self, table: LiveTable) -> int:
        """Where the table message (``row.message_id``) is: the lobby, and what it
        becomes, is the thread's starter in the channel (Discord gives both one id)."""
        thread = table.row.thread_id
        if thread is None or table.row.message_id == thread or table.status == "lobby":
            return table.row.channel_id
        return thread

    async def lobby_opened(self, table: LiveTable, can_thread: bool | None) -> str | None:
        """``/<game> new``: the lobby message in the channel, and the table's thread
        started from it when the server plays in threads. ``can_thread``: the interaction's
        ``app_permissions`` allow creating public threads and posting in them (None: the
        channel holds no thread). Returns the catalogue key of the one line the host is told
        when the table plays in the channel for want of permission, else None. Discord's
        refusal of the lobby itself is raised (the caller frees the channel)."""
        await self.post_table(table)
        starter = table.row.message_id
        if can_thread is None or starter is None or not await self.threads.on(table.row.guild_id):
            return None
        if not can_thread or not await self.threads.start_thread(table, starter):
            return "threads.no_permission"
        return None

    def thread_note(self, table_id: int) -> str | None:
        """The catalogue key of the line a rematch's press is told when its table plays in
        the channel for want of permission (once), else None."""
        return self.threads.notes.pop(table_id, None)

    async def thread_gone(self, thread_id: int) -> None:
        """Discord says a thread was deleted or archived (gateway): if a live table played
        there, it is posted again at once (its players have no button left)."""
        table_id = self.bot.service.by_channel.get(thread_id)
        table = self.bot.service.tables.get(table_id) if table_id is not None else None
        if table is None or table.row.thread_id != thread_id or table.status != "playing":
            return  # a lobby's thread is only used once the match starts
        async with self._lock(table.id):
            if table.row.thread_id != thread_id:
                return
            await self.threads.thread_lost(table, None)
        await self.table_changed(table, at_once=True)

    def settings_changed(self, guild_id: int) -> None:
        """``/tamalou settings`` stored new values: read them again."""
        self.nudges.settings_changed(guild_id)
        self.threads.settings_changed(guild_id)

    async def match_started(self, table: LiveTable) -> None:
        """The lobby message becomes the table of the first round; with a thread, it
        becomes the channel's summary and the table is posted in the thread. A rematch has
        no message yet: if Discord refuses its post, the new table is closed unseen and the
        press is told so (``not_posted``), as for ``/<game> new``: it never holds the
        channel."""
        if table.row.thread_id is not None:
            async with self._lock(table.id):
                await self.threads.edit_summary(table)
                table.row.message_id = None
                await self.bot.storage.set_table_message(table.id, None)
        elif table.row.message_id is None:  # a rematch: no lobby, a new thread
            try:
                if not await self.threads.open_thread(table):
                    await self.post_table(table)
                    if await self.threads.on(table.row.guild_id):  # Discord refused it
                        self.threads.notes[table.id] = "threads.no_permission"
            except discord.HTTPException as exc:
                fault("table post failed", f"table {table.id}", exc)
                with contextlib.suppress(TableError):
                    await self.bot.service.cancel(table, "not_posted", present=False)
                await self.forget(table)
                raise TableError("not_posted") from None
        await self.table_changed(table, at_once=True)

    async def round_started(self, table: LiveTable) -> None:
        """R-M1: a new round gets a new message (old messages are hard to edit after an hour)."""
        async with self._lock(table.id):
            # told "moved" once the new message is posted; kept if it cannot be
            self._previous[table.id] = table.row.message_id
            table.row.message_id = None
            self._pictures.pop(table.id, None)
            self._shown.pop(table.id, None)
        await self.table_changed(table, at_once=True)
        await self.threads.edit_summary(table)  # the standing after the round

    async def table_closed(self, table: LiveTable, reason: str) -> None:
        pending = self._pending.pop(table.id, None)
        if pending is not None:
            pending.cancel()  # it would draw the live table again, buttons and all
        with contextlib.suppress(Exception):
            await self.nudges.watch(table)  # the last ping goes with the table
        lang = await self.bot.guild_language(table.row.guild_id)
        embed = closed_message(table.id, lang, reason, games.display_name(table.row.game, lang))
        try:
            async with self._lock(table.id):  # after an edit in flight, never before it
                if table.row.message_id is not None:
                    try:
                        await self._edit_message(
                            table, table.row.message_id, embed=embed, view=None, content=None
                        )
                        return
                    except discord.HTTPException:
                        pass
                await self._channel(table).send(embed=embed)
        finally:
            with contextlib.suppress(Exception):
                await self.threads.close_thread(table, reason)
            self._prune(table.id)
