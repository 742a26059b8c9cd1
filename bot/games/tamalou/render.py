"""Text and components for the public table message and the private panels.

Renders only engine views (``public_view`` for the table, ``view`` for a panel) and public
events: no hidden card can reach a message from here unless the view says its reader may
see it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, cast

import discord

from bot.games import Panel
from bot.games.tamalou import steps, variants
from bot.i18n import catalog, t
from bot.tables import LiveTable
from bot.ui import cards as card_faces
from bot.ui import choices, grid, lobby
from bot.ui.cards import CardPicture
from bot.ui.common import button as _button
from bot.ui.common import round_end_view, seat_name, ts
from tamalou.core import cards
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.codec import action_to_dict
from tamalou.games.tamalou.engine import legal_actions
from tamalou.games.tamalou.rules import Rules
from tamalou.games.tamalou.state import FOREVER, Game
from tamalou.games.tamalou.views import PlayerView, PublicView, public_view, view

GAME = "tamalou"

#: a round's phase and the current player's stage, as the public view gives them
Phase = Literal["peek", "play", "final", "over"]
Stage = Literal["start", "holding", "power", "call", "window"]
STATUS_KEYS: dict[Stage, str] = {
    "start": "status.turn",
    "holding": "status.holding",
    "power": "status.power",
    "call": "status.call",  # R-X6: the end-of-turn call
    "window": "status.window",  # R-X11: the open-doubles window
}


def phase_of(pv: PublicView) -> Phase:
    return pv.phase


def stage_of(pv: PublicView) -> Stage | None:
    return pv.stage


BACK = "🂠"
HOLE = "·"
MAX_BUTTON_ROWS = 5


def cid(verb: str, table: int, arg: str | int | None = None) -> str:
    """``tamalou:<verb>:<table>[:<arg>]`` (DESIGN: state in the database, not the View)."""
    return f"{GAME}:{verb}:{table}" if arg is None else f"{GAME}:{verb}:{table}:{arg}"


def rules_of(table: LiveTable) -> Rules:
    return cast(Rules, table.rules)


def label(code: str | None) -> str:
    if code is None:
        return "—"
    return cards.label(cards.from_code(code)) if code != cards.JOKER else "🃏"


def card_label(card: int) -> str:
    return cards.label(card)


# -- cards as cards (docs/cards.md): an emoji where the bot has them, else the text above --


def face_code(code: str) -> str:
    """The engine's card code as a face code (the joker: ``JK``)."""
    return code if code == cards.JOKER else cards.code(cards.from_code(code))


def shown(code: str | None, text_style: str = "") -> str:
    """A card in a message: its emoji, or its label wrapped in ``text_style`` (`` ` ``, ``**``)."""
    if code is None:
        return "—"
    return card_faces.emoji(face_code(code)) or f"{text_style}{label(code)}{text_style}"


def shown_card(card: int) -> str:
    """A card of an event in a message: its emoji, or its label."""
    return card_faces.emoji(cards.code(card)) or card_label(card)


def back() -> str:
    return card_faces.emoji(card_faces.BACK) or BACK


def hole() -> str:
    return card_faces.emoji(card_faces.HOLE) or HOLE


def picture_name(table: LiveTable, seat: int, lang: str) -> str:
    """A seat's name in a picture (no markdown escapes: the picture is not markdown)."""
    return name_of(table, seat, lang).replace("\\", "")


def name_of(table: LiveTable, seat: int, lang: str) -> str:
    """A seat's name as shown: the member's name, or the AI's name in ``lang``."""
    if not 0 <= seat < len(table.seats):
        return f"#{seat + 1}"
    return seat_name(table.seats[seat], lang)


def _score(value: float) -> str:
    return f"{value:g}"


# -- public table message ----------------------------------------------------------------


def lobby_message(
    table: LiveTable, lang: str, expires_at: int
) -> tuple[discord.Embed, discord.ui.View]:
    rules = rules_of(table)
    settings = t(
        lang,
        "lobby.settings_value",
        target=_score(rules.target),
        seconds=rules.turn_ms // 1000,
        max=rules.max_players,
    )
    return lobby.lobby_message(
        table,
        lang,
        expires_at,
        title=t(lang, "lobby.title", id=table.id),
        fields=[
            (t(lang, "lobby.settings"), settings, False),
            (t(lang, "lobby.variant"), variants.lobby_value(rules, lang), True),
        ],
        min_players=rules.min_players,
    )


