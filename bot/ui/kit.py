"""The Discord kit every component of the bot uses: answering once, frozen views, custom ids,
press time, names as shown."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import TYPE_CHECKING, Any, cast

import discord
from discord.utils import escape_markdown

from bot.i18n import t
from bot.storage import SeatRow

if TYPE_CHECKING:
    from bot.app import GameBot
    from bot.tables import LiveTable, MatchSeat

log = logging.getLogger(__name__)

DISCORD_EPOCH = 1420070400000

#: Discord's faults the bot rode out, by kind (each one WARNING line, no traceback): an
#: operator reads how often Discord failed without a log full of tracebacks
FAULTS: Counter[str] = Counter()
#: Discord's JSON code of an interaction whose token is no longer valid (answered too late)
UNKNOWN_INTERACTION = 10062


def cause_of(error: BaseException) -> str:
    """A fault in a few words: Discord's status and code, or the exception's type."""
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.code} {error.text[:80]}".rstrip()
    return type(error).__name__


def fault(kind: str, what: str, error: BaseException) -> None:
    """Count a fault of Discord's and log it on one WARNING line naming what and why."""
    FAULTS[kind] += 1
    log.warning("%s: %s (%s; %d so far)", what, kind, cause_of(error), FAULTS[kind])


#: a command not answered by then is deferred (Discord allows 3 s; the bot passes its
#: TAMALOU_ANSWER_DEADLINE_MS, as for clicks): a locked database
#: made ``/tamalou new`` miss Discord's deadline
ANSWER_BY_S = 1.5


async def defer(interaction: discord.Interaction, ephemeral: bool = True) -> None:
    """Acknowledge now unless the interaction already is (by the safety deadline)."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


async def answer_in_time(interaction: discord.Interaction, seconds: float = ANSWER_BY_S) -> None:
    """The safety deadline of a command: deferred (ephemeral, "thinking") if nothing has
    answered it by ``seconds``; its answer then comes as a followup (``reply``)."""
    await asyncio.sleep(seconds)
    try:
        await defer(interaction)
    except (discord.HTTPException, discord.InteractionResponded) as exc:  # answered meanwhile
        fault("late defer failed", f"interaction {interaction.id}", exc)


def snowflake_ms(snowflake: int) -> int:
    """The moment a Discord id was made: the interaction's press time (R-D4)."""
    return (snowflake >> 22) + DISCORD_EPOCH


def frozen_view(view: discord.ui.View) -> discord.ui.View:
    """Send components without keeping the View: state lives in the database."""
    view.stop()
    return view


def release_view(view: discord.ui.View | None) -> None:
    """Once a frozen view is sent: its items point back at it, a reference cycle only the
    garbage collector frees (two views a click kept about 20 objects each alive until a
    collection); emptied, it goes at once."""
    if view is not None:
        view.clear_items()


def cid(game: str, verb: str, table: int, arg: str | int | None = None) -> str:
    """``<game>:<verb>:<table>[:<arg>]`` (DESIGN: state in the database, not the View)."""
    return f"{game}:{verb}:{table}" if arg is None else f"{game}:{verb}:{table}:{arg}"


def ts(ms: int) -> str:
    """A Discord timestamp that each reader sees in their own time zone, relative."""
    return f"<t:{ms // 1000}:R>"


async def reply(
    interaction: discord.Interaction,
    text: str,
    ephemeral: bool = True,
    view: discord.ui.View | None = None,
) -> None:
    """Answer once, whether the interaction was already acknowledged or not."""
    kwargs: dict[str, Any] = {"ephemeral": ephemeral}
    if view is not None:
        kwargs["view"] = frozen_view(view)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text[:2000], **kwargs)
        else:
            await interaction.response.send_message(text[:2000], **kwargs)
    except discord.HTTPException as exc:  # expired (10062), an outage: one line, counted
        fault("answer failed", f"interaction {interaction.id}", exc)
    finally:
        release_view(view)


def bot_of(interaction: discord.Interaction) -> GameBot:
    return cast("GameBot", interaction.client)


def button(
    text: str,
    custom_id: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
    row: int | None = None,
) -> discord.ui.Button[discord.ui.View]:
    return discord.ui.Button(
        label=text[:80], custom_id=custom_id, style=style, disabled=disabled, row=row
    )


def round_end_view(
    embed: discord.Embed,
    lang: str,
    *,
    match_over: bool,
    winners: list[str],
    deadline: int | None,
    rematch_id: str,
    next_id: str,
    keys: tuple[str, str, str] = ("over.winners", "over.next", "btn.next"),
) -> discord.ui.View:
    """The foot of a finished round's (or deal's) table message, the same in every game: the
    match over, its winners on ``embed`` and a Rematch button; else when the next round
    starts and a Next button. ``keys``: the game's i18n keys for the winners field, the
    next-round field and the Next button."""
    winners_key, next_key, next_label = keys
    view = discord.ui.View(timeout=None)
    if match_over:
        embed.add_field(name=t(lang, winners_key), value=", ".join(winners) or "—", inline=False)
        view.add_item(button(t(lang, "btn.rematch"), rematch_id, discord.ButtonStyle.primary))
    else:
        if deadline is not None:
            embed.add_field(name=t(lang, next_key), value=ts(deadline), inline=False)
        view.add_item(button(t(lang, next_label), next_id, discord.ButtonStyle.primary))
    return view


def seat_name(seat: SeatRow | MatchSeat, lang: str) -> str:
    """A seat's name as shown: the member's name, or the AI's name in ``lang``."""
    if seat.ai_level:
        return t(lang, "ai.name", n=seat.user_id, level=t(lang, f"level.{seat.ai_level}"))
    return escape_markdown(seat.name)


def name_of(table: LiveTable, seat: int, lang: str) -> str:
    """The name of ``table``'s seat as shown (``seat_name``), ``#n`` past its seats."""
    if not 0 <= seat < len(table.seats):
        return f"#{seat + 1}"
    return seat_name(table.seats[seat], lang)


#: a name in a button label or a select option: plain text, at most this long (dutch and
#: cabo's swap label holds two names and their slots in Discord's 80 characters)
LABEL_NAME = 24


def shorten(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters: its start and its end around "…", so two
    long names that share a start still read apart."""
    if len(text) <= width:
        return text
    tail = width // 3
    return text[: width - 1 - tail] + "…" + text[len(text) - tail :]


def label_name(table: LiveTable, seat: int, lang: str, width: int = LABEL_NAME) -> str:
    """A seat's name in a component's label: plain text (a label is not markdown, an
    escape's backslash would show), shortened to ``width`` (``shorten``)."""
    if not 0 <= seat < len(table.seats):
        return f"#{seat + 1}"
    row = table.seats[seat]
    return shorten(seat_name(row, lang) if row.ai_level else row.name, width)


def picture_name(table: LiveTable, seat: int, lang: str) -> str:
    """A seat's name in a picture (no markdown escapes: the picture is not markdown)."""
    return name_of(table, seat, lang).replace("\\", "")


def closed_message(table_id: int, lang: str, reason: str, game: str = "Tamalou") -> discord.Embed:
    """The table message once the table is closed; ``game``: the game's display name."""
    return discord.Embed(
        title=t(lang, "closed.title", id=table_id, game=game),
        description=t(lang, f"closed.{reason}"),
        colour=discord.Colour.dark_grey(),
    )
