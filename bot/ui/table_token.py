"""The table message edited through an interaction token, off the bot's global budget.

Discord counts every request a bot token makes against one global limit (50 a second for
the whole bot), except the interaction endpoints: the callback and every
``/webhooks/{application}/{token}/…`` request. A click on a table message answered with a
deferred update (type 6) or an UPDATE_MESSAGE (type 7) makes that message the
interaction's original response, editable through
``PATCH /webhooks/{application}/{token}/messages/@original`` for 15 minutes. So each table
keeps the newest such token (:class:`TableTokens`) and its message is edited through it;
the channel route (``PATCH /channels/{c}/messages/{m}``, global-bound) only when none is
fresh (an all-AI stretch, a restart, a new round's message) or the token's edit fails.

A click on the table's current message carries its table edit (:class:`Carried`, in
:data:`CARRYING` while the click is answered): when the edit falls due during the click,
it is made by the click's answer (an UPDATE_MESSAGE with the new table: one call instead
of a deferred update and an edit), or, once the click is answered otherwise, through the
freshest token.
"""

from __future__ import annotations

import contextvars
from dataclasses import dataclass
from typing import Any

import discord
from discord.webhook.async_ import async_context

#: a token is used this long after its click (Discord keeps it 15 minutes: a minute spare)
TOKEN_FRESH_MS = 14 * 60 * 1000
#: answer types whose original response is the clicked message
TABLE_ANSWERS = (
    discord.InteractionResponseType.deferred_message_update,
    discord.InteractionResponseType.message_update,
)


@dataclass(frozen=True, slots=True)
class TableToken:
    """A click's token whose ``@original`` is a table message."""

    token: str
    #: the table message it edits (the clicked message)
    message_id: int
    #: when its click was answered, the bot's clock (ms)
    at: int
    #: the interaction's id: a newer click's token replaces an older one, never the reverse
    interaction_id: int


class TableTokens:
    """Each table's newest token whose original response is its message."""

    def __init__(self) -> None:
        self._tokens: dict[int, TableToken] = {}

    def keep(self, table_id: int, token: TableToken) -> None:
        old = self._tokens.get(table_id)
        if old is None or old.interaction_id < token.interaction_id:
            self._tokens[table_id] = token

    def fresh(self, table_id: int, message_id: int, now: int) -> TableToken | None:
        """The token that edits ``message_id`` now, if one is fresh enough."""
        token = self._tokens.get(table_id)
        if token is None or token.message_id != message_id or now - token.at > TOKEN_FRESH_MS:
            return None
        return token

    def drop(self, table_id: int, token: TableToken | None = None) -> None:
        """Forget the table's token (``token``: only if it is still that one)."""
        if token is None or self._tokens.get(table_id) is token:
            self._tokens.pop(table_id, None)

    def tables(self) -> set[int]:
        """Tables holding a token."""
        return set(self._tokens)


@dataclass(slots=True)
class Carried:
    """A click on a table's current message, being answered: its table edit, when it falls
    due meanwhile, is owed by the click (made by its answer, or after it)."""

    interaction: discord.Interaction
    table_id: int
    message_id: int
    #: the table's edit fell due during the click and was left to it
    owed: bool = False
    #: the click is still being answered (a task it started may outlive it)
    open: bool = True
    #: its answer is the table: the edit goes in the callback (an UPDATE_MESSAGE)
    answering: bool = False
    #: the table was drawn by its answer: pings and panels follow at the click's end
    rest: bool = False


#: the click being answered in this task, when it was on a table's current message
CARRYING: contextvars.ContextVar[Carried | None] = contextvars.ContextVar("carrying", default=None)


def token_of(interaction: discord.Interaction, message_id: int, now: int) -> TableToken | None:
    """The interaction's token if its answer made ``message_id`` its original response."""
    if interaction.response.type not in TABLE_ANSWERS:
        return None
    return TableToken(interaction.token, message_id, now, interaction.id)


async def edit_original(
    client: Any, token: TableToken, params: discord.http.MultipartParameters
) -> None:
    """``PATCH /webhooks/{application}/{token}/messages/@original``: exempt from the global
    limit. Discord's refusal (the token expired: 401 50027; unknown: 404 10015/10062) is
    raised."""
    webhook = discord.Webhook.partial(client.application_id or 0, token.token, client=client)
    await async_context.get().edit_original_interaction_response(
        webhook.id,
        token.token,
        session=webhook.session,
        proxy=webhook.proxy,
        proxy_auth=webhook.proxy_auth,
        payload=params.payload,
        multipart=params.multipart,
        files=params.files,
    )
