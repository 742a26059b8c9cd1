"""Tarot's public table message and private panels, drawn from the engine's views.

The table message is rendered from ``public_view`` and public events only; a panel from
``view`` (the reader's own) and ``legal_actions``. No rule is decided here: the bids, the
called cards, the écart cards, the poignées and the playable cards a panel offers are the
engine's lists, and every click is judged by the engine again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import discord

from bot.games import Panel
from bot.games.tarot.faces import face, label, line, partial_emoji, show
from bot.i18n import t
from bot.tables import LiveTable
from bot.ui import grid, lobby
from bot.ui.cards import CardPicture
from bot.ui.common import button, round_end_view, seat_name, ts
from tamalou.games.tarot import actions as A
from tamalou.games.tarot import events as E
from tamalou.games.tarot.cards import code as card_code
from tamalou.games.tarot.cards import from_code, sort_key
from tamalou.games.tarot.engine import ecart_refusal, legal_actions, poignee_trumps, turn
from tamalou.games.tarot.rules import CONTRACTS, Rules
from tamalou.games.tarot.state import Game
from tamalou.games.tarot.views import PlayerView, PublicView, TrickView, public_view, view

GAME = "tarot"
#: the dealer's mark in a seat line (as Kalooki's; 🃏 names the Excuse and jokers)
DEALER = "🎴"
ROW = grid.PER_ROW
MAX_ROWS = grid.ROWS
#: select menus hold at most 25 options (Discord)
SELECT_MAX = 25
#: what a ``pick`` select chooses (the first number after the deal in its argument)
PICK_ECART = 1  # one group of the écart's cards (1, 2, …)
PICK_PLAY = 10  # a card to play (10, 11, …: one select per 25 cards)
PICK_POIGNEE = 20  # the trumps to show in a poignée
#: a panel's text longer than this is written with card names instead of emojis (a message
#: holds 2000 characters; room is kept for a warning line)
PANEL_ROOM = 1900


def cid(verb: str, table: int, arg: str | int | None = None) -> str:
    """``tarot:<verb>:<table>[:<arg>]`` (DESIGN: state in the database, not the View)."""
    return f"{GAME}:{verb}:{table}" if arg is None else f"{GAME}:{verb}:{table}:{arg}"


def rules_of(table: LiveTable) -> Rules:
    return cast(Rules, table.rules)


def name_of(table: LiveTable, seat: int, lang: str) -> str:
    if not 0 <= seat < len(table.seats):
        return f"#{seat + 1}"
    return seat_name(table.seats[seat], lang)


def turn_of(table: LiveTable, at: int) -> tuple[int, tuple[int, int]] | None:
    """The human seat to act and the turn's key (deal, turn number: new at each bid, call,
    écart, chelem window and card, T-B2, T-P1), or None: an AI acts, the deal or the match
    is over."""
    if table.game is None:
        return None
    game = cast(Game, table.game)
    now = turn(game)
    if now is None or game.ai[now[0]]:
        return None
    return now


def contract_name(contract: int | str, lang: str) -> str:
    key = CONTRACTS[contract] if isinstance(contract, int) else contract
    return t(lang, f"tarot.contract.{key}")


def last_lines(lines: Sequence[str], limit: int) -> str:
    """The last lines that fit in ``limit`` characters, whole (an emoji is never cut)."""
    kept: list[str] = []
    size = 0
    for ln in reversed(lines):
        if size + len(ln) + 1 > limit + 1:
            break
        kept.append(ln)
        size += len(ln) + 1
    return "\n".join(reversed(kept)) or lines[-1][:limit]


def signed(value: int) -> str:
    return f"{value:+d}"


def points(value: float) -> str:
    return f"{value:g}"


# -- the lobby -----------------------------------------------------------------------------


def lobby_message(
    table: LiveTable, lang: str, expires_at: int
) -> tuple[discord.Embed, discord.ui.View]:
    rules = rules_of(table)
    players = (
        str(rules.min_players)
        if rules.min_players == rules.max_players
        else f"{rules.min_players}–{rules.max_players}"
    )
    settings = t(lang, "tarot.lobby.settings_value", players=players, rounds=rules.rounds)
    if rules.sans_chien:
        settings += " · " + t(lang, "tarot.lobby.sans_chien")
    return lobby.lobby_message(
        table,
        lang,
        expires_at,
        title=t(lang, "tarot.lobby.title", id=table.id),
        fields=[(t(lang, "lobby.settings"), settings, False)],
        min_players=rules.min_players,
    )


# -- the table message ---------------------------------------------------------------------


def table_message(table: LiveTable, lang: str, at: int) -> tuple[discord.Embed, discord.ui.View]:
    game = table.game
    assert game is not None
    pv = public_view(game, at)
    if pv.phase == "over" and pv.last_deal is not None:
        return deal_over_message(table, pv, lang)
    embed = discord.Embed(
        title=t(
            lang,
            "tarot.table.title",
            id=table.id,
            deal=pv.played_deals + 1,
            deals=pv.deals_in_match,
        ),
        description="\n".join(seat_line(table, pv, s, lang) for s in range(len(pv.seats))),
        colour=discord.Colour.dark_green(),
    )
    if pv.taker is not None and pv.contract is not None:
        embed.add_field(
            name=t(lang, "tarot.table.contract"), value=contract_line(table, pv, lang), inline=False
        )
    if pv.dog:
        embed.add_field(name=t(lang, "tarot.table.dog"), value=line(pv.dog, lang), inline=False)
    if pv.ecart_trumps:
        embed.add_field(
            name=t(lang, "tarot.table.ecart_trumps"),
            value=line(pv.ecart_trumps, lang),
            inline=False,
        )
    shown = [s for s in pv.seats if s.poignee]
    if shown:
        value = "\n".join(
            t(
                lang,
                "tarot.table.poignee_line",
                name=name_of(table, s.seat, lang),
                level=t(lang, f"tarot.poignee.{s.poignee}"),
                cards=line(s.poignee_cards, lang),
            )
            for s in shown
        )
        embed.add_field(name=t(lang, "tarot.table.poignees"), value=value[:1024], inline=False)
    if (picture := trick_picture(table, pv, lang)) is not None:
        embed.set_image(url=picture.url)
    if pv.phase == "play":
        trick = shown_trick(pv)
        if trick is not None:
            embed.add_field(
                name=t(lang, "tarot.table.trick", n=trick.trick_no),
                value=trick_line(table, trick, lang),
                inline=False,
            )
        embed.add_field(
            name=t(lang, "tarot.table.tricks_won"), value=camps_line(table, pv, lang), inline=False
        )
    embed.add_field(name=t(lang, "tarot.table.status"), value=status_line(table, pv, lang))
    recent = [ln for e in table.recent if (ln := event_line(table, e, lang))]
    if recent:
        embed.add_field(
            name=t(lang, "tarot.table.events"), value=last_lines(recent[-5:], 1024), inline=False
        )
    v = discord.ui.View(timeout=None)
    v.add_item(
        button(
            t(lang, "tarot.btn.hand"),
            cid("hand", table.id, pv.deal_no),
            discord.ButtonStyle.success,
        )
    )
    return embed, v


def shown_trick(pv: PublicView) -> TrickView | None:
    """The trick the table shows: the one in progress, else the last one won; once the deal
    is over, its last trick (the deal-over message replaces the table as its last card
    falls)."""
    if pv.phase == "over":
        return pv.tricks[-1] if pv.tricks else None
    if pv.phase != "play":
        return None
    if pv.trick is not None and pv.trick.plays:
        return pv.trick
    return pv.tricks[-1] if pv.tricks else pv.trick


def picture_name(table: LiveTable, seat: int, lang: str) -> str:
    """A seat's name in a picture (no markdown escapes: the picture is not markdown)."""
    return name_of(table, seat, lang).replace("\\", "")


