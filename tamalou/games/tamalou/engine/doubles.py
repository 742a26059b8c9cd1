"""Doubles (R-D, R-X10, R-X11, R-X12, R-X13): on the discard top with your card or
another player's, misses and their cost, the open-doubles window and its claims.
"""

from __future__ import annotations

from tamalou.core.errors import IllegalAction
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine.common import (
    PENDING_POWER_MS,
    Events,
    _check_target,
    _has_cards,
    _penalty,
    _place_on_discard,
    _power_targets_exist,
    _row_slot,
    doubles_refusal,
    untargetable,
)
from tamalou.games.tamalou.engine.round_end import _end_round
from tamalou.games.tamalou.engine.turns import _resume_after_pending, _right_call
from tamalou.games.tamalou.rules import UNTIL_END, Power
from tamalou.games.tamalou.state import FOREVER, Game


def _double_target(game: Game, player: int, seq: int, at: int) -> bool:
    """Common checks of a double on the discard card ``seq``; True if it is still on top
    and open (not doubled, not arrived by a double)."""
    refusal = doubles_refusal(game, player, at)
    if refusal is not None:
        raise refusal
    r = game.round
    if not 1 <= seq <= r.seq:
        raise IllegalAction("no_such_card")  # bad input, not a miss: no card had that number
    if r.seats[player].barred_seq == seq:
        raise IllegalAction("barred_from_card")  # R-X13 (cabo)
    return bool(r.discard) and r.discard_seqs[-1] == seq and not r.discard_spent[-1]


def _double(game: Game, a: A.Double, at: int, ev: Events) -> None:
    refusal = doubles_refusal(game, a.player, at)
    if refusal is not None:
        raise refusal
    r = game.round
    seat = r.seats[a.player]
    if not 1 <= a.seq <= r.seq:
        raise IllegalAction("no_such_card")
    if a.seq == seat.last_double_seq and a.slot == seat.last_double_slot:
        # a repeated click on your own winning double: its slot is a hole by now, so this
        # check comes before the slot's. Another slot on that card is a later double (R-D4).
        raise IllegalAction("already_doubled")
    if seat.barred_seq == a.seq:
        raise IllegalAction("barred_from_card")  # R-X13 (cabo)
    card = _row_slot(seat, a.slot)
    compiled = game.rules.compiled
    if r.window_until and a.seq == r.window_seq:  # R-X11: every card of its rank succeeds
        if compiled.rank[card] == r.window_rank:
            seat.row[a.slot - 1] = None
            seq = _place_on_discard(r, card, True)
            seat.misses, seat.blocked_until = 0, 0
            ev.append(E.Doubled(a.player, a.slot, card, seq))
            _after_double(game, a.player, card, at, ev)
            return
        _missed(game, a.player, a.slot, card, True, None, a.seq, at, ev)
        return
    on_top = bool(r.discard) and r.discard_seqs[-1] == a.seq and not r.discard_spent[-1]
    if on_top and compiled.rank[card] == compiled.rank[r.discard[-1]]:
        r.discard_spent[-1] = True
        seat.row[a.slot - 1] = None
        seq = _place_on_discard(r, card, True)  # R-P5: no power, and cannot be doubled
        seat.misses, seat.blocked_until, seat.last_double_seq = 0, 0, a.seq
        seat.last_double_slot = a.slot
        ev.append(E.Doubled(a.player, a.slot, card, seq))
        _after_double(game, a.player, card, at, ev)
        return
    _missed(game, a.player, a.slot, card, on_top, None, a.seq, at, ev)


def _double_for(game: Game, a: A.DoubleFor, at: int, ev: Events) -> None:
    """R-X10: a double with another player's card; yours fills their slot on a hit."""
    if not game.rules.play_for_someone:
        raise IllegalAction("no_play_for_someone")
    on_top = _double_target(game, a.player, a.seq, at)
    r = game.round
    seat = r.seats[a.player]
    theirs = _check_target(game, a.player, a.target)
    if theirs.frozen:
        raise IllegalAction("target_frozen")
    card = _row_slot(theirs, a.target_slot)
    if _has_cards(seat):
        mine = _row_slot(seat, a.slot)
    elif a.slot != 0:
        raise IllegalAction("bad_slot", slot=a.slot)
    else:
        mine = None
    if r.window_until and a.seq == r.window_seq:  # R-X11: a claim, settled at the close
        claim = (a.player, a.target, a.target_slot, a.slot)
        if any(c[:3] == claim[:3] for c in r.claims):
            raise IllegalAction("already_claimed")
        r.claims.append(claim)
        ev.append(E.Claimed(a.player, a.target, a.target_slot, a.slot))
        return
    compiled = game.rules.compiled
    if on_top and compiled.rank[card] == compiled.rank[r.discard[-1]]:
        r.discard_spent[-1] = True
        theirs.row[a.target_slot - 1] = mine
        if mine is not None:
            seat.row[a.slot - 1] = None
        seq = _place_on_discard(r, card, True)
        seat.misses, seat.blocked_until = 0, 0
        ev.append(E.DoubledFor(a.player, a.target, a.target_slot, a.slot, card, seq))
        _after_double(game, a.player, card, at, ev)
        if r.phase != "over" and not _has_cards(theirs) and mine is None:
            _row_emptied(game, a.target, False, at, ev)
        return
    _missed(game, a.player, a.target_slot, card, on_top, a.target, a.seq, at, ev)


