"""Kalooki's private panel: a member's hand and their moves, from their view and the
engine's legal actions (``seen``); the lay-down being built (``drafts``) checked as the
engine will check it. Laid out by the panel grid (``bot/ui/grid.py``).

No rule is decided here: a lay-down being built is checked by the engine's own
``check_lay_down`` and ``melds.normalize``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import discord

from bot.games import Panel
from bot.games.kalooki import drafts, verbs
from bot.games.kalooki.drafts import Draft
from bot.games.kalooki.faces import (
    card_button,
    card_word,
    contract_text,
    face,
    faces,
    group_ranges,
    name_of,
    sorted_hand,
)
from bot.games.kalooki.seen import Seen, seen_at
from bot.games.kalooki.verbs import MAX_OPTIONS, cid
from bot.i18n import t
from bot.tables import LiveTable
from bot.ui import grid
from bot.ui.cards import display
from bot.ui.cards.codes import local_text
from bot.ui.cards.display import CardPicture
from bot.ui.kit import button, ts
from tamalou.core import cards
from tamalou.core.errors import IllegalAction
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki.melds import normalize
from tamalou.games.kalooki.views import PlayerView, PublicView

#: a hand longer than this is also shown as a picture (docs/cards.md)
TEXT_HAND_MAX = 9
#: the most cards a row of the hand picture holds: a suit of a 16-card hand (round 9, K-R1)
#: fits one row up to it; the two packs' 26 cards of a suit would wrap in two
SUIT_ROW = 13


def refusal_words(lang: str, reason: str) -> str:
    return t(lang, f"illegal.{reason}")


def meld_check(kind: int, picked: Sequence[int], lang: str) -> str:
    """One meld being built, checked by the engine's own meld rules (K-M)."""
    if not picked:
        return t(lang, "kalooki.panel.meld_empty")
    try:
        normalize(kind, picked)
    except IllegalAction as refusal:
        return "❌ " + refusal_words(lang, refusal.reason)
    return "✅"


def panel(
    table: LiveTable,
    seat: int,
    lang: str,
    at: int,
    seen: Seen | None = None,
    state: drafts.PanelState | None = None,
) -> Panel:
    """One seat's panel. ``seen``: the click's views, when it read some (``bot/ui/seen.py``);
    ``state``: the seat's panel state (the lay-down being built, the hand's order)."""
    seen = seen_at(table, at, seen)
    game, at = seen.game, seen.at
    pv = seen.view(seat)
    legal = seen.legal(seat)
    pub = pv.public
    d = drafts.draft(state, pub.round_no, pub.deal_no, len(pub.contract))
    kinds = {a.kind for a in legal if a.player == seat}
    playing = "discard" in kinds or "end_turn" in kinds
    laid = pub.seats[seat].laid_down
    hand_set = set(pv.hand)
    # what the draft still means now: its mode while it applies, the cards still in hand
    d = replace(
        d,
        mode="main"
        if (d.mode == "build" and not (playing and not laid))
        or (d.mode == "meld" and not (playing and laid))
        else d.mode,
        melds=tuple(tuple(c for c in meld if c in hand_set) for meld in d.melds),
        extra=tuple(c for c in d.extra if c in hand_set),
    )
    order = drafts.sort_of(state)
    text = panel_text(table, pv, d, order, lang)
    if d.mode == "build" and all(d.melds) and d.refusal is None:
        # the whole contract checked as the engine will check it (K-L1, K-M6, K-T5)
        verdict = drafts.check_draft(game, seat, pub.contract, d)
        if verdict is None:
            text += "\n" + t(lang, "kalooki.panel.draft_ok")
        else:
            number = verdict.detail.get("meld")
            words = refusal_words(lang, verdict.reason)
            text += "\n" + (
                t(lang, "kalooki.panel.draft_bad_meld", n=number, reason=words)
                if isinstance(number, int)
                else t(lang, "kalooki.panel.draft_bad", reason=words)
            )
    # the call window (K-K2): the panel is drawn again when it closes, with its Draw button
    window = pub.current == seat and pub.stage == "draw" and "draw" not in kinds
    redraw = pub.draw_at if window and pub.draw_at is not None and pub.draw_at > at else None
    return Panel(
        text,
        panel_view(table, pv, d, order, legal, lang),
        hide_at=redraw,
        picture=picture(pv, d, order, lang),
    )