def table_picture(table: LiveTable, lang: str, at: int) -> CardPicture | None:
    """The picture on the table message: the trick in progress, or the last trick won,
    built from the public view only (every card in it has been played face up)."""
    game = table.game
    if game is None:
        return None
    return trick_picture(table, public_view(game, at), lang)


def trick_picture(table: LiveTable, pv: PublicView, lang: str) -> CardPicture | None:
    trick = shown_trick(pv)
    if trick is None or not trick.plays:
        return None
    seats = [seat for seat, _ in trick.plays]
    winner = seats.index(trick.winner) if trick.winner in seats else None
    return CardPicture.trick(
        [(picture_name(table, seat, lang), face(card, lang)) for seat, card in trick.plays],
        winner=winner,
        filename=f"trick-{pv.deal_no}-{trick.trick_no}.png",
    )


def seat_line(table: LiveTable, pv: PublicView, seat: int, lang: str) -> str:
    sv = pv.seats[seat]
    marks = "▶ " if pv.current == seat else ""
    parts = [f"{marks}**{name_of(table, seat, lang)}**"]
    if pv.dealer == seat:
        parts.append(DEALER)
    if sv.bid is not None:
        parts.append(t(lang, "tarot.seat.bid", bid=contract_name(sv.bid, lang)))
    parts.append(t(lang, "tarot.seat.cards", n=sv.cards))
    if pv.phase == "play":
        parts.append(t(lang, "tarot.seat.tricks", n=sv.tricks))
    parts.append(t(lang, "tarot.seat.score", score=signed(sv.score)))
    flags = [f for f, on in (("🤖", sv.is_ai), ("💤", sv.away)) if on]
    return " · ".join(parts) + (" " + " ".join(flags) if flags else "")


