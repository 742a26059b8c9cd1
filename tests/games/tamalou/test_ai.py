"""AI players: fair play, reproducibility, legality, rebuild after restart, strength."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import arena
from tamalou.games.tamalou.ai import LEVELS, AIPlayer, make_player
from tamalou.games.tamalou.ai.memory import UNKNOWN
from tamalou.games.tamalou.engine import apply, legal_actions, new_game
from tamalou.games.tamalou.events import stream_for
from tamalou.games.tamalou.rules import PRESETS, TAMALOU, Rules
from tamalou.games.tamalou.state import Game
from tamalou.games.tamalou.views import view


def _no_at(a: A.Action) -> A.Action:
    return dataclasses.replace(a, at=0)


def drive(
    game: Game,
    players: list[AIPlayer],
    events: list[Any],
    seed: str,
    watch: int | None = None,
    trace: list[Any] | None = None,
    log: list[Any] | None = None,
    max_steps: int = 3_000,
) -> None:
    """Play the round like the arena does, checking every AI answer is legal.

    ``trace`` gets what seat ``watch`` observes (its events and views) and decides, in order.
    """
    clock = random.Random(f"{seed}:clock")
    n = len(players)

    def feed(evs: list[Any]) -> None:
        if log is not None:
            log.extend(evs)
        for p in players:
            p.observe(evs)
        if trace is not None and watch is not None:
            trace.extend(("event", e) for e in stream_for(evs, watch))

    def seen(seat: int, v: Any) -> None:
        if trace is not None and seat == watch:
            trace.append(("view", v.model_dump()))

    feed(events)
    now = 0
    for _ in range(max_steps):
        if game.round.phase == "over":
            return
        now += clock.randint(1_000, 3_000)
        feed(apply(game, A.Tick(now)))
        if game.round.phase == "over":
            return
        for s in range(n):
            v = view(game, s, now)
            seen(s, v)
            d = players[s].wants_double(v, now)
            if trace is not None and s == watch:
                trace.append(("double", d))
            if d is not None:
                assert _no_at(d) in [_no_at(a) for a in legal_actions(game, s)]
                feed(apply(game, d))
                if game.round.phase == "over":
                    return
        for s in range(n):
            legal = legal_actions(game, s)
            if not legal:
                continue
            v = view(game, s, now)
            seen(s, v)
            a = players[s].decide(v, legal, now)
            if trace is not None and s == watch:
                trace.append(("decide", a))
            if a is None:
                continue
            assert _no_at(a) in [_no_at(x) for x in legal], (a, legal)
            assert a.at == now
            feed(apply(game, a))
            if game.round.phase != "peek":
                break
    raise AssertionError("round did not end")


def table(
    levels: list[str], seed: str, rules: Rules = TAMALOU, **kw: Any
) -> tuple[Game, list[AIPlayer], list[Any]]:
    game, events = new_game(rules, len(levels), seed=seed, at=0, ai=[True] * len(levels))
    players = [make_player(lv, s, rules, f"{seed}:{s}", **kw) for s, lv in enumerate(levels)]
    return game, players, events


# -- fair play ----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", ["fair-1", "fair-2", "fair-3"])
def test_hidden_cards_change_nothing_until_seen(seed: str) -> None:
    """R-S2/R-T2: an AI decides from its own stream and view only.

    Two runs differ only in cards hidden from seat 0 (the opponent's slots 2 and 3 swapped
    with the two bottom cards of the pile). Seat 0 observes and decides exactly the same
    until the first moment it legitimately sees a difference.
    """
    traces: list[list[Any]] = []
    for variant in (False, True):
        game, players, events = table(["medium", "medium"], seed)
        if variant:
            r = game.round
            opp = r.seats[1].row
            opp[1], r.pile[0] = r.pile[0], opp[1]
            opp[2], r.pile[1] = r.pile[1], opp[2]
        trace: list[Any] = []
        drive(game, players, events, seed, watch=0, trace=trace)
        traces.append(trace)
    a, b = traces
    first_diff = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    # everything before the first difference is identical, and the first difference is
    # something seat 0 was shown (an event or its view), never one of its own decisions
    assert a[:first_diff] == b[:first_diff]
    if first_diff < min(len(a), len(b)):
        assert a[first_diff][0] in ("event", "view"), a[first_diff]
    decisions = [x for x in a[:first_diff] if x[0] == "decide" and x[1] is not None]
    assert len(decisions) >= 3


def test_ai_ignores_events_it_may_not_see() -> None:
    """A player fed the whole log (log-only and others' private events included) knows
    exactly what a player fed only its own stream (``stream_for``) knows."""
    game, players, events = table(["medium", "medium"], "filter")
    log: list[Any] = []
    drive(game, players, events, "filter", log=log)
    for seat in (0, 1):
        whole = make_player("medium", seat, TAMALOU, "x")
        own = make_player("medium", seat, TAMALOU, "x")
        whole.observe(log)
        own.observe(stream_for(log, seat))
        assert whole.memory.to_dict() == own.memory.to_dict()
        assert whole.memory.to_dict() == players[seat].memory.to_dict() | {
            "events_seen": whole.memory.events_seen
        }


def test_peek_phase_sends_peek() -> None:
    """R-S2: every AI looks at its peek slots when the round starts."""
    for level in LEVELS:
        game, players, events = table([level, level], f"peek-{level}")
        players[0].observe(events)
        legal = legal_actions(game, 0)
        a = players[0].decide(view(game, 0, 100), legal, 100)
        assert a == A.Peek(0, 100)


def test_peeked_cards_are_remembered() -> None:
    """R-S2: slots 1 and 4 are known after the peek, slots 2 and 3 are not."""
    game, players, events = table(["medium", "medium"], "mem")
    p = players[0]
    p.observe(events)
    p.observe(apply(game, A.Peek(0, 10)))
    row = p.memory.row(0)
    assert row[0] == game.round.seats[0].row[0]
    assert row[3] == game.round.seats[0].row[3]
    assert row[1] == row[2] == UNKNOWN


# -- reproducibility and restart ------------------------------------------------------------


def test_arena_is_reproducible_and_ignores_global_random() -> None:
    random.seed(1)
    first = arena.run(["medium", "easy"], 8, "repro")
    random.seed(2)
    second = arena.run(["medium", "easy"], 8, "repro")
    assert first.head_to_head == second.head_to_head
    for lv in ("medium", "easy"):
        assert first.stats[lv].win_samples == second.stats[lv].win_samples
        assert first.stats[lv].score == second.stats[lv].score


def test_rebuild_by_replaying_the_event_stream() -> None:
    """After a restart, a new player fed the same events in order knows and decides the same."""
    for level in ("easy", "medium", "hard"):
        seed = f"rebuild-{level}"
        game, players, events = table([level, "medium"], seed, max_iterations=30, budget_ms=None)
        log: list[Any] = list(events)
        players[0].observe(events)
        players[1].observe(events)
        now = 0
        clock = random.Random(seed)
        for _ in range(40):  # play a while, keeping the log
            now += clock.randint(1_000, 3_000)
            evs = apply(game, A.Tick(now))
            for s in (0, 1):
                legal = [a for a in legal_actions(game, s) if not isinstance(a, A.Double)]
                if legal and game.round.phase != "over":
                    act = players[s].decide(view(game, s, now), legal, now)
                    if act is not None:
                        evs += apply(game, act)
                        break
            log.extend(evs)
            players[0].observe(evs)
            players[1].observe(evs)
            if game.round.phase == "over":
                break
        fresh = make_player(level, 0, TAMALOU, f"{seed}:0", max_iterations=30, budget_ms=None)
        fresh.observe(log)
        assert fresh.memory.to_dict() == players[0].memory.to_dict()
        legal = legal_actions(game, 0)
        v = view(game, 0, now)
        assert fresh.decide(v, legal, now) == players[0].decide(v, legal, now)


def test_hard_is_deterministic_when_bounded_by_iterations() -> None:
    outcomes = []
    for _ in range(2):
        game, players, events = table(["hard", "medium"], "det", max_iterations=25, budget_ms=None)
        trace: list[Any] = []
        drive(game, players, events, "det", watch=0, trace=trace)
        outcomes.append([x for x in trace if x[0] in ("decide", "double")])
    assert outcomes[0] == outcomes[1]


# -- legality -----------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_only_plays_legal_actions(level: str) -> None:
    """Over many seeded rounds (2 to 4 seats), every answer is in legal_actions."""
    games = 6 if level == "hard" else 25
    for i in range(games):
        n = 2 + i % 3
        levels = [level, *["medium", "random", "easy"][: n - 1]]
        seed = f"legal-{level}-{i}"
        game, players, events = table(levels, seed, max_iterations=15, budget_ms=None)
        drive(game, players, events, seed)
        assert game.round.phase == "over"


@pytest.mark.parametrize("preset", sorted(set(PRESETS) - {"tamalou"}))
def test_every_level_plays_every_preset_legally(preset: str) -> None:
    """R-V1..R-V9: every level answers only with legal actions in every preset, and the
    rounds end (new powers, end-of-turn calls, windows, doubled powers included)."""
    rules = PRESETS[preset]
    for i, level in enumerate(LEVELS):
        n = min(2 + i % 3, rules.max_players)
        levels = [level, *["medium", "random", "easy"][: n - 1]]
        seed = f"legal-{preset}-{level}"
        game, players, events = table(levels, seed, rules, max_iterations=15, budget_ms=None)
        drive(game, players, events, seed)
        assert game.round.phase == "over"


# -- strength -----------------------------------------------------------------------------


def test_medium_clearly_beats_random() -> None:
    result = arena.run(["medium", "random"], 200, "ci")
    assert result.unfinished == 0
    assert result.head_to_head >= 0.9
    assert result.stats["medium"].turn1_calls / result.stats["medium"].seats <= 0.1


def test_medium_beats_easy() -> None:
    result = arena.run(["medium", "easy"], 200, "ci-easy")
    assert result.head_to_head >= 0.6


def test_medium_ends_its_turn_without_calling_on_a_high_row() -> None:
    """R-X6 (dutch): at the end-of-turn call a medium player with a high row ends its turn."""
    from tamalou.games.tamalou.rules import DUTCH
    from tamalou.games.tamalou.scripted import forced_game

    rows = [["9c", "9d", "8c", "8d"], ["7c", "7d", "6c", "6d"]]
    game = forced_game(rows, ["2h", "3h"], rules=DUTCH)
    player = make_player("medium", 0, DUTCH, "end-turn")
    apply(game, A.Draw(0, game.now))
    apply(game, A.Throw(0, game.now))
    assert game.round.stage == "call"
    decision = player.decide(view(game, 0), legal_actions(game, 0), game.now)
    assert isinstance(decision, A.EndTurn)
