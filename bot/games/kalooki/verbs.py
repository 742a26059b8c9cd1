"""Kalooki's button and select verbs: each verb's argument (and each select's values)
encoded for the components that carry it and decoded here; a click → the engine action it
asks for, or a step of building a lay-down in the panel.

No rule is decided here: the engine refuses what is not legal (answered through the error
funnel), a lay-down is checked by the engine's ``check_lay_down`` before it is sent, and
the panel only offers what ``legal_actions`` lists.

Custom ids are ``kalooki:<verb>:<table>[:<round>.<number>…]``: the round the component was
drawn for first (the platform checks it), then the verb's numbers (:func:`cid`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.games.kalooki import drafts
from bot.games.kalooki.faces import face, group_ranges, sorted_hand
from bot.games.kalooki.seen import Seen, seen_at
from bot.i18n import t
from bot.tables import TableError
from bot.ui import grid
from bot.ui.common import reply
from bot.ui.pipeline import PANEL, Click, Verb, numbers
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.rules import RUN, SET

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
    "pick": Verb("panel", (2, 3, 4)),
    # a hand longer than a select holds: which 25 cards the selects list (``<round>.<group>``)
    "cards": Verb("panel", (2,)),
    **{verb: PANEL for verb in ("sort", "build", "back", "clear", "sugg", "lay", "meld")},
    **{verb: PANEL for verb in ("set", "run", "end")},
}
#: ``pick`` selects: what the second number of the argument names
PICK_DISCARD, PICK_LAY_OFF, PICK_MELD, PICK_NEW_MELD, PICK_LAY_CARD = 1, 2, 3, 4, 5
#: the last number of the panel's copies of table buttons (Draw, Take, Call, Next), so that
#: the two differ
ON_PANEL = 1
GAME = "kalooki"
#: a select's options (Discord)
MAX_OPTIONS = grid.OPTIONS


# -- encoding: what each component carries ------------------------------------------------


def cid(verb: str, table: int, *parts: int) -> str:
    """``kalooki:<verb>:<table>[:<part>.<part>…]`` (the round first; the state is in the
    service, not the View)."""
    base = f"{GAME}:{verb}:{table}"
    return f"{base}:{'.'.join(str(p) for p in parts)}" if parts else base


def card_value(card: int) -> str:
    """A card select's option (discard, a meld's cards): the card's id."""
    return str(card)


def lay_off_value(a: A.LayOff | A.ShiftJoker) -> str:
    """``1.<card>.<meld>.<end>`` (a lay-off) or ``2.<card>.<meld>.<joker>.<end>`` (a shift)."""
    end = 0 if a.end == "low" else 1
    if isinstance(a, A.ShiftJoker):
        return f"2.{a.card}.{a.meld}.{a.joker}.{end}"
    return f"1.{a.card}.{a.meld}.{end}"


def lay_card_value(card: int, group: int | None = None) -> str:
    """A lay card select's value: ``<card>``, or ``<card>.<group>`` for one range of the
    lay-offs of a card that fits more places than one list holds (``grid.narrow``)."""
    return str(card) if group is None else f"{card}.{group}"


# -- decoding: a click → the engine action, or a step of the panel --------------------------


def ints(arg: str | None) -> list[int]:
    """The numbers of a verb's argument (the round number first)."""
    return numbers(arg)


def cards_of(values: list[str]) -> list[int]:
    """A card select's values (:func:`card_value`); ``bad_button`` for anything else."""
    return [numbers(v, (1,))[0] for v in values]


def lay_card_of(value: str) -> tuple[int, int | None]:
    """:func:`lay_card_value` read back (the card, the range); else ``bad_button``."""
    parts = numbers(value)
    if len(parts) == 1:
        return parts[0], None
    if len(parts) == 2:
        return parts[0], parts[1]
    raise TableError("bad_button")


def lay_off_action(seat: int, value: str, at: int) -> A.LayOff | A.ShiftJoker:
    """A lay-off select's value (:func:`lay_off_value`) as its action."""
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


async def send_panel(click: Click, edit: bool, seen: Seen | None = None) -> None:
    """The seat's panel as an ephemeral (or in place); the presenter attaches its picture.
    ``seen``: the click's views, when it read some (the panel reads them again for free)."""
    await click.bot.presenter.show_panel(
        click.interaction, click.table, click.seat, click.lang, edit=edit, seen=seen
    )


async def on_click(click: Click) -> None:
    interaction, seat, lang, at = click.interaction, click.seat, click.lang, click.at
    verb, parts, values, from_panel = click.verb, click.parts, click.values, click.from_panel
    if verb == "hand":
        await send_panel(click, edit=False)
        return
    if from_panel and await panel_step(click):
        return
    action = build_action(verb, seat, parts, values, at)
    outcome = await click.act(action)
    if outcome.error is not None:
        raise outcome.error
    d = drafts.peek(click.table.id, seat)
    if d is not None:
        d.refusal = None
    if verb == "call":
        called = [e for e in outcome.events if isinstance(e, E.Called) and e.player == seat]
        if called:
            await reply(interaction, t(lang, "kalooki.ok.called", card=face(called[0].card)))
        return
    if verb == "next":
        return
    await send_panel(click, edit=from_panel)


