"""Tamalou's public messages: the lobby, the table message (its embed, its buttons and its
picture) and the events in words.

Renders only the public view (``seen.public``) and public events: no hidden card can reach
a table message from here.
"""

from __future__ import annotations

from typing import Literal

import discord

from bot.games.tamalou import variants
from bot.games.tamalou.faces import (
    HOLE,
    back,
    card_label,
    face_code,
    hole,
    label,
    name_of,
    picture_name,
    score,
    shown,
    shown_card,
    signed,
)
from bot.games.tamalou.seen import rules_of, seen_at
from bot.games.tamalou.verbs import cid
from bot.i18n import t
from bot.tables import LiveTable
from bot.ui import cards as card_faces
from bot.ui import grid, lobby, score_sheet
from bot.ui.cards import CardPicture
from bot.ui.kit import button as _button
from bot.ui.kit import round_end_view, ts
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.views import PublicView

#: what an embed may hold in all (Discord's limit, a little kept back)
EMBED_ROOM = 5900

#: the current player's stage, as the public view gives it
Stage = Literal["start", "holding", "power", "call", "window"]


STATUS_KEYS: dict[Stage, str] = {
    "start": "status.turn",
    "holding": "status.holding",
    "power": "status.power",
    "call": "status.call",  # R-X6: the end-of-turn call
    "window": "status.window",  # R-X11: the open-doubles window
}


#: the table's double buttons: the rows below Draw, Take, Call, My cards (Discord's grid)
DOUBLES_ROOM = grid.PER_ROW * (grid.ROWS - 1)


def title_name(table: LiveTable, lang: str) -> str:
    """The table's variant as its titles name it (R-V: "Dutch — table 3"); Tamalou for a
    rules set no variant names."""
    variant = rules_of(table).name
    name = variants.display_name(variant, lang)
    return t(lang, "variant.tamalou") if name == f"variant.{variant}" else name


def lobby_message(
    table: LiveTable, lang: str, expires_at: int
) -> tuple[discord.Embed, discord.ui.View]:
    rules = rules_of(table)
    settings = t(
        lang,
        "lobby.settings_value",
        match=variants.match_short(rules, lang),
        seconds=rules.turn_ms // 1000,
        max=rules.max_players,
    )
    return lobby.lobby_message(
        table,
        lang,
        expires_at,
        title=t(lang, "lobby.title", game=title_name(table, lang), id=table.id),
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
            slots.append(shown(sv.revealed[slot], "`", lang=lang))
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
    return f"{marks}**{name_of(table, seat, lang)}** {' '.join(slots)} · {score(sv.score)}" + (
        f" {' '.join(flags)}" if flags else ""
    )


def table_message(table: LiveTable, lang: str, at: int) -> tuple[discord.Embed, discord.ui.View]:
    seen = seen_at(table, at)
    game, pv = seen.game, seen.public
    if pv.phase == "over":
        return round_over_message(table, pv, lang)
    embed = discord.Embed(
        title=t(lang, "table.title", game=title_name(table, lang), id=table.id, round=pv.round_no),
        description="\n".join(seat_line(table, pv, s, lang) for s in range(len(pv.seats))),
        colour=discord.Colour.dark_green(),
    )
    embed.add_field(name=t(lang, "table.discard"), value=shown(pv.discard_top, lang=lang))
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
            match=variants.match_short(game.rules, lang),
            seconds=game.rules.turn_ms // 1000,
            call=game.rules.call_name,  # the 🔒 legend: "Dutch called" in dutch
        )
    )
    return embed, table_buttons(table, pv, lang)


