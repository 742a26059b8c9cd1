"""Tamalou's button verbs: a click's verb and argument → the engine action it asks for.

No rule is decided here: the engine refuses what is not legal (and the refusal is
answered through the error funnel); the panel only offers what ``legal_actions`` lists.
"""

from __future__ import annotations

from typing import cast

import discord

from bot.games.tamalou import render, variants
from bot.i18n import t
from bot.tables import LiveTable, TableError
from bot.ui import choices, clicked
from bot.ui.common import bot_of, reply, snowflake_ms
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.codec import action_to_dict
from tamalou.games.tamalou.engine import legal_actions
from tamalou.games.tamalou.state import Game

#: verbs sent from a private panel (their answer updates that panel in place)
PANEL_VERBS = frozenset(
    {"rep", "throw", "replay", "pass", "look", "qmine", "qswap", "peek", "act", "pick", "step"}
)
#: ``for`` opens the narrowing of a play for someone (R-X10), ``dfor`` plays it (steps.py)
TABLE_VERBS = frozenset({"draw", "take", "call", "hand", "dbl", "next", "for", "dfor"})
VERBS = PANEL_VERBS | TABLE_VERBS
#: how many numbers each verb's argument carries (the round number first; None: 1 or more)
ARITY: dict[str, int | None] = {
    "dbl": 3,
    "rep": 2,
    "look": 2,
    "qmine": 2,
    "qswap": 2,
    "dfor": 5,
    "act": None,
    "step": None,
}


def ints(arg: str | None, count: int | None) -> list[int]:
    """The numbers of a verb's argument (``count`` of them; None: one or more)."""
    parts = (arg or "").split(".")
    if count is not None and len(parts) != count:
        raise TableError("bad_button")
    if not all(p.isascii() and p.isdigit() and len(p) <= 9 for p in parts):  # not "²"
        raise TableError("bad_button")
    return [int(p) for p in parts]


def chosen(
    game: Game, seat: int, verb: str, parts: list[int], values: list[str], at: int
) -> A.Action:
    """The generic fallback's choice (``act`` button, ``pick`` select), if it is legal now."""
    if verb == "act":
        code = ".".join(str(p) for p in parts[1:])
    elif len(values) == 1:
        code = values[0]
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


async def on_verb(
    interaction: discord.Interaction,
    table: LiveTable,
    verb: str,
    arg: str | None,
    values: list[str],
    lang: str,
) -> None:
    bot = bot_of(interaction)
    service = bot.service
    at = snowflake_ms(interaction.id)
    seat = service.seat_for(table, interaction.user.id)
    game = table.game
    assert game is not None
    parts = ints(arg, ARITY.get(verb, 1))
    if parts[0] > game.round.round_no:
        raise TableError("bad_button")  # no button of a round to come was ever shown
    if parts[0] != game.round.round_no:
        raise TableError("old_round")
    # The message a click comes from says what it answers: a click on the player's own
    # panel updates that panel; a panel's button on the public message (never shown there)
    # would overwrite the table message with a player's panel.
    from_panel = clicked.from_ephemeral(interaction)
    if verb in PANEL_VERBS and not from_panel:
        raise TableError("bad_button")
    # Defer only before a wait (storage, the reorder window): "My cards" and the refusals
    # known at once answer in one call instead of a defer and a followup.
    if verb == "qmine":
        await interaction.response.defer()
        await bot.presenter.show_panel(
            interaction, table, seat, lang, edit=True, queen_slot=parts[1]
        )
        return
    if verb in ("step", "for"):  # narrow a many-choice move (steps.py); nothing is played
        step = parts[1:] if verb == "step" else [render.KINDS.index("double_for")]
        if verb == "step":
            await interaction.response.defer()
        await bot.presenter.show_panel(
            interaction, table, seat, lang, edit=verb == "step", step=tuple(step) or None
        )
        return
    asked = verb == "hand"  # "My cards": a new panel, even when the peek is its answer
    if verb == "hand":
        if any(a.kind == "peek" for a in legal_actions(game, seat, at)):  # R-S5: open your peek
            verb = "peek"
        else:
            await bot.presenter.show_panel(interaction, table, seat, lang, edit=False)
            return
    if verb in ("act", "pick"):
        action = chosen(game, seat, verb, parts, values, at)
    else:
        action = build_action(verb, seat, parts, values, at)
    await interaction.response.defer()
    outcome = await service.act(table, action, interaction.user.id)
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
    await bot.presenter.show_panel(
        interaction, table, seat, lang, edit=from_panel, reuse=not (from_panel or asked)
    )
