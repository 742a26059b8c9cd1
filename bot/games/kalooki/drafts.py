"""What a player is building in their panel: the cards picked for each meld of a lay-down,
the panel's mode and the hand's order.

This is the panel's working memory, not game state: nothing here is sent to the engine
until the player presses "Lay down" (or "Lay as set/run"), and the engine checks it then.
It lives in the bot process (a restart empties it: the player picks again; the match
itself is rebuilt from the database). Entries belong to one table and seat; a draft of
another round or deal is dropped when read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

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
