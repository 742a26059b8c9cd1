"""Settings from the environment (and ``.env``): see ``.env.example``.

``Config`` is a pydantic-settings model: each setting is ONE field, whose
``validation_alias`` is its environment variable, whose type and bounds are checked, and
whose ``description`` is the hint a wrong value gets. To add a setting, add a field (and
its line in ``.env.example``; ``tests/bot/test_settings_listed.py`` checks both)::

    ping_after_s: float = _setting(30.0, 'TAMALOU_PING_AFTER_S', 'seconds, 0 or more', ge=0)

``Config(...)`` built in code (tests, embedders) reads nothing from the environment;
``Config.from_env()`` reads the environment and ``.env``, and says what is wrong with a
setting as one line (``ConfigError``). An empty setting (``TAMALOU_GUILD_ID=``) is its
default.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Annotated, Any, Literal

from dotenv import dotenv_values
from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from bot.tables.clock import Clock, SeedSource, random_seed, wall_clock_ms

SyncMode = Literal["auto", "always", "never"]
LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]

_SYNC_WORDS = {
    **dict.fromkeys(("1", "true", "yes", "on", "always", "force"), "always"),
    **dict.fromkeys(("0", "false", "no", "off", "never"), "never"),
}


def _setting(default: Any, env: str, hint: str, **bounds: Any) -> Any:
    """One setting: its default, its environment variable, what a right value is."""
    return Field(default, validation_alias=env, description=hint, **bounds)


class ConfigError(ValueError):
    """A setting that cannot be used; ``str(err)`` says which and how to fix it."""


class Config(BaseSettings):
    model_config = SettingsConfigDict(
        frozen=True,
        extra="ignore",
        validate_by_name=True,
        validate_by_alias=True,
        env_ignore_empty=True,
        env_file_encoding="utf-8",
        arbitrary_types_allowed=True,
    )

    token: str = _setting("", "DISCORD_TOKEN", "the bot token", repr=False)  # never shown
    # a SQLite file, or a postgresql:// URL (docs/storage.md)
    database: str = _setting("tamalou.sqlite3", "TAMALOU_DB", "a SQLite file or a URL")
    # how long a write waits for another writer's lock before StorageBusy
    database_busy_ms: int = _setting(
        5000, "TAMALOU_DB_BUSY_MS", "milliseconds, 1 to 600000", ge=1, le=600_000
    )
    # matches needed to be ranked in a guild's first season (docs/seasons.md)
    min_matches: int = _setting(
        3, "TAMALOU_MIN_MATCHES", "a number of matches, 1 to 1000", ge=1, le=1000
    )
    guild_id: int | None = _setting(
        None, "TAMALOU_GUILD_ID", "a server id (a whole number), or empty", gt=0
    )
    log_level: LogLevel = _setting(
        "INFO", "TAMALOU_LOG_LEVEL", "one of DEBUG, INFO, WARNING, ERROR, CRITICAL"
    )
    reorder_ms: int = _setting(250, "TAMALOU_REORDER_MS", "milliseconds, 0 to 2000", ge=0, le=2000)
    ai_delay_ms: int = _setting(
        1500, "TAMALOU_AI_DELAY_MS", "milliseconds, 0 to 60000", ge=0, le=60_000
    )
    lobby_timeout_s: int = _setting(
        600, "TAMALOU_LOBBY_TIMEOUT_S", "seconds, 1 to 86400", ge=1, le=86_400
    )
    edit_interval_ms: int = _setting(
        1000, "TAMALOU_EDIT_INTERVAL_MS", "milliseconds, 0 to 60000", ge=0, le=60_000
    )
    #: a turn waits this long without its player's move before they are pinged (a
    #: server may set its own with ``/tamalou settings ping_after:``)
    ping_after_s: float = _setting(
        10.0, "TAMALOU_PING_AFTER_S", "seconds, 0 to 3600", ge=0, le=3600
    )
    #: each table plays in a thread started from its lobby message, unless a server says
    #: no (``/tamalou settings threads:``); off: in the channel, as before threads
    threads: bool = _setting(True, "TAMALOU_THREADS", "1 or 0")
    #: a click not answered this long after it arrived is acknowledged first (a deferred
    #: answer), its result following; Discord allows 3 s (DESIGN, "Answer once")
    answer_deadline_ms: int = _setting(
        1500, "TAMALOU_ANSWER_DEADLINE_MS", "milliseconds, 1 to 2900", ge=1, le=2900
    )
    #: auto: sync the slash commands when they changed since the last sync (a hash kept in
    #: the database); always: at every start; never (several processes: one syncs)
    sync_commands: SyncMode = _setting(
        "auto", "TAMALOU_SYNC_COMMANDS", "auto, 1 (always) or 0 (never)"
    )
    # processes in which slow AI levels think (off the event loop)
    ai_workers: int = _setting(
        1, "TAMALOU_AI_WORKERS", "a number of processes, 1 to 64", ge=1, le=64
    )
    # card faces as application emojis (docs/cards.md); off: cards are shown as text
    card_emojis: bool = _setting(True, "TAMALOU_CARD_EMOJIS", "1 or 0")
    #: the shards this process runs (None: all of them) out of ``shard_count`` (None: as
    #: Discord recommends, all in this process); docs/deploy.md
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = _setting(
        None, "TAMALOU_SHARDS", "a shard range such as 0-3, or a list such as 0,2,5"
    )
    shard_count: int | None = _setting(
        None, "TAMALOU_SHARD_COUNT", "the number of shards of every process", ge=1
    )
    #: requests a second the whole bot (every process) spends on Discord's global limit
    #: of 50; each process takes its shards' share (bot/budget.py, docs/deploy.md)
    discord_budget: float = _setting(
        40.0, "TAMALOU_DISCORD_BUDGET", "requests a second, 1 to 10000", ge=1, le=10_000
    )
    #: Prometheus metrics on 127.0.0.1:<port> (docs/operating.md); 0: off
    metrics_port: int = _setting(
        0, "TAMALOU_METRICS_PORT", "a port, 1024 to 65535, or 0 (off)", ge=0, le=65_535
    )
    #: where time (ms) and match seeds come from: injected, so tests control them
    clock: Clock = Field(default=wall_clock_ms, repr=False, exclude=True)
    seeds: SeedSource = Field(default=random_seed, repr=False, exclude=True)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Built in code, a Config reads only its arguments (``_FromEnv`` adds the rest)."""
        return (init_settings,)

    @classmethod
    def from_env(cls, env_file: str | None = ".env") -> Config:
        """The settings of the environment, then of ``env_file`` (the environment wins)."""
        try:
            read = _FromEnv(_env_file=env_file)
        except ValidationError as exc:
            raise ConfigError(describe(exc)) from None
        return Config(**read._values())

    def replace(self, **changes: Any) -> Config:
        """A copy with ``changes`` (validated)."""
        return Config(**{**self._values(), **changes})

    def _values(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in type(self).model_fields}

    def owns(self, guild_id: int) -> bool:
        """Whether this process serves ``guild_id``: Discord sends a guild's events to shard
        ``(guild_id >> 22) % shard_count``, so its tables belong to that shard's process."""
        if self.shard_ids is None or self.shard_count is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("sync_commands", mode="before")
    @classmethod
    def _sync_mode(cls, value: Any) -> Any:
        if isinstance(value, bool):
            return "always" if value else "never"
        if isinstance(value, str):
            word = value.strip().lower()
            return _SYNC_WORDS.get(word, word)
        return value

    @field_validator("metrics_port")
    @classmethod
    def _unprivileged_port(cls, value: int) -> int:
        """Ports below 1024 need root: the hint's bounds are the setting's."""
        if 0 < value < 1024:
            raise ValueError(
                f"TAMALOU_METRICS_PORT={value!r} is not a port, 1024 to 65535, or 0 (off)"
            )
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_range(cls, value: Any) -> Any:
        return shard_range(value) if isinstance(value, str) else value

    @model_validator(mode="after")
    def _shards_in_range(self) -> Config:
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ConfigError(_NO_SHARD_COUNT.format(count=""))
        check_shards(self.shard_ids, self.shard_count)
        return self


