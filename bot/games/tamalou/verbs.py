"""Tamalou's button verbs: a click's verb and argument → the engine action it asks for.

No rule is decided here: the engine refuses what is not legal (and the refusal is
answered through the error funnel); the panel only offers what ``legal_actions`` lists.
"""

from __future__ import annotations

from typing import cast

from bot.games.tamalou import render, variants
from bot.i18n import t
from bot.tables import TableError
from bot.ui import choices
from bot.ui.common import reply
from bot.ui.pipeline import PANEL, Click, Verb, numbers
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.codec import action_to_dict
from tamalou.games.tamalou.engine import legal_actions
from tamalou.games.tamalou.state import Game

#: every verb and what the platform checks of it (bot/ui/pipeline.py): where its component
#: lives and how many numbers its argument carries (the round number first). ``for`` opens
#: the narrowing of a play for someone (R-X10), ``dfor`` plays it (steps.py); ``repg``
#: narrows a long row's replacements (``<round>[.<group>…]``, groups of ``grid.narrow``).
VERBS: dict[str, Verb] = {
    "draw": Verb("any"),
    "take": Verb("any"),
    "call": Verb("any"),
    "hand": Verb("table", any_round=True),
    "dbl": Verb("table", (3,)),
    "next": Verb("table"),
    "for": Verb("table"),
    "dfor": Verb("panel", (5,)),
    "rep": Verb("panel", (2,)),
    "repg": Verb("panel", None),
    "throw": PANEL,
    "replay": PANEL,
    "pass": PANEL,
    "peek": PANEL,
    "look": Verb("panel", (2,)),
    "qmine": Verb("panel", (2,)),
    "qswap": Verb("panel", (2,)),
    "act": Verb("panel", None),
    "pick": PANEL,
    "step": Verb("panel", None),
}


def ints(arg: str | None, count: int | None) -> list[int]:
    """The numbers of a verb's argument (``count`` of them; None: one or more)."""
    return numbers(arg, None if count is None else (count,))


def chosen(
    game: Game, seat: int, verb: str, parts: list[int], values: list[str], at: int
) -> A.Action:
    """The generic fallback's choice (``act`` button, ``pick`` select), if it is legal now."""
    if verb == "act":
        code = ".".join(str(p) for p in parts[1:])
    elif len(values) == 1:
        code = ".".join(str(n) for n in numbers(values[0]))
    else:
        raise TableError("bad_button")
    action = choices.resolve(code, legal_actions(game, seat, at), render.KINDS, action_to_dict)
    if action is None:
        raise TableError("stale_choice")
    return cast(A.Action, action)


def build_action(verb: str, seat: int, parts: list[int], values: list[str], at: int) -> A.Action:
    match verb:
        case "draw":
            return A.Draw(seat, at)
        case "take":
            return A.TakeDiscard(seat, at)
        case "call":
            return A.CallTamalou(seat, at)
        case "peek":
            return A.Peek(seat, at)
        case "dbl":
            return A.Double(seat, parts[1], parts[2], at)
        case "dfor":  # R-X10: a race like any double; the engine judges it, even when late
            return A.DoubleFor(seat, parts[1], parts[2], parts[3], parts[4], at)
        case "rep":
            return A.Replace(seat, parts[1], at)
        case "throw":
            return A.Throw(seat, at)
        case "replay":
            return A.Replay(seat, at)
        case "pass":
            return A.Pass(seat, at)
        case "look":
            return A.Look(seat, seat, parts[1], at)
        case "next":
            return A.NextRound(seat, at)
        case "qswap":
            if len(values) != 1:
                raise TableError("bad_button")
            target, target_slot = ints(values[0], 2)
            return A.Swap(seat, parts[1], target, target_slot, at)
    raise TableError("bad_button")


async def on_click(click: Click) -> None:
    interaction, table, seat, lang, at = (
        click.interaction,
        click.table,
        click.seat,
        click.lang,
        click.at,
    )
    bot = click.bot
    game = table.game
    verb, parts, from_panel = click.verb, click.parts, click.from_panel
    # Defer only before a wait (storage, the reorder window): "My cards" and the refusals
    # known at once answer in one call instead of a defer and a followup.
    if verb == "qmine":
        await bot.presenter.show_panel(
            interaction, table, seat, lang, edit=True, queen_slot=parts[1]
        )
        return
    if verb == "repg":  # a long row: a group of slots to replace from (grid.narrow)
        await bot.presenter.show_panel(
            interaction, table, seat, lang, edit=True, rep_group=tuple(parts[1:])
        )
        return
    if verb in ("step", "for"):  # narrow a many-choice move (steps.py); nothing is played
        step = parts[1:] if verb == "step" else [render.KINDS.index("double_for")]
        await bot.presenter.show_panel(
            interaction, table, seat, lang, edit=verb == "step", step=tuple(step) or None
        )
        return
    if verb == "hand":
        if any(a.kind == "peek" for a in legal_actions(game, seat, at)):  # R-S5: open your peek
            verb = "peek"
        else:
            await bot.presenter.show_panel(interaction, table, seat, lang, edit=False)
            return
    if verb in ("act", "pick"):
        action = chosen(game, seat, verb, parts, click.values, at)
    else:
        action = build_action(verb, seat, parts, click.values, at)
    outcome = await click.act(action)
    if outcome.error is not None:
        raise outcome.error
    missed = [e for e in outcome.events if isinstance(e, E.DoubleMissed) and e.player == seat]
    if missed:
        await reply(interaction, variants.missed_text(table, missed[0], outcome.events, lang))
        return
    if verb in ("dbl", "dfor", "next"):
        if any(isinstance(e, E.Claimed) and e.player == seat for e in outcome.events):
            await reply(interaction, t(lang, "double.claimed"))  # R-X11: settled at the close
        elif verb != "next":
            await reply(
                interaction, t(lang, "double.done_for" if verb == "dfor" else "double.done")
            )
        return
    await bot.presenter.show_panel(interaction, table, seat, lang, edit=from_panel)