def _after_double(game: Game, player: int, card: int, at: int, ev: Events) -> None:
    """A successful double: R-X12's doubled power, then R-D8 / R-X8 if the row is empty."""
    r = game.round
    rules = game.rules
    power = rules.compiled.power[card]
    must = rules.compiled.must[card]
    if rules.doubled_powers == "seat_order" and power is not None and r.window_until:
        r.window_powers.append((player, power, must))  # used at the window's close
    elif (
        rules.doubled_powers == "stack"
        and power is not None
        and power != Power.REPLAY
        and r.phase == "play"
        and _power_targets_exist(game, player, power)
    ):
        if not r.pending:
            r.paused_turn_ms = max(0, r.turn_deadline - at)
        r.pending.append((player, power, must))
        r.pending_deadline = at + PENDING_POWER_MS
        ev.append(E.PowerQueued(player, power))
    if not _has_cards(r.seats[player]):
        _row_emptied(game, player, True, at, ev)


def _row_emptied(game: Game, player: int, own: bool, at: int, ev: Events) -> None:
    """R-D8 ends the round; R-X8 an automatic call instead (at once or at the turn's end)."""
    r = game.round
    rules = game.rules
    if rules.empty_row == "ends_round":
        if own:
            r.emptied_by_own_double = player  # fontenay's -10 (R-V9)
        _end_round(game, at, "empty_row", ev)  # R-D8
    elif rules.empty_row == "call_at_once" and r.caller is None and r.phase == "play":
        r.pending.clear()
        _right_call(game, player, 0, True, at, ev)


def _missed(
    game: Game,
    player: int,
    slot: int,
    card: int,
    on_top: bool,
    owner: int | None,
    seq: int,
    at: int,
    ev: Events,
) -> None:
    """R-D5, R-D6, R-X13: a miss is shown and goes back; its cost depends on the rules."""
    rules = game.rules
    seat = game.round.seats[player]
    reason = "wrong_rank" if on_top else "too_late"
    if reason == "too_late" and rules.too_late_free:
        ev.append(E.DoubleMissed(player, slot, card, reason, seat.misses, None, owner))
        return  # R-V0: free, no card, no R-D6 count
    blocks = rules.double_blocks_ms
    seat.misses += 1
    block = blocks[min(seat.misses, len(blocks)) - 1]
    seat.blocked_until = FOREVER if block == UNTIL_END else at + block
    until = None if seat.blocked_until >= FOREVER else seat.blocked_until
    ev.append(E.DoubleMissed(player, slot, card, reason, seat.misses, until, owner))
    if rules.miss_bars_card:
        seat.barred_seq = seq
    if rules.scoring.miss_points:
        seat.fines += rules.scoring.miss_points
        ev.append(E.Fined(player, rules.scoring.miss_points))
    _penalty(game, player, rules.miss_penalty_cards, "missed_double", ev)


def _close_window(game: Game, at: int, ev: Events) -> None:
    """R-X11: settle the claims (the owner's own double came first; then the turn player,
    then seats from the next player; a losing claim is free), then the doubled powers in
    seat order from the next player, the turn player's last (R-X12), then the turn ends."""
    r = game.round
    n = game.players
    turn = r.current
    priority = {(turn + k) % n: k for k in range(n)}
    rank = game.rules.compiled.rank
    window_seq = r.window_seq
    r.window_until = 0
    if r.discard:
        r.discard_spent[-1] = True  # no double after the window
    ev.append(E.WindowClosed(window_seq))
    settled: set[tuple[int, int]] = set()  # cards already thrown by a claim of higher rank
    for player, target, target_slot, slot in sorted(r.claims, key=lambda c: priority[c[0]]):
        if r.phase != "play":
            break
        seat, theirs = r.seats[player], r.seats[target]
        card = theirs.row[target_slot - 1] if target_slot <= len(theirs.row) else None
        lost = (target, target_slot) in settled
        if card is None or lost or seat.frozen or untargetable(game, target):
            ev.append(E.ClaimLost(player, target, target_slot))
            continue
        if rank[card] != r.window_rank:
            _missed(game, player, target_slot, card, True, target, window_seq, at, ev)
            continue
        settled.add((target, target_slot))
        mine = seat.row[slot - 1] if 1 <= slot <= len(seat.row) else None
        theirs.row[target_slot - 1] = mine
        if mine is not None:
            seat.row[slot - 1] = None
        seq = _place_on_discard(r, card, True)
        seat.misses, seat.blocked_until = 0, 0
        ev.append(E.DoubledFor(player, target, target_slot, slot if mine else 0, card, seq))
        _after_double(game, player, card, at, ev)
        if not _has_cards(theirs) and mine is None:
            _row_emptied(game, target, False, at, ev)
    r.claims = []
    if r.phase != "play":
        return
    # seat order from the next player (a stable sort keeps each seat's throw order)
    queue = sorted((p for p in r.window_powers if p[0] != turn), key=lambda p: (p[0] - turn) % n)
    queue += [p for p in r.window_powers if p[0] == turn]
    if r.window_turn_power is not None:
        queue.append((turn, *r.window_turn_power))
    r.window_powers, r.window_turn_power = [], None
    for owner, power, _must in queue:
        ev.append(E.PowerQueued(owner, power))
    r.pending = queue[::-1]  # the next one last
    r.after_window = True
    _resume_after_pending(game, at, ev)