def contract_line(table: LiveTable, pv: PublicView, lang: str) -> str:
    assert pv.taker is not None and pv.contract is not None
    text = t(
        lang,
        "tarot.table.contract_value",
        name=name_of(table, pv.taker, lang),
        contract=contract_name(pv.contract, lang),
    )
    if pv.called is not None:
        text += "\n" + t(lang, "tarot.table.called", card=show(pv.called, lang))
        if pv.partner is None:
            text += " · " + t(lang, "tarot.table.partner_secret")
        elif pv.partner == pv.taker:
            text += " · " + t(lang, "tarot.table.alone")
        else:
            text += " · " + t(lang, "tarot.table.partner", name=name_of(table, pv.partner, lang))
    if pv.chelem:
        text += "\n" + t(lang, "tarot.table.chelem")
    return text


def trick_line(table: LiveTable, trick: TrickView, lang: str) -> str:
    plays = [
        ("🏆 " if trick.winner == seat else "") + f"{name_of(table, seat, lang)} {show(card, lang)}"
        for seat, card in trick.plays
    ]
    return " → ".join(plays) if plays else t(lang, "tarot.table.trick_empty")


def camps_line(table: LiveTable, pv: PublicView, lang: str) -> str:
    """Tricks won so far per camp; at five players, per seat until the partner is known
    (T-5.3: the camps are secret until then)."""
    assert pv.taker is not None
    if pv.called is not None and pv.partner is None:
        return (
            " · ".join(f"{name_of(table, s.seat, lang)} {s.tricks}" for s in pv.seats if s.tricks)
            or "—"
        )
    attack = {pv.taker} | ({pv.partner} if pv.partner is not None else set())
    won = sum(s.tricks for s in pv.seats if s.seat in attack)
    lost = sum(s.tricks for s in pv.seats if s.seat not in attack)
    return t(lang, "tarot.table.camps", attack=won, defence=lost)


def status_line(table: LiveTable, pv: PublicView, lang: str) -> str:
    if pv.current is None:
        return "—"
    text = t(
        lang,
        f"tarot.status.{pv.phase}",
        name=name_of(table, pv.current, lang),
        when=ts(pv.deadline or 0),
    )
    if pv.warning:
        text = "⏳ " + text
    return text