def seat_line(table: LiveTable, pv: PublicView, seat: int, lang: str) -> str:
    sv = pv.seats[seat]
    slots = []
    for i, present in enumerate(sv.slots):
        slot = i + 1
        if not present:
            slots.append(hole())
        elif slot in sv.revealed:
            slots.append(shown(sv.revealed[slot], "`"))
        else:
            slots.append(back())
    marks = ""
    if pv.current == seat:
        marks += "▶ "
    flags = []
    if sv.frozen:
        flags.append("🔒")
    if sv.away:
        flags.append(t(lang, "seat.away"))  # R-K4, from the timeout that made them away
    elif sv.short:
        flags.append("⏱")
    if sv.is_ai:
        flags.append("🤖")
    if sv.blocked_for_round or sv.blocked_until:
        flags.append("🚫")
    return f"{marks}**{name_of(table, seat, lang)}** {' '.join(slots)} · {_score(sv.score)}" + (
        f" {' '.join(flags)}" if flags else ""
    )


def table_message(table: LiveTable, lang: str, at: int) -> tuple[discord.Embed, discord.ui.View]:
    game = table.game
    assert game is not None
    pv = public_view(game, at)
    if phase_of(pv) == "over":
        return round_over_message(table, pv, lang)
    embed = discord.Embed(
        title=t(lang, "table.title", id=table.id, round=pv.round_no),
        description="\n".join(seat_line(table, pv, s, lang) for s in range(len(pv.seats))),
        colour=discord.Colour.dark_green(),
    )
    embed.add_field(name=t(lang, "table.discard"), value=shown(pv.discard_top))
    embed.add_field(name=t(lang, "table.pile"), value=str(pv.pile_size))
    embed.add_field(name=t(lang, "table.status"), value=status_line(table, pv, lang), inline=False)
    recent = [line for e in table.recent if (line := event_line(table, e, lang, at))]
    if recent:
        embed.add_field(
            name=t(lang, "table.events"), value="\n".join(recent[-5:])[:1024], inline=False
        )
    embed.set_footer(
        text=variants.footer_prefix(game.rules, lang)
        + t(
            lang,
            "table.footer",
            target=_score(game.rules.target),
            seconds=game.rules.turn_ms // 1000,
            call=game.rules.call_name,  # the 🔒 legend: "Dutch called" in dutch
        )
    )
    return embed, table_buttons(table, pv, lang)


def turn_of(table: LiveTable, at: int) -> tuple[int, tuple[int, int]] | None:
    """The seat whose turn it is in the play (not the peek, the last turns or the end), and
    the turn's key: its round and start (R-T1)."""
    game = table.game
    if game is None:
        return None
    # public facts only (the public view's ``phase`` and ``current``), read without
    # building the whole public view: this runs at every table edit (issue 16)
    r = game.round
    if r.phase != "play" or r.current is None:
        return None
    return r.current, (r.round_no, r.turn_started)


def status_line(table: LiveTable, pv: PublicView, lang: str) -> str:
    phase = phase_of(pv)
    if phase == "peek":
        return variants.peek_text(rules_of(table), "status.peek", lang, when=ts(pv.deadline or 0))
    if phase == "final":
        return t(lang, "status.final", when=ts(pv.deadline or 0))
    assert pv.current is not None
    who = name_of(table, pv.current, lang)
    stage = stage_of(pv) or "start"
    until = pv.window_until if stage == "window" else pv.turn_deadline
    text = t(
        lang,
        STATUS_KEYS[stage],
        name=who,
        when=ts(until or 0),
        call=pv.call_name,
        power=variants.power_name(pv, pv.power, lang) if pv.power else "",
    )
    if pv.extra_turn:
        text += " " + t(lang, "status.extra")
    if pv.fuse:
        text = "🧨 " + text + " " + t(lang, "status.fuse")  # R-K1: the last seconds
    return text


