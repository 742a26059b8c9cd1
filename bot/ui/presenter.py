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
import hashlib
import logging
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
import orjson

from bot import games
from bot.games import Panel
from bot.i18n import t
from bot.storage import StorageBusy, display
from bot.tables import LiveTable, TableError
from bot.tables.clock import sleep_until
from bot.ui import clicked, pipeline, threads
from bot.ui.cards.display import CardPicture
from bot.ui.common import button, cid, closed_message, fault, frozen_view, release_view

if TYPE_CHECKING:
    from bot.app import GameBot

log = logging.getLogger(__name__)

#: a table whose message the presenter keeps drawing
LIVE = ("lobby", "playing")
#: an interaction token lasts 15 minutes: a panel is edited through it a little less long
PANEL_TOKEN_MS = 14 * 60 * 1000
#: the picture on a table message is not known (a restart, a new message)
UNKNOWN = "?"
#: Discord's JSON error code for a channel that no longer exists (deleted, or the bot was
#: removed from its server)
UNKNOWN_CHANNEL = 10003


async def picture_files(picture: CardPicture | None) -> list[discord.File]:
    """The attachment of a picture (rendered in a worker thread), or none."""
    return [] if picture is None else [await picture.file()]


#: a member's open panel is stored again (for a restart) once its token is this much older
#: than the stored one: not at every click on it (a write a click)
PANEL_RESAVE_MS = 5 * 60 * 1000


@dataclass(slots=True)
class OpenPanel:
    """A player's private panel, editable through the token of the interaction that showed
    it (Discord keeps a token for 15 minutes)."""

    token: str
    message_id: int
    opened_at: int  # ms, the bot's clock
    lang: str
    #: the round (a tarot deal) it shows: a new round gets a new panel (issue 21)
    round_no: int = 0
    #: the custom ids of the moves it offers now (a turn's start edits it when it gains some)
    moves: frozenset[str] = frozenset()
    #: when its token was last stored (member_panels), None: not stored
    saved_at: int | None = None
    #: what it shows (:func:`panel_print`), None: not known (an edit in flight, overlapping
    #: edits, a restart): a table button then edits it rather than trusting it
    shows: bytes | None = None
    #: the key of the picture it is known to carry (`CardPicture.key`), None: none or
    #: not known (as ``shows``): an edit with that very picture keeps the attachment rather
    #: than rendering and uploading it again (a turn's start wakes a panel whose hand is
    #: the same: issue 25's CPU a click)
    picture: str | None = None
    #: its edits in flight, and whether two of them overlapped (Discord may apply them in
    #: either order: what it shows is then not known until an edit alone)
    editing: int = 0
    overlapped: bool = False

    def alive(self, now: int) -> bool:
        return now - self.opened_at < PANEL_TOKEN_MS

    def started_edit(self) -> None:
        self.shows = None
        self.picture = None
        if self.editing:
            self.overlapped = True
        self.editing += 1

    def ended_edit(self, shows: bytes | None, picture: str | None = None) -> None:
        """An edit is done: ``shows`` is what it showed (None: it failed), ``picture`` the
        key of its picture."""
        self.editing -= 1
        if self.editing == 0:
            if not self.overlapped:
                self.shows = shows
                self.picture = picture if shows is not None else None
            self.overlapped = False


def table_print(embed: discord.Embed, view: discord.ui.View | None, picture: str | None) -> bytes:
    """A digest of what a table message shows: its embed, its components, its picture's key."""
    components = view.to_components() if view is not None else []
    raw = orjson.dumps([embed.to_dict(), components, picture])
    return hashlib.blake2b(raw, digest_size=16).digest()


def panel_print(text: str, view: discord.ui.View, picture: CardPicture | None) -> bytes:
    """A digest of what a panel shows: its text, its components and its picture. Equal
    digests, equal payloads: an edit would change nothing the member sees."""
    key = picture.key if picture is not None else None
    raw = orjson.dumps([text, view.to_components(), key])
    return hashlib.blake2b(raw, digest_size=16).digest()


