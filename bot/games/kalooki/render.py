"""Kalooki's public table message and private panel.

The table message is drawn from ``public_view`` and public events only; the panel from the
seat's ``view`` and ``legal_actions`` (every button and option is a legal action or a step
of building one). No rule is decided here: a lay-down being built is checked by the
engine's own ``check_lay_down`` and ``melds.normalize``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

import discord

from bot.games import Panel
from bot.games.kalooki import drafts
from bot.games.kalooki.drafts import Draft
from bot.i18n import t
from bot.tables import LiveTable, TableError
from bot.ui import grid, lobby
from bot.ui.cards import display
from bot.ui.cards.codes import text as card_text
from bot.ui.cards.display import CardPicture
from bot.ui.common import button, round_end_view, seat_name, ts
from bot.ui.pipeline import numbers
from tamalou.core import cards
from tamalou.core.errors import IllegalAction
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.engine import check_lay_down, legal_actions, turn
from tamalou.games.kalooki.melds import normalize
from tamalou.games.kalooki.rules import Rules
from tamalou.games.kalooki.state import Game
from tamalou.games.kalooki.views import MeldView, PlayerView, PublicView, public_view, view

GAME = "kalooki"
MAX_OPTIONS = 25
#: a hand longer than this is also shown as a picture (docs/cards.md)
TEXT_HAND_MAX = 9
#: an embed's characters (Discord refuses more than 6000)
EMBED_BUDGET = 5900
SUITS_ORDER = {"s": 0, "h": 1, "c": 2, "d": 3}  # alternating colours, as players hold them
RANK_ORDER = {r: i for i, r in enumerate(cards.RANKS)}


def cid(verb: str, table: int, arg: str | int | None = None) -> str:
    """``kalooki:<verb>:<table>[:<arg>]``: the state is in the service, not the View."""
    return f"{GAME}:{verb}:{table}" if arg is None else f"{GAME}:{verb}:{table}:{arg}"


def rules_of(table: LiveTable) -> Rules:
    return cast(Rules, table.rules)


def game_of(table: LiveTable) -> Game:
    game = table.game
    assert game is not None
    return cast(Game, game)


def turn_of(table: LiveTable, at: int) -> tuple[int, tuple[int, int, int]] | None:
    """The human seat whose turn it is and the turn's key (round, deal, turn number: new at
    each turn started, K-T1), or None: an AI plays, the round or the match is over. A call
    (K-CL4) waits within the current player's turn: nobody else is pinged for it."""
    if table.game is None:
        return None
    game = game_of(table)
    now = turn(game)
    if now is None or game.ai[now[0]]:
        return None
    return now


def face(card: int) -> str:
    """One card as a player sees it: its emoji, or its text (``7♣``, ``🃏``)."""
    return display.show(cards.code(card))


def faces(hand: Sequence[int]) -> str:
    return display.line([cards.code(c) for c in hand]) if hand else "—"


def card_button(
    text: str,
    card: int | None,
    custom_id: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
) -> discord.ui.Button[discord.ui.View]:
    """A button naming a card: ``text`` holds the card as text (a label cannot show a custom
    emoji: its markup would be read as is), the card's face goes in the emoji field."""
    item = button(text, custom_id, style, disabled)
    if card is not None:
        item.emoji = display.partial_emoji(cards.code(card))
    return item


def card_word(card: int | None) -> str:
    """A card as a label may carry it: its text (``9♥``), never its emoji markup."""
    return card_text(cards.code(card)) if card is not None else "—"


def option(card: int, chosen: bool = False) -> discord.SelectOption:
    """A card as a select option: its text, and its face when cards are emojis."""
    code = cards.code(card)
    return discord.SelectOption(
        label=card_text(code), value=str(card), default=chosen, emoji=display.partial_emoji(code)
    )


def name_of(table: LiveTable, seat: int, lang: str) -> str:
    if not 0 <= seat < len(table.seats):
        return f"#{seat + 1}"
    return seat_name(table.seats[seat], lang)


def sort_key(order: str) -> Callable[[int], tuple[int, int, int, int]]:
    def key(card: int) -> tuple[int, int, int, int]:
        s = cards.suit(card)
        if s is None:
            return (1, 0, 0, card)  # jokers last
        rank = RANK_ORDER[cards.rank(card)]
        if order == "rank":
            return (0, rank, SUITS_ORDER[s], card)
        return (0, SUITS_ORDER[s], rank, card)

    return key