def deal_over_message(
    table: LiveTable, pv: PublicView, lang: str
) -> tuple[discord.Embed, discord.ui.View]:
    res = pv.last_deal
    assert res is not None
    title = "tarot.over.match_title" if pv.match_over else "tarot.over.title"
    verdict = t(
        lang,
        "tarot.over.won" if res.won else "tarot.over.lost",
        name=name_of(table, res.taker, lang),
        contract=contract_name(res.contract, lang),
        points=points(res.attack_points),
        oudlers=res.oudlers,
        needed=res.needed,
        margin=res.margin,
    )
    lines = [verdict]
    if res.called is not None:
        partner = (
            t(lang, "tarot.table.alone")
            if res.partner is None or res.partner == res.taker
            else t(lang, "tarot.table.partner", name=name_of(table, res.partner, lang))
        )
        lines.append(t(lang, "tarot.table.called", card=show(res.called, lang)) + " · " + partner)
    if res.petit_au_bout:
        camp = "attack" if res.petit_au_bout > 0 else "defence"
        lines.append(t(lang, f"tarot.over.petit_au_bout_{camp}"))
    for seat, level in enumerate(res.poignees):
        if level:
            lines.append(
                t(
                    lang,
                    "tarot.over.poignee",
                    name=name_of(table, seat, lang),
                    level=t(lang, f"tarot.poignee.{level}"),
                )
            )
    if res.chelem:
        lines.append(t(lang, "tarot.over.chelem", points=signed(res.chelem)))
    embed = discord.Embed(
        title=t(lang, title, id=table.id, deal=res.played_no, deals=pv.deals_in_match),
        description="\n".join(lines),
        colour=discord.Colour.gold(),
    )
    if res.dog:
        embed.add_field(name=t(lang, "tarot.table.dog"), value=line(res.dog, lang), inline=False)
    if res.ecart and res.ecart != res.dog:
        embed.add_field(name=t(lang, "tarot.over.ecart"), value=line(res.ecart, lang), inline=False)
    last = shown_trick(pv)
    if last is not None:
        value = trick_line(table, last, lang)
        if res.petit_au_bout and any(card == "T1" for _, card in last.plays):
            value += " · " + t(lang, "tarot.over.last_trick_petit")
        embed.add_field(
            name=t(lang, "tarot.over.last_trick", n=last.trick_no), value=value, inline=False
        )
        if (picture := trick_picture(table, pv, lang)) is not None:
            embed.set_image(url=picture.url)
    order = sorted(range(len(pv.seats)), key=lambda s: -pv.seats[s].score)
    standings = "\n".join(
        t(
            lang,
            "tarot.over.line",
            name=name_of(table, s, lang),
            score=signed(res.scores[s]),
            total=signed(pv.seats[s].score),
        )
        for s in order
    )
    embed.add_field(name=t(lang, "tarot.over.standings"), value=standings[:1024], inline=False)
    v = round_end_view(
        embed,
        lang,
        match_over=pv.match_over,
        winners=[name_of(table, w, lang) for w in pv.winners],
        deadline=pv.deadline,
        rematch_id=cid("rematch", table.id),
        next_id=cid("next", table.id, pv.deal_no),
        keys=("over.winners", "tarot.over.next", "tarot.btn.next"),
    )
    return embed, v


# -- events in words (public only) ---------------------------------------------------------


