"""Checks and small moves every role of the round shares: the row's slots, whose turn it
is, who may be targeted or double, the discard, penalty cards and the reshuffle (R-T7).
"""

from __future__ import annotations

import random

from tamalou.core.errors import IllegalAction
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.rules import Power
from tamalou.games.tamalou.state import FOREVER, Game, RoundState, SeatState

Events = list[E.Event]


#: A doubled power's owner has this long to use it (R-X12); the turn clock waits meanwhile.
PENDING_POWER_MS = 15_000


def _active(game: Game) -> list[int]:
    """Seats still in the match (R-X16: elimination)."""
    return [i for i in range(game.players) if not (game.out and game.out[i])]


def _reshuffle(game: Game, ev: Events) -> bool:
    r = game.round
    if len(r.discard) <= 1:
        return False
    r.reshuffles += 1
    seed = f"{r.seed}:reshuffle:{r.reshuffles}"
    cards = r.discard[:-1]
    random.Random(seed).shuffle(cards)
    r.pile = cards + r.pile
    del r.discard[:-1], r.discard_seqs[:-1], r.discard_spent[:-1]
    ev.append(E.Reshuffled(len(r.pile)))
    ev.append(E.ReshuffleOrder(tuple(r.pile), seed))
    return True


def _row_slot(seat: SeatState, slot: int) -> int:
    if not 1 <= slot <= len(seat.row):
        raise IllegalAction("bad_slot", slot=slot)
    card = seat.row[slot - 1]
    if card is None:
        raise IllegalAction("empty_slot", slot=slot)
    return card


def _has_cards(seat: SeatState) -> bool:
    return any(c is not None for c in seat.row)


def _my_turn(game: Game, player: int) -> RoundState:
    r = game.round
    if r.phase == "peek":
        raise IllegalAction("peek_phase")
    if r.phase == "over":
        raise IllegalAction("round_over")
    if r.phase == "final" or r.current != player:
        raise IllegalAction("not_your_turn")
    if r.pending:
        raise IllegalAction("power_pending")  # R-X12: doubled powers resolve first
    if r.stage == "window":
        raise IllegalAction("doubles_window")  # R-X11: the turn goes on after the window
    return r


def can_take_discard(game: Game, r: RoundState) -> bool:
    """R-T2, R-X13: the current player may take the discard top now."""
    rules = game.rules
    if not r.discard or r.extra or not rules.draw_from_discard:
        return False
    if not rules.compiled.takeable[r.discard[-1]]:
        return False
    if not rules.take_doubled_top and r.discard_spent[-1]:
        return False  # cabo: a top put there by a double
    return _has_cards(r.seats[r.current])  # a taken card must be kept (R-T3, R-X8)


def _can_call(game: Game, r: RoundState) -> bool:
    """R-A1 (the Jack's turn included, R-P1) or R-X6: the round has no caller yet."""
    return r.caller is None


def untargetable(game: Game, target: int) -> bool:
    """R-P2, R-X7: no power and no play for someone picks this seat's cards."""
    r = game.round
    seat = r.seats[target]
    if seat.out:
        return True
    return r.caller == target and game.rules.caller_untargetable


def _power_targets_exist(game: Game, player: int, power: Power) -> bool:
    """R-P4, R-X4: a power with no possible target is not offered."""
    r = game.round
    mine = _has_cards(r.seats[player])
    if power == Power.REPLAY:
        return True
    if power == Power.LOOK_OWN:
        return mine
    others = [
        i
        for i, s in enumerate(r.seats)
        if i != player and not untargetable(game, i) and _has_cards(s)
    ]
    if power == Power.BLIND_SWAP:
        return mine and bool(others)
    if power in (Power.LOOK_OPPONENT, Power.LOOK_THEN_SWAP):
        return bool(others)
    if power == Power.GIVE_TOP:
        return bool(r.pile) and any(
            i != player and not untargetable(game, i) for i in range(game.players)
        )
    if power == Power.SWAP_ANY:
        return len(others) + (1 if mine else 0) >= 2
    return mine or bool(others)  # LOOK_ANY


def doubles_refusal(game: Game, player: int, at: int) -> IllegalAction | None:
    """Why ``player`` may not double now (R-D7, R-D6, R-S3, R-X7), or None."""
    r = game.round
    if game.over or r.phase == "over":
        return IllegalAction("round_over")
    if r.phase == "peek":
        return IllegalAction("peek_phase")
    seat = r.seats[player]
    if seat.out:
        return IllegalAction("eliminated")
    if seat.frozen:
        return IllegalAction("frozen")
    if at < r.no_double_until:
        return IllegalAction("doubles_paused", until=r.no_double_until)
    if r.pending and r.pending[-1][0] == player:
        return IllegalAction("doubles_closed_own_turn")  # choosing a power target (R-D7)
    if r.phase == "play" and r.current == player and r.stage in ("holding", "power"):
        return IllegalAction("doubles_closed_own_turn")
    if at < seat.blocked_until:
        if seat.blocked_until >= FOREVER:  # R-D6: the fifth miss blocks until the round ends
            return IllegalAction("doubles_blocked_round")
        return IllegalAction("doubles_blocked", until=seat.blocked_until)
    return None


def _place_on_discard(r: RoundState, card: int, spent: bool) -> int:
    r.seq += 1
    r.discard.append(card)
    r.discard_seqs.append(r.seq)
    r.discard_spent.append(spent)
    return r.seq


def _check_target(game: Game, player: int, target: int, other: bool = True) -> SeatState:
    if not 0 <= target < game.players or (other and target == player):
        raise IllegalAction("bad_target")
    if untargetable(game, target):
        raise IllegalAction("target_frozen")  # R-P2, R-X7
    return game.round.seats[target]


def _penalty(game: Game, player: int, count: int, reason: str, ev: Events) -> None:
    r = game.round
    row = r.seats[player].row
    for _ in range(count):
        if not r.pile and not _reshuffle(game, ev):
            return  # no card left anywhere: _post ends the round
        row.append(r.pile.pop())
        ev.append(E.PenaltyCard(player, len(row), reason))
