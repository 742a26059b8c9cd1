"""``python -m bot``: read the settings, connect to Discord, serve every game's tables."""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import logging
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot import GC_THRESHOLDS
from bot.config import Config, ConfigError, unknown_settings
from bot.storage import StorageError, open_storage

if TYPE_CHECKING:
    from bot.app import GameBot

log = logging.getLogger("bot")

#: waits between attempts to reach Discord at start-up: doubled after each failure, up to
#: the last (discord.py's gateway backs off the same way once connected)
FIRST_RETRY_S, LAST_RETRY_S = 1.0, 60.0
#: what a network that is down (or a Discord that is) raises at login: retried
UNREACHABLE = (OSError, aiohttp.ClientError, TimeoutError, discord.DiscordServerError)

TOKEN_REFUSED = (
    "error: Discord refused DISCORD_TOKEN (401 Unauthorized): it is wrong or was reset. "
    "Copy the bot's token again (developer portal, your application, Bot, Reset Token) "
    "into .env."
)

NO_TOKEN = """No DISCORD_TOKEN is set.

1. Open https://discord.com/developers/applications and create an application.
2. In "Bot", reset and copy the token.
3. Copy .env.example to .env and set DISCORD_TOKEN=<your token>.
4. Invite the bot with the scopes "bot applications.commands" and the permissions
   View Channel, Send Messages, Embed Links, Attach Files, Read Message History,
   Create Public Threads, Send Messages in Threads (permission integer 309237763072;
   see README.md).
"""


async def check_database(config: Config) -> None:
    """Open the database once before connecting to Discord: a read-only, corrupt or
    unreachable database is said at once (and migrations are applied)."""
    storage = open_storage(config.database, busy_timeout_ms=config.database_busy_ms)
    await storage.open()
    await storage.close()


USAGE = """usage: python -m bot [status | smoke CHANNEL_ID]

  (nothing)  run the bot (settings from the environment and .env; see .env.example)
  status     the state of every bot process on the configured database, its live tables
             per game and shard and the slash commands' last sync; exit 0 if every process
             is ready and wrote its status lately, 1 otherwise
  smoke      with a TEST bot and server: checks against Discord what the design rests on
             (a member presses a button twice); prints each as held or not
             (docs/operating.md)
"""


def main(config: Config | None = None, argv: list[str] | None = None) -> int:
    argv = argv or []
    if argv and argv != ["status"] and argv[0] != "smoke":
        print(USAGE, file=sys.stderr)
        return 0 if argv[0] in ("-h", "--help") else 2
    try:
        config = config or Config.from_env()
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if argv == ["status"]:
        return status(config)
    if argv[0:1] == ["smoke"]:
        if not config.token:
            print(NO_TOKEN, file=sys.stderr)
            return 2
        from bot import smoke

        logging.basicConfig(level=logging.WARNING)
        return smoke.main(config.token, argv[1:])
    logging.basicConfig(
        level=config.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    for line in unknown_settings():
        log.warning("%s", line)
    if not config.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    if config.metrics_port and importlib.util.find_spec("prometheus_client") is None:
        print(
            f"error: TAMALOU_METRICS_PORT={config.metrics_port} asks for metrics, but "
            "prometheus-client is not installed: pip install -e '.[metrics]', or set "
            "TAMALOU_METRICS_PORT=0.",
            file=sys.stderr,
        )
        return 2
    gc.set_threshold(*GC_THRESHOLDS)  # start-up builds long-lived objects: see GC_THRESHOLDS
    try:
        asyncio.run(check_database(config))
        return asyncio.run(serve(config))
    except StorageError as exc:  # here, or when setup_hook opens it again
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0  # Ctrl-C: closed cleanly, as discord.py's run() did


def status(config: Config) -> int:
    from bot.status import report
    from bot.storage.base import is_postgres

    if not is_postgres(config.database) and not Path(config.database).exists():
        print(
            f"error: no database at {config.database} (TAMALOU_DB): the bot never started "
            "with these settings here.",
            file=sys.stderr,
        )
        return 2
    try:
        text, healthy = asyncio.run(report(config))
    except StorageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(text)
    return 0 if healthy else 1


async def serve(config: Config) -> int:
    """Logs in (retrying while Discord cannot be reached), then runs until closed."""
    from bot.app import GameBot

    bot = GameBot(config)
    if bot.metrics is not None:
        try:
            bot.metrics.serve(config.metrics_port)
        except OSError as exc:
            print(
                f"error: TAMALOU_METRICS_PORT={config.metrics_port}: the port cannot be "
                f"opened on 127.0.0.1 ({_cause(exc)}): choose another or 0 (off).",
                file=sys.stderr,
            )
            return 2
        log.info("metrics on http://127.0.0.1:%d/metrics", config.metrics_port)
    async with bot:
        if not await login(bot, config.token, config):
            print(TOKEN_REFUSED, file=sys.stderr)
            return 2
        await bot.connect(reconnect=True)
    return 0


async def login(bot: GameBot, token: str, config: Config | None = None) -> bool:
    """``bot.login`` until it reaches Discord; False if Discord refuses the token. A
    network that is down is said in one line an attempt, never a traceback; with
    ``config``, the status says "connecting since …" meanwhile (``python -m bot status``)."""
    from bot.status import write_connecting

    delay = FIRST_RETRY_S
    since, attempts = int(time.time() * 1000), 0
    if config is not None:
        await write_connecting(config, since)
    while True:
        try:
            await bot.login(token)
            return True
        except discord.LoginFailure:
            return False
        except UNREACHABLE as exc:
            attempts += 1
            if config is not None:  # before the line: whoever reads it finds the status
                await write_connecting(config, since, attempts, _cause(exc))
            log.warning("cannot reach Discord (%s): trying again in %.0f s", _cause(exc), delay)
        # a fresh HTTP session for the next attempt (login made one, on a connector that
        # closes with it)
        await bot.http.close()
        bot.http.connector = discord.utils.MISSING
        await asyncio.sleep(delay)
        delay = min(delay * 2, LAST_RETRY_S)


def _cause(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:199] + "…"


if __name__ == "__main__":
    sys.exit(main(argv=sys.argv[1:]))
