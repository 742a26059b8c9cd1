"""Text and components for the public table message and the private panels.

Renders only engine views (``public_view`` for the table, ``view`` for a panel) and public
events: no hidden card can reach a message from here unless the view says its reader may
see it.
"""

from __future__ import annotations

from typing import cast

import discord

from bot.games import Panel
from bot.i18n import t
from bot.tables import LiveTable
from bot.ui.common import button as _button
from bot.ui.common import seat_name, ts
from tamalou.core import cards
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.rules import Rules
from tamalou.games.tamalou.views import PlayerView, PublicView, public_view, view

GAME = "tamalou"

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
    lines = []
    for s in table.seats:
        mark = "👑 " if s.user_id == table.row.host_id and s.ai_level is None else ""
        bot_mark = " 🤖" if s.ai_level else ""
        lines.append(f"{s.seat + 1}. {mark}{seat_name(s, lang)}{bot_mark}")
    embed = discord.Embed(
        title=t(lang, "lobby.title", id=table.id),
        description="\n".join(lines),
        colour=discord.Colour.blurple(),
    )
    embed.add_field(
        name=t(lang, "lobby.settings"),
        value=t(
            lang,
            "lobby.settings_value",
            target=_score(rules.target),
            seconds=rules.turn_ms // 1000,
            max=rules.max_players,
        ),
        inline=False,
    )
    embed.set_footer(text=t(lang, "lobby.footer", min=rules.min_players))
    embed.add_field(name=t(lang, "lobby.expires"), value=ts(expires_at), inline=False)
    v = discord.ui.View(timeout=None)
    v.add_item(_button(t(lang, "btn.join"), cid("join", table.id), discord.ButtonStyle.success))
    v.add_item(_button(t(lang, "btn.leave"), cid("leave", table.id), discord.ButtonStyle.secondary))
    v.add_item(
        _button(t(lang, "btn.add_ai"), cid("addai", table.id), discord.ButtonStyle.secondary)
    )
    v.add_item(_button(t(lang, "btn.start"), cid("start", table.id), discord.ButtonStyle.primary))
    return embed, v


def seat_line(table: LiveTable, pv: PublicView, seat: int, lang: str) -> str:
    sv = pv.seats[seat]
    slots = []
    for i, present in enumerate(sv.slots):
        slot = i + 1
        if not present:
            slots.append(HOLE)
        elif slot in sv.revealed:
            slots.append(f"`{label(sv.revealed[slot])}`")
        else:
            slots.append(BACK)
    marks = ""
    if pv.current == seat:
        marks += "▶ "
    flags = []
    if sv.frozen:
        flags.append("🔒")
    if sv.away:
        flags.append("💤")
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
    if pv.phase == "over":
        return round_over_message(table, pv, lang)
    embed = discord.Embed(
        title=t(lang, "table.title", id=table.id, round=pv.round_no),
        description="\n".join(seat_line(table, pv, s, lang) for s in range(len(pv.seats))),
        colour=discord.Colour.dark_green(),
    )
    embed.add_field(name=t(lang, "table.discard"), value=label(pv.discard_top))
    embed.add_field(name=t(lang, "table.pile"), value=str(pv.pile_size))
    embed.add_field(name=t(lang, "table.status"), value=status_line(table, pv, lang), inline=False)
    recent = [line for e in table.recent if (line := event_line(table, e, lang))]
    if recent:
        embed.add_field(
            name=t(lang, "table.events"), value="\n".join(recent[-5:])[:1024], inline=False
        )
    embed.set_footer(
        text=t(
            lang,
            "table.footer",
            target=_score(game.rules.target),
            seconds=game.rules.turn_ms // 1000,
        )
    )
    return embed, table_buttons(table, pv, lang)


def status_line(table: LiveTable, pv: PublicView, lang: str) -> str:
    if pv.phase == "peek":
        return t(lang, "status.peek", when=ts(pv.deadline or 0))
    if pv.phase == "final":
        return t(lang, "status.final", when=ts(pv.deadline or 0))
    assert pv.current is not None
    who = name_of(table, pv.current, lang)
    key = {"start": "status.turn", "holding": "status.holding", "power": "status.power"}[
        pv.stage or "start"
    ]
    text = t(
        lang,
        key,
        name=who,
        when=ts(pv.turn_deadline or 0),
        power=t(lang, f"power.{pv.power}") if pv.power else "",
    )
    if pv.extra_turn:
        text += " " + t(lang, "status.extra")
    if pv.fuse:
        text = "🧨 " + text + " " + t(lang, "status.fuse")  # R-K1: the last seconds
    return text


