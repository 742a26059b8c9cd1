"""The game protocol's ``contested``, for every registered game: a move it lets through
without the reorder window is never one that another seat could race at that moment."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tamalou.core.drivers import random_playout
from tamalou.core.protocol import always_contested
from tamalou.games import game_ids, load

#: kinds another seat may still have when a move is not contested, because they never touch
#: it: a Tamalou peek is one's own (R-S5), and peeks are all the peek phase allows (R-S3)
INDEPENDENT = {"tamalou": {"peek"}}

CASES = [(g, p) for g in game_ids() for p in sorted(load(g).PRESETS)]


@pytest.mark.parametrize(("game_id", "preset"), CASES)
def test_an_uncontested_move_leaves_no_other_seat_anything_to_do(game_id: str, preset: str) -> None:
    """Along a random match: whenever ``contested`` answers False for a legal move, no
    other seat has a legal move at its time (but independent ones); and both answers occur,
    so the window is kept for some moves and skipped for others."""
    game = load(game_id)
    rules = game.PRESETS[preset]
    players = max(3, int(getattr(rules, "min_players", 2)))
    state, _ = game.new_game(rules, players, f"contested:{preset}", 0)
    answers = {True: 0, False: 0}
    free = INDEPENDENT.get(game_id, set())

    def check(st: Any, events: list[Any]) -> None:
        now = game.now(st)
        legal = {seat: game.legal_actions(st, seat, now) for seat in range(players)}
        for seat, actions in legal.items():
            for action in actions:
                answer = game.contested(st, action)
                answers[answer] += 1
                if answer:
                    continue
                for other, theirs in legal.items():
                    left = {a.kind for a in theirs} - free
                    assert other == seat or not left, (preset, action, other, left)

    random_playout(game, state, players, random.Random(11), max_actions=400, check=check)
    assert answers[True] and answers[False], answers


def test_the_safe_answer_keeps_the_window_for_every_move() -> None:
    game = load("tarot")
    state, _ = game.new_game(game.PRESETS[game.DEFAULT_PRESET], 4, "contested:safe", 0)
    dealt = [a for seat in range(4) for a in game.legal_actions(state, seat, 10)]
    assert dealt and all(always_contested(state, a) for a in dealt)
