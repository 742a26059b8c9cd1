"""The test-facing API of the Discord emulator.

    emu = Emulator(response_deadline=3.0)
    await emu.start()
    await emu.start_bot("bot", env={"TAMALOU_DB": str(tmp_path / "db.sqlite"),
                                    "TAMALOU_GUILD_ID": str(emu.guild.id)})
    inter = await emu.slash("alice", "tamalou new", target=100)
    table = emu.last_message("general")
    await emu.click("bob", table, label="Join")
    ...
    await emu.close(); emu.check()

See docs/emulator.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .model import (
    ADMINISTRATOR,
    Channel,
    Guild,
    GuildSpec,
    HistoryEntry,
    Interaction,
    Message,
    Problem,
    User,
)
from .recording import V2Audit, audit_v2
from .server import DiscordServer, EmulatorError

PROJECT_ROOT = Path(__file__).resolve().parents[1]

UserRef = User | str | int
ChannelRef = Channel | str | int | None
MessageRef = Message | int

OPTION_STRING, OPTION_INTEGER, OPTION_BOOLEAN, OPTION_USER = 3, 4, 5, 6
OPTION_CHANNEL, OPTION_ROLE, OPTION_MENTIONABLE, OPTION_NUMBER = 7, 8, 9, 10


class ComponentDisabledError(EmulatorError):
    """The component exists but is disabled: Discord's client would not let anyone press it."""


class CommandNotAvailableError(EmulatorError):
    """The user cannot run this command (unknown, or hidden by default_member_permissions)."""


class BotProcess:
    def __init__(
        self, proc: asyncio.subprocess.Process, log_path: Path, module: str, generation: int = 0
    ) -> None:
        self.proc = proc
        self.log_path = log_path
        self.module = module
        self.generation = generation  # the emulator's generation it was started in
        self.stopping = False
        self.monitor: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def alive(self) -> bool:
        return self.proc.returncode is None

    def log_tail(self, lines: int = 60) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


