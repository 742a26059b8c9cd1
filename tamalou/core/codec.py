"""JSON in and out at the boundary, the same for every game: actions and events by ``kind``,
the whole game state by its dataclass, and the checks every decoder makes before a game's
own fields are read.

Validation lives here (pydantic ``TypeAdapter``), never on the per-action hot path. Bad
input of any shape is a ``ValueError`` (never a ``TypeError`` or ``KeyError``), which is
what the bot and the storage catch. The adapters are built on first use: a restart that
reads only its own log never builds them.

``action_from_log`` reads the bot's own log at a restart (9,000+ rows for 1,000 tables):
a row whose every field has the exact JSON type the bot writes is built with the plain
constructor; any other row is handed to the validated decoder, so both give the same action
(or the same ``ValueError``) for any input (tests/core/test_log_decode.py).
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
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


class _Adapters:
    """pydantic ``TypeAdapter``s by kind, each built the first time it is needed (building
    the three games' took about 0.2 s of every start)."""

    def __init__(self, types_by_kind: Mapping[str, type[Any]]) -> None:
        self._types = dict(types_by_kind)
        self._built: dict[str, TypeAdapter[Any]] = {}

    def get(self, kind: str) -> TypeAdapter[Any] | None:
        adapter = self._built.get(kind)
        if adapter is None and kind in self._types:
            from pydantic import TypeAdapter

            adapter = self._built[kind] = TypeAdapter(self._types[kind])
        return adapter


#: a field of a logged row that is not what the bot writes: the validated decoder reads it
_ODD = object()
#: a field's reading: the JSON value the bot writes to the field's value, or ``_ODD``
_Read = Callable[[Any], Any]


def _exact(kind: type) -> _Read:
    """A JSON int, str or bool field: exactly that type (``True`` is no int here, ``"1"``
    no int: lax validation converts those, so the validated decoder reads them)."""
    return lambda v: v if type(v) is kind else _ODD


def _optional(inner: _Read) -> _Read:
    return lambda v: None if v is None else inner(v)


def _tuple_of(inner: _Read) -> _Read:
    """``tuple[X, ...]``: a JSON list of X, as a tuple."""

    def read(v: Any) -> Any:
        if type(v) is not list:
            return _ODD
        out = tuple(map(inner, v))
        return _ODD if _ODD in out else out

    return read


def _pair_of(items: tuple[_Read, ...]) -> _Read:
    """``tuple[X, Y]``: a JSON list of exactly those, as a tuple."""

    def read(v: Any) -> Any:
        if type(v) is not list or len(v) != len(items):
            return _ODD
        out = tuple(r(x) for r, x in zip(items, v, strict=True))
        return _ODD if _ODD in out else out

    return read


def _reader(hint: Any) -> _Read | None:
    """How a field of this type is read from the bot's JSON (None: a type this reader does
    not know, read by the validated decoder)."""
    if hint in (int, str, bool):
        return _exact(hint)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union) and len(args) == 2 and type(None) in args:
        inner = _reader(next(a for a in args if a is not type(None)))
        return None if inner is None else _optional(inner)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        inner = _reader(args[0])
        return None if inner is None else _tuple_of(inner)
    if origin is tuple and args and Ellipsis not in args:
        items = [_reader(a) for a in args]
        return None if None in items else _pair_of(tuple(r for r in items if r is not None))
    return None


_NONE = object()  # a field with no default


def _log_reader(cls: type[Any]) -> Callable[[dict[str, Any]], Any]:
    """One action dataclass read from the bot's own JSON with its plain constructor: each
    field present with its exact type, or its default when absent, no field unknown; None
    for any other row (the validated decoder then reads it).

    The reading is straight-line code written for the class (as ``dataclasses`` writes an
    ``__init__``): a loop over the fields cost as much as pydantic's validation."""
    if not dataclasses.is_dataclass(cls):
        return _unread
    hints = typing.get_type_hints(cls, include_extras=True)  # Annotated: validated
    env: dict[str, Any] = {"_cls": cls, "_ODD": _ODD, "_NONE": _NONE}
    lines = ["def read(data):", "    present = 1"]  # the kind
    names = []
    for i, f in enumerate(dataclasses.fields(cls)):
        hint = hints[f.name]
        read = _reader(hint)
        if read is None or not f.init or f.default_factory is not dataclasses.MISSING:
            return _unread
        v = f"v{i}"
        lines += [f"    {v} = data.get({f.name!r}, _NONE)", f"    if {v} is _NONE:"]
        if f.default is dataclasses.MISSING:
            lines.append("        return None")
        else:
            env[f"d{i}"] = f.default
            lines.append(f"        {v} = d{i}")
        lines.append("    else:")
        if hint in (int, str, bool):
            env[f"t{i}"] = hint
            lines += [f"        if type({v}) is not t{i}:", "            return None"]
        else:
            env[f"r{i}"] = read
            lines += [
                f"        {v} = r{i}({v})",
                f"        if {v} is _ODD:",
                "            return None",
            ]
        lines.append("        present += 1")
        names.append(v)
    lines += ["    if present != len(data):", "        return None"]  # a field too many
    lines.append(f"    return _cls({', '.join(names)})")
    exec("\n".join(lines), env)  # the field names of our own dataclass only
    read_row: Callable[[dict[str, Any]], Any] = env["read"]
    return read_row


def _unread(data: dict[str, Any]) -> None:
    """The reader of a class with a field type ``_reader`` does not know: none (validated)."""
    return None


class Codec(Generic[ActionT, EventT]):
    """A game's actions and events to and from JSON, each dataclass tagged by its ``kind``."""

    def __init__(
        self, action_types: Mapping[str, type[Any]], event_types: Iterable[type[Any]]
    ) -> None:
        self._actions = _Adapters(action_types)
        self._events = _Adapters({t.kind: t for t in event_types})
        self._action_types = dict(action_types)
        self._log_readers: dict[str, Callable[[dict[str, Any]], Any]] = {}

    @staticmethod
    def _tagged(item: Any) -> dict[str, Any]:
        return {"kind": item.kind, **dataclasses.asdict(item)}

    def _decode(self, data: object, what: str, adapters: _Adapters) -> Any:
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

    def action_from_log(self, data: dict[str, Any]) -> ActionT:
        """An action of the bot's own log: the same as ``action_from_dict`` for any input
        (``ValueError`` if it is not one), without pydantic for the rows the bot writes."""
        if type(data) is dict:
            kind = data.get("kind")
            if type(kind) is str:
                read = self._log_readers.get(kind)
                if read is None and kind in self._action_types:
                    read = self._log_readers[kind] = _log_reader(self._action_types[kind])
                if read is not None:
                    action: ActionT | None = read(data)
                    if action is not None:
                        return action
        return self.action_from_dict(data)

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
        self._type = state_type
        self._built: TypeAdapter[StateT] | None = None  # on first use: no restart needs it
        self._fields = tuple(f.name for f in dataclasses.fields(state_type))  # type: ignore[arg-type]
        self._upgrade = upgrade

    @property
    def _adapter(self) -> TypeAdapter[StateT]:
        if self._built is None:
            from pydantic import TypeAdapter

            self._built = TypeAdapter(self._type)
        return self._built

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
