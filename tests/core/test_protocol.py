"""The game protocol: every registered game satisfies it and plays through the core drivers."""

from __future__ import annotations

import json
import random

import pytest

from tamalou.core.events import public
from tamalou.core.protocol import GameModule, RoundSummary
from tamalou.games import game_ids, load


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_provides_every_member_of_the_protocol(game_id: str) -> None:
    """mypy checks ``bot`` and ``tamalou`` only, and the registry casts: a member a game
    forgot (``contested``, say) would first fail at a click. Listed here instead."""
    game = load(game_id)
    functions = [n for n, v in vars(GameModule).items() if callable(v) and n[0] != "_"]
    assert "contested" in functions
    missing = [n for n in [*GameModule.__annotations__, *functions] if not hasattr(game, n)]
    assert not missing, missing
    assert all(callable(getattr(game, n)) for n in functions)


@pytest.mark.parametrize("game_id", game_ids())
def test_a_random_match_runs_through_the_protocol(game_id: str) -> None:
    game = load(game_id)
    rules = game.PRESETS[game.DEFAULT_PRESET]
    state, _ = game.new_game(rules, 3, "protocol:1", 0)
    seen_summaries: list[RoundSummary] = []

    def check(st: object, events: list[object]) -> None:
        for e in events:
            # every event round-trips through the codec of its game only via actions; here
            # the audience is well formed
            assert e.to is None or isinstance(e.to, tuple)  # type: ignore[attr-defined]
        seen_summaries.extend(game.round_summaries(events))
        for seat in range(3):
            game.view(st, seat, game.now(st))
        game.public_view(st, game.now(st))

    from tamalou.core.drivers import random_playout

    applied = random_playout(game, state, 3, random.Random(7), max_actions=3_000, check=check)
    assert applied > 0
    for s in seen_summaries:
        assert len(s.scores) == len(s.places) == 3


@pytest.mark.parametrize("game_id", game_ids())
def test_actions_round_trip_through_json(game_id: str) -> None:
    game = load(game_id)
    rules = game.PRESETS[game.DEFAULT_PRESET]
    players = int(getattr(rules, "min_players", 2))
    state, _ = game.new_game(rules, players, "protocol:2", 0)
    for seat in range(players):
        for action in game.legal_actions(state, seat, 1_000):
            data = json.loads(json.dumps(game.action_to_dict(action)))
            assert game.action_from_dict(data) == action
    assert game.action_from_dict(game.action_to_dict(game.tick(5))) == game.tick(5)


def test_an_unknown_game_is_named_in_the_error() -> None:
    with pytest.raises(KeyError, match="known: tamalou"):
        load("chess")


def test_public_keeps_only_public_events() -> None:
    game = load("tamalou")
    _, events = game.new_game(game.PRESETS["tamalou"], 2, "protocol:3", 0)
    assert all(e.to is None for e in public(events))
    assert len(public(events)) < len(events)  # the deal's order is log-only


@pytest.mark.parametrize("game_id", game_ids())
def test_the_benchmark_takes_the_same_options_for_every_game(
    game_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m tamalou.bench --game G --rounds N --seed S`` for every registered game."""
    from tamalou import bench

    bench.main(["--game", game_id, "--rounds", "2", "--seed", "5"])
    assert "actions/s:" in capsys.readouterr().out