class KeyedLocks:
    """One asyncio lock a key, kept only while somebody holds it or waits for it."""

    def __init__(self) -> None:
        self._held: dict[Any, tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def hold(self, key: Any) -> AsyncIterator[None]:
        lock, users = self._held.get(key, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._held[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._held[key]
            if users == 1:
                del self._held[key]
            else:
                self._held[key] = (lock, users - 1)


@dataclass(slots=True)
class TurnNudge:
    """A table's current turn, watched: its player is pinged if it waits too long."""

    turn: Any  # the plugin's turn key: (seat, key)
    started: int  # ms, the bot's clock: the turn's start (the plugin's turn_since), else when seen
    message_id: int | None = None  # the ping, once posted
    channel_id: int | None = None
    nonce: str | None = None  # the ping's nonce, which its stored row carries
    timer: asyncio.Task[None] | None = None
    #: its ping's post is in flight: Discord may make the message whatever the bot does
    posting: bool = False

    def stop(self, force: bool = False) -> None:
        """No ping for this turn any more. A post in flight is not cancelled (a cancel lost
        the message Discord made: a ping nobody deleted); its timer deletes it on return,
        its turn being over. ``force`` (shutdown): cancelled, its stored row swept at the
        next start."""
        if self.posting and not force:
            return
        if self.timer is not None and self.timer is not asyncio.current_task():
            self.timer.cancel()
        self.timer = None


def ping_nonce(table_id: int, posted: int) -> str:
    """The nonce a ping is posted with: the table and when it is posted, in base 36 (at most
    25 characters, as Discord allows). Not the turn's start: a turn pinged again after a
    restart swept its first ping must not be answered with the swept message."""
    return f"tp{_base36(table_id)}.{_base36(posted)}"[:25]


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    n = abs(n)
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if not n:
            return out


#: a second "My cards" within this, with no click on the panel between, gets a new panel
ASK_AGAIN_MS = 30_000

#: the table verb of every game that shows the member their panel ("My cards", "My hand")
HAND_VERB = "hand"


def asks_for_panel(interaction: discord.Interaction) -> bool:
    """The click is a table's "My cards": ``<game>:hand:<table>``."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id") or "")
    return custom_id.split(":")[1:2] == [HAND_VERB]


def without_rematch(view: discord.ui.View) -> discord.ui.View | None:
    """``view`` less its Rematch button (a tournament's table); None if nothing is left."""
    for item in list(view.children):
        verb = (item.custom_id or "").split(":")[1:2] if isinstance(item, discord.ui.Button) else []
        if verb == ["rematch"]:
            view.remove_item(item)
    return view if view.children else None


def moves_of(view: discord.ui.View) -> frozenset[str]:
    """The custom ids of a panel's live components: the moves it offers."""
    return frozenset(
        str(item.custom_id)
        for item in view.children
        if isinstance(item, discord.ui.Button | discord.ui.Select)
        and item.custom_id
        and not item.disabled
    )


class DiscordPresenter:
    """Posts and edits table messages; hides timed secrets in private panels."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self._pending: dict[int, asyncio.Task[None]] = {}
        self._last_edit: dict[int, float] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()  # edits and hides in flight
        self._panels: dict[tuple[int, int], OpenPanel] = {}  # (table, seat) -> open panel
        self._answering: dict[tuple[int, int], int] = {}  # (table, seat) -> clicks in flight
        #: a seat's panel is drawn and sent by one task at a time, so Discord receives its
        #: edits in the order of the states they show (a click's answer, a turn's wake, a
        #: timed hide): an older drawing never lands over a newer one
        self._drawing = KeyedLocks()
        #: (table, seat) -> (message, the bot's clock it was last drawn for): a timed hide
        #: that a later drawing already did is not sent again
        self._drawn_at: dict[tuple[int, int], tuple[int, int]] = {}
        #: (table, seat) -> (open panel's id, when) of a "My cards" answered by that panel
        self._asked: dict[tuple[int, int], tuple[int, int]] = {}
        self._woken: dict[int, Any] = {}  # table -> the turn its panels were woken for
        self._pings: dict[int, TurnNudge] = {}  # table -> its turn, watched
        self._ping_after: dict[int, int] = {}  # guild -> ms a turn waits before its ping
        self._threads_on: dict[int, bool] = {}  # guild -> its tables play in threads
        #: table -> the line its Rematch press is told (it plays in the channel: no thread)
        self._thread_notes: dict[int, str] = {}
        self._pictures: dict[int, str | None] = {}  # table -> key of its message's picture
        #: table -> what its message shows (:func:`table_print`), while it is known
        self._shown: dict[int, bytes] = {}
        self._previous: dict[int, int | None] = {}  # table -> its last round's message
        self._gone: set[int] = set()  # tables whose channel answered 10003, while they close
        self._ping_choices: dict[tuple[int, int], bool] = {}  # (guild, member) -> pinged
        #: (table, seat) -> the panel memory last stored (a game's optional panel_memory)
        self._memories: dict[tuple[int, int], Any] = {}
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
        self._thread_notes.pop(table_id, None)
        lock = self._locks.get(table_id)
        if lock is not None and not lock.locked():
            del self._locks[table_id]
        self._woken.pop(table_id, None)
        for key in [k for k in self._drawn_at if k[0] == table_id]:
            del self._drawn_at[key]
        keys = [k for k in self._panels if k[0] == table_id]
        for key in keys:
            if key not in self._answering:  # else: the click's answer edits it, then it goes
                del self._panels[key]
        if keys and not self._closing:
            self._spawn(self._drop_panels(table_id), f"panels-drop-{table_id}")

    async def _drop_panels(self, table_id: int) -> None:
        try:
            await display.drop_member_panels(self.bot.storage, table_id)
        except Exception:
            log.warning("table %s: its members' panels are not forgotten", table_id)

    async def _forget(self, table: LiveTable) -> None:
        """The table's match is done: its game forgets what its panels kept, here and in the
        database."""
        games.forget(table.row.game, table.id)
        had = [k for k in self._memories if k[0] == table.id]
        for key in had:
            del self._memories[key]
        if had:
            try:
                await display.drop_panel_memory(self.bot.storage, table.id)
            except Exception:
                log.exception("table %s: could not drop its panel memory", table.id)

    async def stop(self) -> None:
        """Shutdown: no new edits; the ones in flight and the hides finish or are cancelled."""
        self._closing = True
        for task in list(self._pending.values()):
            task.cancel()
        for nudge in self._pings.values():
            nudge.stop(force=True)  # a ping due later is not waited for
        if self._tasks:
            _, pending = await asyncio.wait(set(self._tasks), timeout=5)
            for task in pending:
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)

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
            await self._edit_now(table)
            return
        self._pending[table.id] = self._spawn(
            self._edit_later(table, wait), f"table-edit-{table.id}"
        )

    async def _edit_now(self, table: LiveTable) -> None:
        self._last_edit[table.id] = time.monotonic()
        try:
            await self._show(table)
            if table.status == "finished":  # its final message is drawn (else: at start)
                await display.set_final_shown(self.bot.storage, table.id, True)
        except discord.HTTPException as exc:  # the next change draws it again
            if self._refused(table, exc, "table edit failed"):
                return
        except Exception:
            log.exception("table %s: could not refresh its message", table.id)
        try:
            await self._ping_turn(table)
        except discord.HTTPException as exc:
            if self._refused(table, exc, "turn ping failed"):
                return
        except Exception:
            log.exception("table %s: could not ping the player to play", table.id)
        try:
            await self._wake_panels(table)
        except Exception:
            log.exception("table %s: could not wake the members' panels", table.id)
        if table.status not in LIVE:
            await self._close_thread(table)  # after its last ping went
            self._prune(table.id)  # a finished match: its last message is drawn
            await self._forget(table)

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
        self._pings.pop(table.id, None)
        await self._forget(table)

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
        removed): the table closes instead of failing at every change (issue 23)."""
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
                return  # it shows this already: an edit would change nothing (issue 25)
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
                    await self._thread_lost(table, exc)  # the table goes on elsewhere
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
                await self._thread_lost(table, exc)
                message = await self._post_table(table, embed, view, picture)
        except discord.HTTPException as exc:
            if previous is None:
                raise
            # A new round's message refused (403, 5xx): the round goes on in the last
            # message rather than in none (issue 23: a table nobody could see).
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
        answer, which nothing reads (issue 16). Its views are frozen: none is stored.
        ``channel_id``: where the message is (default: where the table message is)."""
        if "content" in fields:  # as PartialMessage.edit: the bot's mentions (none)
            fields["previous_allowed_mentions"] = self.bot.allowed_mentions
        where = channel_id if channel_id is not None else self._message_channel_id(table)
        with discord.http.handle_message_parameters(**fields) as params:
            await self.bot.http.edit_message(where, message_id, params=params)

    # -- threads (issue 22) --------------------------------------------------------------

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

    async def threads_on(self, guild_id: int) -> bool:
        """The server's ``/tamalou settings threads:``, else the bot's ``TAMALOU_THREADS``."""
        cached = self._threads_on.get(guild_id)
        if cached is None:
            settings = await self.bot.storage.guild_settings(guild_id)
            on = bool(settings.get("threads", self.bot.config.threads))
            cached = self._threads_on.setdefault(guild_id, on)
        return cached

    async def lobby_opened(self, table: LiveTable, can_thread: bool | None) -> str | None:
        """``/<game> new``: the lobby message in the channel, and the table's thread
        started from it when the server plays in threads. ``can_thread``: the interaction's
        ``app_permissions`` allow creating public threads and posting in them (None: the
        channel holds no thread). Returns the catalogue key of the one line the host is told
        when the table plays in the channel for want of permission, else None. Discord's
        refusal of the lobby itself is raised (the caller frees the channel, issue 23)."""
        await self.post_table(table)
        starter = table.row.message_id
        if can_thread is None or starter is None or not await self.threads_on(table.row.guild_id):
            return None
        if not can_thread or not await self._start_thread(table, starter):
            return "threads.no_permission"
        return None

    def thread_note(self, table_id: int) -> str | None:
        """The catalogue key of the line a rematch's press is told when its table plays in
        the channel for want of permission (once), else None."""
        return self._thread_notes.pop(table_id, None)

    async def _start_thread(self, table: LiveTable, starter_id: int) -> bool:
        """Start the table's public thread from its channel message ``starter_id``;
        False when Discord refuses (no permission: the table plays in the channel)."""
        lang = await self.bot.guild_language(table.row.guild_id)
        try:
            data = await self.bot.http.start_thread_with_message(
                table.row.channel_id,
                starter_id,
                name=threads.thread_name(table, lang),
                auto_archive_duration=threads.AUTO_ARCHIVE_MINUTES,
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

    async def _open_thread(self, table: LiveTable) -> bool:
        """A playing table without a thread (a rematch, a thread lost): its summary posted
        in the channel and the thread started from it; the summary goes again if Discord
        refuses the thread (the table plays in the channel)."""
        if not await self.threads_on(table.row.guild_id):
            return False
        lang = await self.bot.guild_language(table.row.guild_id)
        with discord.http.handle_message_parameters(
            embed=threads.summary(table, lang, None)
        ) as params:
            data = await self.bot.http.send_message(table.row.channel_id, params=params)
        starter = int(data["id"])
        if await self._start_thread(table, starter):
            await self._edit_summary(table)
            return True
        with contextlib.suppress(discord.HTTPException):
            await self.bot.http.delete_message(table.row.channel_id, starter)
        return False

    async def _edit_summary(self, table: LiveTable, reason: str | None = None) -> None:
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
            await self._edit_message(
                table,
                thread,
                table.row.channel_id,
                embed=threads.summary(table, lang, thread, reason),
                view=frozen_view(view) if view is not None else None,
                content=None,
            )
        except discord.HTTPException as exc:  # deleted by someone: the thread goes on
            log.info("table %s: its summary is gone (%s)", table.id, exc.code)
        finally:
            release_view(view)

    async def _close_thread(self, table: LiveTable, reason: str | None = None) -> None:
        """The match is over or the table closed: the summary says so, the thread is
        archived (after its last ping went)."""
        thread = table.row.thread_id
        if thread is None:
            return
        if table.row.message_id != thread:  # else: the lobby itself says it is closed
            await self._edit_summary(table, reason)
        try:
            await self.bot.http.edit_channel(thread, archived=True)
        except discord.HTTPException as exc:
            log.info("table %s: its thread was not archived (%s)", table.id, exc.code)

    async def _thread_lost(self, table: LiveTable, exc: discord.HTTPException | None) -> None:
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
        self._pictures.pop(table.id, None)
        self._shown.pop(table.id, None)
        await self.bot.storage.set_table_thread(table.id, None)
        if table.status == "playing" and (exc is None or exc.code != threads.MISSING_PERMISSIONS):
            await self._open_thread(table)
        if old is not None:  # its channel summary linked to the lost thread: now to the new
            lang = await self.bot.guild_language(table.row.guild_id)
            with contextlib.suppress(discord.HTTPException):
                await self._edit_message(
                    table,
                    old,
                    table.row.channel_id,
                    embed=threads.summary(table, lang, table.row.thread_id),
                    view=None,
                    content=None,
                )

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
            await self._thread_lost(table, None)
        await self.table_changed(table, at_once=True)

    # -- turn pings: nudges ------------------------------------------------------------

    def _turn(self, table: LiveTable) -> Any:
        """The plugin's turn key (seat, key) of the table's human to act, or None."""
        if table.game is None or table.status != "playing":
            return None
        return games.plugin(table.row.game).turn_of(table, self.bot.service.clock())

    def _acted(self, table: LiveTable, nudge: TurnNudge) -> bool:
        """The nudged turn's player made a move since the turn started."""
        seats = table.match_seats
        seat = nudge.turn[0]
        if not 0 <= seat < len(seats):
            return False
        return table.acted.get(seats[seat].user_id, -1) >= nudge.started

    async def _ping_turn(self, table: LiveTable) -> None:
        """After every drawing of the table: a turn that starts is watched, and its player
        pinged only if it waits ``ping_after`` without their move (:meth:`_nudge_later`);
        the ping is deleted when they move or the turn ends, never before (issue 22).

        Posted and deleted through ``bot.http`` (no ``Message`` built from the answer: only
        its id is kept) and stored when posted or deleted (issue 16)."""
        turn = self._turn(table)
        nudge = self._pings.get(table.id)
        if nudge is not None and nudge.turn == turn:
            if nudge.message_id is not None and self._acted(table, nudge):
                await self._unping(table, nudge)  # they moved: the nudge did its job
            return
        fresh = None
        if turn is not None:  # its wait counts from the turn's start, not from this drawing
            now = self.bot.service.clock()
            since = games.plugin(table.row.game).turn_since(table)
            fresh = TurnNudge(turn, now if since is None else min(now, since))
        if fresh is None:
            self._pings.pop(table.id, None)
        else:
            self._pings[table.id] = fresh
        if nudge is not None:
            nudge.stop()
            if nudge.message_id is not None:
                await self._unping(table, nudge)  # its turn ended
        if fresh is not None and not self._closing:
            fresh.timer = asyncio.create_task(
                self._nudge_later(table, fresh), name=f"turn-ping-{table.id}"
            )

    async def _unping(self, table: LiveTable, nudge: TurnNudge) -> None:
        """Delete a nudge's ping; forget it in storage unless a newer ping is stored."""
        message_id, channel_id = nudge.message_id, nudge.channel_id
        nudge.message_id = None
        if message_id is None:
            return
        with contextlib.suppress(discord.HTTPException):
            await self.bot.http.delete_message(channel_id or table.row.channel_id, message_id)
        if nudge.nonce is not None:  # its own row only: a newer ping may be being posted
            with contextlib.suppress(StorageBusy):
                await display.drop_turn_ping(self.bot.storage, table.id, nonce=nudge.nonce)
            return
        current = self._pings.get(table.id)
        if current is None or current.message_id is None:
            await self._keep_ping(table, None)

    async def _nudge_later(self, table: LiveTable, nudge: TurnNudge) -> None:
        """Ping the turn's player once it waited the server's ``ping_after``, unless they
        moved meanwhile or the turn is over."""
        clock = self.bot.service.clock
        try:
            due = nudge.started + await self.ping_after_ms(table.row.guild_id)
            await sleep_until(clock, due, 1.0)  # naps: the clock may jump (tests)
            if (
                self._closing
                or self._pings.get(table.id) is not nudge
                or self._turn(table) != nudge.turn  # moved on; the next drawing says so
                or self._acted(table, nudge)
            ):
                return
            ping = await self._post_ping(table, nudge)
            if ping is None:
                return
            if self._pings.get(table.id) is not nudge:  # the turn ended while posting
                with contextlib.suppress(discord.HTTPException):
                    await self.bot.http.delete_message(ping.channel_id, ping.message_id)
                with contextlib.suppress(StorageBusy):
                    await display.drop_turn_ping(self.bot.storage, table.id, nonce=ping.nonce)
                return
            nudge.message_id, nudge.channel_id = ping.message_id, ping.channel_id
            nudge.nonce = ping.nonce
            await self._keep_ping(table, ping)  # a restart neither pings twice nor leaves it
            if self._acted(table, nudge):  # they moved while it was posted: nothing deleted it
                await self._unping(table, nudge)
        except asyncio.CancelledError:
            raise
        except discord.HTTPException as exc:  # its channel gone (the table closes), a 403...
            self._refused(table, exc, "ping failed")
        except Exception:
            log.exception("table %s: could not ping the player to play", table.id)
        finally:
            if nudge.timer is asyncio.current_task():
                nudge.timer = None

    async def _post_ping(self, table: LiveTable, nudge: TurnNudge) -> display.TurnPing | None:
        """The ping of the nudged turn's player, posted (None: no ping for this player: an AI,
        away, or they turned pings off). Stored before its post with the nonce it is posted
        with (``enforce_nonce``): a kill in between leaves a row that finds the message at
        the next start (:meth:`restore_pings`), never a ping nobody deletes."""
        turn = nudge.turn
        seat = turn[0]
        seats = table.match_seats
        if not 0 <= seat < len(seats) or seats[seat].ai_level is not None:
            return None
        if table.game is None or table.module.away(table.game, seat):
            return None
        user_id = seats[seat].user_id
        if not await self.wants_ping(table.row.guild_id, user_id):
            return None
        lang = await self.bot.guild_language(table.row.guild_id)
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(user_id)]
        )
        channel_id = self.public_channel_id(table)
        nonce = ping_nonce(table.id, self.bot.service.clock())  # this post's own
        await self._keep_ping(table, display.TurnPing(table.id, turn, 0, channel_id, nonce=nonce))
        if self._pings.get(table.id) is not nudge:  # the turn ended meanwhile: no post
            with contextlib.suppress(StorageBusy):
                await display.drop_turn_ping(self.bot.storage, table.id, nonce=nonce)
            return None
        nudge.posting = True  # from here a stop does not cancel: see TurnNudge.stop
        try:
            with discord.http.handle_message_parameters(
                content=t(lang, "ping.turn", mention=f"<@{user_id}>", id=table.id),
                nonce=nonce,  # discord.py sends enforce_nonce with it
                allowed_mentions=mentions,
                previous_allowed_mentions=self.bot.allowed_mentions,
            ) as params:
                data = await self.bot.http.send_message(channel_id, params=params)
        finally:
            nudge.posting = False
        return display.TurnPing(table.id, turn, int(data["id"]), channel_id, nonce=nonce)

    async def ping_after_ms(self, guild_id: int) -> int:
        """How long a turn waits before its player is pinged: the server's setting, else the
        bot's ``TAMALOU_PING_AFTER_S``; read once, then kept until the setting changes."""
        cached = self._ping_after.get(guild_id)
        if cached is None:
            settings = await self.bot.storage.guild_settings(guild_id)
            seconds = settings.get("ping_after_s", self.bot.config.ping_after_s)
            cached = self._ping_after.setdefault(guild_id, int(float(seconds) * 1000))
        return cached

    def settings_changed(self, guild_id: int) -> None:
        """``/tamalou settings`` stored new values: read them again."""
        self._ping_after.pop(guild_id, None)
        self._threads_on.pop(guild_id, None)

    async def _keep_ping(self, table: LiveTable, ping: display.TurnPing | None) -> None:
        """Store the table's ping (None: it is gone). A busy database only costs the memory
        of it across a restart (the turn may be pinged again then): a warning, not an error."""
        try:
            if ping is None:
                await display.drop_turn_ping(self.bot.storage, table.id)
            else:
                await display.save_turn_ping(self.bot.storage, ping)
        except StorageBusy:
            log.warning("table %s: the turn ping is not stored (database busy)", table.id)

    async def wants_ping(self, guild_id: int, user_id: int) -> bool:
        """The member's ``/tamalou ping`` choice, read once from storage, then kept: it read
        the database at every turn (issue 16). Only ``ping_choice`` changes it, called by
        the command in the process that serves the guild (its shard), so it stays true."""
        key = (guild_id, user_id)
        on = self._ping_choices.get(key)
        if on is None:
            on = await display.turn_ping(self.bot.storage, guild_id, user_id)
            on = self._ping_choices.setdefault(key, on)  # a choice made meanwhile wins
        return on

    def ping_choice(self, guild_id: int, user_id: int, on: bool) -> None:
        """A member turned their turn pings on or off (stored by the caller)."""
        self._ping_choices[(guild_id, user_id)] = on

    async def match_started(self, table: LiveTable) -> None:
        """The lobby message becomes the table of the first round; with a thread, it
        becomes the channel's summary and the table is posted in the thread. A rematch has
        no message yet: if Discord refuses its post, the new table is closed unseen and the
        press is told so (``not_posted``), as for ``/<game> new``: it never holds the
        channel."""
        if table.row.thread_id is not None:
            async with self._lock(table.id):
                await self._edit_summary(table)
                table.row.message_id = None
                await self.bot.storage.set_table_message(table.id, None)
        elif table.row.message_id is None:  # a rematch: no lobby, a new thread
            try:
                if not await self._open_thread(table):
                    await self.post_table(table)
                    if await self.threads_on(table.row.guild_id):  # Discord refused it
                        self._thread_notes[table.id] = "threads.no_permission"
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
        await self._edit_summary(table)  # the standing after the round

    async def table_closed(self, table: LiveTable, reason: str) -> None:
        pending = self._pending.pop(table.id, None)
        if pending is not None:
            pending.cancel()  # it would draw the live table again, buttons and all
        with contextlib.suppress(Exception):
            await self._ping_turn(table)  # the last ping goes with the table
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
                await self._close_thread(table, reason)
            self._prune(table.id)
            await self._forget(table)

    # -- private panels ----------------------------------------------------------------

    @contextlib.contextmanager
    def answering(self, table_id: int, seat: int) -> Iterator[None]:
        """A click of ``seat`` is being answered: its own answer shows its panel, so a turn
        starting meanwhile does not edit that panel too."""
        key = (table_id, seat)
        self._answering[key] = self._answering.get(key, 0) + 1
        try:
            yield
        finally:
            left = self._answering[key] - 1
            if left:
                self._answering[key] = left
            else:
                del self._answering[key]
                if table_id not in self._last_edit:  # the table ended meanwhile (pruned)
                    self._panels.pop(key, None)

    async def show_panel(
        self,
        interaction: discord.Interaction,
        table: LiveTable,
        seat: int,
        lang: str,
        edit: bool,
        reuse: bool = True,
        **choice: Any,
    ) -> None:
        """Show the player's private panel; hide timed cards when due.

        One panel per member per round (issue 21). ``edit``: the click was on that panel,
        which is updated in place (its callback). Else (a table button) the member's open
        panel of this round is edited while its token lives, the click acknowledged without
        a message; a new panel is posted only when there is none, its token is about to
        expire or it cannot be edited, or when ``reuse`` is False (``/<game> hand``: the
        member asks for a new one).
        """
        plugin = games.plugin(table.row.game)
        async with self._drawing.hold((table.id, seat)):  # drawn when it can be sent
            now = self.bot.service.clock()
            shown = plugin.panel(table, seat, lang, now, **choice)
            try:
                await self._send_panel(
                    interaction, table, seat, lang, edit, reuse, shown, now, plugin.round_no(table)
                )
            finally:
                release_view(shown.view)
        await self._remember(plugin, table, seat)

    async def _remember(self, plugin: games.GamePlugin, table: LiveTable, seat: int) -> None:
        """What the game's panel keeps for the seat (``GamePlugin.panel_memory``, JSON-able), stored when it changed: a restart gives it back
        (:meth:`restore_panel_memory`)."""
        data = plugin.panel_memory(table.id, seat)
        key = (table.id, seat)
        if data is None or self._memories.get(key) == data:
            return
        try:
            await display.save_panel_memory(self.bot.storage, table.id, seat, data)
            self._memories[key] = data
        except Exception:
            log.exception("table %s: could not keep seat %s's panel memory", table.id, seat)

    async def restore_panel_memory(self) -> int:
        """At start, before any click: each live table's panel memories back to their game
        (its optional ``restore_panel_memory(table_id, seat, data)``). Other processes'
        tables are theirs. Returns how many were given back."""
        restored = 0
        for table_id, guild_id, seat, data in await display.panel_memories(self.bot.storage):
            table = self.bot.service.tables.get(table_id)
            if table is None or not self.bot.service.owns(guild_id):
                continue
            games.plugin(table.row.game).restore_panel_memory(table_id, seat, data)
            self._memories[(table_id, seat)] = data
            restored += 1
        return restored

    async def _send_panel(
        self,
        interaction: discord.Interaction,
        table: LiveTable,
        seat: int,
        lang: str,
        edit: bool,
        reuse: bool,
        shown: Panel,
        now: int,
        round_no: int,
    ) -> None:
        view = frozen_view(shown.view)
        moves = moves_of(view)
        key = (table.id, seat)
        opened: OpenPanel | None = None
        old = self._panels.get(key)
        deadline = self.bot.config.answer_deadline_ms
        # A timed secret's hide is stored before the secret is shown: a kill in between
        # left it shown for good (issue 23). A new panel is posted without it first (its id
        # is known only then), stored, then edited to show it.
        hide_at = None if self._closing else shown.hide_at
        if edit:
            self._asked.pop(key, None)  # they see their panel: they clicked it
        elif reuse and old is not None and asks_for_panel(interaction):
            reuse = self._asked_once(key, old, now)
        if edit and (clicked_id := clicked.message_id(interaction)) is not None:
            picture = shown.picture.key if shown.picture is not None else None
            # the member's current panel, known to carry this very picture: it is kept
            kept = (
                picture is not None
                and old is not None
                and old.message_id == clicked_id
                and not old.editing
                and old.picture == picture
            )
            files = [] if kept else await self._files(interaction, shown.picture, deadline)
            # the attachments are replaced (an older picture never outlives its panel), or
            # kept when they are the very picture
            attached: dict[str, Any] = {} if kept else {"attachments": files}
            edited = OpenPanel(interaction.token, clicked_id, now, lang, round_no, moves)
            printed: bytes | None = panel_print(shown.text, view, shown.picture)
            await self._keep_timed(table, seat, edited, hide_at)
            try:
                if interaction.response.is_done():
                    await interaction.edit_original_response(
                        content=shown.text, view=view, **attached
                    )
                else:  # the click's one callback, carrying its result
                    await interaction.response.edit_message(
                        content=shown.text, view=view, **attached
                    )
                opened = edited
                if old is not None and old.message_id == clicked_id:
                    opened.saved_at = old.saved_at  # the same panel, a fresher token
                    if old.editing:  # an older edit may still land after this one
                        printed = None
                opened.shows = printed
                if printed is not None and (kept or files):
                    opened.picture = picture
            except discord.HTTPException as exc:  # a move may be committed: a fresh panel
                fault("panel edit failed", f"table {table.id}", exc)  # says so
        elif reuse and old is not None and old.round_no == round_no and old.alive(now):
            if not interaction.response.is_done():  # the click's answer is in the panel
                await interaction.response.defer()
            shows = panel_print(shown.text, view, shown.picture)
            if hide_at is None and old.shows == shows:
                opened = old  # it shows this already: an edit would change nothing (issue 25)
                opened.moves = moves
            else:
                await self._keep_timed(table, seat, old, hide_at)
                if await self._edit_panel(old, shown, shows, keep_picture=True):
                    opened = old
                    opened.moves = moves
        if opened is None:
            first = shown if hide_at is None else self._hidden(table, seat, lang, hide_at)
            opened = await self._post_panel(interaction, first, now, lang, round_no, deadline)
            opened.moves = moves
            if first is not shown:
                release_view(first.view)
                await self._keep_timed(table, seat, opened, hide_at)
                if not await self._edit_panel(opened, shown):
                    log.warning("table %s: a timed panel could not show its cards", table.id)
        self._panels[key] = opened
        self._drawn_at[key] = (opened.message_id, now)
        await self._keep_panel(table, seat, opened, now)
        self._hide_timed(table, seat, opened, hide_at)

    def _asked_once(self, key: tuple[int, int], old: OpenPanel, now: int) -> bool:
        """A table's "My cards" edits the member's open panel (issue 21), which the member
        may no longer see: Discord's client drops an ephemeral they dismissed, or at a
        reload, and an edit of it then shows nothing. Asked twice in a row (within
        :data:`ASK_AGAIN_MS`, no click on the panel between), the second is answered by a new
        panel. True: answer this one with the open panel."""
        last = self._asked.get(key)
        if last is not None and last[0] == old.message_id and now - last[1] <= ASK_AGAIN_MS:
            del self._asked[key]
            return False
        self._asked[key] = (old.message_id, now)
        return True

    async def _keep_panel(self, table: LiveTable, seat: int, opened: OpenPanel, now: int) -> None:
        """Store the member's open panel (a restart edits it again), when it is new or its
        stored token is getting old; a busy database only costs a new panel after a restart."""
        if opened.saved_at is not None and now - opened.saved_at < PANEL_RESAVE_MS:
            return
        row = display.MemberPanel(
            table.id,
            seat,
            opened.round_no,
            opened.token,
            opened.message_id,
            opened.opened_at,
            opened.lang,
        )
        try:
            await display.save_member_panel(self.bot.storage, row)
            opened.saved_at = now
        except Exception:
            log.warning("table %s: seat %s's open panel is not stored", table.id, seat)

    def _hide_timed(
        self, table: LiveTable, seat: int, opened: OpenPanel, hide_at: int | None
    ) -> None:
        """A panel showing timed cards is hidden when their time is up (its hide stored
        first, by ``_keep_timed``)."""
        if hide_at is None or self._closing:
            return
        self._spawn(
            self._hide_later(opened, table, seat, hide_at, None),
            f"panel-hide-{table.id}-{seat}",
        )

    async def _wake_panels(self, table: LiveTable) -> None:
        """A turn starts (or a race opens with it, a Kalooki call): every member's open panel
        of the round that now offers moves it did not is edited to offer them, so the member
        plays from the panel they have instead of asking for a new one (issue 21). Not the
        panel of a member whose click is being answered: that answer shows it."""
        if table.game is None or table.status != "playing":
            return
        plugin = games.plugin(table.row.game)
        now = self.bot.service.clock()
        turn = plugin.moment(table, now)
        if self._woken.get(table.id, UNKNOWN) == turn:
            return
        self._woken[table.id] = turn
        round_no = plugin.round_no(table)
        for (table_id, seat), opened in list(self._panels.items()):
            if (
                table_id != table.id
                or opened.round_no != round_no
                or not opened.alive(now)
                or (table_id, seat) in self._answering
            ):
                continue
            async with self._drawing.hold((table_id, seat)):
                if self._panels.get((table_id, seat)) is not opened:
                    continue  # a click's answer showed it meanwhile
                now = self.bot.service.clock()
                shown = plugin.panel(table, seat, opened.lang, now)
                try:
                    moves = moves_of(shown.view)
                    if moves - opened.moves:
                        hide_at = None if self._closing else shown.hide_at
                        await self._keep_timed(table, seat, opened, hide_at)
                        if await self._edit_panel(opened, shown, keep_picture=True):
                            opened.moves = moves
                            self._drawn_at[(table_id, seat)] = (opened.message_id, now)
                            self._hide_timed(table, seat, opened, hide_at)
                finally:
                    release_view(shown.view)

    async def restore_panels(self) -> int:
        """At start: each member's open panel of a live table (its round's panel is edited
        again, not posted anew); those of tables closed meanwhile are forgotten."""
        now = self.bot.service.clock()
        restored = 0
        gone: set[int] = set()
        for row in await display.member_panels(self.bot.storage):
            table = self.bot.service.tables.get(row.table_id)
            if table is None:
                continue  # another process's table (its shard), or closed: not ours to drop
            if table.game is None or table.status != "playing":
                gone.add(row.table_id)
                continue
            opened = OpenPanel(row.token, row.message_id, row.opened_at, row.lang, row.round_no)
            opened.saved_at = now
            if opened.alive(now):
                self._panels[(row.table_id, row.seat)] = opened
                restored += 1
        for table_id in gone:
            await self._drop_panels(table_id)
        return restored

    def _hidden(self, table: LiveTable, seat: int, lang: str, hide_at: int) -> Panel:
        """The panel once its timed cards are hidden again (as ``_hide_later`` draws it)."""
        return games.plugin(table.row.game).panel(table, seat, lang, hide_at)

    async def _post_panel(
        self,
        interaction: discord.Interaction,
        shown: Panel,
        now: int,
        lang: str,
        round_no: int,
        deadline_ms: int,
    ) -> OpenPanel:
        """A new private panel: the interaction's answer (``@original``) or a followup."""
        view = frozen_view(shown.view)
        files = await self._files(interaction, shown.picture, deadline_ms)
        extra: dict[str, Any] = {"files": files} if files else {}
        if not interaction.response.is_done():  # the panel is the answer (@original)
            sent = await interaction.response.send_message(
                shown.text, view=view, ephemeral=True, **extra
            )
            message_id = sent.message_id or (await interaction.original_response()).id
        else:
            message = await interaction.followup.send(
                shown.text, view=view, ephemeral=True, wait=True, **extra
            )
            message_id = message.id
        opened = OpenPanel(interaction.token, message_id, now, lang, round_no)
        opened.shows = panel_print(shown.text, view, shown.picture)
        opened.picture = shown.picture.key if files and shown.picture is not None else None
        return opened

    @staticmethod
    async def _files(
        interaction: discord.Interaction, picture: CardPicture | None, deadline_ms: int
    ) -> list[discord.File]:
        """A panel's attachment, rendered in time for the safety deadline (none: nothing to
        wait for, no task)."""
        if picture is None:
            return []
        return await pipeline.in_time(interaction, picture_files(picture), deadline_ms)

    async def _keep_timed(
        self, table: LiveTable, seat: int, opened: OpenPanel, hide_at: int | None
    ) -> None:
        """Store a timed panel's hide, so that a restart still hides it (``hide_at`` None:
        the panel shows nothing timed)."""
        if hide_at is None:
            return
        timed = display.TimedPanel(
            table.id, seat, opened.token, opened.message_id, opened.opened_at, hide_at, opened.lang
        )
        try:
            await display.save_timed_panel(self.bot.storage, timed)
        except Exception:  # the hide in memory still runs; only a kill would skip it now
            log.warning("table %s: could not keep a timed panel's hide", table.id, exc_info=True)

    async def restore_pings(self) -> None:
        """At start, before the tables are drawn again: each live table's ping and the turn it
        was for, so that turn is not pinged twice and the ping goes when the turn does; the
        ping of a table closed meanwhile is deleted. Other processes' tables are theirs."""
        for ping in await display.turn_pings(self.bot.storage):
            if not self.bot.service.owns(ping.guild_id):
                continue
            table = self.bot.service.tables.get(ping.table_id)
            if not ping.message_id:  # killed while posting it: find it by its nonce, delete it
                await self._sweep_ping(ping)
                continue
            if table is not None and table.status == "playing":
                now = self.bot.service.clock()
                self._pings[table.id] = TurnNudge(
                    ping.turn, now, ping.message_id, ping.channel_id, ping.nonce
                )
                continue
            with contextlib.suppress(discord.HTTPException):
                await self.bot.http.delete_message(ping.channel_id, ping.message_id)
            await display.drop_turn_ping(self.bot.storage, ping.table_id)

    async def _sweep_ping(self, ping: display.TurnPing) -> None:
        """A ping whose post a kill interrupted: the same nonce posted again returns the
        message if Discord made it (``enforce_nonce``, a few minutes), which is then deleted;
        else the post makes a message that mentions nobody, deleted at once. Its turn is
        watched again from the start (the player may be pinged once more for it)."""
        if ping.nonce:
            try:
                with discord.http.handle_message_parameters(
                    content="\u2026",
                    nonce=ping.nonce,
                    allowed_mentions=discord.AllowedMentions.none(),
                ) as params:
                    data = await self.bot.http.send_message(ping.channel_id, params=params)
                await self.bot.http.delete_message(ping.channel_id, int(data["id"]))
            except discord.HTTPException as exc:  # its channel gone, or no right to post
                log.warning("table %s: an interrupted ping not swept (%s)", ping.table_id, exc)
        await display.drop_turn_ping(self.bot.storage, ping.table_id, nonce=ping.nonce)

    async def restore_hides(self) -> int:
        """At start: every timed display still open is hidden when its time comes (at once
        if it has come); one whose token is gone cannot be edited any more."""
        now = self.bot.service.clock()
        restored = 0
        for timed in await display.timed_panels(self.bot.storage):
            opened = OpenPanel(timed.token, timed.message_id, timed.opened_at, timed.lang)
            table = self.bot.service.tables.get(timed.table_id)
            if not opened.alive(now):
                await self._forget_timed(timed.table_id, timed.seat, opened)
                continue
            if table is None or table.game is None:  # closed since: nothing left to show
                await self._edit_panel_text(opened, t(timed.lang, "panel.hidden"))
                await self._forget_timed(timed.table_id, timed.seat, opened)
                continue
            self._panels.setdefault((table.id, timed.seat), opened)
            self._spawn(
                self._hide_later(opened, table, timed.seat, timed.hide_at, None),
                f"panel-hide-{table.id}-{timed.seat}",
            )
            restored += 1
        return restored

    async def _forget_timed(self, table_id: int, seat: int, opened: OpenPanel) -> None:
        try:
            await display.drop_timed_panel(self.bot.storage, table_id, seat, opened.message_id)
        except Exception:
            log.exception("table %s: could not forget a timed panel", table_id)

    async def _edit_panel_text(self, opened: OpenPanel, text: str) -> bool:
        webhook = discord.Webhook.partial(
            self.bot.application_id or 0, opened.token, client=self.bot
        )
        opened.started_edit()
        try:
            await webhook.edit_message(opened.message_id, content=text, view=None, attachments=[])
        except discord.HTTPException:
            return False
        finally:
            opened.ended_edit(None)
        return True

    async def _edit_panel(
        self,
        opened: OpenPanel,
        shown: Panel,
        shows: bytes | None = None,
        *,
        keep_picture: bool = False,
    ) -> bool:
        """Edit a panel through the token of the interaction that showed it; ``shows``: its
        :func:`panel_print`, when the caller has it. ``keep_picture``: ``opened`` is the
        member's current record of the message (no other record edited it since), so a
        picture it is known to carry already is kept, not uploaded again; a hide never
        trusts it (its record may be an older one of the same message)."""
        webhook = discord.Webhook.partial(
            self.bot.application_id or 0, opened.token, client=self.bot
        )
        view = frozen_view(shown.view)
        if shows is None:
            shows = panel_print(shown.text, view, shown.picture)
        key = shown.picture.key if shown.picture is not None else None
        keep = keep_picture and key is not None and opened.picture == key
        opened.started_edit()
        done: bytes | None = None
        try:
            if keep:  # an edit without "attachments" keeps the message's own
                await webhook.edit_message(opened.message_id, content=shown.text, view=view)
            else:
                await webhook.edit_message(
                    opened.message_id,
                    content=shown.text,
                    view=view,
                    attachments=await picture_files(shown.picture),
                )
            done = shows
        except discord.HTTPException:
            return False
        finally:
            opened.ended_edit(done, key)
        return True

    async def _hide_later(
        self,
        opened: OpenPanel,
        table: LiveTable,
        seat: int,
        until: int,
        timed: display.TimedPanel | None,
    ) -> None:
        """R-S2/R-P3/R-A4: the ephemeral is edited to hide the cards when their time is up.
        ``timed``: stored first, so that a restart still hides it (None: it is stored)."""
        if timed is not None:
            try:
                await display.save_timed_panel(self.bot.storage, timed)
            except Exception:
                log.exception("table %s: could not keep a timed panel", table.id)
        clock = self.bot.service.clock
        await sleep_until(clock, until, 0.25)  # short naps: the clock may jump (tests)
        key = (table.id, seat)
        async with self._drawing.hold(key):
            drawn = self._drawn_at.get(key)
            if drawn is not None and drawn[0] == opened.message_id and drawn[1] >= until:
                # drawn since for a time the cards were hidden at: nothing to hide (a panel
                # clicked several times while it showed them has one hide per click)
                await self._forget_timed(table.id, seat, opened)
                return
            current = self._panels.get(key)
            if (
                current is not None
                and current is not opened
                and current.message_id == opened.message_id
            ):
                current.shows = None  # the same message, edited here through another record
                current.picture = None
            at = max(clock(), until)
            if table.game is None:
                hid = await self._edit_panel_text(opened, t(opened.lang, "panel.hidden"))
            else:
                plugin = games.plugin(table.row.game)
                hidden: Panel = plugin.panel(table, seat, opened.lang, at)
                hid = await self._edit_panel(opened, hidden)  # the picture loses the card too
                release_view(hidden.view)
            if hid and current is not None and current.message_id == opened.message_id:
                self._drawn_at[key] = (opened.message_id, at)
        if not hid:
            log.info("table %s: could not hide a timed card panel (token expired?)", table.id)
        await self._forget_timed(table.id, seat, opened)
