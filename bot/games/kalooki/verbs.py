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
from bot.ui.common import bot_of, reply
from bot.ui.pipeline import PANEL, Click, Verb, numbers
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.rules import RUN, SET
from tamalou.games.kalooki.views import public_view

log = logging.getLogger(__name__)

#: every verb and what the platform checks of it (bot/ui/pipeline.py): where its component
#: lives and how many numbers its argument carries (the round number first). Draw, Take,
#: Call and Next are on the table message and on the panel (there they carry one more
#: number, a 1, so the two buttons differ); the answer edits the panel a click comes from.
VERBS: dict[str, Verb] = {
    "draw": Verb("any", (1, 2)),
    "take": Verb("any", (1, 2)),
    "call": Verb("any", (1, 2, 3)),
    "next": Verb("any", (1, 2)),
    "hand": Verb("table", any_round=True),
    "pick": Verb("panel", (2, 3)),
    **{verb: PANEL for verb in ("sort", "build", "back", "clear", "sugg", "lay", "meld")},
    **{verb: PANEL for verb in ("set", "run", "end")},
}
#: ``pick`` selects: what the second number of the argument names
PICK_DISCARD, PICK_LAY_OFF, PICK_MELD, PICK_NEW_MELD, PICK_LAY_CARD = 1, 2, 3, 4, 5


def ints(arg: str | None) -> list[int]:
    """The numbers of a verb's argument (the round number first)."""
    return numbers(arg)


def cards_of(values: list[str]) -> list[int]:
    """A card select's values (card codes); ``bad_button`` for anything else."""
    return [numbers(v, (1,))[0] for v in values]


def lay_off_action(seat: int, value: str, at: int) -> A.LayOff | A.ShiftJoker:
    """A lay-off select's value (``render.lay_off_value``) as its action."""
    parts = numbers(value)
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


async def on_click(click: Click) -> None:
    interaction, table, seat, lang, at = (
        click.interaction,
        click.table,
        click.seat,
        click.lang,
        click.at,
    )
    verb, parts, values, from_panel = click.verb, click.parts, click.values, click.from_panel
    if verb == "hand":
        await send_panel(interaction, table, seat, lang, edit=False)
        return
    if from_panel and await panel_step(click):
        return
    action = build_action(verb, seat, parts, values, at)
    outcome = await click.act(action)
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


async def panel_step(click: Click) -> bool:
    """A step of the panel that changes only the panel (True), or an action to send (False)."""
    interaction, table, seat, lang = click.interaction, click.table, click.seat, click.lang
    verb, parts, values = click.verb, click.parts, click.values
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
            ranges = [render.lay_card_of(v) for v in values]  # a card, maybe a range of it
            d.lay_card, d.lay_group = ranges[0] if ranges and ranges[0][0] in hand else (None, None)
        case "lay":
            refusal = render.check_draft(game, seat, pub.contract, d)
            if refusal is None:
                melds = tuple((kind, tuple(d.melds[i])) for i, kind in enumerate(pub.contract))
                await act_from_panel(click, A.LayDown(seat, melds, 0))
                return True
            meld = refusal.detail.get("meld")
            d.refusal = (int(meld) if isinstance(meld, int) else 0, refusal.reason)
        case "set" | "run":
            kind = SET if verb == "set" else RUN
            action = A.LayMeld(seat, kind, tuple(d.extra), 0)
            await act_from_panel(click, action)
            return True
        case _:
            return False
    await send_panel(interaction, table, seat, lang, edit=True)
    return True


async def act_from_panel(click: Click, action: A.Action) -> None:
    """Send a lay built in the panel; a refusal is shown in the panel (which meld, why)."""
    interaction, table, seat, lang = click.interaction, click.table, click.seat, click.lang
    action.at = click.at
    outcome = await click.act(action)
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
