"""Time (R-K): the turn clock, auto-play, short turns, away players; time as an input."""

from __future__ import annotations

from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import apply, next_deadline, step
from tamalou.games.tamalou.rules import TAMALOU
from tamalou.games.tamalou.views import public_view, view

from .helpers import T0, c, draw_throw, game_with, has, only, refused

ROWS = [["Ac", "2c", "3c", "4c"], ["5c", "6c", "7c", "8c"], ["5d", "6d", "7d", "8d"]]


def _tick(game) -> list[E.Event]:  # type: ignore[no-untyped-def]
    due = next_deadline(game)
    assert due is not None
    return apply(game, A.Tick(due))


def test_r_k1_a_turn_lasts_45_s_with_a_15_s_fuse() -> None:
    """R-K1: the turn deadline is 45 s after its start; the fuse setting is 15 s."""
    assert TAMALOU.turn_ms == 45_000 and TAMALOU.fuse_ms == 15_000
    game = game_with(ROWS)
    assert game.round.turn_deadline == T0 + 45_000
    pv = public_view(game)
    assert pv.turn_deadline == T0 + 45_000 and pv.deadline == T0 + 45_000
    assert has(apply(game, A.Draw(0, T0 + 44_999)), E.DrawnCard)  # still in time


def test_r_k1_deadline_must_be_applied_before_any_action() -> None:
    """R-K1 (ruling 1): once the deadline passed, apply refuses until a Tick applies it."""
    game = game_with(ROWS)
    err = refused(game, A.Draw(0, T0 + 45_000), "deadline_pending")
    assert err.detail == {"deadline": T0 + 45_000}
    refused(game, A.Double(1, 1, 0, T0 + 50_000), "deadline_pending")
    ev = step(game, A.Draw(1, T0 + 46_000))  # step = Tick, then the action
    assert only(ev, E.TimedOut).player == 0
    assert has(ev, E.DrawnCard)


def test_r_k1_an_action_stamped_in_the_past_counts_at_the_games_time() -> None:
    """R-K1 (ruling 1): actions apply in the order given; an earlier stamp counts as now."""
    game = game_with(ROWS, pile=["9h"])
    apply(game, A.Draw(0, T0 + 10_000))
    apply(game, A.Throw(0, T0 + 3_000))  # stamped earlier than the game's time
    assert game.now == T0 + 10_000
    assert game.round.turn_started == T0 + 10_000  # seat 1's turn starts at the game's time


def test_r_k2_timeout_at_the_start_draws_and_throws_without_power() -> None:
    """R-K2: not drawn yet: the bot draws from the pile and throws it; never a power or a call."""
    game = game_with([["Ac", "2c", "10c", "10d"], *ROWS[1:]], pile=["Kh"])
    ev = apply(game, A.Tick(T0 + 45_000))
    timed = only(ev, E.TimedOut)
    assert (timed.player, timed.auto, timed.away) == (0, "draw_throw", False)
    assert only(ev, E.Threw).card == c("Kh")
    assert not has(ev, E.PowerOffered) and not has(ev, E.Called)
    assert game.round.caller is None  # 3 points, but the clock never calls
    assert only(ev, E.TurnStarted).player == 1


def test_r_k2_timeout_holding_a_drawn_card_throws_it() -> None:
    """R-K2: holding a drawn card: it is thrown (a Queen gives no power)."""
    game = game_with(ROWS, pile=["Qh"])
    apply(game, A.Draw(0, T0))
    ev = apply(game, A.Tick(T0 + 45_000))
    assert only(ev, E.TimedOut).auto == "throw"
    assert only(ev, E.Threw).card == c("Qh")
    assert not has(ev, E.PowerOffered)
    assert public_view(game).discard_top == "Qh"


def test_r_k2_timeout_holding_a_card_from_the_discard_puts_it_back() -> None:
    """R-K2 (ruling 6): a card taken from the discard goes back on top, with a new number."""
    game = game_with(ROWS, discard=["9h"])
    apply(game, A.TakeDiscard(0, T0))
    ev = apply(game, A.Tick(T0 + 45_000))
    assert only(ev, E.TimedOut).auto == "return"
    threw = only(ev, E.Threw)
    assert threw.card == c("9h") and threw.seq == 2
    pv = public_view(game)
    assert pv.discard_top == "9h" and pv.discard_seq == 2 and pv.discard_doubleable
    assert game.round.seats[0].row == [c(x) for x in ROWS[0]]


