"""The rules of a round and a match: ``new_game``, ``apply``, ``legal_actions``, ``next_deadline``.

Every decision about the game is made here, for every preset: the engine reads the
:class:`Rules` data (R-V, R-X), never a preset's name. ``apply`` either changes the state
and returns the events, or raises :class:`IllegalAction` and leaves the state exactly as it
was: each handler checks everything before it changes anything.

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
from tamalou.games.tamalou.scoring import match_places, places, round_scores
from tamalou.games.tamalou.state import FOREVER, Game, RoundResult, RoundState, SeatState

Events = list[E.Event]

#: A doubled power's owner has this long to use it (R-X12); the turn clock waits meanwhile.
PENDING_POWER_MS = 15_000


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
    game = Game(
        rules, str(seed), players, ai, placeholder, [0.0] * players, now=at, out=[False] * players
    )
    events: Events = []
    _deal(game, at, None, events)
    return game, events


def _active(game: Game) -> list[int]:
    """Seats still in the match (R-X16: elimination)."""
    return [i for i in range(game.players) if not (game.out and game.out[i])]


def _deal(game: Game, at: int, first: int | None, ev: Events) -> None:
    rules = game.rules
    n = game.players
    round_no = len(game.history) + 1
    seed = f"{game.seed}:{round_no}"
    rng = random.Random(f"{seed}:deal")
    deck = list(rules.compiled.deck)
    rng.shuffle(deck)
    active = _active(game)
    if first is None:
        first = active[rng.randrange(len(active))] if len(active) < n else rng.randrange(n)
    k = rules.cards_per_player
    rows: list[list[int | None]] = [[] for _ in range(n)]
    for j, i in enumerate(active):
        rows[i] = list(deck[j * k : (j + 1) * k])
    pile = deck[len(active) * k :]
    seats = [SeatState(row=rows[i], is_ai=game.ai[i], out=i not in active) for i in range(n)]
    game.round = RoundState(round_no, seed, first, seats, pile, [], [], [], at, current=first)
    game.next_round_deadline = None
    ev.append(E.Dealt(round_no, seed, first, tuple(tuple(r) for r in rows), tuple(pile)))  # type: ignore[arg-type]
    ev.append(E.RoundStarted(round_no, first, k, at + rules.peek_phase_max_ms))
    if rules.long_peek:
        _open_long_peek(game, at, ev)


def _open_long_peek(game: Game, at: int, ev: Events) -> None:
    """R-X14: no peek phase; each player's peek slots stay viewable until their first draw."""
    r = game.round
    for i, seat in enumerate(r.seats):
        if seat.out:
            continue
        shown = tuple(
            (s, c)
            for s in game.rules.peek_slots
            if s <= len(seat.row) and (c := seat.row[s - 1]) is not None
        )
        seat.peek_until, seat.peek_open, seat.peeked = at, True, list(shown)
        ev.append(E.PeekShown(i, shown, FOREVER, to=(i,)))
    r.phase = "play"
    _start_turn(game, r.first_player, at, ev)


# -- time ---------------------------------------------------------------------------------


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


def _place_on_discard(r: RoundState, card: int, spent: bool) -> int:
    r.seq += 1
    r.discard.append(card)
    r.discard_seqs.append(r.seq)
    r.discard_spent.append(spent)
    return r.seq


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


def _check_target(game: Game, player: int, target: int, other: bool = True) -> SeatState:
    if not 0 <= target < game.players or (other and target == player):
        raise IllegalAction("bad_target")
    if untargetable(game, target):
        raise IllegalAction("target_frozen")  # R-P2, R-X7
    return game.round.seats[target]


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


def _penalty(game: Game, player: int, count: int, reason: str, ev: Events) -> None:
    r = game.round
    row = r.seats[player].row
    for _ in range(count):
        if not r.pile and not _reshuffle(game, ev):
            return  # no card left anywhere: _post ends the round
        row.append(r.pile.pop())
        ev.append(E.PenaltyCard(player, len(row), reason))


