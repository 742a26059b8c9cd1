"""Dispatch: ``apply`` checks an action against the clock and hands it to its handler;
``Tick`` runs the deadlines (``next_deadline``): the peek's end, the open-doubles window,
doubled powers, turn time-outs (R-K2, R-X12), the final window, the next round.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tamalou.core.errors import IllegalAction
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine.common import Events, _place_on_discard, _reshuffle
from tamalou.games.tamalou.engine.doubles import _close_window, _double, _double_for
from tamalou.games.tamalou.engine.legal import first_choice
from tamalou.games.tamalou.engine.moves import (
    _call,
    _contre,
    _draw,
    _end_turn_action,
    _give_top,
    _look,
    _pass,
    _peek,
    _replace,
    _replay,
    _swap,
    _swap_two,
    _take_discard,
    _throw,
)
from tamalou.games.tamalou.engine.round_end import _end_round
from tamalou.games.tamalou.engine.setup import _next_round
from tamalou.games.tamalou.engine.turns import (
    _end_turn,
    _finish_turn,
    _resume_after_pending,
    _start_turn,
)
from tamalou.games.tamalou.state import Game


def next_deadline(game: Game) -> int | None:
    """When the clock next changes the game, in ms; ``None`` if it waits for players."""
    if game.over:
        return None
    r = game.round
    phase = r.phase
    if phase == "play":
        if r.window_until:
            return r.window_until
        return r.pending_deadline if r.pending else r.turn_deadline
    if phase == "peek":
        limit = r.deal_at + game.rules.peek_phase_max_ms
        ends = [s.peek_until for s in r.seats if not s.out]
        if all(e is not None for e in ends):
            return min(limit, max(e for e in ends if e is not None))
        return limit
    if phase == "final":
        return r.phase_deadline
    return game.next_round_deadline


def _advance(game: Game, at: int, ev: Events) -> None:
    while True:
        due = next_deadline(game)
        if due is None or due > at:
            return
        game.now = max(game.now, due)
        r = game.round
        if r.phase == "peek":
            r.phase = "play"
            _start_turn(game, r.first_player, due, ev)
        elif r.phase == "play" and r.window_until:
            _close_window(game, due, ev)
        elif r.phase == "play" and r.pending:
            _pending_timeout(game, due, ev)
        elif r.phase == "play":
            _timeout(game, due, ev)
        elif r.phase == "final":
            _end_round(game, due, "called", ev)
        else:
            _next_round(game, due, ev)
        _post(game, due, ev)


def apply(game: Game, action: A.Action) -> Events:
    """Apply one action; raise :class:`IllegalAction` (state unchanged) if the rules refuse."""
    at = action.at if action.at > game.now else game.now
    ev: Events = []
    if isinstance(action, A.Tick):
        _advance(game, at, ev)
        game.now = at
        return ev
    if game.over:
        raise IllegalAction("match_over")
    if not 0 <= action.player < game.players:
        raise IllegalAction("not_seated")
    due = next_deadline(game)
    if due is not None and due <= at:
        raise IllegalAction("deadline_pending", deadline=due)
    handler = _HANDLERS[type(action)]
    seat = game.round.seats[action.player]
    if seat.timeouts or seat.short or seat.away:
        before = (seat.timeouts, seat.short, seat.away)
        seat.timeouts, seat.short, seat.away = 0, False, False  # R-K3/R-K4: they act again
        try:
            handler(game, action, at, ev)
        except IllegalAction:
            seat.timeouts, seat.short, seat.away = before
            raise
    else:
        handler(game, action, at, ev)
    game.now = at
    _post(game, at, ev)
    return ev


def step(game: Game, action: A.Action) -> Events:
    """Apply the deadlines due by ``action.at`` then the action (a convenience for callers)."""
    ev = apply(game, A.Tick(action.at)) if not isinstance(action, A.Tick) else []
    return ev + apply(game, action)


def _post(game: Game, at: int, ev: Events) -> None:
    """R-T7: keep a draw pile; if none can be made, the round ends."""
    r = game.round
    if r.phase in ("play", "final") and not r.pile and not _reshuffle(game, ev):
        _end_round(game, at, "no_cards", ev)


def _next_round_action(game: Game, a: A.NextRound, at: int, ev: Events) -> None:
    if game.round.phase != "over":
        raise IllegalAction("round_not_over")
    _next_round(game, at, ev)


_HANDLERS: dict[type, Callable[[Game, Any, int, Events], None]] = {
    A.Peek: _peek,
    A.Draw: _draw,
    A.TakeDiscard: _take_discard,
    A.Replace: _replace,
    A.Throw: _throw,
    A.Replay: _replay,
    A.Swap: _swap,
    A.Look: _look,
    A.Pass: _pass,
    A.CallTamalou: _call,
    A.Double: _double,
    A.SwapTwo: _swap_two,
    A.GiveTop: _give_top,
    A.EndTurn: _end_turn_action,
    A.Contre: _contre,
    A.DoubleFor: _double_for,
    A.NextRound: _next_round_action,
}


def _pending_timeout(game: Game, at: int, ev: Events) -> None:
    """R-X12: a doubled power not used in time is passed (a *must* one takes its first choice)."""
    r = game.round
    owner, power, must = r.pending[-1]
    choice = first_choice(game, owner, power) if must else None
    ev.append(E.TimedOut(owner, "must" if choice is not None else "pass", r.seats[owner].away))
    if choice is not None:
        _HANDLERS[type(choice)](game, choice, at, ev)
        return
    r.pending.pop()
    ev.append(E.PowerPassed(owner, power))
    _resume_after_pending(game, at, ev)


def _timeout(game: Game, at: int, ev: Events) -> None:
    """R-K2: the clock plays for the current player, never using a power or calling (R-X5:
    a *must* power takes its first legal choice)."""
    r = game.round
    player = r.current
    seat = r.seats[player]
    must: A.Action | None = None
    if r.stage == "holding" and r.held is not None:
        auto = "throw" if r.held_from == "pile" else "return"
        _place_on_discard(r, r.held, False)
    elif r.stage == "power":
        auto = "pass"
        if r.power_must and r.power is not None and r.looked is None:
            must = first_choice(game, player, r.power)
            auto = "must" if must is not None else "pass"
    elif r.stage == "call":
        auto = "end"
    else:
        auto = "draw_throw"
        _place_on_discard(r, r.pile.pop(), False)
        seat.peek_open = False
    r.held = r.held_from = None
    seat.timeouts += 1
    if not r.acted:
        seat.short = True  # R-K3: only a turn let pass without playing
    if seat.timeouts >= game.rules.timeouts_until_away:
        seat.away = True  # R-K4
    ev.append(E.TimedOut(player, auto, seat.away))
    if must is not None:
        _HANDLERS[type(must)](game, must, at, ev)
        if r.phase == "play" and r.current == player and r.stage == "call":
            _end_turn(game, at, ev)
        return
    if auto in ("throw", "return", "draw_throw"):
        ev.append(E.Threw(player, r.discard[-1], r.seq))
    if auto == "end":
        _end_turn(game, at, ev)
    else:
        _finish_turn(game, at, ev, offer_call=False)
