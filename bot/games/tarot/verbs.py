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
from bot.i18n import catalog, t
from bot.tables import LiveTable, TableError
from bot.ui.common import bot_of, reply, snowflake_ms
from bot.ui.errors import refusal_text
from tamalou.core.errors import IllegalAction
from tamalou.games.tarot import actions as A
from tamalou.games.tarot.cards import code as card_code
from tamalou.games.tarot.engine import legal_actions

log = logging.getLogger(__name__)

#: verbs sent from a private panel (their answer updates that panel in place)
PANEL_VERBS = frozenset({"bid", "call", "ecart", "chelem", "poig", "play", "pick"})
TABLE_VERBS = frozenset({"hand", "next"})
VERBS = PANEL_VERBS | TABLE_VERBS
#: how many numbers each verb's argument carries (the deal number first); None: any
ARITY: dict[str, int | None] = {
    "bid": 2,
    "call": 2,
    "chelem": 2,
    "poig": 2,
    "play": 2,
    "hand": 1,
    "next": 1,
    "ecart": None,
    "pick": None,
}


def ints(arg: str | None, count: int | None) -> list[int]:
    """The numbers of a verb's argument (``count`` of them; None: one or more)."""
    parts = (arg or "").split(".")
    if count is not None and len(parts) != count:
        raise TableError("bad_button")
    if not all(p.isdigit() and len(p) <= 9 for p in parts):
        raise TableError("bad_button")
    return [int(p) for p in parts]


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
            if not all(v.isdigit() for v in values):
                raise TableError("bad_button")
            return A.Poignee(seat, tuple(int(v) for v in values), at)
        case "pick" if len(parts) == 2 and parts[1] >= render.PICK_PLAY and len(values) == 1:
            if not values[0].isdigit():
                raise TableError("bad_button")
            return A.Play(seat, int(values[0]), at)
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
    chosen = [*parts[2:], *(int(v) for v in values if v.isdigit())]
    if any(not 0 <= c < 78 for c in chosen):
        raise TableError("bad_button")
    return [card_code(c) for c in dict.fromkeys(chosen)]


def refusal(lang: str, exc: IllegalAction) -> str:
    """An engine refusal in words: tarot's own wording first (``tarot.illegal.<reason>``)."""
    key = f"tarot.illegal.{exc.reason}"
    if key in catalog(lang) or key in catalog("en"):
        return t(lang, key, **exc.detail)
    return refusal_text(lang, exc)


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
    if verb == "hand":  # the panel shows the deal as it is now, whichever deal the button saw
        await interaction.response.defer(ephemeral=True, thinking=True)
        await show_panel(interaction, table, seat, lang, edit=False)
        return
    if parts[0] != game.deal.deal_no:
        raise TableError("old_round")
    from_panel = verb in PANEL_VERBS
    if verb == "pick" and len(parts) >= 2 and parts[1] < render.PICK_PLAY:
        await interaction.response.defer()  # the écart so far: no action until it is sent
        await show_panel(interaction, table, seat, lang, True, pending_ecart(parts, values))
        return
    if verb == "poig":
        action: A.Action = poignee(table, seat, parts[1], at)
    else:
        action = build_action(verb, seat, parts, values, at)
    await interaction.response.defer()
    outcome = await service.act(table, action, interaction.user.id)
    if outcome.error is not None:
        await reply(interaction, refusal(lang, outcome.error))
        return
    if verb == "next":
        return
    await show_panel(interaction, table, seat, lang, edit=from_panel)
