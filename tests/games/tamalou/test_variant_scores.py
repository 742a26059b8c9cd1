"""House presets, scores and matches: R-X15 (score order), R-X16 (match ends), R-X17
(rotating deal) and each preset's scoring differences (R-V1..R-V9)."""

from __future__ import annotations

import pytest

from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import apply, legal_actions, new_game, next_deadline
from tamalou.games.tamalou.rules import (
    CABO,
    DUTCH,
    DUTCH_ROI,
    DUTCH_SEC,
    FONTENAY,
    FONTENAY_HALF,
    KOUBO,
    SWISS,
    TAMALOU,
    TAMOUL,
    Rules,
    preset,
)
from tamalou.games.tamalou.scoring import round_scores
from tamalou.games.tamalou.state import Game

from .helpers import force_deal, game_with, has, only

T0 = TAMALOU.peek_ms


# -- R-X15 round scores, preset by preset -----------------------------------------------------


def test_r_v1_dutch_all_score_their_total() -> None:
    """R-V1: all score their total (the caller's draws are in his total)."""
    assert round_scores(DUTCH.scoring, [3, 10, 2], 0, [0, 0, 0]) == [3, 10, 2]


def test_r_v1_dutch_caller_takes_a_pile_card_per_player_strictly_below() -> None:
    """R-V1: before scoring, the caller takes a pile card per player strictly below him."""
    rows = [["5c", "5d"], ["Ac"], ["2c"], ["9c", "9d"]]
    game = game_with(rows, pile=["3h", "4h", "Kh"], rules=DUTCH)
    apply(game, A.Draw(0, T0))
    apply(game, A.Throw(0, T0))
    apply(game, A.CallTamalou(0, T0))  # total 10; seats 1 and 2 are strictly below
    for p in (1, 2, 3):
        apply(game, A.Draw(p, T0 + p))
        apply(game, A.Throw(p, T0 + p))
        if game.round.stage == "power":
            apply(game, A.Pass(p, T0 + p))
    ev = apply(game, A.Tick(next_deadline(game) or 0))
    ended = only(ev, E.RoundEnded)
    draws = [e for e in ev if isinstance(e, E.PenaltyCard) and e.reason == "caller_draw"]
    assert len(draws) == 2 and len(ended.hands[0]) == 4
    assert ended.scores == ended.totals


def test_r_v2_koubo_caller_minus_3_if_strictly_lowest_else_20() -> None:
    assert round_scores(KOUBO.scoring, [2, 5, 7], 0, [0, 0, 0]) == [-3, 5, 7]
    assert round_scores(KOUBO.scoring, [5, 5, 7], 0, [0, 0, 0]) == [20, 5, 7]


def test_r_v3_r_x9_tamoul_caller_minus_20_and_the_contre() -> None:
    """R-V3: a caller nobody strictly beats scores −20; the contre-caller −20 if strictly
    below the caller, else total + 20."""
    s = TAMOUL.scoring
    assert round_scores(s, [4, 4, 9], 0, [0, 0, 0]) == [-20, 0, 9]
    assert round_scores(s, [4, 3, 9], 0, [0, 0, 0], contre=1) == [4, -20, 9]
    assert round_scores(s, [4, 6, 9], 0, [0, 0, 0], contre=1) == [-20, 26, 9]


def test_r_v4_cabo_scores() -> None:
    """R-V4: a beaten caller scores total + (total − lowest); none for an automatic caller; a
    negative caller adds |total| to each other and scores at least 0; fines last (R-X15)."""
    s = CABO.scoring
    assert round_scores(s, [5, 3, 9], 0, [0, 0, 0]) == [7, 0, 9]  # R-M2: 3 <= 5 scores 0
    assert round_scores(s, [5, 3, 9], 0, [0, 0, 0], automatic=True) == [5, 0, 9]
    assert round_scores(s, [-2, 3, 9], 0, [0, 0, 0]) == [0, 5, 11]
    assert round_scores(s, [-2, 3, 9], 0, [0, 0, 0], fines=[0, 2, 4]) == [0, 7, 15]