def sorted_hand(hand: Sequence[int], order: str) -> list[int]:
    return sorted(hand, key=sort_key(order))


def contract_text(contract: Sequence[int], lang: str) -> str:
    """A contract counted: "3 sets", "2 sets and a run", "a set and 2 runs" (K-R1)."""
    sets, runs = contract.count(3), contract.count(4)
    parts = {
        "sets": t(lang, "kalooki.contract.sets", n=sets) if sets else "",
        "runs": t(lang, "kalooki.contract.runs", n=runs) if runs else "",
    }
    if sets and runs:
        return t(lang, "kalooki.contract.both", **parts)
    return parts["sets"] or parts["runs"]


def _score(value: float) -> str:
    return f"{value:g}"


# -- the lobby ------------------------------------------------------------------------------


def lobby_message(
    table: LiveTable, lang: str, expires_at: int
) -> tuple[discord.Embed, discord.ui.View]:
    rules = rules_of(table)
    settings = t(
        lang,
        "kalooki.lobby.settings_value",
        preset=t(lang, f"kalooki.preset.{rules.name}"),
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


# -- the table message ----------------------------------------------------------------------


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
        score=_score(sv.score),
    )
    return f"{mark}{text}{dealer}" + (f" {' '.join(flags)}" if flags else "")


def meld_text(m: MeldView, lang: str) -> str:
    return t(lang, "kalooki.meld", n=m.index + 1, kind=t(lang, f"kalooki.kind.{m.kind}")) + (
        " " + faces(m.cards)
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
            card=face(pv.discard_top) if pv.discard_top is not None else "—",
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
    game = game_of(table)
    pv = public_view(game, at)
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
    top = face(pv.discard_top) if pv.discard_top is not None else "—"
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
    top = card_word(pv.discard_top)
    takeable = drawing and pv.discard_live
    v.add_item(
        card_button(
            t(lang, "kalooki.btn.take", card=top),
            pv.discard_top,
            cid("take", table.id, rnd),
            disabled=not takeable,
        )
    )
    call_arg = f"{rnd}.{pv.discard_top}" if pv.discard_top is not None else f"{rnd}"
    v.add_item(
        card_button(
            t(lang, "kalooki.btn.call", card=top),
            pv.discard_top,
            cid("call", table.id, call_arg),
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
                    points=_score(res.totals[s]),
                    score=_score(res.scores[s]),
                    total=_score(game.cumulative[s]),
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
    return embed, v


# -- events in words (public only) ----------------------------------------------------------


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
            return t(lang, "kalooki.ev.drew_discard", name=n(e.player), card=face(e.card or 0))
        case E.Called():
            return t(lang, "kalooki.ev.called", name=n(e.player), card=face(e.card))
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
                lang, "kalooki.ev.laid_off", name=n(e.player), card=face(e.card), meld=e.meld + 1
            )
        case E.JokerShifted():
            return t(
                lang,
                "kalooki.ev.joker_shifted",
                name=n(e.player),
                card=face(e.card),
                meld=e.meld + 1,
            )
        case E.Discarded():
            return t(lang, "kalooki.ev.discarded", name=n(e.player), card=face(e.card))
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


# -- the private panel ----------------------------------------------------------------------


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


def panel(table: LiveTable, seat: int, lang: str, at: int) -> Panel:
    game = game_of(table)
    pv = view(game, seat, at)
    legal = legal_actions(game, seat, at)
    pub = pv.public
    d = drafts.draft(table.id, seat, pub.round_no, pub.deal_no, len(pub.contract))
    kinds = {a.kind for a in legal if a.player == seat}
    playing = "discard" in kinds or "end_turn" in kinds
    laid = pub.seats[seat].laid_down
    if (d.mode == "build" and not (playing and not laid)) or (
        d.mode == "meld" and not (playing and laid)
    ):
        d.mode = "main"
    hand_set = set(pv.hand)
    for meld in d.melds:
        meld[:] = [c for c in meld if c in hand_set]
    d.extra = [c for c in d.extra if c in hand_set]
    order = drafts.sort_of(table.id, seat)
    text = panel_text(table, pv, d, order, lang)
    if d.mode == "build" and all(d.melds) and d.refusal is None:
        # the whole contract checked as the engine will check it (K-L1, K-M6, K-T5)
        verdict = check_draft(game, seat, pub.contract, d)
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
        picture=picture(pv, d, order),
    )


def picture(pv: PlayerView, d: Draft, order: str) -> CardPicture | None:
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
    return CardPicture.hand([cards.code(c) for c in hand], highlight=raised)


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
        t(lang, "kalooki.panel.hand", count=len(hand), cards=faces(hand)),
    ]
    if pv.drawn is not None:
        lines.append(t(lang, "kalooki.panel.drawn", card=face(pv.drawn)))
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
                card=face(pub.discard_top) if pub.discard_top is not None else "—",
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
                    cards=faces(picked),
                    check=meld_check(kind, picked, lang),
                )
            )
    elif d.mode == "meld":
        lines.append(t(lang, "kalooki.panel.new_meld", cards=faces(d.extra)))
    if d.refusal is not None:
        number, reason = d.refusal
        words = refusal_words(lang, reason)
        if number:
            lines.append(t(lang, "kalooki.panel.refused_meld", n=number, reason=words))
        else:
            lines.append(t(lang, "kalooki.panel.refused", reason=words))
    return "\n".join(lines)[:2000]


