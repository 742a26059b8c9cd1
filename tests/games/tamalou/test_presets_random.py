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
from tamalou.games.tamalou.views import view

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
        if e.reason == "void":  # cabo (R-V4): a wrong call: the caller 10, others 0; fines stand
            assert h.caller is not None
            base = [s - f for s, f in zip(h.scores, h.fines, strict=True)]
            assert [s for i, s in enumerate(base) if i != h.caller] == [0] * (players - 1)
            assert base[h.caller] == rules.scoring.failed_call_points
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
    assert len(PRESETS) == 11  # ten presets (R-V0..R-V9) and fontenay's «mi-partie»


@pytest.mark.parametrize("name", NAMES)
def test_changing_a_card_you_never_saw_changes_nothing_in_your_view(name: str) -> None:
    """STYLE 4, per preset: swap an opponent's card this seat was never told about with a pile
    card it never saw: its view (and its legal actions) stay exactly the same."""
    rules = PRESETS[name]
    game, events = new_game(rules, 3, f"blind:{name}", 0)
    inv = Invariants(game)
    inv.learn(game, events)
    rng = random.Random(name)
    checked = 0

    def step(g: Game, a: A.Action, ev: list[E.Event]) -> None:
        nonlocal checked
        inv.learn(g, ev)
        r = g.round
        if r.phase not in ("play", "final") or rng.random() > 0.2:
            return
        seat = rng.randrange(3)
        unseen_pile = [i for i, x in enumerate(r.pile) if x not in inv.seen[seat]]
        targets = [
            (t, i)
            for t, s in enumerate(r.seats)
            if t != seat
            for i, x in enumerate(s.row)
            if x is not None and x not in inv.seen[seat]
        ]
        if not unseen_pile or not targets:
            return
        copy = codec.game_from_json(codec.game_to_json(g))
        t, i = rng.choice(targets)
        j = rng.choice(unseen_pile)
        row = copy.round.seats[t].row
        row[i], copy.round.pile[j] = copy.round.pile[j], row[i]
        before = view(g, seat).model_dump()
        assert view(copy, seat).model_dump() == before
        checked += 1

    play_match(game, random.Random(f"blind{name}"), step)
    assert checked > 10


@pytest.mark.parametrize("name", NAMES)
def test_core_random_playout_runs_every_preset(name: str) -> None:
    """The game protocol's generic driver (any legal action of any seat) plays every preset;
    actions round-trip through JSON on the way."""
    from tamalou.core.drivers import random_playout
    from tamalou.games import tamalou as module

    state, _ = module.new_game(PRESETS[name], 3, f"core:{name}", 0)

    def check(st: Game, events: list[E.Event]) -> None:
        for seat in range(3):
            for a in module.legal_actions(st, seat)[:20]:
                assert module.action_from_dict(codec.action_to_dict(a)) == a

    applied = random_playout(module, state, 3, random.Random(name), max_actions=1_500, check=check)  # type: ignore[arg-type]
    assert applied > 0 and (module.match_over(state) or applied == 1_500)


@pytest.mark.parametrize("name", NAMES)
def test_every_listed_legal_action_is_accepted(name: str) -> None:
    """legal_actions lists only what apply accepts (a sample at random moments, on a copy),
    with doubling-heavy random players so windows, claims and doubled powers happen."""
    from tamalou.core.errors import IllegalAction
    from tamalou.games.tamalou.engine import apply, legal_actions

    rules = PRESETS[name]
    rng = random.Random(f"legal:{name}")
    tried = 0
    for k in range(3):
        game, _ = new_game(rules, 2 + k % 3 if rules.max_players > 3 else 2, f"legal:{name}:{k}", 0)

        def step(g: Game, a: A.Action, ev: list[E.Event]) -> None:
            nonlocal tried
            if rng.random() > 0.3:
                return
            for seat in range(g.players):
                options = legal_actions(g, seat)
                if not options:
                    continue
                choice = rng.choice(options)
                copy = codec.game_from_json(codec.game_to_json(g))
                try:
                    apply(copy, choice)
                except IllegalAction as exc:  # pragma: no cover - the failure message
                    raise AssertionError(f"listed but refused: {choice} ({exc.reason})") from exc
                tried += 1

        play_match(game, random.Random(f"{name}{k}"), step, double_rate=0.4)
    assert tried > 50
