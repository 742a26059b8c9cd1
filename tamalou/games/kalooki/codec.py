"""JSON in and out, at the boundary: actions, events (the shared :mod:`tamalou.core.codec`)
and the whole game state.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from tamalou.core.codec import Codec, decode, dumps, json_loads
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.rules import Rules
from tamalou.games.kalooki.state import Game, RoundResult, RoundState

_CODEC: Codec[A.Action, E.Event] = Codec(A.ACTION_TYPES, E.Event.__args__)
action_to_dict = _CODEC.action_to_dict
action_from_dict = _CODEC.action_from_dict
action_to_json = _CODEC.action_to_json
action_from_json = _CODEC.action_from_json
event_to_dict = _CODEC.event_to_dict
event_from_dict = _CODEC.event_from_dict

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
        "voids": game.voids,
    }


def _game_from_dict(data: dict[str, Any]) -> Game:
    return Game(
        rules=Rules.model_validate(data["rules"]),
        seed=data["seed"],
        players=data["players"],
        ai=list(data["ai"]),
        round=_round_adapter.validate_python(data["round"]),
        cumulative=[float(c) for c in data["cumulative"]],
        history=_result_adapter.validate_python(data["history"]),
        now=data["now"],
        over=data["over"],
        winners=list(data["winners"]),
        next_round_deadline=data["next_round_deadline"],
        voids=data["voids"],
    )


def game_from_dict(data: dict[str, Any]) -> Game:
    """Validate data into a game state (``ValueError`` if it is not one)."""
    return decode(data, "a game state", _game_from_dict)


def game_to_json(game: Game) -> str:
    return dumps(game_to_dict(game))


def game_from_json(text: str) -> Game:
    return game_from_dict(json_loads(text, "a game"))