def check_draft(game: Game, seat: int, contract: Sequence[int], d: Draft) -> IllegalAction | None:
    """The engine's verdict on the lay-down being built (None: it would be accepted)."""
    melds = [(kind, tuple(d.melds[i])) for i, kind in enumerate(contract)]
    try:
        check_lay_down(game, seat, melds)
    except IllegalAction as refusal:
        return refusal
    return None


def _card_options(hand: Sequence[int], chosen: Sequence[int] = ()) -> list[discord.SelectOption]:
    picked = set(chosen)
    return [option(c, c in picked) for c in hand[:MAX_OPTIONS]]


def lay_off_label(table: LiveTable, pub: PublicView, a: A.Action, lang: str) -> str:
    meld = pub.melds[a.meld] if isinstance(a, A.LayOff | A.ShiftJoker) else None
    assert meld is not None and isinstance(a, A.LayOff | A.ShiftJoker)
    owner = name_of(table, meld.owner, lang)
    if isinstance(a, A.ShiftJoker):
        return t(lang, "kalooki.opt.shift", card=card_word(a.card), n=a.meld + 1, name=owner)
    key = "kalooki.opt.lay_off_low" if a.end == "low" and meld.kind == 4 else "kalooki.opt.lay_off"
    return t(lang, key, card=card_word(a.card), n=a.meld + 1, name=owner)


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


