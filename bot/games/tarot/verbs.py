"""Tarot's button verbs: a click's verb and argument → the engine action it asks for.

No rule is decided here: the engine refuses what is not legal, and its reason is answered
in the player's language (an illegal card says why: follow the suit, trump, overtrump…).
The panel only offers what ``legal_actions`` lists; a stale or forged button reaches the
engine all the same and is refused there.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.games.tarot import render
from bot.tables import LiveTable, TableError
from bot.ui.common import bot_of
from bot.ui.pipeline import Click, Verb, numbers
from tamalou.games.tarot import actions as A
from tamalou.games.tarot.cards import code as card_code
from tamalou.games.tarot.engine import legal_actions

log = logging.getLogger(__name__)

#: every verb and what the platform checks of it (bot/ui/pipeline.py): where its component
#: lives and how many numbers its argument carries (the deal number first)
VERBS: dict[str, Verb] = {
    "bid": Verb("panel", (2,)),
    "call": Verb("panel", (2,)),
    "chelem": Verb("panel", (2,)),
    "poig": Verb("panel", (2,)),
    "play": Verb("panel", (2,)),
    "ecart": Verb("panel", None),
    "pick": Verb("panel", None),
    # the panel shows the deal as it is now, whichever deal the button saw
    "hand": Verb("table", any_round=True),
    "next": Verb("any"),
}


def ints(arg: str | None, count: int | None) -> list[int]:
    """The numbers of a verb's argument (``count`` of them; None: one or more)."""
    return numbers(arg, None if count is None else (count,))


def build_action(verb: str, seat: int, parts: list[int], values: list[str], at: int) -> A.Action:
    """The action a verb asks for (``parts[0]`` is the deal number)."""
    match verb:
        case "bid":
            return A.Bid(seat, parts[1], at)
        case "call":
            return A.CallKing(seat, parts[1], at)
        case "chelem":
            return A.Chelem(seat, bool(parts[1]), at)
        case "play":
            return A.Play(seat, parts[1], at)
        case "ecart":
            return A.Ecart(seat, tuple(parts[1:]), at)
        case "next":
            return A.NextDeal(seat, at)
        case "pick" if len(parts) == 2 and parts[1] == render.PICK_POIGNEE:
            return A.Poignee(seat, tuple(numbers(v, (1,))[0] for v in values), at)
        case "pick" if len(parts) == 2 and parts[1] >= render.PICK_PLAY and len(values) == 1:
            return A.Play(seat, numbers(values[0], (1,))[0], at)
    raise TableError("bad_button")


def poignee(table: LiveTable, seat: int, level: int, at: int) -> A.Poignee:
    """The engine's way of showing poignée ``level`` now (T-A2), or a refusal."""
    game = table.game
    for a in legal_actions(game, seat, at):
        if isinstance(a, A.Poignee) and render.level_of(table, len(a.cards)) == level:
            return a
    raise TableError("stale_choice")


def pending_ecart(parts: list[int], values: list[str]) -> list[str]:
    """The écart cards chosen so far: those of the other selects (in the argument) and this
    select's values."""
    chosen = [*parts[2:], *(numbers(v, (1,))[0] for v in values)]
    if any(not 0 <= c < 78 for c in chosen):
        raise TableError("bad_button")
    return [card_code(c) for c in dict.fromkeys(chosen)]


async def show_panel(
    interaction: discord.Interaction,
    table: LiveTable,
    seat: int,
    lang: str,
    edit: bool,
    pending: Sequence[str] | None = None,
) -> None:
    """Send (or update in place) the player's panel; the presenter attaches the picture of
    their hand the panel carries (``Panel.picture``)."""
    await bot_of(interaction).presenter.show_panel(
        interaction, table, seat, lang, edit, pending=pending
    )


async def on_click(click: Click) -> None:
    interaction, table, seat, lang, at = (
        click.interaction,
        click.table,
        click.seat,
        click.lang,
        click.at,
    )
    verb, parts, values = click.verb, click.parts, click.values
    if verb == "hand":  # the member's open panel of the deal, edited (or a new one)
        await show_panel(interaction, table, seat, lang, edit=False)
        return
    if verb == "pick" and len(parts) >= 2 and parts[1] < render.PICK_PLAY:
        await show_panel(interaction, table, seat, lang, True, pending_ecart(parts, values))
        return
    if verb == "poig":
        action: A.Action = poignee(table, seat, parts[1], at)
    else:
        action = build_action(verb, seat, parts, values, at)
    outcome = await click.act(action)
    if outcome.error is not None:
        raise outcome.error  # in tarot's own words first (tarot.illegal.<reason>)
    if verb == "next":
        return
    await show_panel(interaction, table, seat, lang, edit=click.from_panel)