def event_line(table: LiveTable, e: Any, lang: str) -> str | None:
    if e.to is not None:
        return None  # never a private or log-only event in public

    def n(seat: int) -> str:
        return name_of(table, seat, lang)

    def cards(ids: Sequence[int]) -> str:
        return line([card_code(c) for c in ids], lang)

    match e:
        case E.BidMade():
            return t(lang, "tarot.ev.bid", name=n(e.player), bid=contract_name(e.contract, lang))
        case E.TakerKnown():
            return t(
                lang, "tarot.ev.taker", name=n(e.taker), contract=contract_name(e.contract, lang)
            )
        case E.KingCalled():
            return t(lang, "tarot.ev.called", name=n(e.taker), card=show(card_code(e.card), lang))
        case E.DogShown():
            return t(lang, "tarot.ev.dog", cards=cards(e.cards))
        case E.EcartLaid():
            text = t(lang, "tarot.ev.ecart", name=n(e.player))
            if e.trumps:
                text += " " + t(lang, "tarot.ev.ecart_trumps", cards=cards(e.trumps))
            return text
        case E.ChelemAnnounced(announced=True):
            return t(lang, "tarot.ev.chelem", name=n(e.player))
        case E.PoigneeShown():
            return t(
                lang,
                "tarot.ev.poignee",
                name=n(e.player),
                level=t(lang, f"tarot.poignee.{e.level}"),
            )
        case E.Played():
            return t(lang, "tarot.ev.played", name=n(e.player), card=show(card_code(e.card), lang))
        case E.PartnerRevealed():
            return t(lang, "tarot.ev.partner", name=n(e.partner))
        case E.TrickWon():
            return t(lang, "tarot.ev.trick", name=n(e.winner), n=e.trick_no)
        case E.TimedOut():
            return t(lang, "tarot.ev.away" if e.away else "tarot.ev.timed_out", name=n(e.player))
        case E.PetitSec():
            return t(lang, "tarot.ev.petit_sec", name=n(e.player), cards=cards(e.hand))
        case E.DealAnnulled():
            return t(lang, f"tarot.ev.annulled_{e.reason}")
        case E.DealStarted():
            return t(lang, "tarot.ev.dealt", name=n(e.dealer))
    return None


# -- the private panel ---------------------------------------------------------------------


def panel(
    table: LiveTable, seat: int, lang: str, at: int, pending: Sequence[str] | None = None
) -> Panel:
    """One player's panel: their hand and the moves the engine lists for them now.
    ``pending``: the écart cards chosen so far (checked by the engine before sending)."""
    game = table.game
    assert game is not None
    pv = view(game, seat, at)
    legal = [a for a in legal_actions(game, seat, at) if a.kind != "tick"]
    chosen = [c for c in (pending or ()) if c in pv.discardable]
    text = panel_text(table, pv, lang, chosen)
    if len(text) > PANEL_ROOM:  # card emojis are long: the same panel in words fits
        text = panel_text(table, pv, lang, chosen, emojis=False)
    problem = None
    if chosen and len(chosen) == len(pv.public.dog):  # the check before sending (T-B5)
        problem = ecart_refusal(game.deal, tuple(from_code(c) for c in chosen))
        if problem is not None:
            text += "\n⚠️ " + t(lang, f"tarot.illegal.{problem}")
    showable: list[str] = []
    if pv.poignees:  # T-A2: which trumps to show is the player's choice; the engine judges it
        showable = [card_code(c) for c in poignee_trumps(game, seat)]
        showable += [c for c in pv.hand if c == "EX"]
    components = panel_view(table, pv, lang, legal, chosen, problem is None, showable)
    return Panel(text[:2000], components, picture=hand_picture(pv.hand, lang, chosen))


def hand_picture(hand: Sequence[str], lang: str, chosen: Sequence[str] = ()) -> CardPicture | None:
    """The reader's own hand as a picture in the reader's language (the écart cards chosen
    so far raised)."""
    if not hand:
        return None
    picked = set(chosen)
    return CardPicture.hand(
        [face(c, lang) for c in hand], highlight=tuple(i for i, c in enumerate(hand) if c in picked)
    )


