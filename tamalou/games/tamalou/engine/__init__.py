"""The rules of a round and a match: ``new_game``, ``apply``, ``legal_actions``, ``next_deadline``.

Every decision about the game is made here, for every preset: the engine reads the
:class:`Rules` data (R-V, R-X), never a preset's name. ``apply`` either changes the state
and returns the events, or raises :class:`IllegalAction` and leaves the state exactly as it
was: each handler checks everything before it changes anything.

Time is an input: a deadline that has passed must be applied with :class:`Tick` before any
other action (``apply`` refuses with ``deadline_pending``); :func:`step` does both.

The package splits it by role: :mod:`.setup` (the deal), :mod:`.dispatch` (``apply`` and
the clock), :mod:`.moves` (the current player's), :mod:`.doubles`, :mod:`.turns`,
:mod:`.round_end`, :mod:`.legal` (legal actions) over :mod:`.common` (shared checks).
"""

from __future__ import annotations

from tamalou.games.tamalou.engine.common import (
    PENDING_POWER_MS,
    Events,
    can_take_discard,
    doubles_refusal,
    untargetable,
)
from tamalou.games.tamalou.engine.dispatch import apply, next_deadline, step
from tamalou.games.tamalou.engine.legal import (
    contested,
    double_actions,
    first_choice,
    legal_actions,
    may_double,
)
from tamalou.games.tamalou.engine.round_end import abandoned
from tamalou.games.tamalou.engine.setup import new_game
from tamalou.games.tamalou.engine.turns import display_moments, fuse_start

__all__ = [
    "PENDING_POWER_MS",
    "Events",
    "abandoned",
    "apply",
    "can_take_discard",
    "contested",
    "display_moments",
    "double_actions",
    "doubles_refusal",
    "first_choice",
    "fuse_start",
    "legal_actions",
    "may_double",
    "new_game",
    "next_deadline",
    "step",
    "untargetable",
]
