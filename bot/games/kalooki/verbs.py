"""Kalooki's button and select verbs: a click → the engine action it asks for, or a step of
building a lay-down in the panel.

No rule is decided here: the engine refuses what is not legal (answered through the error
funnel), a lay-down is checked by the engine's ``check_lay_down`` before it is sent, and
the panel only offers what ``legal_actions`` lists.
"""

from __future__ import annotations

import logging

import discord

from bot.games.kalooki import drafts, render
from bot.i18n import t
from bot.tables import LiveTable, TableError
from bot.ui.common import bot_of, reply, snowflake_ms
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.rules import RUN, SET
from tamalou.games.kalooki.views import public_view

log = logging.getLogger(__name__)

#: verbs sent from a private panel (their answer updates that panel in place)
PANEL_VERBS = frozenset(
    {"pick", "sort", "build", "back", "clear", "sugg", "lay", "meld", "set", "run", "end"}
)
#: verbs of the table message (and the panel's own Draw/Take/Call/Next buttons)
TABLE_VERBS = frozenset({"draw", "take", "call", "hand", "next"})
VERBS = PANEL_VERBS | TABLE_VERBS
#: a table verb sent from the panel carries one more number (a 1): its answer edits the panel
PANEL_ARITY = {"draw": 2, "take": 2, "next": 2, "call": 3}
#: ``pick`` selects: what the second number of the argument names
PICK_DISCARD, PICK_LAY_OFF, PICK_MELD, PICK_NEW_MELD, PICK_LAY_CARD = 1, 2, 3, 4, 5


def ints(arg: str | None) -> list[int]:
    """The numbers of a verb's argument (the round number first)."""
    parts = (arg or "").split(".")
    if not all(p.isdigit() and len(p) <= 9 for p in parts):
        raise TableError("bad_button")
    return [int(p) for p in parts]


def cards_of(values: list[str]) -> list[int]:
    if not all(v.isdigit() and len(v) <= 4 for v in values):
        raise TableError("bad_button")
    return [int(v) for v in values]


def lay_off_action(seat: int, value: str, at: int) -> A.LayOff | A.ShiftJoker:
    """A lay-off select's value (``render.lay_off_value``) as its action."""
    parts = ints(value)
    end = lambda n: "low" if n == 0 else "high"  # noqa: E731
    if parts[0] == 1 and len(parts) == 4:
        return A.LayOff(seat, parts[1], parts[2], end(parts[3]), at)
    if parts[0] == 2 and len(parts) == 5:
        return A.ShiftJoker(seat, parts[1], parts[2], parts[3], end(parts[4]), at)
    raise TableError("bad_button")


def build_action(verb: str, seat: int, parts: list[int], values: list[str], at: int) -> A.Action:
    """The engine action of a click (table buttons, discard and lay-off selects)."""
    match verb:
        case "draw":
            return A.Draw(seat, at)
        case "take":
            return A.TakeDiscard(seat, at)
        case "call":
            return A.Call(seat, parts[1] if len(parts) > 1 else None, at)
        case "next":
            return A.NextRound(seat, at)
        case "end":
            return A.EndTurn(seat, at)
        case "pick" if len(parts) == 2 and len(values) == 1:
            if parts[1] == PICK_DISCARD:
                return A.Discard(seat, cards_of(values)[0], at)
            if parts[1] == PICK_LAY_OFF:
                return lay_off_action(seat, values[0], at)
    raise TableError("bad_button")


async def send_panel(
    interaction: discord.Interaction, table: LiveTable, seat: int, lang: str, edit: bool
) -> None:
    """The seat's panel as an ephemeral (or in place); the presenter attaches its picture."""
    await bot_of(interaction).presenter.show_panel(interaction, table, seat, lang, edit=edit)


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
    game = render.game_of(table)
    parts = ints(arg)
    if parts[0] != game.round.round_no:
        raise TableError("old_round")
    from_panel = verb in PANEL_VERBS or len(parts) == PANEL_ARITY.get(verb)
    if verb == "hand":
        await send_panel(interaction, table, seat, lang, edit=False)
        return
    if from_panel and await panel_step(interaction, table, seat, verb, parts, values, lang):
        return
    action = build_action(verb, seat, parts, values, at)
    if verb in ("draw", "take") and not from_panel:
        await interaction.response.defer(ephemeral=True, thinking=True)  # the panel follows
    else:
        await interaction.response.defer()
    outcome = await service.act(table, action, interaction.user.id)
    if outcome.error is not None:
        raise outcome.error
    d = drafts.peek(table.id, seat)
    if d is not None:
        d.refusal = None
    if verb == "call":
        called = [e for e in outcome.events if isinstance(e, E.Called) and e.player == seat]
        if called:
            await reply(interaction, t(lang, "kalooki.ok.called", card=render.face(called[0].card)))
        return
    if verb == "next":
        return
    await send_panel(interaction, table, seat, lang, edit=from_panel)


