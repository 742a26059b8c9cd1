"""Local Discord emulator for end-to-end tests of a discord.py bot (see docs/emulator.md)."""

from .harness import (
    BotProcess,
    CommandNotAvailableError,
    ComponentDisabledError,
    Emulator,
    running_emulator,
)
from .model import (
    EPHEMERAL,
    Attachment,
    Button,
    Channel,
    GuildSpec,
    HistoryEntry,
    Interaction,
    Media,
    MemberSpec,
    Message,
    Problem,
    Select,
    User,
)
from .recording import V2Audit, audit_v2
from .server import DiscordServer, EmulatorError
from .snowflake import DISCORD_EPOCH_MS, Clock, snowflake_from_ms, snowflake_time_ms

__all__ = [
    "DISCORD_EPOCH_MS",
    "EPHEMERAL",
    "Attachment",
    "BotProcess",
    "Button",
    "Channel",
    "Clock",
    "CommandNotAvailableError",
    "ComponentDisabledError",
    "DiscordServer",
    "Emulator",
    "EmulatorError",
    "GuildSpec",
    "HistoryEntry",
    "Interaction",
    "Media",
    "MemberSpec",
    "Message",
    "Problem",
    "Select",
    "User",
    "V2Audit",
    "audit_v2",
    "running_emulator",
    "snowflake_from_ms",
    "snowflake_time_ms",
]
