"""Settings from the environment (and ``.env``): see ``.env.example``."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

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
    sync_commands: bool = True
    ai_workers: int = 1  # processes in which slow AI levels think (off the event loop)
    # card faces as application emojis (docs/cards.md); off: cards are shown as text
    card_emojis: bool = True
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
            sync_commands=e.get("TAMALOU_SYNC_COMMANDS", "1") not in ("0", "false", "no"),
            ai_workers=max(1, int(e.get("TAMALOU_AI_WORKERS", "1"))),
            card_emojis=e.get("TAMALOU_CARD_EMOJIS", "1") not in ("0", "false", "no"),
        )


def _positive(raw: str, default: int) -> int:
    """A positive whole number from the environment; ``default`` if unset or not one."""
    raw = raw.strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else default
