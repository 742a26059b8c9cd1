"""Plain data the emulator keeps: guild, members, channels, messages, interactions."""

from __future__ import annotations

import copy
import datetime as _dt
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

# Permission bits (https://discord.com/developers/docs/topics/permissions)
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1

EVERYONE_PERMISSIONS = (
    ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS  # Discord's default @everyone has the thread permissions
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
ADMIN_PERMISSIONS = MANAGE_GUILD | MANAGE_MESSAGES

EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15
HAS_THREAD = 1 << 5  # message flag: a thread was started from it

#: channel types (https://discord.com/developers/docs/resources/channel#channel-object-channel-types)
GUILD_TEXT, DM, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12
THREAD_TYPES = (10, PUBLIC_THREAD, PRIVATE_THREAD)
#: minutes of inactivity after which Discord hides a thread (the only values it takes)
AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)

INTERACTION_TYPES = {2: "slash", 3: "component", 4: "autocomplete", 5: "modal"}


def iso(ms: int) -> str:
    return _dt.datetime.fromtimestamp(ms / 1000, tz=_dt.UTC).isoformat()


@dataclass
class MemberSpec:
    """Configuration of a simulated guild member."""

    name: str
    locale: str = "en-US"
    admin: bool = False
    permissions: int = 0  # extra permission bits on top of @everyone (and Admin)
    global_name: str | None = None
    nick: str | None = None


@dataclass
class GuildSpec:
    """Configuration of one more guild (the first one is the emulator's ``guild``).

    Every member of the first guild is a member here too, with the same roles. ``shard``:
    the guild id is chosen so that Discord routes the guild's events to this shard
    (``(guild_id >> 22) % shard_count``); None: the shard after the previous guild's (so
    with as many shards as guilds, each guild has its own).
    """

    name: str
    channels: tuple[str, ...] = ()
    shard: int | None = None
    preferred_locale: str = "en-US"


DEFAULT_MEMBERS: tuple[MemberSpec, ...] = (
    MemberSpec("alice", "en-US", admin=True),
    MemberSpec("bob", "fr"),
    MemberSpec("carol", "fr"),
    MemberSpec("dave", "en-GB"),
    MemberSpec("erin", "en-US"),
)
DEFAULT_CHANNELS: tuple[str, ...] = ("general", "tables")


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class User:
    id: int
    name: str
    locale: str = "en-US"
    bot: bool = False
    global_name: str | None = None
    nick: str | None = None
    role_ids: list[int] = field(default_factory=list)
    joined_at_ms: int = 0

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def user_payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "public_flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data

    def member_payload(self, *, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.role_ids],
            "nick": self.nick,
            "avatar": None,
            "joined_at": iso(self.joined_at_ms),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user_payload()
        return data

    def __str__(self) -> str:
        return self.name


@dataclass
class Channel:
    id: int
    name: str
    type: int = 0  # 0 guild text, 1 DM, 11 public thread
    guild_id: int | None = None
    position: int = 0
    recipient_id: int | None = None  # DM only
    # threads only (type 11): the text channel it lives in, who started it, its state
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_ms: int = 0  # when it was created, archived or unarchived last
    created_ms: int = 0
    deleted: bool = False

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    def payload(self, recipient: User | None = None) -> dict[str, Any]:
        if self.type == 1:
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [recipient.user_payload()] if recipient else [],
            }
        if self.is_thread:
            return self.thread_payload()
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }

    def thread_payload(self, messages: int = 0) -> dict[str, Any]:
        """A thread as Discord sends it (REST and THREAD_* events: discord-api-spec's
        ThreadResponse, its required fields all present)."""
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "parent_id": str(self.parent_id),
            "owner_id": str(self.owner_id),
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
            "message_count": messages,
            "member_count": 1,
            "total_message_sent": messages,
            "thread_metadata": {
                "archived": self.archived,
                "archive_timestamp": iso(self.archive_ms),
                "auto_archive_duration": self.auto_archive_duration,
                "locked": self.locked,
                "create_timestamp": iso(self.created_ms),
            },
        }

    def __str__(self) -> str:
        return f"#{self.name}"


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    preferred_locale: str
    roles: list[Role]
    channels: list[Channel]
    members: list[User]
    #: permissions taken from a member in every channel (as a channel overwrite denying them)
    denied: dict[int, int] = field(default_factory=dict)

    @property
    def everyone_role(self) -> Role:
        return self.roles[0]

    def permissions_of(self, user: User) -> int:
        if user.id == self.owner_id:
            return ALL_PERMISSIONS
        perms = self.everyone_role.permissions
        for role in self.roles:
            if role.id in user.role_ids:
                perms |= role.permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms & ~self.denied.get(user.id, 0)

    def interaction_member_payload(self, user: User) -> dict[str, Any]:
        data = user.member_payload()
        data["permissions"] = str(self.permissions_of(user))
        return data


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None

    def payload(self, base_url: str, channel_id: int) -> dict[str, Any]:
        url = f"{base_url}/attachments/{channel_id}/{self.id}/{self.filename}"
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.description:
            data["description"] = self.description
        return data


