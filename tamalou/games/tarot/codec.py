"""JSON in and out, at the boundary: actions, events (the shared :mod:`tamalou.core.codec`)
and the whole game state.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from tamalou.core.codec import Codec, decode, dumps, json_loads
from tamalou.games.tarot import actions as A
from tamalou.games.tarot import events as E
from tamalou.games.tarot.rules import Rules
from tamalou.games.tarot.state import DealResult, DealState, Game

_CODEC: Codec[A.Action, E.Event] = Codec(A.ACTION_TYPES, E.Event.__args__)
action_to_dict = _CODEC.action_to_dict
action_from_dict = _CODEC.action_from_dict
action_to_json = _CODEC.action_to_json
action_from_json = _CODEC.action_from_json
event_to_dict = _CODEC.event_to_dict
event_from_dict = _CODEC.event_from_dict

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


def _game_from_dict(data: dict[str, Any]) -> Game:
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


def game_from_dict(data: dict[str, Any]) -> Game:
    """Validate data into a game state (``ValueError`` if it is not one)."""
    return decode(data, "a game state", _game_from_dict)


def game_to_json(game: Game) -> str:
    return dumps(game_to_dict(game))


def game_from_json(text: str) -> Game:
    return game_from_dict(json_loads(text, "a game"))
