"""Tarot ``hard`` AI (issue 13): card counting from the public tricks, safe smears, legal
play from its own view, decision time, a small arena. The arena runs that prove the mean
scores are in docs/tarot.md."""

from __future__ import annotations

import pytest

import tamalou.games.tarot as tarot
from tamalou.games.tarot import actions as A
from tamalou.games.tarot import events as E
from tamalou.games.tarot.ai import make_player
from tamalou.games.tarot.ai.hard import HardPlayer, Knowledge
from tamalou.games.tarot.arena import difference, run
from tamalou.games.tarot.cards import from_code
from tamalou.games.tarot.engine import apply, legal_actions, new_game
from tamalou.games.tarot.rules import TAROT
from tamalou.games.tarot.views import view

from .helpers import c, dealt, play, to_play


def _decide(
    game: tarot.Game, seat: int, level: str = "hard", *, searched: bool = True
) -> A.Action | None:
    """``searched=False``: hard's rule-of-thumb card, the one its search must beat."""
    at = game.now
    player = make_player(level, seat, TAROT, "t")
    if not searched:
        player = HardPlayer(seat, TAROT, "t", work=0)
    return player.act(view(game, seat, at), legal_actions(game, seat, at), at)


def test_hard_counts_voids_from_the_public_tricks() -> None:
    """T-P2/T-P3: a player who trumps a suit lead is void in it; T-P4: one who throws a
    suit card on it has no trump either; T-P5: one who trumps under the top has none above."""
    g = dealt(
        [["2h", "T10", "T2"], ["T5"], ["3h", "T3"], ["Ks"]],
        voids={1: "h", 3: "hT"},
    )
    to_play(g, taker=0)
    play(g, "2h", "T5", "3h", "Ks")
    seen = view(g, 2, g.now)
    know = Knowledge(seen, [from_code(x) for x in seen.hand])
    assert 1 in know.void[1] and 4 not in know.void[1]  # hearts (suit 1), not trumps
    assert {1, 4} <= know.void[3]
    assert from_code("Ks") not in know.out and from_code("T5") not in know.out
    assert all(from_code(x) not in know.out for x in seen.hand)


def test_hard_smears_a_trick_its_camp_surely_wins_medium_does_not() -> None:
    """The taker has played: the defender's 10♥ wins whatever the last defender holds, so
    hard's rules give its Queen; medium trusts only a King or a high trump and keeps it."""
    g = dealt([["2h"], ["10h"], ["Qh", "3h"], ["4h"]], dealer=3)
    to_play(g, taker=0)
    play(g, "2h", "10h")
    assert _decide(g, 2, searched=False) == A.Play(2, c("Qh"), g.now)
    assert _decide(g, 2, "medium") == A.Play(2, c("3h"), g.now)


def test_hard_does_not_smear_when_the_taker_may_still_win() -> None:
    """The taker plays last and the King of hearts is out: no points into that trick."""
    g = dealt([["Kh"], ["10h"], ["Qh", "3h"], ["4h"]], dealer=0)
    to_play(g, taker=0)
    assert g.deal.current == 1
    play(g, "10h")
    assert _decide(g, 2, searched=False) == A.Play(2, c("3h"), g.now)
    assert _decide(g, 2) == A.Play(2, c("3h"), g.now)  # the search agrees


def test_hard_decides_from_its_own_view_only() -> None:
    """Two deals that differ only in the other seats' hands: seat 2 sees the same view and
    makes the same choices (bid, then the card after the same first plays)."""
    mine = ["Qh", "3h", "5h", "T3", "T4", "7s", "8s", "9d", "10d", "2c", "3c", "4c"]
    mine += ["5c", "6c", "7c", "8c", "9c", "Jd"]  # a full hand: 18 cards
    g1 = dealt([["2h"], ["10h"], mine, ["4h"]], dealer=3)
    g2 = dealt([["2h", "Kh"], ["10h", "Ks"], mine, ["4h", "T21"]], dealer=3)
    for g in (g1, g2):
        to_play(g, taker=0)
        play(g, "2h", "10h")
    v1, v2 = view(g1, 2, g1.now), view(g2, 2, g2.now)
    assert v1.hand == v2.hand and v1.public.trick == v2.public.trick
    assert _decide(g1, 2) == _decide(g2, 2)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_hard_plays_legally_in_seeded_deals(players: int) -> None:
    """Every seat hard (its search kept small here: the legality is the candidates')."""
    game, events = new_game(TAROT, players, f"hard:{players}", 0, ai=[True] * players)
    bots = [HardPlayer(s, TAROT, f"h:{s}", work=400) for s in range(players)]
    at = 0
    deals = 0
    for _ in range(3_000):
        if game.over or deals >= 3:
            break
        for b in bots:
            b.observe(E.stream_for(events, b.seat))
        at += 500
        if game.deal.phase == "over":
            deals += 1
            events = apply(game, A.NextDeal(0, at))
            continue
        seat = game.deal.current
        legal = legal_actions(game, seat, at)
        action = bots[seat].act(view(game, seat, at), legal, at)
        assert action in legal
        events = apply(game, action)
    assert deals >= 3 or game.over