def test_r_v4_the_automatic_caller_field_decides_the_malus() -> None:
    """R-V4/R-X8: ``automatic_caller_no_malus`` decides whether a beaten automatic caller is
    spared the malus; a rules set without it gives the malus to every beaten caller."""
    spared = CABO.scoring
    strict = spared.model_copy(update={"automatic_caller_no_malus": False})
    assert round_scores(spared, [5, 3, 9], 0, [0, 0, 0], automatic=True) == [5, 0, 9]
    assert round_scores(strict, [5, 3, 9], 0, [0, 0, 0], automatic=True) == [7, 0, 9]
    assert round_scores(strict, [5, 3, 9], 0, [0, 0, 0]) == [7, 0, 9]


def test_r_v9_fontenay_half_is_a_preset() -> None:
    """R-V9: fontenay's «mi-partie» (50 / −25) is a preset like the others."""
    half = preset("fontenay_half")
    assert half.name == "fontenay_half" and half.target == 50 and half.win_at == -25
    assert half.model_copy(update={"name": "fontenay", "target": 100, "win_at": -50}) == FONTENAY
    game, _ = new_game(half, 3, "half")
    assert game.rules is half


def test_r_v6_r_v7_totals() -> None:
    assert round_scores(SWISS.scoring, [3, 1, 9], 0, [0, 0, 0]) == [3, 1, 9]
    assert round_scores(DUTCH_SEC.scoring, [3, 1, 9], 0, [0, 0, 0]) == [3, 1, 9]


def test_r_v9_fontenay_emptying_your_row_by_your_own_double_ends_the_round_at_minus_10() -> None:
    rows = [["Ac", "2c", "3c", "4c"], ["5c"], ["5d", "6d", "7d", "8d"]]
    game = game_with(rows, discard=["5h"], rules=FONTENAY)
    ev = apply(game, A.Double(1, 1, 1, T0))
    ended = only(ev, E.RoundEnded)
    assert ended.reason == "empty_row" and ended.scores == (10, -10, 26)


# -- R-X16 match ends -----------------------------------------------------------------------


def _end_round_now(game: Game, rows: list[list[str]]) -> E.RoundEnded:
    """Finish the current round at once: seat 1 doubles its only card (R-D8)."""
    r = game.round
    if r.phase == "over":
        apply(game, A.Tick(next_deadline(game) or 0))
    force_deal(game, rows, discard=["5h"])
    if game.round.phase == "peek":
        for p, seat in enumerate(game.round.seats):
            if not seat.out:
                apply(game, A.Peek(p, game.now))
        apply(game, A.Tick(game.now + game.rules.peek_ms))
    ev = apply(game, A.Double(1, 1, 1, game.now))
    return only(ev, E.RoundEnded)


def _fresh(rules: Rules, players: int = 3) -> Game:
    game, _ = new_game(rules, players, "match-end", 0)
    return game


def test_r_x16_koubo_ends_after_10_rounds_lowest_wins() -> None:
    """R-V2/R-X16: a match of 10 rounds, whatever the scores; lowest wins."""
    game = _fresh(KOUBO.model_copy(update={"ranks": TAMALOU.ranks}))
    game.cumulative = [300.0, 200.0, 250.0]
    for _ in range(9):
        assert not _end_round_now(game, [["9c"], ["5c"], ["9d"]]).match_over
    ended = _end_round_now(game, [["9c"], ["5c"], ["9d"]])
    assert len(game.history) == 10 and ended.match_over and ended.winners == (1,)


def test_r_x16_tamoul_exactly_100_falls_to_50() -> None:
    game = _fresh(TAMOUL)
    game.cumulative = [91.0, 0.0, 0.0]
    ended = _end_round_now(game, [["9c"], ["5c"], ["Ac"]])  # no caller: totals 9, 0, 1
    assert ended.scores == (9, 0, 1) and ended.cumulative == (50, 0, 1)
    assert not ended.match_over


def test_r_v3_ruling_tamoul_reaching_minus_100_wins_outright() -> None:
    """R-V3, R-X16 and a ruling (docs/rules.md): a right Tamoul scores -20, so R-M3 alone
    may never end a match; a seat reaching -100 wins it, the lowest winning."""
    assert TAMOUL.win_at == -100
    game = _fresh(TAMOUL)
    game.cumulative = [30.0, -99.0, 60.0]
    ended = _end_round_now(game, [["Ac"], ["5c"], ["9d"]])  # seat 1 empties its row: 0
    assert ended.cumulative == (31, -99, 69) and not ended.match_over
    game.cumulative = [30.0, -100.0, 60.0]
    ended = _end_round_now(game, [["Ac"], ["5c"], ["9d"]])
    assert ended.cumulative == (31, -100, 69) and ended.match_over and ended.winners == (1,)