# -- doubles (R-D, R-X10, R-X12, R-X13) ---------------------------------------------------


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


# -- turns (R-T6, R-K, R-X6) --------------------------------------------------------------


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


def _everyone_away(game: Game) -> bool:
    """R-K4: every player but one is away; with AI players at the table, every human.

    A table of AI players only has no human to wait for: the "all but one" count applies.
    """
    seats = [s for s in game.round.seats if not s.out]
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
    return all(s.away for s in game.round.seats if not s.is_ai and not s.out)


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


def first_choice(game: Game, player: int, power: Power) -> A.Action | None:
    """R-X5: a *must* power on timeout: the first legal choice (seats from the next player,
    slots ascending)."""
    options = _power_actions(game, game.round, player, power, game.now)
    n = game.players

    def order(a: A.Action) -> tuple[int, ...]:
        if isinstance(a, A.SwapTwo):
            first, second = (a.first - player - 1) % n, (a.second - player - 1) % n
            return (first, a.first_slot, second, a.second_slot)
        if isinstance(a, A.Swap | A.Look):
            return ((a.target - player - 1) % n, getattr(a, "target_slot", a.slot), a.slot)
        if isinstance(a, A.GiveTop):
            return ((a.target - player - 1) % n,)
        return (0,)

    return min(options, key=order) if options else None


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


# -- end of round and match (R-E, R-M, R-X15, R-X16) ---------------------------------------


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
        if rounds_done:
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
    if over or rounds_done:
        return True, lowest(seats), []
    return False, [], []


def _next_round(game: Game, at: int, ev: Events) -> None:
    last = game.history[-1]
    n = game.players
    active = [i for i in _active(game)]
    rules = game.rules
    if rules.first_player == "rotate":  # R-X17: the seat after the previous starter
        first = next(
            (last.first_player + k) % n
            for k in range(1, n + 1)
            if (last.first_player + k) % n in active
        )
    else:
        best = min(last.totals[i] for i in active)
        tied = [i for i in active if last.totals[i] == best]
        if rules.first_player == "caller_tie" and last.caller is not None:
            # dutch_roi (R-V8): a tie goes to the caller, else the tied player first after him
            start = last.caller
            first = next((start + k) % n for k in range(n) if (start + k) % n in tied)
        else:
            winners = [i for i, p in enumerate(last.places) if p == 1 and i in active] or tied
            order = [(last.first_player + k) % n for k in range(n)]
            first = next(i for i in order if i in winners)  # R-M4; shared: seat order
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
        seat = r.seats[player]
        return [A.Peek(player, at)] if seat.peek_until is None and not seat.out else []
    out: list[A.Action] = []
    if r.phase == "play" and r.pending:
        owner, power, must = r.pending[-1]
        if owner == player:  # R-X12: a doubled power to use (or pass) first
            options = _power_actions(game, r, player, power, at)
            out.extend(options)
            if not (must and options):
                out.append(A.Pass(player, at))
    elif r.phase == "play" and r.current == player:
        out.extend(_turn_actions(game, r, player, at))
    out.extend(double_actions(game, player, at))
    return out


def double_actions(game: Game, player: int, at: int | None = None) -> list[A.Action]:
    """The doubles ``player`` may try on the current discard top: with any of their cards
    (R-D1), or with another player's card (R-X10)."""
    r = game.round
    at = game.now if at is None else at
    window = bool(r.window_until) and r.phase == "play"
    if not window and (not r.discard or r.discard_spent[-1]):
        return []
    if r.current == player and r.stage in ("holding", "power") and r.phase == "play":
        return []  # R-D7, the usual refusal, without building its error
    if doubles_refusal(game, player, at):
        return []
    seq = r.window_seq if window else r.discard_seqs[-1]
    me = r.seats[player]
    if not window and (me.last_double_seq == seq or me.barred_seq == seq):
        return []
    mine = _slots(me)
    out: list[A.Action] = [A.Double(player, s, seq, at) for s in mine]
    if game.rules.play_for_someone:
        gives = mine or [0]
        claimed = {(c[1], c[2]) for c in r.claims if c[0] == player} if window else set()
        for t, s in enumerate(r.seats):
            if t == player or untargetable(game, t) or s.frozen:
                continue
            out.extend(
                A.DoubleFor(player, t, ts, g, seq, at)
                for ts in _slots(s)
                if (t, ts) not in claimed
                for g in gives
            )
    return out


