"""What the bot keeps about itself (migration 009), by key: the hash of the slash commands
last synced (``commands:<application>:<scope>``) and each process's status
(``status:<shards>``, read by ``python -m bot status``).

Not copied by ``python -m bot.storage copy``: a new database syncs the commands once.
"""

from __future__ import annotations

from bot.storage.base import Storage


async def get_state(storage: Storage, key: str) -> str | None:
    value = await storage.fetchval("SELECT value FROM bot_state WHERE key = ?", key)
    return None if value is None else str(value)


async def set_state(storage: Storage, key: str, value: str, now_ms: int) -> None:
    await storage.execute(
        "INSERT INTO bot_state (key, value, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        key,
        value,
        now_ms,
    )


async def states(storage: Storage, prefix: str) -> dict[str, tuple[str, int]]:
    """Every key starting with ``prefix``: its value and when it was written (ms)."""
    rows = await storage.fetch("SELECT key, value, updated_at FROM bot_state ORDER BY key")
    return {
        str(r["key"]): (str(r["value"]), int(r["updated_at"]))
        for r in rows
        if str(r["key"]).startswith(prefix)  # a few rows: no LIKE and its escapes
    }
