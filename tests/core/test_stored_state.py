"""The state codec is one ``TypeAdapter`` per game (tamalou/core/codec.py ``StateCodec``): it
reads what the field-by-field codecs wrote before it, and round-trips every state a random
match goes through."""

from __future__ import annotations

import importlib
import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tamalou.core.drivers import random_playout
from tamalou.games import game_ids, load

#: one state and the action log that led to it per game, written by the codecs before the
#: change (a random match of the default preset at three players, 120 actions)
DATA = Path(__file__).parent / "data"


def codec_of(game_id: str) -> ModuleType:
    return importlib.import_module(f"tamalou.games.{game_id}.codec")


def kept(old: Any, new: Any, where: str = "state") -> None:
    """Everything ``old`` holds is in ``new`` unchanged; ``new`` may hold more (a field
    added since, with its default: Kalooki's ``discard_at``)."""
    if isinstance(old, dict):
        assert isinstance(new, dict), where
        for key, value in old.items():
            assert key in new, f"{where}.{key} lost"
            kept(value, new[key], f"{where}.{key}")
    elif isinstance(old, list):
        assert isinstance(new, list) and len(new) == len(old), where
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            kept(a, b, f"{where}[{i}]")
    else:
        assert type(new) is type(old) and new == old, f"{where}: {old!r} became {new!r}"


def stored(game_id: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{game_id}.json").read_text())
    return data


@pytest.mark.parametrize("game_id", game_ids())
def test_a_state_written_before_reads_back_unchanged_and_plays_on(game_id: str) -> None:
    codec, game, data = codec_of(game_id), load(game_id), stored(game_id)
    state = codec.game_from_dict(data["state"])
    again = codec.game_to_dict(state)
    kept(data["state"], again)
    assert codec.game_to_dict(codec.game_from_dict(again)) == again
    text = json.dumps(data["state"], separators=(",", ":"))
    assert codec.game_from_json(text) == state
    for entry in data["actions"]:  # the action log's format did not move either
        assert codec.action_to_dict(codec.action_from_dict(entry)) == entry
    assert random_playout(game, state, data["players"], random.Random(1), max_actions=50) > 0


def test_a_tamalou_state_from_before_eliminations_has_nobody_out() -> None:
    """States written before R-X16 have no ``out`` field: read as nobody eliminated."""
    codec, data = codec_of("tamalou"), stored("tamalou")["state"]
    del data["out"]
    assert codec.game_from_dict(data).out == [False] * data["players"]


@pytest.mark.parametrize("game_id", game_ids())
def test_every_state_of_200_random_actions_round_trips(game_id: str) -> None:
    codec, game = codec_of(game_id), load(game_id)
    seen = 0

    def check(s: Any, _events: list[Any]) -> None:
        nonlocal seen
        seen += 1
        text = codec.game_to_json(s)
        copy = codec.game_from_json(text)
        assert copy == s
        assert codec.game_to_json(copy) == text

    for seed in range(10):  # a match may end before 200 actions: the next one goes on
        state, _ = game.new_game(game.PRESETS[game.DEFAULT_PRESET], 4, f"round-trip{seed}", 0)
        random_playout(game, state, 4, random.Random(seed), max_actions=200 - seen, check=check)
        if seen == 200:
            break
    assert seen == 200
