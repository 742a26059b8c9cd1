"""K-K: the turn clock, the call window, auto-play and away players."""

from __future__ import annotations

import pytest

from tamalou.core.errors import IllegalAction
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.engine import (
    abandoned,
    display_moments,
    legal_actions,
    next_deadline,
)
from tamalou.games.kalooki.views import public_view

from .helpers import card, cs, forced_game, kinds, play


def _natural(g: object, seat: int) -> int:
    hand = g.round.seats[seat].hand  # type: ignore[attr-defined]
    return next(c for c in hand if c % 54 < 52)


HANDS = [["2c", "Kd", "4h"], ["5c", "6d", "7h"], ["8c", "9d", "10h"]]


def test_k_k1_ninety_seconds_from_when_the_player_may_draw_fuse_in_the_last_fifteen() -> None:
    g = forced_game(HANDS, pile=["Ah"], discard=["7s"], first=0)
    r = g.round
    assert r.draw_at == 3_000 and r.turn_deadline == 93_000 and next_deadline(g) == 93_000
    assert 78_000 in display_moments(g) and 3_000 in display_moments(g)
    assert not public_view(g, 77_999).fuse and public_view(g, 78_000).fuse


def test_k_k2_the_call_window_holds_the_draw_for_three_seconds() -> None:
    g = forced_game(HANDS, pile=["Ah"], discard=["7s"], first=0)
    assert legal_actions(g, 0, 2_999) == []
    with pytest.raises(IllegalAction, match="call_window"):
        play(g, A.Draw(0, 2_999))
    play(g, A.Call(1, at=5_000))  # calls stay open after the window, until the draw
    assert g.round.pending_call == 1


def test_k_k2_no_window_when_nobody_may_call() -> None:
    g = forced_game(HANDS[:2], pile=["Ah"], discard=["7s"], first=0)
    assert g.round.draw_at == 0
    play(g, A.Draw(0, 0))


def test_k_k3_timeout_draws_and_discards_the_card_drawn() -> None:
    g = forced_game(HANDS, pile=["Qh"], discard=["7s"], first=0)
    events = play(g, A.Tick(93_000))
    assert kinds(events) == ["drew", "drawn_card", "timed_out", "discarded", "turn_started"]
    assert g.round.discard[-1] == card("Qh") and g.round.current == 1
    assert card("7s") not in g.round.seats[0].hand  # never takes the discard


def test_k_k3_timeout_with_a_joker_drawn_discards_the_highest_point_card() -> None:
    g = forced_game(HANDS, pile=["JK"], discard=["7s"], first=0)
    play(g, A.Tick(93_000))
    assert g.round.discard[-1] == card("Kd")


def test_k_k3_timeout_allows_a_pending_call() -> None:
    g = forced_game(HANDS, pile=["Qh", "Qs"], discard=["7s"], first=0)
    play(g, A.Call(1, at=100))  # seat 2 dealt, so discarded the up-card
    events = play(g, A.Tick(93_000))
    assert kinds(events)[:2] == ["call_allowed", "penalty_card"]
    assert card("7s") in g.round.seats[1].hand


def test_k_k3_an_all_joker_hand_ends_the_turn() -> None:
    g = forced_game([["JK"], ["5c"], ["8c"]], pile=["JK@1"], discard=["7s"], first=0)
    events = play(g, A.Tick(93_000))
    assert "turn_ended" in kinds(events) and g.round.seats[0].hand == cs("JK", "JK@1")


def test_k_k4_short_turns_then_away_then_auto_played_after_the_window() -> None:
    g = forced_game(HANDS, pile=["Qh", "Qs", "Qd", "Qc", "Jh", "Js", "Jd"], discard=["7s"], first=0)
    events = play(g, A.Tick(93_000))
    timed = next(e for e in events if isinstance(e, E.TimedOut))
    assert not timed.away and g.round.seats[0].short
    # seats 1 and 2 play normally
    for seat in (1, 2):
        at = g.round.draw_at
        play(g, A.Draw(seat, at))
        play(g, A.Discard(seat, _natural(g, seat), at))
    r = g.round
    assert r.current == 0 and r.turn_deadline == r.draw_at + 30_000  # K-K4: 30 s
    play(g, A.Tick(r.turn_deadline))
    assert g.round.seats[0].away
    for seat in (1, 2):
        at = g.round.draw_at
        play(g, A.Draw(seat, at))
        play(g, A.Discard(seat, _natural(g, seat), at))
    assert next_deadline(g) == g.round.draw_at  # away: played right after the window
    play(g, A.Tick(g.round.draw_at))
    assert g.round.current == 1
    # acting again clears it
    at = g.round.draw_at
    play(g, A.Draw(1, at))
    play(g, A.Discard(1, _natural(g, 1), at))
    assert g.round.seats[0].away and not abandoned(g)  # seat 1 and 2 are still here


def test_k_k4_every_human_away_abandons_the_match() -> None:
    g = forced_game(HANDS[:2], pile=["Ah"], discard=["7s"], first=0)
    for s in g.round.seats:
        s.away = True
    assert abandoned(g) and next_deadline(g) is None
    g = forced_game(HANDS[:2], pile=["Ah"], discard=["7s"], first=0, ai=[False, True])
    g.round.seats[0].away = True
    assert abandoned(g)


def test_k_k4_a_table_where_nobody_can_act_stops_the_clock() -> None:
    g = forced_game(HANDS[:2], pile=["Ah"], discard=["7s"], first=0, ai=[True, True])
    for s in g.round.seats:
        s.away = True
    assert abandoned(g) and next_deadline(g) is None
    assert play(g, A.Tick(10_000_000)) == []  # no endless auto-play of void rounds