def test_decision_times() -> None:
    """Issue 13: a medium decision under 5 ms on average. Issue 26: hard searches (a slow
    level, in the bot's worker pool); the bot's hard (capped by the clock) stays under its
    cap on average, on this shared machine too."""
    from tamalou.games.tarot.arena import LevelStats, play_deal

    levels = ["hard", "medium", "medium", "medium"]
    stats = {lv: LevelStats() for lv in ("hard", "medium")}
    for i in range(4):
        bots = [tarot.make_ai(lv, s, TAROT, f"timing:{i}:{s}") for s, lv in enumerate(levels)]
        play_deal(levels, f"timing:{i}", TAROT, stats, bots)
    medium, hard = stats["medium"], stats["hard"]
    assert medium.decisions > 100 and hard.decisions > 40
    assert medium.decide_s / medium.decisions < 0.005
    assert hard.decide_s / hard.decisions < tarot.AI_BUDGET_MS / 1000
    assert "hard" in tarot.SLOW_AI_LEVELS and "hard" in tarot.AI_LEVELS
    assert "medium" not in tarot.SLOW_AI_LEVELS


def test_small_arena_smoke(monkeypatch: pytest.MonkeyPatch) -> None:
    """A seeded smoke run: seats rotate, every deal is scored (zero-sum, T-S scores), the
    paired difference is reported (hard's search kept small: this checks the bookkeeping;
    the strength runs are in docs/ai.md)."""
    from tamalou.games.tarot import arena

    made = arena.make_player

    def small(level: str, seat: int, rules: tarot.Rules, seed: int | str) -> object:
        if level == "hard":
            return HardPlayer(seat, rules, seed, work=200)
        return made(level, seat, rules, seed)

    monkeypatch.setattr(arena, "make_player", small)
    diffs: list[float] = []
    stats = run(["hard", "medium", "medium", "medium"], 40, "smoke", TAROT, 0, diffs)
    assert len(diffs) == 40 and len(stats["hard"].samples) == 40
    assert len(stats["medium"].samples) == 120
    total = sum(stats["hard"].samples) + sum(stats["medium"].samples)
    assert total == 0  # each deal's scores sum to zero
    assert stats["hard"].takes + stats["medium"].takes == 40
    mean = sum(diffs) / len(diffs)
    assert mean == pytest.approx(stats["hard"].mean() * 4 / 3)  # zero-sum at four seats
    line = difference(["hard", "medium"], diffs)
    assert line.startswith("hard - medium: ") and "per deal [" in line


@pytest.mark.parametrize("players", [3, 4])
def test_hard_bids_bolder_at_three_players_only(players: int) -> None:
    """T-B at three players (issue 26): hard takes hands medium passes (never the other
    way round); at four and five it bids as medium does."""
    bolder = 0
    for i in range(60):
        game, _ = new_game(TAROT, players, f"bid:{i}", 0, ai=[True] * players)
        seat = game.deal.current
        legal = legal_actions(game, seat, 0)
        seen = view(game, seat, 0)
        hard = make_player("hard", seat, TAROT, "x").act(seen, legal, 0)
        medium = make_player("medium", seat, TAROT, "x").act(seen, legal, 0)
        assert isinstance(hard, A.Bid) and isinstance(medium, A.Bid)
        assert hard.contract >= medium.contract
        bolder += hard.contract > medium.contract
    assert (bolder > 0) == (players == 3)


def _first_seat_scores(levels: list[str], deals: int, seed: str, work: int) -> list[int]:
    """The score of the seat of ``levels[0]`` in each deal of a rotated arena run (hard
    searching ``work`` simulated plays a decision)."""
    from tamalou.core.arena import seated, seed_of
    from tamalou.games.tarot import arena

    n = len(levels)
    out = []
    for i in range(deals):
        at_seats = seated(levels, i)
        stats = {lv: arena.LevelStats() for lv in set(at_seats)}
        players = [
            HardPlayer(s, TAROT, f"{seed_of(seed, i)}:{s}", work=work)
            if lv == "hard"
            else make_player(lv, s, TAROT, f"{seed_of(seed, i)}:{s}")
            for s, lv in enumerate(at_seats)
        ]
        out.append(arena.play_deal(at_seats, seed_of(seed, i), TAROT, stats, players)[(-i) % n])
    return out


def test_small_paired_check_hard_gains_over_medium_in_its_seat() -> None:
    """CI's strength check (issue 26), paired to beat tarot's spread: the same 60 seeded
    deals at three players, once with hard (its search at 1,500 plays a decision) in the
    first level's seat and once with medium there. Hard's seat scores more (+13.7 a deal
    at this seed, about 1.9 standard errors; the arena runs are in docs/ai.md); a hard that
    played as medium would gain exactly 0."""
    hard = _first_seat_scores(["hard", "medium", "medium"], 60, "ci-hard", 1_500)
    medium = _first_seat_scores(["medium"] * 3, 60, "ci-hard", 1_500)
    gain = sum(h - m for h, m in zip(hard, medium, strict=True)) / 60
    assert gain > 0