def test_r_v3_ruling_two_player_tamoul_matches_between_good_callers_end() -> None:
    """R-V3 ruling: two medium players call right nearly every round (-20 each time) and
    their scores drift below 0, where R-M3 (over 100) never ends the match; with the ruling
    every seeded match ends, won by a seat at -100 or less. Failed before the ruling: no
    match ended within the arena's step cap."""
    from tamalou.games.tamalou import arena

    for i in range(3):
        stats = {"medium": arena.LevelStats()}
        out = arena.play_match(
            ["medium", "medium"],
            f"tamoul-ends:{i}",
            TAMOUL,
            stats,
            budget_ms=0,
            max_steps=20_000,
        )
        assert out is not None, f"match {i} did not end"
        _, game = out
        assert game.over and min(game.cumulative) <= -100
        assert all(game.cumulative[w] == min(game.cumulative) for w in game.winners)


def test_r_v6_ruling_swiss_ends_after_100_rounds_the_lowest_still_in_wins() -> None:
    """R-V6, R-X16 and a ruling (docs/rules.md): totals at 0 or below (jokers -5, red King 0)
    can keep the last ones in under 100 for ever; the match ends after round 100, the
    lowest of those still in winning."""
    assert SWISS.max_rounds == 100
    game = _fresh(SWISS)
    game.cumulative = [-40.0, 10.0, 60.0]
    for _ in range(99):  # every seat scores 0: red Kings, and seat 1 empties its row
        assert not _end_round_now(game, [["Kh"], ["5c"], ["Kd"]]).match_over
    ended = _end_round_now(game, [["Kh"], ["5c"], ["Kd"]])
    assert len(game.history) == 100 and ended.cumulative == (-40, 10, 60)
    assert ended.match_over and ended.winners == (0,)


def test_r_v6_ruling_a_swiss_match_whose_last_two_stay_under_0_ends() -> None:
    """R-V6 ruling: three seats, medium, medium and easy; easy is out at 100 and the two
    medium players' totals stay at 0 or below (-1.8 a round): the match went past 300
    rounds before the ruling (7 of 8 seeded matches); it ends at round 100, won by the
    lowest of those still in."""
    from tamalou.games.tamalou import arena

    levels = ["medium", "medium", "easy"]
    stats = {lv: arena.LevelStats() for lv in levels}
    out = arena.play_match(levels, "render:swiss", SWISS, stats, budget_ms=0, max_steps=20_000)
    assert out is not None, "the match did not end"
    _, game = out
    assert game.over and len(game.history) == 100 and game.out[2]
    assert game.winners == [min((0, 1), key=lambda s: game.cumulative[s])]


def test_r_m5_r_x16_a_tables_target_scales_the_values_tied_to_it() -> None:
    """R-M5, R-X16: a table's target scales the exact value's fall and the grand winner with
    it, as fontenay's «mi-partie» halves both (50 / -25)."""
    half = FONTENAY.with_target(50)
    assert (half.target, half.win_at) == (FONTENAY_HALF.target, FONTENAY_HALF.win_at)
    short = TAMOUL.with_target(30)
    assert (short.target, short.exact_target_falls_to, short.win_at) == (30, 15, -30)
    assert CABO.with_target(20).exact_target_falls_to == 0  # 50 falls to 0: 20 to 0
    assert TAMOUL.with_target(100) == TAMOUL and TAMALOU.with_target(150).win_at is None


def test_r_x16_tamoul_at_a_target_of_30_exactly_30_falls_to_15_and_plays_on() -> None:
    """R-V3, R-X16 at a table's target of 30 (R-M5): exactly 30 falls back to 15 and the
    match goes on. Kept at 50, the fall went up, over the target: the match ended and the
    seat that hit the target exactly lost it."""
    game = _fresh(TAMOUL.with_target(30))
    game.cumulative = [21.0, 0.0, 0.0]
    ended = _end_round_now(game, [["9c"], ["5c"], ["Ac"]])  # no caller: totals 9, 0, 1
    assert ended.cumulative == (15, 0, 1) and not ended.match_over


