"""JSON in and out, at the boundary: actions, events and the whole game state.

Validation lives here (pydantic ``TypeAdapter``), never on the per-action hot path.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from pydantic import TypeAdapter

from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.rules import Rules
from tamalou.games.tamalou.state import Game, RoundResult, RoundState

_EVENT_TYPES: dict[str, type] = {t.kind: t for t in E.Event.__args__}
_action_adapters: dict[str, TypeAdapter[Any]] = {
    k: TypeAdapter(t) for k, t in A.ACTION_TYPES.items()
}
_event_adapters: dict[str, TypeAdapter[Any]] = {k: TypeAdapter(t) for k, t in _EVENT_TYPES.items()}


def action_to_dict(action: A.Action) -> dict[str, Any]:
    return {"kind": action.kind, **dataclasses.asdict(action)}


def _object(data: object, what: str) -> dict[str, Any]:
    """``data`` as a JSON object, or ``ValueError`` (never ``TypeError``) for anything else."""
    if not isinstance(data, dict):
        raise ValueError(f"{what} must be a JSON object, not {type(data).__name__}")
    return dict(data)


def _loads(text: str | bytes, what: str) -> Any:
    if not isinstance(text, str | bytes | bytearray):
        raise ValueError(f"{what} must be JSON text, not {type(text).__name__}")
    return json.loads(text)  # JSONDecodeError is a ValueError


def action_from_dict(data: dict[str, Any]) -> A.Action:
    """Validate untrusted data into an action (``ValueError`` if it is not one)."""
    data = _object(data, "an action")
    kind = data.pop("kind", None)
    adapter = _action_adapters.get(kind) if isinstance(kind, str) else None
    if adapter is None:
        raise ValueError(f"unknown action kind {kind!r}")
    result: A.Action = adapter.validate_python(data, strict=False)
    return result


def action_to_json(action: A.Action) -> str:
    return json.dumps(action_to_dict(action), separators=(",", ":"))


def action_from_json(text: str) -> A.Action:
    """``ValueError`` for anything that is not the JSON of an action."""
    return action_from_dict(_loads(text, "an action"))


def event_to_dict(event: E.Event) -> dict[str, Any]:
    return {"kind": event.kind, **dataclasses.asdict(event)}


def event_from_dict(data: dict[str, Any]) -> E.Event:
    """Validate data into an event (``ValueError`` if it is not one)."""
    data = _object(data, "an event")
    kind = data.pop("kind", None)
    adapter = _event_adapters.get(kind) if isinstance(kind, str) else None
    if adapter is None:
        raise ValueError(f"unknown event kind {kind!r}")
    result: E.Event = adapter.validate_python(data)
    return result


_round_adapter = TypeAdapter(RoundState)
_result_adapter = TypeAdapter(list[RoundResult])


def game_to_dict(game: Game) -> dict[str, Any]:
    return {
        "rules": game.rules.model_dump(mode="json"),
        "seed": game.seed,
        "players": game.players,
        "ai": game.ai,
        "round": _round_adapter.dump_python(game.round, mode="json"),
        "cumulative": game.cumulative,
        "history": _result_adapter.dump_python(game.history, mode="json"),
        "now": game.now,
        "over": game.over,
        "winners": game.winners,
        "next_round_deadline": game.next_round_deadline,
        "out": game.out,
    }


def game_from_dict(data: dict[str, Any]) -> Game:
    """Validate data into a game state (``ValueError`` if it is not one)."""
    data = _object(data, "a game")
    try:
        return _game_from_dict(data)
    except (KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"not a game state: {e!r}") from e


def _game_from_dict(data: dict[str, Any]) -> Game:
    rnd = _round_adapter.validate_python(data["round"])
    return Game(
        rules=Rules.model_validate(data["rules"]),
        seed=data["seed"],
        players=data["players"],
        ai=list(data["ai"]),
        round=rnd,
        cumulative=[float(c) for c in data["cumulative"]],
        history=_result_adapter.validate_python(data["history"]),
        now=data["now"],
        over=data["over"],
        winners=list(data["winners"]),
        next_round_deadline=data["next_round_deadline"],
        out=[bool(x) for x in data.get("out", [False] * data["players"])],
    )


def game_to_json(game: Game) -> str:
    return json.dumps(game_to_dict(game), separators=(",", ":"))


def game_from_json(text: str) -> Game:
    return game_from_dict(_loads(text, "a game"))
