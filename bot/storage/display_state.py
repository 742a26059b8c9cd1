"""What the displays need to survive a restart (migrations 006, 007, 008, 011, 014): timed private
panels still to hide, tables whose final message was not drawn, members' turn-ping
preference, each table's ping message with the turn it was for, what a game's panel keeps
for a seat between clicks (its own JSON: Kalooki's lay-down drafts), and each member's open
panel of the round.

Written once for both backends, like :mod:`bot.storage.base` (``?`` placeholders).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.storage.base import Storage
from bot.storage.rows import MatchRow, match_from_row


@dataclass(frozen=True, slots=True)
class TimedPanel:
    """A private panel that shows cards until ``hide_at``, editable through ``token``."""

    table_id: int
    seat: int
    token: str
    message_id: int
    opened_at: int
    hide_at: int
    lang: str


async def save_timed_panel(storage: Storage, panel: TimedPanel) -> None:
    await storage.execute(
        "INSERT INTO open_panels (table_id, seat, token, message_id, opened_at, hide_at, lang) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat, message_id) DO UPDATE SET "
        "token = excluded.token, opened_at = excluded.opened_at, "
        "hide_at = excluded.hide_at, lang = excluded.lang",
        panel.table_id,
        panel.seat,
        panel.token,
        panel.message_id,
        panel.opened_at,
        panel.hide_at,
        panel.lang,
    )


async def drop_timed_panel(storage: Storage, table_id: int, seat: int, message_id: int) -> None:
    await storage.execute(
        "DELETE FROM open_panels WHERE table_id = ? AND seat = ? AND message_id = ?",
        table_id,
        seat,
        message_id,
    )


async def timed_panels(storage: Storage) -> list[TimedPanel]:
    rows = await storage.fetch(
        "SELECT table_id, seat, token, message_id, opened_at, hide_at, lang FROM open_panels "
        "ORDER BY hide_at"
    )
    return [
        TimedPanel(
            int(r["table_id"]),
            int(r["seat"]),
            str(r["token"]),
            int(r["message_id"]),
            int(r["opened_at"]),
            int(r["hide_at"]),
            str(r["lang"]),
        )
        for r in rows
    ]


async def set_final_shown(storage: Storage, table_id: int, shown: bool) -> None:
    await storage.execute(
        "UPDATE tables SET final_shown = ? WHERE id = ?", 1 if shown else 0, table_id
    )


async def finished_without_final(storage: Storage) -> list[int]:
    """Tables whose match finished but whose final message was never drawn."""
    rows = await storage.fetch(
        "SELECT id FROM tables WHERE status = 'finished' AND final_shown = 0 ORDER BY id"
    )
    return [int(r["id"]) for r in rows]


async def last_match(storage: Storage, table_id: int) -> MatchRow | None:
    """The table's latest match, whatever its status."""
    row = await storage.fetchrow(
        "SELECT * FROM matches WHERE table_id = ? ORDER BY id DESC LIMIT 1", table_id
    )
    return match_from_row(row) if row else None


async def turn_ping(storage: Storage, guild_id: int, user_id: int) -> bool:
    """Whether the member wants a ping when their turn starts (on unless they said no)."""
    value = await storage.fetchval(
        "SELECT turn_ping FROM member_prefs WHERE guild_id = ? AND user_id = ?", guild_id, user_id
    )
    return value is None or bool(value)


async def set_turn_ping(storage: Storage, guild_id: int, user_id: int, on: bool) -> None:
    await storage.execute(
        "INSERT INTO member_prefs (guild_id, user_id, turn_ping) VALUES (?, ?, ?) "
        "ON CONFLICT (guild_id, user_id) DO UPDATE SET turn_ping = excluded.turn_ping",
        guild_id,
        user_id,
        1 if on else 0,
    )


@dataclass(frozen=True, slots=True)
class TurnPing:
    """The message that pinged a table's player for ``turn`` (the game's turn key)."""

    table_id: int
    turn: Any
    message_id: int  # 0: stored before its post, which a kill may have interrupted
    channel_id: int
    guild_id: int = 0  # read from the table (which process owns it)
    nonce: str | None = None  # the post's nonce (enforce_nonce): finds it after a kill


def _tuples(value: Any) -> Any:
    """JSON arrays back to the tuples a turn key is made of."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


async def save_turn_ping(storage: Storage, ping: TurnPing) -> None:
    await storage.execute(
        "INSERT INTO turn_pings (table_id, turn, message_id, channel_id, nonce) "
        "VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (table_id) DO UPDATE SET turn = excluded.turn, "
        "message_id = excluded.message_id, channel_id = excluded.channel_id, "
        "nonce = excluded.nonce",
        ping.table_id,
        json.dumps(ping.turn),
        ping.message_id,
        ping.channel_id,
        ping.nonce,
    )


async def drop_turn_ping(storage: Storage, table_id: int, *, nonce: str | None = None) -> None:
    """Forget the table's stored ping; with ``nonce``, only if it is still that one."""
    if nonce is None:
        await storage.execute("DELETE FROM turn_pings WHERE table_id = ?", table_id)
    else:
        await storage.execute(
            "DELETE FROM turn_pings WHERE table_id = ? AND nonce = ?", table_id, nonce
        )


