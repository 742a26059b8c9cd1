"""Tarot's public messages: the lobby, the table message (its embed, its button and the
trick's picture), the deal's end and the events in words.

Rendered from the public view (``seen.public``) and public events only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.games.tarot.faces import contract_name, face, label, line, name_of, picture_name, show
from bot.games.tarot.seen import rules_of, seen_at
from bot.games.tarot.verbs import cid
from bot.i18n import t
from bot.tables import LiveTable
from bot.ui import lobby
from bot.ui.cards import CardPicture
from bot.ui.kit import button, round_end_view, ts
from tamalou.games.tarot import events as E
from tamalou.games.tarot.cards import code as card_code
from tamalou.games.tarot.views import PublicView, TrickView

#: the dealer's mark in a seat line (as Kalooki's; 🃏 names the Excuse and jokers)
DEALER = "🎴"


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


def table_message(table: LiveTable, lang: str, at: int) -> tuple[discord.Embed, discord.ui.View]:
    pv = seen_at(table, at).public
    if pv.phase == "over" and pv.last_deal is not None:
        return deal_over_message(table, pv, lang)
    embed = discord.Embed(
        title=t(
            lang,
            "tarot.table.title",
            id=table.id,
            deal=min(pv.played_deals + 1, pv.deals_in_match),
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
        previous = previous_trick(pv)
        if previous is not None:  # a completed trick is public: still readable after the lead
            embed.add_field(
                name=t(lang, "tarot.table.previous_trick", n=previous.trick_no),
                value=trick_line(table, previous, lang),
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


def previous_trick(pv: PublicView) -> TrickView | None:
    """The last trick won once the next one is led (the picture shows the new one): who
    took it and with what, as a player asks "what fell last?"."""
    if pv.phase != "play" or pv.trick is None or not pv.trick.plays or not pv.tricks:
        return None
    return pv.tricks[-1]


def table_picture(table: LiveTable, lang: str, at: int) -> CardPicture | None:
    """The picture on the table message: the trick in progress, or the last trick won,
    built from the public view only (every card in it has been played face up)."""
    if table.game is None:
        return None
    return trick_picture(table, seen_at(table, at).public, lang)


def trick_picture(table: LiveTable, pv: PublicView, lang: str) -> CardPicture | None:
    trick = shown_trick(pv)
    if trick is None or not trick.plays:
        return None
    seats = [seat for seat, _ in trick.plays]
    winner = seats.index(trick.winner) if trick.winner in seats else None
    names = [(picture_name(table, seat, lang), card) for seat, card in trick.plays]
    return CardPicture.trick(
        [(name, face(card, lang)) for name, card in names],
        winner=winner,
        filename=f"trick-{pv.deal_no}-{trick.trick_no}.png",
        alt=" | ".join(f"{name}: {label(card, lang)}" for name, card in names),
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