def picture(pv: PlayerView, d: Draft, order: str, lang: str) -> CardPicture | None:
    """A hand too long to read as text, as a picture too (the cards being built raised)."""
    hand = sorted_hand(pv.hand, order)
    if len(hand) <= TEXT_HAND_MAX:
        return None
    chosen: set[int] = set()
    if d.mode == "build":
        chosen = {c for meld in d.melds for c in meld}
    elif d.mode == "meld":
        chosen = set(d.extra)
    raised = tuple(i for i, c in enumerate(hand) if c in chosen)
    codes = [cards.code(c) for c in hand]
    alt = " ".join(local_text(c, lang) for c in codes)  # a screen reader reads R♥ in French
    if order == "rank":  # sorted by rank: balanced rows, in the text's order
        return CardPicture.hand(codes, highlight=raised, alt=alt)
    # sorted by suit: one row a suit, as the text reads it, the jokers last on their own
    suits = display.runs(cards.suit(c) for c in hand)
    return CardPicture.hand(codes, highlight=raised, alt=alt, per_row=SUIT_ROW, groups=suits)


def panel_text(table: LiveTable, pv: PlayerView, d: Draft, order: str, lang: str) -> str:
    pub = pv.public
    hand = sorted_hand(pv.hand, order)
    lines = [
        t(
            lang,
            "kalooki.panel.title",
            id=table.id,
            round=pub.round_no,
            rounds=pub.rounds,
            contract=contract_text(pub.contract, lang),
        ),
        t(lang, "kalooki.panel.hand", count=len(hand), cards=faces(hand, lang=lang)),
    ]
    if pv.drawn is not None:
        lines.append(t(lang, "kalooki.panel.drawn", card=face(pv.drawn, lang=lang)))
    me = pub.seats[pv.seat]
    mine = pub.current == pv.seat
    if pub.phase != "play":
        lines.append(t(lang, "kalooki.panel.round_over"))
    elif mine and pub.pending_call is not None:
        lines.append(
            t(
                lang,
                "kalooki.panel.call_pending",
                caller=name_of(table, pub.pending_call, lang),
                card=face(pub.discard_top, lang=lang) if pub.discard_top is not None else "—",
            )
        )
    elif mine and pub.stage == "draw" and "draw" not in pv.legal and pub.draw_at is not None:
        # K-K2: the call window; the panel is drawn again when it closes (hide_at)
        lines.append(t(lang, "kalooki.panel.your_draw_after_calls", when=ts(pub.draw_at)))
    elif mine and pub.stage == "draw":
        lines.append(t(lang, "kalooki.panel.your_draw", when=ts(pub.turn_deadline or 0)))
    elif mine:
        lines.append(t(lang, "kalooki.panel.your_play", when=ts(pub.turn_deadline or 0)))
    elif pub.current is not None:
        lines.append(t(lang, "kalooki.panel.waiting", name=name_of(table, pub.current, lang)))
    if me.laid_down:
        lines.append(t(lang, "kalooki.panel.laid_down"))
    if not mine and pub.phase == "play" and pv.can_call:
        lines.append(t(lang, "kalooki.panel.may_call", calls=me.calls))
    if d.mode == "build":
        lines.append(t(lang, "kalooki.panel.building"))
        for i, kind in enumerate(pub.contract):
            picked = d.melds[i] if i < len(d.melds) else []
            lines.append(
                t(
                    lang,
                    "kalooki.panel.draft_line",
                    n=i + 1,
                    kind=t(lang, f"kalooki.kind.{kind}"),
                    cards=faces(picked, lang=lang),
                    check=meld_check(kind, picked, lang),
                )
            )
    elif d.mode == "meld":
        lines.append(t(lang, "kalooki.panel.new_meld", cards=faces(d.extra, lang=lang)))
    if d.refusal is not None:
        number, reason = d.refusal
        words = refusal_words(lang, reason)
        if number:
            lines.append(t(lang, "kalooki.panel.refused_meld", n=number, reason=words))
        else:
            lines.append(t(lang, "kalooki.panel.refused", reason=words))
    return "\n".join(lines)[:2000]


def option(card: int, chosen: bool = False, *, lang: str | None) -> discord.SelectOption:
    """A card as a select option: its text in the reader's letters, and its face when cards
    are emojis."""
    code = cards.code(card)
    return discord.SelectOption(
        label=local_text(code, lang),
        value=verbs.card_value(card),
        default=chosen,
        emoji=display.partial_emoji(code),
    )


def _card_options(
    hand: Sequence[int], chosen: Sequence[int] = (), *, lang: str
) -> list[discord.SelectOption]:
    picked = set(chosen)
    return [option(c, c in picked, lang=lang) for c in hand]


def hand_group(
    tid: int, rnd: int, hand: Sequence[int], d: Draft, lang: str
) -> tuple[list[int], int, list[discord.ui.Button[discord.ui.View]]]:
    """The cards the panel's selects list (the hand, or its group shown when it is longer
    than a select holds), that group's number, and a button for each other group."""
    groups = group_ranges(len(hand))
    group = d.card_group if 0 <= d.card_group < len(groups) else 0  # stale: the first
    others = [
        button(
            grid.group_label(card_word(hand[r[0]], lang=lang), card_word(hand[r[-1]], lang=lang)),
            cid("cards", tid, rnd, i),
        )
        for i, r in enumerate(groups)
        if i != group
    ]
    return [hand[i] for i in groups[group]], group, others