def status_line(table: LiveTable, pv: PublicView, lang: str) -> str:
    phase = pv.phase
    if phase == "peek":
        return variants.peek_text(rules_of(table), "status.peek", lang, when=ts(pv.deadline or 0))
    if phase == "final":
        return t(lang, "status.final", when=ts(pv.deadline or 0))
    assert pv.current is not None
    who = name_of(table, pv.current, lang)
    stage = pv.stage or "start"
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
    if pv.phase == "peek" or pv.discard_top is None:
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
    # a row longer than the room (penalties, R-D5): its last slots are doubled from the
    # member's panel (``dblm``), which narrows them when they are many (grid.narrowed)
    last = slots if slots <= DOUBLES_ROOM else DOUBLES_ROOM - 1
    for slot in range(1, last + 1):
        v.add_item(
            _button(
                t(lang, "btn.double", slot=slot),
                cid("dbl", table.id, rnd, slot, seq),
                disabled=not can_double,
                row=1 + (slot - 1) // grid.PER_ROW,
            )
        )
    if last < slots:
        more = t(lang, "btn.double_more", first=last + 1, last=slots)
        v.add_item(
            _button(more, cid("dblm", table.id, rnd), disabled=not can_double, row=grid.ROWS - 1)
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
    text = t(lang, "btn.take", card="" if emoji else label(discard_top, lang=lang)).strip()
    item = _button(text, cid("take", table_id, rnd), disabled=disabled, row=row)
    item.emoji = emoji
    return item


def table_picture(table: LiveTable, lang: str, at: int) -> CardPicture | None:
    """The end-of-round reveal: every row face up, one labelled row per player."""
    game = table.game
    if game is None or game.round.phase != "over":  # a public fact: no view built for it
        return None
    return reveal_picture(table, seen_at(table, at).public, lang)


def reveal_picture(table: LiveTable, pv: PublicView, lang: str) -> CardPicture | None:
    if pv.phase != "over" or pv.last_round is None:
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
    alt = " | ".join(
        f"{name}: {' '.join(card_faces.local_text(c, lang) for c in codes)}" for name, codes in rows
    )  # a screen reader reads the reader's letters (R♥ in French)
    return CardPicture.table(rows, filename=f"round-{res.round_no}.png", alt=alt)


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
            "".join(shown(c, lang=lang) if c else hole() for c in res.hands[s])
            if card_faces.available()
            else " ".join(label(c, lang=lang) if c else HOLE for c in res.hands[s])
        )
        caller = " 📣" if res.caller == s else ""
        lines.append(
            t(
                lang,
                "over.line",
                place=places[s],
                name=name_of(table, s, lang),
                hand=hand,
                total=score(res.totals[s]),
                score=signed(res.scores[s]),
                cumulative=score(game.cumulative[s]),
            )
            + caller
        )
    title = "over.match_title" if pv.match_over else "over.title"
    embed = discord.Embed(
        title=t(lang, title, game=title_name(table, lang), id=table.id, round=res.round_no),
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
    if pv.match_over:
        add_score_sheet(embed, table, order, lang)
    return embed, v


def add_score_sheet(embed: discord.Embed, table: LiveTable, order: list[int], lang: str) -> None:
    """The match's every round, a column a player in ``order`` (every round is over and
    public: its scores were on each round's message)."""
    game = table.game
    assert game is not None
    rounds = [
        (
            r.round_no,
            [None if r.active and not r.active[s] else r.scores[s] for s in order],
        )
        for r in game.history
    ]
    made = score_sheet.sheet(
        lang,
        [picture_name(table, s, lang) for s in order],
        rounds,
        [game.cumulative[s] for s in order],
        limit=min(score_sheet.FIELD_LIMIT, EMBED_ROOM - len(embed)),
    )
    if made is not None:
        embed.add_field(name=made[0], value=made[1], inline=False)


def event_line(table: LiveTable, e: E.Event, lang: str, at: int | None = None) -> str | None:
    """``e`` in words for everybody, as it reads at ``at`` (a failed call's cards are named
    only while they are shown, R-A4)."""
    if e.to is not None:
        return None  # never render a private or log-only event in public

    def n(seat: int) -> str:
        return name_of(table, seat, lang)

    line = variants.event_line(
        rules_of(table), e, lang, n, lambda card: card_label(card, lang=lang)
    )
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
            return t(
                lang, "ev.drew_discard", name=n(e.player), card=shown_card(e.card or 0, lang=lang)
            )
        case E.Replaced():
            return t(
                lang,
                "ev.replaced",
                name=n(e.player),
                slot=e.slot,
                card=shown_card(e.discarded, lang=lang),
            )
        case E.Threw():
            return t(lang, "ev.threw", name=n(e.player), card=shown_card(e.card, lang=lang))
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
            return t(
                lang,
                "ev.doubled",
                name=n(e.player),
                slot=e.slot,
                card=shown_card(e.card, lang=lang),
            )
        case E.DoubleMissed():
            return t(
                lang,
                f"ev.missed_{e.reason}",
                name=n(e.player),
                slot=e.slot,
                card=shown_card(e.card, lang=lang),
            )
        case E.Called(right=True):
            return t(lang, "ev.called_right", name=n(e.player), total=score(e.total))
        case E.Called():
            if (
                e.reveal_until is not None and at is not None and at >= e.reveal_until
            ):  # R-A4: hidden again
                return t(lang, "ev.called_wrong_hidden", name=n(e.player), total=score(e.total))
            shown = " ".join(shown_card(c, lang=lang) for _, c in e.cards)
            return t(lang, "ev.called_wrong", name=n(e.player), total=score(e.total), cards=shown)
        case E.TimedOut():
            return t(lang, "ev.away" if e.away else "ev.timed_out", name=n(e.player))
        case E.Reshuffled():
            return t(lang, "ev.reshuffled", size=e.size)
        case E.FinalWindow():
            return t(lang, "ev.final_window", when=ts(e.until))
        case E.RoundEnded():
            return t(lang, "ev.round_ended", round=e.round_no)
    return None
