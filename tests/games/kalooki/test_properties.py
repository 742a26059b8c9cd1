"""Seeded random matches with invariants after every action; determinism, replay, JSON."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable

import pytest

from tamalou.core.drivers import random_playout
from tamalou.games import kalooki as K
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki import codec
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.engine import _key, apply, legal_actions, new_game, next_deadline
from tamalou.games.kalooki.melds import check_set, points, run_low
from tamalou.games.kalooki.rules import BABY, KALOOKI, RUN, Rules, build_pack
from tamalou.games.kalooki.state import Game
from tamalou.games.kalooki.views import public_view, view

LAYS = ("lay_down", "lay_meld", "lay_off", "shift_joker")


def check_invariants(game: Game, events: list[E.Event]) -> None:
    """Every card once; every meld valid (K-M); K-M6 per owner; call limits (K-CL5);
    scores as K-P."""
    r = game.round
    decks, jokers = game.rules.pack(game.players)
    everywhere = [c for s in r.seats for c in s.hand]
    everywhere += [c for m in r.melds for c in m.cards] + r.pile + r.discard
    assert Counter(everywhere) == Counter(build_pack(decks, jokers))
    keys = set()
    for m in r.melds:
        if m.kind == RUN:
            assert run_low(m.cards) == m.low
        else:
            check_set(m.cards)
        key = (m.owner, *_key(m))
        assert key not in keys
        keys.add(key)
        assert game.round.seats[m.owner].laid_down
    assert all(s.calls <= game.rules.max_calls for s in r.seats)
    for e in events:
        if isinstance(e, E.RoundEnded):
            assert e.out is not None
            factor = 2 if e.doubled else 1
            expected = tuple(
                0.0 if i == e.out else float(sum(points(c) for c in h) * factor)
                for i, h in enumerate(e.hands)
            )
            assert e.scores == expected and e.hands[e.out] == ()
    hist = [sum(h.scores[i] for h in game.history) for i in range(game.players)]
    assert hist == game.cumulative


def random_match(
    rules: Rules,
    players: int,
    seed: str,
    rng: random.Random,
    check: Callable[[Game, list[E.Event]], None] | None = None,
    stir: bool = False,
    max_actions: int = 6_000,
) -> tuple[Game, list[A.Action], list[E.Event]]:
    """Random legal players who lay when they can; listed actions must never be refused."""
    game, log = new_game(rules, players, seed, 0)
    taken: list[A.Action] = []
    at = 0
    while not game.over and len(taken) < max_actions:
        if stir:
            random.seed(len(taken))  # the engine must ignore the global random
            random.random()
        at += rng.randint(100, 2_500)
        due = next_deadline(game)
        if due is not None and (due <= at or rng.random() < 0.01):
            action: A.Action = A.Tick(max(at, due))
            at = max(at, due)
        else:
            seat = rng.randrange(players) if rng.random() < 0.3 else game.round.current
            options = legal_actions(game, seat, at)
            if not options:
                continue
            lays = [a for a in options if a.kind in LAYS]
            action = rng.choice(lays or options)
        events = apply(game, action)  # a listed action is always accepted
        taken.append(action)
        log.extend(events)
        if check is not None:
            check(game, events)
    return game, taken, log


@pytest.mark.parametrize(
    ("players", "preset"), [(2, "baby"), (3, "baby"), (5, "classic4"), (8, "baby")]
)
def test_random_matches_keep_every_invariant(players: int, preset: str) -> None:
    rounds = 0
    for i in range(4):
        game, taken, _ = random_match(
            K.PRESETS[preset], players, f"inv:{preset}:{i}", random.Random(i), check_invariants
        )
        assert taken
        rounds += len(game.history)
    assert rounds > 0  # rounds did end, not only void deals


def test_medium_ai_matches_keep_every_invariant_and_finish() -> None:
    from tamalou.games.kalooki.arena import play_match

    for players, seed in ((3, "ai:1"), (4, "ai:2")):
        game = play_match(["medium"] * players, BABY, seed)
        assert game.over and len(game.history) == 3
        check_invariants(game, [])


def test_the_core_random_playout_runs_with_invariants() -> None:
    game, _ = new_game(KALOOKI, 4, "core", 0)
    applied = random_playout(
        K, game, 4, random.Random(3), max_actions=1_500, check=check_invariants
    )
    assert applied > 0


def test_determinism_ignores_the_global_random() -> None:
    a = random_match(BABY, 3, "det", random.Random(5), stir=True, max_actions=1_500)
    b = random_match(BABY, 3, "det", random.Random(5), stir=False, max_actions=1_500)
    assert a[1] == b[1] and a[2] == b[2]
    assert codec.game_to_dict(a[0]) == codec.game_to_dict(b[0])


def test_replay_from_seed_and_actions() -> None:
    game, taken, log = random_match(BABY, 4, "replay", random.Random(9), max_actions=2_000)
    again, replayed = new_game(BABY, 4, "replay", 0)
    for action in taken:
        replayed.extend(apply(again, codec.action_from_json(codec.action_to_json(action))))
    assert codec.game_to_dict(again) == codec.game_to_dict(game)
    assert replayed == log


def test_json_round_trip_of_actions_events_and_state() -> None:
    game, taken, log = random_match(BABY, 3, "json", random.Random(2), max_actions=800)
    for action in taken:
        data = json.loads(json.dumps(codec.action_to_dict(action)))
        assert codec.action_from_dict(data) == action
    for event in log:
        assert codec.event_from_dict(json.loads(json.dumps(codec.event_to_dict(event)))) == event
    text = codec.game_to_json(game)
    assert codec.game_to_json(codec.game_from_json(text)) == text
    restored = codec.game_from_json(text)
    assert view(restored, 1) == view(game, 1) and public_view(restored) == public_view(game)


def test_a_lay_down_action_round_trips_through_json() -> None:
    action = A.LayDown(1, ((3, (1, 2, 3)), (4, (5, 6, 7, 8))), 50)
    assert codec.action_from_json(codec.action_to_json(action)) == action
    with pytest.raises(ValueError):
        codec.action_from_dict({"kind": "lay_down", "player": "x", "melds": 3})


def test_private_events_reach_their_owner_only() -> None:
    _, _, log = random_match(BABY, 3, "audience", random.Random(4), max_actions=1_000)
    for seat in range(3):
        for e in K.stream_for(log, seat):
            if isinstance(e, E.DrawnCard | E.PenaltyCard | E.HandDealt):
                assert e.player == seat
            assert not isinstance(e, E.Dealt | E.ReshuffleOrder)