class Emulator(DiscordServer):
    """Discord emulator + test API. All methods run in the test's event loop."""

    def __init__(
        self,
        *,
        default_channel: str | None = None,
        log_dir: str | Path | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.default_channel = self.guild.channels[0]
        if default_channel:
            self.default_channel = self.channel(default_channel)
        self.log_dir = Path(log_dir) if log_dir else Path(tempfile.mkdtemp(prefix="discord-emu-"))
        self.bot: BotProcess | None = None  # the bot process started last
        self.bots: list[BotProcess] = []  # every one (several: a shard range each)
        self.bot_logs: list[Path] = []

    # ================================================================== lookups
    @property
    def members(self) -> list[User]:
        return list(self.guild.members)

    def member(self, ref: UserRef) -> User:
        """A guild member by name ("alice"), id or User."""
        if isinstance(ref, User):
            return self.users[ref.id]
        if isinstance(ref, int):
            if ref in self.users:
                return self.users[ref]
        else:
            for user in self.users.values():
                if user.name == ref:
                    return user
        raise EmulatorError(f"unknown member {ref!r}; members: {[m.name for m in self.members]}")

    def channel(self, ref: ChannelRef = None) -> Channel:
        """A channel by name ("general" or "#general"), id or Channel; None: the default one."""
        if ref is None:
            return self.default_channel
        if isinstance(ref, Channel):
            return self.channels[ref.id]
        if isinstance(ref, int):
            if ref in self.channels:
                return self.channels[ref]
        else:
            name = ref.lstrip("#")
            for guild in [self.home_guild, *self.guilds.values()]:  # the default's first
                for chan in guild.channels:
                    if chan.name == name:
                        return chan
            for chan in self.channels.values():  # then threads, by name
                if chan.is_thread and chan.name == name and not chan.deleted:
                    return chan
        names = [c.name for g in self.guilds.values() for c in g.channels]
        raise EmulatorError(f"unknown channel {ref!r}; channels: {names}")

    @property
    def home_guild(self) -> Guild:
        """The default channel's guild: where a channel named without its guild is looked
        for first, and the guild that ``deny_bot``, ``remove_bot`` and ``commands`` mean
        when given none (the first guild, unless a test moved ``default_channel``)."""
        return self.guild_of_channel(self.default_channel)

    def dm_channel(self, user: UserRef) -> Channel | None:
        return self.dm_channels.get(self.member(user).id)

    def _message(self, ref: MessageRef) -> Message:
        mid = ref.id if isinstance(ref, Message) else int(ref)
        if mid not in self.messages:
            raise EmulatorError(f"unknown message {mid}")
        return self.messages[mid]

    def advance(self, ms: int = 0, *, seconds: float = 0, minutes: float = 0) -> None:
        """Moves the emulator clock forward (token expiry, timestamps of new ids)."""
        self.clock.advance(ms, seconds=seconds, minutes=minutes)

    # ================================================================== threads
    def threads(self, parent: ChannelRef = None) -> list[Channel]:
        """The threads started in a channel (deleted ones left out), oldest first."""
        chan = self.channel(parent)
        return [
            c
            for c in self.channels.values()
            if c.is_thread and c.parent_id == chan.id and not c.deleted
        ]

    def thread_of(self, message: MessageRef) -> Channel | None:
        """The thread started from a message (it has the message's id), if any."""
        thread = self.channels.get(self._message(message).thread_id or 0)
        return None if thread is None or thread.deleted else thread

    def deny_bot(self, permissions: int, guild_id: int | None = None) -> None:
        """Takes permissions from the bot in every channel of a guild (as a channel
        overwrite would); interactions carry the change in ``app_permissions``."""
        guild = self.guilds.get(guild_id or self.home_guild.id, self.guild)
        guild.denied[self.bot_user.id] = guild.denied.get(self.bot_user.id, 0) | permissions

    def allow_bot(self, permissions: int, guild_id: int | None = None) -> None:
        """Gives back permissions taken by :meth:`deny_bot`."""
        guild = self.guilds.get(guild_id or self.home_guild.id, self.guild)
        guild.denied[self.bot_user.id] = guild.denied.get(self.bot_user.id, 0) & ~permissions

    async def archive_thread(self, thread: ChannelRef, *, locked: bool = False) -> None:
        """A moderator archives (and maybe locks) a thread: THREAD_UPDATE."""
        chan = self.channel(thread)
        if not chan.is_thread:
            raise EmulatorError(f"{chan} is not a thread")
        self._change_thread(chan, archived=True, locked=locked or None)
        await self.dispatch_thread("THREAD_UPDATE", chan)

    async def unarchive_thread(self, thread: ChannelRef) -> None:
        """A moderator (or a member sending a message) reopens a thread: THREAD_UPDATE."""
        chan = self.channel(thread)
        self._change_thread(chan, archived=False, locked=False)
        await self.dispatch_thread("THREAD_UPDATE", chan)

    async def delete_thread(self, thread: ChannelRef) -> None:
        """A moderator deletes a thread and its messages: THREAD_DELETE."""
        chan = self.channel(thread)
        if not chan.is_thread:
            raise EmulatorError(f"{chan} is not a thread")
        chan.deleted = True
        for msg in self.messages.values():
            if msg.channel_id == chan.id and not msg.deleted:
                msg.deleted = True
                self._record(msg, "delete")
        self._notify()
        await self.dispatch_thread("THREAD_DELETE", chan)

    async def delete_message(self, message: MessageRef) -> None:
        """A moderator deletes a public message (the bot gets MESSAGE_DELETE)."""
        msg = self._message(message)
        if msg.ephemeral:
            raise EmulatorError("ephemeral messages cannot be deleted by other users")
        self._delete(msg)
        self._notify()
        data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
        with contextlib.suppress(EmulatorError):
            session = self.session_for_guild(msg.guild_id)
            if session.intents & (1 << 9 if msg.guild_id else 1 << 12):
                await session.dispatch("MESSAGE_DELETE", data)

    async def delete_channel(self, channel: ChannelRef) -> None:
        """A server admin deletes a channel (the bot gets CHANNEL_DELETE); its messages go,
        and REST calls on it answer 404 10003 Unknown Channel."""
        chan = self.channel(channel)
        guild = self.guild_of_channel(chan)
        guild.channels.remove(chan)
        del self.channels[chan.id]
        for msg in [m for m in self.messages.values() if m.channel_id == chan.id]:
            self._delete(msg)
        self._notify()
        session = self.session_for_guild(guild.id)
        await session.dispatch("CHANNEL_DELETE", chan.payload())

    async def remove_bot(self, guild_id: int | None = None) -> None:
        """The bot is removed from a guild (GUILD_DELETE without ``unavailable``); its
        channels answer 404 10003 to the bot from then on, and a bot started later is not
        in it (READY leaves it out). The first guild stays known to the emulator, whose
        defaults (members, roles) it holds."""
        guild = self.guilds[guild_id or self.home_guild.id]
        for chan in guild.channels:
            self.channels.pop(chan.id, None)
        if guild is not self.guild:
            del self.guilds[guild.id]
        self._notify()
        with contextlib.suppress(EmulatorError):  # no bot connected: a later one is not in it
            session = self.session_for_guild(guild.id)
            await session.dispatch("GUILD_DELETE", {"id": str(guild.id)})

    async def add_guild(self, spec: GuildSpec) -> Guild:
        """The bot is added to one more guild while it runs: GUILD_CREATE on the guild's
        shard, as Discord sends it (a bot started later gets it in READY). The guild has
        the first guild's members and roles (its own ``@everyone``), like ``extra_guilds``."""
        guild = self._add_guild(spec, self.clock.now_ms())
        for chan in guild.channels:
            self.channels[chan.id] = chan
        self._notify()
        with contextlib.suppress(EmulatorError):  # no bot connected: it gets it in READY
            session = self.session_for_guild(guild.id)
            if session.identified:
                await session.dispatch("GUILD_CREATE", self.guild_payload(full=True, guild=guild))
        return guild

    def forget_records(self) -> None:
        """A new scene with the same bot: every message, version, interaction, request and
        rate-limit record so far is forgotten, and the channels of the guilds the bot left
        (``remove_bot``) with them. Tests that share one running bot each read only what
        they made (``history()`` holds every version shown since). Pending interactions and
        problems must have been dealt with first (``settle``, ``check``)."""
        if self.problems:
            raise EmulatorError(f"{len(self.problems)} problem(s) not checked: {self.problems}")
        for handle in self._deadline_handles.values():
            handle.cancel()
        self._deadline_handles.clear()
        self.messages.clear()
        self._history.clear()
        self._nonces.clear()
        self.interactions.clear()
        self._by_token.clear()
        self.requests_forgotten += len(self.requests)  # ids go on: the bot acks by id
        self.requests.clear()
        self.faults.clear()
        self.stalls.clear()
        self.rate_limiter.forget_records()
        for cid, chan in list(self.channels.items()):
            if chan.guild_id is not None and chan.guild_id not in self.guilds:
                del self.channels[cid]
        self._notify()

    # ================================================================== reading
    def channel_messages(self, channel: ChannelRef = None) -> list[Message]:
        """Public messages of a channel (latest state, deleted ones removed), oldest first."""
        chan = self.channel(channel)
        return [
            m
            for m in self.messages.values()
            if m.channel_id == chan.id and not m.deleted and m.recipient_id is None
        ]

    def last_message(self, channel: ChannelRef = None) -> Message:
        msgs = self.channel_messages(channel)
        if not msgs:
            raise EmulatorError(f"no message in {self.channel(channel)}")
        return msgs[-1]

    def ephemerals(self, user: UserRef) -> list[Message]:
        """The user's own ephemeral messages (latest state, deleted removed), oldest first."""
        uid = self.member(user).id
        return [
            m
            for m in self.messages.values()
            if m.recipient_id == uid and m.ephemeral and not m.deleted
        ]

    def last_ephemeral(self, user: UserRef) -> Message:
        msgs = self.ephemerals(user)
        if not msgs:
            raise EmulatorError(f"{self.member(user)} has no ephemeral message")
        return msgs[-1]

    def dms(self, user: UserRef) -> list[Message]:
        chan = self.dm_channel(user)
        if chan is None:
            return []
        return [m for m in self.messages.values() if m.channel_id == chan.id and not m.deleted]

    def visible_messages(self, user: UserRef, channel: ChannelRef = None) -> list[Message]:
        """What ``user`` sees in a channel: public messages and their own ephemerals."""
        uid = self.member(user).id
        chan = self.channel(channel)
        return [
            m
            for m in self.messages.values()
            if m.channel_id == chan.id
            and not m.deleted
            and (m.recipient_id is None or m.recipient_id == uid)
        ]

    def history(self, user: UserRef | None = None) -> list[HistoryEntry]:
        """Every version of every message ever shown (and modals), in order.

        ``entry.audience`` is None for everyone in the channel, else the one user id who saw
        it. With ``user``: only the entries that user could see.
        """
        if user is None:
            return list(self._history)
        uid = self.member(user).id
        return [e for e in self._history if e.visible_to(uid)]

    def leaks(self, text: str, *, owner: UserRef) -> list[HistoryEntry]:
        """Entries containing ``text`` that someone other than ``owner`` could see."""
        uid = self.member(owner).id
        return [e for e in self._history if text in e.text and e.audience != uid]

    def requests_to(self, method: str | None = None, path_contains: str = "") -> list[Any]:
        return [
            r
            for r in self.requests
            if (method is None or r.method == method) and path_contains in r.path
        ]

    def v2_audit(self, messages: Callable[[int], bool] | None = None) -> V2Audit:
        """Whether every message the bot posted or edited (in scope: ``messages``, a
        predicate on message ids) was left V2, and none of its writes refused: see
        :func:`emulator.recording.audit_v2`."""
        return audit_v2(self.requests, messages=messages)

    # ================================================================== problems
    def take_problems(self, kind: str | None = None) -> list[Problem]:
        """Removes and returns recorded problems (of a kind), for tests that expect them."""
        taken = [p for p in self.problems if kind is None or p.kind == kind]
        self.problems = [p for p in self.problems if p not in taken]
        return taken

    def check(self) -> None:
        """Raises AssertionError listing every problem not taken by the test."""
        if not self.problems:
            return
        lines = [f"Discord emulator recorded {len(self.problems)} problem(s):"]
        lines += [str(p) for p in self.problems]
        if self.bot_logs:
            lines.append(f"bot logs: {', '.join(str(p) for p in self.bot_logs)}")
        raise AssertionError("\n".join(lines))

    # ================================================================== interactions
    def commands(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """Commands visible in the guild (default: the default channel's): guild commands,
        then global ones."""
        guild = guild_id or self.home_guild.id
        return [*self.guild_commands.get(guild, []), *self.global_commands]

    def _find_command(
        self, name: str, ctype: int = 1, guild_id: int | None = None
    ) -> dict[str, Any] | None:
        for cmd in self.commands(guild_id):
            if int(cmd.get("type", 1)) != ctype:
                continue
            names = {cmd["name"], *(cmd.get("name_localizations") or {}).values()}
            if name in names:
                return cmd
        return None

    def _new_interaction(
        self,
        itype: int,
        user: User,
        channel: Channel,
        name: str,
        data: dict[str, Any],
        *,
        locale: str | None,
        at: int | None,
        message: Message | None = None,
    ) -> Interaction:
        iid = self.ids.next(at) if at is not None else self.ids.next()
        token = f"emu_{secrets.token_urlsafe(32)}"
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.app_id),
            "type": itype,
            "token": token,
            "version": 1,
            "channel_id": str(channel.id),
            "locale": locale or user.locale,
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "data": data,
        }
        if channel.guild_id is not None:
            guild = self.guild_of_channel(channel)
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild": {
                        "id": str(guild.id),
                        "locale": guild.preferred_locale,
                        "features": [],
                    },
                    "guild_locale": guild.preferred_locale,
                    "channel": channel.payload(),
                    "member": guild.interaction_member_payload(user),
                    "app_permissions": str(guild.permissions_of(self.bot_user)),
                    "authorizing_integration_owners": {"0": str(guild.id)},
                    "context": 0,
                }
            )
        else:
            payload.update(
                {
                    "channel": channel.payload(user),
                    "user": user.user_payload(),
                    "app_permissions": "0",
                    "authorizing_integration_owners": {"0": str(self.guild.id)},
                    "context": 1,
                }
            )
        if message is not None:
            payload["message"] = self.message_payload(message)
        return Interaction(
            id=iid,
            token=token,
            type=itype,
            user_id=user.id,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            at_ms=(iid >> 22) + 1420070400000,
            delivered_ms=0,
            name=name,
            payload=payload,
            message_id=message.id if message is not None else None,
        )

    async def _send(self, inter: Interaction, wait: bool | str, timeout: float) -> Interaction:
        if self.bot is not None and not self._bot_alive():
            raise EmulatorError(f"the bot process exited:\n{self.bot.log_tail()}")
        await self.deliver(inter)
        if wait:
            await self.handled(inter, deep=wait == "deep", timeout=timeout)
        return inter

    def _resolve_option(
        self, opt: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]]
    ) -> Any:
        otype = int(opt["type"])
        name = opt["name"]
        choices = opt.get("choices") or []
        if choices:
            by_name = {c["name"]: c["value"] for c in choices}
            values = [c["value"] for c in choices]
            if value not in values:
                if value in by_name:
                    value = by_name[value]
                else:
                    raise EmulatorError(
                        f"option {name}={value!r} is not one of the choices {values}"
                    )
        if otype == OPTION_STRING:
            value = str(value)
            if "min_length" in opt and len(value) < int(opt["min_length"]):
                raise EmulatorError(f"option {name} is shorter than {opt['min_length']}")
            if "max_length" in opt and len(value) > int(opt["max_length"]):
                raise EmulatorError(f"option {name} is longer than {opt['max_length']}")
            return value
        if otype in (OPTION_INTEGER, OPTION_NUMBER):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise EmulatorError(f"option {name} needs a number, got {value!r}")
            if otype == OPTION_INTEGER:
                if int(value) != value:
                    raise EmulatorError(f"option {name} needs an integer, got {value!r}")
                value = int(value)
            if opt.get("min_value") is not None and value < opt["min_value"]:
                raise EmulatorError(f"option {name}={value} is below {opt['min_value']}")
            if opt.get("max_value") is not None and value > opt["max_value"]:
                raise EmulatorError(f"option {name}={value} is above {opt['max_value']}")
            return value
        if otype == OPTION_BOOLEAN:
            return bool(value)
        if otype in (OPTION_USER, OPTION_MENTIONABLE) and not (
            otype == OPTION_MENTIONABLE and self._role_or_none(value) is not None
        ):
            user = self.member(value)
            resolved.setdefault("users", {})[str(user.id)] = user.user_payload()
            if user in self.guild.members or user is self.bot_user:
                member = self.guild.interaction_member_payload(user)
                member.pop("user", None)
                resolved.setdefault("members", {})[str(user.id)] = member
            return str(user.id)
        if otype in (OPTION_ROLE, OPTION_MENTIONABLE):
            role = self._role_or_none(value)
            if role is None:
                raise EmulatorError(f"unknown role {value!r}")
            resolved.setdefault("roles", {})[str(role.id)] = role.payload()
            return str(role.id)
        if otype == OPTION_CHANNEL:
            chan = self.channel(value)
            resolved.setdefault("channels", {})[str(chan.id)] = {
                "id": str(chan.id),
                "name": chan.name,
                "type": chan.type,
                "permissions": str(self.guild.permissions_of(self.bot_user)),
            }
            return str(chan.id)
        raise EmulatorError(f"option type {otype} ({name}) is not supported by the emulator")

    def _role_or_none(self, value: Any) -> Any:
        for role in self.guild.roles:
            if value in (role.id, role.name, str(role.id)):
                return role
        return None

    def _command_data(
        self,
        user: User,
        command: str,
        values: dict[str, Any],
        focused: str | None = None,
        guild_id: int | None = None,
    ) -> tuple[dict[str, Any], str]:
        tokens = command.strip().lstrip("/").split()
        if not tokens:
            raise EmulatorError("empty command")
        cmd = self._find_command(tokens[0], guild_id=guild_id)
        if cmd is None:
            synced = [c["name"] for c in self.commands(guild_id)]
            raise CommandNotAvailableError(f"no command /{tokens[0]}; synced: {synced}")
        required = cmd.get("default_member_permissions")
        if required is not None:
            perms = self.guilds.get(guild_id or 0, self.guild).permissions_of(user)
            needed = int(required)  # "0": administrators only
            if not perms & ADMINISTRATOR and (needed == 0 or perms & needed != needed):
                raise CommandNotAvailableError(
                    f"{user.name} cannot use /{cmd['name']} (default_member_permissions)"
                )
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        node_opts: list[dict[str, Any]] = cmd.get("options") or []
        out_opts: list[dict[str, Any]] = []
        data["options"] = out_opts
        path = [cmd["name"]]
        for tok in tokens[1:]:
            sub = next(
                (
                    o
                    for o in node_opts
                    if int(o.get("type", 0)) in (1, 2)
                    and (o["name"] == tok or tok in (o.get("name_localizations") or {}).values())
                ),
                None,
            )
            if sub is None:
                subs = [o["name"] for o in node_opts if int(o.get("type", 0)) in (1, 2)]
                raise CommandNotAvailableError(
                    f"/{' '.join(path)} has no subcommand {tok!r}; subcommands: {subs}"
                )
            path.append(sub["name"])
            nested: list[dict[str, Any]] = []
            out_opts.append({"name": sub["name"], "type": int(sub["type"]), "options": nested})
            out_opts = nested
            node_opts = sub.get("options") or []
        if any(int(o.get("type", 0)) in (1, 2) for o in node_opts):
            subs = [o["name"] for o in node_opts]
            raise CommandNotAvailableError(f"/{' '.join(path)} needs a subcommand: {subs}")
        resolved: dict[str, dict[str, Any]] = {}
        known = {o["name"]: o for o in node_opts}
        for key in values:
            if key not in known:
                raise EmulatorError(
                    f"/{' '.join(path)} has no option {key!r}; options: {list(known)}"
                )
        for opt in node_opts:
            name = opt["name"]
            if name not in values:
                if opt.get("required") and name != focused:
                    raise EmulatorError(f"/{' '.join(path)} needs option {name!r}")
                continue
            if name == focused:
                out_opts.append(
                    {
                        "name": name,
                        "type": int(opt["type"]),
                        "value": str(values[name]),
                        "focused": True,
                    }
                )
                continue
            value = self._resolve_option(opt, values[name], resolved)
            out_opts.append({"name": name, "type": int(opt["type"]), "value": value})
        if resolved:
            data["resolved"] = resolved
        return data, " ".join(path)

    async def slash(
        self,
        user: UserRef,
        command: str,
        /,
        *,
        channel: ChannelRef = None,
        locale: str | None = None,
        at: int | None = None,
        options: Mapping[str, Any] | None = None,
        wait: bool | str = True,
        timeout: float = 10.0,
        **kwargs: Any,
    ) -> Interaction:
        """Runs ``/command`` (e.g. "tamalou season start") as ``user``.

        Options come as keyword arguments (or ``options=`` for names such as "channel").
        Users may be given as names, channels as names. ``at`` (Unix ms) sets the timestamp
        of the interaction's snowflake. ``wait``: True (default) returns once the tasks
        discord.py spawned for it are done, "deep" also waits for the tasks they spawned,
        False returns right after delivery (see :meth:`handled`).
        """
        member = self.member(user)
        values = {**(options or {}), **kwargs}
        where = self.channel(channel)
        if where.is_thread and (where.archived or where.deleted):
            # "users cannot ... use application commands ... in archived threads"
            raise CommandNotAvailableError(f"{where} is archived: Discord offers no command there")
        if not self.commands(where.guild_id):  # the bot may sync after on_ready
            with contextlib.suppress(TimeoutError):
                await self.wait_for(
                    lambda: self.commands(where.guild_id),
                    timeout=min(timeout, 5.0),
                    what="command sync",
                )
        data, path = self._command_data(member, command, values, guild_id=where.guild_id)
        inter = self._new_interaction(2, member, where, path, data, locale=locale, at=at)
        return await self._send(inter, wait, timeout)

    async def autocomplete(
        self,
        user: UserRef,
        command: str,
        focused: str,
        value: str = "",
        /,
        *,
        channel: ChannelRef = None,
        locale: str | None = None,
        timeout: float = 5.0,
        **kwargs: Any,
    ) -> list[dict[str, Any]]:
        """Types ``value`` in option ``focused`` and returns the bot's suggested choices."""
        member = self.member(user)
        where = self.channel(channel)
        data, path = self._command_data(
            member, command, {**kwargs, focused: value}, focused, guild_id=where.guild_id
        )
        inter = self._new_interaction(4, member, where, path, data, locale=locale, at=None)
        await self._send(inter, False, timeout)
        await self.wait_for(lambda: inter.choices is not None, timeout, "autocomplete choices")
        return list(inter.choices or [])

    def undelivered(
        self,
        user: UserRef,
        kind: str = "command",
        /,
        *,
        channel: ChannelRef = None,
        message: MessageRef | None = None,
    ) -> Interaction:
        """An interaction Discord made that no bot receives ("command", "autocomplete", or
        "component": a click on ``message``): a test answers it itself, e.g. through
        discord.py's HTTP client, to see how the emulator answers a callback (an
        UPDATE_MESSAGE edits ``message``). It has no response deadline."""
        itype = {"command": 2, "autocomplete": 4, "component": 3}[kind]
        if itype == 3:
            if message is None:
                raise EmulatorError('undelivered(..., "component") needs the message clicked')
            msg = self._message(message)
            data: dict[str, Any] = {"custom_id": "probe", "component_type": 2}
            inter = self._new_interaction(
                3,
                self.member(user),
                self.channels[msg.channel_id],
                "probe",
                data,
                locale=None,
                at=None,
                message=msg,
            )
        else:
            data = {"id": str(self.ids.next()), "name": "probe", "type": 1, "options": []}
            inter = self._new_interaction(
                itype, self.member(user), self.channel(channel), "probe", data, locale=None, at=None
            )
        inter.delivered_ms = self.clock.now_ms()
        inter.generation = self.generation
        inter.emulator = self
        inter.handled = inter.settled = True  # no bot receives it: nothing to wait for
        self.interactions[inter.id] = inter
        self._by_token[inter.token] = inter
        return inter

    def _check_visible(self, user: User, msg: Message) -> Channel:
        if msg.deleted:
            raise EmulatorError(f"message {msg.id} was deleted")
        if msg.recipient_id is not None and msg.recipient_id != user.id:
            raise EmulatorError(
                f"{user.name} cannot see message {msg.id} "
                f"(it is only visible to {self.users[msg.recipient_id].name})"
            )
        return self.channels[msg.channel_id]

    async def _wait_consumed(self, msg: Message, timeout: float = 5.0) -> None:
        """Waits until the bot read the REST reply that last shaped ``msg``."""
        await self._wait_request_consumed(msg.last_request_id, msg.last_request_generation, timeout)

    async def _wait_request_consumed(
        self, rid: int | None, generation: int, timeout: float = 5.0
    ) -> None:
        """Waits until discord.py read the reply to request ``rid`` (and stored its View)."""
        if rid is None or generation != self.generation:
            return
        if self.instrumented:
            await self.wait_for(
                lambda: rid in self.acked or not self._bot_alive(),
                timeout,
                f"the bot to consume the reply to request #{rid}",
            )
            return
        rec = self.requests[rid - 1 - self.requests_forgotten]
        delay = rec.mono + 0.25 - asyncio.get_running_loop().time()
        if delay > 0:
            await asyncio.sleep(delay)  # fallback without the launcher's hooks

    def _bot_alive(self) -> bool:
        return any(bot.alive for bot in self.bots)

    async def click(
        self,
        user: UserRef,
        message: MessageRef,
        label: str | None = None,
        /,
        *,
        custom_id: str | None = None,
        at: int | None = None,
        locale: str | None = None,
        wait: bool | str = True,
        timeout: float = 10.0,
    ) -> Interaction:
        """Presses the button with that label (or custom_id) on ``message`` as ``user``."""
        member = self.member(user)
        msg = self._message(message)
        channel = self._check_visible(member, msg)
        if label is None and custom_id is None:
            raise EmulatorError("click() needs a label or a custom_id")
        try:
            button = msg.button(label, custom_id=custom_id)
        except LookupError as exc:
            raise EmulatorError(str(exc)) from None
        if button.url or button.custom_id is None:
            raise EmulatorError(f"button {button.label!r} is a link/premium button")
        if button.disabled:
            raise ComponentDisabledError(
                f"button {button.label or button.custom_id!r} on message {msg.id} is disabled"
            )
        await self._wait_consumed(msg)
        data: dict[str, Any] = {"custom_id": button.custom_id, "component_type": 2}
        if isinstance(button.raw.get("id"), int):
            data["id"] = button.raw["id"]
        inter = self._new_interaction(
            3, member, channel, button.custom_id, data, locale=locale, at=at, message=msg
        )
        return await self._send(inter, wait, timeout)

    async def select(
        self,
        user: UserRef,
        message: MessageRef,
        custom_id: str | None = None,
        values: Sequence[Any] = (),
        /,
        *,
        placeholder: str | None = None,
        at: int | None = None,
        locale: str | None = None,
        wait: bool | str = True,
        timeout: float = 10.0,
    ) -> Interaction:
        """Picks ``values`` in a select menu (string values, or members/channels/roles)."""
        member = self.member(user)
        msg = self._message(message)
        channel = self._check_visible(member, msg)
        selects = msg.selects()
        if custom_id is not None:
            selects = [s for s in selects if s.custom_id == custom_id]
        if placeholder is not None:
            selects = [s for s in selects if s.placeholder == placeholder]
        if len(selects) != 1:
            raise EmulatorError(
                f"expected one select matching custom_id={custom_id!r} "
                f"placeholder={placeholder!r} on message {msg.id}, "
                f"found {len(selects)}"
            )
        sel = selects[0]
        if sel.disabled:
            raise ComponentDisabledError(f"select {sel.custom_id!r} is disabled")
        if not sel.min_values <= len(values) <= sel.max_values:
            raise EmulatorError(
                f"select {sel.custom_id!r} takes {sel.min_values}.."
                f"{sel.max_values} values, got {len(values)}"
            )
        resolved: dict[str, dict[str, Any]] = {}
        out: list[str] = []
        for value in values:
            if sel.type == 3:
                opts = {o["value"]: o for o in sel.options}
                by_label = {o.get("label"): o["value"] for o in sel.options}
                if value in opts:
                    out.append(value)
                elif value in by_label:
                    out.append(by_label[value])
                else:
                    raise EmulatorError(
                        f"{value!r} is not an option of {sel.custom_id!r}: {list(opts)}"
                    )
            else:
                otype = {5: OPTION_USER, 6: OPTION_ROLE, 7: OPTION_MENTIONABLE, 8: OPTION_CHANNEL}[
                    sel.type
                ]
                out.append(
                    self._resolve_option({"type": otype, "name": sel.custom_id}, value, resolved)
                )
        await self._wait_consumed(msg)
        data: dict[str, Any] = {
            "custom_id": sel.custom_id,
            "component_type": sel.type,
            "values": out,
        }
        if resolved:
            data["resolved"] = resolved
        inter = self._new_interaction(
            3, member, channel, sel.custom_id, data, locale=locale, at=at, message=msg
        )
        return await self._send(inter, wait, timeout)

    async def submit_modal(
        self,
        user: UserRef,
        opened_by: Interaction,
        values: Mapping[str, Any] | None = None,
        /,
        *,
        at: int | None = None,
        locale: str | None = None,
        wait: bool | str = True,
        timeout: float = 10.0,
    ) -> Interaction:
        """Fills and submits the modal the bot opened in answer to ``opened_by``.

        ``values`` maps text inputs (by custom_id or label) to their text.
        """
        member = self.member(user)
        modal = opened_by.modal
        if modal is None:
            raise EmulatorError(f"{opened_by!r} did not open a modal")
        if member.id != opened_by.user_id:
            raise EmulatorError("only the user the modal was shown to can submit it")
        given = dict(values or {})
        used: set[str] = set()

        def fill(comp: dict[str, Any], label: str | None) -> dict[str, Any]:
            cid = comp.get("custom_id")
            keys = [k for k in (cid, label or comp.get("label")) if k]
            key = next((k for k in keys if k in given), None)
            ctype = int(comp.get("type", 4))
            if key is not None:
                used.add(key)
                value = given[key]
            else:
                value = comp.get("value")
            if ctype == 4:
                text = "" if value is None else str(value)
                if comp.get("required", True) and not text:
                    raise EmulatorError(f"modal input {label or cid!r} is required")
                if text and len(text) < int(comp.get("min_length", 0)):
                    raise EmulatorError(f"modal input {label or cid!r} is too short")
                if len(text) > int(comp.get("max_length", 4000)):
                    raise EmulatorError(f"modal input {label or cid!r} is too long")
                return {"type": 4, "custom_id": cid, "value": text}
            vals = (
                list(value)
                if isinstance(value, list | tuple)
                else ([] if value is None else [value])
            )
            return {"type": ctype, "custom_id": cid, "values": [str(v) for v in vals]}

        components: list[dict[str, Any]] = []
        for top in modal.get("components") or []:
            if top.get("type") == 1:
                components.append(
                    {"type": 1, "components": [fill(c, None) for c in top.get("components") or []]}
                )
            elif top.get("type") == 18:
                components.append(
                    {"type": 18, "component": fill(top["component"], top.get("label"))}
                )
        unknown = set(given) - used
        if unknown:
            raise EmulatorError(f"modal has no input {sorted(unknown)}")
        if opened_by.callback_request_id is not None:  # send_modal stores the Modal after it
            rec = self.requests[opened_by.callback_request_id - 1 - self.requests_forgotten]
            await self._wait_request_consumed(rec.id, rec.generation)
        source = self.messages.get(opened_by.message_id) if opened_by.message_id else None
        data = {"custom_id": modal["custom_id"], "components": components}
        inter = self._new_interaction(
            5,
            member,
            self.channels[opened_by.channel_id],
            modal["custom_id"],
            data,
            locale=locale,
            at=at,
            message=source,
        )
        return await self._send(inter, wait, timeout)

    async def handled(
        self, inter: Interaction, *, deep: bool = False, timeout: float = 10.0
    ) -> list[str]:
        """Waits until the bot finished handling ``inter``; returns the errors it logged.

        Finished means every task discord.py spawned for it is done (``deep``: also every
        task those spawned, transitively, View timeouts excepted). Without the launcher's
        hooks: until the initial response (or the deadline). Do not call it for a handler
        that blocks (e.g. in ``view.wait()``) until you act again.
        """
        if inter.generation != self.generation:
            return list(inter.errors)

        def done() -> bool:
            if not self._bot_alive():
                raise EmulatorError(
                    f"the bot process exited while handling {inter!r}:\n"
                    f"{self.bot.log_tail() if self.bot else ''}"
                )
            if self.instrumented:
                return inter.handled and (not deep or inter.settled)
            return inter.responded or inter.expired

        await self.wait_for(done, timeout, f"the bot to handle {inter!r}")
        return list(inter.errors)

    async def responded(self, inter: Interaction, timeout: float = 10.0) -> Interaction:
        """Waits for the initial response (or the deadline)."""
        await self.wait_for(
            lambda: inter.responded or inter.expired, timeout, f"a response to {inter!r}"
        )
        return inter

    async def settle(self, timeout: float | None = None, *, deep: bool = False) -> None:
        """Waits until every delivered interaction was answered (or expired) and handled
        (``deep``: and every task spawned for it finished)."""
        limit = timeout if timeout is not None else self.response_deadline + 5.0

        def quiet() -> bool:
            for inter in self.interactions.values():
                if inter.type != 4 and not (inter.responded or inter.expired):
                    return False
                if (
                    inter.generation == self.generation
                    and self.instrumented
                    and self._bot_alive()
                    and not (inter.handled and (inter.settled or not deep))
                ):
                    return False
            return True

        await self.wait_for(quiet, limit, "pending interactions to finish")

    # ================================================================== bot process
    async def start_bot(
        self,
        module: str = "bot",
        *,
        env: Mapping[str, str] | None = None,
        args: Iterable[str] = (),
        wait: str = "ready",
        timeout: float = 30.0,
        cwd: str | Path | None = None,
        ready_timeout: float = 0.05,
        alongside: bool = False,
    ) -> BotProcess:
        """Runs ``python -m emulator.launcher --port P -- module args`` in a subprocess.

        ``env`` is added to the current environment (``DISCORD_TOKEN`` defaults to the
        emulator's token). ``wait``: "ready" (on_ready dispatched), "connected"
        (READY/GUILD_CREATE sent) or "none". stdout/stderr go to ``bot.log_path``.

        ``alongside``: another process runs next to the live one(s), each its own shard
        range (``TAMALOU_SHARDS``): wait for "ready" then, as "connected" means every shard.
        """
        if not alongside and self._bot_alive():
            raise EmulatorError("a bot process is already running; stop_bot() or kill_bot()")
        if not self.port:
            raise EmulatorError("start the emulator (await emu.start()) before the bot")
        self.generation += 1
        self.instrumented = False
        self.bot_ready = False
        self.guilds_sent = False
        full_env = dict(os.environ)
        full_env["PYTHONPATH"] = os.pathsep.join(
            [str(PROJECT_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
        )
        full_env.update(
            {"DISCORD_TOKEN": self.token, "EMU_PORT": str(self.port), "PYTHONUNBUFFERED": "1"}
        )
        full_env.update(env or {})
        log_path = self.log_dir / f"bot-{self.generation}.log"
        self.bot_logs.append(log_path)
        cmd = [
            sys.executable,
            "-m",
            "emulator.launcher",
            "--port",
            str(self.port),
            "--ready-timeout",
            str(ready_timeout),
            "--",
            module,
            *args,
        ]
        with open(log_path, "wb") as log:
            proc = await asyncio.create_subprocess_exec(
                *cmd,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
                env=full_env,
                cwd=str(cwd or PROJECT_ROOT),
            )
        bot = BotProcess(proc, log_path, module, self.generation)
        self.bot = bot
        self.bots.append(bot)
        bot.monitor = asyncio.create_task(self._monitor(bot))
        if wait == "none":
            return bot

        def up() -> bool:
            if not bot.alive:
                raise EmulatorError(
                    f"bot {module} exited with {bot.proc.returncode} before "
                    f"it was ready:\n{bot.log_tail()}"
                )
            if wait == "connected":
                return self.guilds_sent
            return self.bot_ready

        try:
            await self.wait_for(up, timeout, f"bot {module} to be {wait}")
        except TimeoutError:
            raise EmulatorError(
                f"bot {module} not {wait} after {timeout}s:\n{bot.log_tail()}"
            ) from None
        return bot

    async def _monitor(self, bot: BotProcess) -> None:
        code = await bot.proc.wait()
        if not bot.stopping:
            self.add_problem(
                "bot_exit", f"bot {bot.module} exited on its own (code {code})", bot.log_tail()
            )
        self._notify()

    async def kill_bot(self, bot: BotProcess | None = None) -> None:
        """SIGKILL: the process dies at once (like a crash); the emulator keeps its state.

        ``bot``: which process (default: the one started last)."""
        bot = bot or self.bot
        if bot is None or not bot.alive:
            return
        bot.stopping = True
        with contextlib.suppress(ProcessLookupError):
            bot.proc.kill()
        await bot.proc.wait()
        await self._after_exit(bot)

    async def kill_bots(self) -> None:
        for bot in self.bots:
            await self.kill_bot(bot)

    async def stop_bot(self, timeout: float = 10.0, bot: BotProcess | None = None) -> None:
        """SIGINT (graceful: discord.py closes), then SIGKILL after ``timeout``."""
        bot = bot or self.bot
        if bot is None or not bot.alive:
            return
        bot.stopping = True
        with contextlib.suppress(ProcessLookupError):
            bot.proc.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(bot.proc.wait(), timeout)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                bot.proc.kill()
            await bot.proc.wait()
        await self._after_exit(bot)

    async def _after_exit(self, bot: BotProcess) -> None:
        """The gone process's gateway sessions end (only its own when others still run:
        a session belongs to the process started in its generation)."""
        others = any(b.alive for b in self.bots if b is not bot)

        def its_own() -> list[int]:
            return [
                shard
                for shard, session in self.sessions.items()
                if not others or session.generation == bot.generation
            ]

        with contextlib.suppress(TimeoutError):
            await self.wait_for(lambda: not its_own(), 2.0, "gateway sessions to close")
        for shard in its_own():
            session = self.sessions.pop(shard)
            with contextlib.suppress(Exception):
                await session.ws.close()
        if bot.monitor is not None:
            with contextlib.suppress(Exception):
                await bot.monitor

    async def close(self, *, graceful: bool = False) -> None:
        """Stops the bot (SIGKILL unless ``graceful``) and the server."""
        for bot in self.bots:
            if graceful:
                await self.stop_bot(bot=bot)
            else:
                await self.kill_bot(bot)
        await self.close_server()


@contextlib.asynccontextmanager
async def running_emulator(
    *, check: bool = True, settle: bool = True, **kwargs: Any
) -> AsyncIterator[Emulator]:
    """``async with running_emulator(...) as emu:`` starts and always closes an emulator.

    On exit it waits for pending interactions, stops the bot and, with ``check``, raises
    AssertionError for any problem the test did not take (unknown endpoint, bot traceback,
    lost interaction, rejected payload, bot crash).
    """
    emu = Emulator(**kwargs)
    await emu.start()
    failed = False
    try:
        yield emu
    except BaseException:
        failed = True
        raise
    finally:
        if settle and not failed:
            with contextlib.suppress(TimeoutError, EmulatorError):
                await emu.settle()
        await emu.close()
    if check:
        emu.check()


__all__ = [
    "BotProcess",
    "CommandNotAvailableError",
    "ComponentDisabledError",
    "Emulator",
    "EmulatorError",
    "running_emulator",
]