class _FromEnv(Config):
    """``Config`` read from the environment and ``.env``."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, dotenv_settings)


#: ``TAMALOU_*`` names read by the test suite and the tools, not by the bot: no warning
NOT_THE_BOTS = tuple(
    "TAMALOU_" + name
    for name in ("E2E_DB", "PG_BIN", "PROPERTY_ROUNDS", "REGEN_GOLDEN", "TEST_", "TRACE_")
)


def unknown_settings(env_file: str | None = ".env") -> list[str]:
    """One line for each ``TAMALOU_*`` name in the environment or ``env_file`` that is no
    setting (a typo, ``TAMALOU_THREAD=0``, is otherwise ignored in silence), with the
    nearest setting's name."""
    known = [
        f.validation_alias
        for f in Config.model_fields.values()
        if isinstance(f.validation_alias, str)
    ]
    names = set(os.environ)
    if env_file is not None and Path(env_file).is_file():
        names |= {k for k in dotenv_values(env_file) if k}
    lines = []
    for name in sorted(names):
        upper = name.upper()
        if not upper.startswith("TAMALOU_") or upper in known or upper.startswith(NOT_THE_BOTS):
            continue
        # compared without the prefix every name shares, which made any name look near
        ours = [k[8:] for k in known if k.startswith("TAMALOU_")]
        near = difflib.get_close_matches(upper[8:], ours, n=1, cutoff=0.6)
        hint = f": did you mean TAMALOU_{near[0]}?" if near else ""
        lines.append(f"{name} is not a setting, ignored{hint} (.env.example lists every setting)")
    return lines