def table_buttons(table: LiveTable, pv: PublicView, lang: str) -> discord.ui.View:
    v = discord.ui.View(timeout=None)
    rnd = pv.round_no
    playing = phase_of(pv) == "play"
    v.add_item(
        _button(
            t(lang, "btn.draw"),
            cid("draw", table.id, rnd),
            discord.ButtonStyle.primary,
            disabled=not playing,
            row=0,
        )
    )
    if pv.discard_top is not None:  # nothing to take on an empty discard ("Take —")
        v.add_item(
            take_button(
                table.id, rnd, pv.discard_top, lang, disabled=not pv.discard_takeable, row=0
            )
        )
    v.add_item(
        _button(
            variants.call_label(pv, lang),
            cid("call", table.id, rnd),
            discord.ButtonStyle.danger,
            disabled=not pv.call_open,
            row=0,
        )
    )
    v.add_item(
        _button(t(lang, "btn.hand"), cid("hand", table.id, rnd), discord.ButtonStyle.success, row=0)
    )
    if phase_of(pv) == "peek" or pv.discard_top is None:
        return v  # no double is possible yet: no rows of disabled buttons
    if rules_of(table).play_for_someone:  # R-X10: narrowed in the player's own panel
        v.add_item(
            _button(
                t(lang, "btn.for_someone"),
                cid("for", table.id, rnd),
                disabled=not pv.doubles_open,
                row=0,
            )
        )
    slots = max((len(s.slots) for s in pv.seats), default=0)
    can_double = pv.doubles_open
    # R-X11: in the open-doubles window every double is on the window's card, even after
    # a first double covered it
    seq = (pv.window_seq if pv.window_until else pv.discard_seq) or 0
    for slot in range(1, min(slots, 5 * (MAX_BUTTON_ROWS - 1)) + 1):
        v.add_item(
            _button(
                t(lang, "btn.double", slot=slot),
                cid("dbl", table.id, f"{rnd}.{slot}.{seq}"),
                disabled=not can_double,
                row=1 + (slot - 1) // 5,
            )
        )
    return v


def take_button(
    table_id: int,
    rnd: int,
    discard_top: str | None,
    lang: str,
    disabled: bool = False,
    row: int | None = None,
) -> discord.ui.Button[discord.ui.View]:
    """ "Take 7♣", or "Take" with the card's emoji (a label cannot hold a custom emoji)."""
    emoji = card_faces.partial_emoji(face_code(discard_top)) if discard_top else None
    text = t(lang, "btn.take", card="" if emoji else label(discard_top)).strip()
    item = _button(text, cid("take", table_id, rnd), disabled=disabled, row=row)
    item.emoji = emoji
    return item


def table_picture(table: LiveTable, lang: str, at: int) -> CardPicture | None:
    """The end-of-round reveal: every row face up, one labelled row per player."""
    game = table.game
    if game is None:
        return None
    return reveal_picture(table, public_view(game, at), lang)


def reveal_picture(table: LiveTable, pv: PublicView, lang: str) -> CardPicture | None:
    if phase_of(pv) != "over" or pv.last_round is None:
        return None
    res = pv.last_round
    order = sorted(range(len(res.totals)), key=lambda s: res.places[s])
    rows = [
        (
            f"{res.places[s]}. {picture_name(table, s, lang)}",
            [face_code(c) if c else card_faces.HOLE for c in res.hands[s]],
        )
        for s in order
    ]
    return CardPicture.table(rows, filename=f"round-{res.round_no}.png")


