"""The one error funnel: every failure gets an ephemeral answer in the user's language; an
unexpected one is also logged with its traceback (STYLE 9)."""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.i18n import t
from bot.storage import StorageBusy
from bot.tables import TableError
from bot.ui.errors import answer_error, error_text
from tamalou.core.errors import IllegalAction


class Response:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, text: str, **kwargs: Any) -> None:
        self.sent.append((text, kwargs))


class Interaction:
    def __init__(self, locale: str) -> None:
        self.locale = discord.Locale(locale)
        self.response = Response()
        self.id = 1
        self.extras: dict[str, Any] = {}


async def test_an_unexpected_error_is_answered_politely_and_logged_with_its_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    interaction = Interaction("fr")
    try:
        raise RuntimeError("boom")
    except RuntimeError as exc:
        error = exc
    with caplog.at_level(logging.ERROR, logger="bot.ui.errors"):
        await answer_error(interaction, error, "button tamalou:draw on table 3")  # type: ignore[arg-type]
    assert interaction.response.sent == [(t("fr", "err.unexpected"), {"ephemeral": True})]
    record = caplog.records[-1]
    assert record.levelno == logging.ERROR and "button tamalou:draw on table 3" in record.message
    assert record.exc_info is not None and record.exc_info[1] is error


def test_a_wrapped_command_error_is_unwrapped(caplog: pytest.LogCaptureFixture) -> None:
    command: Any = type("Cmd", (), {"name": "x", "qualified_name": "x"})()
    wrapped = app_commands.CommandInvokeError(command, TableError("host_only"))
    with caplog.at_level(logging.ERROR):
        assert error_text("en", wrapped, "command x") == t("en", "err.host_only")
    assert not caplog.records  # a refusal is not an error of ours


def test_an_engine_refusal_is_said_in_words_with_its_time() -> None:
    text = error_text("en", IllegalAction("doubles_blocked", until=1_800_000_000_000), "b")
    assert "<t:1800000000:R>" in text


def test_doubles_blocked_for_the_round_say_so_from_the_engine_s_own_reason() -> None:
    """R-D6: the fifth miss blocks a player's doubles until the round ends; the engine says
    it with its own reason, the shared funnel words it with no case of its own."""
    text = error_text("en", IllegalAction("doubles_blocked_round"), "b")
    assert text == t("en", "illegal.doubles_blocked_round")
    assert "end of the round" in text


async def test_a_refusal_answers_in_the_clicking_users_language() -> None:
    interaction = Interaction("en-US")
    await answer_error(interaction, TableError("not_seated"), "button")  # type: ignore[arg-type]
    assert interaction.response.sent[0][0] == t("en", "err.not_seated")


@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("fr", "fr")])
async def test_a_busy_database_asks_to_retry_in_a_moment(
    locale: str, lang: str, caplog: pytest.LogCaptureFixture
) -> None:
    """StorageBusy: nothing was written, so the user is told to retry, in their language;
    the log gets a warning, not a traceback."""
    interaction = Interaction(locale)
    busy = StorageBusy("The database x is locked by another writer.", hint="Retry.")
    with caplog.at_level(logging.WARNING, logger="bot.ui.errors"):
        await answer_error(interaction, busy, "button tamalou:draw on table 3")  # type: ignore[arg-type]
    assert interaction.response.sent == [(t(lang, "err.busy"), {"ephemeral": True})]
    assert t("en", "err.busy") != t("fr", "err.busy")
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
    assert caplog.records[0].exc_info is None


def discord_error(status: int, code: int) -> discord.HTTPException:
    from types import SimpleNamespace

    response: Any = SimpleNamespace(status=status, reason="refused")
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    return kind(response, {"code": code, "message": "Unknown interaction"})


async def test_an_expired_interaction_is_one_warning_line_and_a_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 23: a click that reached the bot after Discord's 3 s (10062) was logged as an
    ERROR with its traceback; it is one WARNING line naming it, counted, and not answered
    (nobody could read the answer)."""
    from bot.ui.errors import FAULTS

    before = FAULTS["interaction expired"]
    inter = Interaction("en-US")
    with caplog.at_level(logging.WARNING):
        await answer_error(inter, discord_error(404, 10062), "button tamalou:draw on table 3")  # type: ignore[arg-type]
    assert FAULTS["interaction expired"] == before + 1
    records = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(records) == 1 and records[0].levelno == logging.WARNING
    assert records[0].exc_info is None and "table 3" in records[0].getMessage()
    assert "10062" in records[0].getMessage()
    assert inter.response.sent == []


async def test_an_answer_discord_refuses_is_one_warning_line_and_a_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from bot.ui.kit import FAULTS, reply

    class Refusing(Response):
        async def send_message(self, text: str, **kwargs: Any) -> None:
            raise discord_error(404, 10062)

    inter = Interaction("en-US")
    inter.response = Refusing()
    before = FAULTS["answer failed"]
    with caplog.at_level(logging.WARNING):
        await reply(inter, "hello")  # type: ignore[arg-type]
    assert FAULTS["answer failed"] == before + 1
    assert [(r.levelno, r.exc_info) for r in caplog.records] == [(logging.WARNING, None)]


def test_a_failure_after_a_committed_move_says_the_move_went_through(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 23: a move applied and committed, then its answer failed (the panel's webhook
    edit answering 502 past discord.py's retries): the player was asked to try again. They
    are told the move went through, in their language; Discord's fault is one WARNING line."""

    def after_a_move(error: BaseException, lang: str) -> str:
        return error_text(lang, error, "button tamalou:throw on table 3", applied=True)

    for lang in ("en", "fr"):
        text = after_a_move(discord_error(502, 0), lang)
        assert text == t(lang, "err.after_commit") and text != t(lang, "err.unexpected")
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in caplog.records)
    # a bug after the move: its traceback is logged, the answer is still the truth
    with caplog.at_level(logging.ERROR):
        text = after_a_move(RuntimeError("boom"), "en")
    assert text == t("en", "err.after_commit")
    assert any(r.exc_info for r in caplog.records)
    # and no move, no such answer
    assert error_text("en", RuntimeError("boom"), "x") == t("en", "err.unexpected")