#: the panel's own verbs (besides its ``pick`` selects of melds and lay cards)
STEPS = frozenset({"sort", "build", "meld", "back", "clear", "sugg", "lay", "set", "run", "cards"})


def listed_cards(seen: Seen, seat: int, group: Sequence[int]) -> set[int]:
    """The cards a card select listed: the group of the hand its id names (the hand in the
    seat's order, in groups a select holds), or the whole hand (an id without a group)."""
    hand = seen.game.round.seats[seat].hand
    if not group:
        return set(hand)
    ordered = sorted_hand(hand, drafts.sort_of(seen.table.id, seat))
    groups = group_ranges(len(ordered))
    if not 0 <= group[0] < len(groups):
        raise TableError("stale_choice")
    return {ordered[i] for i in groups[group[0]]}


def draft_of(seen: Seen, seat: int) -> drafts.Draft:
    """The seat's lay-down being built in this deal (read from its view, which its panel
    reads too)."""
    pub = seen.view(seat).public
    return drafts.draft(seen.table.id, seat, pub.round_no, pub.deal_no, len(pub.contract))


async def panel_step(click: Click) -> bool:
    """A step of the panel that changes only the panel (True), or an action to send (False)."""
    table, seat = click.table, click.seat
    verb, parts, values = click.verb, click.parts, click.values
    if verb not in STEPS and not (
        verb == "pick" and parts[1:2] in ([PICK_MELD], [PICK_NEW_MELD], [PICK_LAY_CARD])
    ):
        return False  # an action (nothing read for it here)
    seen = seen_at(table, click.bot.service.clock())
    game = seen.game
    contract = seen.view(seat).public.contract
    d = draft_of(seen, seat)
    hand = set(game.round.seats[seat].hand)
    match verb:
        case "sort":
            drafts.toggle_sort(table.id, seat)
        case "cards":
            d.card_group = parts[1]  # one the panel does not have is read as the first
        case "build":
            d.mode, d.refusal = "build", None
        case "meld":
            d.mode, d.refusal, d.extra = "meld", None, []
        case "back":
            d.mode, d.refusal = "main", None
        case "clear":
            d.melds = [[] for _ in contract]
            d.refusal = None
        case "sugg":
            suggested = seen.view(seat).suggested_lay_down
            if suggested is None:
                raise TableError("stale_choice")
            d.mode, d.refusal = "build", None
            d.melds = [list(c) for _, c in suggested]
        case "pick" if len(parts) in (3, 4) and parts[1] == PICK_MELD:
            index = parts[2]
            if not 0 <= index < len(d.melds):
                raise TableError("bad_button")
            listed = listed_cards(seen, seat, parts[3:])
            picked = [c for c in cards_of(values) if c in hand and c in listed]
            for i, other in enumerate(d.melds):  # a card belongs to one meld
                if i != index:
                    other[:] = [c for c in other if c not in picked]
            # the cards of the meld the select did not list (another group) stay picked
            d.melds[index] = [c for c in d.melds[index] if c not in listed] + picked
            d.refusal = None
        case "pick" if len(parts) in (2, 3) and parts[1] == PICK_NEW_MELD:
            listed = listed_cards(seen, seat, parts[2:])
            picked = [c for c in cards_of(values) if c in hand and c in listed]
            d.extra = [c for c in d.extra if c not in listed] + picked
            d.refusal = None
        case "pick" if len(parts) == 2 and parts[1] == PICK_LAY_CARD:
            ranges = [lay_card_of(v) for v in values]  # a card, maybe a range of it
            d.lay_card, d.lay_group = ranges[0] if ranges and ranges[0][0] in hand else (None, None)
        case "lay":
            refusal = drafts.check_draft(game, seat, contract, d)
            if refusal is None:
                melds = tuple((kind, tuple(d.melds[i])) for i, kind in enumerate(contract))
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
    await send_panel(click, edit=True, seen=seen)
    return True


async def act_from_panel(click: Click, action: A.Action) -> None:
    """Send a lay built in the panel; a refusal is shown in the panel (which meld, why)."""
    table, seat = click.table, click.seat
    action.at = click.at
    outcome = await click.act(action)
    seen = seen_at(table, click.bot.service.clock())  # the table after the lay
    d = draft_of(seen, seat)
    if outcome.error is not None:
        meld = outcome.error.detail.get("meld")
        d.refusal = (int(meld) if isinstance(meld, int) else 0, outcome.error.reason)
    else:
        d.mode, d.refusal, d.extra = "main", None, []
        d.melds = [[] for _ in seen.view(seat).public.contract]
    await send_panel(click, edit=True, seen=seen)
