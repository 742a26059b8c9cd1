"""Tamalou's button verbs: each verb's argument encoded (for the components that carry it)
and decoded here, and a click's verb → the engine action it asks for, or a panel step.

No rule is decided here: the engine refuses what is not legal (and the refusal is
answered through the error funnel); the panel only offers what ``legal_actions`` lists.

Custom ids are ``tamalou:<verb>:<table>[:<round>.<number>…]``: the round the component was
drawn for first (the platform checks it), then the verb's numbers (:func:`cid`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from bot.games.tamalou import variants
from bot.games.tamalou.seen import seen_at
from bot.i18n import t
from bot.tables import TableError
from bot.tables.service import Outcome
from bot.ui import choices
from bot.ui.pipeline import PANEL, Act, Answer, Click, Say, ShowPanel, Verb, numbers
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.codec import action_to_dict

GAME = "tamalou"
#: the action kinds, numbered as ``act`` and ``step`` arguments name them
KINDS = tuple(sorted(A.ACTION_TYPES))

#: every verb and what the platform checks of it (bot/ui/pipeline.py): where its component
#: lives and how many numbers its argument carries (the round number first). ``for`` opens
#: the narrowing of a play for someone (R-X10), ``dfor`` plays it (steps.py); ``repg``
#: narrows a long row's replacements (``<round>[.<group>…]``, groups of ``grid.narrow``),
#: ``more`` the moves drawn generically, ``qmine`` the Queen's targets of one of the
#: player's cards (``<round>.<slot>[.<group>…]``), ``stepg`` a step's choices, ``dblm``
#: the doubles of a row past the table's double buttons (``<round>[.<group>…]``).
VERBS: dict[str, Verb] = {
    "draw": Verb("any"),
    "take": Verb("any"),
    "call": Verb("any"),
    "hand": Verb("table", any_round=True),
    "dbl": Verb("any", (3,)),
    "dblm": Verb("any", None),
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
    "qmine": Verb("panel", None),
    "qswap": Verb("panel", (2,)),
    "act": Verb("panel", None),
    "more": Verb("panel", None),
    "pick": PANEL,
    "step": Verb("panel", None),
    "stepg": Verb("panel", None),
}


# -- encoding: what each component carries ------------------------------------------------


def cid(verb: str, table: int, *parts: int) -> str:
    """``tamalou:<verb>:<table>[:<part>.<part>…]`` (the round first; DESIGN: the state is in
    the database, not the View)."""
    base = f"{GAME}:{verb}:{table}"
    return f"{base}:{'.'.join(str(p) for p in parts)}" if parts else base


def code_of(action: A.Action) -> str | None:
    """A legal action as the numbers of an ``act`` button or a ``pick`` option (its kind's
    index in :data:`KINDS`, then its fields; ``bot/ui/choices.py``); None: not encodable."""
    return choices.encode(action, KINDS, action_to_dict)


def act_id(table: int, rnd: int, action: A.Action) -> str | None:
    """The ``act`` button playing ``action`` (None: not encodable)."""
    code = code_of(action)
    return None if code is None else f"{cid('act', table, rnd)}.{code}"


def double_for_id(table: int, rnd: int, action: A.DoubleFor) -> str:
    """``dfor``: ``<round>.<target>.<target slot>.<slot>.<seq>`` (R-X10)."""
    return cid("dfor", table, rnd, action.target, action.target_slot, action.slot, action.seq)


def step_id(table: int, rnd: int, kind: str, *values: int) -> str:
    """``step``: ``<round>.<kind>[.<value>…]`` narrows a many-choice move (steps.py)."""
    return cid("step", table, rnd, KINDS.index(kind), *values)


def step_group_id(table: int, rnd: int, groups: Sequence[int], kind: str, *values: int) -> str:
    """``stepg``: ``<round>.<n>.<group>×n.<kind>[.<value>…]``: a step whose choices do not fit,
    narrowed to the groups chosen so far (``grid.narrowed``); no group: the step itself."""
    if not groups:
        return step_id(table, rnd, kind, *values)
    return cid("stepg", table, rnd, len(groups), *groups, KINDS.index(kind), *values)


def step_of_group(parts: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:func:`step_group_id` read back: (the groups, the step's kind and values)."""
    if len(parts) < 3 or len(parts) < 2 + parts[1] + 1:
        raise TableError("bad_button")
    n = parts[1]
    return tuple(parts[2 : 2 + n]), tuple(parts[2 + n :])


def queen_target_value(target: int, target_slot: int) -> str:
    """A ``qswap`` option: ``<target>.<target slot>`` (the Queen's own slot is in the id)."""
    return f"{target}.{target_slot}"


# -- decoding: a click → the engine action -------------------------------------------------


