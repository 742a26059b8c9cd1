"""Tarot's button verbs: each verb's argument (and each select's values) encoded for the
components that carry it and decoded here; a click → the engine action it asks for.

No rule is decided here: the engine refuses what is not legal, and its reason is answered
in the player's language (an illegal card says why: follow the suit, trump, overtrump…).
The panel only offers what ``legal_actions`` lists; a stale or forged button reaches the
engine all the same and is refused there.

Custom ids are ``tarot:<verb>:<table>[:<deal>.<number>…]``: the deal the component was
drawn for first (the platform checks it), then the verb's numbers (:func:`cid`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.tarot.seen import Seen, level_of, seen_at
from bot.tables import TableError
from bot.ui.pipeline import Act, Answer, Click, ShowPanel, Verb, numbers
from tamalou.games.tarot import actions as A
from tamalou.games.tarot.cards import code as card_code
from tamalou.games.tarot.cards import from_code

log = logging.getLogger(__name__)

#: every verb and what the platform checks of it (bot/ui/pipeline.py): where its component
#: lives and how many numbers its argument carries (the deal number first)
VERBS: dict[str, Verb] = {
    "bid": Verb("panel", (2,)),
    "call": Verb("panel", (2,)),
    "chelem": Verb("panel", (2,)),
    "poig": Verb("panel", (2,)),
    "play": Verb("panel", (2,)),
    "ecart": Verb("panel", None),
    # more playable cards than a select holds: a group of them (``<deal>[.<group>…]``)
    "cards": Verb("panel", None),
    "pick": Verb("panel", None),
    # the panel shows the deal as it is now, whichever deal the button saw
    "hand": Verb("table", any_round=True),
    "next": Verb("any"),
}


GAME = "tarot"
#: what a ``pick`` select chooses (the first number after the deal in its argument)
PICK_ECART = 1  # one group of the écart's cards (1, 2, …)
PICK_PLAY = 10  # a card to play (10, 11, …: one select per 25 cards)
PICK_POIGNEE = 20  # the trumps to show in a poignée


# -- encoding: what each component carries ------------------------------------------------


def cid(verb: str, table: int, *parts: int) -> str:
    """``tarot:<verb>:<table>[:<part>.<part>…]`` (the deal first; DESIGN: the state is in the
    database, not the View)."""
    base = f"{GAME}:{verb}:{table}"
    return f"{base}:{'.'.join(str(p) for p in parts)}" if parts else base


def card_value(code: str) -> str:
    """A card select's option (écart, poignée, a card to play): the card's number."""
    return str(from_code(code))


def ecart_id(table: int, deal: int, chosen: Sequence[str]) -> str:
    """``ecart``: ``<deal>[.<card>…]``, the cards chosen."""
    return cid("ecart", table, deal, *(from_code(c) for c in chosen))


def ecart_pick_id(table: int, deal: int, group: int, others: Sequence[str]) -> str:
    """An écart select: ``<deal>.<PICK_ECART + group>[.<card>…]``, carrying the cards chosen
    in the other selects (:func:`pending_ecart` reads them back)."""
    return cid("pick", table, deal, PICK_ECART + group, *(from_code(c) for c in others))


# -- decoding: a click → the engine action -------------------------------------------------


def ints(arg: str | None, count: int | None) -> list[int]:
    """The numbers of a verb's argument (``count`` of them; None: one or more)."""
    return numbers(arg, None if count is None else (count,))


def build_action(verb: str, seat: int, parts: list[int], values: list[str], at: int) -> A.Action:
    """The action a verb asks for (``parts[0]`` is the deal number)."""
    match verb:
        case "bid":
            return A.Bid(seat, parts[1], at)
        case "call":
            return A.CallKing(seat, parts[1], at)
        case "chelem":
            return A.Chelem(seat, bool(parts[1]), at)
        case "play":
            return A.Play(seat, parts[1], at)
        case "ecart":
            return A.Ecart(seat, tuple(parts[1:]), at)
        case "next":
            return A.NextDeal(seat, at)
        case "pick" if len(parts) == 2 and parts[1] == PICK_POIGNEE:
            return A.Poignee(seat, tuple(numbers(v, (1,))[0] for v in values), at)
        case "pick" if len(parts) == 2 and parts[1] >= PICK_PLAY and len(values) == 1:
            return A.Play(seat, numbers(values[0], (1,))[0], at)
    raise TableError("bad_button")


def poignee(seen: Seen, seat: int, level: int) -> A.Poignee:
    """The engine's way of showing poignée ``level`` now (T-A2), or a refusal."""
    for a in seen.legal(seat):
        if isinstance(a, A.Poignee) and level_of(seen.table, len(a.cards)) == level:
            return a
    raise TableError("stale_choice")


def pending_ecart(parts: list[int], values: list[str]) -> list[str]:
    """The écart cards chosen so far: those of the other selects (in the argument) and this
    select's values."""
    chosen = [*parts[2:], *(numbers(v, (1,))[0] for v in values)]
    if any(not 0 <= c < 78 for c in chosen):
        raise TableError("bad_button")
    return [card_code(c) for c in dict.fromkeys(chosen)]


@dataclass(frozen=True, slots=True)
class Step:
    """A step of the panel a click chose (nothing is played): the écart's cards chosen so
    far (T-B5), or a group of the playable cards when they are more than a select holds."""

    pending: tuple[str, ...] | None = None
    play_group: tuple[int, ...] = ()


def answer(click: Click) -> Answer:
    """A click's answer (no Discord, no event loop): a panel step, or the action (its
    refusal in tarot's own words, through the funnel: tarot.illegal.<reason>)."""
    seat, at = click.seat, click.at
    verb, parts, values = click.verb, click.parts, click.values
    if verb == "hand":  # the member's open panel of the deal, edited (or a new one)
        return ShowPanel(edit=False)
    if verb == "pick" and len(parts) >= 2 and parts[1] < PICK_PLAY:
        return ShowPanel(step=Step(pending=tuple(pending_ecart(parts, values))))
    if verb == "cards":  # a group of the playable cards (grid.narrowed): only the panel
        return ShowPanel(step=Step(play_group=tuple(parts[1:])))
    if verb == "poig":  # legal at the press (R-D4), as the engine will judge it
        action: A.Action = poignee(seen_at(click.table, at), seat, parts[1])
    else:
        action = build_action(verb, seat, parts, values, at)
    if verb == "next":
        return Act(action, lambda outcome: None)
    return Act(action)
