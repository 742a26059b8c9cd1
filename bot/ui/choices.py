"""Any legal action as a button or a select option, for action kinds a game's panel does not
draw by hand (a house variant's new power, a new game's first draft): the fallback that
keeps every legal action playable.

An action is named in a custom_id by its kind's index in the game's list of kinds and its
integer fields (the seat and the time left out): ``<kind>.<field>.<field>…``. A click is
resolved against the legal actions at the moment of the click: a choice that is no longer
legal is refused, never guessed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

#: the protocol's ``action_to_dict``
ToDict = Callable[[Any], dict[str, Any]]


def encode(action: Any, kinds: Sequence[str], to_dict: ToDict) -> str | None:
    """The action's code, or None when it cannot be named this way (a non-integer field)."""
    data = dict(to_dict(action))
    kind = data.pop("kind", None)
    data.pop("player", None)
    data.pop("at", None)
    if kind not in kinds:
        return None
    values = list(data.values())
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values):
        return None
    return ".".join(str(v) for v in [kinds.index(kind), *values])


def fields(action: Any, to_dict: ToDict) -> dict[str, Any]:
    """The fields a label may show (no kind, seat or time)."""
    data = dict(to_dict(action))
    for key in ("kind", "player", "at"):
        data.pop(key, None)
    return data


def resolve(code: str, legal: Sequence[Any], kinds: Sequence[str], to_dict: ToDict) -> Any | None:
    """The legal action ``code`` names now, or None."""
    for action in legal:
        if encode(action, kinds, to_dict) == code:
            return action
    return None