def panel_text(
    table: LiveTable,
    pv: PlayerView,
    lang: str,
    pending: Sequence[str] = (),
    emojis: bool = True,
) -> str:
    """The panel's text; ``emojis=False``: every card in words (when the emojis would not
    fit in a message)."""

    pub = pv.public
    lines = [
        t(
            lang,
            "tarot.panel.title",
            id=table.id,
            deal=pub.played_deals + 1,
            deals=pub.deals_in_match,
        ),
        t(lang, "tarot.panel.hand", cards=line(pv.hand, lang, emojis)),
    ]
    if pv.ecart:
        lines.append(t(lang, "tarot.panel.my_ecart", cards=line(pv.ecart, lang, emojis)))
    if pub.taker is not None and pub.contract is not None:
        if pub.taker == pv.seat:
            lines.append(
                t(lang, "tarot.panel.you_take", contract=contract_name(pub.contract, lang))
            )
        elif pv.i_am_partner and pub.partner is None:
            lines.append(t(lang, "tarot.panel.you_partner", name=name_of(table, pub.taker, lang)))
        if pub.taker == pv.seat and pv.partner == pv.seat and pub.called is not None:
            lines.append(t(lang, "tarot.panel.you_alone"))
    mine = pub.current == pv.seat
    if mine and pub.phase in ("bid", "call", "ecart", "chelem", "play"):
        lines.append(t(lang, f"tarot.panel.prompt_{pub.phase}", when=ts(pub.deadline or 0)))
    if pv.discardable:
        size = len(pub.dog)
        chosen = line(list(pending), lang, emojis) if pending else "—"
        lines.append(t(lang, "tarot.panel.ecart_chosen", cards=chosen, n=len(pending), size=size))
    if pv.poignees:
        for option in pv.poignees:
            lines.append(
                t(
                    lang,
                    "tarot.panel.poignee_offer",
                    n=len(option),
                    cards=line(option, lang, emojis),
                )
            )
    if not mine and pub.phase != "over" and pub.current is not None:
        lines.append(t(lang, "tarot.panel.waiting", name=name_of(table, pub.current, lang)))
    return "\n".join(lines)[:2000]