async def turn_pings(storage: Storage) -> list[TurnPing]:
    rows = await storage.fetch(
        "SELECT p.table_id, p.turn, p.message_id, p.channel_id, t.guild_id, p.nonce "
        "FROM turn_pings p JOIN tables t ON t.id = p.table_id ORDER BY p.table_id"
    )
    return [
        TurnPing(
            int(r["table_id"]),
            _tuples(json.loads(r["turn"])),
            int(r["message_id"]),
            int(r["channel_id"]),
            int(r["guild_id"]),
            r["nonce"],
        )
        for r in rows
    ]


async def save_panel_memory(storage: Storage, table_id: int, seat: int, data: Any) -> None:
    """What ``seat``'s panel keeps at ``table_id`` (JSON-able), replacing the last one."""
    await storage.execute(
        "INSERT INTO panel_memory (table_id, seat, data) VALUES (?, ?, ?) "
        "ON CONFLICT (table_id, seat) DO UPDATE SET data = excluded.data",
        table_id,
        seat,
        json.dumps(data, separators=(",", ":")),
    )


async def drop_panel_memory(storage: Storage, table_id: int) -> None:
    await storage.execute("DELETE FROM panel_memory WHERE table_id = ?", table_id)


async def panel_memories(storage: Storage) -> list[tuple[int, int, int, Any]]:
    """Every seat's panel memory of a live table: (table id, guild id, seat, data)."""
    rows = await storage.fetch(
        "SELECT m.table_id, t.guild_id, m.seat, m.data FROM panel_memory m "
        "JOIN tables t ON t.id = m.table_id WHERE t.status = 'playing' "
        "ORDER BY m.table_id, m.seat"
    )
    return [
        (int(r["table_id"]), int(r["guild_id"]), int(r["seat"]), json.loads(r["data"]))
        for r in rows
    ]


@dataclass(frozen=True, slots=True)
class MemberPanel:
    """A member's open panel of a round, editable through ``token``."""

    table_id: int
    seat: int
    round_no: int
    token: str
    message_id: int
    opened_at: int
    lang: str


async def save_member_panel(storage: Storage, panel: MemberPanel) -> None:
    await storage.execute(
        "INSERT INTO member_panels (table_id, seat, round_no, token, message_id, opened_at, lang) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE SET "
        "round_no = excluded.round_no, token = excluded.token, "
        "message_id = excluded.message_id, opened_at = excluded.opened_at, lang = excluded.lang",
        panel.table_id,
        panel.seat,
        panel.round_no,
        panel.token,
        panel.message_id,
        panel.opened_at,
        panel.lang,
    )


async def drop_member_panels(storage: Storage, table_id: int) -> None:
    await storage.execute("DELETE FROM member_panels WHERE table_id = ?", table_id)


async def member_panels(storage: Storage) -> list[MemberPanel]:
    rows = await storage.fetch(
        "SELECT table_id, seat, round_no, token, message_id, opened_at, lang FROM member_panels "
        "ORDER BY table_id, seat"
    )
    return [
        MemberPanel(
            int(r["table_id"]),
            int(r["seat"]),
            int(r["round_no"]),
            str(r["token"]),
            int(r["message_id"]),
            int(r["opened_at"]),
            str(r["lang"]),
        )
        for r in rows
    ]


@dataclass(frozen=True, slots=True)
class LapsedPing:
    """A member's turn ping whose turn ran out (edited to say the bot played for them), kept
    until they next act at the table, are pinged there again, or the table ends."""

    table_id: int
    user_id: int
    message_id: int
    channel_id: int
    lapsed_at: int  # ms, the bot's clock: a move of theirs after it deletes the ping
    guild_id: int = 0  # read from the table (which process owns it)


async def save_lapsed_ping(storage: Storage, ping: LapsedPing) -> None:
    await storage.execute(
        "INSERT INTO lapsed_pings (table_id, user_id, message_id, channel_id, lapsed_at) "
        "VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (table_id, user_id) DO UPDATE SET message_id = excluded.message_id, "
        "channel_id = excluded.channel_id, lapsed_at = excluded.lapsed_at",
        ping.table_id,
        ping.user_id,
        ping.message_id,
        ping.channel_id,
        ping.lapsed_at,
    )


async def drop_lapsed_ping(storage: Storage, table_id: int, user_id: int, message_id: int) -> None:
    """Forget a lapsed ping, only if it is still that message."""
    await storage.execute(
        "DELETE FROM lapsed_pings WHERE table_id = ? AND user_id = ? AND message_id = ?",
        table_id,
        user_id,
        message_id,
    )


async def lapsed_pings(storage: Storage) -> list[LapsedPing]:
    rows = await storage.fetch(
        "SELECT p.table_id, p.user_id, p.message_id, p.channel_id, p.lapsed_at, t.guild_id "
        "FROM lapsed_pings p JOIN tables t ON t.id = p.table_id ORDER BY p.table_id"
    )
    return [
        LapsedPing(
            int(r["table_id"]),
            int(r["user_id"]),
            int(r["message_id"]),
            int(r["channel_id"]),
            int(r["lapsed_at"]),
            int(r["guild_id"]),
        )
        for r in rows
    ]
