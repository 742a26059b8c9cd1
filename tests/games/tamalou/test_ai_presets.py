"""The medium AI reads a preset's call and scoring rules from ``Rules`` (issue 11).

R-V7 dutch_sec and R-V2 koubo have unchecked calls (R-X7): no threshold; dutch_sec's call
ends the round at once (no last turn for anyone); koubo's caller must be strictly lowest.
"""

from __future__ import annotations

from tamalou.core.cards import from_code
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou.ai.estimate import Estimate, call_threshold
from tamalou.games.tamalou.ai.memory import UNKNOWN, Memory
from tamalou.games.tamalou.ai.policy import HeuristicPlayer
from tamalou.games.tamalou.rules import CABO, DUTCH_SEC, KOUBO, TAMALOU, Rules


def _memory(rules: Rules, mine: list[str], theirs: list[str | None]) -> Memory:
    """Seat 0 knows its whole row; seat 1's row is as given (None: unknown to seat 0)."""
    m = Memory(0, rules)
    m.over = False
    for slot, code in enumerate(mine, start=1):
        m._set(0, slot, from_code(code), True)
    for slot, opt in enumerate(theirs, start=1):
        if opt is not None:
            m._set(1, slot, from_code(opt), True)
        else:
            m.row(1)
    return m


def test_r_v7_dutch_sec_values_black_king_20_and_red_king_0() -> None:
    m = _memory(DUTCH_SEC, ["Ks", "Kh", "Jc", "Qd"], [None] * 4)
    mine = Estimate.of(m).mine(m)
    assert mine == {1: 20, 2: 0, 3: 11, 4: 12}


def test_r_x7_an_unchecked_call_has_no_threshold() -> None:
    """A total of 18 against four unknown cards (about 27) is a likely win in dutch_sec;
    the default game's call needs a total of at most 5 (R-A1): no chance there."""
    assert call_threshold(DUTCH_SEC) == float("inf")
    assert call_threshold(TAMALOU) == TAMALOU.call_threshold
    mine = ["5c", "6c", "4c", "3c"]
    sec = _memory(DUTCH_SEC, mine, [None] * 4)
    assert Estimate.of(sec).p_win_if_called(sec) > 0.7
    default = _memory(TAMALOU, mine, [None] * 4)
    assert Estimate.of(default).p_win_if_called(default) == 0.0


def test_r_v7_a_call_that_ends_the_round_at_once_gives_no_last_turn() -> None:
    m = _memory(DUTCH_SEC, ["5c", "6c", "4c", "3c"], [None] * 4)
    est = Estimate.of(m)
    assert est.p_win_if_called(m) == est.p_win_if_called(m, improvement=0.0)
    assert est.p_win_if_called(m) > est.p_win_if_called(m, improvement=1.5)


def test_r_v2_koubo_caller_must_be_strictly_lowest() -> None:
    """Same cards, same opponent: a tie wins a default call but loses a koubo call."""
    m = _memory(KOUBO, ["7c", "8c", "Ac", "Jc"], ["7d", "8d", "Ad", "Jd"])
    ties_win = KOUBO.model_copy(
        update={"scoring": KOUBO.scoring.model_copy(update={"caller_wins_on_tie": True})}
    )
    m2 = _memory(ties_win, ["7c", "8c", "Ac", "Jc"], ["7d", "8d", "Ad", "Jd"])
    strict = Estimate.of(m).p_win_if_called(m, improvement=0.0)
    lenient = Estimate.of(m2).p_win_if_called(m2, improvement=0.0)
    assert strict < 0.5 < lenient


def test_r_a3_medium_values_no_look_on_its_last_turn() -> None:
    """After another player's call, this is my last turn: a look own (dutch_sec's J)
    teaches nothing worth a point, so it is worth nothing; before, it is."""
    m = _memory(DUTCH_SEC, ["5c", "6c"], [None] * 4)
    m.row(0).extend([UNKNOWN, UNKNOWN])  # two slots of mine I have not seen
    m.owner_knows[0].extend([False, False])
    p = HeuristicPlayer(0, DUTCH_SEC, "t")
    p.memory = m
    jack = from_code("Jc")
    est = Estimate.of(m)
    assert p.power_value(jack, est) == 1.0
    m.caller = 1
    assert p.power_value(jack, est) == 0.0


def test_r_v7_medium_calls_an_unchecked_call_only_when_nearly_sure() -> None:
    """dutch_sec (R-X7: no threshold, the round ends at once): a known 4 against four
    unknown cards is a call, a known 18 (likely but not surely lowest) is not; the
    default game's R-A1 threshold would refuse both (docs/ai.md: call_sure)."""
    low = _memory(DUTCH_SEC, ["Ah", "2c", "Kh", "Ac"], [None] * 4)
    high = _memory(DUTCH_SEC, ["5c", "6c", "4c", "3c"], [None] * 4)
    p = HeuristicPlayer(0, DUTCH_SEC, "t")
    assert 0.7 < Estimate.of(high).p_win_if_called(high) < p.style.call_sure
    assert Estimate.of(low).p_win_if_called(low) > p.style.call_sure
    p.memory = low
    assert p.should_call(Estimate.of(low))
    p.memory = high
    assert not p.should_call(Estimate.of(high))


def test_r_x5_medium_credits_no_power_to_a_replaced_card_in_the_presets() -> None:
    """R-T5 (the default rules, power_from "discarded"): the card a drawn card replaces gives
    its power, so replacing a known look-own card (the default's K, cabo's 7) is worth the
    look too. R-X5 (every house preset, "thrown"): only the drawn card thrown at once does;
    medium credited the replaced card's power there too, and replaced power cards it should
    have valued as plain points."""
    gains = {}
    for rules, look in ((TAMALOU, "Kc"), (CABO, "7c")):
        m = _memory(rules, [look, "6c"], [None] * 4)
        m.row(0).extend([UNKNOWN, UNKNOWN])  # two slots of mine I have not seen
        m.owner_knows[0].extend([False, False])
        m.held = from_code("Ac")
        p = HeuristicPlayer(0, rules, "t")
        p.memory = m
        est = Estimate.of(m)
        assert p.power_value(from_code(look), est) > 0  # a look own is worth something
        options = p.holding_options([A.Replace(0, 1), A.Replace(0, 2)], est)
        points = est.value[from_code(look)] - est.value[from_code("Ac")]
        gains[rules.name] = ([g for g, _ in options], points)
    (cabo_look, cabo_six), points = gains["cabo"]
    assert (cabo_look, cabo_six) == (points, 6 - 1)  # the points saved, no power for the 7
    (default_look, default_six), points = gains["tamalou"]
    assert default_look > points and default_six == 6 - 1
