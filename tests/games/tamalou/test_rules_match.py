"""Match to 100 (R-M): rounds chained, round scores, end of match, first player, settings."""

from __future__ import annotations

import random

from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import apply, legal_actions, new_game, next_deadline
from tamalou.games.tamalou.rules import TAMALOU, Rules, Scoring
from tamalou.games.tamalou.scoring import round_scores
from tamalou.games.tamalou.state import Game
from tamalou.games.tamalou.views import public_view

from .helpers import (
    T0,
    draw_throw,
    force_deal,
    game_with,
    only,
    play_random_round,
    refused,
    skip_peek,
)

LOW = ["Ac", "2c", "10c", "10d"]  # 3
LOWER = ["Ad", "10h", "10s", "Ah"]  # 2
HIGH = ["5c", "6c", "7c", "8c"]  # 26
HIGH2 = ["5d", "6d", "7d", "8d"]  # 26


def _tick(game: Game) -> list[E.Event]:
    due = next_deadline(game)
    assert due is not None
    return apply(game, A.Tick(due))


def _finish_called(game: Game) -> E.RoundEnded:
    """The current player calls; everybody plays a last draw-and-throw; the window closes."""
    called = only(apply(game, A.CallTamalou(game.round.current, game.now)), E.Called)
    assert called.right
    for _ in range(game.players):
        if game.round.phase == "play":
            draw_throw(game)
    ended: E.RoundEnded = only(_tick(game), E.RoundEnded)
    return ended


def test_r_m1_rounds_follow_each_other_and_scores_add_up() -> None:
    """R-M1: after a round, the next one is dealt (60 s later, or on NextRound); scores add."""
    game = game_with([LOW, HIGH])
    ended = _finish_called(game)
    assert ended.scores == (0, 26) and ended.cumulative == (0, 26)
    assert next_deadline(game) == game.now + 60_000
    assert legal_actions(game, 1)[0].kind == "next_round"
    ev = _tick(game)
    started = only(ev, E.RoundStarted)
    assert started.round_no == 2 and game.round.round_no == 2
    assert only(ev, E.Dealt).seed == "scripted:2"
    force_deal(game, [LOWER, HIGH])
    skip_peek(game)
    assert game.round.current == 0  # R-M4: the winner of round 1 starts
    ended = _finish_called(game)
    assert ended.round_no == 2 and ended.cumulative == (0, 52)
    assert [h.round_no for h in game.history] == [1, 2]
    assert public_view(game).seats[1].score == 52


def test_r_m1_next_round_on_request() -> None:
    """R-M1: any seated player may start the next round before the 60 s."""
    game = game_with([LOW, HIGH])
    _finish_called(game)
    ev = apply(game, A.NextRound(1, game.now + 5))
    assert only(ev, E.RoundStarted).round_no == 2
    refused(game, A.NextRound(0, game.now), "round_not_over")


def test_r_m2_caller_lowest_scores_zero_others_their_total() -> None:
    """R-M2: nobody strictly lower than the caller: the caller scores 0; others their total."""
    game = game_with([LOW, HIGH, HIGH2])
    ended = _finish_called(game)
    assert ended.totals == (3, 26, 26) and ended.scores == (0, 26, 26)


def test_r_m2_caller_beaten_scores_their_total() -> None:
    """R-M2: someone strictly lower: the caller scores their total; the lower one 0."""
    game = game_with([LOW, LOWER, HIGH])
    ended = _finish_called(game)
    assert ended.totals == (3, 2, 26) and ended.scores == (3, 0, 26)


def test_r_m2_others_at_or_below_the_caller_score_zero() -> None:
    """R-M2: a player whose total equals the caller's scores 0, and the caller 0 too (a tie)."""
    game = game_with([LOW, ["Ah", "2h", "10h", "10s"], HIGH])
    ended = _finish_called(game)
    assert ended.totals == (3, 3, 26) and ended.scores == (0, 0, 26)


def test_r_m2_no_caller_everyone_scores_their_total() -> None:
    """R-M2: a round with no caller (a timeout or a double ended it): everyone their total."""
    game = game_with([LOW, HIGH])
    _tick(game)
    draw_throw(game)
    ended = only(_tick(game), E.RoundEnded)
    assert ended.reason == "away" and ended.caller is None
    assert ended.scores == ended.totals == (3, 26)


def test_r_m2_round_scores_function() -> None:
    """R-M2: the scoring function on its own (a failed call counts 0 by default, R-M5)."""
    s = Scoring()
    assert round_scores(s, [3, 26, 3], 0, [0, 0, 0]) == [0, 26, 0]
    assert round_scores(s, [4, 2, 9], 0, [0, 0, 0]) == [4, 0, 9]
    assert round_scores(s, [4, 2, 9], None, [0, 1, 0]) == [4, 2, 9]
    assert round_scores(s, [0, 7], None, [0, 0]) == [0, 7]