def round_over_message(
    table: LiveTable, pv: PublicView, lang: str
) -> tuple[discord.Embed, discord.ui.View]:
    game = table.game
    assert game is not None and pv.last_round is not None
    res = pv.last_round
    lines = []
    # R-M3: once the match is over, players are ranked by the match (cumulative score,
    # ties share a place), as the engine ranks them; during the match, by the round (R-E3).
    places = pv.match_places if pv.match_over else res.places
    order = sorted(range(len(res.totals)), key=lambda s: (places[s], s))
    for s in order:
        hand = (
            "".join(shown(c) if c else hole() for c in res.hands[s])
            if card_faces.available()
            else " ".join(label(c) if c else HOLE for c in res.hands[s])
        )
        caller = " 📣" if res.caller == s else ""
        lines.append(
            t(
                lang,
                "over.line",
                place=places[s],
                name=name_of(table, s, lang),
                hand=hand,
                total=_score(res.totals[s]),
                score=_score(res.scores[s]),
                cumulative=_score(game.cumulative[s]),
            )
            + caller
        )
    title = "over.match_title" if pv.match_over else "over.title"
    embed = discord.Embed(
        title=t(lang, title, id=table.id, round=res.round_no),
        description="\n".join(lines),
        colour=discord.Colour.gold(),
    )
    embed.add_field(
        name=t(lang, "over.reason"), value=variants.end_text(pv, res.reason, lang), inline=False
    )
    if (picture := reveal_picture(table, pv, lang)) is not None:
        embed.set_image(url=picture.url)
    if variants.footer_prefix(game.rules, lang):  # R-V: a variant's round says which it is
        embed.set_footer(text=variants.lobby_value(game.rules, lang))
    v = round_end_view(
        embed,
        lang,
        match_over=pv.match_over,
        winners=[name_of(table, w, lang) for w in pv.winners],
        deadline=pv.deadline,
        rematch_id=cid("rematch", table.id),
        next_id=cid("next", table.id, res.round_no),
    )
    return embed, v


# -- events in words (public only) -------------------------------------------------------


def event_line(table: LiveTable, e: E.Event, lang: str, at: int | None = None) -> str | None:
    """``e`` in words for everybody, as it reads at ``at`` (a failed call's cards are named
    only while they are shown, R-A4)."""
    if e.to is not None:
        return None  # never render a private or log-only event in public

    def n(seat: int) -> str:
        return name_of(table, seat, lang)

    line = variants.event_line(rules_of(table), e, lang, n, card_label)
    if line is not None:
        return line
    match e:
        case E.RoundStarted():
            return t(lang, "ev.round_started", round=e.round_no)
        case E.TurnStarted():
            return None
        case E.Drew(source="pile"):
            return t(lang, "ev.drew_pile", name=n(e.player))
        case E.Drew():
            return t(lang, "ev.drew_discard", name=n(e.player), card=shown_card(e.card or 0))
        case E.Replaced():
            return t(
                lang, "ev.replaced", name=n(e.player), slot=e.slot, card=shown_card(e.discarded)
            )
        case E.Threw():
            return t(lang, "ev.threw", name=n(e.player), card=shown_card(e.card))
        case E.PowerOffered():
            return None
        case E.PowerPassed():
            return t(lang, "ev.power_passed", name=n(e.player), power=t(lang, f"power.{e.power}"))
        case E.Replayed():
            return t(lang, "ev.replayed", name=n(e.player))
        case E.Swapped():
            return t(
                lang,
                "ev.swapped",
                name=n(e.player),
                slot=e.slot,
                target=n(e.target),
                target_slot=e.target_slot,
            )
        case E.Looked():
            key = "ev.looked_own" if e.target == e.player else "ev.looked"
            return t(lang, key, name=n(e.player), target=n(e.target), slot=e.slot)
        case E.Doubled():
            return t(lang, "ev.doubled", name=n(e.player), slot=e.slot, card=shown_card(e.card))
        case E.DoubleMissed():
            return t(
                lang,
                f"ev.missed_{e.reason}",
                name=n(e.player),
                slot=e.slot,
                card=shown_card(e.card),
            )
        case E.Called(right=True):
            return t(lang, "ev.called_right", name=n(e.player), total=_score(e.total))
        case E.Called():
            if (
                e.reveal_until is not None and at is not None and at >= e.reveal_until
            ):  # R-A4: hidden again
                return t(lang, "ev.called_wrong_hidden", name=n(e.player), total=_score(e.total))
            shown = " ".join(shown_card(c) for _, c in e.cards)
            return t(lang, "ev.called_wrong", name=n(e.player), total=_score(e.total), cards=shown)
        case E.TimedOut():
            return t(lang, "ev.away" if e.away else "ev.timed_out", name=n(e.player))
        case E.Reshuffled():
            return t(lang, "ev.reshuffled", size=e.size)
        case E.FinalWindow():
            return t(lang, "ev.final_window", when=ts(e.until))
        case E.RoundEnded():
            return t(lang, "ev.round_ended", round=e.round_no)
    return None