def _slots(seat: SeatState) -> list[int]:
    return [i + 1 for i, c in enumerate(seat.row) if c is not None]


def _turn_actions(game: Game, r: RoundState, p: int, at: int) -> list[A.Action]:
    rules = game.rules
    if r.stage == "holding":
        out: list[A.Action] = [A.Replace(p, s, at) for s in _slots(r.seats[p])]
        if r.held_from == "pile":
            out.append(A.Throw(p, at))
        return out
    if r.stage == "power":
        if r.looked is not None:  # R-X3: swap the looked card with one of yours, or pass
            t, ts = r.looked
            if ts not in _slots(r.seats[t]):  # doubled away meanwhile (R-D1): nothing to swap
                return [A.Pass(p, at)]
            return [*(A.Swap(p, s, t, ts, at) for s in _slots(r.seats[p])), A.Pass(p, at)]
        options = _power_actions(game, r, p, r.power, at)
        return options if r.power_must and options else [*options, A.Pass(p, at)]
    if r.stage == "call":
        return [A.CallTamalou(p, at), A.EndTurn(p, at)]
    if r.stage == "window":
        return []  # R-X11: doubles only, until the window closes
    out = [A.Draw(p, at)]
    if can_take_discard(game, r):
        out.append(A.TakeDiscard(p, at))
    if rules.call_when == "start_of_turn" and _can_call(game, r):
        out.append(A.CallTamalou(p, at))
    if rules.contre and r.caller is not None and r.contre is None and not r.extra:
        out.append(A.Contre(p, at))
    if r.transmitted is not None:
        out.extend(_power_actions(game, r, p, r.transmitted, at))
    return out


def _targets(game: Game, r: RoundState, p: int) -> list[tuple[int, list[int]]]:
    """Other players whose cards a power may pick, in seat order."""
    return [(i, _slots(s)) for i, s in enumerate(r.seats) if i != p and not untargetable(game, i)]


def _power_actions(
    game: Game, r: RoundState, p: int, power: Power | None, at: int
) -> list[A.Action]:
    if power == Power.REPLAY:
        return [A.Replay(p, at)]
    mine = _slots(r.seats[p])
    opponents = _targets(game, r, p)
    if power == Power.BLIND_SWAP:
        swap = A.Swap  # a local name: this list can hold hundreds of actions
        return [swap(p, s, t, ts, at) for s in mine for t, slots in opponents for ts in slots]
    if power == Power.LOOK_OWN:
        return [A.Look(p, p, s, at) for s in mine]
    if power in (Power.LOOK_OPPONENT, Power.LOOK_THEN_SWAP):
        return [A.Look(p, t, s, at) for t, slots in opponents for s in slots]
    if power == Power.LOOK_ANY:
        return [A.Look(p, t, s, at) for t, s_ in [(p, mine), *opponents] for s in s_]
    if power == Power.GIVE_TOP:
        return [A.GiveTop(p, t, at) for t, _ in opponents] if r.pile else []
    if power == Power.SWAP_ANY:
        seats = [(p, mine), *opponents]
        two = A.SwapTwo
        return [
            two(p, a, sa, b, sb, at)
            for i, (a, slots_a) in enumerate(seats)
            for b, slots_b in seats[i + 1 :]
            for sa in slots_a
            for sb in slots_b
        ]
    return []
