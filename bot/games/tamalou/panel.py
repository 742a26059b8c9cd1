"""Tamalou's private panel: a member's row as they may see it and their moves, built from
their view and the engine's legal actions (``seen``), laid out by the panel grid
(``bot/ui/grid.py``)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.games import Panel
from bot.games.tamalou import steps, variants, verbs
from bot.games.tamalou.faces import back, face_code, hole, name_of, shown
from bot.games.tamalou.seen import Seen, rules_of, seen_at
from bot.games.tamalou.table import DOUBLES_ROOM, take_button
from bot.games.tamalou.verbs import KINDS, cid
from bot.i18n import catalog, t
from bot.tables import LiveTable
from bot.ui import cards as card_faces
from bot.ui import choices, grid
from bot.ui.cards import CardPicture
from bot.ui.kit import button as _button
from bot.ui.kit import label_name, ts
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou.codec import action_to_dict
from tamalou.games.tamalou.state import FOREVER, Game
from tamalou.games.tamalou.views import PlayerView


def panel(
    table: LiveTable,
    seat: int,
    lang: str,
    at: int,
    queen_slot: int | None = None,
    step: Sequence[int] | None = None,
    rep_group: Sequence[int] = (),
    seen: Seen | None = None,
    *,
    queen_group: Sequence[int] = (),
    step_group: Sequence[int] = (),
    more_group: Sequence[int] = (),
    doubles: Sequence[int] | None = None,
) -> Panel:
    """The player's own panel: their row as they may see it, their possible moves, and when
    a card it shows for a while (peek, King look) must be hidden again (None: nothing).
    ``step``: a many-choice move being narrowed (``steps``: its kind and the values chosen).
    ``rep_group``: the groups of slots chosen so far when a long row's replacements do not fit
    (``grid.narrow``); likewise ``queen_group`` (the Queen's targets), ``step_group`` (a
    step's choices), ``more_group`` (the moves drawn generically). ``doubles``: the doubles of
    the member's slots past the table's buttons (a row longer than they hold), and the groups
    chosen of them. ``seen``: the click's views, when it read some (``bot/ui/seen.py``)."""
    seen = seen_at(table, at, seen)
    game, at = seen.game, seen.at
    pv = seen.view(seat)
    legal = seen.legal(seat)
    glimpses = [g[3] for g in pv.glimpses]  # R-X3 (koubo): the swap shown to its target
    ends = [u for u in (pv.peek_until, pv.look[3] if pv.look else None, *glimpses) if u]
    ends += reveal_ends(game, seat, at)  # R-A4: a failed call's reveal, like a peek
    hide_at = max(ends) if ends else None
    planned = steps.plan(seat, legal, KINDS, step)
    buttons = panel_buttons(
        table,
        pv,
        lang,
        legal,
        queen_slot,
        planned,
        rep_group,
        queen_group=queen_group,
        step_group=step_group,
        more_group=more_group,
        doubles=doubles,
    )
    text = "\n".join([panel_text(table, pv, lang), *variants.panel_lines(table, pv, lang, legal)])
    for s in planned.steps:
        line = steps.prompt(s, lang)
        if line:
            text += "\n" + line
        elif planned.active and not s.actions:
            text += "\n" + t(lang, "err.stale_choice")
    return Panel(text, buttons, hide_at, row_picture(pv, lang))


def row_picture(pv: PlayerView, lang: str) -> CardPicture | None:
    """The player's row as a picture while they know one of its cards (a peek, a look at
    their own card), slot numbers under the cards; ``None`` otherwise."""
    if not any(s.card for s in pv.row):
        return None
    codes = [
        face_code(s.card) if s.card else (card_faces.BACK if s.present else card_faces.HOLE)
        for s in pv.row
    ]
    captions = [str(s.slot) for s in pv.row]
    return CardPicture.hand(
        codes,
        captions=captions,
        overlap=False,
        filename="my-cards.png",
        alt=" ".join(card_faces.local_text(c, lang) for c in codes),  # the reader's letters
    )


def reveal_ends(game: Game, seat: int, at: int) -> list[int]:
    """When the cards of ``seat`` shown to everybody by a failed call are hidden again (R-A4):
    the caller's own panel shows them until then, like a peek."""
    return [u for s, _, _, u in game.round.reveals if s == seat and at < u < FOREVER]


#: the moves a turn's start may offer, in the order the panel names them
TURN_MOVES = ("draw", "take_discard", "call")


def your_turn(pv: PlayerView, lang: str) -> str:
    """ "Your turn — draw, take the discard or call Tamalou": only the moves the engine
    offers (no discard to take at the first turn of a round, R-S; a J/Q/K on it, R-T2)."""
    pub = pv.public
    moves = [
        t(lang, f"panel.move.{kind}", call=pub.call_name) for kind in TURN_MOVES if kind in pv.legal
    ]
    when = ts(pub.turn_deadline or 0)
    if not moves:
        return t(lang, "panel.your_turn_plain", when=when)
    listed = (
        moves[0] if len(moves) == 1 else ", ".join(moves[:-1]) + t(lang, "panel.or") + moves[-1]
    )
    return t(lang, "panel.your_turn", moves=listed, when=when)


def panel_text(table: LiveTable, pv: PlayerView, lang: str) -> str:
    pub = pv.public
    row = " ".join(
        f"[{s.slot}] "
        + (shown(s.card, "**", lang=lang) if s.card else (back() if s.present else hole()))
        for s in pv.row
    )
    lines = [t(lang, "panel.title", id=table.id, round=pub.round_no), t(lang, "panel.row", row=row)]
    if pv.peek_until is not None:
        lines.append(t(lang, "panel.peeking", when=ts(pv.peek_until)))
    elif pub.phase == "peek" and not pv.peeked:
        lines.append(variants.peek_text(rules_of(table), "panel.peek_prompt", lang))
    if pv.look is not None:
        target, slot, code, until = pv.look
        lines.append(
            t(
                lang,
                "panel.look_own" if target == pv.seat else "panel.look",
                name=name_of(table, target, lang),
                slot=slot,
                card=shown(code, lang=lang),
                when=ts(until),
            )
        )
    mine = pub.current == pv.seat
    if pv.held is not None:
        key = "panel.held_discard" if pub.holding_from == "discard" else "panel.held"
        lines.append(t(lang, key, card=shown(pv.held, lang=lang)))
    elif mine and pub.stage == "power" and pub.power:
        lines.append(variants.power_text(pub, lang))
    elif mine and pub.stage == "start":
        lines.append(your_turn(pv, lang))
        if pub.transmitted:
            lines.append(t(lang, "panel.transmitted", power=t(lang, f"power.{pub.transmitted}")))
    me = pub.seats[pv.seat]
    if me.blocked_for_round:
        lines.append(t(lang, "panel.blocked_round"))
    elif me.blocked_until:
        lines.append(t(lang, "panel.blocked", when=ts(me.blocked_until)))
    return "\n".join(lines)


#: action kinds a panel never shows: doubles and the next round are on the table message
#: (a play for someone is narrowed from the table's «Play for someone» button, R-X10)
NOT_IN_PANEL = frozenset({"double", "double_for", "next_round", "tick"})


#: the kinds this panel draws by hand; any other legal kind gets the generic fallback
DRAWN = frozenset(
    {"peek", "draw", "take_discard", "call", "replace", "throw", "replay", "look", "swap", "pass"}
)


def panel_buttons(
    table: LiveTable,
    pv: PlayerView,
    lang: str,
    legal: Sequence[A.Action],
    queen_slot: int | None = None,
    planned: steps.Plan | None = None,
    rep_group: Sequence[int] = (),
    *,
    queen_group: Sequence[int] = (),
    step_group: Sequence[int] = (),
    more_group: Sequence[int] = (),
    doubles: Sequence[int] | None = None,
) -> discord.ui.View:
    """One button per legal action the player may take from the panel, built from the
    engine's list (never from the rules): whatever powers a preset has, its panel offers
    exactly the legal ones. Actions of kinds not drawn here get a generic button each, in
    groups when there are more than fit (``grid.narrowed``), as the Queen's targets."""
    tid, rnd, seat = table.id, pv.public.round_no, pv.seat
    if doubles is not None:
        return doubles_view(tid, pv, lang, doubles)
    planned = planned or steps.Plan([], False)
    mine = [
        a
        for a in legal
        if a.player == seat and a.kind not in NOT_IN_PANEL and a.kind not in planned.kinds
    ]
    if planned.active:  # a move being narrowed: its choices, Back, and Pass when legal
        mine = [a for a in mine if a.kind == "pass"]
    kinds = {a.kind for a in mine}
    items: list[discord.ui.Item[discord.ui.View]] = []
    select: discord.ui.Select[discord.ui.View] | None = None
    style = discord.ButtonStyle

    for s in planned.steps:
        name = lambda n: label_name(table, n, lang)  # noqa: E731  # a label: plain text
        for item in steps.step_items(s, tid, pv, lang, name, step_group):
            if isinstance(item, discord.ui.Select):
                select = item
            else:
                items.append(item)
    if "peek" in kinds:
        peek = variants.peek_text(rules_of(table), "btn.peek", lang)
        items.append(_button(peek, cid("peek", tid, rnd), style.primary))
    if "draw" in kinds:
        items.append(_button(t(lang, "btn.draw"), cid("draw", tid, rnd), style.primary))
    if "take_discard" in kinds:
        items.append(take_button(tid, rnd, pv.public.discard_top, lang))
    if "call" in kinds:
        call = variants.call_label(pv.public, lang)
        items.append(_button(call, cid("call", tid, rnd), style.danger))
    if "throw" in kinds:  # before the replacements: a long row must not push it out
        items.append(_button(t(lang, "btn.throw"), cid("throw", tid, rnd), style.danger))
    reps = sorted((a for a in mine if isinstance(a, A.Replace)), key=lambda a: a.slot)
    if reps:  # a long row (penalties): a group of slots first, then the slot (R-T3)
        room = grid.CELLS - len(items) - 3 - (grid.PER_ROW if select is not None else 0)
        path = tuple(rep_group)
        narrowed = grid.narrow(len(reps), max(room, 2), path)
        if narrowed is None:  # a group of an earlier row: the groups again
            path, narrowed = (), grid.narrow(len(reps), max(room, 2))
        assert narrowed is not None
        for i, group in enumerate(narrowed.groups):
            first, last = reps[group[0]].slot, reps[group[-1]].slot
            text = t(lang, "btn.replace_group", first=first, last=last)
            items.append(_button(text, cid("repg", tid, rnd, *path, i), style.primary))
        for i in narrowed.choices if narrowed.done else ():
            rep = t(lang, "btn.replace", slot=reps[i].slot)
            items.append(_button(rep, cid("rep", tid, rnd, reps[i].slot), style.primary))
        if path and narrowed.done:
            items.append(_button(t(lang, "btn.step_back"), cid("repg", tid, rnd)))
    if "replay" in kinds:
        items.append(_button(t(lang, "btn.replay"), cid("replay", tid, rnd), style.primary))
    generic: list[tuple[str, str]] = []  # (label, code) of the actions drawn generically
    for a in mine:
        if isinstance(a, A.Look) and a.target == seat:
            items.append(_button(t(lang, "btn.look", slot=a.slot), cid("look", tid, rnd, a.slot)))
        elif isinstance(a, A.Look):
            text = t(lang, "btn.look_at", name=label_name(table, a.target, lang), slot=a.slot)
            _add_generic(generic, a, text)
    swaps = [a for a in mine if isinstance(a, A.Swap)]
    if swaps and pv.public.looked is not None:  # R-X3: swap the looked card with one of yours
        for a in swaps:
            custom_id = verbs.act_id(tid, rnd, a)
            if custom_id is not None:
                text = t(lang, "btn.swap_looked", slot=a.slot)
                items.append(_button(text, custom_id, style.primary))
        swaps = []
    if swaps and queen_slot is None:
        for slot in sorted({a.slot for a in swaps}):
            text = t(lang, "btn.queen_mine", slot=slot)
            items.append(_button(text, cid("qmine", tid, rnd, slot)))
    elif swaps and queen_slot is not None:
        targets = [a for a in swaps if a.slot == queen_slot]

        def target_label(a: A.Swap) -> str:
            name = label_name(table, a.target, lang)
            return t(lang, "select.queen_target", name=name, slot=a.target_slot)[:100]

        # more targets than a select holds (long rows, many players): a group first (R-P2)
        at, path = grid.narrowed(len(targets), grid.OPTIONS, queen_group, unit=grid.OPTIONS)
        if not at.done:
            for i, g in enumerate(at.groups):
                text = grid.group_label(target_label(targets[g[0]]), target_label(targets[g[-1]]))
                items.append(_button(text, cid("qmine", tid, rnd, queen_slot, *path, i)))
        elif targets:
            if path:
                other = t(lang, "btn.other_choices")
                items.append(_button(other, cid("qmine", tid, rnd, queen_slot, *path[:-1])))
            select = discord.ui.Select(
                custom_id=cid("qswap", tid, rnd, queen_slot),
                placeholder=t(lang, "select.queen_placeholder", slot=queen_slot)[:150],
                options=[
                    discord.SelectOption(
                        label=target_label(targets[i]),
                        value=verbs.queen_target_value(targets[i].target, targets[i].target_slot),
                    )
                    for i in at.choices
                ],
            )
    for a in mine:
        if a.kind not in DRAWN:
            _add_generic(generic, a, action_label(table, a, lang))
    tail = []
    if "pass" in kinds:
        tail.append(_button(t(lang, "btn.pass"), cid("pass", tid, rnd)))
    if planned.active:
        tail.append(_button(t(lang, "btn.step_back"), cid("step", tid, rnd)))
    v = discord.ui.View(timeout=None)
    rows_left = grid.ROWS
    if select is not None:
        v.add_item(select)
        rows_left -= 1
    room = grid.PER_ROW * rows_left - len(items) - len(tail)
    acts = [(text, f"{cid('act', tid, rnd)}.{code}") for text, code in generic]
    if len(acts) <= room:
        items += [_button(text, custom_id) for text, custom_id in acts]
    else:  # more than fit: a group of them first, then the move
        at, path = grid.narrowed(len(acts), max(room - 1, 2), more_group)
        if not at.done:
            for i, g in enumerate(at.groups):
                text = grid.group_label(acts[g[0]][0], acts[g[-1]][0])
                items.append(_button(text, cid("more", tid, rnd, *path, i)))
        else:
            items += [_button(*acts[i]) for i in at.choices]
            items.append(_button(t(lang, "btn.other_choices"), cid("more", tid, rnd, *path[:-1])))
    items += tail
    v, _ = grid.place([(0, item) for item in items], v)
    return v


def doubles_view(tid: int, pv: PlayerView, lang: str, path: Sequence[int]) -> discord.ui.View:
    """The doubles of the member's own slots past the table's double buttons (R-D1: a race,
    judged by the engine at the press), narrowed in groups when they are many, and Back."""
    pub, rnd = pv.public, pv.public.round_no
    seq = (pub.window_seq if pub.window_until else pub.discard_seq) or 0  # as the table's
    first = DOUBLES_ROOM  # the table's last double button opens these
    slots = [s.slot for s in pv.row if s.present and s.slot >= first]
    doubles = [
        (t(lang, "btn.double", slot=slot), cid("dbl", tid, rnd, slot, seq)) for slot in slots
    ]
    back = _button(t(lang, "btn.step_back"), cid("step", tid, rnd))
    at, chosen = grid.narrowed(len(doubles), grid.CELLS - 2, path)
    items: list[discord.ui.Item[discord.ui.View]]
    if not at.done:
        items = [
            _button(
                grid.group_label(doubles[g[0]][0], doubles[g[-1]][0]),
                cid("dblm", tid, rnd, *chosen, i),
            )
            for i, g in enumerate(at.groups)
        ]
    else:
        disabled = not pv.can_double
        items = [
            _button(text, custom_id, disabled=disabled)
            for text, custom_id in (doubles[i] for i in at.choices)
        ]
        if chosen:
            items.append(_button(t(lang, "btn.other_choices"), cid("dblm", tid, rnd, *chosen[:-1])))
    v, _ = grid.place([(0, item) for item in [*items, back]])
    return v


def _add_generic(generic: list[tuple[str, str]], action: A.Action, text: str) -> None:
    code = verbs.code_of(action)
    if code is not None:
        generic.append((text, code))


def action_label(table: LiveTable, action: A.Action, lang: str) -> str:
    """A button's words for an action of a kind this panel has no button of its own for."""
    values = choices.fields(action, action_to_dict)
    key = f"act.{action.kind}"
    if key in catalog(lang) or key in catalog("en"):
        return t(lang, key, **values)
    return " ".join([action.kind.replace("_", " "), *(str(v) for v in values.values())])