# -- the private panel --------------------------------------------------------------------


def panel(
    table: LiveTable,
    seat: int,
    lang: str,
    at: int,
    queen_slot: int | None = None,
    step: Sequence[int] | None = None,
    rep_group: Sequence[int] = (),
) -> Panel:
    """The player's own panel: their row as they may see it, their possible moves, and when
    a card it shows for a while (peek, King look) must be hidden again (None: nothing).
    ``step``: a many-choice move being narrowed (``steps``: its kind and the values chosen).
    ``rep_group``: the groups of slots chosen so far when a long row's replacements do not fit
    (``grid.narrow``)."""
    game = table.game
    assert game is not None
    pv = view(game, seat, at)
    legal = legal_actions(game, seat, at)
    glimpses = [g[3] for g in pv.glimpses]  # R-X3 (koubo): the swap shown to its target
    ends = [u for u in (pv.peek_until, pv.look[3] if pv.look else None, *glimpses) if u]
    ends += reveal_ends(game, seat, at)  # R-A4: a failed call's reveal, like a peek
    hide_at = max(ends) if ends else None
    planned = steps.plan(seat, legal, KINDS, step)
    buttons = panel_buttons(table, pv, lang, legal, queen_slot, planned, rep_group)
    text = "\n".join([panel_text(table, pv, lang), *variants.panel_lines(table, pv, lang, legal)])
    for s in planned.steps:
        line = steps.prompt(s, lang)
        if line:
            text += "\n" + line
        elif planned.active and not s.actions:
            text += "\n" + t(lang, "err.stale_choice")
    return Panel(text, buttons, hide_at, row_picture(pv))


def row_picture(pv: PlayerView) -> CardPicture | None:
    """The player's row as a picture while they know one of its cards (a peek, a look at
    their own card), slot numbers under the cards; ``None`` otherwise."""
    if not any(s.card for s in pv.row):
        return None
    codes = [
        face_code(s.card) if s.card else (card_faces.BACK if s.present else card_faces.HOLE)
        for s in pv.row
    ]
    captions = [str(s.slot) for s in pv.row]
    return CardPicture.hand(codes, captions=captions, overlap=False, filename="my-cards.png")


def reveal_ends(game: Game, seat: int, at: int) -> list[int]:
    """When the cards of ``seat`` shown to everybody by a failed call are hidden again (R-A4):
    the caller's own panel shows them until then, like a peek."""
    return [u for s, _, _, u in game.round.reveals if s == seat and at < u < FOREVER]


def panel_text(table: LiveTable, pv: PlayerView, lang: str) -> str:
    pub = pv.public
    row = " ".join(
        f"[{s.slot}] " + (shown(s.card, "**") if s.card else (back() if s.present else hole()))
        for s in pv.row
    )
    lines = [t(lang, "panel.title", id=table.id, round=pub.round_no), t(lang, "panel.row", row=row)]
    if pv.peek_until is not None:
        lines.append(t(lang, "panel.peeking", when=ts(pv.peek_until)))
    elif phase_of(pub) == "peek" and not pv.peeked:
        lines.append(variants.peek_text(rules_of(table), "panel.peek_prompt", lang))
    if pv.look is not None:
        target, slot, code, until = pv.look
        lines.append(
            t(
                lang,
                "panel.look_own" if target == pv.seat else "panel.look",
                name=name_of(table, target, lang),
                slot=slot,
                card=shown(code),
                when=ts(until),
            )
        )
    mine = pub.current == pv.seat
    if pv.held is not None:
        key = "panel.held_discard" if pub.holding_from == "discard" else "panel.held"
        lines.append(t(lang, key, card=shown(pv.held)))
    elif mine and stage_of(pub) == "power" and pub.power:
        lines.append(variants.power_text(pub, lang))
    elif mine and stage_of(pub) == "start":
        lines.append(t(lang, "panel.your_turn", when=ts(pub.turn_deadline or 0)))
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
KINDS = tuple(sorted(A.ACTION_TYPES))


