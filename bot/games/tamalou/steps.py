"""Moves of many choices, one choice at a time (R-X1, R-X2, R-X4, R-X10): the house variants'
powers and play for someone name two players and two cards, far more moves than Discord's 25
buttons or 25 select options hold. The panel narrows the engine's legal actions of one kind
field by field (a player, then one of their cards, …) until the rest fit, then offers exactly
those legal actions. Every option shown is one the engine lists; a click is resolved against
the legal actions at the moment of the click (``verbs.chosen``) or judged by the engine (a
play for someone: a race, R-D4).

Custom ids (encoded and decoded in ``verbs.py``): ``tamalou:step:<table>:<round>.<kind>[.<value>…]``
narrows (``<kind>`` is the kind's index in ``verbs.KINDS``, the values the fields chosen so
far); ``tamalou:dfor:…`` plays for someone (``<round>.<target>.<target slot>.<slot>.<seq>``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import discord

from bot.games.tamalou import verbs
from bot.i18n import t
from bot.ui import choices, grid
from bot.ui.kit import button
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou.codec import action_to_dict
from tamalou.games.tamalou.views import PlayerView

#: the fields a player chooses, in order, for each kind of many choices (seq is not chosen)
FIELDS: dict[str, tuple[str, ...]] = {
    "swap_two": ("first", "first_slot", "second", "second_slot"),
    "double_for": ("target", "target_slot", "slot"),
    "look": ("target", "slot"),
    "give_top": ("target",),
}
#: fields that name a seat (shown by the player's name); the others are card slots
SEAT_FIELDS = frozenset({"first", "second", "target"})
ROW = 5
#: buttons a step may show: 4 rows, the last row keeps Back (and Pass)
ROOM = ROW * 4


@dataclass(slots=True)
class Step:
    """Where a narrowing stands: the kind, the values chosen, and what comes next."""

    kind: str
    prefix: tuple[int, ...]
    field: str | None  # the field chosen next; None: the remaining actions fit, offer them
    options: list[int]  # the next field's values (when ``field``)
    actions: list[A.Action]  # the legal actions matching the prefix


def values(action: A.Action) -> dict[str, int]:
    data = choices.fields(action, action_to_dict)
    return {k: v for k, v in data.items() if isinstance(v, int)}


def narrow(kind: str, legal: Sequence[A.Action], prefix: tuple[int, ...], room: int) -> Step:
    """The next choice among ``legal`` actions of ``kind`` matching the values of ``prefix``."""
    fields = FIELDS[kind]
    actions = [
        a
        for a in legal
        if a.kind == kind and tuple(values(a)[f] for f in fields[: len(prefix)]) == prefix
    ]
    if len(actions) <= room or len(prefix) >= len(fields):
        return Step(kind, prefix, None, [], actions)
    field = fields[len(prefix)]
    options = sorted({values(a)[field] for a in actions})
    if len(options) == 1:  # one value only: take it without asking
        return narrow(kind, legal, (*prefix, options[0]), room)
    return Step(kind, prefix, field, options, actions)


def action_words(action: A.Action, lang: str, name: Callable[[int], str]) -> str | None:
    """The words of a many-choice action (None: a kind the panel names otherwise)."""
    match action:
        case A.SwapTwo():
            return t(
                lang,
                "act.swap_two",
                first=name(action.first),
                first_slot=action.first_slot,
                second=name(action.second),
                second_slot=action.second_slot,
            )
        case A.GiveTop():
            return t(lang, "act.give_top", name=name(action.target))
        case A.DoubleFor():
            if action.slot == 0:
                return t(lang, "btn.step_no_card")
            return t(lang, "btn.step_mine", slot=action.slot)
        case A.Look(target=target) if target == action.player:
            return t(lang, "btn.look", slot=action.slot)
        case A.Look():
            return t(lang, "btn.look_at", name=name(action.target), slot=action.slot)
    return None


def step_items(
    step: Step,
    table: int,
    pv: PlayerView,
    lang: str,
    name: Callable[[int], str],
    group: Sequence[int] = (),
) -> list[discord.ui.Item[discord.ui.View]]:
    """The buttons of a step: the next field's values, or the final moves; more than its
    room narrowed in groups (``grid.narrowed``: ``group`` the groups chosen so far)."""
    rnd = pv.public.round_no
    entries: list[tuple[str, str]] = []  # (words, custom id)
    if step.field is not None:
        for value in step.options:
            key = "btn.step_player" if step.field in SEAT_FIELDS else "btn.step_card"
            if step.kind == "double_for" and step.field == "slot":
                key = "btn.step_mine_card"
            text = t(lang, key, name=name(value), slot=value)
            entries.append((text, verbs.step_id(table, rnd, step.kind, *step.prefix, value)))
    else:
        for a in step.actions:
            text = action_words(a, lang, name) or a.kind
            if isinstance(a, A.DoubleFor):  # a race: the engine judges it, even when late
                entries.append((text, verbs.double_for_id(table, rnd, a)))
            elif (custom_id := verbs.act_id(table, rnd, a)) is not None:
                entries.append((text, custom_id))
    if len(entries) <= ROOM:
        return [button(text, custom_id) for text, custom_id in entries]
    # more than fit (a long row, many players): a group of them first, then the choice
    at, path = grid.narrowed(len(entries), ROOM - 1, group)

    def group_id(groups: Sequence[int]) -> str:
        return verbs.step_group_id(table, rnd, groups, step.kind, *step.prefix)

    if not at.done:
        return [
            button(grid.group_label(entries[g[0]][0], entries[g[-1]][0]), group_id((*path, i)))
            for i, g in enumerate(at.groups)
        ]
    shown = [button(*entries[i]) for i in at.choices]
    return [*shown, button(t(lang, "btn.other_choices"), group_id(path[:-1]))]


def prompt(step: Step, lang: str) -> str | None:
    """The panel's line saying what to choose now (None when the moves themselves are shown)."""
    if step.field is None:
        return None
    return t(lang, "panel.step", what=t(lang, f"step.{step.kind}.{step.field}"))


@dataclass(slots=True)
class Plan:
    """What a panel narrows: the steps it shows, and whether one is in progress (then the
    panel shows only that step, Back, and Pass when it is legal)."""

    steps: list[Step]
    active: bool

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(s.kind for s in self.steps)


#: kinds a panel always narrows (their moves name players): the rest only when they overflow
ALWAYS = ("swap_two", "give_top")


def plan(
    seat: int, legal: Sequence[A.Action], kinds: Sequence[str], chosen: Sequence[int] | None
) -> Plan:
    """The steps of a panel: the chosen one (``chosen``: kind index and values), or the first
    step of each many-choice kind the player may play now. ``double_for`` is only narrowed when
    chosen (the table's «Play for someone» button), like the table's doubles."""
    mine = [a for a in legal if a.player == seat]
    if chosen:
        kind = kinds[chosen[0]] if 0 <= chosen[0] < len(kinds) else ""
        if kind in FIELDS:
            return Plan([narrow(kind, mine, tuple(chosen[1:]), ROOM)], True)
        return Plan([], False)
    out = []
    for kind in FIELDS:
        count = sum(a.kind == kind for a in mine)
        if count and kind != "double_for" and (kind in ALWAYS or count > ROOM):
            out.append(narrow(kind, mine, (), ROOM))
    return Plan(out, False)
