"""The current player's moves (R-T, R-P, R-A, R-X2..R-X9): peek, draw, take, replace,
throw, the powers, pass, call, contre, end of turn. Each checks everything before it
changes anything.
"""

from __future__ import annotations

from tamalou.core.errors import IllegalAction
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine.common import (
    Events,
    _check_target,
    _has_cards,
    _my_turn,
    _penalty,
    _place_on_discard,
    _power_targets_exist,
    _row_slot,
)
from tamalou.games.tamalou.engine.round_end import _end_round
from tamalou.games.tamalou.engine.turns import (
    _end_turn,
    _finish_turn,
    _power_done,
    _resume_after_pending,
    _right_call,
    _start_turn,
)
from tamalou.games.tamalou.rules import Power
from tamalou.games.tamalou.state import Game


def _peek(game: Game, a: A.Peek, at: int, ev: Events) -> None:
    r = game.round
    if r.phase != "peek":
        raise IllegalAction("peek_over")
    seat = r.seats[a.player]
    if seat.out:
        raise IllegalAction("eliminated")
    if seat.peek_until is not None:
        raise IllegalAction("already_peeked")
    until = min(at + game.rules.peek_ms, r.deal_at + game.rules.peek_phase_max_ms)
    seat.peek_until = until
    shown = tuple(
        (s, c)
        for s in game.rules.peek_slots
        if s <= len(seat.row) and (c := seat.row[s - 1]) is not None
    )
    seat.peeked = list(shown)
    ev.append(E.Peeked(a.player, until))
    ev.append(E.PeekShown(a.player, shown, until, to=(a.player,)))


def _draw(game: Game, a: A.Draw, at: int, ev: Events) -> None:
    r = _my_turn(game, a.player)
    if r.stage != "start":
        raise IllegalAction(_busy(r.stage))
    card = r.pile.pop()
    r.held, r.held_from, r.stage, r.transmitted = card, "pile", "holding", None
    r.acted = True
    r.seats[a.player].peek_open = False  # R-X14
    ev.append(E.Drew(a.player, "pile", None))
    ev.append(E.DrawnCard(a.player, card, to=(a.player,)))


def _busy(stage: str) -> str:
    return {"holding": "already_drawn", "call": "turn_done"}.get(stage, "power_pending")


def _take_discard(game: Game, a: A.TakeDiscard, at: int, ev: Events) -> None:
    r = _my_turn(game, a.player)
    if r.stage != "start":
        raise IllegalAction(_busy(r.stage))
    rules = game.rules
    if r.extra or not rules.draw_from_discard:
        raise IllegalAction("pile_only")  # R-P1, R-X13
    if not r.discard:
        raise IllegalAction("discard_empty")
    if not rules.compiled.takeable[r.discard[-1]]:
        raise IllegalAction("face_card_from_discard")  # R-T2
    if not rules.take_doubled_top and r.discard_spent[-1]:
        raise IllegalAction("doubled_top")  # R-X13 (cabo)
    if not _has_cards(r.seats[a.player]):
        raise IllegalAction("no_slot_to_keep")  # R-X8: a drawn card can only be thrown
    card = r.discard.pop()
    r.discard_seqs.pop()
    r.discard_spent.pop()
    r.held, r.held_from, r.stage, r.transmitted = card, "discard", "holding", None
    r.acted = True
    r.seats[a.player].peek_open = False
    ev.append(E.Drew(a.player, "discard", card))


def _replace(game: Game, a: A.Replace, at: int, ev: Events) -> None:
    r = _my_turn(game, a.player)
    if r.stage != "holding" or r.held is None:
        raise IllegalAction("must_draw_first" if r.stage == "start" else _busy(r.stage))
    seat = r.seats[a.player]
    old = _row_slot(seat, a.slot)
    held, source = r.held, r.held_from
    seat.row[a.slot - 1] = held
    r.held = r.held_from = None
    seq = _place_on_discard(r, old, False)
    ev.append(E.Replaced(a.player, a.slot, old, held if source == "discard" else None, seq))
    # R-T5: the replaced card may give a power; R-X5: only the thrown drawn card does
    _after_discard(game, a.player, old, game.rules.power_from == "discarded", at, ev)


def _throw(game: Game, a: A.Throw, at: int, ev: Events) -> None:
    r = _my_turn(game, a.player)
    if r.stage != "holding" or r.held is None:
        raise IllegalAction("must_draw_first" if r.stage == "start" else _busy(r.stage))
    if r.held_from == "discard":
        raise IllegalAction("must_keep_discard")  # R-T3
    card = r.held
    r.held = r.held_from = None
    seq = _place_on_discard(r, card, False)
    ev.append(E.Threw(a.player, card, seq))
    _after_discard(game, a.player, card, True, at, ev)