def panel_buttons(
    table: LiveTable,
    pv: PlayerView,
    lang: str,
    legal: Sequence[A.Action],
    queen_slot: int | None = None,
    planned: steps.Plan | None = None,
    rep_group: Sequence[int] = (),
) -> discord.ui.View:
    """One button per legal action the player may take from the panel, built from the
    engine's list (never from the rules): whatever powers a preset has, its panel offers
    exactly the legal ones. Actions of kinds not drawn here get a generic button each, or
    one select when there are more than fit."""
    tid, rnd, seat = table.id, pv.public.round_no, pv.seat
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

    def step_cid(verb: str, arg: str) -> str:
        return cid(verb, tid, arg)

    for s in planned.steps:
        for item in steps.step_items(
            s, pv, lang, step_cid, KINDS, lambda n: name_of(table, n, lang)
        ):
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
            arg = ".".join(str(n) for n in (rnd, *path, i))
            items.append(_button(text, cid("repg", tid, arg), style.primary))
        for i in narrowed.choices if narrowed.done else ():
            rep = t(lang, "btn.replace", slot=reps[i].slot)
            items.append(_button(rep, cid("rep", tid, f"{rnd}.{reps[i].slot}"), style.primary))
        if path and narrowed.done:
            items.append(_button(t(lang, "btn.step_back"), cid("repg", tid, rnd)))
    if "replay" in kinds:
        items.append(_button(t(lang, "btn.replay"), cid("replay", tid, rnd), style.primary))
    generic: list[tuple[str, str]] = []  # (label, code) of the actions drawn generically
    for a in mine:
        if isinstance(a, A.Look) and a.target == seat:
            items.append(
                _button(t(lang, "btn.look", slot=a.slot), cid("look", tid, f"{rnd}.{a.slot}"))
            )
        elif isinstance(a, A.Look):
            text = t(lang, "btn.look_at", name=name_of(table, a.target, lang), slot=a.slot)
            _add_generic(generic, a, text)
    swaps = [a for a in mine if isinstance(a, A.Swap)]
    if swaps and pv.public.looked is not None:  # R-X3: swap the looked card with one of yours
        for a in swaps:
            code = choices.encode(a, KINDS, action_to_dict)
            text = t(lang, "btn.swap_looked", slot=a.slot)
            items.append(_button(text, cid("act", tid, f"{rnd}.{code}"), style.primary))
        swaps = []
    if swaps and queen_slot is None:
        for slot in sorted({a.slot for a in swaps}):
            text = t(lang, "btn.queen_mine", slot=slot)
            items.append(_button(text, cid("qmine", tid, f"{rnd}.{slot}")))
    elif swaps:
        options = [
            discord.SelectOption(
                label=t(
                    lang,
                    "select.queen_target",
                    name=name_of(table, a.target, lang),
                    slot=a.target_slot,
                )[:100],
                value=f"{a.target}.{a.target_slot}",
            )
            for a in swaps
            if a.slot == queen_slot
        ][:25]
        if options:
            select = discord.ui.Select(
                custom_id=cid("qswap", tid, f"{rnd}.{queen_slot}"),
                placeholder=t(lang, "select.queen_placeholder", slot=queen_slot)[:150],
                options=options,
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
    if len(generic) <= room:
        items += [_button(text, cid("act", tid, f"{rnd}.{code}")) for text, code in generic]
    elif generic and select is None:  # more than fit: one select of them all
        rows_left -= 1
        v.add_item(
            discord.ui.Select(
                custom_id=cid("pick", tid, rnd),
                placeholder=t(lang, "select.pick_placeholder")[:150],
                options=[
                    discord.SelectOption(label=text[:100], value=code) for text, code in generic
                ][:25],
            )
        )
    items += tail
    v, _ = grid.place([(0, item) for item in items], v)
    return v


def _add_generic(generic: list[tuple[str, str]], action: A.Action, text: str) -> None:
    code = choices.encode(action, KINDS, action_to_dict)
    if code is not None:
        generic.append((text, code))


def action_label(table: LiveTable, action: A.Action, lang: str) -> str:
    """A button's words for an action of a kind this panel has no button of its own for."""
    values = choices.fields(action, action_to_dict)
    key = f"act.{action.kind}"
    if key in catalog(lang) or key in catalog("en"):
        return t(lang, key, **values)
    return " ".join([action.kind.replace("_", " "), *(str(v) for v in values.values())])
