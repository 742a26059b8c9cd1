"""Kalooki AI players: legal play from their own view, levels that differ in strength."""

from __future__ import annotations

import random

import pytest

from tamalou.games import kalooki as K
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki.ai import LEVELS, make_player
from tamalou.games.kalooki.arena import play_match
from tamalou.games.kalooki.engine import legal_actions, new_game
from tamalou.games.kalooki.rules import BABY, KALOOKI, SET
from tamalou.games.kalooki.views import view

from .helpers import AFTER_WINDOW, card, cs, forced_game, place_melds, play


def test_every_level_is_made_through_the_protocol() -> None:
    assert set(K.AI_LEVELS) == set(LEVELS) >= {"random", "easy", "medium"}
    for level in K.AI_LEVELS:
        player = K.make_ai(level, 0, KALOOKI, "t")
        assert player.level == level
    with pytest.raises(ValueError):
        make_player("grandmaster", 0, KALOOKI, "t")


@pytest.mark.parametrize("level", ["random", "easy", "medium"])
def test_an_ai_only_picks_listed_actions(level: str) -> None:
    game, _ = new_game(BABY, 3, f"ai-legal:{level}", 0)
    players = [make_player(level, s, BABY, "x") for s in range(3)]
    rng = random.Random(1)
    at = 0
    for _ in range(400):
        at += rng.randint(200, 3_000)
        if game.round.phase == "over" or game.over:
            break
        for seat in range(3):
            legal = legal_actions(game, seat, at)
            action = players[seat].act(view(game, seat, at), legal, at)
            assert action is None or action in legal
            if action is not None:
                K.step(game, action)
                break
        else:
            K.step(game, A.Tick(at))


def test_medium_lays_the_contract_down_as_soon_as_it_can() -> None:
    hand = ["5h", "5s", "5d", "8c", "8s", "8h", "Kd", "Ks", "Kc"]
    g = forced_game([hand, ["2c", "3d"]], pile=["4c"], first=0)
    play(g, A.Draw(0, AFTER_WINDOW))
    ai = make_player("medium", 0, KALOOKI, "m")
    action = ai.act(view(g, 0, AFTER_WINDOW), legal_actions(g, 0, AFTER_WINDOW), AFTER_WINDOW)
    assert isinstance(action, A.LayDown)


def test_medium_calls_a_card_that_completes_a_meld_easy_does_not() -> None:
    g = forced_game([["2c", "3d"], ["9h", "9s", "4c"], ["Kh", "Qd"]], discard=["9d"], first=0)
    legal = legal_actions(g, 1, 100)
    seen = view(g, 1, 100)
    assert make_player("medium", 1, KALOOKI, "m").act(seen, legal, 100) == A.Call(
        1, card("9d"), 100
    )
    assert make_player("easy", 1, KALOOKI, "m").act(seen, legal, 100) is None


def test_medium_lays_off_before_discarding() -> None:
    g = forced_game([["9d", "2c", "Kh"], ["4c", "5d"]], first=0)
    place_melds(g, [(0, SET, ["9c", "9s", "9h"])])
    play(g, A.Draw(0, AFTER_WINDOW))
    ai = make_player("medium", 0, KALOOKI, "m")
    action = ai.act(view(g, 0, AFTER_WINDOW), legal_actions(g, 0, AFTER_WINDOW), AFTER_WINDOW)
    assert action == A.LayOff(0, cs("9d")[0], 0, "high", AFTER_WINDOW)


def test_medium_beats_random() -> None:
    wins = 0
    matches = 6
    for m in range(matches):
        levels = ["medium", "random"] if m % 2 == 0 else ["random", "medium"]
        game = play_match(levels, BABY, f"strength:{m}")
        if levels.index("medium") in game.winners:
            wins += 1
    assert wins >= matches - 1


def test_a_medium_decision_is_quick() -> None:
    timings: list[float] = []
    play_match(["medium", "medium", "medium"], BABY, "speed", timings=timings)
    assert timings and sum(timings) / len(timings) < 0.005  # 5 ms