def lay_card_of(value: str) -> tuple[int, int | None]:
    """:func:`lay_card_value` read back (the card, the range); else ``bad_button``."""
    parts = numbers(value)
    if len(parts) == 1:
        return parts[0], None
    if len(parts) == 2:
        return parts[0], parts[1]
    raise TableError("bad_button")


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
            out.append(option(c, c == d.lay_card))
            continue
        for i, group in enumerate(step.groups):
            o = option(c, c == d.lay_card and i == d.lay_group)
            o.label = t(
                lang, "kalooki.opt.lay_range", card=o.label, first=group[0] + 1, last=group[-1] + 1
            )[:100]
            o.value = lay_card_value(c, i)
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
    if d.mode == "build":
        for i, kind in enumerate(pub.contract[:4]):
            v.add_item(
                discord.ui.Select(
                    custom_id=cid("pick", tid, f"{rnd}.3.{i}"),
                    placeholder=t(
                        lang, "kalooki.select.meld", n=i + 1, kind=t(lang, f"kalooki.kind.{kind}")
                    )[:150],
                    min_values=0,
                    max_values=min(len(hand), MAX_OPTIONS),
                    options=_card_options(hand, d.melds[i] if i < len(d.melds) else []),
                    row=i,
                )
            )
        last = min(len(pub.contract), 4)
        v.add_item(
            button(t(lang, "kalooki.btn.lay"), cid("lay", tid, rnd), style.success, row=last)
        )
        if pv.suggested_lay_down is not None:
            v.add_item(button(t(lang, "kalooki.btn.suggest"), cid("sugg", tid, rnd), row=last))
        v.add_item(button(t(lang, "kalooki.btn.clear"), cid("clear", tid, rnd), row=last))
        v.add_item(button(t(lang, "kalooki.btn.back"), cid("back", tid, rnd), row=last))
        return v
    if d.mode == "meld":
        v.add_item(
            discord.ui.Select(
                custom_id=cid("pick", tid, f"{rnd}.4"),
                placeholder=t(lang, "kalooki.select.new_meld")[:150],
                min_values=0,
                max_values=min(len(hand), MAX_OPTIONS),
                options=_card_options(hand, d.extra),
                row=0,
            )
        )
        v.add_item(
            button(t(lang, "kalooki.btn.lay_set"), cid("set", tid, rnd), style.success, row=1)
        )
        v.add_item(
            button(t(lang, "kalooki.btn.lay_run"), cid("run", tid, rnd), style.success, row=1)
        )
        v.add_item(button(t(lang, "kalooki.btn.back"), cid("back", tid, rnd), row=1))
        return v
    row0: list[discord.ui.Button[discord.ui.View]] = []
    pending = pub.pending_call is not None and pub.current == seat
    if "draw" in kinds:
        key = "kalooki.btn.allow" if pending else "btn.draw"
        row0.append(button(t(lang, key), cid("draw", tid, f"{rnd}.1"), style.primary))
    if "take_discard" in kinds:
        key = "kalooki.btn.refuse" if pending else "kalooki.btn.take"
        text = t(lang, key, card=card_word(pub.discard_top))
        row0.append(card_button(text, pub.discard_top, cid("take", tid, f"{rnd}.1")))
    for a in mine:
        if isinstance(a, A.Call) and a.card is not None:
            row0.append(
                card_button(
                    t(lang, "kalooki.btn.call", card=card_word(a.card)),
                    a.card,
                    cid("call", tid, f"{rnd}.{a.card}.1"),
                    style.danger,
                )
            )
            break
    if "end_turn" in kinds:
        row0.append(button(t(lang, "kalooki.btn.end_turn"), cid("end", tid, rnd), style.primary))
    if "next_round" in kinds:
        row0.append(button(t(lang, "btn.next"), cid("next", tid, f"{rnd}.1"), style.primary))
    row0.append(button(sort_label, cid("sort", tid, rnd)))
    # the grid (bot/ui/grid.py): the turn's buttons first, then the selects, the rest last
    entries: list[tuple[int, discord.ui.Item[discord.ui.View]]] = [(0, b) for b in row0]
    discards = [a for a in mine if isinstance(a, A.Discard)]
    if discards:
        by_card = {a.card for a in discards}
        discard = discord.ui.Select[discord.ui.View](
            custom_id=cid("pick", tid, f"{rnd}.1"),
            placeholder=t(lang, "kalooki.select.discard")[:150],
            options=[option(c) for c in hand if c in by_card][:MAX_OPTIONS],
        )
        entries.append((1, discard))
    lays = [a for a in mine if isinstance(a, A.LayOff | A.ShiftJoker)]
    if len(lays) > MAX_OPTIONS:  # too many for one list: the card first, then where
        by_card = {a.card for a in lays}
        lay_card = discord.ui.Select[discord.ui.View](
            custom_id=cid("pick", tid, f"{rnd}.5"),
            placeholder=t(lang, "kalooki.select.lay_card")[:150],
            options=lay_card_options(hand, lays, d, lang),
        )
        entries.append((2, lay_card))
        lays = [a for a in lays if a.card == d.lay_card]
        step = lay_range(len(lays), d.lay_group)
        # a card's range of places not chosen yet (or one of another card): nothing listed
        lays = [lays[i] for i in step.choices] if step and step.done else []
    if lays:
        lay_off = discord.ui.Select[discord.ui.View](
            custom_id=cid("pick", tid, f"{rnd}.2"),
            placeholder=t(lang, "kalooki.select.lay_off")[:150],
            options=[
                discord.SelectOption(
                    label=lay_off_label(table, pub, a, lang)[:100],
                    value=lay_off_value(a),
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
    v, _ = grid.place(entries, v)
    return v