def test_r_m3_match_ends_when_someone_exceeds_the_target() -> None:
    """R-M3: the round in which someone's cumulative score exceeds the target ends the match."""
    rules = Rules(target=25)
    game = game_with([LOW, HIGH, ["Ah", "2h", "10h", "10s"]], rules=rules)
    ended = _finish_called(game)
    assert ended.match_over and ended.winners == (0, 2)  # ties share the place
    assert game.over and game.winners == [0, 2]
    assert next_deadline(game) is None
    assert legal_actions(game, 0) == []
    refused(game, A.NextRound(0, game.now + 1), "match_over")
    pv = public_view(game)
    assert pv.match_over and pv.winners == [0, 2] and pv.last_round is not None


def test_r_m3_exactly_the_target_does_not_end_the_match() -> None:
    """R-M3: "exceeds": reaching exactly the target does not end the match."""
    game = game_with([LOW, HIGH], rules=Rules(target=26))
    ended = _finish_called(game)
    assert ended.cumulative == (0, 26) and not ended.match_over and not game.over


def test_r_m4_the_round_winner_plays_first_next_round() -> None:
    """R-M4: the winner of a round (first place, R-E3) plays first in the next."""
    game = game_with([LOW, LOWER], first=0)
    ended = _finish_called(game)
    assert ended.places == (2, 1)
    started = only(_tick(game), E.RoundStarted)
    assert started.first_player == 1 and game.round.first_player == 1
    skip_peek(game)
    assert game.round.current == 1


def test_r_m4_shared_first_place_goes_round_from_the_last_first_player() -> None:
    """R-M4 (ruling 11): tied winners: the first of them in seat order from the last first player."""
    game = game_with([["2c", "3c", "4c", "5h"], HIGH, ["2d", "3d", "4d", "5d"]], first=1)
    while game.round.phase != "over":
        _tick(game)  # everybody times out: the rows never change
    last = game.history[-1]
    assert last.reason == "away" and last.places == [1, 3, 1]
    ev = apply(game, A.NextRound(0, game.now + 1))  # everybody away: it waits for a player
    assert only(ev, E.RoundStarted).first_player == 2  # seat order from 1: 1, 2, 0


def test_r_m5_target_and_failed_call_points_are_settings() -> None:
    """R-M5: target (100) and the failed-call penalty (0) are table settings."""
    assert TAMALOU.target == 100 and TAMALOU.scoring.failed_call_points == 0
    rules = Rules(scoring=Scoring(failed_call_points=10))
    game = game_with([HIGH, LOW], pile=["9h", "9s"], rules=rules)
    assert not only(apply(game, A.CallTamalou(0, T0)), E.Called).right  # a 9 penalty card
    ended = _finish_called(game)  # seat 1 calls right
    assert ended.totals == (35, 3)
    assert ended.scores == (45, 0)


def test_r_m5_failed_call_counts_nothing_by_default() -> None:
    """R-M5: with the default setting a failed call adds no points (only its penalty card)."""
    game = game_with([HIGH, LOW], pile=["9h", "9s"])
    apply(game, A.CallTamalou(0, T0))
    ended = _finish_called(game)
    assert ended.scores == (35, 0)


def _play_match(seed: int, rules: Rules, players: int) -> Game:
    rng = random.Random(seed)
    game, _ = new_game(rules, players, f"match:{seed}")
    for _ in range(60):
        r = game.round
        play_random_round(game, rng)
        result = game.history[-1]
        failed = [s.failed_calls for s in r.seats]
        # R-M2 (and R-M5): recompute the round's scores from its totals
        assert result.scores == round_scores(rules.scoring, result.totals, result.caller, failed)
        cumulative = [sum(h.scores[i] for h in game.history) for i in range(players)]
        assert game.cumulative == cumulative
        if game.over:
            assert max(cumulative) > rules.target  # R-M3
            assert game.winners == [i for i, x in enumerate(cumulative) if x == min(cumulative)]
            return game
        assert max(cumulative) <= rules.target
        due = next_deadline(game)
        if due is None:  # everybody away: a player asks for the next round
            apply(game, A.NextRound(0, game.now))
        else:
            apply(game, A.Tick(due))
        winners = [i for i, p in enumerate(result.places) if p == 1]
        order = [(result.first_player + k) % players for k in range(players)]
        assert game.round.first_player == next(i for i in order if i in winners)  # R-M4
    raise AssertionError("the match did not end")


def test_r_m_random_matches_to_100() -> None:
    """R-M1..R-M5: random matches to 100 end, with R-M2 scores and R-M4 first players."""
    rounds = 0
    for seed in range(6):
        game = _play_match(seed, TAMALOU, 2 + seed % 4)
        rounds += len(game.history)
    assert rounds >= 12


def test_r_m5_random_match_with_a_failed_call_penalty() -> None:
    """R-M5: the failed-call points add up in random matches too."""
    rules = Rules(scoring=Scoring(failed_call_points=7), target=60)
    for seed in range(3):
        _play_match(100 + seed, rules, 3)
