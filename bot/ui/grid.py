"""One panel grid for every game: Discord's 5 rows of 5 buttons, a select alone in its row.

:func:`place` lays a panel's components out by priority (the most important first; what does
not fit is returned, never silently lost), and :func:`narrow` splits many choices into
groups of consecutive choices (a row of slots, a range of lay-offs) so that a panel shows a
group first, then the choices of that group, instead of cutting them: every choice stays
reachable, in the order given (the hand's sorted order). A narrowing step only changes the
panel: its game declares it as a verb (``bot/ui/pipeline.py``) like any other click.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import discord

log = logging.getLogger(__name__)

#: Discord's limits (a message's components): 5 action rows of 5 buttons, or one select a row
ROWS = 5
PER_ROW = 5
CELLS = ROWS * PER_ROW
#: a select's options
OPTIONS = 25

Item = discord.ui.Item[discord.ui.View]


def is_select(item: Item) -> bool:
    """A select takes a whole row (discord.py gives it the width of 5 buttons)."""
    return item.width == PER_ROW


def place(
    entries: Sequence[tuple[int, Item]], view: discord.ui.View | None = None
) -> tuple[discord.ui.View, list[Item]]:
    """The view holding as many of ``entries`` (priority, component) as Discord's grid holds,
    the lowest priority number first (equal priorities keep their order), and the entries
    left out. Buttons are packed in rows of 5 in that order; a select takes a row of its own.
    ``view``: a view already holding full rows (they count against the 5)."""
    view = view or discord.ui.View(timeout=None)
    rows = {c.row for c in view.children if c.row is not None}
    used = len(rows) + sum(c.row is None for c in view.children)  # unplaced: selects
    left: list[Item] = []
    row, in_row = used - 1, PER_ROW  # the current buttons' row and how many it holds
    for _, item in sorted(entries, key=lambda e: e[0]):
        if is_select(item):
            if row + 1 >= ROWS:
                left.append(item)
                continue
            row += 1
            item.row = row
            in_row = PER_ROW  # nothing joins a select's row
        else:
            if in_row >= PER_ROW:
                if row + 1 >= ROWS:
                    left.append(item)
                    continue
                row, in_row = row + 1, 0
            item.row = row
            in_row += 1
        view.add_item(item)
    if left:  # a panel drawn past Discord's grid: a move its player cannot reach
        names = ", ".join(str(getattr(i, "custom_id", None) or type(i).__name__) for i in left)
        log.warning("%d component(s) did not fit a panel: %s", len(left), names)
    return view, left


@dataclass(frozen=True, slots=True)
class Narrowed:
    """Where a narrowing stands: the groups to choose from (ranges of indices of the
    choices), or, once the chosen group fits, the indices of the choices to offer."""

    groups: list[range]
    choices: range

    @property
    def done(self) -> bool:
        return not self.groups


def narrow(count: int, room: int, path: Sequence[int] = (), unit: int = PER_ROW) -> Narrowed | None:
    """Narrow ``count`` choices (indices ``0..count-1``, in their order) to at most ``room``
    at a time: when they do not fit, groups of consecutive choices (each at least ``unit``
    choices, at most ``room`` groups); ``path`` the groups chosen so far. None: ``path``
    names a group that does not exist (a stale or forged click)."""
    if room < 2:
        raise ValueError("room must hold at least two choices")
    span = range(count)
    for step in (*path, None):
        if len(span) <= room:
            return Narrowed([], span) if step is None else None
        size = max(-(-len(span) // room), unit if unit < len(span) else 1)
        groups = [span[i : i + size] for i in range(0, len(span), size)]
        if step is None:
            return Narrowed(groups, span)
        if not 0 <= step < len(groups):
            return None
        span = groups[step]
    raise AssertionError("unreachable")


def narrowed(
    count: int, room: int, path: Sequence[int] = (), unit: int = PER_ROW
) -> tuple[Narrowed, tuple[int, ...]]:
    """:func:`narrow`, a path that names no group (a stale click: the choices changed since
    its panel was drawn) read as no path: the groups again, never a guess. Returns where the
    narrowing stands and the path it stands at."""
    found = narrow(count, room, path, unit)
    if found is not None:
        return found, tuple(path)
    start = narrow(count, room, (), unit)
    assert start is not None
    return start, ()


def group_label(first: str, last: str, limit: int = 80) -> str:
    """A group's button: its first and last choices (``Alice — card 1 … Bob — card 7``),
    within a label's 80 characters."""
    if first == last:
        return first[:limit]
    half = (limit - 3) // 2
    return f"{first[:half]} … {last[:half]}"
