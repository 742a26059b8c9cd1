"""The rules of a round and a match: ``new_game``, ``apply``, ``legal_actions``, ``next_deadline``.

Every decision about the game is made here. ``apply`` either changes the state and returns
the events, or raises :class:`IllegalAction` and leaves the state exactly as it was: each
handler checks everything before it changes anything.

Time is an input: a deadline that has passed must be applied with :class:`Tick` before any
other action (``apply`` refuses with ``deadline_pending``); :func:`step` does both.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tamalou.core.errors import IllegalAction
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.rules import UNTIL_END, Power, Rules
from tamalou.games.tamalou.scoring import places, round_scores
from tamalou.games.tamalou.state import FOREVER, Game, RoundResult, RoundState, SeatState

Events = list[E.Event]


# -- set-up (R-S) -------------------------------------------------------------------------


def new_game(
    rules: Rules, players: int, seed: str | int, at: int = 0, ai: list[bool] | None = None
) -> tuple[Game, Events]:
    """A new match with its first round dealt (R-S1)."""
    if not rules.min_players <= players <= rules.max_players:
        raise IllegalAction("bad_player_count", min=rules.min_players, max=rules.max_players)
    unsupported = rules.unsupported()
    if unsupported:
        raise IllegalAction("unsupported_rules", what=", ".join(unsupported))
    ai = list(ai) if ai is not None else [False] * players
    if len(ai) != players:
        raise IllegalAction("bad_player_count", min=players, max=players)
    placeholder = RoundState(0, "", 0, [], [], [], [], [], at)
    game = Game(rules, str(seed), players, ai, placeholder, [0.0] * players, now=at)
    events: Events = []
    _deal(game, at, None, events)
    return game, events


def _deal(game: Game, at: int, first: int | None, ev: Events) -> None:
    rules = game.rules
    n = game.players
    round_no = len(game.history) + 1
    seed = f"{game.seed}:{round_no}"
    rng = random.Random(f"{seed}:deal")
    deck = list(rules.compiled.deck)
    rng.shuffle(deck)
    if first is None:
        first = rng.randrange(n)  # R-S4
    k = rules.cards_per_player
    rows: list[list[int | None]] = [list(deck[i * k : (i + 1) * k]) for i in range(n)]
    pile = deck[n * k :]
    seats = [SeatState(row=rows[i], is_ai=game.ai[i]) for i in range(n)]
    game.round = RoundState(round_no, seed, first, seats, pile, [], [], [], at, current=first)
    game.next_round_deadline = None
    ev.append(E.Dealt(round_no, seed, first, tuple(tuple(r) for r in rows), tuple(pile)))  # type: ignore[arg-type]
    ev.append(E.RoundStarted(round_no, first, k, at + rules.peek_phase_max_ms))


# -- time ---------------------------------------------------------------------------------


def next_deadline(game: Game) -> int | None:
    """When the clock next changes the game, in ms; ``None`` if it waits for players."""
    if game.over:
        return None
    r = game.round
    phase = r.phase
    if phase == "play":
        return r.turn_deadline
    if phase == "peek":
        limit = r.deal_at + game.rules.peek_phase_max_ms
        ends = [s.peek_until for s in r.seats]
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
        elif r.phase == "play":
            _timeout(game, due, ev)
        elif r.phase == "final":
            _end_round(game, due, "called", ev)
        else:
            _next_round(game, due, ev)
        _post(game, due, ev)


# -- apply --------------------------------------------------------------------------------


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


# -- checks -------------------------------------------------------------------------------


def _row_slot(seat: SeatState, slot: int) -> int:
    if not 1 <= slot <= len(seat.row):
        raise IllegalAction("bad_slot", slot=slot)
    card = seat.row[slot - 1]
    if card is None:
        raise IllegalAction("empty_slot", slot=slot)
    return card


def _my_turn(game: Game, player: int) -> RoundState:
    r = game.round
    if r.phase == "peek":
        raise IllegalAction("peek_phase")
    if r.phase == "over":
        raise IllegalAction("round_over")
    if r.phase == "final" or r.current != player:
        raise IllegalAction("not_your_turn")
    return r


def can_take_discard(game: Game, r: RoundState) -> bool:
    return bool(r.discard) and not r.extra and game.rules.compiled.takeable[r.discard[-1]]


def _can_call(game: Game, r: RoundState) -> bool:
    return r.caller is None  # R-P1: the Jack's turn is a whole turn, its start included


def _power_targets_exist(game: Game, player: int, power: Power) -> bool:
    """R-P4: a power with no possible target is not offered."""
    r = game.round
    mine = any(c is not None for c in r.seats[player].row)
    if power == Power.REPLAY:
        return True
    if power == Power.LOOK_OWN:
        return mine
    others = any(
        i != player and not s.frozen and any(c is not None for c in s.row)
        for i, s in enumerate(r.seats)
    )
    if power == Power.BLIND_SWAP:
        return mine and others
    if power == Power.LOOK_OPPONENT:
        return others
    return mine or others  # LOOK_ANY


def doubles_refusal(game: Game, player: int, at: int) -> IllegalAction | None:
    """Why ``player`` may not double now (R-D7, R-D6, R-S3), or None."""
    r = game.round
    if game.over or r.phase == "over":
        return IllegalAction("round_over")
    if r.phase == "peek":
        return IllegalAction("peek_phase")
    seat = r.seats[player]
    if seat.frozen:
        return IllegalAction("frozen")
    if at < r.no_double_until:
        return IllegalAction("doubles_paused", until=r.no_double_until)
    if r.phase == "play" and r.current == player and r.stage != "start":
        return IllegalAction("doubles_closed_own_turn")
    if at < seat.blocked_until:
        return IllegalAction(
            "doubles_blocked", until=None if seat.blocked_until >= FOREVER else seat.blocked_until
        )
    return None


# -- handlers -----------------------------------------------------------------------------


def _peek(game: Game, a: A.Peek, at: int, ev: Events) -> None:
    r = game.round
    if r.phase != "peek":
        raise IllegalAction("peek_over")
    seat = r.seats[a.player]
    if seat.peek_until is not None:
        raise IllegalAction("already_peeked")
    until = min(at + game.rules.peek_ms, r.deal_at + game.rules.peek_phase_max_ms)
    seat.peek_until = until
    shown = tuple((s, c) for s in game.rules.peek_slots if (c := seat.row[s - 1]) is not None)
    ev.append(E.Peeked(a.player, until))
    ev.append(E.PeekShown(a.player, shown, until, to=(a.player,)))


def _draw(game: Game, a: A.Draw, at: int, ev: Events) -> None:
    r = _my_turn(game, a.player)
    if r.stage != "start":
        raise IllegalAction("already_drawn" if r.stage == "holding" else "power_pending")
    card = r.pile.pop()
    r.held, r.held_from, r.stage, r.transmitted = card, "pile", "holding", None
    r.acted = True
    ev.append(E.Drew(a.player, "pile", None))
    ev.append(E.DrawnCard(a.player, card, to=(a.player,)))


def _take_discard(game: Game, a: A.TakeDiscard, at: int, ev: Events) -> None:
    r = _my_turn(game, a.player)
    if r.stage != "start":
        raise IllegalAction("already_drawn" if r.stage == "holding" else "power_pending")
    if r.extra:
        raise IllegalAction("pile_only")
    if not r.discard:
        raise IllegalAction("discard_empty")
    if not game.rules.compiled.takeable[r.discard[-1]]:
        raise IllegalAction("face_card_from_discard")  # R-T2
    card = r.discard.pop()
    r.discard_seqs.pop()
    r.discard_spent.pop()
    r.held, r.held_from, r.stage, r.transmitted = card, "discard", "holding", None
    r.acted = True
    ev.append(E.Drew(a.player, "discard", card))


def _place_on_discard(r: RoundState, card: int, spent: bool) -> int:
    r.seq += 1
    r.discard.append(card)
    r.discard_seqs.append(r.seq)
    r.discard_spent.append(spent)
    return r.seq


def _replace(game: Game, a: A.Replace, at: int, ev: Events) -> None:
    r = _my_turn(game, a.player)
    if r.stage != "holding" or r.held is None:
        raise IllegalAction("must_draw_first" if r.stage == "start" else "power_pending")
    seat = r.seats[a.player]
    old = _row_slot(seat, a.slot)
    held, source = r.held, r.held_from
    seat.row[a.slot - 1] = held
    r.held = r.held_from = None
    seq = _place_on_discard(r, old, False)
    ev.append(E.Replaced(a.player, a.slot, old, held if source == "discard" else None, seq))
    _after_discard(game, a.player, old, at, ev)  # R-T5: the replaced card may give a power


def _throw(game: Game, a: A.Throw, at: int, ev: Events) -> None:
    r = _my_turn(game, a.player)
    if r.stage != "holding" or r.held is None:
        raise IllegalAction("must_draw_first" if r.stage == "start" else "power_pending")
    if r.held_from == "discard":
        raise IllegalAction("must_keep_discard")  # R-T3
    card = r.held
    r.held = r.held_from = None
    seq = _place_on_discard(r, card, False)
    ev.append(E.Threw(a.player, card, seq))
    _after_discard(game, a.player, card, at, ev)


def _after_discard(game: Game, player: int, card: int, at: int, ev: Events) -> None:
    r = game.round
    power = game.rules.compiled.power[card]
    if power is not None and _power_targets_exist(game, player, power):
        r.stage, r.power = "power", power
        ev.append(E.PowerOffered(player, power))
        return
    _end_turn(game, at, ev)


def _power_for(game: Game, r: RoundState, player: int, wanted: tuple[Power, ...]) -> bool:
    """Which way the current player may use ``wanted`` now: True if transmitted (R-P6)."""
    if r.stage == "power" and r.power in wanted:
        return False
    if r.stage == "start" and r.transmitted in wanted:
        return True
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
    r = _my_turn(game, a.player)
    transmitted = _power_for(game, r, a.player, (Power.BLIND_SWAP,))
    mine = r.seats[a.player]
    _row_slot(mine, a.slot)
    if a.target == a.player or not 0 <= a.target < game.players:
        raise IllegalAction("bad_target")
    theirs = r.seats[a.target]
    if theirs.frozen:
        raise IllegalAction("target_frozen")  # R-P2
    _row_slot(theirs, a.target_slot)
    i, j = a.slot - 1, a.target_slot - 1
    mine.row[i], theirs.row[j] = theirs.row[j], mine.row[i]
    until = at + game.rules.swap_display_ms
    r.no_double_until = until  # R-D7
    ev.append(E.Swapped(a.player, a.slot, a.target, a.target_slot, transmitted, until))
    _power_used(game, Power.BLIND_SWAP, transmitted, at, ev)


def _look(game: Game, a: A.Look, at: int, ev: Events) -> None:
    r = _my_turn(game, a.player)
    kinds = (Power.LOOK_OWN,) if a.target == a.player else (Power.LOOK_OPPONENT,)
    transmitted = _power_for(game, r, a.player, (*kinds, Power.LOOK_ANY))
    if not 0 <= a.target < game.players:
        raise IllegalAction("bad_target")
    card = _row_slot(r.seats[a.target], a.slot)
    until = at + game.rules.look_ms
    r.seats[a.player].look = (a.target, a.slot, card, until)
    ev.append(E.Looked(a.player, a.target, a.slot, transmitted))
    ev.append(E.LookShown(a.player, a.target, a.slot, card, until, to=(a.player,)))
    power = r.power if not transmitted else r.transmitted
    _power_used(game, power or Power.LOOK_OWN, transmitted, at, ev)


def _power_used(game: Game, power: Power, transmitted: bool, at: int, ev: Events) -> None:
    r = game.round
    if not transmitted and power in game.rules.transmit_powers:
        r.transmit_next = power  # R-P6: a transmitted power is not transmitted again
    _end_turn(game, at, ev)


def _pass(game: Game, a: A.Pass, at: int, ev: Events) -> None:
    r = _my_turn(game, a.player)
    if r.stage != "power" or r.power is None:
        raise IllegalAction("no_power")
    ev.append(E.PowerPassed(a.player, r.power))
    _end_turn(game, at, ev)


def _call(game: Game, a: A.CallTamalou, at: int, ev: Events) -> None:
    r = _my_turn(game, a.player)
    if r.stage != "start":
        raise IllegalAction("call_at_start_only")  # R-A1
    if r.caller is not None:
        raise IllegalAction("already_called")  # R-A3
    rules = game.rules
    seat = r.seats[a.player]
    value = rules.compiled.value
    total = sum(value[c] for c in seat.row if c is not None)
    shown = tuple((i + 1, c) for i, c in enumerate(seat.row) if c is not None)
    r.transmitted = None
    if total <= rules.call_threshold:  # R-A2
        r.caller = a.player
        seat.frozen = rules.caller_frozen
        r.turns_left = game.players - 1
        r.reveals.extend((a.player, s, c, FOREVER) for s, c in shown)
        ev.append(E.Called(a.player, True, total, shown, None))
    else:  # R-A4
        until = at + rules.failed_call_reveal_ms
        r.reveals.extend((a.player, s, c, until) for s, c in shown)
        seat.failed_calls += 1
        ev.append(E.Called(a.player, False, total, shown, until))
        _penalty(game, a.player, rules.failed_call_penalty_cards, "failed_call", ev)
    _end_turn(game, at, ev)


def _penalty(game: Game, player: int, count: int, reason: str, ev: Events) -> None:
    r = game.round
    row = r.seats[player].row
    for _ in range(count):
        if not r.pile and not _reshuffle(game, ev):
            return  # no card left anywhere: _post ends the round
        row.append(r.pile.pop())
        ev.append(E.PenaltyCard(player, len(row), reason))


def _double(game: Game, a: A.Double, at: int, ev: Events) -> None:
    refusal = doubles_refusal(game, a.player, at)
    if refusal is not None:
        raise refusal
    r = game.round
    seat = r.seats[a.player]
    if not 1 <= a.seq <= r.seq:
        raise IllegalAction("no_such_card")  # bad input, not a miss: no card had that number
    if a.seq == seat.last_double_seq and a.slot == seat.last_double_slot:
        # a repeated click on your own winning double: its slot is a hole by now, so this
        # check comes before the slot's. Another slot on that card is a later double (R-D4).
        raise IllegalAction("already_doubled")
    card = _row_slot(seat, a.slot)
    compiled = game.rules.compiled
    on_top = bool(r.discard) and r.discard_seqs[-1] == a.seq and not r.discard_spent[-1]
    if on_top and compiled.rank[card] == compiled.rank[r.discard[-1]]:
        r.discard_spent[-1] = True
        seat.row[a.slot - 1] = None
        seq = _place_on_discard(r, card, True)  # R-P5: no power, and cannot be doubled
        seat.misses, seat.blocked_until, seat.last_double_seq = 0, 0, a.seq
        seat.last_double_slot = a.slot
        ev.append(E.Doubled(a.player, a.slot, card, seq))
        if all(c is None for c in seat.row):
            _end_round(game, at, "empty_row", ev)  # R-D8
        return
    # R-D5: a miss, shown to everyone, and a penalty card; R-D6: blocks escalate
    blocks = game.rules.double_blocks_ms
    seat.misses += 1
    block = blocks[min(seat.misses, len(blocks)) - 1]
    seat.blocked_until = FOREVER if block == UNTIL_END else at + block
    reason = "wrong_rank" if on_top else "too_late"
    until = None if seat.blocked_until >= FOREVER else seat.blocked_until
    ev.append(E.DoubleMissed(a.player, a.slot, card, reason, seat.misses, until))
    _penalty(game, a.player, game.rules.miss_penalty_cards, "missed_double", ev)


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
    A.NextRound: _next_round_action,
}


# -- turns (R-T6, R-K) --------------------------------------------------------------------


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
    r.transmitted = None
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


def _end_turn(game: Game, at: int, ev: Events) -> None:
    r = game.round
    if r.phase != "play":
        return
    player = r.current
    r.stage, r.held, r.held_from, r.power, r.extra, r.transmitted = (
        "start",
        None,
        None,
        None,
        False,
        None,
    )
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
    while r.seats[nxt].frozen:
        nxt = (nxt + 1) % n
    _start_turn(game, nxt, at, ev)


def _everyone_away(game: Game) -> bool:
    """R-K4: every player but one is away; with AI players at the table, every human.

    A table of AI players only has no human to wait for: the "all but one" count applies.
    """
    seats = game.round.seats
    if not any(s.away for s in seats):
        return False  # the usual case, checked at every end of turn
    humans = [s for s in seats if not s.is_ai]
    if humans and len(humans) < len(seats):
        return all(s.away for s in humans)
    return sum(1 for s in seats if not s.away) <= 1


def abandoned(game: Game) -> bool:
    """R-K4: the round ended with every human away and no next round on its way: the table
    has nobody left to play and closes."""
    if game.over or game.round.phase != "over" or game.next_round_deadline is not None:
        return False
    return all(s.away for s in game.round.seats if not s.is_ai)


def display_moments(game: Game) -> set[int]:
    """When the public view changes with no action: the fuse of a turn's last seconds
    starts (R-K1), doubles paused by a Queen swap open again (R-D7), a player's double
    block ends (R-D6)."""
    r = game.round
    if game.over or r.phase not in ("play", "final"):
        return set()
    moments = {r.no_double_until} if r.no_double_until else set()
    moments.update(s.blocked_until for s in r.seats if 0 < s.blocked_until < FOREVER)
    if r.phase == "play":
        moments.add(r.turn_deadline - game.rules.fuse_ms)
    return moments


def _timeout(game: Game, at: int, ev: Events) -> None:
    """R-K2: the clock plays for the current player, never using a power or calling."""
    r = game.round
    player = r.current
    seat = r.seats[player]
    if r.stage == "holding" and r.held is not None:
        auto = "throw" if r.held_from == "pile" else "return"
        _place_on_discard(r, r.held, False)
    elif r.stage == "power":
        auto = "pass"
    else:
        auto = "draw_throw"
        _place_on_discard(r, r.pile.pop(), False)
    r.held = r.held_from = None
    seat.timeouts += 1
    if not r.acted:
        seat.short = True  # R-K3: only a turn let pass without playing
    if seat.timeouts >= game.rules.timeouts_until_away:
        seat.away = True  # R-K4
    ev.append(E.TimedOut(player, auto, seat.away))
    card = r.discard[-1]
    if auto != "pass":
        ev.append(E.Threw(player, card, r.seq))
    _end_turn(game, at, ev)


# -- end of round and match (R-E, R-M) ----------------------------------------------------


def _end_round(game: Game, at: int, reason: str, ev: Events) -> None:
    r = game.round
    if r.phase == "over":
        return
    rules = game.rules
    if r.held is not None:  # a card in hand is nobody's: it goes to the discard
        _place_on_discard(r, r.held, False)
        r.held = r.held_from = None
    r.phase, r.stage, r.end_reason = "over", "start", reason
    value = rules.compiled.value
    hands = [list(s.row) for s in r.seats]
    totals = [sum(value[c] for c in row if c is not None) for row in hands]
    counts = [sum(1 for c in row if c is not None) for row in hands]
    ranked = places(totals, counts, r.caller)
    failed = [s.failed_calls for s in r.seats]
    scores = round_scores(rules.scoring, totals, r.caller, failed)
    cumulative = game.cumulative
    for i, s in enumerate(scores):
        cumulative[i] += s
        if rules.exact_target_falls_to is not None and cumulative[i] == rules.target:
            cumulative[i] = rules.exact_target_falls_to
    game.history.append(
        RoundResult(r.round_no, reason, hands, totals, ranked, scores, r.caller, r.first_player)
    )
    over = any(c > rules.target for c in cumulative) or (
        rules.max_rounds is not None and len(game.history) >= rules.max_rounds
    )
    if over:  # R-M3
        best = min(cumulative)
        game.over = True
        game.winners = [i for i, c in enumerate(cumulative) if c == best]
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
            r.caller,
            over,
            tuple(game.winners),
        )
    )


def _next_round(game: Game, at: int, ev: Events) -> None:
    last = game.history[-1]
    winners = [i for i, p in enumerate(last.places) if p == 1]
    n = game.players
    order = [(last.first_player + k) % n for k in range(n)]
    first = next(i for i in order if i in winners)  # R-M4; a shared first place: seat order
    away = [s.away for s in game.round.seats]
    _deal(game, at, first, ev)
    for seat, was_away in zip(game.round.seats, away, strict=True):
        seat.away = was_away  # away players stay away until they act (R-K4)


# -- legal actions ------------------------------------------------------------------------


def legal_actions(game: Game, player: int, at: int | None = None) -> list[A.Action]:
    """Every action ``player`` may take now, stamped ``at`` (default: the game's time).

    The bot builds its buttons from this list.
    """
    if game.over or not 0 <= player < game.players:
        return []
    r = game.round
    at = game.now if at is None else max(at, game.now)
    if r.phase == "over":
        return [A.NextRound(player, at)]
    if r.phase == "peek":
        return [A.Peek(player, at)] if r.seats[player].peek_until is None else []
    out: list[A.Action] = []
    if r.phase == "play" and r.current == player:
        out.extend(_turn_actions(game, r, player, at))
    out.extend(double_actions(game, player, at))
    return out


def double_actions(game: Game, player: int, at: int | None = None) -> list[A.Action]:
    """The doubles ``player`` may try on the current discard top (any of their cards)."""
    r = game.round
    at = game.now if at is None else at
    if not r.discard or r.discard_spent[-1]:
        return []
    if r.current == player and r.stage != "start" and r.phase == "play":
        return []  # R-D7, the usual refusal, without building its error
    if doubles_refusal(game, player, at):
        return []
    seq = r.discard_seqs[-1]
    if r.seats[player].last_double_seq == seq:
        return []
    return [
        A.Double(player, i + 1, seq, at) for i, c in enumerate(r.seats[player].row) if c is not None
    ]


def _slots(seat: SeatState) -> list[int]:
    return [i + 1 for i, c in enumerate(seat.row) if c is not None]


def _turn_actions(game: Game, r: RoundState, p: int, at: int) -> list[A.Action]:
    if r.stage == "holding":
        out: list[A.Action] = [A.Replace(p, s, at) for s in _slots(r.seats[p])]
        if r.held_from == "pile":
            out.append(A.Throw(p, at))
        return out
    if r.stage == "power":
        return [*_power_actions(game, r, p, r.power, at), A.Pass(p, at)]
    out = [A.Draw(p, at)]
    if can_take_discard(game, r):
        out.append(A.TakeDiscard(p, at))
    if _can_call(game, r):
        out.append(A.CallTamalou(p, at))
    if r.transmitted is not None:
        out.extend(_power_actions(game, r, p, r.transmitted, at))
    return out


def _power_actions(
    game: Game, r: RoundState, p: int, power: Power | None, at: int
) -> list[A.Action]:
    if power == Power.REPLAY:
        return [A.Replay(p, at)]
    mine = _slots(r.seats[p])
    opponents = [(i, _slots(s)) for i, s in enumerate(r.seats) if i != p and not s.frozen]
    if power == Power.BLIND_SWAP:
        swap = A.Swap  # a local name: this list can hold hundreds of actions
        return [swap(p, s, t, ts, at) for s in mine for t, slots in opponents for ts in slots]
    if power == Power.LOOK_OWN:
        return [A.Look(p, p, s, at) for s in mine]
    if power == Power.LOOK_OPPONENT:
        return [A.Look(p, t, s, at) for t, slots in opponents for s in slots]
    if power == Power.LOOK_ANY:
        return [A.Look(p, t, s, at) for t, s_ in [(p, mine), *opponents] for s in s_]
    return []
