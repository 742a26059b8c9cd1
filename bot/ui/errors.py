"""One error funnel: every failure of a command or a click gets an ephemeral answer in the
user's language; a refusal is said as a refusal, anything unexpected is logged with its
traceback and answered politely (STYLE 9)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.i18n import catalog, lang_of, t
from bot.storage import StorageBusy
from bot.tables import TableError
from bot.ui.kit import FAULTS, UNKNOWN_INTERACTION, fault, reply, ts
from bot.ui.pipeline import applied
from tamalou.core.errors import IllegalAction

log = logging.getLogger(__name__)


def refusal_text(lang: str, exc: IllegalAction, game: str | None = None) -> str:
    """An engine refusal in words: the game's own wording when it has one
    (``<game>.illegal.<reason>``: tarot says which card to follow), else the shared
    ``illegal.<reason>``; ``until`` becomes a timestamp."""
    detail = dict(exc.detail)
    until = detail.get("until")
    if isinstance(until, int):
        detail["when"] = ts(until)
    if game is not None:
        own = f"{game}.illegal.{exc.reason}"
        if own in catalog(lang) or own in catalog("en"):
            return t(lang, own, **exc.detail)
    return t(lang, f"illegal.{exc.reason}", **detail)


def error_text(
    lang: str, error: BaseException, what: str, game: str | None = None, applied: bool = False
) -> str:
    """What the user reads for ``error`` (``game``: the game the click was for, whose own
    wording of an engine refusal comes first; ``applied``: the click's move was applied and
    committed before it, ``pipeline.applied``); logs the traceback when it was not expected."""
    cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(cause, TableError):
        detail = dict(cause.detail)
        if isinstance(detail.get("option"), str):  # a command option, by its name in lang
            detail["option"] = t(lang, f"optname.{detail['option']}")
        missing = detail.get("missing")
        if isinstance(missing, tuple):  # the bot's permissions, by their names in lang
            detail["missing"] = ", ".join(t(lang, f"perm.{p}") for p in missing)
        return t(lang, f"err.{cause.reason}", **detail)
    if isinstance(cause, IllegalAction):
        return refusal_text(lang, cause, game)
    if isinstance(cause, app_commands.MissingPermissions):
        return t(lang, "err.manage_server")
    if isinstance(cause, app_commands.NoPrivateMessage):
        return t(lang, "err.guild_only")
    if applied:  # the move went through: never ask to play it again
        if isinstance(cause, discord.HTTPException):  # Discord failed the answer after it
            fault("answer after a move failed", what, cause)
        else:
            log.error("%s failed after its move was committed", what, exc_info=cause)
        return t(lang, "err.after_commit")
    if isinstance(cause, discord.HTTPException) and cause.code == UNKNOWN_INTERACTION:
        fault("interaction expired", what, cause)  # answered too late: nothing to show
        return t(lang, "err.unexpected")
    if isinstance(cause, StorageBusy):  # nothing was written: the same click may retry
        log.warning("%s: storage busy", what)
        return t(lang, "err.busy")
    log.error("%s failed", what, exc_info=cause)
    return t(lang, "err.unexpected")


async def answer_error(
    interaction: discord.Interaction, error: BaseException, what: str, game: str | None = None
) -> None:
    """The funnel: always an ephemeral answer, in the clicking user's language (but to an
    interaction Discord has expired: nobody could read it)."""
    cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if (
        isinstance(cause, TableError)
        and cause.reason == "too_late"
        and not interaction.response.is_done()
    ):
        return  # Discord's 3 s passed unanswered: nothing applied, nobody to tell (logged)
    text = error_text(lang_of(interaction.locale), error, what, game, applied(interaction))
    if isinstance(cause, discord.HTTPException) and cause.code == UNKNOWN_INTERACTION:
        return
    await reply(interaction, text)


__all__ = ["FAULTS", "answer_error", "error_text", "fault", "refusal_text"]
