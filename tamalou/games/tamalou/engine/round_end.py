"""The end of a round and of the match (R-E, R-M, R-X15, R-X16): scores, places,
eliminations, winners; R-K4's abandoned table.
"""

from __future__ import annotations

from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine.common import Events, _penalty, _place_on_discard
from tamalou.games.tamalou.scoring import match_places, places, round_scores
from tamalou.games.tamalou.state import Game, RoundResult


def _everyone_away(game: Game) -> bool:
    """R-K4: every player but one is away; with AI players at the table, every human.

    A table of AI players only has no human to wait for: the "all but one" count applies.
    """
    for s in game.round.seats:
        if s.away and not s.out:
            break
    else:
        return False  # the usual case, checked at every end of turn: nobody away
    seats = [s for s in game.round.seats if not s.out]
    humans = [s for s in seats if not s.is_ai]
    if humans and len(humans) < len(seats):
        return all(s.away for s in humans)
    return sum(1 for s in seats if not s.away) <= 1


def abandoned(game: Game) -> bool:
    """R-K4: the round ended with every human away and no next round on its way: the table
    has nobody left to play and closes."""
    if game.over or game.round.phase != "over" or game.next_round_deadline is not None:
        return False
    return all(s.away for s in game.round.seats if not s.is_ai and not s.out)


def _end_round(game: Game, at: int, reason: str, ev: Events) -> None:
    r = game.round
    if r.phase == "over":
        return
    rules = game.rules
    if r.held is not None:  # a card in hand is nobody's: it goes to the discard
        _place_on_discard(r, r.held, False)
        r.held = r.held_from = None
    r.phase, r.stage, r.end_reason = "over", "start", reason
    r.pending.clear()
    value = rules.compiled.value
    active = [not s.out for s in r.seats]
    caller = r.caller
    if caller is not None and reason != "void" and rules.scoring.caller_draws_per_better:
        # dutch (R-V1): the caller first takes a pile card per player strictly below
        mine = sum(value[c] for c in r.seats[caller].row if c is not None)
        better = sum(
            1
            for i, s in enumerate(r.seats)
            if i != caller and active[i] and sum(value[c] for c in s.row if c is not None) < mine
        )
        _penalty(game, caller, better, "caller_draw", ev)
    hands = [list(s.row) for s in r.seats]
    totals = [sum(value[c] for c in row if c is not None) for row in hands]
    counts = [sum(1 for c in row if c is not None) for row in hands]
    ranked = places(totals, counts, caller, active)
    failed = [s.failed_calls for s in r.seats]
    if reason == "void":  # cabo: a wrong call voids the round: the caller 10, others 0
        base = [
            rules.scoring.failed_call_points if i == caller else 0.0 for i in range(game.players)
        ]
        ranked = match_places(base)  # nobody's total counts: the caller last, others first
        # R-X15: fines come last and stand, in a void round too (R-V4, R-X13)
        scores = [
            b + s.fines if active[i] else 0.0
            for i, (b, s) in enumerate(zip(base, r.seats, strict=True))
        ]
    else:
        scores = round_scores(
            rules.scoring,
            totals,
            caller,
            failed,
            contre=r.contre,
            automatic=r.automatic_call,
            fines=[s.fines for s in r.seats],
            emptied_by=r.emptied_by_own_double,
            active=active,
        )
    cumulative = game.cumulative
    for i, s in enumerate(scores):
        if not active[i]:
            continue
        cumulative[i] += s
        if rules.exact_target_falls_to is not None and cumulative[i] == rules.target:
            cumulative[i] = rules.exact_target_falls_to  # R-X16: the exact value falls back
    game.history.append(
        RoundResult(
            r.round_no,
            reason,
            hands,
            totals,
            ranked,
            scores,
            caller,
            r.first_player,
            r.contre,
            r.automatic_call,
            [s.fines for s in r.seats],
            r.emptied_by_own_double,
            active,
        )
    )
    over, winners, eliminated = _match_end(game, active)
    for i in eliminated:
        game.out[i] = True
        ev.append(E.Eliminated(i))
    if over:
        game.over = True
        game.winners = winners
        game.next_round_deadline = None
    elif _everyone_away(game):
        game.next_round_deadline = None  # nobody to play: wait for a player's NextRound
    else:
        game.next_round_deadline = at + rules.next_round_ms
    ev.append(
        E.RoundEnded(
            r.round_no,
            reason,
            tuple(tuple(h) for h in hands),
            tuple(totals),
            tuple(ranked),
            tuple(scores),
            tuple(cumulative),
            caller,
            over,
            tuple(game.winners),
        )
    )


def _no_human_in_play(game: Game, left: list[int]) -> bool:
    """A ruling (docs/rules.md, R-X16, R-K4): a match that had humans ends once none of them
    is in play, each out or gone (away: the clock plays for them); its AI players do not play
    on for nobody. A match of AI players only plays on."""
    seats = game.round.seats
    had_humans = any(not s.is_ai for s in seats)
    return had_humans and all(seats[i].is_ai or seats[i].away for i in left)


def _match_end(game: Game, active: list[bool]) -> tuple[bool, list[int], list[int]]:
    """R-M3, R-X16: whether the match is over, its winners, and the seats eliminated now."""
    rules = game.rules
    cum = game.cumulative
    seats = [i for i in range(game.players) if active[i]]
    rounds_done = rules.max_rounds is not None and len(game.history) >= rules.max_rounds

    def lowest(among: list[int]) -> list[int]:
        best = min(cum[i] for i in among)
        return [i for i in among if cum[i] == best]

    if rules.match_end == "elimination":  # out at target or more; the last one in wins
        crossed = [i for i in seats if cum[i] >= rules.target]
        left = [i for i in seats if i not in crossed]
        if len(left) == 1:
            return True, left, crossed
        if not left:  # the last ones cross together: the lowest wins
            return True, lowest(seats), crossed
        if rounds_done or _no_human_in_play(game, left):
            return True, lowest(left), crossed
        return False, [], crossed
    if rules.win_at is not None and any(cum[i] <= rules.win_at for i in seats):
        return True, lowest(seats), []  # R-X16: a grand winner
    if rules.match_end == "exceed":
        over = any(cum[i] > rules.target for i in seats)
    elif rules.match_end == "reach":
        over = any(cum[i] >= rules.target for i in seats)
    else:
        over = False
    if over or rounds_done or _no_human_in_play(game, seats):
        return True, lowest(seats), []
    return False, [], []