def _cabo_wrong_call(game: Game) -> E.RoundEnded:
    from tamalou.games.tamalou.scripted import redeal

    if game.round.phase == "over":
        apply(game, A.Tick(next_deadline(game) or 0))
    redeal(game, [["9c", "9d"], ["5c"], ["Ac"]])
    game.round.current = 0
    return only(apply(game, A.CallTamalou(0, game.now)), E.RoundEnded)


def test_r_x16_cabo_reaching_50_ends_and_exactly_50_falls_to_0() -> None:
    """R-V4/R-X16: reaching 50+ loses and ends the match, but exactly 50 falls to 0."""
    game = _fresh(CABO)
    game.cumulative = [40.0, 0.0, 20.0]
    ended = _cabo_wrong_call(game)  # a void round: the caller 10, others 0
    assert ended.scores == (10, 0, 0) and ended.cumulative == (0, 0, 20)
    assert not ended.match_over
    game.cumulative[0] = 45.0
    ended = _cabo_wrong_call(game)
    assert ended.cumulative == (55, 0, 20) and ended.match_over and ended.winners == (1,)


def test_r_x16_fontenay_reaching_minus_50_wins_outright() -> None:
    game = _fresh(FONTENAY)
    game.cumulative = [30.0, -45.0, 60.0]
    ended = _end_round_now(game, [["9c"], ["5c"], ["9d"]])
    assert ended.match_over and ended.winners == (1,)


def test_r_x16_elimination_out_at_100_the_last_one_in_wins() -> None:
    """R-X16 (dutch_sec): out at 100+, no cards, no turn, no score; the last one under 100
    wins."""
    game = _fresh(DUTCH_SEC)
    game.cumulative = [95.0, 0.0, 10.0]
    ended = _end_round_now(game, [["9c"], ["5c"], ["Ac"]])
    assert not ended.match_over and game.out == [True, False, False]
    assert has([], E.Eliminated) is False
    apply(game, A.Tick(next_deadline(game) or 0))
    r = game.round
    assert r.seats[0].out and r.seats[0].row == [] and r.first_player != 0
    game.cumulative[2] = 99.0
    ended = _end_round_now(game, [[], ["5c"], ["9d"]])
    assert ended.scores == (0, 0, 9) and ended.cumulative == (104, 0, 108)
    assert ended.match_over and ended.winners == (1,) and game.out == [True, False, True]


def test_r_x16_elimination_last_ones_crossing_together_the_lowest_wins() -> None:
    from tamalou.games.tamalou.scripted import redeal

    game = _fresh(DUTCH_SEC)
    game.cumulative = [95.0, 98.0, 93.0]
    redeal(game, [["9c"], ["5c", "6c"], ["10c"]])  # 9, 11, 10
    for p in range(3):
        apply(game, A.Peek(p, 0))
    apply(game, A.Tick(DUTCH_SEC.peek_ms))
    ev = apply(game, A.CallTamalou(game.round.current, game.now))  # ends at once (R-V7)
    ended = only(ev, E.RoundEnded)
    assert ended.cumulative == (104, 109, 103) and ended.match_over and ended.winners == (2,)


def test_r_x16_a_forced_deal_starts_mid_match_with_scores_and_eliminated_seats() -> None:
    """R-X16 (dutch_sec), straight from a forced deal: seat 0 already out, seat 2 at 99; seat
    2 crosses 100 this round and seat 1, the last one in, wins."""
    from tamalou.games.tamalou.scripted import forced_game

    game = forced_game(
        [[], ["5c"], ["9d"]],
        first=1,
        rules=DUTCH_SEC,
        scores=[104, 0, 99],
        out=[True, False, False],
    )
    r = game.round
    assert game.out == [True, False, False] and r.seats[0].out and r.current == 1
    assert [a for a in legal_actions(game, 0) if not isinstance(a, A.Tick)] == []
    ended = only(apply(game, A.CallTamalou(1, game.now)), E.RoundEnded)  # ends at once (R-V7)
    assert ended.scores == (0, 5, 9) and ended.cumulative == (104, 5, 108)
    assert ended.match_over and ended.winners == (1,) and game.out == [True, False, True]


