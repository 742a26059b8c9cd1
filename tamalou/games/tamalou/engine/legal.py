"""Legal actions: every action a player may take now (the bot builds its buttons from
them), and a *must* power's first choice (R-X5).
"""

from __future__ import annotations

from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou.engine.common import (
    _can_call,
    can_take_discard,
    doubles_refusal,
    untargetable,
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
