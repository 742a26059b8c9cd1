"""R-V1..R-V9: seeded random matches of every preset keep the default game's invariants.

Every card once, each event to its audience only, no view shows a card its player was not
told about (from that player's own stream) or a card that is no longer there, every round
ends, the match ends, scores follow the preset; determinism and replay from the log.
"""

from __future__ import annotations

import random

import pytest

from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import codec
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import new_game
from tamalou.games.tamalou.rules import PRESETS
from tamalou.games.tamalou.scoring import round_scores
from tamalou.games.tamalou.state import Game

from .preset_play import Invariants, fold, play_match

NAMES = sorted(PRESETS)


def test_every_preset_is_played() -> None:
    """R-V: Rules.unsupported() is empty for every preset: new games accept them all."""
    for name, rules in PRESETS.items():
        assert rules.unsupported() == [], name


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_random_match_keeps_every_invariant(name: str, players: int) -> None:
    rules = PRESETS[name]
    players = min(players, rules.max_players)
    for k in range(2):
        _check_one_match(name, players, k)


def _check_one_match(name: str, players: int, k: int) -> None:
    rules = PRESETS[name]
    game, events = new_game(rules, players, f"preset:{name}:{players}:{k}", 0)
    inv = Invariants(game)
    inv.learn(game, events)
    inv.check(game)
    rounds: list[E.RoundEnded] = []

    def step(g: Game, a: A.Action, ev: list[E.Event]) -> None:
        inv.learn(g, ev)
        inv.check(g)
        rounds.extend(e for e in ev if isinstance(e, E.RoundEnded))

    play_match(game, random.Random(f"{name}{players}{k}"), step)
    assert game.over and rounds and rounds[-1].match_over
    assert inv.views_checked > 0
    for e, h in zip(rounds, game.history, strict=True):
        assert list(e.scores) == h.scores and list(e.totals) == h.totals
        if e.reason == "void":  # cabo (R-V4): a wrong call: the caller 10, others 0
            assert h.caller is not None
            assert [s for i, s in enumerate(h.scores) if i != h.caller] == [0] * (players - 1)
            assert h.scores[h.caller] == rules.scoring.failed_call_points
            continue
        expected = round_scores(
            rules.scoring,
            h.totals,
            h.caller,
            [0] * players,
            contre=h.contre,
            automatic=h.automatic_call,
            fines=h.fines,
            emptied_by=h.emptied_by_own_double,
            active=h.active,
        )
        assert h.scores == expected, (name, h)


@pytest.mark.parametrize("name", NAMES)
def test_replay_and_determinism(name: str) -> None:
    """Same seed + same actions = same game; the state survives JSON at the end."""
    rules = PRESETS[name]
    game, _ = new_game(rules, 3, f"replay:{name}", 0)
    rng_state = random.Random(5)
    log = play_match(game, rng_state)
    random.seed(12345)  # the engine ignores the global generator
    copy, _ = fold(rules, 3, f"replay:{name}", log)
    assert codec.game_to_dict(copy) == codec.game_to_dict(game)
    again = codec.game_from_json(codec.game_to_json(game))
    assert codec.game_to_dict(again) == codec.game_to_dict(game)


def test_r_v_ruling_1_aliases_name_the_same_presets() -> None:
    from tamalou.games.tamalou.rules import preset

    assert preset("dune") is PRESETS["swiss"] and preset("braguet") is PRESETS["classique"]
    assert preset("cabo") is PRESETS["cabo"]
    with pytest.raises(KeyError, match="known"):
        preset("poker")


def test_r_v_the_default_preset_uses_no_house_mechanic() -> None:
    """R-V: the default game is unchanged: no R-X mechanic, and the default powers."""
    assert PRESETS["tamalou"].mechanics() == set()
    assert len(PRESETS) == 10