def table_buttons(table: LiveTable, pv: PublicView, lang: str) -> discord.ui.View:
    v = discord.ui.View(timeout=None)
    rnd = pv.round_no
    playing = pv.phase == "play"
    v.add_item(
        _button(
            t(lang, "btn.draw"),
            cid("draw", table.id, rnd),
            discord.ButtonStyle.primary,
            disabled=not playing,
            row=0,
        )
    )
    v.add_item(
        _button(
            t(lang, "btn.take", card=label(pv.discard_top)),
            cid("take", table.id, rnd),
            disabled=not pv.discard_takeable,
            row=0,
        )
    )
    v.add_item(
        _button(
            t(lang, "btn.call"),
            cid("call", table.id, rnd),
            discord.ButtonStyle.danger,
            disabled=not pv.call_open,
            row=0,
        )
    )
    v.add_item(
        _button(t(lang, "btn.hand"), cid("hand", table.id, rnd), discord.ButtonStyle.success, row=0)
    )
    slots = max((len(s.slots) for s in pv.seats), default=0)
    can_double = pv.doubles_open
    seq = pv.discard_seq or 0
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


def round_over_message(
    table: LiveTable, pv: PublicView, lang: str
) -> tuple[discord.Embed, discord.ui.View]:
    game = table.game
    assert game is not None and pv.last_round is not None
    res = pv.last_round
    lines = []
    order = sorted(range(len(res.totals)), key=lambda s: res.places[s])
    for s in order:
        hand = " ".join(label(c) if c else HOLE for c in res.hands[s])
        caller = " 📣" if res.caller == s else ""
        lines.append(
            t(
                lang,
                "over.line",
                place=res.places[s],
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
    embed.add_field(name=t(lang, "over.reason"), value=t(lang, f"end.{res.reason}"), inline=False)
    v = discord.ui.View(timeout=None)
    if pv.match_over:
        winners = ", ".join(name_of(table, w, lang) for w in pv.winners)
        embed.add_field(name=t(lang, "over.winners"), value=winners, inline=False)
        v.add_item(
            _button(t(lang, "btn.rematch"), cid("rematch", table.id), discord.ButtonStyle.primary)
        )
    else:
        if pv.deadline is not None:
            embed.add_field(name=t(lang, "over.next"), value=ts(pv.deadline), inline=False)
        v.add_item(
            _button(
                t(lang, "btn.next"),
                cid("next", table.id, res.round_no),
                discord.ButtonStyle.primary,
            )
        )
    return embed, v


# -- events in words (public only) -------------------------------------------------------


def event_line(table: LiveTable, e: E.Event, lang: str) -> str | None:
    if e.to is not None:
        return None  # never render a private or log-only event in public

    def n(seat: int) -> str:
        return name_of(table, seat, lang)

    match e:
        case E.RoundStarted():
            return t(lang, "ev.round_started", round=e.round_no)
        case E.TurnStarted():
            return None
        case E.Drew(source="pile"):
            return t(lang, "ev.drew_pile", name=n(e.player))
        case E.Drew():
            return t(lang, "ev.drew_discard", name=n(e.player), card=card_label(e.card or 0))
        case E.Replaced():
            return t(
                lang, "ev.replaced", name=n(e.player), slot=e.slot, card=card_label(e.discarded)
            )
        case E.Threw():
            return t(lang, "ev.threw", name=n(e.player), card=card_label(e.card))
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
            return t(lang, "ev.doubled", name=n(e.player), slot=e.slot, card=card_label(e.card))
        case E.DoubleMissed():
            return t(
                lang,
                f"ev.missed_{e.reason}",
                name=n(e.player),
                slot=e.slot,
                card=card_label(e.card),
            )
        case E.Called(right=True):
            return t(lang, "ev.called_right", name=n(e.player), total=_score(e.total))
        case E.Called():
            shown = " ".join(card_label(c) for _, c in e.cards)
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


def panel(table: LiveTable, seat: int, lang: str, at: int, queen_slot: int | None = None) -> Panel:
    """The player's own panel: their row as they may see it, their possible moves, and when
    a card it shows for a while (peek, King look) must be hidden again (None: nothing)."""
    game = table.game
    assert game is not None
    pv = view(game, seat, at)
    ends = [u for u in (pv.peek_until, pv.look[3] if pv.look else None) if u is not None]
    hide_at = max(ends) if ends else None
    return Panel(panel_text(table, pv, lang), panel_buttons(table, pv, lang, queen_slot), hide_at)


def panel_text(table: LiveTable, pv: PlayerView, lang: str) -> str:
    pub = pv.public
    row = " ".join(
        f"[{s.slot}] " + (f"**{label(s.card)}**" if s.card else (BACK if s.present else HOLE))
        for s in pv.row
    )
    lines = [t(lang, "panel.title", id=table.id, round=pub.round_no), t(lang, "panel.row", row=row)]
    if pv.peek_until is not None:
        lines.append(t(lang, "panel.peeking", when=ts(pv.peek_until)))
    elif pub.phase == "peek" and not pv.peeked:
        lines.append(t(lang, "panel.peek_prompt"))
    if pv.look is not None:
        target, slot, code, until = pv.look
        lines.append(
            t(
                lang,
                "panel.look",
                name=name_of(table, target, lang),
                slot=slot,
                card=label(code),
                when=ts(until),
            )
        )
    mine = pub.current == pv.seat
    if pv.held is not None:
        key = "panel.held_discard" if pub.holding_from == "discard" else "panel.held"
        lines.append(t(lang, key, card=label(pv.held)))
    elif mine and pub.stage == "power" and pub.power:
        lines.append(t(lang, f"panel.power.{pub.power}"))
    elif mine and pub.stage == "start":
        lines.append(t(lang, "panel.your_turn", when=ts(pub.turn_deadline or 0)))
        if pub.transmitted:
            lines.append(t(lang, "panel.transmitted", power=t(lang, f"power.{pub.transmitted}")))
    me = pub.seats[pv.seat]
    if me.blocked_for_round:
        lines.append(t(lang, "panel.blocked_round"))
    elif me.blocked_until:
        lines.append(t(lang, "panel.blocked", when=ts(me.blocked_until)))
    return "\n".join(lines)


def panel_buttons(
    table: LiveTable, pv: PlayerView, lang: str, queen_slot: int | None
) -> discord.ui.View:
    v = discord.ui.View(timeout=None)
    pub = pv.public
    rnd = pub.round_no
    tid = table.id
    legal = set(pv.legal)
    present = [s.slot for s in pv.row if s.present]
    items: list[discord.ui.Item[discord.ui.View]] = []
    if "peek" in legal:
        items.append(
            _button(t(lang, "btn.peek"), cid("peek", tid, rnd), discord.ButtonStyle.primary)
        )
    mine = pub.current == pv.seat and pub.phase == "play"
    if mine and pub.stage == "holding":
        items += [
            _button(
                t(lang, "btn.replace", slot=s),
                cid("rep", tid, f"{rnd}.{s}"),
                discord.ButtonStyle.primary,
            )
            for s in present
        ]
        if "throw" in legal:
            items.append(
                _button(t(lang, "btn.throw"), cid("throw", tid, rnd), discord.ButtonStyle.danger)
            )
    elif mine:
        power = pub.power if pub.stage == "power" else pub.transmitted
        if pub.stage == "start":
            items.append(
                _button(t(lang, "btn.draw"), cid("draw", tid, rnd), discord.ButtonStyle.primary)
            )
            if "take_discard" in legal:
                items.append(
                    _button(t(lang, "btn.take", card=label(pub.discard_top)), cid("take", tid, rnd))
                )
            if "call" in legal:
                items.append(
                    _button(t(lang, "btn.call"), cid("call", tid, rnd), discord.ButtonStyle.danger)
                )
        if power == "replay" and "replay" in legal:
            items.append(
                _button(t(lang, "btn.replay"), cid("replay", tid, rnd), discord.ButtonStyle.primary)
            )
        elif power == "look_own" and "look" in legal:
            items += [
                _button(t(lang, "btn.look", slot=s), cid("look", tid, f"{rnd}.{s}"))
                for s in present
            ]
        elif power == "blind_swap" and "swap" in legal:
            if queen_slot is None:
                items += [
                    _button(t(lang, "btn.queen_mine", slot=s), cid("qmine", tid, f"{rnd}.{s}"))
                    for s in present
                ]
            else:
                options = [
                    discord.SelectOption(
                        label=t(
                            lang,
                            "select.queen_target",
                            name=name_of(table, sv.seat, lang),
                            slot=i + 1,
                        )[:100],
                        value=f"{sv.seat}.{i + 1}",
                    )
                    for sv in pub.seats
                    if sv.seat != pv.seat and not sv.frozen
                    for i, present_slot in enumerate(sv.slots)
                    if present_slot
                ][:25]
                select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
                    custom_id=cid("qswap", tid, f"{rnd}.{queen_slot}"),
                    placeholder=t(lang, "select.queen_placeholder", slot=queen_slot)[:150],
                    options=options,
                )
                v.add_item(select)
        if pub.stage == "power" and "pass" in legal:
            items.append(_button(t(lang, "btn.pass"), cid("pass", tid, rnd)))
    used_rows = len(v.children)
    for i, item in enumerate(items[: 5 * (MAX_BUTTON_ROWS - used_rows)]):
        item.row = used_rows + i // 5
        v.add_item(item)
    return v