@dataclass(frozen=True)
class Button:
    label: str | None
    custom_id: str | None
    style: int
    disabled: bool
    url: str | None
    emoji: str | None
    raw: dict[str, Any]


@dataclass(frozen=True)
class Select:
    custom_id: str
    type: int
    placeholder: str | None
    options: list[dict[str, Any]]
    min_values: int
    max_values: int
    disabled: bool
    raw: dict[str, Any]


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first (rows, containers, sections and their accessories)."""
    for comp in components:
        yield comp
        if "components" in comp:
            yield from walk_components(comp["components"])
        if "accessory" in comp:
            yield from walk_components([comp["accessory"]])
        if "component" in comp:
            yield from walk_components([comp["component"]])


def _emoji_text(emoji: Any) -> str | None:
    if not emoji:
        return None
    if isinstance(emoji, dict):
        return emoji.get("name")
    return str(emoji)


def components_text(components: list[dict[str, Any]]) -> list[str]:
    """Every text the components show, depth first: labels, placeholders, text displays,
    alt texts (a thumbnail's, a gallery item's), option labels."""
    out: list[str] = []
    for comp in walk_components(components):
        for key in ("label", "placeholder", "content", "value", "title", "description"):
            value = comp.get(key)
            if isinstance(value, str) and value:
                out.append(value)
        emoji = _emoji_text(comp.get("emoji"))
        if emoji:
            out.append(emoji)
        for opt in comp.get("options", []) or []:
            out.extend(str(opt.get(k)) for k in ("label", "description") if opt.get(k))
        for item in comp.get("items", []) or []:
            if isinstance(item, dict) and isinstance(item.get("description"), str):
                out.append(item["description"])
    return out


def text_displays(components: list[dict[str, Any]]) -> list[str]:
    """The content of every text display (type 10) of a V2 message, in reading order
    (depth first: a container's, then a section's texts where they stand)."""
    return [
        c["content"]
        for c in walk_components(components)
        if c.get("type") == 10 and isinstance(c.get("content"), str)
    ]


def display_text(
    content: str, embeds: list[dict[str, Any]], components: list[dict[str, Any]]
) -> str:
    """What a message says, as a reader reads its body: the content and the embeds' texts
    (V1), the text displays in order (V2); not the buttons' labels nor the file names."""
    parts = [content] if content else []
    return "\n".join([*parts, *embeds_text(embeds), *text_displays(components)])


@dataclass(frozen=True)
class Media:
    """A picture or file a V2 component shows: a section's thumbnail (``"thumbnail"``), a
    gallery item (``"gallery"``) or a file component (``"file"``). ``attachment``: the
    message's attachment an ``attachment://name`` url names (None for an outside url)."""

    kind: str
    url: str
    attachment: Attachment | None
    description: str | None
    spoiler: bool


def media_items(components: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any], Any]]:
    """(kind, media dict, the component or gallery item holding it), in reading order."""
    out: list[tuple[str, dict[str, Any], Any]] = []
    for comp in walk_components(components):
        ctype = comp.get("type")
        if ctype == 11 and isinstance(comp.get("media"), dict):
            out.append(("thumbnail", comp["media"], comp))
        elif ctype == 13 and isinstance(comp.get("file"), dict):
            out.append(("file", comp["file"], comp))
        elif ctype == 12:
            for item in comp.get("items") or []:
                if isinstance(item, dict) and isinstance(item.get("media"), dict):
                    out.append(("gallery", item["media"], item))
    return out


