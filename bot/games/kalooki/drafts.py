"""What a player is building in their panel: the cards picked for each meld of a lay-down,
the panel's mode and the hand's order.

This is the panel's working memory, not game state: nothing here is sent to the engine
until the player presses "Lay down" (or "Lay as set/run"), and the engine checks it then.
It lives in the bot process and is kept with the table (:func:`to_data` / :func:`load`:
the presenter stores it when a panel is shown and gives it back at a restart, so a
half-built contract survives one). Entries belong to one table and seat; a draft of another
round or deal is dropped when read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from tamalou.core.errors import IllegalAction
from tamalou.games.kalooki.engine import check_lay_down
from tamalou.games.kalooki.state import Game

Mode = Literal["main", "build", "meld"]
Sort = Literal["suit", "rank"]


@dataclass(slots=True)
class Draft:
    round_no: int
    deal_no: int
    mode: Mode = "main"
    #: build mode: the cards picked for each meld of the contract (card ids)
    melds: list[list[int]] = field(default_factory=list)
    #: meld mode: the cards of one new meld
    extra: list[int] = field(default_factory=list)
    #: the last refusal to show: (meld number or 0, reason)
    refusal: tuple[int, str] | None = None
    #: the card whose lay-offs the panel lists, when all of them are too many for one list
    lay_card: int | None = None
    #: the range of that card's lay-offs the panel lists, when even they are too many for one
    #: list (``grid.narrow``'s group; None: not chosen yet)
    lay_group: int | None = None
    #: which 25 cards of a hand longer than a select holds the panel's selects list
    card_group: int = 0


_drafts: dict[tuple[int, int], Draft] = {}
_sorts: dict[tuple[int, int], Sort] = {}


def draft(table_id: int, seat: int, round_no: int, deal_no: int, melds: int) -> Draft:
    """The seat's draft for this deal (a fresh one when the deal changed)."""
    key = (table_id, seat)
    found = _drafts.get(key)
    if found is None or (found.round_no, found.deal_no) != (round_no, deal_no):
        found = Draft(round_no, deal_no)
        _drafts[key] = found
    while len(found.melds) < melds:
        found.melds.append([])
    del found.melds[melds:]
    return found


def peek(table_id: int, seat: int) -> Draft | None:
    return _drafts.get((table_id, seat))


def sort_of(table_id: int, seat: int) -> Sort:
    return _sorts.get((table_id, seat), "suit")


def toggle_sort(table_id: int, seat: int) -> Sort:
    new: Sort = "rank" if sort_of(table_id, seat) == "suit" else "suit"
    _sorts[(table_id, seat)] = new
    return new


def forget(table_id: int) -> None:
    """Drop every draft and sort order of a table (its match is over)."""
    for store in (_drafts, _sorts):
        for key in [k for k in store if k[0] == table_id]:
            del store[key]


def to_data(table_id: int, seat: int) -> dict[str, Any] | None:
    """The seat's draft and hand order as JSON-able data (None: nothing kept)."""
    found = _drafts.get((table_id, seat))
    sort = _sorts.get((table_id, seat))
    if found is None and sort is None:
        return None
    return {"draft": asdict(found) if found is not None else None, "sort": sort}


def load(table_id: int, seat: int, data: Any) -> None:
    """Give back what :func:`to_data` wrote (data of an unknown shape is ignored)."""
    if not isinstance(data, dict):
        return
    key = (table_id, seat)
    if data.get("sort") in ("suit", "rank"):
        _sorts[key] = data["sort"]
    kept = data.get("draft")
    if not isinstance(kept, dict):
        return
    try:
        refusal = kept.get("refusal")
        _drafts[key] = Draft(
            round_no=int(kept["round_no"]),
            deal_no=int(kept["deal_no"]),
            mode=kept["mode"] if kept.get("mode") in ("main", "build", "meld") else "main",
            melds=[[int(c) for c in meld] for meld in kept.get("melds", [])],
            extra=[int(c) for c in kept.get("extra", [])],
            refusal=(int(refusal[0]), str(refusal[1])) if refusal else None,
            lay_card=int(kept["lay_card"]) if kept.get("lay_card") is not None else None,
            lay_group=int(kept["lay_group"]) if kept.get("lay_group") is not None else None,
            card_group=int(kept.get("card_group", 0)),
        )
    except (KeyError, TypeError, ValueError, IndexError):
        return  # a draft is working memory: an unreadable one is dropped


def check_draft(game: Game, seat: int, contract: Sequence[int], d: Draft) -> IllegalAction | None:
    """The engine's verdict on the lay-down being built (None: it would be accepted)."""
    melds = [(kind, tuple(d.melds[i])) for i, kind in enumerate(contract)]
    try:
        check_lay_down(game, seat, melds)
    except IllegalAction as refusal:
        return refusal
    return None