async def panel_step(
    interaction: discord.Interaction,
    table: LiveTable,
    seat: int,
    verb: str,
    parts: list[int],
    values: list[str],
    lang: str,
) -> bool:
    """A step of the panel that changes only the panel (True), or an action to send (False)."""
    game = render.game_of(table)
    pub = public_view(game, game.now)
    d = drafts.draft(table.id, seat, pub.round_no, pub.deal_no, len(pub.contract))
    hand = set(game.round.seats[seat].hand)
    match verb:
        case "sort":
            drafts.toggle_sort(table.id, seat)
        case "build":
            d.mode, d.refusal = "build", None
        case "meld":
            d.mode, d.refusal, d.extra = "meld", None, []
        case "back":
            d.mode, d.refusal = "main", None
        case "clear":
            d.melds = [[] for _ in pub.contract]
            d.refusal = None
        case "sugg":
            seen = render.view(game, seat, bot_of(interaction).service.clock())
            if seen.suggested_lay_down is None:
                raise TableError("stale_choice")
            d.mode, d.refusal = "build", None
            d.melds = [list(c) for _, c in seen.suggested_lay_down]
        case "pick" if len(parts) == 3 and parts[1] == PICK_MELD:
            index = parts[2]
            if not 0 <= index < len(d.melds):
                raise TableError("bad_button")
            picked = [c for c in cards_of(values) if c in hand]
            for i, other in enumerate(d.melds):  # a card belongs to one meld
                if i != index:
                    other[:] = [c for c in other if c not in picked]
            d.melds[index] = picked
            d.refusal = None
        case "pick" if len(parts) == 2 and parts[1] == PICK_NEW_MELD:
            d.extra = [c for c in cards_of(values) if c in hand]
            d.refusal = None
        case "pick" if len(parts) == 2 and parts[1] == PICK_LAY_CARD:
            picked = [c for c in cards_of(values) if c in hand]
            d.lay_card = picked[0] if picked else None
        case "lay":
            refusal = render.check_draft(game, seat, pub.contract, d)
            if refusal is None:
                melds = tuple((kind, tuple(d.melds[i])) for i, kind in enumerate(pub.contract))
                await act_from_panel(interaction, table, seat, A.LayDown(seat, melds, 0), lang)
                return True
            meld = refusal.detail.get("meld")
            d.refusal = (int(meld) if isinstance(meld, int) else 0, refusal.reason)
        case "set" | "run":
            kind = SET if verb == "set" else RUN
            action = A.LayMeld(seat, kind, tuple(d.extra), 0)
            await act_from_panel(interaction, table, seat, action, lang)
            return True
        case _:
            return False
    await interaction.response.defer()
    await send_panel(interaction, table, seat, lang, edit=True)
    return True


async def act_from_panel(
    interaction: discord.Interaction, table: LiveTable, seat: int, action: A.Action, lang: str
) -> None:
    """Send a lay built in the panel; a refusal is shown in the panel (which meld, why)."""
    action.at = snowflake_ms(interaction.id)
    await interaction.response.defer()
    outcome = await bot_of(interaction).service.act(table, action, interaction.user.id)
    game = render.game_of(table)
    pub = public_view(game, game.now)
    d = drafts.draft(table.id, seat, pub.round_no, pub.deal_no, len(pub.contract))
    if outcome.error is not None:
        meld = outcome.error.detail.get("meld")
        d.refusal = (int(meld) if isinstance(meld, int) else 0, outcome.error.reason)
    else:
        d.mode, d.refusal, d.extra = "main", None, []
        d.melds = [[] for _ in pub.contract]
    await send_panel(interaction, table, seat, lang, edit=True)