def describe(exc: ValidationError) -> str:
    """The settings a ValidationError refuses, as one line: each named with its value and
    what a right value is."""
    fields = Config.model_fields
    said = []
    for error in exc.errors(include_url=False):
        msg = str(error["msg"]).removeprefix("Value error, ")
        name = next((str(part) for part in error["loc"] if isinstance(part, str)), "")
        field = fields.get(name) or next(
            (f for f in fields.values() if f.validation_alias == name), None
        )
        if field is None or not isinstance(field.validation_alias, str):
            said.append(msg)  # a rule across settings names them itself
            continue
        if error["type"] == "value_error":  # our own message names the setting
            said.append(msg)
            continue
        value, msg = error.get("input"), msg[:1].lower() + msg[1:]
        said.append(f"{field.validation_alias}={value!r} is not {field.description} ({msg})")
    return "; ".join(dict.fromkeys(said)) + " (.env.example explains every setting)"


def shard_of(guild_id: int, shard_count: int) -> int:
    return (guild_id >> 22) % shard_count


_NO_SHARD_COUNT = (
    "TAMALOU_SHARD_COUNT={count!r} is not a number of shards: set it to the total "
    "number of shards of every bot process (e.g. TAMALOU_SHARD_COUNT=8) whenever "
    "TAMALOU_SHARDS is set."
)


def shard_range(ids: str) -> tuple[int, ...] | None:
    """``TAMALOU_SHARDS``: ``0-3``, ``0,2,5`` or ``4`` (empty: None)."""
    ids = ids.strip()
    if not ids:
        return None
    chosen: list[int] = []
    try:
        for part in ids.split(","):
            first, _, last = part.strip().partition("-")
            low, high = int(first), int(last or first)
            if low > high or low < 0:
                raise ValueError(part)
            chosen += range(low, high + 1)
    except ValueError:
        raise ConfigError(
            f"TAMALOU_SHARDS={ids!r} is not a shard range: write it as 0-3, or 0,2,5."
        ) from None
    return tuple(sorted(set(chosen)))


def check_shards(chosen: tuple[int, ...], total: int) -> None:
    wrong = [i for i in chosen if i >= total]
    if wrong:
        shown = ",".join(map(str, chosen))
        raise ConfigError(
            f"TAMALOU_SHARDS={shown!r} names shard {wrong[0]}, but TAMALOU_SHARD_COUNT={total} "
            f"numbers the shards 0 to {total - 1}."
        )


def shard_settings(ids: str, count: str) -> dict[str, Any]:
    """``TAMALOU_SHARDS`` (``0-3``, ``0,2,5`` or ``4``) and ``TAMALOU_SHARD_COUNT``."""
    ids, count = ids.strip(), count.strip()
    if not ids and not count:
        return {}
    if not count.isdigit() or int(count) < 1:
        raise ConfigError(_NO_SHARD_COUNT.format(count=count))
    total = int(count)
    chosen = shard_range(ids)
    if chosen is None:
        return {"shard_count": total}
    check_shards(chosen, total)
    return {"shard_ids": chosen, "shard_count": total}
