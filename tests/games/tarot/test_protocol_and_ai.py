"""The game protocol (tamalou.core.protocol) and the AI players, for tarot."""

from __future__ import annotations

import json
import random

import pytest

import tamalou.games.tarot as tarot
from tamalou.core.drivers import random_playout
from tamalou.core.errors import IllegalAction
from tamalou.core.protocol import GameModule, RoundSummary
from tamalou.games.tarot import actions as A
from tamalou.games.tarot import events as E
from tamalou.games.tarot.arena import run
from tamalou.games.tarot.engine import apply, legal_actions, new_game
from tamalou.games.tarot.rules import PRESETS, TAROT


def test_the_module_satisfies_the_game_protocol() -> None:
    game: GameModule = tarot  # mypy checks the shape; here, the values
    assert game.GAME_ID == "tarot" and game.DEFAULT_PRESET in game.PRESETS
    assert set(game.AI_LEVELS) >= {"random", "easy", "medium"}
    assert game.rules_from_dict(TAROT.model_dump(mode="json")) == TAROT


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_random_match_runs_through_the_core_driver(players: int) -> None:
    """The default preset takes 3 to 5 players (T-S2) and a match ends (T-M1)."""
    state, _ = tarot.new_game(tarot.PRESETS[tarot.DEFAULT_PRESET], players, f"proto:{players}", 0)
    summaries: list[RoundSummary] = []

    def check(st: object, events: list[object]) -> None:
        summaries.extend(tarot.round_summaries(events))  # type: ignore[arg-type]
        for seat in range(players):
            tarot.view(st, seat, tarot.now(st))  # type: ignore[arg-type]
        tarot.public_view(st, tarot.now(st))  # type: ignore[arg-type]

    applied = random_playout(
        tarot, state, players, random.Random(7), max_actions=3_000, check=check
    )  # type: ignore[arg-type]
    assert applied > 0 and tarot.match_over(state)
    assert len(summaries) == players  # one per played deal
    for s in summaries:
        assert len(s.scores) == len(s.places) == players and sum(s.scores) == 0


def test_actions_round_trip_through_json_with_three_players() -> None:
    state, _ = tarot.new_game(TAROT, 3, "proto:json", 0)
    for seat in range(3):
        for action in tarot.legal_actions(state, seat, 1_000):
            data = json.loads(json.dumps(tarot.action_to_dict(action)))
            assert tarot.action_from_dict(data) == action
    assert tarot.action_from_dict(tarot.action_to_dict(tarot.tick(5))) == tarot.tick(5)


def test_two_or_six_players_are_refused() -> None:
    for n in (2, 6):
        with pytest.raises(IllegalAction) as info:
            new_game(TAROT, n, "x")
        assert info.value.reason == "bad_player_count"
    with pytest.raises(IllegalAction):
        new_game(PRESETS["tarot5"], 4, "x")


@pytest.mark.parametrize("level", ["random", "easy", "medium"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_ai_players_act_legally_from_their_own_view(level: str, players: int) -> None:
    game, events = new_game(TAROT, players, f"ai:{level}:{players}", 0, ai=[True] * players)
    bots = [tarot.make_ai(level, s, TAROT, f"ai:{s}") for s in range(players)]
    at = 0
    for _ in range(2_000):
        if game.over:
            break
        for b in bots:
            b.observe(E.stream_for(events, b.seat))
        at += 500
        if game.deal.phase == "over":
            events = apply(game, A.NextDeal(0, at))
            continue
        seat = game.deal.current
        legal = legal_actions(game, seat, at)
        assert (
            bots[(seat + 1) % players].act(
                tarot.view(game, (seat + 1) % players, at),
                legal_actions(game, (seat + 1) % players, at),
                at,
            )
            is None
        )
        action = bots[seat].act(tarot.view(game, seat, at), legal, at)
        assert action in legal
        events = apply(game, action)
    assert game.over


def test_medium_beats_random() -> None:
    """The arena: medium's mean score per deal is above random's (seats rotated)."""
    stats = run(["medium", "random", "random", "random"], 40, "test", TAROT)
    assert stats["medium"].mean() > stats["random"].mean()
    lo, _ = stats["medium"].interval()
    assert lo > 0


def test_bench_and_arena_print_their_reports(capsys: pytest.CaptureFixture[str]) -> None:
    from tamalou.games.tarot import arena, bench

    bench.main(["--deals", "5", "--players", "5"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1].startswith("actions/s: ") and int(lines[-1].split()[-1]) > 0
    arena.main(["--deals", "3", "medium", "easy", "random"])
    out = capsys.readouterr().out
    assert "3 deals" in out and "medium" in out and "95% interval" in out
