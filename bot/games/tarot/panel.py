"""Tarot's private panel: a member's hand and the moves the engine lists for them now
(``seen``), laid out by the panel grid (``bot/ui/grid.py``). No rule is decided here: the
bids, the called cards, the écart cards, the poignées and the playable cards are the
engine's lists, and every click is judged by the engine again."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.games import Panel
from bot.games.tarot import verbs
from bot.games.tarot.faces import contract_name, face, label, line, name_of, partial_emoji
from bot.games.tarot.seen import Seen, level_of, seen_at
from bot.games.tarot.verbs import cid
from bot.i18n import t
from bot.tables import LiveTable
from bot.ui import grid
from bot.ui.cards import CardPicture, display
from bot.ui.kit import button, ts
from tamalou.games.tarot import actions as A
from tamalou.games.tarot.cards import code as card_code
from tamalou.games.tarot.cards import from_code, sort_key
from tamalou.games.tarot.engine import ecart_refusal, poignee_trumps
from tamalou.games.tarot.views import PlayerView

ROW = grid.PER_ROW


MAX_ROWS = grid.ROWS


#: select menus hold at most 25 options (Discord)
SELECT_MAX = 25


#: a panel's text longer than this is written with card names instead of emojis (a message
#: holds 2000 characters; room is kept for a warning line)
PANEL_ROOM = 1900


def panel(
    table: LiveTable,
    seat: int,
    lang: str,
    at: int,
    pending: Sequence[str] | None = None,
    seen: Seen | None = None,
    play_group: Sequence[int] = (),
) -> Panel:
    """One player's panel: their hand and the moves the engine lists for them now.
    ``pending``: the écart cards chosen so far (checked by the engine before sending).
    ``seen``: the click's views, when it read some (``bot/ui/seen.py``). ``play_group``:
    the groups of playable cards chosen so far, when they are more than a select holds."""
    seen = seen_at(table, at, seen)
    game = seen.game
    pv = seen.view(seat)
    legal = [a for a in seen.legal(seat) if a.kind != "tick"]
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
    components = panel_view(table, pv, lang, legal, chosen, problem is None, showable, play_group)
    return Panel(text[:2000], components, picture=hand_picture(pv.hand, lang, chosen))


#: the cards of a hand picture's row: a whole suit (14), the trumps past it in two rows
SUIT_ROW = 14


def suit_runs(hand: Sequence[str]) -> tuple[int, ...]:
    """The sizes of the hand's runs of one suit (trumps and the Excuse together), in order:
    the hand is sorted by suit, trumps last."""
    return display.runs("T" if c.startswith("T") or c == "EX" else c[-1] for c in hand)


def hand_picture(hand: Sequence[str], lang: str, chosen: Sequence[str] = ()) -> CardPicture | None:
    """The reader's own hand as a picture in the reader's language (the écart cards chosen
    so far raised): one row a suit (a suit has at most 14 cards), the trumps and the Excuse
    last, in two rows when they are more than 14."""
    if not hand:
        return None
    picked = set(chosen)
    return CardPicture.hand(
        [face(c, lang) for c in hand],
        per_row=SUIT_ROW,
        groups=suit_runs(hand),
        highlight=tuple(i for i, c in enumerate(hand) if c in picked),
        alt=" ".join(label(c, lang) for c in hand),  # the text's words: A12 in French
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
        t(lang, "tarot.panel.match_title", id=table.id)
        if pub.match_over  # every deal played: no "deal 4/3"
        else t(
            lang,
            "tarot.panel.title",
            id=table.id,
            deal=min(pub.played_deals + 1, pub.deals_in_match),
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
    play_group: Sequence[int] = (),
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
            buttons.append(button(text, cid("bid", tid, deal, a.contract), kind))
        elif isinstance(a, A.CallKing):
            text = t(lang, "tarot.btn.call", card=label(card_code(a.card), lang))
            item = button(text, cid("call", tid, deal, a.card), style.primary)
            item.emoji = partial_emoji(card_code(a.card), lang)
            buttons.append(item)
        elif isinstance(a, A.Chelem):
            key = "tarot.btn.chelem" if a.announce else "tarot.btn.no_chelem"
            kind = style.danger if a.announce else style.secondary
            buttons.append(button(t(lang, key), cid("chelem", tid, deal, int(a.announce)), kind))
        elif isinstance(a, A.Poignee):
            level = level_of(table, len(a.cards))
            text = t(lang, f"tarot.btn.poignee_{level}", n=len(a.cards))
            buttons.append(button(text, cid("poig", tid, deal, level), style.success))
        elif isinstance(a, A.NextDeal):
            buttons.append(button(t(lang, "tarot.btn.next"), cid("next", tid, deal), style.primary))
    discards = sorted((a.card for a in legal if isinstance(a, A.Discard)), key=sort_key)
    if discards:
        selects += ecart_selects(tid, deal, [card_code(c) for c in discards], pending, lang)
        size = len(pv.public.dog)
        ready = ready and len(pending) == size
        buttons.insert(
            0,
            button(
                t(lang, "tarot.btn.ecart", n=len(pending), size=size),
                verbs.ecart_id(tid, deal, pending),
                style.success,
                disabled=not ready,
            ),
        )
    sizes = sorted(len(a.cards) for a in legal if isinstance(a, A.Poignee))
    if sizes and showable:
        selects.append(
            discord.ui.Select(
                custom_id=cid("pick", tid, deal, verbs.PICK_POIGNEE),
                placeholder=t(lang, "tarot.select.poignee")[:150],
                min_values=min(sizes[0], len(showable)),
                max_values=min(sizes[-1], len(showable)),
                options=[
                    discord.SelectOption(
                        label=label(c, lang),
                        value=verbs.card_value(c),
                        emoji=partial_emoji(c, lang),
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
            item = button(label(card_code(c), lang), cid("play", tid, deal, c), style.primary)
            item.emoji = partial_emoji(card_code(c), lang)
            buttons.append(item)
    elif plays:  # one select; more cards than it holds (26 at three without the dog): a group
        at, path = grid.narrowed(len(plays), SELECT_MAX, play_group, unit=SELECT_MAX)
        if not at.done:
            for i, g in enumerate(at.groups):
                first, last = (label(card_code(plays[k]), lang) for k in (g[0], g[-1]))
                text = grid.group_label(first, last)
                buttons.append(button(text, cid("cards", tid, deal, *path, i), style.primary))
        else:
            options = [
                discord.SelectOption(
                    label=label(card_code(plays[k]), lang),
                    value=verbs.card_value(card_code(plays[k])),
                    emoji=partial_emoji(card_code(plays[k]), lang),
                )
                for k in at.choices
            ]
            selects.append(
                discord.ui.Select(
                    custom_id=cid("pick", tid, deal, verbs.PICK_PLAY),
                    placeholder=t(lang, "tarot.select.play")[:150],
                    options=options,
                )
            )
            if path:
                other = t(lang, "btn.other_choices")
                buttons.append(button(other, cid("cards", tid, deal, *path[:-1])))
    # the grid (bot/ui/grid.py): the selects in rows of their own first, then the buttons
    entries: list[tuple[int, discord.ui.Item[discord.ui.View]]] = [(0, sel) for sel in selects]
    v, _ = grid.place(entries + [(1, b) for b in buttons])
    return v


def ecart_selects(
    tid: int, deal: int, cards: list[str], pending: Sequence[str], lang: str
) -> list[discord.ui.Select[discord.ui.View]]:
    """The cards that may go into the écart, as multi-selects of at most 25 options (more
    than one only at three players); each carries the cards chosen in the others."""
    out: list[discord.ui.Select[discord.ui.View]] = []
    groups = [cards[k : k + SELECT_MAX] for k in range(0, len(cards), SELECT_MAX)]
    for g, group in enumerate(groups):
        others = [c for c in pending if c not in group]
        options = [
            discord.SelectOption(
                label=label(c, lang),
                value=verbs.card_value(c),
                default=c in pending,
                emoji=partial_emoji(c, lang),
            )
            for c in group
        ]
        out.append(
            discord.ui.Select(
                custom_id=verbs.ecart_pick_id(tid, deal, g, others),
                placeholder=t(lang, "tarot.select.ecart")[:150],
                min_values=0,
                max_values=len(options),
                options=options,
            )
        )
    return out