def _after_discard(
    game: Game, player: int, card: int, gives_power: bool, at: int, ev: Events
) -> None:
    r = game.round
    compiled = game.rules.compiled
    power = compiled.power[card] if gives_power else None
    if game.rules.open_doubles_ms and r.phase == "play":  # R-X11
        r.window_seq, r.window_rank = r.seq, compiled.rank[card]
        r.window_until = at + game.rules.open_doubles_ms
        r.window_turn_power = (power, compiled.must[card]) if power is not None else None
        r.claims, r.window_powers = [], []
        r.stage = "window"
        r.paused_turn_ms = max(0, r.turn_deadline - at)
        ev.append(E.WindowOpened(r.seq, r.window_until))
        return
    if power is not None and _power_targets_exist(game, player, power):
        r.stage, r.power, r.power_must, r.looked = "power", power, compiled.must[card], None
        ev.append(E.PowerOffered(player, power))
        return
    _finish_turn(game, at, ev)


def _power_source(game: Game, player: int, wanted: tuple[Power, ...]) -> tuple[str, Power]:
    """Which power ``player`` uses now: a doubled one (R-X12), the turn's, or a transmitted
    one (R-P6). Raises when none of ``wanted`` is theirs to use."""
    r = game.round
    if r.phase == "play" and r.pending:
        owner, power, _must = r.pending[-1]
        if owner == player and power in wanted:
            return "pending", power
        if owner == player:
            raise IllegalAction("no_power")
        if r.current == player:
            raise IllegalAction("power_pending")
    r = _my_turn(game, player)
    if r.stage == "power" and r.power in wanted and r.power is not None:
        if r.looked is not None:
            raise IllegalAction("no_power")  # the look is done: swap or pass (R-X3)
        return "turn", r.power
    if r.stage == "start" and r.transmitted in wanted and r.transmitted is not None:
        return "transmitted", r.transmitted
    if r.stage == "holding":
        raise IllegalAction("must_place_held_card")
    raise IllegalAction("no_power")


def _replay(game: Game, a: A.Replay, at: int, ev: Events) -> None:
    r = _my_turn(game, a.player)
    if r.stage != "power" or r.power != Power.REPLAY:
        raise IllegalAction("no_power")
    ev.append(E.Replayed(a.player))
    _start_turn(game, a.player, at, ev, extra=True)  # R-P1: a whole new turn, pile only


def _swap(game: Game, a: A.Swap, at: int, ev: Events) -> None:
    r = game.round
    if r.phase == "play" and not r.pending and r.current == a.player and r.looked is not None:
        _swap_looked(game, a, at, ev)
        return
    source, power = _power_source(game, a.player, (Power.BLIND_SWAP,))
    mine = r.seats[a.player]
    _row_slot(mine, a.slot)
    theirs = _check_target(game, a.player, a.target)
    _row_slot(theirs, a.target_slot)
    i, j = a.slot - 1, a.target_slot - 1
    mine.row[i], theirs.row[j] = theirs.row[j], mine.row[i]
    until = at + game.rules.swap_display_ms
    r.no_double_until = until  # R-D7
    ev.append(E.Swapped(a.player, a.slot, a.target, a.target_slot, source == "transmitted", until))
    _power_done(game, source, power, at, ev)


def _swap_looked(game: Game, a: A.Swap, at: int, ev: Events) -> None:
    """R-X3: after the look, swap the looked card with one of yours (unseen)."""
    r = game.round
    assert r.looked is not None
    if r.stage != "power" or (a.target, a.target_slot) != r.looked:
        raise IllegalAction("not_the_looked_card")
    mine = r.seats[a.player]
    _row_slot(mine, a.slot)
    theirs = _check_target(game, a.player, a.target)
    _row_slot(theirs, a.target_slot)
    i, j = a.slot - 1, a.target_slot - 1
    mine.row[i], theirs.row[j] = theirs.row[j], mine.row[i]
    until = at + game.rules.swap_display_ms
    r.no_double_until = until
    ev.append(E.Swapped(a.player, a.slot, a.target, a.target_slot, False, until))
    if game.rules.swap_shows_target:  # koubo: the target sees both cards, privately
        shown = ((a.target, a.target_slot, theirs.row[j]), (a.player, a.slot, mine.row[i]))
        shown_cards = tuple((s, sl, c) for s, sl, c in shown if c is not None)
        theirs.glimpses = [(s, sl, c, until) for s, sl, c in shown_cards]
        ev.append(E.SwapShown(a.target, shown_cards, until, to=(a.target,)))
    r.looked = None
    _power_done(game, "turn", Power.LOOK_THEN_SWAP, at, ev)


def _look(game: Game, a: A.Look, at: int, ev: Events) -> None:
    r = game.round
    if a.target == a.player:
        kinds: tuple[Power, ...] = (Power.LOOK_OWN, Power.LOOK_ANY)
    else:
        kinds = (Power.LOOK_OPPONENT, Power.LOOK_THEN_SWAP, Power.LOOK_ANY)
    source, power = _power_source(game, a.player, kinds)
    if a.target != a.player:
        _check_target(game, a.player, a.target)
    elif not 0 <= a.target < game.players:
        raise IllegalAction("bad_target")
    card = _row_slot(r.seats[a.target], a.slot)
    until = at + game.rules.look_ms
    r.seats[a.player].look = (a.target, a.slot, card, until)
    ev.append(E.Looked(a.player, a.target, a.slot, source == "transmitted"))
    ev.append(E.LookShown(a.player, a.target, a.slot, card, until, to=(a.player,)))
    if power == Power.LOOK_THEN_SWAP and source == "turn" and _has_cards(r.seats[a.player]):
        r.looked = (a.target, a.slot)  # R-X3: now swap it with one of yours, or pass
        return
    _power_done(game, source, power, at, ev)