def test_a_forced_deal_names_the_second_joker() -> None:
    """R-C1 with two jokers (cabo, R-V4): ``JK@1`` is the deck's second joker, a card apart
    from ``JK``; both are worth 0 and the pile keeps neither."""
    from tamalou.games.tamalou.scripted import card, forced_game

    assert card("JK") != card("JK@1")
    game = forced_game([["JK", "JK@1"], ["Kh", "5c"]], rules=CABO)
    rows = [s.row for s in game.round.seats]
    assert rows[0] == [card("JK"), card("JK@1")]
    assert card("JK") not in game.round.pile and card("JK@1") not in game.round.pile
    assert sum(CABO.compiled.value[c] for c in rows[0] if c is not None) == 0
    with pytest.raises(ValueError, match="twice"):
        forced_game([["JK@1"], ["JK@1"]], rules=CABO)


def test_r_v6_swiss_is_an_elimination_match() -> None:
    assert SWISS.match_end == "elimination" and SWISS.target == 100


# -- R-X17 rotating deal, R-V8 round winner --------------------------------------------------------


def test_r_x17_the_next_round_starts_with_the_seat_after_the_previous_starter() -> None:
    game = _fresh(TAMOUL)
    first = game.round.first_player
    _end_round_now(game, [["9c"], ["5c"], ["Ac"]])
    apply(game, A.Tick(next_deadline(game) or 0))
    assert game.round.first_player == (first + 1) % 3


def test_r_m4_default_still_starts_with_the_round_winner() -> None:
    game = _fresh(TAMALOU)
    game.round.first_player = game.round.current = 0
    _end_round_now(game, [["9c"], ["5c"], ["Ac"]])
    apply(game, A.Tick(next_deadline(game) or 0))
    assert game.round.first_player == 1  # seat 1 emptied its row: 0 points


def test_r_v8_dutch_roi_a_tie_goes_to_the_caller_else_the_tied_player_after_him() -> None:
    from tamalou.games.tamalou.engine.setup import _next_round  # the decision itself
    from tamalou.games.tamalou.state import RoundResult

    game = _fresh(DUTCH_ROI, 4)
    game.round.phase = "over"
    game.history = [RoundResult(1, "called", [[]] * 4, [5, 3, 9, 3], [2, 1, 4, 1], [0] * 4, 2, 0)]
    _next_round(game, game.now, [])
    assert game.round.first_player == 3  # tied 1 and 3: seat 3 is first after the caller 2
    game.round.phase = "over"
    game.history = [RoundResult(2, "called", [[]] * 4, [5, 3, 9, 3], [2, 1, 4, 1], [0] * 4, 1, 0)]
    _next_round(game, game.now, [])
    assert game.round.first_player == 1  # the caller is among the tied


# -- R-V1..R-V9 decks and values ---------------------------------------------------------------

VALUES = {
    # preset: (deck size, {card: value})
    "dutch": (54, {"JK": -1, "Kh": 0, "Ks": 15, "Qc": 10, "Jd": 10, "10c": 10}),
    "koubo": (34, {"JK": -1, "Ac": 1, "7c": 7, "10c": 10, "Jc": 2, "Qc": 3, "Kh": 0, "Ks": 11}),
    "tamoul": (52, {"Jc": 15, "Qs": 15, "Qh": 1, "Ks": 15, "Kd": 0.5, "10c": 10}),
    "cabo": (54, {"JK": 0, "Jc": 11, "Qc": 12, "Ks": 13, "Kh": -2, "10c": 10}),
    "classique": (52, {"10c": 0, "Jc": 10, "Kh": 10}),
    "swiss": (54, {"JK": -5, "Jc": 11, "Qc": 12, "Ks": 15, "Kh": 0}),
    "dutch_sec": (52, {"Jc": 11, "Qc": 12, "Ks": 20, "Kh": 0, "10c": 10}),
    "dutch_roi": (52, {"Jc": 11, "Qc": 12, "Ks": 13, "Kh": 0}),
    "fontenay": (54, {"JK": 0, "10c": 0, "Kh": 10}),
}


def test_r_v1_to_r_v9_decks_and_values() -> None:
    from tamalou.core import cards
    from tamalou.games.tamalou.rules import PRESETS

    for name, (size, values) in VALUES.items():
        rules = PRESETS[name]
        assert len(rules.compiled.deck) == size, name
        for code, value in values.items():
            assert rules.compiled.value[cards.from_code(code)] == value, (name, code)


