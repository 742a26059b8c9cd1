"""A local emulator of Discord's REST API and gateway (aiohttp, 127.0.0.1 only).

It holds one guild with text channels and members, records every request, and keeps
every message (public, ephemeral, DM) with its full version history. The test-facing API
(slash commands, clicks, bot process control) is in :mod:`emulator.harness`.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import email.utils
import json
import re
import secrets
import traceback
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .emojis import ApplicationEmojis
from .model import (
    ADMIN_PERMISSIONS,
    ATTACH_FILES,
    AUTO_ARCHIVE_DURATIONS,
    CREATE_PUBLIC_THREADS,
    DEFAULT_CHANNELS,
    DEFAULT_MEMBERS,
    EPHEMERAL,
    EVERYONE_PERMISSIONS,
    GUILD_TEXT,
    HAS_THREAD,
    IS_COMPONENTS_V2,
    LOADING,
    MANAGE_THREADS,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    Guild,
    GuildSpec,
    HistoryEntry,
    Interaction,
    MemberSpec,
    Message,
    Problem,
    RequestRecord,
    Role,
    User,
    dumps,
    iso,
    walk_components,
)
from .ratelimit import Admission, RateLimiter, RateLimits, Refusal, classify
from .snowflake import Clock, SnowflakeGenerator, snowflake_time_ms
from .validation import (
    MAX_ATTACHMENTS,
    FormErrors,
    check_attachments,
    check_callback,
    check_channel_flags,
    check_command,
    check_locales,
    check_media_refs,
    check_message,
    check_modal,
    check_v2_edit,
    dropped_defer_flags,
    markup_in_labels,
)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

API_PREFIX = r"/api/v{version:\d+}"
TOKEN_LIFETIME_MS = 15 * 60 * 1000
MAX_UPLOAD_BYTES = 10 * 1024 * 1024
NONCE_WINDOW_MS = 2 * 60 * 1000  # enforce_nonce: "the past few minutes"
# Rejections that are the bot's bug on their own (others, e.g. an expired token, may be a
# deliberate fallback path; a bot that does not handle them logs a traceback anyway).
PROBLEM_CODES = {50035, 50006, 40005, 50109, 30015}
MENTION_RE = re.compile(r"<@!?(\d+)>")
COMMAND_NAME_RE = re.compile(r"^[-_'\w]{1,32}$")


REC_KEY = web.RequestKey("emulator_request", RequestRecord)


@dataclass
class Fault:
    """A refusal a test injects: the next ``times`` requests of ``method`` whose path
    contains ``path`` are answered ``status``/``code`` (a 502 burst, a 403 50013, a 404 10008)."""

    method: str
    path: str
    status: int
    code: int
    message: str
    times: int = 1


@dataclass
class Stall:
    """A request a test holds after Discord did it: the next ``method`` request whose path
    contains ``path`` (and whose JSON body contains ``contains``) is handled, then its answer
    waits for :meth:`release` (the bot may be killed meanwhile: done, never answered)."""

    method: str
    path: str
    contains: str
    hit: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)

    def release(self) -> None:
        self.released.set()


class EmulatorError(Exception):
    """A test used the emulator wrongly, or the bot is not in a state to receive it."""


def json_response(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": discord.py's json_or_text() only decodes that value.
    return web.Response(
        body=dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def error_response(status: int, code: int, message: str) -> web.Response:
    return json_response({"code": code, "message": message}, status)


class HTTPFail(Exception):
    """Raised inside handlers to answer with a Discord-style error."""

    def __init__(self, response: web.Response) -> None:
        super().__init__(response.status)
        self.response = response


def fail(status: int, code: int, message: str) -> HTTPFail:
    return HTTPFail(error_response(status, code, message))


def form_fail(err: FormErrors) -> HTTPFail:
    return HTTPFail(json_response(err.body(), 400))


class GatewaySession:
    def __init__(self, ws: web.WebSocketResponse, generation: int) -> None:
        self.ws = ws
        self.generation = generation
        self.session_id = secrets.token_hex(16)
        self.seq = 0
        self.shard_id = 0
        self.shard_count = 1
        self.intents = 0
        self.identified = False
        self.lock = asyncio.Lock()

    async def send(self, payload: dict[str, Any]) -> None:
        async with self.lock:
            await self.ws.send_str(dumps(payload))

    async def dispatch(self, event: str, data: Any) -> None:
        async with self.lock:
            self.seq += 1
            await self.ws.send_str(dumps({"op": 0, "t": event, "s": self.seq, "d": data}))


class DiscordServer:
    """State + REST + gateway. Use :class:`emulator.harness.Emulator` in tests."""

    def __init__(
        self,
        *,
        members: Iterable[MemberSpec] = DEFAULT_MEMBERS,
        channels: Iterable[str] = DEFAULT_CHANNELS,
        guild_name: str = "Emulated Guild",
        preferred_locale: str = "en-US",
        response_deadline: float = 3.0,
        token_lifetime_ms: int = TOKEN_LIFETIME_MS,
        clock: Clock | None = None,
        token: str = "emulator-bot-token",
        bot_name: str = "TestBot",
        shard_count: int = 1,
        extra_guilds: Iterable[GuildSpec] = (),
        host: str = "127.0.0.1",
        port: int = 0,
        rate_limits: RateLimits | bool = True,
    ) -> None:
        self.clock = clock or Clock()
        if not isinstance(rate_limits, RateLimits):
            rate_limits = RateLimits() if rate_limits else RateLimits.off()
        #: Discord's rate limits (emulator/ratelimit.py); ``rate_limits=False``: none
        self.rate_limiter = RateLimiter(rate_limits, lambda: self.clock.now_ms() / 1000)
        self.ids = SnowflakeGenerator(self.clock)
        self.response_deadline = response_deadline
        self.token_lifetime_ms = token_lifetime_ms
        self.token = token
        self.shard_count = shard_count
        self.host = host
        self.port = port

        born = self.clock.now_ms() - 400 * 24 * 3600 * 1000
        self.app_id = self.ids.next(born)
        self.bot_user = User(self.app_id, bot_name, bot=True)
        self.owner = User(self.ids.next(born), "guild-owner")
        guild_id = self.ids.next(born)
        bot_role = Role(
            self.ids.next(born),
            bot_name,
            EVERYONE_PERMISSIONS | ADMIN_PERMISSIONS,
            position=2,
            managed=True,
        )
        admin_role = Role(self.ids.next(born), "Admin", ADMIN_PERMISSIONS, position=1)
        everyone = Role(guild_id, "@everyone", EVERYONE_PERMISSIONS)
        roles = [everyone, admin_role, bot_role]
        users: list[User] = []
        for spec in members:
            role_ids = [admin_role.id] if spec.admin else []
            if spec.permissions:
                extra = Role(self.ids.next(born), f"{spec.name}-extra", spec.permissions)
                roles.append(extra)
                role_ids.append(extra.id)
            users.append(
                User(
                    self.ids.next(born),
                    spec.name,
                    spec.locale,
                    global_name=spec.global_name,
                    nick=spec.nick,
                    role_ids=role_ids,
                    joined_at_ms=born,
                )
            )
        self.bot_user.role_ids = [bot_role.id]
        self.bot_user.joined_at_ms = born
        chans = [
            Channel(self.ids.next(born), name, 0, guild_id, position=i)
            for i, name in enumerate(channels)
        ]
        self.guild = Guild(
            guild_id, guild_name, self.owner.id, preferred_locale, roles, chans, users
        )
        #: every guild the bot is in, the first one first (``extra_guilds``: sharding tests)
        self.guilds: dict[int, Guild] = {guild_id: self.guild}
        for spec in extra_guilds:
            self._add_guild(spec, born)
        self.users: dict[int, User] = {u.id: u for u in [*users, self.bot_user, self.owner]}
        self.channels: dict[int, Channel] = {
            c.id: c for g in self.guilds.values() for c in g.channels
        }
        self.dm_channels: dict[int, Channel] = {}  # user id -> DM channel

        self.messages: dict[int, Message] = {}
        self._nonces: dict[tuple[int, str], int] = {}  # (author, nonce) -> message id
        self._history: list[HistoryEntry] = []
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.requests: list[RequestRecord] = []
        #: requests forgotten before ``requests[0]`` (``forget_records``): ids never repeat
        self.requests_forgotten = 0
        self.problems: list[Problem] = []
        self.emulator_errors: list[str] = []
        self.acked: set[int] = set()
        self.sessions: dict[int, GatewaySession] = {}  # live sessions by shard id
        self._known_sessions: dict[str, GatewaySession] = {}  # by session id, for RESUME
        self.resumes = 0
        self.generation = 0  # bumps at each bot (re)start
        self.instrumented = False
        self.bot_ready = False
        self.guilds_sent = False
        self.bot_pid: int | None = None
        self.app_emojis = ApplicationEmojis(self)  # emulator/emojis.py
        self.faults: list[Fault] = []  # fail_next
        self.stalls: list[Stall] = []  # stall_next

        self._runner: web.AppRunner | None = None
        self._changed = asyncio.Event()
        self._deadline_handles: dict[int, asyncio.TimerHandle] = {}

    def _add_guild(self, spec: GuildSpec, born: int) -> Guild:
        """One more guild with the first guild's members and roles (its own @everyone)."""
        last = list(self.guilds)[-1]
        shard = spec.shard if spec.shard is not None else (last >> 22) % self.shard_count + 1
        shard %= self.shard_count
        at = born
        guild_id = self.ids.next(at)
        while (guild_id >> 22) % self.shard_count != shard:
            at += 1  # the shard comes from the id's time part
            guild_id = self.ids.next(at)
        first = self.guild
        everyone = Role(guild_id, "@everyone", first.everyone_role.permissions)
        chans = [
            Channel(self.ids.next(born), name, 0, guild_id, position=i)
            for i, name in enumerate(spec.channels or (f"{spec.name.lower()}-general",))
        ]
        guild = Guild(
            guild_id,
            spec.name,
            first.owner_id,
            spec.preferred_locale,
            [everyone, *first.roles[1:]],
            chans,
            first.members,
        )
        self.guilds[guild_id] = guild
        return guild

    def guild_of_channel(self, channel: Channel) -> Guild:
        """The guild a guild channel belongs to."""
        return self.guilds.get(channel.guild_id or 0, self.guild)

    # ------------------------------------------------------------------ lifecycle
    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1]

    async def close_server(self) -> None:
        for handle in self._deadline_handles.values():
            handle.cancel()
        self._deadline_handles.clear()
        for session in list(self.sessions.values()):
            with contextlib.suppress(Exception):
                await session.ws.close()
        self.sessions.clear()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ------------------------------------------------------------------ change tracking
    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 5.0, what: str = "condition"
    ) -> Any:
        """Waits (without polling) until ``predicate()`` is truthy; re-checked on every event."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = end - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    def add_problem(self, kind: str, message: str, detail: str = "") -> None:
        self.problems.append(Problem(kind, message, detail))
        self._notify()

    # ------------------------------------------------------------------ lookups
    def message(self, message_id: int) -> Message:
        return self.messages[int(message_id)]

    def user_by_id(self, user_id: int) -> User:
        return self.users[int(user_id)]

    def _author(self) -> dict[str, Any]:
        return self.bot_user.user_payload()

    def message_payload(self, msg: Message) -> dict[str, Any]:
        data = msg.payload(app_id=self.app_id, author=self._author(), base_url=self.base_url)
        thread = self.channels.get(msg.thread_id) if msg.thread_id else None
        if thread is not None:
            data["thread"] = self.thread_payload(thread)
        data["mentions"] = [self.users[u].user_payload() for u in msg.mentions if u in self.users]
        if msg.interaction_user_id in self.users and "interaction_metadata" in data:
            data["interaction_metadata"]["user"] = self.users[
                msg.interaction_user_id
            ].user_payload()
        return data

    # ------------------------------------------------------------------ threads
    def thread_payload(self, thread: Channel) -> dict[str, Any]:
        count = sum(
            1 for m in self.messages.values() if m.channel_id == thread.id and not m.deleted
        )
        return thread.thread_payload(count)

    def active_threads(self, guild: Guild) -> list[Channel]:
        """The guild's threads that are neither archived nor deleted (GUILD_CREATE sends
        them; archived ones are not synced up front)."""
        return [
            c
            for c in self.channels.values()
            if c.is_thread and c.guild_id == guild.id and not c.archived and not c.deleted
        ]

    def bot_permissions(self, channel: Channel) -> int:
        """The bot's permissions in a channel (a thread: its parent's)."""
        if channel.guild_id is None:
            return 0
        return self.guild_of_channel(channel).permissions_of(self.bot_user)

    def _bot_needs(self, channel: Channel, bits: int) -> None:
        if self.bot_permissions(channel) & bits != bits:
            raise fail(403, 50013, "Missing Permissions")

    @staticmethod
    def _refuse_archived(channel: Channel) -> None:
        """Discord: "only active threads can be manipulated" (50083 Thread is archived)."""
        if channel.is_thread and channel.archived:
            raise fail(400, 50083, "Thread is archived")

    async def dispatch_thread(self, event: str, thread: Channel, **extra: Any) -> None:
        """THREAD_CREATE / THREAD_UPDATE / THREAD_DELETE to the guild's shard (GUILDS intent)."""
        if event == "THREAD_DELETE":
            data: dict[str, Any] = {
                "id": str(thread.id),
                "guild_id": str(thread.guild_id),
                "parent_id": str(thread.parent_id),
                "type": thread.type,
            }
        else:
            data = {**self.thread_payload(thread), **extra}
        with contextlib.suppress(EmulatorError):
            session = self.session_for_guild(thread.guild_id)
            if session.intents & 1:
                await session.dispatch(event, data)

    def guild_payload(self, *, full: bool, guild: Guild | None = None) -> dict[str, Any]:
        g = guild or self.guild
        data: dict[str, Any] = {
            "id": str(g.id),
            "name": g.name,
            "icon": None,
            "owner_id": str(g.owner_id),
            "preferred_locale": g.preferred_locale,
            "roles": [r.payload() for r in g.roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_id": str(g.channels[0].id) if g.channels else None,
            "system_channel_flags": 0,
            "afk_timeout": 300,
            "unavailable": False,
        }
        if full:
            members = [*g.members, self.bot_user]
            data.update(
                {
                    "joined_at": "2024-01-01T00:00:00+00:00",
                    "large": False,
                    "member_count": len(members),
                    "channels": [c.payload() for c in g.channels],
                    "threads": [self.thread_payload(c) for c in self.active_threads(g)],
                    "members": [m.member_payload() for m in members],
                    "voice_states": [],
                    "presences": [],
                    "stage_instances": [],
                    "guild_scheduled_events": [],
                    "soundboard_sounds": [],
                }
            )
        return data

    # ------------------------------------------------------------------ history
    def _record(self, msg: Message, action: str) -> None:
        msg.version += 1
        self._history.append(
            HistoryEntry(
                seq=len(self._history),
                action=action,
                message_id=msg.id,
                channel_id=msg.channel_id,
                audience=msg.recipient_id,
                content=msg.content,
                embeds=copy.deepcopy(msg.embeds),
                components=copy.deepcopy(msg.components),
                flags=msg.flags,
                attachments=[a.filename for a in msg.attachments],
                at_ms=self.clock.now_ms(),
                interaction_id=msg.interaction_id,
                files=tuple(msg.attachments),
            )
        )

    # ------------------------------------------------------------------ routes
    def _add_routes(self, app: web.Application) -> None:
        r = app.router
        p = API_PREFIX
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self.h_get_me),
            ("GET", "/users/{user_id:\\d+}", self.h_get_user),
            ("POST", "/users/@me/channels", self.h_create_dm),
            ("GET", "/oauth2/applications/@me", self.h_get_app),
            ("GET", "/applications/@me", self.h_get_app),
            ("GET", "/gateway/bot", self.h_gateway_bot),
            ("GET", "/gateway", self.h_gateway_info),
            ("GET", "/applications/{app}/commands", self.h_get_commands),
            ("PUT", "/applications/{app}/commands", self.h_put_commands),
            ("POST", "/applications/{app}/commands", self.h_post_command),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self.h_get_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self.h_put_commands),
            ("POST", "/applications/{app}/guilds/{guild}/commands", self.h_post_command),
            ("DELETE", "/applications/{app}/commands/{cmd}", self.h_delete_command),
            ("DELETE", "/applications/{app}/guilds/{guild}/commands/{cmd}", self.h_delete_command),
            ("POST", "/interactions/{iid}/{token}/callback", self.h_callback),
            ("POST", "/webhooks/{app}/{token}", self.h_followup),
            ("GET", "/webhooks/{app}/{token}/messages/{mid}", self.h_webhook_get),
            ("PATCH", "/webhooks/{app}/{token}/messages/{mid}", self.h_webhook_edit),
            ("DELETE", "/webhooks/{app}/{token}/messages/{mid}", self.h_webhook_delete),
            ("GET", "/channels/{cid}", self.h_get_channel),
            ("GET", "/channels/{cid}/messages", self.h_list_messages),
            ("POST", "/channels/{cid}/messages", self.h_send_message),
            ("GET", "/channels/{cid}/messages/{mid}", self.h_get_message),
            ("PATCH", "/channels/{cid}/messages/{mid}", self.h_edit_message),
            ("DELETE", "/channels/{cid}/messages/{mid}", self.h_delete_message),
            ("POST", "/channels/{cid}/messages/{mid}/threads", self.h_start_thread),
            ("PATCH", "/channels/{cid}", self.h_edit_channel),
            ("POST", "/channels/{cid}/typing", self.h_no_content),
            ("GET", "/guilds/{guild}", self.h_get_guild),
            ("GET", "/guilds/{guild}/channels", self.h_get_guild_channels),
            ("GET", "/guilds/{guild}/roles", self.h_get_roles),
            ("GET", "/guilds/{guild}/members", self.h_list_members),
            ("GET", "/guilds/{guild}/members/{user_id}", self.h_get_member),
        ]
        routes += self.app_emojis.routes()
        for method, path, handler in routes:
            r.add_route(method, p + path, handler)
        r.add_get("/gateway", self.h_gateway_ws)
        r.add_get("/gateway/", self.h_gateway_ws)
        r.add_post("/_emu/events", self.h_emu_events)
        r.add_get("/attachments/{cid}/{aid}/{filename}", self.h_attachment)
        r.add_route("*", "/{tail:.*}", self.h_unknown)

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith("/api/"):
            return await handler(request)
        rec = RequestRecord(
            id=self.requests_forgotten + len(self.requests) + 1,
            method=request.method,
            path=request.path,
            query=dict(request.query),
            body=None,
            files=[],
            at_ms=self.clock.now_ms(),
            generation=self.generation,
            mono=asyncio.get_running_loop().time(),
        )
        self.requests.append(rec)
        request[REC_KEY] = rec
        resource = request.match_info.route.resource
        rec.route = resource.canonical if resource is not None else None
        admitted: Admission | Refusal | None = None
        try:
            admitted = self._admit(request, rec)
            if isinstance(admitted, Refusal):
                raise HTTPFail(self._refusal(admitted))
            await self._read_body(request, rec)
            fault = self._fault_for(request)
            if fault is not None:
                raise fail(fault.status, fault.code, fault.message)
            response = await handler(request)
            stall = self._stall_for(request, rec)
            if stall is not None:
                stall.hit.set()
                await stall.released.wait()
        except HTTPFail as exc:
            response = exc.response
        except Exception:
            tb = traceback.format_exc()
            self.emulator_errors.append(tb)
            self.add_problem("emulator_error", f"emulator crashed on {rec.method} {rec.path}", tb)
            response = error_response(500, 0, "emulator internal error")
        rec.status = response.status
        if isinstance(response, web.Response) and response.body:
            with contextlib.suppress(Exception):
                body = response.body
                assert isinstance(body, bytes)
                rec.response = json.loads(body)
        response.headers["X-Emu-Request-Id"] = str(rec.id)
        self._settle_limits(response, admitted)
        # Discord's Date is its own clock's (whole seconds), as its snowflakes are: here the
        # emulator's clock, which a test moves (aiohttp's own would be the wall clock's)
        response.headers["Date"] = email.utils.formatdate(rec.at_ms / 1000, usegmt=True)
        if rec.status >= 400:
            code = rec.response.get("code") if isinstance(rec.response, dict) else None
            if (
                code in PROBLEM_CODES
                or rec.status in (405, 413)
                or (rec.status == 401 and code == 0)
            ):
                self.add_problem(
                    "rejected",
                    f"{rec.method} {rec.path} -> {rec.status} {code}",
                    dumps(rec.response)[:2000],
                )
        self._notify()
        return response

    def _admit(self, request: web.Request, rec: RequestRecord) -> Admission | Refusal:
        """Discord's rate limits (emulator/ratelimit.py) let the request through or not."""
        template = (rec.route or "").removeprefix("/api/v{version}")
        scoped = classify(request.method, template, request.match_info, self._message_age_s)
        auth = request.headers.get("Authorization")
        return self.rate_limiter.admit(rec.method, rec.path, scoped, auth)

    @staticmethod
    def _refusal(refusal: Refusal) -> web.Response:
        if isinstance(refusal.body, str):  # the address is restricted: Cloudflare's page
            answer = web.Response(status=refusal.status, text=refusal.body)
            answer.content_type = "text/html"
        else:
            answer = json_response(refusal.body, refusal.status)
        answer.headers.update(refusal.headers)
        return answer

    def _settle_limits(
        self, response: web.StreamResponse, admitted: Admission | Refusal | None
    ) -> None:
        if isinstance(admitted, Refusal) and admitted.scope == "restricted":
            return  # Cloudflare's answer: no Discord headers, and not counted again
        if isinstance(admitted, Admission):
            response.headers.update(admitted.headers)
        response.headers["Via"] = "1.1 google"  # discord.py trusts a 429 only with it
        restricted = self.rate_limiter.restricted_until
        self.rate_limiter.settle(response.status, response.headers.get("X-RateLimit-Scope"))
        if restricted is None and self.rate_limiter.restricted_until is not None:
            self.add_problem(
                "restricted",
                "the bot made 10,000 invalid requests (401, 403, 429) in 10 minutes: "
                "Discord restricts its address",
            )

    def _message_age_s(self, message_id: int) -> float | None:
        if message_id not in self.messages:
            return None
        return (self.clock.now_ms() - snowflake_time_ms(message_id)) / 1000

    def fail_next(
        self, method: str, path: str, status: int, code: int, message: str, times: int = 1
    ) -> Fault:
        """The next ``times`` ``method`` requests whose path contains ``path`` fail."""
        fault = Fault(method.upper(), path, status, code, message, times)
        self.faults.append(fault)
        return fault

    def stall_next(self, method: str, path: str, contains: str = "") -> Stall:
        """The next matching request is done, and its answer held (:class:`Stall`)."""
        stall = Stall(method.upper(), path, contains)
        self.stalls.append(stall)
        return stall

    def _stall_for(self, request: web.Request, rec: RequestRecord) -> Stall | None:
        for stall in self.stalls:
            if (
                stall.method == request.method
                and stall.path in request.path
                and stall.contains in json.dumps(rec.body)
            ):
                self.stalls.remove(stall)
                return stall
        return None

    def _fault_for(self, request: web.Request) -> Fault | None:
        for fault in self.faults:
            if fault.method == request.method and fault.path in request.path:
                fault.times -= 1
                if fault.times <= 0:
                    self.faults.remove(fault)
                return fault
        return None

    async def _read_body(self, request: web.Request, rec: RequestRecord) -> None:
        ctype = request.content_type
        if ctype == "multipart/form-data":
            payload: Any = None
            files: list[Attachment] = []
            reader = await request.multipart()
            total = 0
            while True:
                part: Any = await reader.next()
                if part is None:
                    break
                data = await part.read(decode=False)
                total += len(data)
                if part.name == "payload_json":
                    payload = json.loads(data.decode())
                elif part.filename is not None:
                    m = re.fullmatch(r"files\[(\d+)\]", part.name or "")
                    files.append(
                        Attachment(
                            id=int(m.group(1)) if m else len(files),
                            filename=part.filename,
                            data=bytes(data),
                            content_type=part.headers.get("Content-Type"),
                        )
                    )
            if total > MAX_UPLOAD_BYTES:
                raise fail(413, 40005, "Request entity too large")
            rec.body = payload
            rec.files = files
        elif request.can_read_body:
            raw = await request.read()
            if raw:
                try:
                    rec.body = json.loads(raw)
                except ValueError:
                    rec.body = raw.decode(errors="replace")

    def _check_auth(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise fail(401, 0, "401: Unauthorized")

    @staticmethod
    def _body(request: web.Request) -> dict[str, Any]:
        body = request[REC_KEY].body
        return body if isinstance(body, dict) else {}

    @staticmethod
    def _files(request: web.Request) -> list[Attachment]:
        files: list[Attachment] = request[REC_KEY].files
        return files

    # ------------------------------------------------------------------ basic REST
    async def h_unknown(self, request: web.Request) -> web.StreamResponse:
        self.add_problem(
            "unknown_endpoint",
            f"{request.method} {request.path} is not emulated",
            f"query={dict(request.query)}",
        )
        return error_response(404, 0, "404: Not Found (not emulated)")

    async def h_no_content(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        return web.Response(status=204)

    async def h_get_me(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        data = self.bot_user.user_payload()
        data.update(
            {"verified": True, "mfa_enabled": False, "flags": 0, "bot": True, "locale": "en-US"}
        )
        return json_response(data)

    async def h_get_user(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        user = self.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise fail(404, 10013, "Unknown User")
        return json_response(user.user_payload())

    async def h_get_app(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        return json_response(
            {
                "id": str(self.app_id),
                "name": self.bot_user.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner.user_payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "summary": "",
                "bot": self.bot_user.user_payload(),
            }
        )

    async def h_gateway_bot(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        return json_response(
            {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def h_gateway_info(self, request: web.Request) -> web.StreamResponse:
        return json_response({"url": self.gateway_url})

    async def h_create_dm(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        recipient_id = int(self._body(request).get("recipient_id", 0))
        user = self.users.get(recipient_id)
        if user is None or user.bot:
            raise fail(400, 50007, "Cannot send messages to this user")
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = Channel(self.ids.next(), f"dm-{user.name}", 1, None, recipient_id=user.id)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return json_response(channel.payload(user))

    async def h_get_guild(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        return json_response(self.guild_payload(full=False, guild=self._guild_of(request)))

    async def h_get_guild_channels(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        return json_response([c.payload() for c in self._guild_of(request).channels])

    async def h_get_roles(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        return json_response([r.payload() for r in self._guild_of(request).roles])

    async def h_list_members(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        self._guild_of(request)
        limit = int(request.query.get("limit", 1))
        after = int(request.query.get("after", 0))
        members = sorted([*self.guild.members, self.bot_user], key=lambda u: u.id)
        return json_response([m.member_payload() for m in members if m.id > after][:limit])

    async def h_get_member(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        self._guild_of(request)
        uid = int(request.match_info["user_id"])
        for m in [*self.guild.members, self.bot_user]:
            if m.id == uid:
                return json_response(m.member_payload())
        raise fail(404, 10007, "Unknown Member")

    def _guild_of(self, request: web.Request) -> Guild:
        raw = request.match_info["guild"]
        guild = self.guilds.get(int(raw)) if raw.isdigit() else None
        if guild is None:
            raise fail(404, 10004, "Unknown Guild")
        return guild

    async def h_attachment(self, request: web.Request) -> web.StreamResponse:
        aid = int(request.match_info["aid"])
        for msg in self.messages.values():
            for att in msg.attachments:
                if att.id == aid:
                    return web.Response(
                        body=att.data, content_type=att.content_type or "application/octet-stream"
                    )
        return web.Response(status=404)

    # ------------------------------------------------------------------ commands
    def _check_app(self, request: web.Request) -> None:
        if request.match_info["app"] != str(self.app_id):
            raise fail(404, 10002, "Unknown Application")

    def _command_list(self, request: web.Request) -> tuple[list[dict[str, Any]], int | None]:
        guild = request.match_info.get("guild")
        if guild is None:
            return self.global_commands, None
        gid = int(self._guild_of(request).id)
        return self.guild_commands.setdefault(gid, []), gid

    def _validate_commands(self, commands: list[dict[str, Any]]) -> None:
        err = FormErrors()
        if len(commands) > 100:
            err.add([], "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        seen: set[tuple[str, int]] = set()
        for i, cmd in enumerate(commands):
            ctype = int(cmd.get("type", 1))
            key = (str(cmd.get("name")), ctype)
            if key in seen:
                err.add(
                    [i, "name"],
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique: {key[0]}",
                )
            seen.add(key)
            self._validate_command_node(err, [i], cmd, chat_input=ctype == 1, depth=0)
            check_command(err, [i], cmd)
        if err:
            raise form_fail(err)

    def _validate_command_node(
        self,
        err: FormErrors,
        path: list[str | int],
        node: dict[str, Any],
        *,
        chat_input: bool,
        depth: int,
    ) -> None:
        name = node.get("name")
        check_locales(err, [*path, "name_localizations"], node.get("name_localizations"))
        check_locales(
            err, [*path, "description_localizations"], node.get("description_localizations")
        )
        names = [("name", name)] + [
            (f"name_localizations.{loc}", n)
            for loc, n in (node.get("name_localizations") or {}).items()
        ]
        for where, value in names:
            if not isinstance(value, str) or not 1 <= len(value) <= 32:
                err.add(
                    [*path, where], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length."
                )
            elif chat_input and (value != value.lower() or not COMMAND_NAME_RE.match(value)):
                err.add(
                    [*path, where],
                    "APPLICATION_COMMAND_INVALID_NAME",
                    f"Command name is invalid: {value!r}",
                )
        if chat_input:
            descs = [("description", node.get("description"))] + [
                (f"description_localizations.{loc}", d)
                for loc, d in (node.get("description_localizations") or {}).items()
            ]
            for where, value in descs:
                if not isinstance(value, str) or not 1 <= len(value) <= 100:
                    err.add(
                        [*path, where],
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 100 in length.",
                    )
        options = node.get("options") or []
        if len(options) > 25:
            err.add([*path, "options"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        optional_seen = False
        for j, opt in enumerate(options):
            opath: list[str | int] = [*path, "options", j]
            otype = int(opt.get("type", 3))
            if otype in (1, 2):
                if depth >= 2 or (otype == 2 and depth >= 1):
                    err.add(opath, "APPLICATION_COMMAND_TOO_DEEP", "Subcommands nested too deep")
                self._validate_command_node(err, opath, opt, chat_input=True, depth=depth + 1)
                continue
            self._validate_command_node(err, opath, opt, chat_input=True, depth=depth + 1)
            if opt.get("required"):
                if optional_seen:
                    err.add(
                        opath,
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
            else:
                optional_seen = True
            choices = opt.get("choices") or []
            if len(choices) > 25:
                err.add(
                    [*opath, "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
                )
            for k, choice in enumerate(choices):
                cname = choice.get("name")
                if not isinstance(cname, str) or not 1 <= len(cname) <= 100:
                    err.add(
                        [*opath, "choices", k, "name"],
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 100 in length.",
                    )
                localized = choice.get("name_localizations")
                check_locales(err, [*opath, "choices", k, "name_localizations"], localized)
                for loc, lname in (localized or {}).items():
                    if not isinstance(lname, str) or not 1 <= len(lname) <= 100:
                        err.add(
                            [*opath, "choices", k, "name_localizations", loc],
                            "BASE_TYPE_BAD_LENGTH",
                            "Must be between 1 and 100 in length.",
                        )

    def _store_command(
        self, cmd: dict[str, Any], guild_id: int | None, old: dict[str, Any] | None
    ) -> dict[str, Any]:
        data = copy.deepcopy(cmd)
        data["id"] = old["id"] if old else str(self.ids.next())
        data["application_id"] = str(self.app_id)
        data["version"] = str(self.ids.next())
        data.setdefault("type", 1)
        data.setdefault("default_member_permissions", None)
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        return data

    @staticmethod
    def _match_command(store: list[dict[str, Any]], cmd: dict[str, Any]) -> dict[str, Any] | None:
        key = (cmd.get("name"), int(cmd.get("type", 1)))
        return next((c for c in store if (c["name"], int(c.get("type", 1))) == key), None)

    async def h_get_commands(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        self._check_app(request)
        store, _ = self._command_list(request)
        return json_response(store)

    async def h_put_commands(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        self._check_app(request)
        body = request[REC_KEY].body
        commands = body if isinstance(body, list) else []
        self._validate_commands(commands)
        store, gid = self._command_list(request)
        new = [self._store_command(cmd, gid, self._match_command(store, cmd)) for cmd in commands]
        store[:] = new
        self._notify()
        return json_response(store)

    async def h_post_command(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        self._check_app(request)
        cmd = self._body(request)
        self._validate_commands([cmd])
        store, gid = self._command_list(request)
        old = self._match_command(store, cmd)
        data = self._store_command(cmd, gid, old)
        if old is not None:
            store[store.index(old)] = data
        else:
            store.append(data)
        self._notify()
        return json_response(data, 201)

    async def h_delete_command(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        self._check_app(request)
        store, _ = self._command_list(request)
        for c in store:
            if c["id"] == request.match_info["cmd"]:
                store.remove(c)
                return web.Response(status=204)
        raise fail(404, 10063, "Unknown application command")

    # ------------------------------------------------------------------ messages
    def _mentions(self, content: str) -> list[int]:
        return [int(m) for m in MENTION_RE.findall(content or "") if int(m) in self.users]

    def _validate(
        self,
        payload: dict[str, Any],
        flags: int,
        files: Iterable[Attachment] = (),
        kept: Iterable[Attachment] = (),
        *,
        under: str | None = None,
        before: Message | None = None,
    ) -> None:
        """Refuses what Discord refuses (validation.py); ``under``: the field that holds the
        message in the request (a callback's ``data``); ``before``: the message an edit
        changes (its flags and fields as they are)."""
        files, kept = list(files), list(kept)
        err = check_message(payload, flags)
        if before is not None:
            legacy = {"content": before.content, "embeds": before.embeds}
            check_v2_edit(err, before.flags, flags, payload, legacy)
        count = check_attachments(err, payload, {f.id for f in files}, {a.id for a in kept})
        components = payload.get("components") if "components" in payload else None
        if components is None and before is not None:
            components = before.components
        if isinstance(components, list):
            check_media_refs(err, components, self._names_after(payload, files, kept))
        if err:
            raise form_fail(err.nested(under) if under else err)
        if count > MAX_ATTACHMENTS:
            raise fail(400, 30015, "Maximum number of attachments in a message reached (10)")
        for where, text in markup_in_labels(payload.get("components") or []):
            # Discord accepts it and shows the markup as text ("Take <:c1_9h:123>"): only
            # a message's content and embeds render custom emojis (issue 21)
            self.add_problem(
                "emoji_markup_in_label", f"a component's {where} carries emoji markup: {text!r}"
            )

    @staticmethod
    def _names_after(
        payload: dict[str, Any], files: list[Attachment], kept: list[Attachment]
    ) -> set[str]:
        """The file names the message carries once written (as :meth:`_take_files` makes
        them): what an ``attachment://`` reference may name."""
        if "attachments" not in payload:
            return {a.filename for a in kept} | {f.filename for f in files}
        by_index = {f.id: f for f in files}
        old = {a.id: a for a in kept}
        names: set[str] = set()
        used: set[int] = set()
        for meta in payload.get("attachments") or []:
            try:
                aid = int(meta.get("id"))
            except (AttributeError, TypeError, ValueError):
                continue
            if aid in old:
                names.add(old[aid].filename)
            elif aid in by_index:
                names.add(meta.get("filename") or by_index[aid].filename)
                used.add(aid)
        return names | {f.filename for f in files if f.id not in used}

    @staticmethod
    def _assign_component_ids(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Discord numbers the components an ``id`` left empty (or 0: "treated as empty and
        replaced"), skipping the ones given (components/reference.mdx)."""
        comps = copy.deepcopy(components)
        used = {c["id"] for c in walk_components(comps) if isinstance(c.get("id"), int)}
        counter = 1
        for comp in walk_components(comps):
            if not isinstance(comp.get("id"), int) or not comp["id"]:
                while counter in used:
                    counter += 1
                comp["id"] = counter
                used.add(counter)
        return comps

    @staticmethod
    def _is_empty(msg: Message) -> bool:
        return not (
            msg.content
            or msg.embeds
            or msg.attachments
            or msg.components  # Create Message: "at least one of content, embeds, ... components"
            or msg.loading
        )

    def _new_message(
        self,
        channel: Channel,
        payload: dict[str, Any],
        files: list[Attachment],
        request: web.Request,
        *,
        recipient_id: int | None = None,
        interaction: Interaction | None = None,
        ephemeral: bool = False,
        loading: bool = False,
        under: str | None = None,
    ) -> Message:
        if channel.deleted:
            raise fail(404, 10003, "Unknown Channel")
        if channel.is_thread and not ephemeral:
            self._bot_needs(channel, SEND_MESSAGES_IN_THREADS)  # SEND_MESSAGES does not count
            self._refuse_archived(channel)  # see docs/emulator.md: Discord's docs differ
        flags = int(payload.get("flags") or 0) & ~(EPHEMERAL | LOADING)
        if ephemeral:
            flags |= EPHEMERAL
        if loading:
            flags |= LOADING
        self._validate(payload, flags, files, under=under)
        rec: RequestRecord = request[REC_KEY]
        now = self.clock.now_ms()
        msg = Message(
            id=self.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=self.bot_user.id,
            content=str(payload.get("content") or ""),
            embeds=[self._normalize_embed(e) for e in payload.get("embeds") or []],
            components=self._assign_component_ids(payload.get("components") or []),
            flags=flags,
            attachments=self._take_files(files, payload, []),
            recipient_id=recipient_id,
            created_ms=now,
            last_request_id=rec.id,
            last_request_generation=rec.generation,
        )
        msg.mentions = self._mentions(msg.content)
        if interaction is not None:
            msg.interaction_id = interaction.id
            msg.interaction_user_id = interaction.user_id
            msg.interaction_type = interaction.type
            msg.webhook_id = self.app_id
            msg.message_type = 20 if interaction.type == 2 else 0
        ref = payload.get("message_reference")
        if ref:
            msg.reference = {
                "message_id": str(ref.get("message_id")),
                "channel_id": str(channel.id),
            }
            msg.message_type = 19
        if self._is_empty(msg):
            raise fail(400, 50006, "Cannot send an empty message")
        self.messages[msg.id] = msg
        self._record(msg, "create")
        rec.message_id, rec.message_flags = msg.id, msg.flags
        return msg

    @staticmethod
    def _normalize_embed(embed: dict[str, Any]) -> dict[str, Any]:
        data = copy.deepcopy(embed)
        data.setdefault("type", "rich")
        return data

    def _take_files(
        self, files: list[Attachment], payload: dict[str, Any], existing: list[Attachment]
    ) -> list[Attachment]:
        """New attachments from ``files[i]`` parts plus kept ones (``attachments`` list)."""

        def new(f: Attachment, meta: dict[str, Any]) -> Attachment:
            return Attachment(
                id=self.ids.next(),
                filename=meta.get("filename") or f.filename,
                data=f.data,
                content_type=f.content_type,
                description=meta.get("description"),
            )

        if "attachments" not in payload:
            return [*existing, *(new(f, {}) for f in files)]
        by_index = {f.id: f for f in files}
        old = {a.id: a for a in existing}
        out: list[Attachment] = []
        used: set[int] = set()
        for meta in payload.get("attachments") or []:
            try:
                aid = int(meta.get("id"))
            except (TypeError, ValueError):
                continue
            if aid in old:
                out.append(old[aid])
            elif aid in by_index:
                out.append(new(by_index[aid], meta))
                used.add(aid)
        out += [new(f, {}) for f in files if f.id not in used]
        return out

    def _edit(
        self,
        msg: Message,
        payload: dict[str, Any],
        files: list[Attachment],
        request: web.Request,
        under: str | None = None,
    ) -> None:
        if msg.deleted:
            raise fail(404, 10008, "Unknown Message")
        channel = self.channels.get(msg.channel_id)
        if channel is not None and not msg.ephemeral:
            self._refuse_archived(channel)  # "users cannot edit messages in archived threads"
        flags = msg.flags
        if "flags" in payload and payload["flags"] is not None:
            # the edit's flags replace the message's, but for what only Discord sets;
            # IS_COMPONENTS_V2 is not kept: an edit that drops it is refused (_validate)
            keep = msg.flags & (EPHEMERAL | HAS_THREAD)
            flags = (int(payload["flags"]) & ~(EPHEMERAL | LOADING)) | keep
        self._validate(payload, flags, files, msg.attachments, under=under, before=msg)
        before = (msg.content, msg.embeds, msg.components, msg.flags, msg.attachments)
        if "content" in payload:
            msg.content = str(payload.get("content") or "")
            msg.mentions = self._mentions(msg.content)
        if "embeds" in payload:
            msg.embeds = [self._normalize_embed(e) for e in payload.get("embeds") or []]
        if "components" in payload:
            msg.components = self._assign_component_ids(payload.get("components") or [])
        if "attachments" in payload or files:
            msg.attachments = self._take_files(files, payload, msg.attachments)
        msg.flags = flags & ~LOADING
        if self._is_empty(msg):
            msg.content, msg.embeds, msg.components, msg.flags, msg.attachments = before
            raise fail(400, 50006, "Cannot send an empty message")
        rec: RequestRecord = request[REC_KEY]
        msg.edited_ms = self.clock.now_ms()
        msg.last_request_id = rec.id
        msg.last_request_generation = rec.generation
        self._record(msg, "edit")
        rec.message_id, rec.message_flags = msg.id, msg.flags

    def _delete(self, msg: Message) -> None:
        if msg.deleted:
            raise fail(404, 10008, "Unknown Message")
        channel = self.channels.get(msg.channel_id)
        if channel is not None and channel.locked and not msg.ephemeral:
            # deleting is the one thing done in an archived thread, unless it is locked too
            self._refuse_archived(channel)
        msg.deleted = True
        self._record(msg, "delete")

    def _channel(self, request: web.Request) -> Channel:
        channel = self.channels.get(int(request.match_info["cid"]))
        if channel is None or channel.deleted:
            raise fail(404, 10003, "Unknown Channel")
        return channel

    def _channel_message(self, request: web.Request) -> Message:
        channel = self._channel(request)
        msg = self.messages.get(int(request.match_info["mid"]))
        if msg is None or msg.channel_id != channel.id or msg.deleted or msg.ephemeral:
            raise fail(404, 10008, "Unknown Message")
        return msg

    async def h_get_channel(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        channel = self._channel(request)
        recipient = self.users.get(channel.recipient_id or 0)
        return json_response(channel.payload(recipient))

    async def h_send_message(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        channel = self._channel(request)
        body = self._body(request)
        err = FormErrors()
        check_channel_flags(err, body)
        if err:
            raise form_fail(err)
        self._check_may_post(channel, request)
        nonce = body.get("nonce")
        key = (self.bot_user.id, str(nonce)) if nonce is not None else None
        if key is not None and body.get("enforce_nonce") is True:
            # Discord: "checked for uniqueness in the past few minutes. If another message was
            # created by the same author with the same nonce, that message will be returned
            # and no new message will be created" (two minutes here: never more than Discord)
            known = self.messages.get(self._nonces.get(key, 0))
            if (
                known is not None
                and not known.deleted
                and self.clock.now_ms() - known.created_ms <= NONCE_WINDOW_MS
            ):
                return json_response(self.message_payload(known))
        msg = self._new_message(
            channel,
            body,
            self._files(request),
            request,
            recipient_id=channel.recipient_id,
        )
        if key is not None:
            self._nonces[key] = msg.id
        return json_response(self.message_payload(msg))

    def _check_may_post(self, channel: Channel, request: web.Request) -> None:
        """Discord refuses a post the bot's permissions do not allow: 403 50013."""
        if channel.guild_id is None:
            return
        perms = self.guild_of_channel(channel).permissions_of(self.bot_user)
        needed = VIEW_CHANNEL | SEND_MESSAGES | (ATTACH_FILES if self._files(request) else 0)
        if perms & needed != needed:
            raise fail(403, 50013, "Missing Permissions")

    async def h_get_message(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        return json_response(self.message_payload(self._channel_message(request)))

    async def h_list_messages(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        channel = self._channel(request)
        q = request.query
        limit = max(1, min(100, int(q.get("limit", 50))))
        msgs = [
            m
            for m in self.messages.values()
            if m.channel_id == channel.id and not m.deleted and not m.ephemeral
        ]
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
            msgs = msgs[:limit]
        msgs = sorted(msgs, key=lambda m: m.id, reverse=True)[:limit]
        return json_response([self.message_payload(m) for m in msgs])

    async def h_edit_message(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        msg = self._channel_message(request)
        if msg.author_id != self.bot_user.id:
            raise fail(403, 50005, "Cannot edit a message authored by another user")
        self._edit(msg, self._body(request), self._files(request), request)
        return json_response(self.message_payload(msg))

    async def h_delete_message(self, request: web.Request) -> web.StreamResponse:
        self._check_auth(request)
        self._delete(self._channel_message(request))
        return web.Response(status=204)

    async def h_start_thread(self, request: web.Request) -> web.StreamResponse:
        """Start Thread from Message: a public thread with the message's id (201)."""
        self._check_auth(request)
        channel = self._channel(request)
        msg = self._channel_message(request)
        if channel.type != GUILD_TEXT:
            raise fail(400, 50024, "Cannot execute action on this channel type")
        self._bot_needs(channel, VIEW_CHANNEL | CREATE_PUBLIC_THREADS)
        if msg.thread_id is not None:
            raise fail(400, 160004, "A thread has already been created for this message")
        body = self._body(request)
        err = FormErrors()
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            err.add(["name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        duration = body.get("auto_archive_duration")
        if duration is not None and duration not in AUTO_ARCHIVE_DURATIONS:
            err.add(
                ["auto_archive_duration"],
                "BASE_TYPE_CHOICES",
                "Value must be one of (60, 1440, 4320, 10080).",
            )
        if err:
            raise form_fail(err)
        now = self.clock.now_ms()
        thread = Channel(
            msg.id,  # "the created thread and the message it was started from share the same id"
            str(name),
            PUBLIC_THREAD,
            channel.guild_id,
            parent_id=channel.id,
            owner_id=self.bot_user.id,
            auto_archive_duration=int(duration or 4320),
            archive_ms=now,
            created_ms=now,
        )
        self.channels[thread.id] = thread
        msg.thread_id = thread.id
        msg.flags |= HAS_THREAD
        member = {
            "id": str(thread.id),
            "user_id": str(self.bot_user.id),
            "join_timestamp": iso(now),
            "flags": 1,
        }
        await self.dispatch_thread("THREAD_CREATE", thread, newly_created=True, member=member)
        return json_response({**self.thread_payload(thread), "member": member}, 201)

    async def h_edit_channel(self, request: web.Request) -> web.StreamResponse:
        """Modify Channel, for threads (Discord's rules in docs/topics/Threads.md)."""
        self._check_auth(request)
        channel = self._channel(request)
        if not channel.is_thread:
            self._bot_needs(channel, 1 << 4)  # MANAGE_CHANNELS, which the bot's role lacks
            raise fail(400, 50035, "Editing a text channel is not emulated")
        body = self._body(request)
        perms = self.bot_permissions(channel)
        moderator = bool(perms & MANAGE_THREADS)
        owner = channel.owner_id == self.bot_user.id
        unarchive = body.get("archived") is False
        if channel.archived and not unarchive:
            raise fail(400, 50083, "Thread is archived")
        if ("locked" in body or "rate_limit_per_user" in body) and not moderator:
            raise fail(403, 50013, "Missing Permissions")
        if unarchive and channel.locked and not moderator:
            raise fail(403, 50013, "Missing Permissions")
        if {"name", "archived", "auto_archive_duration"} & body.keys() and not (moderator or owner):
            raise fail(403, 50013, "Missing Permissions")
        err = FormErrors()
        if "name" in body and not (isinstance(body["name"], str) and 1 <= len(body["name"]) <= 100):
            err.add(["name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        duration = body.get("auto_archive_duration")
        if duration is not None and duration not in AUTO_ARCHIVE_DURATIONS:
            err.add(
                ["auto_archive_duration"],
                "BASE_TYPE_CHOICES",
                "Value must be one of (60, 1440, 4320, 10080).",
            )
        if err:
            raise form_fail(err)
        self._change_thread(
            channel,
            name=body.get("name"),
            archived=body.get("archived"),
            locked=body.get("locked"),
            auto_archive_duration=duration,
        )
        await self.dispatch_thread("THREAD_UPDATE", channel)
        return json_response(self.thread_payload(channel))

    def _change_thread(
        self,
        thread: Channel,
        *,
        name: Any = None,
        archived: Any = None,
        locked: Any = None,
        auto_archive_duration: Any = None,
    ) -> None:
        if name is not None:
            thread.name = str(name)
        if archived is not None and bool(archived) != thread.archived:
            thread.archived = bool(archived)
            thread.archive_ms = self.clock.now_ms()
        if locked is not None:
            thread.locked = bool(locked)
        if auto_archive_duration is not None:
            thread.auto_archive_duration = int(auto_archive_duration)
            thread.archive_ms = self.clock.now_ms()
        self._notify()

    # ------------------------------------------------------------------ interactions
    def _token_expired(self, inter: Interaction) -> bool:
        return self.clock.now_ms() - inter.delivered_ms > self.token_lifetime_ms

    async def h_callback(self, request: web.Request) -> web.StreamResponse:
        inter = self.interactions.get(int(request.match_info["iid"]))
        if inter is None or inter.token != request.match_info["token"]:
            raise fail(404, 10062, "Unknown interaction")
        if inter.responded:
            raise fail(400, 40060, "Interaction has already been acknowledged.")
        if inter.expired or self._token_expired(inter):
            inter.late_responses += 1
            raise fail(404, 10062, "Unknown interaction")
        body = self._body(request)
        rtype = int(body.get("type", 0))
        data = body.get("data") or {}
        files = self._files(request)
        err = check_callback(rtype, data)
        if err:
            raise form_fail(err)
        if dropped := dropped_defer_flags(rtype, data):
            self.add_problem("ignored_flags", f"a deferred response's flags {dropped} are dropped")
        channel = self.channels[inter.channel_id]
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        recipient = inter.user_id if ephemeral else channel.recipient_id
        msg: Message | None = None
        loading = False
        if rtype == 4:
            msg = self._new_message(
                channel,
                data,
                files,
                request,
                recipient_id=recipient,
                interaction=inter,
                ephemeral=ephemeral,
                under="data",
            )
            inter.response_message_id = msg.id
        elif rtype == 5:
            msg = self._new_message(
                channel,
                {},
                [],
                request,
                recipient_id=recipient,
                interaction=inter,
                ephemeral=ephemeral,
                loading=True,
            )
            inter.response_message_id = msg.id
            loading = True
        elif rtype in (6, 7):
            if inter.type not in (3, 5) or (rtype == 7 and inter.message_id is None):
                raise fail(
                    400,
                    50035,
                    f"Interaction response type {rtype} is not valid for this interaction",
                )
            if inter.message_id is not None:
                inter.response_message_id = inter.message_id
                if rtype == 7:
                    msg = self.messages[inter.message_id]
                    self._edit(msg, data, files, request, under="data")
                else:
                    msg = None
        elif rtype == 9:
            if inter.type not in (2, 3):
                raise fail(400, 50035, "A modal cannot answer this interaction")
            err = check_modal(data)
            if err:
                raise form_fail(err)
            inter.modal = copy.deepcopy(data)
            self._history.append(
                HistoryEntry(
                    len(self._history),
                    "modal",
                    0,
                    inter.channel_id,
                    inter.user_id,
                    str(data.get("title", "")),
                    [],
                    copy.deepcopy(data.get("components") or []),
                    0,
                    [],
                    self.clock.now_ms(),
                    inter.id,
                )
            )
        elif rtype == 8:
            if inter.type != 4:
                raise fail(400, 50035, "Autocomplete result for a non-autocomplete interaction")
            inter.choices = list(data.get("choices") or [])
        else:
            raise fail(400, 50035, f"Invalid interaction response type {rtype}")
        inter.response_type = rtype
        inter.response_data = copy.deepcopy(data)
        inter.callback_request_id = request[REC_KEY].id
        handle = self._deadline_handles.pop(inter.id, None)
        if handle is not None:
            handle.cancel()
        if "with_response" not in request.query:
            return web.Response(status=204)
        info: dict[str, Any] = {"id": str(inter.id), "type": inter.type}
        if inter.response_message_id is not None and rtype in (4, 5, 6, 7):
            target = self.messages[inter.response_message_id]
            info["response_message_id"] = str(target.id)
            info["response_message_loading"] = loading
            info["response_message_ephemeral"] = target.ephemeral
        resource: dict[str, Any] = {"type": rtype}
        if msg is not None and rtype in (4, 5, 7):
            resource["message"] = self.message_payload(msg)
        return json_response({"interaction": info, "resource": resource})

    def _webhook_interaction(self, request: web.Request) -> Interaction:
        if request.match_info["app"] != str(self.app_id):
            raise fail(404, 10015, "Unknown Webhook")
        inter = self._by_token.get(request.match_info["token"])
        if inter is None or self._token_expired(inter):
            raise fail(401, 50027, "Invalid Webhook Token")
        if not inter.responded:
            raise fail(404, 10015, "Unknown Webhook")
        return inter

    def _webhook_message(self, request: web.Request, inter: Interaction) -> Message:
        mid = request.match_info["mid"]
        if mid == "@original":
            if inter.response_message_id is None:
                raise fail(404, 10008, "Unknown Message")
            msg = self.messages[inter.response_message_id]
        else:
            msg_or_none = self.messages.get(int(mid)) if mid.isdigit() else None
            allowed = {inter.response_message_id, *inter.followup_ids}
            if msg_or_none is None or msg_or_none.id not in allowed:
                raise fail(404, 10008, "Unknown Message")
            msg = msg_or_none
        if msg.deleted:
            raise fail(404, 10008, "Unknown Message")
        return msg

    async def h_followup(self, request: web.Request) -> web.StreamResponse:
        inter = self._webhook_interaction(request)
        payload = self._body(request)
        files = self._files(request)
        original = (
            self.messages.get(inter.response_message_id) if inter.response_message_id else None
        )
        if inter.response_type == 5 and original is not None and original.loading:
            # The first followup after a "thinking" defer fills the loading message. Its
            # flags are the defer's, but for IS_COMPONENTS_V2: a deferral cannot carry it,
            # "you must do that with the edit" (receiving-and-responding.mdx)
            fill = {k: v for k, v in payload.items() if k != "flags"}
            if int(payload.get("flags") or 0) & IS_COMPONENTS_V2:
                fill["flags"] = IS_COMPONENTS_V2
            self._edit(original, fill, files, request)
            msg = original
        else:
            channel = self.channels[inter.channel_id]
            ephemeral = bool(int(payload.get("flags") or 0) & EPHEMERAL)
            recipient = inter.user_id if ephemeral else channel.recipient_id
            msg = self._new_message(
                channel,
                payload,
                files,
                request,
                recipient_id=recipient,
                interaction=inter,
                ephemeral=ephemeral,
            )
            inter.followup_ids.append(msg.id)
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(self.message_payload(msg))
        return web.Response(status=204)

    async def h_webhook_get(self, request: web.Request) -> web.StreamResponse:
        inter = self._webhook_interaction(request)
        return json_response(self.message_payload(self._webhook_message(request, inter)))

    async def h_webhook_edit(self, request: web.Request) -> web.StreamResponse:
        inter = self._webhook_interaction(request)
        msg = self._webhook_message(request, inter)
        self._edit(msg, self._body(request), self._files(request), request)
        return json_response(self.message_payload(msg))

    async def h_webhook_delete(self, request: web.Request) -> web.StreamResponse:
        inter = self._webhook_interaction(request)
        self._delete(self._webhook_message(request, inter))
        return web.Response(status=204)

    # ------------------------------------------------------------------ gateway
    async def h_gateway_ws(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, heartbeat=None)
        await ws.prepare(request)
        session = GatewaySession(ws, self.generation)
        await session.send({"op": 10, "d": {"heartbeat_interval": 41250}})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    if msg.type == WSMsgType.ERROR:
                        break
                    continue
                await self._gateway_op(session, json.loads(msg.data))
        finally:
            if self.sessions.get(session.shard_id) is session:
                del self.sessions[session.shard_id]
                self._notify()
        return ws

    async def _gateway_op(self, session: GatewaySession, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        d = payload.get("d")
        if op == 1:
            await session.send({"op": 11})
        elif op == 2:
            assert isinstance(d, dict)
            if d.get("token") != self.token:
                await session.ws.close(code=4004, message=b"Authentication failed.")
                return
            shard = d.get("shard") or [0, 1]
            session.shard_id, session.shard_count = int(shard[0]), int(shard[1])
            session.intents = int(d.get("intents") or 0)
            session.identified = True
            self.sessions[session.shard_id] = session
            self._known_sessions[session.session_id] = session
            guilds = [  # a guild's events go to one shard (docs: DISCORD_OFFLINE.md)
                g
                for g in self.guilds.values()
                if (g.id >> 22) % session.shard_count == session.shard_id
            ]
            await session.dispatch(
                "READY",
                {
                    "v": 10,
                    "user": {
                        **self.bot_user.user_payload(),
                        "verified": True,
                        "mfa_enabled": False,
                        "flags": 0,
                    },
                    "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                    "session_id": session.session_id,
                    "resume_gateway_url": self.gateway_url,
                    "shard": [session.shard_id, session.shard_count],
                    "application": {"id": str(self.app_id), "flags": 0},
                    "private_channels": [],
                    "relationships": [],
                    "user_settings": {},
                },
            )
            for g in guilds:
                await session.dispatch("GUILD_CREATE", self.guild_payload(full=True, guild=g))
            self.guilds_sent = (
                all(s.identified for s in self.sessions.values())
                and len(self.sessions) >= session.shard_count
            )
            self._notify()
        elif op == 6:
            assert isinstance(d, dict)
            old = self._known_sessions.get(str(d.get("session_id")))
            if old is None or d.get("token") != self.token or old.generation != self.generation:
                await session.send({"op": 9, "d": False})
                return
            session.session_id = old.session_id
            session.seq = old.seq
            session.shard_id, session.shard_count = old.shard_id, old.shard_count
            session.intents = old.intents
            session.identified = True
            self.sessions[session.shard_id] = session
            self._known_sessions[session.session_id] = session
            await session.dispatch("RESUMED", {})
            self.resumes += 1
            self._notify()
        elif op == 8:
            assert isinstance(d, dict)
            await self._members_chunk(session, d)
        # op 3 (presence), 4 (voice) and others are accepted silently.

    async def _members_chunk(self, session: GatewaySession, d: dict[str, Any]) -> None:
        raw = str(d.get("guild_id") or "")
        guild = self.guilds.get(int(raw)) if raw.isdigit() else None
        guild = guild or self.guild
        members = [*guild.members, self.bot_user]
        user_ids = d.get("user_ids")
        not_found: list[str] = []
        if user_ids:
            wanted = {int(u) for u in (user_ids if isinstance(user_ids, list) else [user_ids])}
            members = [m for m in members if m.id in wanted]
            not_found = [str(u) for u in wanted - {m.id for m in members}]
        else:
            query = str(d.get("query") or "").lower()
            members = [m for m in members if m.name.lower().startswith(query)]
            limit = int(d.get("limit") or 0)
            if limit:
                members = members[:limit]
        data: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [m.member_payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": not_found,
        }
        if d.get("nonce") is not None:
            data["nonce"] = d["nonce"]
        if d.get("presences"):
            data["presences"] = []
        await session.dispatch("GUILD_MEMBERS_CHUNK", data)

    def session_for_guild(self, guild_id: int | None) -> GatewaySession:
        if not self.sessions:
            raise EmulatorError("the bot is not connected to the gateway")
        if guild_id is None:
            session = self.sessions.get(0) or next(iter(self.sessions.values()))
        else:
            count = next(iter(self.sessions.values())).shard_count
            session = self.sessions.get((guild_id >> 22) % count)  # type: ignore[assignment]
            if session is None:
                raise EmulatorError(f"no gateway session for the shard of guild {guild_id}")
        return session

    async def reconnect_gateway(self, *, timeout: float = 10.0) -> None:
        """Asks every connected shard to reconnect (op 7); waits until they RESUMEd."""
        if not self.sessions:
            raise EmulatorError("the bot is not connected to the gateway")
        old = dict(self.sessions)
        target = self.resumes + len(old)
        for session in old.values():
            await session.send({"op": 7, "d": None})
        await self.wait_for(
            lambda: (
                self.resumes >= target
                and all(self.sessions.get(k) not in (None, s) for k, s in old.items())
            ),
            timeout,
            "the bot to resume its gateway session(s)",
        )

    # ------------------------------------------------------------------ delivery
    async def deliver(self, inter: Interaction) -> Interaction:
        """Sends INTERACTION_CREATE and starts the initial-response deadline."""
        session = self.session_for_guild(inter.guild_id)
        inter.delivered_ms = self.clock.now_ms()
        inter.generation = self.generation
        inter.emulator = self
        self.interactions[inter.id] = inter
        self._by_token[inter.token] = inter
        try:
            await session.dispatch("INTERACTION_CREATE", inter.payload)
        except (ConnectionError, RuntimeError) as exc:
            raise EmulatorError(f"the bot's gateway connection is gone: {exc!r}") from exc
        if inter.type != 4:
            # Discord's 3 s run from the interaction's creation (its snowflake), not from
            # its delivery: a click delivered late has what is left of them
            late = max(0.0, (inter.delivered_ms - inter.at_ms) / 1000)
            loop = asyncio.get_running_loop()
            self._deadline_handles[inter.id] = loop.call_later(
                max(0.0, self.response_deadline - late), self._deadline_passed, inter
            )
        self._notify()
        return inter

    def _deadline_passed(self, inter: Interaction) -> None:
        self._deadline_handles.pop(inter.id, None)
        if inter.responded:
            return
        inter.expired = True
        who = self.users[inter.user_id].name
        hint = ""
        if inter.tasks == 0:
            hint = (
                " - discord.py started no task for it (no stored View, DynamicItem, "
                "Modal or command matched)"
            )
        self.add_problem(
            "lost_interaction",
            f"{inter.kind} {inter.name!r} by {who} got no response within "
            f"{self.response_deadline}s (Discord: 'This interaction failed'){hint}",
            "\n".join(inter.errors),
        )

    # ------------------------------------------------------------------ launcher reports
    async def h_emu_events(self, request: web.Request) -> web.StreamResponse:
        events = await request.json()
        for ev in events:
            self._on_bot_event(ev)
        self._notify()
        return web.Response(status=204)

    def _on_bot_event(self, ev: dict[str, Any]) -> None:
        kind = ev.get("kind")
        if kind == "hello":
            self.instrumented = True
            self.bot_pid = ev.get("pid")
        elif kind == "consumed":
            self.acked.update(int(r) for r in ev.get("request_ids", []))
        elif kind == "ready":
            self.bot_ready = True
        elif kind == "handled":
            inter = self.interactions.get(int(ev["interaction_id"]))
            if inter is not None:
                inter.handled = True
                if ev.get("tasks") is not None:
                    inter.tasks = int(ev["tasks"])
        elif kind == "settled":
            inter = self.interactions.get(int(ev["interaction_id"]))
            if inter is not None:
                inter.settled = bool(ev.get("idle", True))
        elif kind == "log":
            text = ev.get("message", "")
            tb = ev.get("traceback") or ""
            iid = ev.get("interaction_id")
            inter = self.interactions.get(int(iid)) if iid else None
            where = f" while handling {inter.kind} {inter.name!r}" if inter else ""
            if inter is not None:
                inter.errors.append(f"{text}\n{tb}".strip())
            self.add_problem(
                "traceback",
                f"bot logged {ev.get('level')} from {ev.get('logger')}{where}: {text}",
                tb,
            )