def _swap_two(game: Game, a: A.SwapTwo, at: int, ev: Events) -> None:
    """R-X2: two cards of two different players, unseen; the positions are public."""
    r = game.round
    source, power = _power_source(game, a.player, (Power.SWAP_ANY,))
    if a.first == a.second:
        raise IllegalAction("same_player")
    first = _check_target(game, a.player, a.first, other=False)
    second = _check_target(game, a.player, a.second, other=False)
    _row_slot(first, a.first_slot)
    _row_slot(second, a.second_slot)
    i, j = a.first_slot - 1, a.second_slot - 1
    first.row[i], second.row[j] = second.row[j], first.row[i]
    until = at + game.rules.swap_display_ms
    r.no_double_until = until
    ev.append(E.SwappedTwo(a.player, a.first, a.first_slot, a.second, a.second_slot, until))
    _power_done(game, source, power, at, ev)


def _give_top(game: Game, a: A.GiveTop, at: int, ev: Events) -> None:
    """R-X4: the pile's top card, face down and seen by nobody, to another player's row."""
    r = game.round
    source, power = _power_source(game, a.player, (Power.GIVE_TOP,))
    target = _check_target(game, a.player, a.target)
    if not r.pile:
        raise IllegalAction("pile_empty")
    target.row.append(r.pile.pop())
    ev.append(E.GaveTop(a.player, a.target, len(target.row)))
    _power_done(game, source, power, at, ev)


def _pass(game: Game, a: A.Pass, at: int, ev: Events) -> None:
    r = game.round
    if r.phase == "play" and r.pending and r.pending[-1][0] == a.player:
        owner, power, must = r.pending[-1]
        if must:
            raise IllegalAction("power_must_be_used")  # R-X5
        r.pending.pop()
        ev.append(E.PowerPassed(owner, power))
        _resume_after_pending(game, at, ev)
        return
    r = _my_turn(game, a.player)
    if r.stage != "power" or r.power is None:
        raise IllegalAction("no_power")
    if r.power_must and r.looked is None:
        raise IllegalAction("power_must_be_used")  # R-X5
    ev.append(E.PowerPassed(a.player, r.power))
    r.looked = None
    r.power_must = False
    _finish_turn(game, at, ev)


def _end_turn_action(game: Game, a: A.EndTurn, at: int, ev: Events) -> None:
    r = _my_turn(game, a.player)
    if r.stage != "call":
        raise IllegalAction("turn_not_done")
    _end_turn(game, at, ev)


def _call(game: Game, a: A.CallTamalou, at: int, ev: Events) -> None:
    r = _my_turn(game, a.player)
    rules = game.rules
    if rules.call_when == "start_of_turn" and r.stage != "start":
        raise IllegalAction("call_at_start_only")  # R-A1
    if rules.call_when == "end_of_turn" and r.stage != "call":
        raise IllegalAction("call_at_end_only")  # R-X6
    if r.caller is not None:
        raise IllegalAction("already_called")  # R-A3
    seat = r.seats[a.player]
    seat.peek_open = False
    value = rules.compiled.value
    total = sum(value[c] for c in seat.row if c is not None)
    shown = tuple((i + 1, c) for i, c in enumerate(seat.row) if c is not None)
    r.transmitted = None
    if not rules.call_checked or total <= rules.call_threshold:  # R-A2, R-X7
        _right_call(game, a.player, total, False, at, ev)
        return
    until = at + rules.failed_call_reveal_ms
    r.reveals.extend((a.player, s, c, until) for s, c in shown)
    seat.failed_calls += 1
    ev.append(E.Called(a.player, False, total, shown, until, last_round=False))
    if rules.failed_call == "void_round":  # cabo: the round is void
        r.caller = a.player
        _end_round(game, at, "void", ev)
        return
    _penalty(game, a.player, rules.failed_call_penalty_cards, "failed_call", ev)  # R-A4
    _end_turn(game, at, ev)


def _contre(game: Game, a: A.Contre, at: int, ev: Events) -> None:
    """R-X9: at the start of your last turn after a right call; the round's first only."""
    r = _my_turn(game, a.player)
    if not game.rules.contre:
        raise IllegalAction("no_contre")
    if r.caller is None or r.caller == a.player:
        raise IllegalAction("no_call_to_contre")
    if r.contre is not None:
        raise IllegalAction("already_contred")
    if r.stage != "start" or r.extra:
        raise IllegalAction("contre_at_start_only")
    r.contre = a.player
    ev.append(E.Contred(a.player))
