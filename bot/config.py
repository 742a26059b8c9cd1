"""Settings from the environment (and ``.env``): see ``.env.example``."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from dotenv import load_dotenv

from bot.tables.clock import Clock, SeedSource, random_seed, wall_clock_ms


@dataclass(frozen=True, slots=True)
class Config:
    token: str
    # a SQLite file, or a postgresql:// URL (docs/storage.md)
    database: str = "tamalou.sqlite3"
    # how long a write waits for another writer's lock before StorageBusy
    database_busy_ms: int = 5000
    # matches needed to be ranked in a guild's first season (docs/seasons.md)
    min_matches: int = 3
    guild_id: int | None = None
    log_level: str = "INFO"
    reorder_ms: int = 250
    ai_delay_ms: int = 1500
    lobby_timeout_s: int = 600
    edit_interval_ms: int = 1000
    #: a turn waits this long without its player's move before they are pinged (a
    #: server may set its own with ``/tamalou settings ping_after:``)
    ping_after_s: float = 10.0
    #: each table plays in a thread started from its lobby message, unless a server says
    #: no (``/tamalou settings threads:``); off: in the channel, as before threads
    threads: bool = True
    #: a click not answered this long after it arrived is acknowledged first (a deferred
    #: answer), its result following; Discord allows 3 s (DESIGN, "Answer once")
    answer_deadline_ms: int = 1500
    sync_commands: bool = True
    ai_workers: int = 1  # processes in which slow AI levels think (off the event loop)
    # card faces as application emojis (docs/cards.md); off: cards are shown as text
    card_emojis: bool = True
    #: the shards this process runs (None: all of them) out of ``shard_count`` (None: as
    #: Discord recommends, all in this process); docs/deploy.md
    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None
    #: where time (ms) and match seeds come from: injected, so tests control them
    clock: Clock = field(default=wall_clock_ms, repr=False)
    seeds: SeedSource = field(default=random_seed, repr=False)

    @classmethod
    def from_env(cls, env_file: str | None = ".env") -> Config:
        if env_file:
            load_dotenv(env_file, override=False)
        e = os.environ
        guild = e.get("TAMALOU_GUILD_ID", "").strip()
        return cls(
            token=e.get("DISCORD_TOKEN", "").strip(),
            database=e.get("TAMALOU_DB", "").strip() or "tamalou.sqlite3",
            database_busy_ms=_positive(e.get("TAMALOU_DB_BUSY_MS", ""), 5000),
            min_matches=_positive(e.get("TAMALOU_MIN_MATCHES", ""), 3),
            guild_id=int(guild) if guild else None,
            log_level=e.get("TAMALOU_LOG_LEVEL", "INFO").upper(),
            reorder_ms=int(e.get("TAMALOU_REORDER_MS", "250")),
            ai_delay_ms=int(e.get("TAMALOU_AI_DELAY_MS", "1500")),
            lobby_timeout_s=int(e.get("TAMALOU_LOBBY_TIMEOUT_S", "600")),
            edit_interval_ms=int(e.get("TAMALOU_EDIT_INTERVAL_MS", "1000")),
            ping_after_s=_seconds(e.get("TAMALOU_PING_AFTER_S", ""), 10.0),
            threads=e.get("TAMALOU_THREADS", "1") not in ("0", "false", "no"),
            answer_deadline_ms=_positive(e.get("TAMALOU_ANSWER_DEADLINE_MS", ""), 1500),
            sync_commands=e.get("TAMALOU_SYNC_COMMANDS", "1") not in ("0", "false", "no"),
            ai_workers=max(1, int(e.get("TAMALOU_AI_WORKERS", "1"))),
            card_emojis=e.get("TAMALOU_CARD_EMOJIS", "1") not in ("0", "false", "no"),
            **shard_settings(e.get("TAMALOU_SHARDS", ""), e.get("TAMALOU_SHARD_COUNT", "")),
        )

    def owns(self, guild_id: int) -> bool:
        """Whether this process serves ``guild_id``: Discord sends a guild's events to shard
        ``(guild_id >> 22) % shard_count``, so its tables belong to that shard's process."""
        if self.shard_ids is None or self.shard_count is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids


class ConfigError(ValueError):
    """A setting that cannot be used; ``str(err)`` says which and how to fix it."""


def shard_of(guild_id: int, shard_count: int) -> int:
    return (guild_id >> 22) % shard_count


def shard_settings(ids: str, count: str) -> dict[str, Any]:
    """``TAMALOU_SHARDS`` (``0-3``, ``0,2,5`` or ``4``) and ``TAMALOU_SHARD_COUNT``."""
    ids, count = ids.strip(), count.strip()
    if not ids and not count:
        return {}
    if not count.isdigit() or int(count) < 1:
        raise ConfigError(
            f"TAMALOU_SHARD_COUNT={count!r} is not a number of shards: set it to the total "
            "number of shards of every bot process (e.g. TAMALOU_SHARD_COUNT=8) whenever "
            "TAMALOU_SHARDS is set."
        )
    total = int(count)
    if not ids:
        return {"shard_count": total}
    chosen: list[int] = []
    try:
        for part in ids.split(","):
            first, _, last = part.strip().partition("-")
            low, high = int(first), int(last or first)
            if low > high:
                raise ValueError(part)
            chosen += range(low, high + 1)
    except ValueError:
        raise ConfigError(
            f"TAMALOU_SHARDS={ids!r} is not a shard range: write it as 0-3, or 0,2,5."
        ) from None
    wrong = [i for i in chosen if i >= total]
    if wrong:
        raise ConfigError(
            f"TAMALOU_SHARDS={ids!r} names shard {wrong[0]}, but TAMALOU_SHARD_COUNT={total} "
            f"numbers the shards 0 to {total - 1}."
        )
    return {"shard_ids": tuple(sorted(set(chosen))), "shard_count": total}


def _positive(raw: str, default: int) -> int:
    """A positive whole number from the environment; ``default`` if unset or not one."""
    raw = raw.strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else default


def _seconds(raw: str, default: float) -> float:
    """A number of seconds (0 or more) from the environment; ``default`` if unset or not one."""
    try:
        value = float(raw)
    except ValueError:
        return default
    return value if value >= 0 else default