def test_r_k2_timeout_choosing_a_power_passes() -> None:
    """R-K2: choosing a power: the bot passes (and a passed power is not transmitted)."""
    game = game_with(ROWS, pile=["Kh"])
    apply(game, A.Draw(0, T0))
    apply(game, A.Throw(0, T0))
    ev = apply(game, A.Tick(T0 + 45_000))
    assert only(ev, E.TimedOut).auto == "pass"
    assert not has(ev, E.Threw) and not has(ev, E.Looked)
    assert only(ev, E.TurnStarted).transmitted is None


def test_r_k3_after_a_timeout_turns_are_short_until_you_act() -> None:
    """R-K3: a player whose turn ran out gets 15 s turns until they act again."""
    game = game_with(ROWS, pile=["9h", "9s", "9d", "9c"])
    _tick(game)  # seat 0 times out
    assert public_view(game).seats[0].short
    draw_throw(game)
    ev = draw_throw(game)
    started = only(ev, E.TurnStarted)
    assert started.player == 0 and started.short
    assert started.deadline == game.now + 15_000
    draw_throw(game)  # seat 0 acts: back to normal turns
    assert not public_view(game).seats[0].short
    draw_throw(game)
    ev = draw_throw(game)
    assert not only(ev, E.TurnStarted).short


def test_r_k3_a_player_who_drew_then_let_the_clock_finish_keeps_full_turns() -> None:
    """R-K3 (issue 9): drew, then the clock threw the card: the turn was played, not let pass."""
    game = game_with(ROWS, pile=["9h", "9s", "9d", "9c"])
    apply(game, A.Draw(0, T0 + 10))
    ev = _tick(game)
    assert only(ev, E.TimedOut).auto == "throw"
    assert not game.round.seats[0].short and not public_view(game).seats[0].short
    draw_throw(game)
    ev = draw_throw(game)
    started = only(ev, E.TurnStarted)
    assert started.player == 0 and not started.short
    assert started.deadline == game.now + 45_000


def test_r_k3_a_player_who_took_the_discard_then_timed_out_keeps_full_turns() -> None:
    """R-K3 (issue 9): took the discard, then the clock put it back: not a short turn."""
    game = game_with(ROWS, pile=["9h", "9s", "9d", "9c"], discard=["2h"])
    apply(game, A.TakeDiscard(0, T0 + 10))
    assert only(_tick(game), E.TimedOut).auto == "return"
    assert not game.round.seats[0].short


def test_r_k3_any_accepted_action_clears_short_turns() -> None:
    """R-K3 (ruling 12): any accepted action, a double included, clears short turns."""
    g = game_with([["5s", "2c", "3c", "4c"], *ROWS[1:]], discard=["9h"], pile=["5h"])
    apply(g, A.Tick(T0 + 45_000))  # seat 0 times out: the 5 of hearts is thrown
    assert g.round.seats[0].short
    refused(g, A.Draw(0, T0 + 45_001), "not_your_turn")  # a refusal clears nothing
    assert g.round.seats[0].short
    apply(g, A.Double(0, 1, g.round.discard_seqs[-1], T0 + 45_001))
    assert not g.round.seats[0].short and g.round.seats[0].timeouts == 0


def test_r_k4_two_timeouts_in_a_row_make_you_away() -> None:
    """R-K4: the clock played 2 turns in a row: away until you act."""
    game = game_with(ROWS)
    ev = _tick(game)  # seat 0
    assert not only(ev, E.TimedOut).away
    draw_throw(game)  # seat 1
    draw_throw(game)  # seat 2
    ev = _tick(game)  # seat 0 again
    assert only(ev, E.TimedOut).away
    assert public_view(game).seats[0].away
    apply(game, A.Draw(1, game.now))  # seat 1 acting does not change seat 0
    assert public_view(game).seats[0].away


def test_r_k4_every_player_but_one_away_ends_the_round() -> None:
    """R-K4: when every player but one is away, the round ends and is scored."""
    game = game_with(ROWS)
    _tick(game)  # seat 0
    _tick(game)  # seat 1
    draw_throw(game)  # seat 2 plays
    _tick(game)  # seat 0 away
    ev = _tick(game)  # seat 1 away: only seat 2 is left
    ended = only(ev, E.RoundEnded)
    assert ended.reason == "away"
    assert ended.scores == ended.totals  # no caller: everyone scores their total (R-M2)


def test_r_k4_with_ai_players_every_human_away_ends_the_round() -> None:
    """R-K4: with AI players at the table, the round ends when every human is away."""
    game = game_with(ROWS, ai=[False, True, True])
    _tick(game)  # seat 0 (human)
    draw_throw(game)
    draw_throw(game)
    ev = _tick(game)
    assert only(ev, E.RoundEnded).reason == "away"