def embeds_text(embeds: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    for embed in embeds:
        for key in ("title", "description"):
            if embed.get(key):
                out.append(str(embed[key]))
        for sub in ("author", "footer"):
            part = embed.get(sub) or {}
            for key in ("name", "text"):
                if part.get(key):
                    out.append(str(part[key]))
        for fld in embed.get("fields", []) or []:
            out.append(str(fld.get("name", "")))
            out.append(str(fld.get("value", "")))
    return out


@dataclass
class Message:
    """A message as the emulator stores it; always the latest state (edits apply in place)."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    attachments: list[Attachment] = field(default_factory=list)
    recipient_id: int | None = None  # ephemeral: the only user who sees it
    interaction_id: int | None = None
    interaction_user_id: int | None = None
    interaction_type: int | None = None
    message_type: int = 0
    webhook_id: int | None = None
    created_ms: int = 0
    edited_ms: int | None = None
    deleted: bool = False
    version: int = 0
    mentions: list[int] = field(default_factory=list)
    reference: dict[str, Any] | None = None
    thread_id: int | None = None  # the thread started from this message (same id)
    last_request_id: int | None = None  # REST request that created or last changed it
    last_request_generation: int = 0

    # -- convenience for tests -------------------------------------------------
    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def embed(self) -> dict[str, Any] | None:
        return self.embeds[0] if self.embeds else None

    @property
    def text(self) -> str:
        """All human-visible text: content, embeds, components (text displays in order,
        labels, alt texts), file names."""
        parts = [self.content] if self.content else []
        parts += embeds_text(self.embeds)
        parts += components_text(self.components)
        parts += [a.filename for a in self.attachments]
        return "\n".join(parts)

    @property
    def v2(self) -> bool:
        """The message is a Components V2 one (flag IS_COMPONENTS_V2)."""
        return bool(self.flags & IS_COMPONENTS_V2)

    @property
    def display_text(self) -> str:
        """What the message says: its content and embeds (V1) or its text displays in order
        (V2), without the labels of its buttons (see :func:`display_text`)."""
        return display_text(self.content, self.embeds, self.components)

    def media(self) -> list[Media]:
        """The thumbnails, gallery items and files its components show, in reading order,
        each with the attachment its ``attachment://name`` names."""
        by_name = {a.filename: a for a in self.attachments}
        out = []
        for kind, media, holder in media_items(self.components):
            url = str(media.get("url") or "")
            name = url.removeprefix("attachment://") if url.startswith("attachment://") else None
            out.append(
                Media(
                    kind=kind,
                    url=url,
                    attachment=by_name.get(name) if name is not None else None,
                    description=holder.get("description"),
                    spoiler=bool(holder.get("spoiler")),
                )
            )
        return out

    def pictures(self) -> list[Attachment]:
        """The attachments a reader sees: every one on a V1 message; on a V2 message only
        those a component names ("Attachments won't show by default - they must be exposed
        through components", components/reference.mdx)."""
        if not self.v2:
            return list(self.attachments)
        shown = {id(m.attachment) for m in self.media() if m.attachment is not None}
        return [a for a in self.attachments if id(a) in shown]

    def buttons(self) -> list[Button]:
        return [
            Button(
                label=c.get("label"),
                custom_id=c.get("custom_id"),
                style=int(c.get("style", 1)),
                disabled=bool(c.get("disabled", False)),
                url=c.get("url"),
                emoji=_emoji_text(c.get("emoji")),
                raw=c,
            )
            for c in walk_components(self.components)
            if c.get("type") == 2
        ]

    def selects(self) -> list[Select]:
        return [
            Select(
                custom_id=c["custom_id"],
                type=int(c["type"]),
                placeholder=c.get("placeholder"),
                options=list(c.get("options", []) or []),
                min_values=int(c.get("min_values", 1)),
                max_values=int(c.get("max_values", 1)),
                disabled=bool(c.get("disabled", False)),
                raw=c,
            )
            for c in walk_components(self.components)
            if c.get("type") in (3, 5, 6, 7, 8)
        ]

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> Button:
        """The button with that label (or custom_id); raises LookupError otherwise."""
        matches = [
            b
            for b in self.buttons()
            if (custom_id is not None and b.custom_id == custom_id)
            or (custom_id is None and label is not None and label in (b.label, b.emoji))
        ]
        if not matches:
            labels = [b.label or b.emoji or b.custom_id for b in self.buttons()]
            wanted = custom_id if custom_id is not None else label
            raise LookupError(f"no button {wanted!r} on message {self.id}; buttons: {labels}")
        if len(matches) > 1:
            raise LookupError(f"several buttons match {label!r} on message {self.id}")
        return matches[0]

    def payload(self, *, app_id: int, author: dict[str, Any], base_url: str) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": author,
            "content": self.content,
            "timestamp": iso(self.created_ms),
            "edited_timestamp": iso(self.edited_ms) if self.edited_ms else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload(base_url, self.channel_id) for a in self.attachments],
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "flags": self.flags,
            "type": self.message_type,
            "pinned": False,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(app_id)
        if self.interaction_id is not None and self.interaction_user_id is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": {
                    "id": str(self.interaction_user_id),
                    "username": "",
                    "discriminator": "0",
                    "avatar": None,
                    "global_name": None,
                },
                "authorizing_integration_owners": {},
            }
        if self.reference:
            data["message_reference"] = self.reference
        return data

    def __repr__(self) -> str:
        vis = f" ephemeral_to={self.recipient_id}" if self.recipient_id else ""
        return f"<Message id={self.id} channel={self.channel_id}{vis} content={self.content!r}>"


