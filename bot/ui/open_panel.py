"""The panel desk's records (``desk.py``): a member's open private panel (the message, the
token it is edited through, what it shows, and the digests that tell whether an edit would
change anything the member sees), everything about one seat's panel, and a table's seats."""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass, field
from typing import Any

import discord
import orjson

from bot.ui.cards.display import CardPicture

#: an interaction token lasts 15 minutes: a panel is edited through it a little less long
PANEL_TOKEN_MS = 14 * 60 * 1000
#: the table verb of every game that shows the member their panel ("My cards", "My hand")
HAND_VERB = "hand"


async def picture_files(picture: CardPicture | None) -> list[discord.File]:
    """The attachment of a picture (rendered in a worker thread), or none."""
    return [] if picture is None else [await picture.file()]


@dataclass(slots=True)
class OpenPanel:
    """A player's private panel, editable through the token of the interaction that showed
    it (Discord keeps a token for 15 minutes)."""

    token: str
    message_id: int
    opened_at: int  # ms, the bot's clock
    lang: str
    #: the round (a tarot deal) it shows: a new round gets a new panel
    round_no: int = 0
    #: the custom ids of the moves it offers now (a turn's start edits it when it gains some)
    moves: frozenset[str] = frozenset()
    #: when its token was last stored (member_panels), None: not stored
    saved_at: int | None = None
    #: what it shows (:func:`panel_print`), None: not known (an edit in flight, overlapping
    #: edits, a restart): a table button then edits it rather than trusting it
    shows: bytes | None = None
    #: the key of the picture it is known to carry (`CardPicture.key`), None: none or
    #: not known (as ``shows``): an edit with that very picture keeps the attachment rather
    #: than rendering and uploading it again (a turn's start wakes a panel whose hand is
    #: the same: the CPU a click)
    picture: str | None = None
    #: its edits in flight, and whether two of them overlapped (Discord may apply them in
    #: either order: what it shows is then not known until an edit alone)
    editing: int = 0
    overlapped: bool = False

    def alive(self, now: int) -> bool:
        return now - self.opened_at < PANEL_TOKEN_MS

    def started_edit(self) -> None:
        self.shows = None
        self.picture = None
        if self.editing:
            self.overlapped = True
        self.editing += 1

    def ended_edit(self, shows: bytes | None, picture: str | None = None) -> None:
        """An edit is done: ``shows`` is what it showed (None: it failed), ``picture`` the
        key of its picture."""
        self.editing -= 1
        if self.editing == 0:
            if not self.overlapped:
                self.shows = shows
                self.picture = picture if shows is not None else None
            self.overlapped = False


def panel_print(text: str, view: discord.ui.View, picture: CardPicture | None) -> bytes:
    """A digest of what a panel shows: its text, its components and its picture. Equal
    digests, equal payloads: an edit would change nothing the member sees."""
    key = picture.key if picture is not None else None
    raw = orjson.dumps([text, view.to_components(), key])
    return hashlib.blake2b(raw, digest_size=16).digest()


def asks_for_panel(interaction: discord.Interaction) -> bool:
    """The click is a table's "My cards": ``<game>:hand:<table>``."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id") or "")
    return custom_id.split(":")[1:2] == [HAND_VERB]


def moves_of(view: discord.ui.View) -> frozenset[str]:
    """The custom ids of a panel's live components: the moves it offers."""
    return frozenset(
        str(item.custom_id)
        for item in view.children
        if isinstance(item, discord.ui.Button | discord.ui.Select)
        and item.custom_id
        and not item.disabled
    )


#: not known yet (the moment a table's panels were woken for, the picture on a message)
UNKNOWN = "?"


@dataclass(slots=True)
class SeatPanel:
    """Everything about one seat's private panel."""

    #: the member's open panel of the round, None: none known
    opened: OpenPanel | None = None
    #: (message, the bot's clock it was last drawn for): a timed hide that a later drawing
    #: already did is not sent again
    drawn_at: tuple[int, int] | None = None
    #: (open panel's id, when) of a "My cards" answered by that panel
    asked: tuple[int, int] | None = None
    #: clicks of the seat being answered: a turn starting meanwhile leaves the panel to them
    answering: int = 0
    #: the game's own panel state (a frozen value of the game's type), None: nothing kept
    state: Any = None
    #: the state's data as last stored
    stored: Any = None
    #: drawings are sent one at a time, in the order they were asked for
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: drawings asked for so far, and the last one sent: one finding a newer one queued
    #: behind it leaves the panel to that one
    asked_draws: int = 0


@dataclass(slots=True)
class TableDesk:
    """A table's panels, by seat; dropped whole when the table ends."""

    seats: dict[int, SeatPanel] = field(default_factory=dict)
    #: the moment (the plugin's ``moment``) its panels were last woken for
    woken: Any = UNKNOWN
    #: the table ended: a record an answer still holds is dropped once the answer is done
    dropped: bool = False
