"""The message a click comes from, read without parsing it (the click path).

discord.py builds a full :class:`discord.Message` from the clicked message of every
component interaction (``Interaction._from_data``): its embeds, every button of every row,
its author, its mentions. For a table message that is about 5% of the bot's CPU a click,
and the bot reads three things of it: the custom ids it carries (``carries``), whether it is
an ephemeral panel, and its id. Here the parse is made lazy: ``interaction.message`` is
still the same ``Message``, built on first access (discord.py's own code, with the guild
upgrade ``_from_data`` makes); the helpers below read the raw payload instead.

This reaches into discord.py internals, pinned by ``tests/bot/test_clicked.py`` (it fails if
they change): ``discord.state`` builds interactions through its module global
``Interaction``; ``Interaction._from_data`` assigns ``self.message`` from
``data['message']`` and then upgrades its guild; ``ViewStore.dispatch_view`` reads
``interaction.message.id`` for every click (to find a View stored for that message), so it
is replaced by the same code reading the id from the payload. Without :func:`install`
every helper falls back on ``interaction.message``.
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import logging
from typing import Any

import discord
import discord.state
from discord.message import Message
from discord.ui.view import ViewStore

_log = logging.getLogger("discord.ui.view")
#: discord.py's own, kept for the test that pins it (tests/bot/test_clicked.py)
DISCORD_DISPATCH_VIEW = ViewStore.dispatch_view

#: the message flag of an ephemeral message
EPHEMERAL = 64
_UNSET: Any = object()


class LazyMessageInteraction(discord.Interaction):
    """An interaction whose ``message`` is parsed on first access, not on arrival."""

    __slots__ = ("_parsed_message", "_raw_message")

    def _from_data(self, data: Any) -> None:
        raw = data.pop("message", None)
        self._raw_message: dict[str, Any] | None = None
        self._parsed_message: Any = None
        try:
            super()._from_data(data)  # no key: ``message`` is None while it runs
        finally:
            if raw is not None:
                data["message"] = raw  # the payload is left as it came
        self._raw_message = raw
        if raw is not None:
            self._parsed_message = _UNSET

    @property
    def message(self) -> Message | None:
        parsed = self._parsed_message
        if parsed is _UNSET:  # as Interaction._from_data does it
            # the channel and message payloads are mismatched yet handled at runtime
            parsed = Message(state=self._state, channel=self.channel, data=self._raw_message)  # type: ignore[arg-type]
            guild = self.guild if self.guild_id is not None else None
            if parsed.guild is None and guild is not None:  # its partial guild, upgraded
                parsed.guild = guild
            self._parsed_message = parsed
        return parsed

    @message.setter
    def message(self, value: Message | None) -> None:
        self._parsed_message = value


def release(interaction: discord.Interaction) -> None:
    """Once a click is answered and handled: its response objects point back at it, a cycle
    that kept the interaction, its member and its payload alive until a garbage
    collection. Only for an interaction nothing reads any more."""
    for slot in ("_cs_response", "_cs_followup"):
        with contextlib.suppress(AttributeError):
            delattr(interaction, slot)


def raw_message(interaction: discord.Interaction) -> dict[str, Any] | None:
    """The clicked message as Discord sent it (None: the interaction has none)."""
    if isinstance(interaction, LazyMessageInteraction):
        return interaction._raw_message
    return None


def message_id(interaction: discord.Interaction) -> int | None:
    raw = raw_message(interaction)
    if raw is not None:
        return int(raw["id"])
    message = interaction.message
    return None if message is None else message.id


def from_ephemeral(interaction: discord.Interaction) -> bool:
    """Whether the click comes from an ephemeral message (a player's private panel)."""
    raw = raw_message(interaction)
    if raw is not None:
        return bool(int(raw.get("flags") or 0) & EPHEMERAL)
    message = interaction.message
    return message is not None and message.flags.ephemeral


def carries(interaction: discord.Interaction, custom_id: str) -> bool:
    """Whether the clicked message still has a component of that custom id: discord.py
    routes a click to a DynamicItem only then."""
    raw = raw_message(interaction)
    if raw is None:
        return _parsed_carries(interaction.message, custom_id)
    stack: list[Any] = list(raw.get("components") or ())
    while stack:
        component = stack.pop()
        if not isinstance(component, dict):
            continue
        if component.get("custom_id") == custom_id:
            return True
        stack.extend(component.get("components") or ())
        if "accessory" in component:  # a section's button (components v2)
            stack.append(component["accessory"])
    return False


def _parsed_carries(message: discord.Message | None, custom_id: str) -> bool:
    if message is None:
        return False
    stack: list[Any] = list(message.components)
    while stack:
        component = stack.pop()
        if getattr(component, "custom_id", None) == custom_id:
            return True
        stack.extend(getattr(component, "children", ()) or ())
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            stack.append(accessory)
    return False


def _dispatch_view(
    self: ViewStore, component_type: int, custom_id: str, interaction: discord.Interaction
) -> None:
    """``ViewStore.dispatch_view`` of discord.py 2.7, line for line, except that the clicked
    message's id is read from the payload (``interaction.message`` would parse it)."""
    self.dispatch_dynamic_items(component_type, custom_id, interaction)
    clicked_id = message_id(interaction)
    key = (component_type, custom_id)
    item: Any = None
    if clicked_id is not None:
        item = self._views.get(clicked_id, {}).get(key)
    if item is None:  # a persistent view added without a message id
        item = self._views.get(None, {}).get(key)
    if item is None:
        return
    if item.view is None:
        _log.warning("View interaction referencing unknown view for item %s. Discarding", item)
        return
    task = item.view._dispatch_item(item, interaction)
    if task is not None:
        self.add_task(task)


#: sha256 of discord.py 2.7.1's ``ViewStore.dispatch_view`` source, which
#: :func:`_dispatch_view` copies line for line but for the message id
DISPATCH_VIEW_SHA256 = "bc93160d31d71736c177f6f64c1c818de85254a19b73441358b3f7e1608e9b11"


def compatible() -> bool:
    """Whether the installed discord.py is the one this module was written against: the
    internals it replaces are as they were (a later release may change them)."""
    try:
        parse = inspect.getsource(discord.state.ConnectionState.parse_interaction_create)
        from_data = inspect.getsource(discord.Interaction._from_data)
        dispatch = inspect.getsource(DISCORD_DISPATCH_VIEW)
    except (OSError, TypeError):  # no sources (a frozen build): nothing to compare
        return False
    return (
        "interaction = Interaction(data=data, state=self)" in parse
        and "Message(state=self._state, channel=self.channel, data=data['message'])" in from_data
        and "self.message.guild = guild" in from_data
        and "message" in discord.Interaction.__slots__
        and hashlib.sha256(dispatch.encode()).hexdigest() == DISPATCH_VIEW_SHA256
    )


def install() -> bool:
    """Interactions discord.py builds from now on parse their message only when read.

    Only on the discord.py this was written against: on another one, nothing is replaced
    (clicks cost a little more, behave the same) and a warning says so. True if installed.
    """
    if not compatible():
        logging.getLogger(__name__).warning(
            "discord.py %s: its internals differ from 2.7.1's, clicked messages are parsed "
            "as discord.py does (bot/ui/clicked.py)",
            discord.__version__,
        )
        return False
    discord.state.Interaction = LazyMessageInteraction  # type: ignore[misc,assignment]
    ViewStore.dispatch_view = _dispatch_view  # type: ignore[method-assign]
    return True
