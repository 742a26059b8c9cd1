"""Every game's JSON boundary (tamalou/core/codec.py): whatever the shape of bad input, the
decoders answer ``ValueError`` — the error the bot and the storage catch — never a
``TypeError``/``KeyError``/``AttributeError``; and good input round-trips."""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest

from tamalou.games import game_ids, load

MALFORMED_TEXT = ["1", "null", "[1,2]", "3.5", '"draw"', "true", "{", "", '{"kind": 3}', "{}"]
MALFORMED_DATA: list[object] = [
    1,
    None,
    [1, 2],
    3.5,
    "draw",
    {},
    {"kind": "nonsense"},
    {"kind": "draw", "player": [1]},
]


def codec_of(game_id: str) -> ModuleType:
    return importlib.import_module(f"tamalou.games.{game_id}.codec")


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("text", MALFORMED_TEXT)
def test_malformed_json_text_is_a_value_error(game_id: str, text: str) -> None:
    codec = codec_of(game_id)
    for decoder in (codec.action_from_json, codec.game_from_json):
        with pytest.raises(ValueError):
            decoder(text)


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("data", MALFORMED_DATA)
def test_malformed_data_is_a_value_error(game_id: str, data: object) -> None:
    codec = codec_of(game_id)
    for decoder in (
        codec.action_from_dict,
        codec.event_from_dict,
        codec.game_from_dict,
        load(game_id).action_from_dict,
    ):
        with pytest.raises(ValueError):
            decoder(data)


@pytest.mark.parametrize("game_id", game_ids())
def test_a_game_state_missing_fields_or_ill_typed_is_a_value_error(game_id: str) -> None:
    codec, game = codec_of(game_id), load(game_id)
    state, _ = game.new_game(game.PRESETS[game.DEFAULT_PRESET], 3, "codec", 0)
    data = codec.game_to_dict(state)
    assert codec.game_to_dict(codec.game_from_json(codec.game_to_json(state))) == data
    for name in ("seed", "rules", "now"):
        with pytest.raises(ValueError):
            codec.game_from_dict({k: v for k, v in data.items() if k != name})
    with pytest.raises(ValueError):
        codec.game_from_dict({**data, "ai": 3})
    with pytest.raises(ValueError):
        codec.game_from_json(codec.game_to_json(state).encode() + b"}")
    with pytest.raises(ValueError):
        codec.action_from_json(b"\xff\xfe")


@pytest.mark.parametrize("game_id", game_ids())
def test_events_round_trip(game_id: str) -> None:
    codec, game = codec_of(game_id), load(game_id)
    _, events = game.new_game(game.PRESETS[game.DEFAULT_PRESET], 3, "codec", 0)
    assert events
    for e in events:
        assert codec.event_from_dict(codec.event_to_dict(e)) == e