def ints(arg: str | None, count: int | None) -> list[int]:
    """The numbers of a verb's argument (``count`` of them; None: one or more)."""
    return numbers(arg, None if count is None else (count,))


def chosen(
    legal: Sequence[A.Action], verb: str, parts: Sequence[int], values: list[str]
) -> A.Action:
    """The generic fallback's choice (``act`` button, ``pick`` select), if it is in
    ``legal`` (the seat's legal actions now)."""
    if verb == "act":
        code = ".".join(str(p) for p in parts[1:])
    elif len(values) == 1:
        code = ".".join(str(n) for n in numbers(values[0]))
    else:
        raise TableError("bad_button")
    action = choices.resolve(code, legal, KINDS, action_to_dict)
    if action is None:
        raise TableError("stale_choice")
    return cast(A.Action, action)


def build_action(
    verb: str, seat: int, parts: Sequence[int], values: list[str], at: int
) -> A.Action:
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
            target, target_slot = numbers(values[0], (2,))
            return A.Swap(seat, parts[1], target, target_slot, at)
    raise TableError("bad_button")


@dataclass(frozen=True, slots=True)
class Step:
    """A step of the panel a click chose (nothing is played): the narrowing of a
    many-choice move. Each field is a choice made so far (steps.py, ``grid.narrow``)."""

    #: the Queen: one of the player's cards, then its targets (R-P2), a group of them
    queen_slot: int | None = None
    queen_group: tuple[int, ...] = ()
    #: a many-choice move narrowed (``<kind>[.<value>…]``) and a group of its choices
    step: tuple[int, ...] | None = None
    step_group: tuple[int, ...] = ()
    #: a long row's replacements: a group of slots (R-T3)
    rep_group: tuple[int, ...] = ()
    #: the moves drawn generically past the room: a group of them
    more_group: tuple[int, ...] = ()
    #: the doubles of a row past the table's double buttons (R-D1), a group of them
    doubles: tuple[int, ...] | None = None


def answer(click: Click) -> Answer:
    """A click's answer (no Discord, no event loop): a panel step, or the action and what
    follows it."""
    table, seat, lang, at = click.table, click.seat, click.lang, click.at
    verb, parts, from_panel = click.verb, click.parts, click.from_panel
    # the table now, as the panel will show it: read once, handed on to the panel
    seen = seen_at(table, click.now)

    def show(edit: bool, step: Step | None = None) -> ShowPanel:
        return ShowPanel(edit=edit, step=step, seen=seen)

    if verb == "qmine":  # the Queen: one of your cards, then its targets (a group first)
        if len(parts) < 2:
            raise TableError("bad_button")
        return show(True, Step(queen_slot=parts[1], queen_group=tuple(parts[2:])))
    if verb == "dblm":  # a long row's last slots: doubled from the panel (a group first)
        return show(from_panel, Step(doubles=tuple(parts[1:])))
    if verb == "more":  # more moves drawn generically than fit: a group of them
        return show(True, Step(more_group=tuple(parts[1:])))
    if verb == "repg":  # a long row: a group of slots to replace from (grid.narrow)
        return show(True, Step(rep_group=tuple(parts[1:])))
    if verb in ("step", "for"):  # narrow a many-choice move (steps.py); nothing is played
        step = parts[1:] if verb == "step" else [KINDS.index("double_for")]
        return show(verb == "step", Step(step=tuple(step) or None))
    if verb == "stepg":  # a step's choices that do not fit: a group of them (grid.narrowed)
        groups, grouped = step_of_group(parts)
        return show(True, Step(step=grouped, step_group=groups))
    if verb == "hand":
        if any(a.kind == "peek" for a in seen.legal(seat)):  # R-S5: open your peek
            verb = "peek"
        else:
            return show(False)
    if verb in ("act", "pick"):  # legal at the press (R-D4), as the engine will judge it
        action = chosen(seen_at(table, at).legal(seat), verb, parts, click.values)
    else:
        action = build_action(verb, seat, parts, click.values, at)

    def then(outcome: Outcome) -> Answer:
        """After the move: a missed double says why (R-D2), a double or a claim says it
        landed (R-X11), else the panel."""
        missed = [e for e in outcome.events if isinstance(e, E.DoubleMissed) and e.player == seat]
        if missed:
            return Say(variants.missed_text(table, missed[0], outcome.events, lang))
        if verb in ("dbl", "dfor", "next"):
            if any(isinstance(e, E.Claimed) and e.player == seat for e in outcome.events):
                return Say(t(lang, "double.claimed"))  # R-X11: settled at the close
            if verb != "next":
                return Say(t(lang, "double.done_for" if verb == "dfor" else "double.done"))
            return None
        return ShowPanel(edit=from_panel, seen=seen)

    return Act(action, then)
