"""What a player is building in their panel: the cards picked for each meld of a lay-down,
the panel's mode and the hand's order.

This is the panel's working memory, not game state: nothing here is sent to the engine
until the player presses "Lay down" (or "Lay as set/run"), and the engine checks it then.
It is one frozen value a seat (:class:`PanelState`), owned by the panel desk
(``bot/ui/desk.py``), which stores it with the table (:func:`to_data` / :func:`load`) so a
half-built contract survives a restart. A verb answers a click with the next value; a
draft of another round or deal is dropped when read (:func:`draft`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal

from tamalou.core.errors import IllegalAction
from tamalou.games.kalooki.engine import check_lay_down
from tamalou.games.kalooki.state import Game

Mode = Literal["main", "build", "meld"]
Sort = Literal["suit", "rank"]


@dataclass(frozen=True, slots=True)
class Draft:
    round_no: int
    deal_no: int
    mode: Mode = "main"
    #: build mode: the cards picked for each meld of the contract (card ids)
    melds: tuple[tuple[int, ...], ...] = ()
    #: meld mode: the cards of one new meld
    extra: tuple[int, ...] = ()
    #: the last refusal to show: (meld number or 0, reason)
    refusal: tuple[int, str] | None = None
    #: the card whose lay-offs the panel lists, when all of them are too many for one list
    lay_card: int | None = None
    #: the range of that card's lay-offs the panel lists, when even they are too many for one
    #: list (``grid.narrow``'s group; None: not chosen yet)
    lay_group: int | None = None
    #: which 25 cards of a hand longer than a select holds the panel's selects list
    card_group: int = 0


@dataclass(frozen=True, slots=True)
class PanelState:
    """A seat's panel state: the lay-down being built (None: none yet) and the hand's order."""

    draft: Draft | None = None
    sort: Sort = "suit"


def draft(state: PanelState | None, round_no: int, deal_no: int, melds: int) -> Draft:
    """The seat's draft for this deal (a fresh one when the deal changed), with one list of
    cards a meld of the contract."""
    found = state.draft if state is not None else None
    if found is None or (found.round_no, found.deal_no) != (round_no, deal_no):
        found = Draft(round_no, deal_no)
    if len(found.melds) != melds:
        kept = found.melds[:melds]
        found = replace(found, melds=kept + ((),) * (melds - len(kept)))
    return found


def sort_of(state: PanelState | None) -> Sort:
    return state.sort if state is not None else "suit"


def with_draft(state: PanelState | None, d: Draft) -> PanelState:
    return replace(state or PanelState(), draft=d)


def toggled(state: PanelState | None) -> PanelState:
    """The state with the hand's other order."""
    new: Sort = "rank" if sort_of(state) == "suit" else "suit"
    return replace(state or PanelState(), sort=new)


def to_data(state: PanelState | None) -> dict[str, Any] | None:
    """The state as JSON-able data (None: nothing kept)."""
    if state is None:
        return None
    d = state.draft
    kept = None
    if d is not None:
        kept = asdict(d)
        kept["melds"] = [list(m) for m in d.melds]
        kept["extra"] = list(d.extra)
        kept["refusal"] = list(d.refusal) if d.refusal is not None else None
    return {"draft": kept, "sort": state.sort}


def load(data: Any) -> PanelState | None:
    """Give back what :func:`to_data` wrote (data of an unknown shape: None, or no draft)."""
    if not isinstance(data, dict):
        return None
    sort: Sort = data["sort"] if data.get("sort") in ("suit", "rank") else "suit"
    kept = data.get("draft")
    if not isinstance(kept, dict):
        return PanelState(None, sort)
    try:
        refusal = kept.get("refusal")
        d = Draft(
            round_no=int(kept["round_no"]),
            deal_no=int(kept["deal_no"]),
            mode=kept["mode"] if kept.get("mode") in ("main", "build", "meld") else "main",
            melds=tuple(tuple(int(c) for c in meld) for meld in kept.get("melds", [])),
            extra=tuple(int(c) for c in kept.get("extra", [])),
            refusal=(int(refusal[0]), str(refusal[1])) if refusal else None,
            lay_card=int(kept["lay_card"]) if kept.get("lay_card") is not None else None,
            lay_group=int(kept["lay_group"]) if kept.get("lay_group") is not None else None,
            card_group=int(kept.get("card_group", 0)),
        )
    except (KeyError, TypeError, ValueError, IndexError):
        return PanelState(None, sort)  # a draft is working memory: an unreadable one is dropped
    return PanelState(d, sort)


def check_draft(game: Game, seat: int, contract: Sequence[int], d: Draft) -> IllegalAction | None:
    """The engine's verdict on the lay-down being built (None: it would be accepted)."""
    melds = [(kind, tuple(d.melds[i])) for i, kind in enumerate(contract)]
    try:
        check_lay_down(game, seat, melds)
    except IllegalAction as refusal:
        return refusal
    return None
