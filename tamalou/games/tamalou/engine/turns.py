"""A turn's life (R-T6, R-K, R-X6): it starts, its moves are done, it ends and the next
player's starts; the call that makes a caller (R-A2, R-X7, R-X8) and the powers that end a
turn (R-P6, R-X12); the turn clock's display moments (R-K1).
"""

from __future__ import annotations

from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine.common import (
    PENDING_POWER_MS,
    Events,
    _active,
    _has_cards,
    _place_on_discard,
    _power_targets_exist,
)
from tamalou.games.tamalou.engine.round_end import _end_round, _everyone_away
from tamalou.games.tamalou.rules import Power
from tamalou.games.tamalou.state import FOREVER, Game


def _power_done(game: Game, source: str, power: Power, at: int, ev: Events) -> None:
    r = game.round
    if source == "pending":
        r.pending.pop()
        _resume_after_pending(game, at, ev)
        return
    r.power_must = False
    if source == "turn" and power in game.rules.transmit_powers:
        r.transmit_next = power  # R-P6: a transmitted power is not transmitted again
    if source == "transmitted":
        _end_turn(game, at, ev)  # a transmitted power replaces the draw: that was the turn
    else:
        _finish_turn(game, at, ev)


def _resume_after_pending(game: Game, at: int, ev: Events) -> None:
    """The next doubled power, or the turn goes on where its clock stopped (R-X12); after an
    open-doubles window, the turn then ends (R-X11)."""
    r = game.round
    while r.pending:
        owner, power, _must = r.pending[-1]
        if _power_targets_exist(game, owner, power):
            r.pending_deadline = at + PENDING_POWER_MS
            return
        r.pending.pop()  # nothing left to pick: no effect (R-X4)
        ev.append(E.PowerPassed(owner, power))
    r.turn_deadline = at + r.paused_turn_ms  # the turn clock goes on where it stopped
    if r.after_window and r.phase == "play":
        r.after_window = False
        _finish_turn(game, at, ev)


def _right_call(
    game: Game, player: int, total: float, automatic: bool, at: int, ev: Events
) -> None:
    """R-A2, R-X7, R-X8: ``player`` is the round's caller; then a last round or the end."""
    rules = game.rules
    r = game.round
    seat = r.seats[player]
    r.caller, r.automatic_call = player, automatic
    seat.frozen = rules.caller_frozen
    shown = tuple((i + 1, c) for i, c in enumerate(seat.row) if c is not None)
    others = [i for i in _active(game) if i != player]
    if rules.call_last_round == "always":
        last_round = True
    elif rules.call_last_round == "never":
        last_round = False
    else:  # classique: strictly fewer cards than each other player
        mine = len(shown)
        last_round = all(mine < sum(1 for c in r.seats[i].row if c is not None) for i in others)
    if rules.call_shown:
        r.reveals.extend((player, s, c, FOREVER) for s, c in shown)
        ev.append(E.Called(player, True, total, shown, None, automatic, last_round))
    else:
        ev.append(E.CalledHidden(player, automatic, last_round))
    if not last_round:
        _end_round(game, at, "called", ev)
        return
    r.turns_left = len(others)
    if r.phase == "play" and r.current == player:
        _end_turn(game, at, ev)  # the call is the turn (R-A1), or its end (R-X6, R-X8)
    elif r.turns_left <= 0:
        _end_turn(game, at, ev)


def _start_turn(game: Game, player: int, at: int, ev: Events, extra: bool = False) -> None:
    r = game.round
    seat = r.seats[player]
    r.current, r.stage, r.held, r.held_from, r.power, r.extra = (
        player,
        "start",
        None,
        None,
        None,
        extra,
    )
    r.transmitted, r.looked, r.power_must = None, None, False
    r.acted = extra  # the Jack's turn belongs to a turn already played (R-K3)
    if not extra:
        pending, r.transmit_next = r.transmit_next, None
        if pending is not None and _power_targets_exist(game, player, pending):
            r.transmitted = pending
        if seat.misses and at >= seat.blocked_until:
            seat.misses -= 1  # R-D6
    rules = game.rules
    r.turn_started = at
    r.turn_deadline = at + (rules.short_turn_ms if seat.short else rules.turn_ms)
    ev.append(E.TurnStarted(player, r.turn_deadline, seat.short, extra, r.transmitted))


def _finish_turn(game: Game, at: int, ev: Events, offer_call: bool = True) -> None:
    """The turn's moves are done: R-X8's automatic call, R-X6's end-of-turn call, or the
    next player (``offer_call`` False: the clock finished the turn, R-K2)."""
    r = game.round
    if r.phase != "play":
        return
    rules = game.rules
    player = r.current
    if r.caller is None and not _has_cards(r.seats[player]) and rules.empty_row != "ends_round":
        _right_call(game, player, 0, True, at, ev)  # R-X8: an emptied row calls
        return
    if rules.call_when == "end_of_turn" and r.caller is None and offer_call:
        r.stage, r.power, r.looked, r.power_must = "call", None, None, False
        return
    _end_turn(game, at, ev)


def _end_turn(game: Game, at: int, ev: Events) -> None:
    r = game.round
    if r.phase != "play":
        return
    player = r.current
    if r.held is not None:  # a turn ended from outside (R-X8 at once): the card is thrown
        _place_on_discard(r, r.held, False)
    r.stage, r.held, r.held_from, r.power, r.extra, r.transmitted = (
        "start",
        None,
        None,
        None,
        False,
        None,
    )
    r.looked, r.power_must = None, False
    if r.caller is not None and player != r.caller:
        r.turns_left -= 1
    if _everyone_away(game):
        _end_round(game, at, "away", ev)  # R-K4
        return
    if r.caller is not None and r.turns_left <= 0:
        r.phase = "final"  # R-A3: a last window for doubles
        r.phase_deadline = at + game.rules.final_window_ms
        ev.append(E.FinalWindow(r.phase_deadline))
        return
    n = game.players
    nxt = (player + 1) % n
    for _ in range(n):
        seat = r.seats[nxt]
        if nxt != r.caller and not seat.out and not seat.frozen:
            break
        nxt = (nxt + 1) % n
    _start_turn(game, nxt, at, ev)


def display_moments(game: Game) -> set[int]:
    """When the public view changes with no action: the fuse of a turn's last seconds
    starts (R-K1), doubles paused by a Queen swap open again (R-D7), a player's double
    block ends (R-D6), a failed call's reveal ends (R-A4)."""
    r = game.round
    if game.over or r.phase not in ("play", "final"):
        return set()
    moments = {r.no_double_until} if r.no_double_until else set()
    moments.update(until for _, _, _, until in r.reveals if until < FOREVER)
    moments.update(s.blocked_until for s in r.seats if 0 < s.blocked_until < FOREVER)
    if r.phase == "play" and not r.pending:
        moments.add(fuse_start(game))
    return moments


def fuse_start(game: Game) -> int:
    """R-K1: when the current turn's fuse starts: its last ``fuse_ms``, but never more than
    its last third (a 15 s short turn, R-K3, is not all fuse)."""
    r = game.round
    length = max(0, r.turn_deadline - r.turn_started)
    return r.turn_deadline - min(game.rules.fuse_ms, length // 3)