POWERS = {
    "dutch": {"Jc": "look_any", "Qc": "swap_any", "Kc": None},
    "koubo": {"9c": "look_own", "10c": "look_opponent", "Jc": "blind_swap", "Qc": "look_then_swap"},
    "tamoul": {
        "7c": "look_own",
        "8c": "look_opponent",
        "9c": "blind_swap",
        "10c": "look_then_swap",
    },
    "cabo": {"7c": "look_own", "8c": "look_own", "9c": "look_opponent", "Qc": "blind_swap"},
    "classique": {"Jc": "replay", "Qc": "blind_swap", "Kc": "look_own"},
    "swiss": {"Jc": "swap_any", "Qc": "look_any", "Kc": None},
    "dutch_sec": {"7c": "blind_swap", "Jc": "look_own", "Qc": "look_opponent"},
    "dutch_roi": {"Jc": "swap_any", "Qc": "look_any", "Kh": "give_top", "Ks": None},
    "fontenay": {"Jc": "replay", "Qc": "blind_swap", "Kc": "look_own"},
}


def test_r_v1_to_r_v9_powers_by_rank_and_colour() -> None:
    """R-X5: powers by rank and colour, preset by preset."""
    from tamalou.core import cards
    from tamalou.games.tamalou.rules import PRESETS

    for name, powers in POWERS.items():
        compiled = PRESETS[name].compiled
        for code, power in powers.items():
            assert compiled.power[cards.from_code(code)] == power, (name, code)
    must = PRESETS["dutch_roi"].compiled.must
    assert must[cards.from_code("Jc")] and must[cards.from_code("Kh")]
    assert not must[cards.from_code("Qc")]


def test_r_x16_ruling_the_match_ends_once_every_human_is_out() -> None:
    """R-X16 and a ruling (docs/rules.md): swiss, seat 0 the only human, seats 1 and 2 AI
    players; seat 0 goes out: the match ends at once, the lowest AI seat winning, rather than
    the AI players playing on for nobody."""
    game, _ = new_game(SWISS, 3, "match-end", 0, [False, True, True])
    game.cumulative = [95.0, 40.0, 20.0]
    ended = _end_round_now(game, [["9c"], ["5c"], ["Ac"]])  # totals 9, 0, 1
    assert game.out == [True, False, False]
    assert ended.match_over and ended.winners == (2,) and game.over
    assert ended.cumulative == (104, 40, 21)


def test_r_x16_ruling_a_match_plays_on_while_a_human_is_in() -> None:
    """The ruling applies only once no human is in: an AI out and a human in plays on, and
    so does a match of AI players only (the arena's)."""
    game, _ = new_game(SWISS, 3, "match-end", 0, [True, False, True])
    game.cumulative = [95.0, 40.0, 20.0]
    ended = _end_round_now(game, [["9c"], ["5c"], ["Ac"]])
    assert game.out == [True, False, False] and not ended.match_over
    game, _ = new_game(SWISS, 3, "match-end", 0, [True, True, True])
    game.cumulative = [95.0, 40.0, 20.0]
    assert not _end_round_now(game, [["9c"], ["5c"], ["Ac"]]).match_over


def test_r_x16_r_k4_ruling_the_match_ends_once_every_human_is_out_or_gone() -> None:
    """R-X16, R-K4 and a ruling (docs/rules.md): swiss, seat 0 a human who goes out, seat 2
    a human who is away (the clock plays for them), seat 1 an AI player: no human is in
    play, so the match ends at once, the lowest of those still in winning. It used to play
    on, and then close with no result for the human who had played it out."""
    game, _ = new_game(SWISS, 3, "match-end", 0, [False, True, False])
    game.cumulative = [95.0, 40.0, 20.0]
    force_deal(game, [["9c"], ["5c"], ["Ac"]], discard=["5h"])
    for p in range(3):
        apply(game, A.Peek(p, game.now))
    apply(game, A.Tick(game.now + game.rules.peek_ms))
    game.round.seats[2].away = True  # two turns run out earlier (R-K4)
    ended = only(apply(game, A.Double(1, 1, 1, game.now)), E.RoundEnded)
    assert game.out == [True, False, False]
    assert ended.match_over and game.over and ended.winners == (2,)
