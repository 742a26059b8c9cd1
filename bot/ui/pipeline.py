"""The one click pipeline: every play click of every game takes the same way.

Routing (``routing.py``) decodes ``<game>:<verb>:<table>[:<arg>]``; here the platform checks,
in this order and the same way for every game, what no game should check again:

1. the game is one of ours and the verb one it declares (``GamePlugin.verbs``);
2. the table exists (``table_gone``), plays that game and lives in this channel;
3. the argument has the shape the verb declares (plain ASCII digits, the count of numbers
   its ``Verb.arity`` allows) and the click comes from where the verb lives: a panel verb
   only from the member's own ephemeral panel (``Verb.origin``);
4. the member has a seat (``not_seated``) and the match has started (``not_started``);
5. the round the button was drawn for (the argument's first number) is the round now: an
   earlier one is ``old_round``, a later one was never shown (forged: ``bad_button``).

Every refusal is a :class:`TableError` answered by the one error funnel; a forged select
value is ``bad_button`` too. Only then does the game see the click, as one :class:`Click`
holding everything the checks found (its seat, its numbers, its press time, where it came
from, the seat's panel state), and answer it with a value (``GamePlugin.answer``, no
Discord, no event loop): :class:`Act` an engine action (and what follows it once applied),
:class:`ShowPanel` a step of its panel, :class:`Say` a line, :class:`Refuse` a refusal, or
None. :func:`carry_out` acts, answers a refusal once (raised to the funnel: no game raises
an outcome's error again), and asks the panel desk to draw the panel.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import discord

from bot.tables import LiveTable, TableError
from bot.ui import clicked
from bot.ui.discord_clock import DiscordClock
from bot.ui.kit import bot_of, reply, snowflake_ms
from tamalou.core.errors import IllegalAction

if TYPE_CHECKING:
    from bot.app import GameBot
    from bot.games import GamePlugin
    from bot.tables.service import Outcome

#: where a verb's component lives: the public table message, a member's panel, or both
Origin = Literal["table", "panel", "any"]
#: the longest number an argument part may be (a card code, a seat, a round, a sequence)
MAX_DIGITS = 9


@dataclass(frozen=True, slots=True)
class Verb:
    """What the platform checks of a verb before its game sees the click.

    ``arity``: how many numbers its argument carries, the round first (None: one or more).
    ``any_round``: the click answers the round as it is now, whichever round its button was
    drawn for ("My cards": it only opens the member's panel). ``origin``: where its
    component lives."""

    origin: Origin = "any"
    arity: tuple[int, ...] | None = (1,)
    any_round: bool = False


T = TypeVar("T")
log = logging.getLogger(__name__)

#: Discord's time to answer a click (an acknowledgement counts), from its press
DISCORD_ANSWER_MS = 3000
#: ``interaction.extras`` keys: the click's move was applied and committed; its
#: acknowledgement by the safety deadline was sent (while still on its way, a queued move
#: may be applied: Discord's 3 s have not passed, and if it fails the open panel shows it)
APPLIED = "tamalou.applied"
ACKNOWLEDGING = "tamalou.acknowledging"


def discord_clock(interaction: discord.Interaction) -> DiscordClock:
    return bot_of(interaction).discord_clock


def age_ms(interaction: discord.Interaction) -> int:
    """How long ago the click was pressed (its snowflake), in Discord's time."""
    return discord_clock(interaction).age(snowflake_ms(interaction.id))


def applied(interaction: discord.Interaction) -> bool:
    """Whether the click's move was applied and committed (:meth:`Click.act`): whatever
    fails after it, the player is told their move went through, never to try again. A value
    on the click itself, not on the task that applied it (that task is not the click's:
    ``in_time`` runs the action in its own)."""
    return bool(interaction.extras.get(APPLIED))


async def in_time(interaction: discord.Interaction, awaitable: Awaitable[T], deadline_ms: int) -> T:
    """The awaitable's result. When it is not ready by the safety deadline after the click
    was pressed (its snowflake, read in Discord's time: a click delivered late has less
    left; a picture rendered on a busy machine, a storage wait), the click is acknowledged
    first, without a message (a deferred update), so that Discord's 3 s never pass; the
    result then follows (DESIGN, "Answer once"). An acknowledgement Discord refuses (the
    click expired meanwhile) does not stop the result: a move applied is still shown where
    it can be (the member's open panel), one not applied any more is refused
    (``too_late``, logged once there)."""
    task = asyncio.ensure_future(awaitable)
    if interaction.response.is_done():
        return await task
    left = (deadline_ms - age_ms(interaction)) / 1000
    done, _ = await asyncio.wait({task}, timeout=max(0.0, left))
    if not done and not interaction.response.is_done():
        interaction.extras[ACKNOWLEDGING] = True  # on its way: the click may still be applied
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.defer()
    return await task


def too_late(interaction: discord.Interaction, what: str) -> TableError:
    """A click that cannot be answered any more is not applied: logged once (INFO: nothing
    of the move, no secret), and refused (the funnel answers only a click acknowledged)."""
    log.info(
        "interaction %s (%s) pressed %d ms ago: it can no longer be answered within "
        "Discord's %d s; not applied",
        interaction.id,
        what,
        age_ms(interaction),
        DISCORD_ANSWER_MS // 1000,
    )
    return TableError("too_late")


#: the usual shapes
TABLE = Verb("table")
PANEL = Verb("panel")


def numbers(text: str | None, arity: tuple[int, ...] | None = None) -> list[int]:
    """The numbers of ``text`` (``"3.1.12"``), each plain ASCII digits (``"²"`` and ``"١"``
    pass ``isdigit`` and are not), as many as ``arity`` allows; else ``bad_button``."""
    parts = (text or "").split(".")
    if arity is not None and len(parts) not in arity:
        raise TableError("bad_button")
    if not all(p.isascii() and p.isdigit() and len(p) <= MAX_DIGITS for p in parts):
        raise TableError("bad_button")
    return [int(p) for p in parts]


@dataclass(slots=True)
class Click:
    """One play click, checked: what a game's verb is given (computed once a click)."""

    interaction: discord.Interaction
    plugin: GamePlugin
    table: LiveTable
    verb: str
    #: the argument's numbers (the round the button was drawn for first)
    parts: list[int]
    #: a select's chosen values, as Discord sent them (each game reads its own)
    values: list[str]
    seat: int
    lang: str
    #: the press time, from the interaction's snowflake (R-D4)
    at: int
    #: the click comes from the member's private panel (an ephemeral), not the table message
    from_panel: bool
    #: the bot's clock when the click was checked (the game reads the table at this time)
    now: int = 0
    #: the seat's panel state, as the panel desk keeps it (the game's own frozen value)
    state: Any = None

    @property
    def bot(self) -> GameBot:
        return bot_of(self.interaction)

    @property
    def user_id(self) -> int:
        return self.interaction.user.id

    async def act(self, action: Any) -> Outcome:
        """Act through the table service (queued by press time, after the reorder window,
        committed before anything is shown). Its answer is one callback that carries the
        result (DESIGN, "Answer once"), acknowledged first only when the result may not be
        ready by the safety deadline from the press: a click that arrives past it is
        acknowledged before it acts, and not applied if Discord refuses that (its 3 s have
        passed: nobody could be told). In the table's queue, a click not acknowledged is
        applied only before its safety deadline (``may_apply``); after it, its
        acknowledgement is on its way or failed. The outcome says whether the move was
        applied; so does the click itself (:func:`applied`), for the error funnel."""
        bot = self.bot
        interaction = self.interaction
        deadline = bot.config.answer_deadline_ms
        what = f"{self.plugin.game_id}:{self.verb} on table {self.table.id}"
        if not interaction.response.is_done() and age_ms(interaction) >= deadline:
            try:
                await interaction.response.defer()
            except discord.HTTPException as exc:
                raise too_late(interaction, what) from exc

        def may_apply() -> bool:
            if interaction.response.is_done() or interaction.extras.get(ACKNOWLEDGING):
                return True
            return age_ms(interaction) < deadline

        outcome = bot.service.act(self.table, action, self.user_id, may_apply=may_apply)
        try:
            result = await in_time(interaction, outcome, deadline)
        except TableError as exc:
            if exc.reason == "too_late":
                raise too_late(interaction, what) from None
            raise
        if result.error is None:
            interaction.extras[APPLIED] = True
        return result


#: the seat's panel state is left as it is
KEEP: Any = object()


@dataclass(frozen=True, slots=True)
class ShowPanel:
    """Draw the member's panel. ``edit``: update the clicked panel in place (else the
    member's open panel of the round, or a new one); ``step``: the game's panel step (its
    own frozen value: a narrowing); ``state``: the seat's new panel state (:data:`KEEP`:
    unchanged); ``seen``: the click's views, when it read some."""

    edit: bool = True
    step: Any = None
    state: Any = KEEP
    seen: Any = None


@dataclass(frozen=True, slots=True)
class Say:
    """One line to the member (an ephemeral answer)."""

    text: str


@dataclass(frozen=True, slots=True)
class Refuse:
    """A refusal, answered by the error funnel in the member's language."""

    reason: str


@dataclass(frozen=True, slots=True)
class Act:
    """Apply an engine action (queued by press time, committed before anything is shown).

    ``then``: what follows once it is applied, given the outcome (Tamalou's missed double,
    Kalooki's call; None: the member's panel, in place when clicked from it). ``refused``:
    an engine refusal the game shows itself (Kalooki's lay-down refused in its panel; None:
    the error funnel answers it). ``state``: the seat's panel state once it is applied
    (:data:`KEEP`: unchanged)."""

    action: Any
    then: Callable[[Outcome], Answer] | None = None
    refused: Callable[[IllegalAction], Answer] | None = None
    state: Any = KEEP


#: a game's answer to a click
Answer = Act | ShowPanel | Say | Refuse | None


async def carry_out(click: Click, answer: Answer) -> None:
    """Do what the game answered: act, then what follows; a refusal goes to the funnel."""
    if isinstance(answer, Act):
        outcome = await click.act(answer.action)
        if outcome.error is not None:
            if answer.refused is None:
                raise outcome.error  # the one place a refusal of the engine is answered
            answer = answer.refused(outcome.error)
        else:
            if answer.state is not KEEP:
                click.bot.desk.set_state(click.table.id, click.seat, answer.state)
            answer = (
                ShowPanel(edit=click.from_panel) if answer.then is None else answer.then(outcome)
            )
        if isinstance(answer, Act):
            raise TypeError("an action's answer is not another action")
    if answer is None:
        return
    if isinstance(answer, Refuse):
        raise TableError(answer.reason)
    if isinstance(answer, Say):
        await reply(click.interaction, answer.text)
        return
    desk = click.bot.desk
    if answer.state is not KEEP:
        desk.set_state(click.table.id, click.seat, answer.state)
    await desk.show(
        click.interaction,
        click.table,
        click.seat,
        click.lang,
        edit=answer.edit,
        step=answer.step,
        seen=answer.seen,
    )


def check(
    interaction: discord.Interaction,
    plugin: GamePlugin,
    table: LiveTable,
    verb: str,
    arg: str | None,
    values: Sequence[str],
    lang: str,
) -> Click:
    """Steps 3 to 5 of the module's docstring: the click, or the refusal every game gives."""
    spec = plugin.verbs[verb]
    parts = numbers(arg, spec.arity)
    from_panel = clicked.from_ephemeral(interaction)
    if spec.origin == "panel" and not from_panel:
        raise TableError("bad_button")  # a panel's button was never on the public message
    if spec.origin == "table" and from_panel:
        raise TableError("bad_button")
    bot = bot_of(interaction)
    seat = bot.service.seat_for(table, interaction.user.id)
    now = plugin.round_no(table)
    if parts[0] > now:
        raise TableError("bad_button")  # no button of a round to come was ever shown
    if parts[0] != now and not spec.any_round:
        raise TableError("old_round")
    return Click(
        interaction,
        plugin,
        table,
        verb,
        parts,
        list(values),
        seat,
        lang,
        snowflake_ms(interaction.id),
        from_panel,
        bot.service.clock(),
        bot.desk.state(table.id, seat),
    )
