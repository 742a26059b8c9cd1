"""The panel desk: one owner for each seat's private panel.

A seat's panel is one :class:`SeatPanel` record, and a table's records one
:class:`TableDesk`: the panel's message and token (:class:`OpenPanel`), the round it shows,
what it shows and its picture, the edits in flight and their order, its timed hides, and the
game's own panel state (a typed, frozen value: Kalooki's lay-down being built and its hand's
order), stored with the table so a restart keeps it. Ending a table drops its
:class:`TableDesk` in one call (:meth:`PanelDesk.drop`).

The desk is given its collaborators (storage, clock, the answer deadline, the plugin
registry, a webhook for a token), never the bot, so a test builds it from fakes.

Edits of one panel are drawn and sent one at a time (the seat's lock), so Discord receives
them in the order of the states they show; they coalesce: a drawing that finds a newer one
queued behind it leaves the panel to that one (the newest state wins). A click waiting for
its panel's lock is acknowledged by the safety deadline whatever the previous edit is doing
(discord.py retries a webhook edit Discord answers 502 for up to ~16 s).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.storage import display_state as rows
from bot.tables.clock import sleep_until
from bot.ui import clicked, pipeline
from bot.ui.cards.display import CardPicture
from bot.ui.kit import UNKNOWN_INTERACTION, fault, frozen_view, release_view
from bot.ui.open_panel import (
    OpenPanel,
    SeatPanel,
    TableDesk,
    asks_for_panel,
    moves_of,
    panel_print,
    picture_files,
)

if TYPE_CHECKING:
    from bot.games import GamePlugin, Panel
    from bot.storage.base import Storage
    from bot.tables import LiveTable

log = logging.getLogger(__name__)

#: a member's open panel is stored again (for a restart) once its token is this much older
#: than the stored one: not at every click on it (a write a click)
PANEL_RESAVE_MS = 5 * 60 * 1000
#: a second "My cards" within this, with no click on the panel between, gets a new panel
ASK_AGAIN_MS = 30_000


class PanelDesk:
    """Owns every seat's private panel: showing, editing in place, waking, timed hides."""

    def __init__(
        self,
        *,
        storage: Storage,
        clock: Callable[[], int],
        answer_deadline_ms: int,
        plugin: Callable[[str], GamePlugin],
        webhook: Callable[[str], discord.Webhook],
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.answer_deadline_ms = answer_deadline_ms
        self.plugin = plugin
        self.webhook = webhook
        #: how a table click answered by a panel edit is acknowledged: a deferred update,
        #: or the new table when the click owes its edit (the presenter's ``acknowledge``)
        self.acknowledge: Callable[[discord.Interaction], Awaitable[None]] = _defer
        #: called before a click is answered with a new panel: a click on a table message
        #: no fresh token edits is acknowledged first (the presenter's ``lend_token``), so
        #: the table is edited through its token; the panel is then a follow-up
        self.before_new_panel: Callable[[discord.Interaction], Awaitable[None]] = _nothing
        self.tables: dict[int, TableDesk] = {}
        self._tasks: set[asyncio.Task[Any]] = set()  # hides and drops in flight
        self._closing = False

    # -- records -------------------------------------------------------------------------

    def seat(self, table_id: int, seat: int) -> SeatPanel:
        """The seat's record (made on first use)."""
        desk = self.tables.get(table_id)
        if desk is None:
            desk = self.tables[table_id] = TableDesk()
        record = desk.seats.get(seat)
        if record is None:
            record = desk.seats[seat] = SeatPanel()
        return record

    def opened(self, table_id: int, seat: int) -> OpenPanel | None:
        desk = self.tables.get(table_id)
        record = desk.seats.get(seat) if desk is not None else None
        return record.opened if record is not None else None

    def state(self, table_id: int, seat: int) -> Any:
        """The game's panel state of the seat (None: nothing kept)."""
        desk = self.tables.get(table_id)
        record = desk.seats.get(seat) if desk is not None else None
        return record.state if record is not None else None

    def set_state(self, table_id: int, seat: int, state: Any) -> None:
        """The game's new panel state of the seat (stored at its next drawing)."""
        self.seat(table_id, seat).state = state

    def _spawn(self, coro: Any, name: str) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def drop(self, table_id: int) -> None:
        """The table ended: every record of its panels goes, here and in storage (a record
        a click's answer holds goes once that answer is done: it shows the panel)."""
        desk = self.tables.get(table_id)
        if desk is None:
            return
        desk.dropped = True
        desk.seats = {seat: r for seat, r in desk.seats.items() if r.answering}
        if not desk.seats:
            del self.tables[table_id]
        if not self._closing:
            self._spawn(self._drop_rows(table_id), f"panels-drop-{table_id}")

    async def _drop_rows(self, table_id: int) -> None:
        try:
            await rows.drop_member_panels(self.storage, table_id)
            await rows.drop_panel_memory(self.storage, table_id)
        except Exception:
            log.warning("table %s: its members' panels are not forgotten", table_id)

    async def stop(self) -> None:
        """Shutdown: no new hides; the ones in flight finish or are cancelled."""
        self._closing = True
        if self._tasks:
            _, pending = await asyncio.wait(set(self._tasks), timeout=5)
            for task in pending:
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)

    @contextlib.contextmanager
    def answering(self, table_id: int, seat: int) -> Iterator[None]:
        """A click of ``seat`` is being answered: its own answer shows its panel, so a turn
        starting meanwhile does not edit that panel too."""
        record = self.seat(table_id, seat)
        desk = self.tables[table_id]
        record.answering += 1
        try:
            yield
        finally:
            record.answering -= 1
            if desk.dropped and not record.answering:
                desk.seats.pop(seat, None)
                if not desk.seats and self.tables.get(table_id) is desk:
                    del self.tables[table_id]

    # -- showing a panel -------------------------------------------------------------------

    async def show(
        self,
        interaction: discord.Interaction,
        table: LiveTable,
        seat: int,
        lang: str,
        edit: bool,
        reuse: bool = True,
        step: Any = None,
        seen: Any = None,
    ) -> None:
        """Show the player's private panel; hide timed cards when due.

        One panel per member per round. ``edit``: the click was on that panel,
        which is updated in place (its callback). Else (a table button) the member's open
        panel of this round is edited while its token lives, the click acknowledged without
        a message; a new panel is posted only when there is none, its token is about to
        expire or it cannot be edited, or when ``reuse`` is False (``/<game> hand``: the
        member asks for a new one). ``step``: the game's panel step (a narrowing), ``seen``:
        the click's views.
        """
        plugin = self.plugin(table.row.game)
        record = self.seat(table.id, seat)
        record.asked_draws += 1
        ticket = record.asked_draws
        # The previous edit of this panel may be stuck (a 502 retried for ~16 s): the click
        # is acknowledged by its safety deadline whatever that edit does.
        await self._hold(record, interaction)
        try:
            if (
                record.asked_draws > ticket  # a newer drawing is queued: it shows the newest
                and interaction.response.is_done()  # and this click is answered already
                and reuse
                and (opened := record.opened) is not None
                and opened.round_no == plugin.round_no(table)
                and (not edit or clicked.message_id(interaction) == opened.message_id)
            ):
                return
            now = self.clock()
            shown = plugin.panel(table, seat, lang, now, step=step, state=record.state, seen=seen)
            try:
                await self._send_panel(
                    interaction, table, seat, lang, edit, reuse, shown, now, plugin.round_no(table)
                )
            finally:
                release_view(shown.view)
        finally:
            record.lock.release()
        await self._keep_state(plugin, table, seat, record)

    async def _hold(self, record: SeatPanel, interaction: discord.Interaction) -> None:
        """Take the seat's lock for a click: at once when it is free (no task), else while
        the click is acknowledged by its safety deadline. A click that fails meanwhile (its
        acknowledgement refused) never leaves the lock taken behind it."""
        if not record.lock.locked():
            await record.lock.acquire()
            return
        taking = asyncio.ensure_future(record.lock.acquire())
        try:
            await pipeline.in_time(interaction, taking, self.answer_deadline_ms)
        except BaseException:
            if taking.done() and not taking.cancelled() and taking.exception() is None:
                record.lock.release()
            else:
                taking.cancel()
            raise

    async def _keep_state(
        self, plugin: GamePlugin, table: LiveTable, seat: int, record: SeatPanel
    ) -> None:
        """The game's panel state of the seat, stored when it changed: a restart gives it
        back (:meth:`restore_states`)."""
        if record.state is None:
            return
        data = plugin.panel_state_data(record.state)
        if data is None or record.stored == data:
            return
        try:
            await rows.save_panel_memory(self.storage, table.id, seat, data)
            record.stored = data
        except Exception:
            log.exception("table %s: could not keep seat %s's panel state", table.id, seat)

    async def restore_states(
        self, tables: Mapping[int, LiveTable], owns: Callable[[int], bool]
    ) -> int:
        """At start, before any click: each live table's panel states back in their
        records. Other processes' tables are theirs. Returns how many were given back."""
        restored = 0
        for table_id, guild_id, seat, data in await rows.panel_memories(self.storage):
            table = tables.get(table_id)
            if table is None or not owns(guild_id):
                continue
            state = self.plugin(table.row.game).panel_state_of(data)
            if state is None:
                continue
            record = self.seat(table_id, seat)
            record.state, record.stored = state, data
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
        record = self.seat(table.id, seat)
        opened: OpenPanel | None = None
        old = record.opened
        deadline = self.answer_deadline_ms
        # A timed secret's hide is stored before the secret is shown: a kill in between
        # left it shown for good. A new panel is posted without it first (its id
        # is known only then), stored, then edited to show it.
        hide_at = None if self._closing else shown.hide_at
        if edit:
            record.asked = None  # they see their panel: they clicked it
        elif reuse and old is not None and asks_for_panel(interaction):
            reuse = self._asked_once(record, old, now)
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
                lost = (
                    old is not None
                    and exc.code == UNKNOWN_INTERACTION
                    and self._click_lost(interaction, old, clicked_id, now)
                )
                if old is not None and lost and await self._edit_panel(old, shown, printed):
                    opened = old  # the click's answer failed: its panel shows the move
                    opened.moves = moves
        elif reuse and old is not None and old.round_no == round_no and old.alive(now):
            if not interaction.response.is_done():  # the click's answer is in the panel
                try:
                    await self.acknowledge(interaction)
                except discord.HTTPException as exc:  # the panel still shows what was played
                    fault("click acknowledgement failed", f"table {table.id}", exc)
            shows = panel_print(shown.text, view, shown.picture)
            if hide_at is None and old.shows == shows:
                opened = old  # it shows this already: an edit would change nothing
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
        record.opened = opened
        record.drawn_at = (opened.message_id, now)
        await self._keep_panel(table, seat, opened, now)
        self._hide_timed(table, seat, opened, hide_at)

    @staticmethod
    def _click_lost(
        interaction: discord.Interaction, old: OpenPanel, clicked_id: int, now: int
    ) -> bool:
        """The click's own answer failed and cannot be given any more (10062: Discord's 3 s
        passed, a late delivery, a long 429), while the clicked panel is the member's open
        one: it is edited through the token that last showed it, so a move applied is seen
        (a message gone, 10008, gets a fresh panel through the click instead)."""
        return (
            not interaction.response.is_done()
            and old.message_id == clicked_id
            and old.alive(now)
            and old.token != interaction.token
        )

    @staticmethod
    def _asked_once(record: SeatPanel, old: OpenPanel, now: int) -> bool:
        """A table's "My cards" edits the member's open panel, which the member
        may no longer see: Discord's client drops an ephemeral they dismissed, or at a
        reload, and an edit of it then shows nothing. Asked twice in a row (within
        :data:`ASK_AGAIN_MS`, no click on the panel between), the second is answered by a new
        panel. True: answer this one with the open panel."""
        last = record.asked
        if last is not None and last[0] == old.message_id and now - last[1] <= ASK_AGAIN_MS:
            record.asked = None
            return False
        record.asked = (old.message_id, now)
        return True

    async def _keep_panel(self, table: LiveTable, seat: int, opened: OpenPanel, now: int) -> None:
        """Store the member's open panel (a restart edits it again), when it is new or its
        stored token is getting old; a busy database only costs a new panel after a restart."""
        if opened.saved_at is not None and now - opened.saved_at < PANEL_RESAVE_MS:
            return
        row = rows.MemberPanel(
            table.id,
            seat,
            opened.round_no,
            opened.token,
            opened.message_id,
            opened.opened_at,
            opened.lang,
        )
        try:
            await rows.save_member_panel(self.storage, row)
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
            self._hide_later(opened, table, seat, hide_at),
            f"panel-hide-{table.id}-{seat}",
        )

    # -- a turn starts: the open panels that gain moves ------------------------------------

    async def wake(self, table: LiveTable) -> None:
        """A turn starts (or a race opens with it, a Kalooki call): every member's open panel
        of the round that now offers moves it did not is edited to offer them, so the member
        plays from the panel they have instead of asking for a new one. Not the
        panel of a member whose click is being answered: that answer shows it. When the match
        is over, every open panel is drawn once more: it offered moves no longer legal (a
        Kalooki winner's lay-offs and sorting, a tarot "deal 4/3")."""
        if table.game is None or table.status not in ("playing", "finished"):
            return
        desk = self.tables.get(table.id)
        if desk is None:
            return
        ended = table.status == "finished"
        plugin = self.plugin(table.row.game)
        now = self.clock()
        turn = plugin.moment(table, now)
        if desk.woken == turn and not ended:
            return
        desk.woken = turn
        round_no = plugin.round_no(table)
        for seat, record in list(desk.seats.items()):
            opened = record.opened
            if (
                opened is None
                or opened.round_no != round_no
                or not opened.alive(now)
                or record.answering
                or record.lock.locked()  # a drawing in flight or queued shows the newest
            ):
                continue
            async with record.lock:
                if record.opened is not opened:
                    continue  # a click's answer showed it meanwhile
                now = self.clock()
                shown = plugin.panel(table, seat, opened.lang, now, state=record.state)
                try:
                    moves = moves_of(shown.view)
                    if moves - opened.moves or ended:
                        hide_at = None if self._closing else shown.hide_at
                        await self._keep_timed(table, seat, opened, hide_at)
                        if await self._edit_panel(opened, shown, keep_picture=True):
                            opened.moves = moves
                            record.drawn_at = (opened.message_id, now)
                            self._hide_timed(table, seat, opened, hide_at)
                finally:
                    release_view(shown.view)

    # -- a restart -------------------------------------------------------------------------

    async def restore_panels(self, tables: Mapping[int, LiveTable]) -> int:
        """At start: each member's open panel of a live table (its round's panel is edited
        again, not posted anew); those of tables closed meanwhile are forgotten."""
        now = self.clock()
        restored = 0
        gone: set[int] = set()
        for row in await rows.member_panels(self.storage):
            table = tables.get(row.table_id)
            if table is None:
                continue  # another process's table (its shard), or closed: not ours to drop
            if table.game is None or table.status != "playing":
                gone.add(row.table_id)
                continue
            opened = OpenPanel(row.token, row.message_id, row.opened_at, row.lang, row.round_no)
            opened.saved_at = now
            if opened.alive(now):
                self.seat(row.table_id, row.seat).opened = opened
                restored += 1
        for table_id in gone:
            try:
                await rows.drop_member_panels(self.storage, table_id)
            except Exception:
                log.warning("table %s: its members' panels are not forgotten", table_id)
        return restored

    async def restore_hides(self, tables: Mapping[int, LiveTable]) -> int:
        """At start: every timed display still open is hidden when its time comes (at once
        if it has come); one whose token is gone cannot be edited any more."""
        now = self.clock()
        restored = 0
        for timed in await rows.timed_panels(self.storage):
            opened = OpenPanel(timed.token, timed.message_id, timed.opened_at, timed.lang)
            table = tables.get(timed.table_id)
            if not opened.alive(now):
                await self._forget_timed(timed.table_id, timed.seat, opened)
                continue
            if table is None or table.game is None:  # closed since: nothing left to show
                await self._edit_panel_text(opened, t(timed.lang, "panel.hidden"))
                await self._forget_timed(timed.table_id, timed.seat, opened)
                continue
            record = self.seat(table.id, timed.seat)
            if record.opened is None:
                record.opened = opened
            self._spawn(
                self._hide_later(opened, table, timed.seat, timed.hide_at),
                f"panel-hide-{table.id}-{timed.seat}",
            )
            restored += 1
        return restored

    # -- sending ---------------------------------------------------------------------------

    def _hidden(self, table: LiveTable, seat: int, lang: str, hide_at: int) -> Panel:
        """The panel once its timed cards are hidden again (as ``_hide_later`` draws it)."""
        state = self.state(table.id, seat)
        return self.plugin(table.row.game).panel(table, seat, lang, hide_at, state=state)

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
        await self.before_new_panel(interaction)
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
        timed = rows.TimedPanel(
            table.id, seat, opened.token, opened.message_id, opened.opened_at, hide_at, opened.lang
        )
        try:
            await rows.save_timed_panel(self.storage, timed)
        except Exception:  # the hide in memory still runs; only a kill would skip it now
            log.warning("table %s: could not keep a timed panel's hide", table.id, exc_info=True)

    async def _forget_timed(self, table_id: int, seat: int, opened: OpenPanel) -> None:
        try:
            await rows.drop_timed_panel(self.storage, table_id, seat, opened.message_id)
        except Exception:
            log.exception("table %s: could not forget a timed panel", table_id)

    async def _edit_panel_text(self, opened: OpenPanel, text: str) -> bool:
        webhook = self.webhook(opened.token)
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
        webhook = self.webhook(opened.token)
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

    async def _hide_later(self, opened: OpenPanel, table: LiveTable, seat: int, until: int) -> None:
        """R-S2/R-P3/R-A4: the ephemeral is edited to hide the cards when their time is up
        (its hide stored first, so that a restart still hides it)."""
        clock = self.clock
        await sleep_until(clock, until, 0.25)  # short naps: the clock may jump (tests)
        desk = self.tables.get(table.id)
        # the table ended while it waited: its hide is still sent, through a loose record
        record = desk.seats.get(seat) if desk is not None else None
        if record is None:
            record = SeatPanel() if desk is None else self.seat(table.id, seat)
        async with record.lock:
            drawn = record.drawn_at
            if drawn is not None and drawn[0] == opened.message_id and drawn[1] >= until:
                # drawn since for a time the cards were hidden at: nothing to hide (a panel
                # clicked several times while it showed them has one hide per click)
                await self._forget_timed(table.id, seat, opened)
                return
            current = record.opened
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
                plugin = self.plugin(table.row.game)
                hidden = plugin.panel(table, seat, opened.lang, at, state=record.state)
                hid = await self._edit_panel(opened, hidden)  # the picture loses the card too
                release_view(hidden.view)
            if hid and current is not None and current.message_id == opened.message_id:
                record.drawn_at = (opened.message_id, at)
        if not hid:
            log.info("table %s: could not hide a timed card panel (token expired?)", table.id)
        await self._forget_timed(table.id, seat, opened)


async def _defer(interaction: discord.Interaction) -> None:
    await interaction.response.defer()


async def _nothing(interaction: discord.Interaction) -> None:
    return None


def desk_for(bot: Any) -> PanelDesk:
    """The desk of ``bot``: its storage, its service's clock, its answer deadline, the plugin
    registry, and webhooks of its application (a panel is edited through its token)."""
    from bot import games

    return PanelDesk(
        storage=bot.storage,
        clock=lambda: bot.service.clock(),
        answer_deadline_ms=bot.config.answer_deadline_ms,
        plugin=games.plugin,
        webhook=lambda token: discord.Webhook.partial(bot.application_id or 0, token, client=bot),
    )
