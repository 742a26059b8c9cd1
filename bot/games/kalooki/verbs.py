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
from dataclasses import replace

from bot.games.kalooki import drafts
from bot.games.kalooki.faces import face, group_ranges, sorted_hand
from bot.games.kalooki.seen import Seen, seen_at
from bot.i18n import t
from bot.tables import TableError
from bot.tables.service import Outcome
from bot.ui import grid
from bot.ui.pipeline import KEEP, PANEL, Act, Answer, Click, Refuse, Say, ShowPanel, Verb, numbers
from tamalou.core.errors import IllegalAction
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


def answer(click: Click) -> Answer:
    """A click's answer (no Discord, no event loop): a step of building a lay-down in the
    panel (the seat's next panel state), or the action and what follows it."""
    seat, lang, at = click.seat, click.lang, click.at
    verb, parts, values, from_panel = click.verb, click.parts, click.values, click.from_panel
    if verb == "hand":
        return ShowPanel(edit=False)
    if from_panel:
        step = panel_step(click)
        if step is not None:
            return step
    action = build_action(verb, seat, parts, values, at)
    state: drafts.PanelState | None = click.state
    if state is not None and state.draft is not None and state.draft.refusal is not None:
        state = replace(state, draft=replace(state.draft, refusal=None))  # a move: it is old
    else:
        state = KEEP

    def then(outcome: Outcome) -> Answer:
        if verb == "call":
            called = [e for e in outcome.events if isinstance(e, E.Called) and e.player == seat]
            if called:
                return Say(t(lang, "kalooki.ok.called", card=face(called[0].card, lang=lang)))
            return None
        if verb == "next":
            return None
        return ShowPanel(edit=from_panel)

    return Act(action, then, state=state)


#: the panel's own verbs (besides its ``pick`` selects of melds and lay cards)
STEPS = frozenset({"sort", "build", "meld", "back", "clear", "sugg", "lay", "set", "run", "cards"})


def listed_cards(
    seen: Seen, seat: int, state: drafts.PanelState | None, group: Sequence[int]
) -> set[int]:
    """The cards a card select listed: the group of the hand its id names (the hand in the
    seat's order, in groups a select holds), or the whole hand (an id without a group)."""
    hand = seen.game.round.seats[seat].hand
    if not group:
        return set(hand)
    ordered = sorted_hand(hand, drafts.sort_of(state))
    groups = group_ranges(len(ordered))
    if not 0 <= group[0] < len(groups):
        raise TableError("stale_choice")
    return {ordered[i] for i in groups[group[0]]}


def draft_of(seen: Seen, seat: int, state: drafts.PanelState | None) -> drafts.Draft:
    """The seat's lay-down being built in this deal (read from its view, which its panel
    reads too)."""
    pub = seen.view(seat).public
    return drafts.draft(state, pub.round_no, pub.deal_no, len(pub.contract))


def panel_step(click: Click) -> Answer:
    """A step of the panel that changes only the panel (its next state), a lay built in it,
    or None: an action to send."""
    table, seat = click.table, click.seat
    verb, parts, values = click.verb, click.parts, click.values
    if verb not in STEPS and not (
        verb == "pick" and parts[1:2] in ([PICK_MELD], [PICK_NEW_MELD], [PICK_LAY_CARD])
    ):
        return None  # an action (nothing read for it here)
    state: drafts.PanelState | None = click.state
    seen = seen_at(table, click.now)
    game = seen.game
    contract = seen.view(seat).public.contract
    d = draft_of(seen, seat, state)
    hand = set(game.round.seats[seat].hand)
    match verb:
        case "sort":
            return ShowPanel(state=drafts.toggled(state), seen=seen)
        case "cards":
            d = replace(d, card_group=parts[1])  # one the panel does not have: the first
        case "build":
            d = replace(d, mode="build", refusal=None)
        case "meld":
            d = replace(d, mode="meld", refusal=None, extra=())
        case "back":
            d = replace(d, mode="main", refusal=None)
        case "clear":
            d = replace(d, melds=tuple(() for _ in contract), refusal=None)
        case "sugg":
            suggested = seen.view(seat).suggested_lay_down
            if suggested is None:
                return Refuse("stale_choice")
            d = replace(d, mode="build", refusal=None, melds=tuple(tuple(c) for _, c in suggested))
        case "pick" if len(parts) in (3, 4) and parts[1] == PICK_MELD:
            index = parts[2]
            if not 0 <= index < len(d.melds):
                return Refuse("bad_button")
            listed = listed_cards(seen, seat, state, parts[3:])
            picked = tuple(c for c in cards_of(values) if c in hand and c in listed)
            melds = tuple(  # a card belongs to one meld
                tuple(c for c in other if c not in picked) if i != index else other
                for i, other in enumerate(d.melds)
            )
            # the cards of the meld the select did not list (another group) stay picked
            chosen = tuple(c for c in melds[index] if c not in listed) + picked
            d = replace(d, melds=(*melds[:index], chosen, *melds[index + 1 :]), refusal=None)
        case "pick" if len(parts) in (2, 3) and parts[1] == PICK_NEW_MELD:
            listed = listed_cards(seen, seat, state, parts[2:])
            picked = tuple(c for c in cards_of(values) if c in hand and c in listed)
            d = replace(
                d, extra=tuple(c for c in d.extra if c not in listed) + picked, refusal=None
            )
        case "pick" if len(parts) == 2 and parts[1] == PICK_LAY_CARD:
            ranges = [lay_card_of(v) for v in values]  # a card, maybe a range of it
            lay_card, lay_group = ranges[0] if ranges and ranges[0][0] in hand else (None, None)
            d = replace(d, lay_card=lay_card, lay_group=lay_group)
        case "lay":
            refusal = drafts.check_draft(game, seat, contract, d)
            if refusal is None:
                lay = tuple((kind, tuple(d.melds[i])) for i, kind in enumerate(contract))
                return act_from_panel(click, A.LayDown(seat, lay, click.at), state, d)
            meld = refusal.detail.get("meld")
            d = replace(d, refusal=(int(meld) if isinstance(meld, int) else 0, refusal.reason))
        case "set" | "run":
            kind = SET if verb == "set" else RUN
            return act_from_panel(click, A.LayMeld(seat, kind, d.extra, click.at), state, d)
        case _:
            return None
    return ShowPanel(state=drafts.with_draft(state, d), seen=seen)


def act_from_panel(
    click: Click, action: A.Action, state: drafts.PanelState | None, d: drafts.Draft
) -> Act:
    """Send a lay built in the panel; a refusal is shown in the panel (which meld, why)."""

    def refused(error: IllegalAction) -> Answer:
        meld = error.detail.get("meld")
        refusal = (int(meld) if isinstance(meld, int) else 0, error.reason)
        return ShowPanel(state=drafts.with_draft(state, replace(d, refusal=refusal)))

    def then(outcome: Outcome) -> Answer:  # laid: the next draft starts empty
        return ShowPanel(state=drafts.with_draft(state, drafts.Draft(d.round_no, d.deal_no)))

    return Act(action, then, refused)