def lay_off_label(table: LiveTable, pub: PublicView, a: A.Action, lang: str) -> str:
    meld = pub.melds[a.meld] if isinstance(a, A.LayOff | A.ShiftJoker) else None
    assert meld is not None and isinstance(a, A.LayOff | A.ShiftJoker)
    owner = name_of(table, meld.owner, lang)
    if isinstance(a, A.ShiftJoker):
        return t(
            lang, "kalooki.opt.shift", card=card_word(a.card, lang=lang), n=a.meld + 1, name=owner
        )
    key = "kalooki.opt.lay_off_low" if a.end == "low" and meld.kind == 4 else "kalooki.opt.lay_off"
    return t(lang, key, card=card_word(a.card, lang=lang), n=a.meld + 1, name=owner)


def lay_range(count: int, group: int | None = None) -> grid.Narrowed | None:
    """A card's places in ranges of one select's 25 (``group``: the range chosen)."""
    path = () if group is None else (group,)
    return grid.narrow(count, MAX_OPTIONS, path, unit=MAX_OPTIONS)


def lay_card_options(
    hand: Sequence[int], lays: Sequence[A.Action], d: Draft, lang: str
) -> list[discord.SelectOption]:
    """The lay card select: each card that lays off, in the hand's order; a card that fits
    more places than one list holds comes once per range of its places (chosen first)."""
    out = []
    for c in hand:
        count = sum(a.card == c for a in lays if isinstance(a, A.LayOff | A.ShiftJoker))
        if not count:
            continue
        step = lay_range(count)
        assert step is not None
        if step.done:
            out.append(option(c, c == d.lay_card, lang=lang))
            continue
        for i, group in enumerate(step.groups):
            o = option(c, c == d.lay_card and i == d.lay_group, lang=lang)
            o.label = t(
                lang, "kalooki.opt.lay_range", card=o.label, first=group[0] + 1, last=group[-1] + 1
            )[:100]
            o.value = verbs.lay_card_value(c, i)
            out.append(o)
    return out[:MAX_OPTIONS]


