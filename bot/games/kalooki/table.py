"""Kalooki's public messages: the lobby, the table message (its embed and its buttons),
the round's end and the events in words.

Drawn from the public view (``seen.public``) and public events only.
"""

from __future__ import annotations

import discord

from bot.games.kalooki.faces import (
    card_button,
    card_word,
    contract_text,
    face,
    faces,
    name_of,
    score,
)
from bot.games.kalooki.seen import game_of, rules_of, seen_at
from bot.games.kalooki.verbs import cid
from bot.i18n import t
from bot.tables import LiveTable
from bot.ui import lobby, score_sheet
from bot.ui.cards import display
from bot.ui.kit import button, picture_name, round_end_view, ts
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.views import MeldView, PublicView

#: an embed's characters (Discord refuses more than 6000)
EMBED_BUDGET = 5900


def lobby_message(
    table: LiveTable, lang: str, expires_at: int
) -> tuple[discord.Embed, discord.ui.View]:
    rules = rules_of(table)
    settings = t(
        lang,
        "kalooki.lobby.settings_value",  # its rounds follow: the preset's short name
        preset=t(lang, f"kalooki.variant.{rules.name}"),
        rounds=len(rules.rounds),
        seconds=rules.turn_clock_s,
        max=rules.max_players,
    )
    return lobby.lobby_message(
        table,
        lang,
        expires_at,
        title=t(lang, "kalooki.lobby.title", id=table.id),
        fields=[(t(lang, "lobby.settings"), settings, False)],
        min_players=rules.min_players,
    )


def seat_line(table: LiveTable, pv: PublicView, seat: int, lang: str) -> str:
    sv = pv.seats[seat]
    flags = []
    if sv.laid_down:
        flags.append("✅")
    if sv.away:
        flags.append("💤")
    elif sv.short:
        flags.append("⏱")
    if sv.is_ai:
        flags.append("🤖")
    mark = "▶ " if pv.current == seat else ""
    dealer = " 🎴" if pv.dealer == seat else ""
    text = t(
        lang,
        "kalooki.seat_line",
        name=name_of(table, seat, lang),
        cards=sv.hand_size,
        calls=sv.calls,
        score=score(sv.score),
    )
    return f"{mark}{text}{dealer}" + (f" {' '.join(flags)}" if flags else "")


def meld_text(m: MeldView, lang: str) -> str:
    return t(lang, "kalooki.meld", n=m.index + 1, kind=t(lang, f"kalooki.kind.{m.kind}")) + (
        " " + faces(m.cards, lang=lang)
    )


def meld_fields(table: LiveTable, pv: PublicView, lang: str) -> list[tuple[str, str]]:
    """One field per player with melds: name, then each meld (numbered as lay-offs name them)."""
    out = []
    for seat in range(len(pv.seats)):
        mine = [meld_text(m, lang) for m in pv.melds if m.owner == seat]
        if not mine:
            continue
        value = ""
        for line in mine:
            if len(value) + len(line) + 1 > 1024:
                break
            value = f"{value}\n{line}" if value else line
        out.append((t(lang, "kalooki.melds_of", name=name_of(table, seat, lang)), value))
    return out


def status_line(table: LiveTable, pv: PublicView, lang: str, at: int) -> str:
    if pv.current is None:
        return "—"
    who = name_of(table, pv.current, lang)
    if pv.pending_call is not None:
        return t(
            lang,
            "kalooki.status.call",
            caller=name_of(table, pv.pending_call, lang),
            name=who,
            card=face(pv.discard_top, lang=lang) if pv.discard_top is not None else "—",
        )
    if pv.stage == "play":
        text = t(lang, "kalooki.status.play", name=who, when=ts(pv.turn_deadline or 0))
    else:
        text = t(lang, "kalooki.status.draw", name=who, when=ts(pv.turn_deadline or 0))
        if pv.draw_at is not None and at < pv.draw_at and pv.call_open:  # K-K2: the window
            text += " " + t(lang, "kalooki.status.calls_open", when=ts(pv.draw_at))
        elif pv.call_open:  # K-CL2: the discard stays live until the draw
            text += " " + t(lang, "kalooki.status.calls_until_draw")
    if pv.fuse:
        text = "🧨 " + text + " " + t(lang, "kalooki.status.fuse")  # K-K1: the last seconds
    return text


