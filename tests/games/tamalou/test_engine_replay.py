"""Determinism, replay from the action log, JSON round trips and a golden playthrough.

Regenerate the golden file after an intended change of the game's behaviour with::

    TAMALOU_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/games/tamalou/test_engine_replay.py

and review the diff of ``tests/games/tamalou/golden/`` like any other change.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import codec
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import apply, new_game, next_deadline
from tamalou.games.tamalou.rules import PRESETS, TAMALOU
from tamalou.games.tamalou.state import Game

from .helpers import play_random_round

GOLDEN = Path(__file__).parent / "golden" / "playthrough_tamalou_4p.json"


def _play(seed: int, players: int, rounds: int) -> tuple[Game, list[A.Action], list[E.Event]]:
    """A seeded game between random players: the live game, its action log, its events."""
    rng = random.Random(seed)
    game, events = new_game(TAMALOU, players, f"replay:{seed}")
    actions: list[A.Action] = []
    for _ in range(rounds):
        play_random_round(game, rng, lambda g, a, ev: events.extend(ev), log=actions)
        if game.over:
            break
        due = next_deadline(game)
        nxt: A.Action = A.NextRound(0, game.now) if due is None else A.Tick(due)
        actions.append(nxt)
        events.extend(apply(game, nxt))
    return game, actions, events


def _fold(
    seed: str, players: int, actions: list[A.Action], stir: bool = False
) -> tuple[Game, list[E.Event]]:
    game, events = new_game(TAMALOU, players, seed)
    for a in actions:
        if stir:  # the engine must not read the global random
            random.seed(random.random())
            random.random()
        events.extend(apply(game, a))
    return game, events


def test_same_seed_and_actions_give_the_same_game_whatever_the_global_random() -> None:
    """R-S1, DESIGN: same seed + same actions = same game; the global random is ignored."""
    for seed in range(8):
        game, actions, events = _play(seed, 2 + seed % 4, rounds=2)
        replayed, replay_events = _fold(game.seed, game.players, actions, stir=True)
        assert replay_events == events
        assert replayed == game


def test_replay_of_the_action_log_equals_the_live_state_at_every_step() -> None:
    """STYLE habit 3: the state is what the log folds to, at every step."""
    rng = random.Random(42)
    live, _ = new_game(TAMALOU, 3, "fold")
    replay, _ = new_game(TAMALOU, 3, "fold")

    def check(g: Game, action: A.Action, ev: list[E.Event]) -> None:
        assert apply(replay, action) == ev
        assert replay == g

    play_random_round(live, rng, check)
    assert live.round.phase == "over"


def test_game_json_round_trip_at_every_step() -> None:
    """The codec: game_from_json(game_to_json(g)) == g, mid-turn, mid-power, after the end."""
    for seed in range(4):
        rng = random.Random(seed)
        game, _ = new_game(TAMALOU, 2 + seed, f"json:{seed}")

        def check(g: Game, action: A.Action, ev: list[E.Event]) -> None:
            copy = codec.game_from_json(codec.game_to_json(g))
            assert copy == g
            # the copy plays on exactly like the original
            assert codec.game_to_dict(copy) == codec.game_to_dict(g)

        play_random_round(game, rng, check)
        restored = codec.game_from_json(codec.game_to_json(game))
        assert restored == game
        apply(restored, A.Tick(next_deadline(restored) or restored.now))
        apply(game, A.Tick(next_deadline(game) or game.now))
        assert restored == game


def test_actions_and_events_json_round_trip() -> None:
    """The codec: every action and event of a game survives JSON unchanged."""
    _game, actions, events = _play(3, 4, rounds=2)
    for a in actions:
        assert codec.action_from_json(codec.action_to_json(a)) == a
    for e in events:
        assert codec.event_from_dict(json.loads(json.dumps(codec.event_to_dict(e)))) == e
    assert {type(e) for e in events} >= {E.Dealt, E.TurnStarted, E.Drew, E.RoundEnded}


def test_presets_survive_the_json_round_trip() -> None:
    """R-V: every preset's rules survive the game codec (rules are data)."""
    for rules in PRESETS.values():
        data = json.loads(json.dumps(rules.model_dump(mode="json")))
        assert type(rules).model_validate(data) == rules


def _public(events: list[E.Event]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = json.loads(
        json.dumps([codec.event_to_dict(e) for e in E.public(events)])
    )
    return out


def _one_item_per_line(data: dict[str, Any]) -> str:
    """JSON with one action or event per line: a change shows as a readable diff."""
    lines = ["{"]
    for i, (key, value) in enumerate(data.items()):
        end = "," if i < len(data) - 1 else ""
        if isinstance(value, list):
            items = [json.dumps(v, separators=(",", ":")) for v in value]
            body = ",\n".join(f"  {x}" for x in items)
            lines.append(f"{json.dumps(key)}: [\n{body}\n]{end}")
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value)}{end}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def test_golden_playthrough() -> None:
    """A checked-in seeded game: its actions replayed give exactly its public events."""
    if os.environ.get("TAMALOU_REGEN_GOLDEN"):
        game, actions, events = _play(7, 4, rounds=2)
        GOLDEN.parent.mkdir(exist_ok=True)
        data = {
            "about": "tests/test_engine_replay.py: regenerate with TAMALOU_REGEN_GOLDEN=1",
            "rules": game.rules.name,
            "seed": game.seed,
            "players": game.players,
            "actions": [codec.action_to_dict(a) for a in actions],
            "public_events": _public(events),
        }
        GOLDEN.write_text(_one_item_per_line(data))
    data = json.loads(GOLDEN.read_text())
    assert data["rules"] == "tamalou"
    actions = [codec.action_from_dict(a) for a in data["actions"]]
    game, events = _fold(data["seed"], data["players"], actions)
    assert _public(events) == data["public_events"]
    kinds = {e["kind"] for e in data["public_events"]}
    assert {"round_started", "turn_started", "round_ended"} <= kinds
    assert len(game.history) >= 1