def panel_view(
    table: LiveTable,
    pv: PlayerView,
    d: Draft,
    order: str,
    legal: Sequence[A.Action],
    lang: str,
) -> discord.ui.View:
    tid, rnd, seat = table.id, pv.public.round_no, pv.seat
    pub = pv.public
    style = discord.ButtonStyle
    hand = sorted_hand(pv.hand, order)
    mine = [a for a in legal if a.player == seat]
    kinds = {a.kind for a in mine}
    v = discord.ui.View(timeout=None)
    sort_label = t(lang, "kalooki.btn.sort_rank" if order == "suit" else "kalooki.btn.sort_suit")
    # a hand longer than a select holds (calls pile up) is listed 25 cards at a time: the
    # other groups are a button each (``cards``); every select lists the group shown
    shown, group, others = hand_group(tid, rnd, hand, d, lang)
    if d.mode == "build":
        built: list[tuple[int, discord.ui.Item[discord.ui.View]]] = []
        for i, kind in enumerate(pub.contract[:4]):
            picked = d.melds[i] if i < len(d.melds) else []
            built.append(
                (
                    0,
                    discord.ui.Select(
                        custom_id=cid("pick", tid, rnd, verbs.PICK_MELD, i, group),
                        placeholder=t(
                            lang,
                            "kalooki.select.meld",
                            n=i + 1,
                            kind=t(lang, f"kalooki.kind.{kind}"),
                        )[:150],
                        min_values=0,
                        max_values=len(shown),
                        options=_card_options(shown, picked, lang=lang),
                    ),
                )
            )
        built.append((1, button(t(lang, "kalooki.btn.lay"), cid("lay", tid, rnd), style.success)))
        if pv.suggested_lay_down is not None:
            built.append((1, button(t(lang, "kalooki.btn.suggest"), cid("sugg", tid, rnd))))
        built.append((1, button(t(lang, "kalooki.btn.clear"), cid("clear", tid, rnd))))
        built.append((1, button(t(lang, "kalooki.btn.back"), cid("back", tid, rnd))))
        built += [(2, b) for b in others]
        v, _ = grid.place(built, v)
        return v
    if d.mode == "meld":
        new_meld = discord.ui.Select[discord.ui.View](
            custom_id=cid("pick", tid, rnd, verbs.PICK_NEW_MELD, group),
            placeholder=t(lang, "kalooki.select.new_meld")[:150],
            min_values=0,
            max_values=len(shown),
            options=_card_options(shown, d.extra, lang=lang),
        )
        lay_set = button(t(lang, "kalooki.btn.lay_set"), cid("set", tid, rnd), style.success)
        lay_run = button(t(lang, "kalooki.btn.lay_run"), cid("run", tid, rnd), style.success)
        back = button(t(lang, "kalooki.btn.back"), cid("back", tid, rnd))
        v, _ = grid.place(
            [(0, new_meld), (1, lay_set), (1, lay_run), (1, back)] + [(2, b) for b in others], v
        )
        return v
    row0: list[discord.ui.Button[discord.ui.View]] = []
    pending = pub.pending_call is not None and pub.current == seat
    if "draw" in kinds:
        key = "kalooki.btn.allow" if pending else "btn.draw"
        row0.append(button(t(lang, key), cid("draw", tid, rnd, verbs.ON_PANEL), style.primary))
    if "take_discard" in kinds:
        key = "kalooki.btn.refuse" if pending else "kalooki.btn.take"
        text = t(lang, key, card=card_word(pub.discard_top, lang=lang))
        row0.append(card_button(text, pub.discard_top, cid("take", tid, rnd, verbs.ON_PANEL)))
    for a in mine:
        if isinstance(a, A.Call) and a.card is not None:
            row0.append(
                card_button(
                    t(lang, "kalooki.btn.call", card=card_word(a.card, lang=lang)),
                    a.card,
                    cid("call", tid, rnd, a.card, verbs.ON_PANEL),
                    style.danger,
                )
            )
            break
    if "end_turn" in kinds:
        row0.append(button(t(lang, "kalooki.btn.end_turn"), cid("end", tid, rnd), style.primary))
    if "next_round" in kinds:
        row0.append(
            button(t(lang, "btn.next"), cid("next", tid, rnd, verbs.ON_PANEL), style.primary)
        )
    if not pub.match_over:  # after the match a hand is no more sorted
        row0.append(button(sort_label, cid("sort", tid, rnd)))
    # the grid (bot/ui/grid.py): the turn's buttons first, then the selects, the rest last
    entries: list[tuple[int, discord.ui.Item[discord.ui.View]]] = [(0, b) for b in row0]
    discards = [a for a in mine if isinstance(a, A.Discard)]
    by_card = {a.card for a in discards}
    if any(c in by_card for c in shown):
        discard = discord.ui.Select[discord.ui.View](
            custom_id=cid("pick", tid, rnd, verbs.PICK_DISCARD),
            placeholder=t(lang, "kalooki.select.discard")[:150],
            options=[option(c, lang=lang) for c in shown if c in by_card],
        )
        entries.append((1, discard))
    lays = [a for a in mine if isinstance(a, A.LayOff | A.ShiftJoker)]
    if len(lays) > MAX_OPTIONS:  # too many for one list: the card first, then where
        lay_cards = lay_card_options(shown, lays, d, lang)
        if lay_cards:
            lay_card = discord.ui.Select[discord.ui.View](
                custom_id=cid("pick", tid, rnd, verbs.PICK_LAY_CARD),
                placeholder=t(lang, "kalooki.select.lay_card")[:150],
                options=lay_cards,
            )
            entries.append((2, lay_card))
        lays = [a for a in lays if a.card == d.lay_card]
        step = lay_range(len(lays), d.lay_group)
        # a card's range of places not chosen yet (or one of another card): nothing listed
        lays = [lays[i] for i in step.choices] if step and step.done else []
    if lays:
        lay_off = discord.ui.Select[discord.ui.View](
            custom_id=cid("pick", tid, rnd, verbs.PICK_LAY_OFF),
            placeholder=t(lang, "kalooki.select.lay_off")[:150],
            options=[
                discord.SelectOption(
                    label=lay_off_label(table, pub, a, lang)[:100],
                    value=verbs.lay_off_value(a),
                    emoji=display.partial_emoji(cards.code(a.card)),
                )
                for a in lays[:MAX_OPTIONS]
            ],
        )
        entries.append((3, lay_off))
    tail: list[discord.ui.Button[discord.ui.View]] = []
    me = pub.seats[seat]
    if discards and not me.laid_down:
        tail.append(button(t(lang, "kalooki.btn.build"), cid("build", tid, rnd), style.success))
        if pv.suggested_lay_down is not None:
            tail.append(button(t(lang, "kalooki.btn.suggest"), cid("sugg", tid, rnd)))
    elif discards and me.laid_down:
        tail.append(button(t(lang, "kalooki.btn.new_meld"), cid("meld", tid, rnd)))
    entries += [(4, b) for b in tail]
    entries += [(5, b) for b in others]
    v, _ = grid.place(entries, v)
    return v