def panel_view(
    table: LiveTable,
    pv: PlayerView,
    lang: str,
    legal: Sequence[A.Action],
    pending: Sequence[str] = (),
    ready: bool = True,
    showable: Sequence[str] = (),
) -> discord.ui.View:
    """Components from the engine's legal actions (and only them)."""
    tid, deal = table.id, pv.public.deal_no
    style = discord.ButtonStyle
    buttons: list[discord.ui.Button[discord.ui.View]] = []
    selects: list[discord.ui.Select[discord.ui.View]] = []
    for a in legal:
        if isinstance(a, A.Bid):
            text = contract_name(a.contract, lang)
            kind = style.secondary if a.contract == 0 else style.primary
            buttons.append(button(text, cid("bid", tid, f"{deal}.{a.contract}"), kind))
        elif isinstance(a, A.CallKing):
            text = t(lang, "tarot.btn.call", card=label(card_code(a.card), lang))
            item = button(text, cid("call", tid, f"{deal}.{a.card}"), style.primary)
            item.emoji = partial_emoji(card_code(a.card), lang)
            buttons.append(item)
        elif isinstance(a, A.Chelem):
            key = "tarot.btn.chelem" if a.announce else "tarot.btn.no_chelem"
            kind = style.danger if a.announce else style.secondary
            buttons.append(
                button(t(lang, key), cid("chelem", tid, f"{deal}.{int(a.announce)}"), kind)
            )
        elif isinstance(a, A.Poignee):
            level = level_of(table, len(a.cards))
            text = t(lang, f"tarot.btn.poignee_{level}", n=len(a.cards))
            buttons.append(button(text, cid("poig", tid, f"{deal}.{level}"), style.success))
        elif isinstance(a, A.NextDeal):
            buttons.append(button(t(lang, "tarot.btn.next"), cid("next", tid, deal), style.primary))
    discards = sorted((a.card for a in legal if isinstance(a, A.Discard)), key=sort_key)
    if discards:
        selects += ecart_selects(tid, deal, [card_code(c) for c in discards], pending, lang)
        size = len(pv.public.dog)
        ready = ready and len(pending) == size
        arg = ".".join([str(deal), *(str(_card_id(c)) for c in pending)])
        buttons.insert(
            0,
            button(
                t(lang, "tarot.btn.ecart", n=len(pending), size=size),
                cid("ecart", tid, arg),
                style.success,
                disabled=not ready,
            ),
        )
    sizes = sorted(len(a.cards) for a in legal if isinstance(a, A.Poignee))
    if sizes and showable:
        selects.append(
            discord.ui.Select(
                custom_id=cid("pick", tid, f"{deal}.{PICK_POIGNEE}"),
                placeholder=t(lang, "tarot.select.poignee")[:150],
                min_values=min(sizes[0], len(showable)),
                max_values=min(sizes[-1], len(showable)),
                options=[
                    discord.SelectOption(
                        label=label(c, lang), value=str(_card_id(c)), emoji=partial_emoji(c, lang)
                    )
                    for c in showable[:SELECT_MAX]
                ],
            )
        )
    # in the hand's order (the text and the picture are sorted), not the deal's
    plays = sorted((a.card for a in legal if isinstance(a, A.Play)), key=sort_key)
    room = ROW * (MAX_ROWS - len(selects)) - len(buttons)
    if plays and len(plays) + len(buttons) <= ROW * (MAX_ROWS - 1) and len(plays) <= room:
        for c in plays:
            item = button(label(card_code(c), lang), cid("play", tid, f"{deal}.{c}"), style.primary)
            item.emoji = partial_emoji(card_code(c), lang)
            buttons.append(item)
    elif plays:
        for k in range(0, len(plays), SELECT_MAX):
            chunk = plays[k : k + SELECT_MAX]
            options = [
                discord.SelectOption(
                    label=label(card_code(c), lang),
                    value=str(c),
                    emoji=partial_emoji(card_code(c), lang),
                )
                for c in chunk
            ]
            selects.append(
                discord.ui.Select(
                    custom_id=cid("pick", tid, f"{deal}.{PICK_PLAY + k // SELECT_MAX}"),
                    placeholder=t(lang, "tarot.select.play")[:150],
                    options=options,
                )
            )
    # the grid (bot/ui/grid.py): the selects in rows of their own first, then the buttons
    entries: list[tuple[int, discord.ui.Item[discord.ui.View]]] = [(0, sel) for sel in selects]
    v, _ = grid.place(entries + [(1, b) for b in buttons])
    return v


def level_of(table: LiveTable, size: int) -> int:
    """Which poignée (1 simple, 2 double, 3 triple) shows ``size`` cards at this table."""
    players = table.game.players if table.game is not None else len(table.seats)
    return rules_of(table).poignee_trumps[players].index(size) + 1


def _card_id(code: str) -> int:
    return from_code(code)


def ecart_selects(
    tid: int, deal: int, cards: list[str], pending: Sequence[str], lang: str
) -> list[discord.ui.Select[discord.ui.View]]:
    """The cards that may go into the écart, as multi-selects of at most 25 options (more
    than one only at three players); each carries the cards chosen in the others."""
    out: list[discord.ui.Select[discord.ui.View]] = []
    groups = [cards[k : k + SELECT_MAX] for k in range(0, len(cards), SELECT_MAX)]
    for g, group in enumerate(groups):
        others = [c for c in pending if c not in group]
        arg = ".".join([str(deal), str(PICK_ECART + g), *(str(_card_id(c)) for c in others)])
        options = [
            discord.SelectOption(
                label=label(c, lang),
                value=str(_card_id(c)),
                default=c in pending,
                emoji=partial_emoji(c, lang),
            )
            for c in group
        ]
        out.append(
            discord.ui.Select(
                custom_id=cid("pick", tid, arg),
                placeholder=t(lang, "tarot.select.ecart")[:150],
                min_values=0,
                max_values=len(options),
                options=options,
            )
        )
    return out
