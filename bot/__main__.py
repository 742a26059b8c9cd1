"""``python -m bot``: read the settings, connect to Discord, serve every game's tables."""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.config import Config, ConfigError
from bot.storage import StorageError, open_storage

NO_TOKEN = """No DISCORD_TOKEN is set.

1. Open https://discord.com/developers/applications and create an application.
2. In "Bot", reset and copy the token.
3. Copy .env.example to .env and set DISCORD_TOKEN=<your token>.
4. Invite the bot with the scopes "bot applications.commands" and the permissions
   View Channel, Send Messages, Embed Links, Attach Files, Read Message History
   (permission integer 117760; see README.md).
"""


async def check_database(config: Config) -> None:
    """Open the database once before connecting to Discord: a read-only, corrupt or
    unreachable database is said at once (and migrations are applied)."""
    storage = open_storage(config.database, busy_timeout_ms=config.database_busy_ms)
    await storage.open()
    await storage.close()


def main(config: Config | None = None) -> int:
    try:
        config = config or Config.from_env()
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=config.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not config.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    try:
        asyncio.run(check_database(config))
        from bot.app import GameBot

        bot = GameBot(config)
        bot.run(config.token, log_handler=None)
    except StorageError as exc:  # here, or when setup_hook opens it again
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