def table_message(
    table: LiveTable, lang: str, at: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    seen = seen_at(table, at)
    game, pv = seen.game, seen.public
    if pv.phase == "over" or pv.match_over:
        return round_over_message(table, pv, lang)
    embed = discord.Embed(
        title=t(lang, "kalooki.table.title", id=table.id, round=pv.round_no, rounds=pv.rounds),
        description="\n".join(seat_line(table, pv, s, lang) for s in range(len(pv.seats))),
        colour=discord.Colour.dark_green(),
    )
    embed.add_field(
        name=t(lang, "kalooki.table.contract"),
        value=t(
            lang,
            "kalooki.table.contract_value",
            contract=contract_text(pv.contract, lang),
            cards=pv.cards_dealt,
        ),
        inline=False,
    )
    top = face(pv.discard_top, lang=lang) if pv.discard_top is not None else "—"
    if pv.discard_top is not None and not pv.discard_live:
        top += " " + t(lang, "kalooki.table.dead")
    embed.add_field(name=t(lang, "kalooki.table.discard"), value=top)
    embed.add_field(name=t(lang, "kalooki.table.pile"), value=str(pv.pile_size))
    rules = game.rules
    embed.set_footer(
        text=t(
            lang,
            "kalooki.table.footer",
            preset=t(lang, f"kalooki.preset.{rules.name}"),
            seconds=rules.turn_clock_s,
            calls=rules.max_calls,
        )
    )
    embed.add_field(
        name=t(lang, "kalooki.table.status"), value=status_line(table, pv, lang, at), inline=False
    )
    # Discord refuses an embed over 6000 characters or 25 fields: melds first, then events
    for name, value in meld_fields(table, pv, lang):
        if len(embed) + len(name) + len(value) > EMBED_BUDGET or len(embed.fields) >= 24:
            embed.add_field(name="…", value=t(lang, "kalooki.table.more_melds"), inline=False)
            break
        embed.add_field(name=name[:256], value=value, inline=False)
    recent = [line for e in table.recent if (line := event_line(table, e, lang))]
    events = "\n".join(recent[-5:])[:1024]
    name = t(lang, "kalooki.table.events")
    if recent and len(embed) + len(name) + len(events) <= EMBED_BUDGET and len(embed.fields) < 25:
        embed.add_field(name=name, value=events, inline=False)
    return embed, table_buttons(table, pv, lang, at)


def table_buttons(table: LiveTable, pv: PublicView, lang: str, at: int) -> discord.ui.View:
    """Draw, Take discard, Call (it names the discard it claims) and My hand. Draw and Take
    wait for the call window (K-K2; the table is drawn again when it closes), unless a call
    waits for the answer (K-CL4)."""
    v = discord.ui.View(timeout=None)
    rnd = pv.round_no
    window = pv.draw_at is not None and at < pv.draw_at and pv.pending_call is None
    drawing = pv.stage == "draw" and not window
    style = discord.ButtonStyle
    v.add_item(button(t(lang, "btn.draw"), cid("draw", table.id, rnd), style.primary, not drawing))
    top = card_word(pv.discard_top, lang=lang)
    takeable = drawing and pv.discard_live
    v.add_item(
        card_button(
            t(lang, "kalooki.btn.take", card=top),
            pv.discard_top,
            cid("take", table.id, rnd),
            disabled=not takeable,
        )
    )
    call_id = cid("call", table.id, *((rnd,) if pv.discard_top is None else (rnd, pv.discard_top)))
    v.add_item(
        card_button(
            t(lang, "kalooki.btn.call", card=top),
            pv.discard_top,
            call_id,
            style.danger,
            disabled=not pv.call_open or pv.pending_call is not None,
        )
    )
    v.add_item(button(t(lang, "kalooki.btn.hand"), cid("hand", table.id, rnd), style.success))
    return v


def round_over_message(
    table: LiveTable, pv: PublicView, lang: str
) -> tuple[discord.Embed, discord.ui.View]:
    """K-P: the round's standings (hands left, points, doubling, totals); the match's end."""
    res = pv.last_round
    game = game_of(table)
    lines = []
    if res is not None:
        order = sorted(range(len(res.totals)), key=lambda s: (res.places[s], s))
        for s in order:
            hand = display.line(res.hands[s]) if res.hands[s] else ""
            lines.append(
                t(
                    lang,
                    "kalooki.over.line",
                    place=res.places[s],
                    name=name_of(table, s, lang),
                    hand=hand or "—",
                    points=score(res.totals[s]),
                    score=score(res.scores[s]),
                    total=score(game.cumulative[s]),
                )
                + (" 🏁" if res.out == s else "")
            )
    title = "kalooki.over.match_title" if pv.match_over else "kalooki.over.title"
    round_no = res.round_no if res is not None else pv.round_no
    embed = discord.Embed(
        title=t(lang, title, id=table.id, round=round_no, rounds=pv.rounds),
        description="\n".join(lines)[:4096] or "—",
        colour=discord.Colour.gold(),
    )
    if res is not None and res.out is not None:
        key = "kalooki.over.out_doubled" if res.doubled else "kalooki.over.out"
        embed.add_field(
            name=t(lang, "kalooki.over.reason"),
            value=t(lang, key, name=name_of(table, res.out, lang)),
            inline=False,
        )
    v = round_end_view(
        embed,
        lang,
        match_over=pv.match_over,
        winners=[name_of(table, w, lang) for w in pv.winners],
        deadline=pv.deadline,
        rematch_id=cid("rematch", table.id),
        next_id=cid("next", table.id, round_no),
        keys=("kalooki.over.winners", "kalooki.over.next", "btn.next"),
    )
    if pv.match_over:
        order = sorted(range(len(game.cumulative)), key=lambda s: (game.cumulative[s], s))
        made = score_sheet.sheet(
            lang,
            [picture_name(table, s, lang) for s in order],
            [(r.round_no, [r.scores[s] for s in order]) for r in game.history],
            [game.cumulative[s] for s in order],
            limit=min(score_sheet.FIELD_LIMIT, EMBED_BUDGET - len(embed)),
        )
        if made is not None:  # every round, a column a player (the lowest total first)
            embed.add_field(name=made[0], value=made[1], inline=False)
    return embed, v


def event_line(table: LiveTable, e: E.Event, lang: str) -> str | None:
    if e.to is not None:
        return None  # never render a private or log-only event in public

    def n(seat: int) -> str:
        return name_of(table, seat, lang)

    match e:
        case E.RoundStarted():
            return t(lang, "kalooki.ev.round_started", round=e.round_no, dealer=n(e.dealer))
        case E.Drew(source="pile"):
            return t(lang, "kalooki.ev.drew_pile", name=n(e.player))
        case E.Drew():
            return t(
                lang, "kalooki.ev.drew_discard", name=n(e.player), card=face(e.card or 0, lang=lang)
            )
        case E.Called():
            return t(lang, "kalooki.ev.called", name=n(e.player), card=face(e.card, lang=lang))
        case E.CallAllowed():
            return t(lang, "kalooki.ev.call_allowed", name=n(e.player), calls=e.calls)
        case E.CallRefused():
            return t(lang, "kalooki.ev.call_refused", name=n(e.player), by=n(e.by))
        case E.LaidDown():
            return t(lang, "kalooki.ev.laid_down", name=n(e.player), melds=len(e.melds))
        case E.MeldLaid():
            return t(lang, "kalooki.ev.meld_laid", name=n(e.player), meld=e.meld + 1)
        case E.LaidOff():
            return t(
                lang,
                "kalooki.ev.laid_off",
                name=n(e.player),
                card=face(e.card, lang=lang),
                meld=e.meld + 1,
            )
        case E.JokerShifted():
            return t(
                lang,
                "kalooki.ev.joker_shifted",
                name=n(e.player),
                card=face(e.card, lang=lang),
                meld=e.meld + 1,
            )
        case E.Discarded():
            return t(lang, "kalooki.ev.discarded", name=n(e.player), card=face(e.card, lang=lang))
        case E.TurnEnded():
            return t(lang, "kalooki.ev.turn_ended", name=n(e.player))
        case E.TimedOut():
            key = "kalooki.ev.away" if e.away else "kalooki.ev.timed_out"
            return t(lang, key, name=n(e.player))
        case E.Reshuffled():
            return t(lang, "kalooki.ev.reshuffled", size=e.size)
        case E.RoundVoided():
            return t(lang, "kalooki.ev.voided", round=e.round_no)
        case E.RoundEnded():
            return t(lang, "kalooki.ev.round_ended", round=e.round_no)
    return None