@dataclass(frozen=True)
class HistoryEntry:
    """One version of a message (or a modal) as it was shown, with who could see it."""

    seq: int
    action: str  # "create" | "edit" | "delete" | "modal"
    message_id: int
    channel_id: int
    audience: int | None  # None: everyone in the channel; else the only user id who saw it
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    flags: int
    attachments: list[str]
    at_ms: int
    interaction_id: int | None
    #: the attachments themselves (bytes, description), for scans that read pictures
    files: tuple[Attachment, ...] = ()

    @property
    def public(self) -> bool:
        return self.audience is None

    def visible_to(self, user_id: int) -> bool:
        return self.audience is None or self.audience == user_id

    @property
    def text(self) -> str:
        parts = [self.content] if self.content else []
        parts += embeds_text(self.embeds)
        parts += components_text(self.components)
        parts += self.attachments
        return "\n".join(parts)

    @property
    def display_text(self) -> str:
        """What this version says (content and embeds, or text displays in order)."""
        return display_text(self.content, self.embeds, self.components)


@dataclass
class Problem:
    kind: str  # unknown_endpoint | traceback | lost_interaction | rejected | bot_exit
    message: str
    detail: str = ""

    def __str__(self) -> str:
        return f"[{self.kind}] {self.message}" + (f"\n{self.detail}" if self.detail else "")


@dataclass
class RequestRecord:
    id: int
    method: str
    path: str
    query: dict[str, str]
    body: Any
    files: list[Attachment]
    at_ms: int
    generation: int
    mono: float = 0.0  # event-loop time when received
    status: int = 0
    response: Any = None
    route: str | None = None
    #: the message the request created or edited, and its flags once written
    message_id: int | None = None
    message_flags: int | None = None

    def __repr__(self) -> str:
        return f"<Request #{self.id} {self.method} {self.path} -> {self.status}>"


@dataclass
class Interaction:
    """An interaction the emulator delivered, and everything the bot did with it."""

    id: int
    token: str
    type: int  # 2 slash, 3 component, 4 autocomplete, 5 modal submit
    user_id: int
    channel_id: int
    guild_id: int | None
    at_ms: int
    delivered_ms: int
    name: str  # command path, component custom_id or modal custom_id
    payload: dict[str, Any]
    message_id: int | None = None  # component / modal-from-component: the source message
    response_type: int | None = None
    response_data: dict[str, Any] | None = None
    response_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    expired: bool = False  # initial response deadline passed without a response
    late_responses: int = 0
    handled: bool = False
    settled: bool = False
    tasks: int | None = None  # tasks discord.py started for it (from the launcher)
    callback_request_id: int | None = None
    generation: int = 0
    errors: list[str] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    emulator: Any = field(default=None, repr=False)

    @property
    def kind(self) -> str:
        return INTERACTION_TYPES.get(self.type, str(self.type))

    @property
    def responded(self) -> bool:
        return self.response_type is not None

    @property
    def deferred(self) -> bool:
        return self.response_type in (5, 6)

    @property
    def ephemeral(self) -> bool:
        msg = self.response
        return bool(msg and msg.ephemeral)

    @property
    def response(self) -> Message | None:
        """The message of the initial response (type 4/5), or the updated message (type 7)."""
        if self.response_message_id is None or self.response_type not in (4, 5, 7):
            return None
        return self.emulator.message(self.response_message_id)

    @property
    def original(self) -> Message | None:
        """What ``@original`` designates (for 6/7 the component's message)."""
        if self.response_message_id is None:
            return None
        return self.emulator.message(self.response_message_id)

    @property
    def followups(self) -> list[Message]:
        return [self.emulator.message(m) for m in self.followup_ids]

    @property
    def messages(self) -> list[Message]:
        """Response message (if any) then followups, latest state, deleted ones excluded."""
        out = [m for m in [self.response, *self.followups] if m is not None]
        seen: set[int] = set()
        result = []
        for m in out:
            if m.id not in seen and not m.deleted:
                seen.add(m.id)
                result.append(m)
        return result

    @property
    def text(self) -> str:
        return "\n".join(m.text for m in self.messages)

    def __repr__(self) -> str:
        return (
            f"<Interaction {self.kind} {self.name!r} id={self.id} user={self.user_id} "
            f"response={self.response_type} expired={self.expired}>"
        )


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
