"""A table as one click (or one table edit) sees it: its game's views at one moment, each
computed once.

Every game's Discord side reads the engine only through a :class:`Seen`: the public view,
a seat's view and a seat's legal actions, each computed the first time it is read and kept
for the rest of the click (a seat's view carries the public view: the public view is taken
from it, not computed again). A click builds one and hands it on to its panel
(``presenter.show_panel(..., seen=seen)``): a panel step, "My cards", a suggestion read
before the panel is drawn cost one view, not one per reader. After an action the state is
another one: the panel builds a new :class:`Seen` (:meth:`Seen.current` says whether one
still describes the table).

The platform draws a table message and its picture in two calls at the same moment
(``GamePlugin.table_message``, ``table_picture``): :meth:`Seen.of` gives both the same
:class:`Seen`. It keeps one (the last one asked for), valid while the table's state is the
same object, the service has applied no action to it since (``LiveTable.logged`` counts
every one it applies; a rebuild replaces the state) and the moment is the same. Only a
table the service plays (its match is set) is kept: a table a test drives by hand has no
such count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

if TYPE_CHECKING:
    from bot.tables import LiveTable


class SeatView(Protocol):
    """A seat's view carries the public view of the same moment."""

    @property
    def public(self) -> Any: ...


G = TypeVar("G")  # the game's state
V = TypeVar("V", bound=SeatView)  # a seat's view
P = TypeVar("P")  # the public view
A = TypeVar("A")  # an action


class Seen(Generic[G, V, P, A]):
    """The views of ``table``'s game at ``at``, computed on first read."""

    __slots__ = ("_legal", "_logged", "_public", "_views", "at", "game", "table")

    def __init__(self, table: LiveTable, at: int) -> None:
        assert table.game is not None
        self.table = table
        self.game = cast(G, table.game)
        self.at = at
        self._logged = table.logged
        self._public: P | None = None
        self._views: dict[int, V] = {}
        self._legal: dict[int, list[A]] = {}

    @classmethod
    def of(cls, table: LiveTable, at: int) -> Seen[Any, Any, Any, Any]:
        """The :class:`Seen` of ``table`` at ``at``: the one last asked for when it still
        describes the table at that moment (the table message, then its picture), else a
        new one."""
        global _last
        kept = _last
        if kept is not None and kept.table is table and kept.at == at and kept.current(table):
            return kept
        made: Seen[Any, Any, Any, Any] = cls(table, at)
        _last = made if table.match is not None else None
        return made

    def current(self, table: LiveTable) -> bool:
        """Whether this still describes ``table``: the same state, no action applied since."""
        return table.game is self.game and table.logged == self._logged

    @property
    def public(self) -> P:
        """The public view (taken from a seat's view when one was computed)."""
        if self._public is None:
            if self._views:
                self._public = cast(P, next(iter(self._views.values())).public)
            else:
                self._public = cast(P, self.table.module.public_view(self.game, self.at))
        return self._public

    def view(self, seat: int) -> V:
        """What ``seat`` may know now (the engine's ``view``), computed once."""
        found = self._views.get(seat)
        if found is None:
            found = self._views[seat] = cast(V, self.table.module.view(self.game, seat, self.at))
        return found

    def legal(self, seat: int) -> list[A]:
        """The actions the engine lists for ``seat`` now, computed once."""
        found = self._legal.get(seat)
        if found is None:
            found = self._legal[seat] = cast(
                list[A], self.table.module.legal_actions(self.game, seat, self.at)
            )
        return found


def seen_at(
    table: LiveTable, at: int, kept: Seen[Any, Any, Any, Any] | None = None
) -> Seen[Any, Any, Any, Any]:
    """``kept`` while it still describes the table (a click's, handed on to its panel),
    else the table at ``at`` (:meth:`Seen.of`: the table message and its picture share
    one). Each game types it (its ``seen.seen_at``)."""
    if kept is not None and kept.current(table):
        return kept
    return Seen.of(table, at)


#: the last :class:`Seen` asked for through :meth:`Seen.of` (one, so nothing outlives a
#: table: the next table edit or panel replaces it)
_last: Seen[Any, Any, Any, Any] | None = None