def test_r_k4_r_x16_ruling_every_human_gone_ends_the_match_ranked_by_score() -> None:
    """R-K4 and a ruling (docs/rules.md, R-X16): the only human lets two turns run out
    (away: gone); R-K4 ends the round and scores it, and the match ends with it, the seats
    ranked by their score, rather than the AI players playing on for nobody (the table used
    to close with no result)."""
    game = game_with(ROWS, ai=[False, True, True])
    game.cumulative = [30.0, 50.0, 20.0]
    _tick(game)  # seat 0 (human)
    draw_throw(game)
    draw_throw(game)
    ended = only(_tick(game), E.RoundEnded)
    assert ended.reason == "away" and ended.match_over and game.over
    assert ended.cumulative == tuple(a + b for a, b in zip((30, 50, 20), ended.scores, strict=True))
    best = min(ended.cumulative)
    assert ended.winners == tuple(i for i, v in enumerate(ended.cumulative) if v == best)
    assert next_deadline(game) is None


def test_r_k4_ruling_a_match_plays_on_while_one_human_is_still_here() -> None:
    """The ruling needs every human gone: one human away, another still playing, the round
    goes on (R-K4) and no match ends."""
    game = game_with(ROWS, ai=[False, False, True])
    game.cumulative = [30.0, 50.0, 20.0]
    _tick(game)
    draw_throw(game)
    draw_throw(game)
    ev = _tick(game)  # seat 0 away, seat 1 still here
    assert game.round.seats[0].away and not has(ev, E.RoundEnded) and not game.over


def test_r_k4_a_table_of_ai_players_only_is_not_away() -> None:
    """R-K4 (fix): a table of AI players only has no human to be away; play goes on."""
    game = game_with(ROWS, pile=["9h", "9s"], ai=[True, True, True])
    ev = draw_throw(game)
    assert not has(ev, E.RoundEnded) and only(ev, E.TurnStarted).player == 1
    assert game.round.phase == "play"


def test_r_k4_away_carries_over_and_the_next_round_waits() -> None:
    """R-K4 (ruling 10): away stays into the next round; with nobody left, it waits for NextRound."""
    game = game_with(ROWS)
    for _ in range(6):  # everybody times out twice
        _tick(game)
        if game.round.phase == "over":
            break
    assert game.round.end_reason == "away"
    assert game.next_round_deadline is None and next_deadline(game) is None
    assert public_view(game).deadline is None
    ev = apply(game, A.NextRound(2, game.now + 10**6))
    assert only(ev, E.RoundStarted).round_no == 2
    away = [s.away for s in game.round.seats]
    assert away == [True, True, False]  # seat 2 acted (NextRound): not away any more


def test_r_k4_away_player_comes_back_by_acting() -> None:
    """R-K4 (ruling 12): an away player is back as soon as they act (a double included)."""
    game = game_with(ROWS, ai=[False, False, True])
    _tick(game)
    draw_throw(game)
    draw_throw(game)
    _tick(game)  # seat 0 away (seat 1 is still here)
    assert game.round.seats[0].away
    apply(game, A.Double(0, 1, game.round.discard_seqs[-1], game.now))  # a miss, still an act
    assert not game.round.seats[0].away and game.round.seats[0].timeouts == 0


def test_r_k_timed_views_follow_at() -> None:
    """R-K (time as an input): a view at a later ``at`` shows the clock's state then."""
    game = game_with(ROWS, pile=["Kh"])
    draw = apply(game, A.Draw(0, T0))
    assert has(draw, E.DrawnCard)
    apply(game, A.Throw(0, T0))
    apply(game, A.Look(0, 0, 1, T0 + 500))
    assert view(game, 0, T0 + 2_499).row[0].card == "Ac"
    assert view(game, 0, T0 + 2_500).row[0].card is None


def test_r_k1_the_fuse_burns_in_the_last_15_seconds_of_a_turn() -> None:
    """R-K1: a 45 s turn; in its last 15 s the public view shows the fuse."""
    game = game_with([["Ac", "2c", "3c", "4c"], ["5c", "6c", "7c", "8c"]], pile=["9h"])
    deadline = game.round.turn_deadline
    assert public_view(game, deadline - 15_001).fuse is False
    assert public_view(game, deadline - 15_000).fuse is True
    assert public_view(game, deadline - 1).fuse_at == deadline - TAMALOU.fuse_ms
