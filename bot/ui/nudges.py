"""Turn pings are nudges: a player is mentioned only when their turn has waited a while
without their move (a server's ``ping_after``), and the ping is deleted when they move or
the turn ends, never before (docs/architecture.md, "Turn pings: nudges"). A turn that runs
out while its player is pinged (the bot played for them) keeps its ping, edited to say so, so
Discord's notification leads somewhere; it goes when they next act at the table, are pinged
there again, or the table ends (``lapsed_pings``).

The presenter calls :meth:`Nudges.watch` after every drawing of a table; the pings and the
turn they were for are stored (``turn_pings``) so a restart neither pings a turn twice nor
leaves a ping behind (:meth:`Nudges.restore`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot import games
from bot.i18n import t
from bot.storage import StorageBusy, display_state
from bot.tables import LiveTable
from bot.tables.clock import sleep_until

if TYPE_CHECKING:
    from bot.app import GameBot
    from bot.ui.presenter import DiscordPresenter

log = logging.getLogger(__name__)


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


class Nudges:
    """Each table's current turn, watched (one :class:`TurnNudge` a table)."""

    def __init__(self, bot: GameBot, presenter: DiscordPresenter) -> None:
        self.bot = bot
        #: where a table's pings go (its thread) and how Discord's refusals are taken
        self.presenter = presenter
        self._pings: dict[int, TurnNudge] = {}  # table -> its turn, watched
        self._ping_after: dict[int, int] = {}  # guild -> ms a turn waits before its ping
        self._ping_choices: dict[tuple[int, int], bool] = {}  # (guild, member) -> pinged
        #: table -> member -> their ping whose turn ran out, edited to say so
        self._lapsed: dict[int, dict[int, display_state.LapsedPing]] = {}
        self.closing = False

    def stop(self) -> None:
        """Shutdown: a ping due later is not waited for."""
        self.closing = True
        for nudge in self._pings.values():
            nudge.stop(force=True)

    def forget(self, table_id: int) -> None:
        """A table that is not shown any more: its turn is not watched."""
        self._pings.pop(table_id, None)
        self._lapsed.pop(table_id, None)

    def settings_changed(self, guild_id: int) -> None:
        """``/tamalou settings`` stored new values: read the ping delay again."""
        self._ping_after.pop(guild_id, None)

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

    async def watch(self, table: LiveTable) -> None:
        """After every drawing of the table: a turn that starts is watched, and its player
        pinged only if it waits ``ping_after`` without their move (:meth:`_nudge_later`);
        the ping is deleted when they move or the turn ends, never before.

        Posted and deleted through ``bot.http`` (no ``Message`` built from the answer: only
        its id is kept) and stored when posted or deleted."""
        turn = self._turn(table)
        if table.id in self._lapsed:
            await self._clear_lapsed(table)
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
                if table.status == "playing" and not self._acted(table, nudge):
                    await self._lapse(table, nudge)  # it ran out: the bot played for them
                else:
                    await self._unping(table, nudge)  # its turn ended
        if fresh is not None and not self.closing:
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
                await display_state.drop_turn_ping(self.bot.storage, table.id, nonce=nudge.nonce)
            return
        current = self._pings.get(table.id)
        if current is None or current.message_id is None:
            await self._keep_ping(table, None)

    def _user_of(self, table: LiveTable, nudge: TurnNudge) -> int | None:
        seats = table.match_seats
        seat = nudge.turn[0]
        return seats[seat].user_id if 0 <= seat < len(seats) else None

    async def _lapse(self, table: LiveTable, nudge: TurnNudge) -> None:
        """The nudged turn ran out without its player's move (the bot played for them): its
        ping is edited to say so, the member still named, and kept until they act (a delete
        left Discord's notification leading nowhere). One such ping per member and table."""
        message_id, channel_id = nudge.message_id, nudge.channel_id or table.row.channel_id
        user_id = self._user_of(table, nudge)
        if message_id is None or user_id is None:
            await self._unping(table, nudge)
            return
        nudge.message_id = None
        lapsed = display_state.LapsedPing(
            table.id, user_id, message_id, channel_id, self.bot.service.clock()
        )
        # known before its edit: a move or the table's end meanwhile deletes it
        mine = self._lapsed.setdefault(table.id, {})
        older, mine[user_id] = mine.get(user_id), lapsed
        if older is not None:  # the thread does not collect them
            await self._drop_lapsed(older)
        lang = await self.bot.guild_language(table.row.guild_id)
        try:
            with discord.http.handle_message_parameters(
                content=t(lang, "ping.ran_out", mention=f"<@{user_id}>", id=table.id),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(user_id)]
                ),
                previous_allowed_mentions=self.bot.allowed_mentions,
            ) as params:
                await self.bot.http.edit_message(channel_id, message_id, params=params)
        except discord.HTTPException:  # gone, or not ours to edit any more: deleted
            if self._lapsed.get(table.id, {}).get(user_id) is lapsed:
                await self._forget_lapsed(table.id, user_id)
        try:
            if self._lapsed.get(table.id, {}).get(user_id) is lapsed:
                await display_state.save_lapsed_ping(self.bot.storage, lapsed)
                if self._lapsed.get(table.id, {}).get(user_id) is not lapsed:  # deleted since
                    await display_state.drop_lapsed_ping(
                        self.bot.storage, table.id, user_id, message_id
                    )
            if nudge.nonce is not None:
                await display_state.drop_turn_ping(self.bot.storage, table.id, nonce=nudge.nonce)
            elif (current := self._pings.get(table.id)) is None or current.message_id is None:
                await display_state.drop_turn_ping(self.bot.storage, table.id)
        except StorageBusy:
            log.warning("table %s: the lapsed ping is not stored (database busy)", table.id)

    async def _clear_lapsed(self, table: LiveTable) -> None:
        """Delete the table's lapsed pings whose member acted since, or all once it ends."""
        ended = table.status != "playing"
        for user_id, lapsed in list(self._lapsed.get(table.id, {}).items()):
            if ended or table.acted.get(user_id, -1) >= lapsed.lapsed_at:
                await self._forget_lapsed(table.id, user_id)

    async def _forget_lapsed(self, table_id: int, user_id: int) -> None:
        """Delete the member's lapsed ping at the table, if any."""
        mine = self._lapsed.get(table_id, {})
        lapsed = mine.pop(user_id, None)
        if not mine:
            self._lapsed.pop(table_id, None)
        if lapsed is not None:
            await self._drop_lapsed(lapsed)

    async def _drop_lapsed(self, lapsed: display_state.LapsedPing) -> None:
        with contextlib.suppress(discord.HTTPException):
            await self.bot.http.delete_message(lapsed.channel_id, lapsed.message_id)
        with contextlib.suppress(StorageBusy):
            await display_state.drop_lapsed_ping(
                self.bot.storage, lapsed.table_id, lapsed.user_id, lapsed.message_id
            )

    async def _nudge_later(self, table: LiveTable, nudge: TurnNudge) -> None:
        """Ping the turn's player once it waited the server's ``ping_after``, unless they
        moved meanwhile or the turn is over."""
        clock = self.bot.service.clock
        try:
            due = nudge.started + await self.ping_after_ms(table.row.guild_id)
            await sleep_until(clock, due, 1.0)  # naps: the clock may jump (tests)
            if (
                self.closing
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
                    await display_state.drop_turn_ping(self.bot.storage, table.id, nonce=ping.nonce)
                return
            nudge.message_id, nudge.channel_id = ping.message_id, ping.channel_id
            nudge.nonce = ping.nonce
            await self._keep_ping(table, ping)  # a restart neither pings twice nor leaves it
            user_id = self._user_of(table, nudge)
            if user_id is not None:  # their ping of a turn that ran out: this one replaces it
                await self._forget_lapsed(table.id, user_id)
            if self._acted(table, nudge):  # they moved while it was posted: nothing deleted it
                await self._unping(table, nudge)
        except asyncio.CancelledError:
            raise
        except discord.HTTPException as exc:  # its channel gone (the table closes), a 403...
            self.presenter._refused(table, exc, "ping failed")
        except Exception:
            log.exception("table %s: could not ping the player to play", table.id)
        finally:
            if nudge.timer is asyncio.current_task():
                nudge.timer = None

    async def _post_ping(self, table: LiveTable, nudge: TurnNudge) -> display_state.TurnPing | None:
        """The ping of the nudged turn's player, posted (None: no ping for this player: an AI,
        away, or they turned pings off). Stored before its post with the nonce it is posted
        with (``enforce_nonce``): a kill in between leaves a row that finds the message at
        the next start (:meth:`restore`), never a ping nobody deletes."""
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
        channel_id = self.presenter.public_channel_id(table)
        nonce = ping_nonce(table.id, self.bot.service.clock())  # this post's own
        await self._keep_ping(
            table, display_state.TurnPing(table.id, turn, 0, channel_id, nonce=nonce)
        )
        if self._pings.get(table.id) is not nudge:  # the turn ended meanwhile: no post
            with contextlib.suppress(StorageBusy):
                await display_state.drop_turn_ping(self.bot.storage, table.id, nonce=nonce)
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
        return display_state.TurnPing(table.id, turn, int(data["id"]), channel_id, nonce=nonce)

    async def ping_after_ms(self, guild_id: int) -> int:
        """How long a turn waits before its player is pinged: the server's setting, else the
        bot's ``TAMALOU_PING_AFTER_S``; read once, then kept until the setting changes."""
        cached = self._ping_after.get(guild_id)
        if cached is None:
            settings = await self.bot.storage.guild_settings(guild_id)
            seconds = settings.get("ping_after_s", self.bot.config.ping_after_s)
            cached = self._ping_after.setdefault(guild_id, int(float(seconds) * 1000))
        return cached

    async def _keep_ping(self, table: LiveTable, ping: display_state.TurnPing | None) -> None:
        """Store the table's ping (None: it is gone). A busy database only costs the memory
        of it across a restart (the turn may be pinged again then): a warning, not an error."""
        try:
            if ping is None:
                await display_state.drop_turn_ping(self.bot.storage, table.id)
            else:
                await display_state.save_turn_ping(self.bot.storage, ping)
        except StorageBusy:
            log.warning("table %s: the turn ping is not stored (database busy)", table.id)

    async def wants_ping(self, guild_id: int, user_id: int) -> bool:
        """The member's ``/tamalou ping`` choice, read once from storage, then kept: it read
        the database at every turn. Only ``ping_choice`` changes it, called by
        the command in the process that serves the guild (its shard), so it stays true."""
        key = (guild_id, user_id)
        on = self._ping_choices.get(key)
        if on is None:
            on = await display_state.turn_ping(self.bot.storage, guild_id, user_id)
            on = self._ping_choices.setdefault(key, on)  # a choice made meanwhile wins
        return on

    def ping_choice(self, guild_id: int, user_id: int, on: bool) -> None:
        """A member turned their turn pings on or off (stored by the caller)."""
        self._ping_choices[(guild_id, user_id)] = on

    async def restore(self) -> None:
        """At start, before the tables are drawn again: each live table's ping and the turn it
        was for, so that turn is not pinged twice and the ping goes when the turn does; the
        ping of a table closed meanwhile is deleted. Other processes' tables are theirs."""
        for ping in await display_state.turn_pings(self.bot.storage):
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
            await display_state.drop_turn_ping(self.bot.storage, ping.table_id)
        for lapsed in await display_state.lapsed_pings(self.bot.storage):
            if not self.bot.service.owns(lapsed.guild_id):
                continue
            table = self.bot.service.tables.get(lapsed.table_id)
            if table is not None and table.status == "playing":
                self._lapsed.setdefault(table.id, {})[lapsed.user_id] = lapsed
            else:
                await self._drop_lapsed(lapsed)

    async def _sweep_ping(self, ping: display_state.TurnPing) -> None:
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
        await display_state.drop_turn_ping(self.bot.storage, ping.table_id, nonce=ping.nonce)
