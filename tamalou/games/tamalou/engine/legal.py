"""Legal actions: every action a player may take now (the bot builds its buttons from
them), and a *must* power's first choice (R-X5).
"""

from __future__ import annotations

from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou.engine.common import (
    _can_call,
    can_take_discard,
    doubles_refusal,
)
from tamalou.games.tamalou.rules import Power
from tamalou.games.tamalou.state import Game, RoundState, SeatState


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


def contested(game: Game, action: A.Action) -> bool:
    """Whether a press stamped before ``action`` could still change it (the game protocol's
    ``contested``).

    A double, with one's card or another's (R-D4, R-X10), always is: the first press on a
    card wins. In the peek phase a peek is not (R-S3: nothing else may be done, and one
    player's peek never touches another's, R-S5). Any other move is contested unless it is
    the move of the one seat that may act now (the current player, or a doubled power's
    owner, R-X12) while no other seat may double the discard top at its time (R-D1; not a
    spent or doubled top, R-D4; not blocked, R-D6; not frozen, R-A3; R-D7): else a double
    pressed earlier would take the top first, be covered by this move, or draw its penalty
    card from the pile this move draws from (R-D5). The next round, which any seat may
    start, is contested too. Cheap: one check a seat, no listing (``may_double``)."""
    if game.over:
        return True
    r = game.round
    if r.phase == "peek":
        return not isinstance(action, A.Peek)
    if r.phase != "play" or isinstance(action, A.Double | A.DoubleFor):
        return True
    actor = r.pending[-1][0] if r.pending else r.current
    if action.player != actor:
        return True
    at = max(action.at, game.now)
    return any(p != actor and may_double(game, p, at) for p in range(game.players))


def may_double(game: Game, player: int, at: int | None = None) -> bool:
    """Whether ``player`` may try a double now (``double_actions`` lists at least one),
    without listing them (R-D1, R-D4, R-D6, R-D7, R-X10, R-X11)."""
    seat = _double_gate(game, player, game.now if at is None else at)
    if seat is None:
        return False
    if _slots(seat):
        return True
    return game.rules.play_for_someone and bool(double_actions(game, player, at))


def _double_gate(game: Game, player: int, at: int) -> SeatState | None:
    """The seat of ``player`` if a double on the current discard top (or in the open
    window) is open to them now, else None: ``double_actions`` and ``may_double``."""
    r = game.round
    window = bool(r.window_until) and r.phase == "play"
    if not window and (not r.discard or r.discard_spent[-1]):
        return None
    if r.current == player and r.stage in ("holding", "power") and r.phase == "play":
        return None  # R-D7, the usual refusal, without building its error
    if doubles_refusal(game, player, at):
        return None
    seq = r.window_seq if window else r.discard_seqs[-1]
    me = r.seats[player]
    if not window and (me.last_double_seq == seq or me.barred_seq == seq):
        return None
    return me


def double_actions(game: Game, player: int, at: int | None = None) -> list[A.Action]:
    """The doubles ``player`` may try on the current discard top: with any of their cards
    (R-D1), or with another player's card (R-X10)."""
    r = game.round
    at = game.now if at is None else at
    me = _double_gate(game, player, at)
    if me is None:
        return []
    window = bool(r.window_until) and r.phase == "play"
    seq = r.window_seq if window else r.discard_seqs[-1]
    mine = _slots(me)
    double = A.Double
    out: list[A.Action] = [double(player, s, seq, at) for s in mine]
    if game.rules.play_for_someone:
        # the longest listing of the variants (every card of every other player times every
        # card of yours, up to a hundred objects, listed at every step): local names,
        # untargetable() inlined, and each DoubleFor built without its dataclass __init__
        # (object.__new__ and the six slot stores: the same object, equal and of the same
        # repr, about twice as fast in CPython 3.11; tests/games/tamalou/
        # test_listing_digest.py pins the listing and DoubleFor's fields)
        gives = mine or [0]
        claimed = {(c[1], c[2]) for c in r.claims if c[0] == player} if window else None
        shielded = r.caller if game.rules.caller_untargetable else None  # R-X7
        double_for = A.DoubleFor
        new = double_for.__new__
        append = out.append
        for t, s in enumerate(r.seats):
            if t in (player, shielded) or s.out or s.frozen:
                continue
            for ts, c in enumerate(s.row, 1):
                if c is None or (claimed and (t, ts) in claimed):
                    continue
                for g in gives:
                    append(a := new(double_for))
                    a.player = player
                    a.target = t
                    a.target_slot = ts
                    a.slot = g
                    a.seq = seq
                    a.at = at
    return out


def _slots(seat: SeatState) -> list[int]:
    return [i for i, c in enumerate(seat.row, 1) if c is not None]


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
    shielded = r.caller if game.rules.caller_untargetable else None  # untargetable(), inlined
    return [(i, _slots(s)) for i, s in enumerate(r.seats) if i != p and not s.out and i != shielded]


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
