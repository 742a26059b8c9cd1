"""JSON in and out at the boundary, the same for every game: actions and events by ``kind``,
the whole game state by its dataclass, and the checks every decoder makes before a game's
own fields are read.

Validation lives here (pydantic ``TypeAdapter``), never on the per-action hot path. Bad
input of any shape is a ``ValueError`` (never a ``TypeError`` or ``KeyError``), which is
what the bot and the storage catch.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

from pydantic import TypeAdapter

ActionT = TypeVar("ActionT")
EventT = TypeVar("EventT")
T = TypeVar("T")
StateT = TypeVar("StateT")


def json_object(data: object, what: str) -> dict[str, Any]:
    """``data`` as a JSON object (a copy), or ``ValueError`` for anything else."""
    if not isinstance(data, dict):
        raise ValueError(f"{what} must be a JSON object, not {type(data).__name__}")
    return dict(data)


def json_loads(text: object, what: str) -> Any:
    """Parsed JSON text, or ``ValueError`` (``JSONDecodeError`` is one)."""
    if not isinstance(text, str | bytes | bytearray):
        raise ValueError(f"{what} must be JSON text, not {type(text).__name__}")
    return json.loads(text)


def dumps(data: Any) -> str:
    """Compact JSON, as the log stores it."""
    return json.dumps(data, separators=(",", ":"))


def decode(data: object, what: str, build: Callable[[dict[str, Any]], T]) -> T:
    """``build`` (a game's own reading of its fields) on a JSON object; a missing or
    ill-typed field is a ``ValueError`` naming ``what``."""
    obj = json_object(data, what)
    try:
        return build(obj)
    except (KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"not {what}: {e!r}") from e


class Codec(Generic[ActionT, EventT]):
    """A game's actions and events to and from JSON, each dataclass tagged by its ``kind``."""

    def __init__(
        self, action_types: Mapping[str, type[Any]], event_types: Iterable[type[Any]]
    ) -> None:
        self._actions: dict[str, TypeAdapter[Any]] = {
            k: TypeAdapter(t) for k, t in action_types.items()
        }
        self._events: dict[str, TypeAdapter[Any]] = {t.kind: TypeAdapter(t) for t in event_types}

    @staticmethod
    def _tagged(item: Any) -> dict[str, Any]:
        return {"kind": item.kind, **dataclasses.asdict(item)}

    def _decode(self, data: object, what: str, adapters: dict[str, TypeAdapter[Any]]) -> Any:
        fields = json_object(data, what)
        kind = fields.pop("kind", None)
        adapter = adapters.get(kind) if isinstance(kind, str) else None
        if adapter is None:
            raise ValueError(f"unknown {what} kind {kind!r}")
        return adapter.validate_python(fields, strict=False)  # ValidationError: a ValueError

    def action_to_dict(self, action: ActionT) -> dict[str, Any]:
        return self._tagged(action)

    def action_from_dict(self, data: dict[str, Any]) -> ActionT:
        """Validate untrusted data into an action (``ValueError`` if it is not one)."""
        result: ActionT = self._decode(data, "action", self._actions)
        return result

    def action_to_json(self, action: ActionT) -> str:
        return dumps(self.action_to_dict(action))

    def action_from_json(self, text: str) -> ActionT:
        """``ValueError`` for anything that is not the JSON of an action."""
        return self.action_from_dict(json_loads(text, "an action"))

    def event_to_dict(self, event: EventT) -> dict[str, Any]:
        return self._tagged(event)

    def event_from_dict(self, data: dict[str, Any]) -> EventT:
        """Validate data into an event (``ValueError`` if it is not one)."""
        result: EventT = self._decode(data, "event", self._events)
        return result


class StateCodec(Generic[StateT]):
    """A game's whole state to and from JSON: one ``TypeAdapter`` over its ``Game`` dataclass
    (fields in declaration order, nested dataclasses and the rules model included), so a
    game writes no field-by-field codec. Every field of the state itself must be there (a
    state missing its clock is not one, though the dataclass has a default for it).

    ``upgrade`` fills, in place, what a state written by an older version lacks (a field
    added later with a default that depends on other fields); a plain default needs none.
    """

    def __init__(
        self,
        state_type: type[StateT],
        upgrade: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self._adapter: TypeAdapter[StateT] = TypeAdapter(state_type)
        self._fields = tuple(f.name for f in dataclasses.fields(state_type))  # type: ignore[arg-type]
        self._upgrade = upgrade

    def to_dict(self, state: StateT) -> dict[str, Any]:
        data: dict[str, Any] = self._adapter.dump_python(state, mode="json")
        return data

    def _build(self, data: dict[str, Any]) -> StateT:
        if self._upgrade is not None:
            self._upgrade(data)
        missing = [name for name in self._fields if name not in data]
        if missing:
            raise ValueError(f"not a game state: no {', '.join(missing)}")
        return self._adapter.validate_python(data)  # ValidationError: a ValueError

    def from_dict(self, data: object) -> StateT:
        """Validate data into a game state (``ValueError`` if it is not one)."""
        return decode(data, "a game state", self._build)

    def to_json(self, state: StateT) -> str:
        return dumps(self.to_dict(state))

    def from_json(self, text: object) -> StateT:
        """``ValueError`` for anything that is not the JSON of a game state."""
        return self.from_dict(json_loads(text, "a game"))
