"""Card faces as application emojis: listed at start, the missing ones uploaded, ids kept.

Names are deterministic (``c1_7c``: ``c`` + art version + ``_`` + face code), so a restart,
or a second process starting at the same time, finds and reuses what is already there:
upload only what the list lacks; when an upload loses a race ("name already taken") the list
is read again and the other process's emoji is used. Where one name appears twice, every
process takes the lowest id, so they all agree.

If the emojis cannot all be had (the 2000-emoji limit, a missing permission, an outage),
the manager says so once at WARNING and every lookup answers ``None``: callers show
:func:`bot.ui.cards.codes.text` (``7♣``) instead. All or nothing, so one hand never mixes
pictures and text.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterable, Sequence

import aiohttp
import discord

from .art import emoji_png
from .codes import ALL_CODES, face, is_code, text

log = logging.getLogger(__name__)

ART_VERSION = 1
EMOJI_PREFIX = f"c{ART_VERSION}_"
MAX_APPLICATION_EMOJIS = 2000
_MARKUP_RE = re.compile(r"<a?:([A-Za-z0-9_]{2,32}):\d+>")

# Failures that mean "no emojis this time", never a crash of the bot.
_FAILURES = (discord.DiscordException, aiohttp.ClientError, OSError, TimeoutError)


def emoji_name(code: str) -> str:
    """The application emoji's name for a face code: ``7c`` → ``c1_7c``."""
    face(code)
    return EMOJI_PREFIX + code


def code_from_emoji_name(name: str) -> str | None:
    """The face code an emoji name shows (for leak scans), or ``None`` if not a card emoji."""
    if not name.startswith(EMOJI_PREFIX):
        return None
    code = name[len(EMOJI_PREFIX) :]
    return code if is_code(code) else None


def codes_in_markup(content: str) -> list[str]:
    """The face codes of the card emojis in a message's text, in order (for leak scans)."""
    found = (code_from_emoji_name(m.group(1)) for m in _MARKUP_RE.finditer(content))
    return [c for c in found if c is not None]


class CardEmojis:
    """The application's card emojis for one bot process.

    Create it with the client, ``await sync()`` once the client is logged in (in
    ``setup_hook`` or a task started there: it never raises for a Discord failure), then
    ``emoji_for(code)`` / ``partial_emoji(code)`` / ``show(code)`` anywhere.
    """

    def __init__(
        self,
        client: discord.Client,
        *,
        codes: Iterable[str] = ALL_CODES,
        timeout: float = 600.0,
    ) -> None:
        self._client = client
        self._codes: tuple[str, ...] = tuple(dict.fromkeys(codes))
        for code in self._codes:
            face(code)
        self._timeout = timeout
        self._ids: dict[str, int] = {}
        self._available = False
        self._warned = False
        self._lock = asyncio.Lock()
        self.uploaded = 0  # emojis this process created (0 on a restart with all present)

    @property
    def available(self) -> bool:
        return self._available

    async def sync(self) -> bool:
        """Lists the application's emojis and uploads the missing ones; ``True`` if usable."""
        async with self._lock:
            try:
                ids = await asyncio.wait_for(self._sync(), self._timeout)
            except _FAILURES as exc:
                self._fall_back(_reason(exc))
                return False
            missing = [c for c in self._codes if c not in ids]
            if missing:
                self._fall_back(f"{len(missing)} card emojis missing after upload")
                return False
            self._ids = ids
            self._available = True
            log.info("card emojis ready: %d (%d uploaded now)", len(self._codes), self.uploaded)
            return True

    async def _list(self) -> tuple[dict[str, int], int]:
        """``code -> id`` for our emojis already there (lowest id wins), and the total count."""
        emojis = await self._client.fetch_application_emojis()
        found: dict[str, int] = {}
        wanted = set(self._codes)
        for emoji in emojis:
            code = code_from_emoji_name(emoji.name)
            if code in wanted and emoji.id is not None:
                assert code is not None
                found[code] = min(emoji.id, found.get(code, emoji.id))
        return found, len(emojis)

    async def _sync(self) -> dict[str, int]:
        ids, total = await self._list()
        missing = [c for c in self._codes if c not in ids]
        if total + len(missing) > MAX_APPLICATION_EMOJIS:
            raise _Refused(
                f"{len(missing)} to upload but the application has {total} of "
                f"{MAX_APPLICATION_EMOJIS} emojis"
            )
        raced = False
        for code in missing:
            try:
                emoji = await self._client.create_application_emoji(
                    name=emoji_name(code), image=emoji_png(code)
                )
            except discord.HTTPException as exc:
                # 400 50035 APPLICATION_EMOJI_NAME_ALREADY_TAKEN: another process was first.
                if exc.status == 400 and exc.code == 50035 and "taken" in exc.text.lower():
                    raced = True
                    continue
                raise
            self.uploaded += 1
            ids[code] = emoji.id
        if raced:
            again, _ = await self._list()
            ids = {**ids, **again}
        return ids

    def _fall_back(self, reason: str) -> None:
        self._available = False
        self._ids = {}
        if not self._warned:
            self._warned = True
            log.warning("card emojis unavailable (%s): cards are shown as text", reason)

    # ------------------------------------------------------------------ lookups
    def emoji_for(self, code: str) -> str | None:
        """The ``<:name:id>`` markup of a face, or ``None`` (not synced, or fell back)."""
        emoji_id = self._ids.get(code) if self._available else None
        return None if emoji_id is None else f"<:{emoji_name(code)}:{emoji_id}>"

    def partial_emoji(self, code: str) -> discord.PartialEmoji | None:
        """For ``Button(emoji=...)`` and ``SelectOption(emoji=...)``; ``None`` as above."""
        emoji_id = self._ids.get(code) if self._available else None
        return (
            None if emoji_id is None else discord.PartialEmoji(name=emoji_name(code), id=emoji_id)
        )

    def show(self, code: str) -> str:
        """The emoji if there is one, else the text label (``7♣``)."""
        return self.emoji_for(code) or text(code)

    def line(self, codes: Sequence[str]) -> str:
        """Several faces in a row: emojis side by side, or text labels spaced."""
        return ("" if self._available else " ").join(self.show(c) for c in codes)


class _Refused(discord.DiscordException):
    """The upload would pass the application's emoji limit: do not start it."""


def _reason(exc: BaseException) -> str:
    if isinstance(exc, discord.HTTPException):
        return f"HTTP {exc.status}, code {exc.code}: {exc.text or exc.__class__.__name__}"
    if isinstance(exc, TimeoutError):
        return "timed out"
    return str(exc) or exc.__class__.__name__
