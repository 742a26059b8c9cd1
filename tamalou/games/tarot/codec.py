"""JSON in and out, at the boundary: actions, events and the whole game state.

Validation lives here (pydantic ``TypeAdapter``), never on the per-action hot path.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from pydantic import TypeAdapter

from tamalou.games.tarot import actions as A
from tamalou.games.tarot import events as E
from tamalou.games.tarot.rules import Rules
from tamalou.games.tarot.state import DealResult, DealState, Game

_EVENT_TYPES: dict[str, type] = {t.kind: t for t in E.Event.__args__}
_action_adapters: dict[str, TypeAdapter[Any]] = {
    k: TypeAdapter(t) for k, t in A.ACTION_TYPES.items()
}
_event_adapters: dict[str, TypeAdapter[Any]] = {k: TypeAdapter(t) for k, t in _EVENT_TYPES.items()}


def action_to_dict(action: A.Action) -> dict[str, Any]:
    return {"kind": action.kind, **dataclasses.asdict(action)}


def action_from_dict(data: dict[str, Any]) -> A.Action:
    """Validate untrusted data into an action (``ValueError`` if it is not one)."""
    data = dict(data)
    kind = data.pop("kind", None)
    adapter = _action_adapters.get(kind) if isinstance(kind, str) else None
    if adapter is None:
        raise ValueError(f"unknown action kind {kind!r}")
    result: A.Action = adapter.validate_python(data, strict=False)
    return result


def action_to_json(action: A.Action) -> str:
    return json.dumps(action_to_dict(action), separators=(",", ":"))


def action_from_json(text: str) -> A.Action:
    return action_from_dict(json.loads(text))


def event_to_dict(event: E.Event) -> dict[str, Any]:
    return {"kind": event.kind, **dataclasses.asdict(event)}


def event_from_dict(data: dict[str, Any]) -> E.Event:
    data = dict(data)
    kind = data.pop("kind", None)
    adapter = _event_adapters.get(kind) if isinstance(kind, str) else None
    if adapter is None:
        raise ValueError(f"unknown event kind {kind!r}")
    result: E.Event = adapter.validate_python(data)
    return result


_deal_adapter = TypeAdapter(DealState)
_history_adapter = TypeAdapter(list[DealResult])


def game_to_dict(game: Game) -> dict[str, Any]:
    return {
        "rules": game.rules.model_dump(mode="json"),
        "seed": game.seed,
        "players": game.players,
        "ai": game.ai,
        "deal": _deal_adapter.dump_python(game.deal, mode="json"),
        "cumulative": game.cumulative,
        "history": _history_adapter.dump_python(game.history, mode="json"),
        "deals_dealt": game.deals_dealt,
        "now": game.now,
        "over": game.over,
        "winners": game.winners,
        "next_deal_deadline": game.next_deal_deadline,
    }


def game_from_dict(data: dict[str, Any]) -> Game:
    return Game(
        rules=Rules.model_validate(data["rules"]),
        seed=data["seed"],
        players=data["players"],
        ai=list(data["ai"]),
        deal=_deal_adapter.validate_python(data["deal"]),
        cumulative=[int(c) for c in data["cumulative"]],
        history=_history_adapter.validate_python(data["history"]),
        deals_dealt=data["deals_dealt"],
        now=data["now"],
        over=data["over"],
        winners=list(data["winners"]),
        next_deal_deadline=data["next_deal_deadline"],
    )


def game_to_json(game: Game) -> str:
    return json.dumps(game_to_dict(game), separators=(",", ":"))


def game_from_json(text: str) -> Game:
    return game_from_dict(json.loads(text))
