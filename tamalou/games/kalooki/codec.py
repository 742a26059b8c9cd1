"""JSON in and out, at the boundary: actions, events (the shared :mod:`tamalou.core.codec`)
and the whole game state.
"""

from __future__ import annotations

from tamalou.core.codec import Codec, StateCodec
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.state import Game

_CODEC: Codec[A.Action, E.Event] = Codec(A.ACTION_TYPES, E.Event.__args__)
action_to_dict = _CODEC.action_to_dict
action_from_dict = _CODEC.action_from_dict
action_from_log = _CODEC.action_from_log
action_to_json = _CODEC.action_to_json
action_from_json = _CODEC.action_from_json
event_to_dict = _CODEC.event_to_dict
event_from_dict = _CODEC.event_from_dict

_STATE: StateCodec[Game] = StateCodec(Game)
game_to_dict = _STATE.to_dict
game_from_dict = _STATE.from_dict
game_to_json = _STATE.to_json
game_from_json = _STATE.from_json
