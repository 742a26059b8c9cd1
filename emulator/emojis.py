"""Application emojis in the emulator: ``/applications/{app}/emojis`` as Discord serves them.

Routes (under ``/api/v10``): ``GET`` the list (``{"items": [...]}``), ``GET`` one, ``POST``
(create), ``PATCH`` (rename) and ``DELETE``. Discord's rules: a name is 2–32 characters of
``[A-Za-z0-9_]`` and unique in the application (``APPLICATION_EMOJI_NAME_ALREADY_TAKEN``); the
image is a ``data:image/(png|jpeg|gif|webp);base64,`` URI of at most 256 KiB; at most 2000
emojis (``30008``). They belong to the application, so they survive bot restarts.

Tests steer failures with ``emu.app_emojis.limit = N`` (the count at which uploads are refused)
or ``emu.app_emojis.refuse = (status, code, message)`` (every upload refused, e.g. a 403
50013 "Missing Permissions" or a 503 outage); ``emu.app_emojis.uploads`` counts accepted
creates, ``emu.app_emojis.images`` keeps the decoded bytes by name.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .model import dumps
from .validation import FormErrors

if TYPE_CHECKING:
    from .server import DiscordServer

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

MAX_APPLICATION_EMOJIS = 2000
MAX_EMOJI_BYTES = 256 * 1024
NAME_RE = re.compile(r"^[A-Za-z0-9_]{2,32}$")
DATA_URI_RE = re.compile(r"^data:image/(png|jpeg|gif|webp);base64,(.+)$", re.S)
MAGIC = {
    "png": (b"\x89PNG\r\n\x1a\n",),
    "jpeg": (b"\xff\xd8\xff",),
    "gif": (b"GIF87a", b"GIF89a"),
    "webp": (b"RIFF",),
}


@dataclass
class AppEmoji:
    id: int
    name: str
    animated: bool = False


def _json(data: Any, status: int = 200) -> web.Response:
    return web.Response(
        body=dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"code": code, "message": message}, status)


class ApplicationEmojis:
    """The application's emojis and the REST handlers that serve them."""

    def __init__(self, server: DiscordServer) -> None:
        self.server = server
        self.emojis: dict[int, AppEmoji] = {}
        self.images: dict[str, bytes] = {}
        self.limit = MAX_APPLICATION_EMOJIS
        self.refuse: tuple[int, int, str] | None = None
        self.uploads = 0

    def routes(self) -> list[tuple[str, str, Handler]]:
        return [
            ("GET", "/applications/{app}/emojis", self.h_list),
            ("POST", "/applications/{app}/emojis", self.h_create),
            ("GET", "/applications/{app}/emojis/{emoji_id}", self.h_get),
            ("PATCH", "/applications/{app}/emojis/{emoji_id}", self.h_edit),
            ("DELETE", "/applications/{app}/emojis/{emoji_id}", self.h_delete),
        ]

    def by_name(self, name: str) -> AppEmoji | None:
        return next((e for e in self.emojis.values() if e.name == name), None)

    def payload(self, emoji: AppEmoji) -> dict[str, Any]:
        return {
            "id": str(emoji.id),
            "name": emoji.name,
            "roles": [],
            "user": self.server.owner.user_payload(),
            "require_colons": True,
            "managed": False,
            "animated": emoji.animated,
            "available": True,
        }

    def _guard(self, request: web.Request) -> web.Response | None:
        if request.headers.get("Authorization") != f"Bot {self.server.token}":
            return _error(401, 0, "401: Unauthorized")
        if request.match_info["app"] != str(self.server.app_id):
            return _error(404, 10002, "Unknown Application")
        return None

    def _emoji(self, request: web.Request) -> AppEmoji | web.Response:
        raw = request.match_info["emoji_id"]
        emoji = self.emojis.get(int(raw)) if raw.isdigit() else None
        return emoji if emoji is not None else _error(404, 10014, "Unknown Emoji")

    def _body(self, request: web.Request) -> dict[str, Any]:
        # The server's middleware already read and decoded the body.
        return self.server._body(request)

    def _check_name(self, errors: FormErrors, name: Any, *, exclude: int | None = None) -> None:
        if not isinstance(name, str) or not NAME_RE.match(name):
            errors.add(
                ["name"],
                "BASE_TYPE_BAD_LENGTH" if isinstance(name, str) else "BASE_TYPE_REQUIRED",
                "Must be between 2 and 32 in length and contain only letters, digits and _.",
            )
            return
        taken = self.by_name(name)
        if taken is not None and taken.id != exclude:
            errors.add(["name"], "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name already taken")

    async def h_list(self, request: web.Request) -> web.StreamResponse:
        if (bad := self._guard(request)) is not None:
            return bad
        return _json({"items": [self.payload(e) for e in self.emojis.values()]})

    async def h_get(self, request: web.Request) -> web.StreamResponse:
        if (bad := self._guard(request)) is not None:
            return bad
        emoji = self._emoji(request)
        return emoji if isinstance(emoji, web.Response) else _json(self.payload(emoji))

    async def h_create(self, request: web.Request) -> web.StreamResponse:
        if (bad := self._guard(request)) is not None:
            return bad
        if self.refuse is not None:
            status, code, message = self.refuse
            return _error(status, code, message)
        body = self._body(request)
        errors = FormErrors()
        name = body.get("name")
        self._check_name(errors, name)
        image = body.get("image")
        data = b""
        m = DATA_URI_RE.match(image) if isinstance(image, str) else None
        if m is None:
            errors.add(["image"], "IMAGE_INVALID", "Invalid image data")
        else:
            try:
                data = base64.b64decode(m.group(2), validate=True)
            except (binascii.Error, ValueError):
                errors.add(["image"], "IMAGE_INVALID", "Invalid image data")
            else:
                if len(data) > MAX_EMOJI_BYTES:
                    errors.add(
                        ["image"], "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb."
                    )
                elif not data.startswith(MAGIC[m.group(1)]):
                    errors.add(["image"], "IMAGE_INVALID", "Invalid image data")
        if errors:
            return _json(errors.body(), 400)
        if len(self.emojis) >= self.limit:
            return _error(400, 30008, f"Maximum number of emojis reached ({self.limit})")
        assert isinstance(name, str) and m is not None
        emoji = AppEmoji(self.server.ids.next(), name, animated=m.group(1) == "gif")
        self.emojis[emoji.id] = emoji
        self.images[name] = data
        self.uploads += 1
        return _json(self.payload(emoji), 201)

    async def h_edit(self, request: web.Request) -> web.StreamResponse:
        if (bad := self._guard(request)) is not None:
            return bad
        emoji = self._emoji(request)
        if isinstance(emoji, web.Response):
            return emoji
        body = self._body(request)
        if "name" in body:
            errors = FormErrors()
            self._check_name(errors, body["name"], exclude=emoji.id)
            if errors:
                return _json(errors.body(), 400)
            self.images[body["name"]] = self.images.pop(emoji.name, b"")
            emoji.name = body["name"]
        return _json(self.payload(emoji))

    async def h_delete(self, request: web.Request) -> web.StreamResponse:
        if (bad := self._guard(request)) is not None:
            return bad
        emoji = self._emoji(request)
        if isinstance(emoji, web.Response):
            return emoji
        del self.emojis[emoji.id]
        self.images.pop(emoji.name, None)
        return web.Response(status=204)
