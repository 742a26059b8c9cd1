"""The rules of a Kalooki round and match: ``new_game``, ``apply``, ``legal_actions``,
``next_deadline``.

Every decision about the game is made here (meld arithmetic in :mod:`.melds`). ``apply``
either changes the state and returns the events, or raises :class:`IllegalAction` and leaves
the state exactly as it was: each handler checks everything before it changes anything.

Time is an input: a deadline that has passed must be applied with :class:`Tick` before any
other action (``apply`` refuses with ``deadline_pending``); :func:`step` does both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from tamalou.core.chance import rng_for, shuffled
from tamalou.core.errors import IllegalAction
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.melds import (
    DECK,
    MAX_RUN,
    candidate_runs,
    candidate_sets,
    find_contract,
    normalize,
    points,
    positions,
    rank_of,
    run_suit,
    suit_of,
)
from tamalou.games.kalooki.rules import RUN, SET, Rules, build_pack
from tamalou.games.kalooki.scoring import hand_points, places, round_scores
from tamalou.games.kalooki.state import Game, Meld, RoundResult, RoundState, SeatState

Events = list[E.Event]


# -- set-up (K-S) -------------------------------------------------------------------------


def new_game(
    rules: Rules, players: int, seed: str | int, at: int = 0, ai: list[bool] | None = None
) -> tuple[Game, Events]:
    """A new match; the first dealer is drawn at random (K-S1) and round 1 is dealt."""
    if not rules.min_players <= players <= rules.max_players:
        raise IllegalAction("bad_player_count", min=rules.min_players, max=rules.max_players)
    ai = list(ai) if ai is not None else [False] * players
    if len(ai) != players:
        raise IllegalAction("bad_player_count", min=players, max=players)
    placeholder = RoundState(0, 0, "", 0, [], [], [], [], None, False, 0)
    game = Game(rules, str(seed), players, ai, placeholder, [0.0] * players, now=at)
    dealer = rng_for(game.seed, "dealer").randrange(players)
    events: Events = []
    _deal(game, 0, dealer, 1, at, events)
    return game, events


def _deal(game: Game, index: int, dealer: int, deal_no: int, at: int, ev: Events) -> None:
    """K-S2: shuffle, deal one at a time from the dealer's left, turn the up-card."""
    rules = game.rules
    n = game.players
    decks, jokers = rules.pack(n)
    seed = f"{game.seed}:{index + 1}:{deal_no}"
    deck = shuffled(build_pack(decks, jokers), seed, "deal")
    k = rules.cards_for(index)
    hands: list[list[int]] = [[] for _ in range(n)]
    pos = 0
    for _ in range(k):
        for j in range(1, n + 1):
            hands[(dealer + j) % n].append(deck[pos])
            pos += 1
    up = deck[pos]
    pile = deck[pos + 1 :][::-1]  # the card after the up-card is drawn first
    away = [s.away for s in game.round.seats] if game.round.seats else [False] * n
    seats = [SeatState(hand=hands[i], is_ai=game.ai[i], away=away[i]) for i in range(n)]
    first = (dealer + 1) % n
    # K-S3: the up-card is the dealer's discard, live
    game.round = RoundState(
        index + 1, deal_no, seed, dealer, seats, [], pile, [up], dealer, True, first, discard_at=at
    )
    game.next_round_deadline = None
    ev.append(
        E.Dealt(index + 1, deal_no, seed, dealer, tuple(tuple(h) for h in hands), up, tuple(pile))
    )
    spec = rules.rounds[index]
    ev.append(E.RoundStarted(index + 1, deal_no, dealer, first, k, spec.contract, up, len(pile)))
    for i, h in enumerate(hands):
        ev.append(E.HandDealt(i, tuple(h), (i,)))
    _start_turn(game, first, at, ev)


def contract(game: Game) -> tuple[int, ...]:
    return tuple(game.rules.rounds[game.round.round_no - 1].contract)


# -- time (K-K) ---------------------------------------------------------------------------


def next_deadline(game: Game) -> int | None:
    """When the clock next changes the game, in ms; ``None`` if it waits for players."""
    if game.over:
        return None
    r = game.round
    if r.phase == "over":
        return game.next_round_deadline
    if abandoned(game):
        return None  # K-K4: nobody human left; the table closes
    if r.seats[r.current].away:
        return r.draw_at  # K-K4: an away player is auto-played after the call window
    return r.turn_deadline


def display_moments(game: Game) -> set[int]:
    """When the public view changes with no action: the draw opens after the call window
    (K-K2), the fuse of the last seconds starts (K-K1)."""
    r = game.round
    if game.over or r.phase != "play":
        return set()
    return {r.draw_at, r.turn_deadline - game.rules.compiled.fuse_ms}


def abandoned(game: Game) -> bool:
    """K-K4: every human player is away: the match is abandoned, no result. A table of AI
    players only is abandoned when every seat is away (nobody would ever act again)."""
    if game.over:
        return False
    seats = game.round.seats
    if not any(s.away for s in seats):
        return False  # the usual case, asked at every action
    humans = [s for s in seats if not s.is_ai] or seats
    return all(s.away for s in humans)


def turn(game: Game) -> tuple[int, tuple[int, int, int]] | None:
    """The seat whose turn it is and the turn's key, new at each turn started (its round,
    deal and number in the deal); None between rounds, once the match is over and when
    nobody will act (K-K4). A call waiting for the current player's answer (K-CL4) is part
    of their turn, and the call window (K-K2) too: neither starts a turn."""
    r = game.round
    if game.over or r.phase != "play" or abandoned(game):
        return None
    return r.current, (r.round_no, r.deal_no, r.turns)


def _advance(game: Game, at: int, ev: Events) -> None:
    while True:
        due = next_deadline(game)
        if due is None or due > at:
            return
        game.now = max(game.now, due)
        if game.round.phase == "over":
            _next_round(game, due, ev)
        else:
            _timeout(game, due, ev)


def _start_turn(game: Game, player: int, at: int, ev: Events) -> None:
    r = game.round
    compiled = game.rules.compiled
    r.current, r.stage, r.pending_call, r.drawn = player, "draw", None, None
    r.turns += 1
    r.jokers_only = r.down_this_turn = False
    window = compiled.call_window_ms if r.live and _anyone_may_call(game) else 0
    r.draw_at = at + window  # K-K2
    seat = r.seats[player]
    r.turn_deadline = r.draw_at + (compiled.short_turn_ms if seat.short else compiled.turn_ms)
    ev.append(E.TurnStarted(player, r.draw_at, r.turn_deadline, seat.short))


def _timeout(game: Game, at: int, ev: Events) -> None:
    """K-K3: draw from the pile (allowing a pending call), discard the card drawn if it can,
    else the highest-point non-joker; an all-joker hand ends the turn."""
    r = game.round
    player = r.current
    seat = r.seats[player]
    auto = "discard"
    if r.stage == "draw":
        auto = "draw_discard"
        if r.pending_call is not None and not _allow_call(game, r.pending_call, False, at, ev):
            return
        if not _draw_from_pile(game, player, at, ev):
            return
    seat.timeouts += 1
    seat.short = True
    if seat.timeouts >= game.rules.timeouts_until_away:
        seat.away = True
    naturals = [c for c in seat.hand if c % DECK < 52]
    if not naturals:
        ev.append(E.TimedOut(player, "end_turn", seat.away))
        ev.append(E.TurnEnded(player))
        _next_turn(game, at, ev)
        return
    card = r.drawn
    if card is None or card not in naturals:
        card = max(naturals, key=lambda c: (points(c), -c))
    ev.append(E.TimedOut(player, auto, seat.away))
    _discard(game, player, card, at, ev)


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
        seat.timeouts, seat.short, seat.away = 0, False, False  # K-K4: they act again
        try:
            handler(game, action, at, ev)
        except IllegalAction:
            seat.timeouts, seat.short, seat.away = before
            raise
    else:
        handler(game, action, at, ev)
    game.now = at
    return ev


def step(game: Game, action: A.Action) -> Events:
    """Apply the deadlines due by ``action.at`` then the action (a convenience for callers)."""
    ev = apply(game, A.Tick(action.at)) if not isinstance(action, A.Tick) else []
    return ev + apply(game, action)


# -- the draw pile (K-E2..K-E5) -----------------------------------------------------------


def _pile_card(game: Game, at: int, ev: Events) -> int | None:
    """The draw pile's top; reshuffles once (K-E3); ``None`` if the round became void and
    was redealt (K-E4/K-E5): the caller stops there."""
    r = game.round
    if not r.pile:
        if r.reshuffles >= 1 or len(r.discard) <= 1:
            _void(game, at, ev)
            return None
        r.reshuffles += 1
        label = f"reshuffle:{r.reshuffles}"
        r.pile = shuffled(r.discard[:-1], r.seed, label)
        del r.discard[:-1]
        ev.append(E.Reshuffled(len(r.pile)))
        ev.append(E.ReshuffleOrder(tuple(r.pile), f"{r.seed}:{label}"))
    return r.pile.pop()


def _void(game: Game, at: int, ev: Events) -> None:
    r = game.round
    game.voids += 1
    ev.append(E.RoundVoided(r.round_no, r.deal_no, tuple(tuple(s.hand) for s in r.seats)))
    _deal(game, r.round_no - 1, r.dealer, r.deal_no + 1, at, ev)  # same dealer, same round


# -- checks -------------------------------------------------------------------------------


def _turn(game: Game, player: int, stage: str) -> RoundState:
    r = game.round
    if r.phase != "play":
        raise IllegalAction("round_over")
    if r.current != player:
        raise IllegalAction("not_your_turn")
    if r.stage != stage:
        raise IllegalAction("draw_first" if stage == "play" else "already_drew")
    return r


def call_refusal(game: Game, player: int) -> str | None:
    """K-CL1/K-CL2/K-CL5: why ``player`` may not call the discard top now (``None``: may)."""
    r = game.round
    if r.phase != "play":
        return "round_over"
    if player == r.current:
        return "your_turn"
    if r.pending_call is not None or not r.live or r.stage != "draw":
        return "too_late"  # another call or the current player's draw got there first
    seat = r.seats[player]
    if seat.laid_down:
        return "laid_down"  # K-L3
    if r.discarder == player:
        # K-S3: the up-card is the dealer's discard (the first turn of the deal)
        return "own_upcard" if player == r.dealer and r.turns == 1 else "own_discard"
    if seat.calls >= game.rules.max_calls:
        return "call_limit"  # K-CL5
    return None


def _anyone_may_call(game: Game) -> bool:
    return any(call_refusal(game, p) is None for p in range(game.players))


def contested(game: Game, action: A.Action) -> bool:
    """Whether a press stamped before ``action`` could still change it (the game protocol's
    ``contested``). A call always is (K-CL3: the earliest call wins), and so is the current
    player's draw while a live discard may be called (K-K2: that draw races the calls), a
    press by another seat, and the next round (any seat may start it). The rest of a turn is
    not: once the current player has drawn (K-T1) or answers a pending call (K-CL4) nobody
    else may act, and the discard that ends the turn cannot be raced either, since a call
    stamped before the card landed is refused by its stamp (K-CL2, ``discard_at``)."""
    r = game.round
    if game.over or r.phase != "play" or isinstance(action, A.Call):
        return True
    if action.player != r.current:
        return True
    return r.stage == "draw" and r.pending_call is None and r.live and _anyone_may_call(game)


def _remove(hand: list[int], cards: Sequence[int]) -> list[int]:
    """The hand without ``cards`` (each must be in it), or refuse."""
    rest = list(hand)
    for c in cards:
        try:
            rest.remove(c)
        except ValueError:
            raise IllegalAction("not_in_hand", card=c) from None
    return rest


def _keeps_a_discard(r: RoundState, rest: list[int]) -> None:
    """K-T5: a lay must leave a non-joker for the discard (unless only jokers were held)."""
    if not r.jokers_only and not any(c % DECK < 52 for c in rest):
        raise IllegalAction("keep_a_card")


def _key(m: Meld | tuple[int, Sequence[int]]) -> tuple[int, int]:
    kind, cards = (m.kind, m.cards) if isinstance(m, Meld) else m
    natural = next(c for c in cards if c % DECK < 52)
    return (kind, rank_of(natural) if kind == SET else suit_of(natural))


# -- handlers -----------------------------------------------------------------------------


def _draw(game: Game, a: A.Draw, at: int, ev: Events) -> None:
    r = _turn(game, a.player, "draw")
    if r.pending_call is None and at < r.draw_at:
        raise IllegalAction("call_window", until=r.draw_at)  # K-K2
    if r.pending_call is not None and not _allow_call(game, r.pending_call, False, at, ev):
        return  # K-CL4: allowed; the round went void on the penalty card
    _draw_from_pile(game, a.player, at, ev)


def _draw_from_pile(game: Game, player: int, at: int, ev: Events) -> bool:
    card = _pile_card(game, at, ev)
    if card is None:
        return False
    r = game.round
    hand = r.seats[player].hand
    hand.append(card)
    r.live, r.stage, r.drawn = False, "play", card
    r.jokers_only = all(c % DECK >= 52 for c in hand)
    ev.append(E.Drew(player, "pile", None))
    ev.append(E.DrawnCard(player, card, (player,)))
    return True


def _take_discard(game: Game, a: A.TakeDiscard, at: int, ev: Events) -> None:
    r = _turn(game, a.player, "draw")
    seat = r.seats[a.player]
    if seat.laid_down:
        raise IllegalAction("laid_down")  # K-L3
    if not r.discard or not r.live:
        raise IllegalAction("dead_discard")  # K-CL2
    if r.pending_call is None and at < r.draw_at:
        raise IllegalAction("call_window", until=r.draw_at)
    refused = r.pending_call
    card = r.discard.pop()
    seat.hand.append(card)
    r.live, r.stage, r.drawn, r.pending_call = False, "play", card, None
    r.jokers_only = all(c % DECK >= 52 for c in seat.hand)
    if refused is not None:
        ev.append(E.CallRefused(refused, a.player))  # K-CL4
    ev.append(E.Drew(a.player, "discard", card))


def _call(game: Game, a: A.Call, at: int, ev: Events) -> None:
    reason = call_refusal(game, a.player)
    if reason is not None:
        raise IllegalAction(reason)
    r = game.round
    if a.card is not None and a.card != r.discard[-1]:
        raise IllegalAction("too_late")  # that card was taken; this is another one
    if a.at < r.discard_at:
        # K-CL2: stamped before this card landed, the call was meant for the one before
        # (the engine judges by the action's own time, not the game's clock)
        raise IllegalAction("too_late")
    if r.seats[r.current].laid_down:
        _allow_call(game, a.player, True, at, ev)  # K-CL6
        return
    r.pending_call = a.player
    ev.append(E.Called(a.player, r.discard[-1]))


def _allow_call(game: Game, caller: int, automatic: bool, at: int, ev: Events) -> bool:
    """K-CL4: the caller takes the discard top and a penalty card; the uncovered card is
    dead. ``False`` if the penalty card voided the round."""
    r = game.round
    seat = r.seats[caller]
    card = r.discard.pop()
    seat.hand.append(card)
    seat.calls += 1
    r.live, r.pending_call = False, None
    ev.append(E.CallAllowed(caller, card, seat.calls, automatic))
    penalty = _pile_card(game, at, ev)
    if penalty is None:
        return False
    seat.hand.append(penalty)
    ev.append(E.PenaltyCard(caller, penalty, (caller,)))
    return True


def check_lay_down(
    game: Game, player: int, melds: Sequence[tuple[int, Sequence[int]]]
) -> list[tuple[int, list[int], int]]:
    """K-L1/K-M6/K-M7: the proposed contract checked against ``player``'s hand.

    Returns each meld as placed (kind, cards in table order, ``low``); raises
    :class:`IllegalAction` with the reason and the meld's number (``meld``, 1-based).
    A UI calls this to check a lay-down before sending it.
    """
    r = game.round
    seat = r.seats[player]
    if seat.laid_down:
        raise IllegalAction("already_laid_down")
    placed: list[tuple[int, list[int], int]] = []
    keys: set[tuple[int, int]] = set()
    for i, (kind, cards) in enumerate(melds):
        try:
            ordered, low = normalize(kind, cards)
        except IllegalAction as refusal:
            raise IllegalAction(refusal.reason, meld=i + 1, **refusal.detail) from None
        key = _key((kind, ordered))
        if key in keys:
            raise IllegalAction("meld_repeated", meld=i + 1)  # K-M6
        keys.add(key)
        placed.append((kind, ordered, low if kind == RUN else 0))
    all_cards = [c for _, cards, _ in placed for c in cards]
    if len(set(all_cards)) != len(all_cards):
        raise IllegalAction("card_twice")
    rest = _remove(seat.hand, all_cards)
    wanted = contract(game)
    sets_wanted = wanted.count(SET)
    runs_wanted = len(wanted) - sets_wanted
    sets = sum(1 for k, _, _ in placed if k == SET)
    runs = len(placed) - sets
    complete = any(k == RUN and len(c) == MAX_RUN for k, c, _ in placed)
    ok = sets == sets_wanted and (
        runs == runs_wanted or (runs_wanted >= 3 and complete and runs == runs_wanted - 2)
    )  # K-M7: one complete run stands for three "4"s
    if not ok:
        raise IllegalAction("not_the_contract", sets=sets_wanted, runs=runs_wanted)
    _keeps_a_discard(r, rest)
    return placed


def _lay_down(game: Game, a: A.LayDown, at: int, ev: Events) -> None:
    r = _turn(game, a.player, "play")
    placed = check_lay_down(game, a.player, a.melds)
    seat = r.seats[a.player]
    seat.hand = _remove(seat.hand, [c for _, cards, _ in placed for c in cards])
    seat.laid_down = True
    first = r.first_down is None
    if first:
        r.first_down = a.player
    r.down_this_turn = True
    out = []
    for kind, cards, low in placed:
        r.melds.append(Meld(a.player, kind, cards, low))
        out.append((len(r.melds) - 1, kind, tuple(cards)))
    ev.append(E.LaidDown(a.player, tuple(out), first))


def _lay_meld(game: Game, a: A.LayMeld, at: int, ev: Events) -> None:
    r = _turn(game, a.player, "play")
    seat = r.seats[a.player]
    if not seat.laid_down:
        raise IllegalAction("not_laid_down")  # K-L2
    ordered, low = normalize(a.meld_kind, a.cards)
    key = _key((a.meld_kind, ordered))
    if any(_key(m) == key for m in r.melds if m.owner == a.player):
        raise IllegalAction("meld_repeated")  # K-M6
    rest = _remove(seat.hand, ordered)
    _keeps_a_discard(r, rest)
    seat.hand = rest
    r.melds.append(Meld(a.player, a.meld_kind, ordered, low if a.meld_kind == RUN else 0))
    ev.append(E.MeldLaid(a.player, len(r.melds) - 1, a.meld_kind, tuple(ordered)))
    _out_by_jokers(game, a.player, at, ev)


def _meld_at(r: RoundState, index: int) -> Meld:
    if not 0 <= index < len(r.melds):
        raise IllegalAction("no_such_meld", meld=index)
    return r.melds[index]


def lay_off_end(m: Meld, card: int, player: int, end: str) -> str:
    """K-L4/K-L5: where ``card`` goes on meld ``m`` (``end`` asked for a run), or refuse."""
    joker = card % DECK >= 52
    if joker and m.owner != player:
        raise IllegalAction("joker_on_others_meld")  # K-L5
    if m.kind == SET:
        if not joker and rank_of(card) != rank_of(next(c for c in m.cards if c % DECK < 52)):
            raise IllegalAction("does_not_fit")
        return "high"
    n = len(m.cards)
    if n >= MAX_RUN:
        raise IllegalAction("run_complete")  # K-M3
    if end not in ("low", "high"):
        raise IllegalAction("bad_end")
    high = m.low + n - 1
    if joker:
        pos, neighbour = (high + 1, m.cards[-1]) if end == "high" else (m.low - 1, m.cards[0])
        if not 1 <= pos <= 14:
            raise IllegalAction("past_ace")  # K-M5
        if neighbour % DECK >= 52:
            raise IllegalAction("run_jokers_adjacent")  # K-M4a
        return end
    if suit_of(card) != run_suit(m.cards):
        raise IllegalAction("does_not_fit")
    fits = [e for e, pos in (("high", high + 1), ("low", m.low - 1)) if pos in positions(card)]
    if not fits:
        raise IllegalAction("does_not_fit")
    return end if end in fits else fits[0]  # a natural card has its own place


def _lay_off(game: Game, a: A.LayOff, at: int, ev: Events) -> None:
    r = _turn(game, a.player, "play")
    seat = r.seats[a.player]
    if not seat.laid_down:
        raise IllegalAction("not_laid_down")  # K-L4
    m = _meld_at(r, a.meld)
    end = lay_off_end(m, a.card, a.player, a.end)
    rest = _remove(seat.hand, [a.card])
    _keeps_a_discard(r, rest)
    seat.hand = rest
    if m.kind == RUN and end == "low":
        m.cards.insert(0, a.card)
        m.low -= 1
    else:
        m.cards.append(a.card)
    ev.append(E.LaidOff(a.player, a.card, a.meld, end))
    _out_by_jokers(game, a.player, at, ev)


def shifted_run(game: Game, m: Meld, card: int, joker: int, end: str) -> tuple[list[int], int]:
    """K-L7: the run after ``card`` takes ``joker``'s place: (cards, low), or refuse."""
    if m.kind != RUN:
        raise IllegalAction("joker_in_set")  # K-L6
    if card % DECK >= 52:
        raise IllegalAction("not_a_natural")
    if joker not in m.cards or joker % DECK < 52:
        raise IllegalAction("no_such_joker")
    if joker in m.fixed:
        raise IllegalAction("joker_fixed")
    if end == "low" and not game.rules.shift_to_either_end:
        raise IllegalAction("bad_end")  # K-V5 option
    i = m.cards.index(joker)
    if suit_of(card) != run_suit(m.cards) or m.low + i not in positions(card):
        raise IllegalAction("does_not_fit")
    n = len(m.cards)
    if n >= MAX_RUN:
        raise IllegalAction("no_place")
    cards = list(m.cards)
    cards[i] = card
    low = m.low
    if end == "low":
        if low <= 1:
            raise IllegalAction("no_place")
        cards.insert(0, joker)
        low -= 1
    else:
        if low + n > 14:
            raise IllegalAction("no_place")  # ace high on top
        cards.append(joker)
    if any(cards[j] % DECK >= 52 and cards[j + 1] % DECK >= 52 for j in range(n)):
        raise IllegalAction("run_jokers_adjacent")
    return cards, low


def _shift_joker(game: Game, a: A.ShiftJoker, at: int, ev: Events) -> None:
    r = _turn(game, a.player, "play")
    seat = r.seats[a.player]
    if not seat.laid_down:
        raise IllegalAction("not_laid_down")
    m = _meld_at(r, a.meld)
    cards, low = shifted_run(game, m, a.card, a.joker, a.end)
    rest = _remove(seat.hand, [a.card])
    _keeps_a_discard(r, rest)
    seat.hand = rest
    m.cards, m.low = cards, low
    m.fixed.append(a.joker)
    ev.append(E.JokerShifted(a.player, a.card, a.meld, a.joker, a.end))


def _discard_action(game: Game, a: A.Discard, at: int, ev: Events) -> None:
    r = _turn(game, a.player, "play")
    if a.card not in r.seats[a.player].hand:
        raise IllegalAction("not_in_hand", card=a.card)
    if a.card % DECK >= 52:
        raise IllegalAction("joker_discard")  # K-T4
    _discard(game, a.player, a.card, at, ev)


def _discard(game: Game, player: int, card: int, at: int, ev: Events) -> None:
    r = game.round
    hand = r.seats[player].hand
    hand.remove(card)
    r.discard.append(card)
    r.discarder, r.live, r.discard_at = player, True, at
    ev.append(E.Discarded(player, card))
    if not hand:
        _end_round(game, player, at, ev)  # K-E1
    else:
        _next_turn(game, at, ev)


def _end_turn_action(game: Game, a: A.EndTurn, at: int, ev: Events) -> None:
    r = _turn(game, a.player, "play")
    hand = r.seats[a.player].hand
    if any(c % DECK < 52 for c in hand):
        raise IllegalAction("must_discard")  # K-T5
    ev.append(E.TurnEnded(a.player))
    _next_turn(game, at, ev)


def _out_by_jokers(game: Game, player: int, at: int, ev: Events) -> None:
    """K-T5/K-E1: an all-joker hand laid on the player's melds goes out."""
    if not game.round.seats[player].hand:
        _end_round(game, player, at, ev)


def _next_turn(game: Game, at: int, ev: Events) -> None:
    r = game.round
    _start_turn(game, (r.current + 1) % game.players, at, ev)


def _next_round_action(game: Game, a: A.NextRound, at: int, ev: Events) -> None:
    if game.round.phase != "over":
        raise IllegalAction("round_not_over")
    _next_round(game, at, ev)


def _next_round(game: Game, at: int, ev: Events) -> None:
    last = game.history[-1]
    _deal(game, len(game.history), (last.dealer + 1) % game.players, 1, at, ev)  # K-S1


# -- end of round and match (K-E, K-P) ----------------------------------------------------


def _end_round(game: Game, out: int, at: int, ev: Events) -> None:
    r = game.round
    rules = game.rules
    r.phase, r.end_reason = "over", "out"
    hands = [list(s.hand) for s in r.seats]
    doubled = r.down_this_turn and (rules.double_any_one_go or r.first_down == out)  # K-P2
    scores = round_scores(hands, out, doubled)
    totals = [float(hand_points(h)) for h in hands]
    ranked = places(scores)
    for i, s in enumerate(scores):
        game.cumulative[i] += s
    game.history.append(
        RoundResult(r.round_no, "out", hands, totals, ranked, scores, out, doubled, r.dealer)
    )
    over = len(game.history) >= len(rules.rounds)
    if over:  # K-P3
        best = min(game.cumulative)
        game.over = True
        game.winners = [i for i, c in enumerate(game.cumulative) if c == best]
        game.next_round_deadline = None
    else:
        game.next_round_deadline = at + rules.compiled.next_round_ms
    ev.append(
        E.RoundEnded(
            r.round_no,
            "out",
            out,
            doubled,
            tuple(tuple(h) for h in hands),
            tuple(totals),
            tuple(scores),
            tuple(ranked),
            tuple(game.cumulative),
            over,
            tuple(game.winners),
        )
    )


# -- legal actions ------------------------------------------------------------------------


def legal_actions(game: Game, player: int, at: int | None = None) -> list[A.Action]:
    """Every action ``player`` may take now, stamped ``at`` (default: the game's time).

    Choices are listed one at a time: each discard, each lay-off (card, meld, end), each
    joker shift, a few new melds, and at most one suggested :class:`LayDown` (found by
    :func:`suggest_lay_down`); any other lay-down may be proposed and is checked on apply.
    """
    if game.over or not 0 <= player < game.players:
        return []
    r = game.round
    at = game.now if at is None else max(at, game.now)
    if r.phase == "over":
        return [A.NextRound(player, at)]
    if player != r.current:
        if call_refusal(game, player) is None:
            return [A.Call(player, r.discard[-1], at)]
        return []
    if r.stage == "draw":
        if r.pending_call is None and at < r.draw_at:
            return []
        out: list[A.Action] = [A.Draw(player, at)]
        if r.live and r.discard and not r.seats[player].laid_down:
            out.append(A.TakeDiscard(player, at))
        return out
    return _play_actions(game, r, player, at)


def _play_actions(game: Game, r: RoundState, p: int, at: int) -> list[A.Action]:
    seat = r.seats[p]
    hand = seat.hand
    naturals = [c for c in hand if c % DECK < 52]
    discard = A.Discard
    out: list[A.Action] = [discard(p, c, at) for c in naturals]
    if not naturals:
        out.append(A.EndTurn(p, at))
    if not seat.laid_down:
        found = suggest_lay_down(hand, contract(game))
        if found is not None:
            out.append(A.LayDown(p, found, at))
        return out
    lay_naturals = len(naturals) > 1 or r.jokers_only  # K-T5
    out.extend(_lay_off_actions(r, p, hand, lay_naturals, at))
    if lay_naturals:
        out.extend(_shift_actions(game, r, p, hand, len(naturals), at))
        out.extend(_new_meld_actions(r, p, hand, at))
    return out


def _lay_off_actions(
    r: RoundState, p: int, hand: list[int], naturals_ok: bool, at: int
) -> list[A.Action]:
    sets: dict[int, list[int]] = {}
    ends: dict[tuple[int, int], list[tuple[int, str]]] = {}
    own: list[tuple[int, Meld]] = []
    for i, m in enumerate(r.melds):
        if m.owner == p:
            own.append((i, m))
        if m.kind == SET:
            sets.setdefault(rank_of(next(c for c in m.cards if c % DECK < 52)), []).append(i)
            continue
        n = len(m.cards)
        if n >= MAX_RUN:
            continue
        suit = run_suit(m.cards)
        if m.low > 1:
            ends.setdefault((suit, m.low - 1), []).append((i, "low"))
        if m.low + n <= 14:
            ends.setdefault((suit, m.low + n), []).append((i, "high"))
    lay_off = A.LayOff
    out: list[A.Action] = []
    jokers: list[int] = []
    for c in hand:
        index = c % DECK
        if index >= 52:
            if not jokers:
                jokers.append(c)
            continue
        if not naturals_ok:
            continue
        for i in sets.get(index % 13, ()):
            out.append(lay_off(p, c, i, "high", at))
        suit = index // 13
        for pos in positions(c):
            for i, end in ends.get((suit, pos), ()):
                out.append(lay_off(p, c, i, end, at))
    for j in jokers:  # K-L5: one joker listed stands for any (jokers are equal in play)
        for i, m in own:
            if m.kind == SET:
                out.append(lay_off(p, j, i, "high", at))
                continue
            n = len(m.cards)
            if n >= MAX_RUN:
                continue
            if m.low + n <= 14 and m.cards[-1] % DECK < 52:
                out.append(lay_off(p, j, i, "high", at))
            if m.low > 1 and m.cards[0] % DECK < 52:
                out.append(lay_off(p, j, i, "low", at))
    return out


def _shift_actions(
    game: Game, r: RoundState, p: int, hand: list[int], naturals: int, at: int
) -> list[A.Action]:
    out: list[A.Action] = []
    mine: dict[tuple[int, int], int] = {}
    for c in hand:
        if c % DECK < 52:
            for pos in positions(c):
                mine.setdefault((suit_of(c), pos), c)
    ends = ("high", "low") if game.rules.shift_to_either_end else ("high",)
    for i, m in enumerate(r.melds):
        if m.kind != RUN or len(m.cards) >= MAX_RUN:
            continue
        suit = run_suit(m.cards)
        for k, j in enumerate(m.cards):
            if j % DECK < 52 or j in m.fixed:
                continue
            card = mine.get((suit, m.low + k))
            if card is None:
                continue
            for end in ends:
                try:
                    shifted_run(game, m, card, j, end)
                except IllegalAction:
                    continue
                out.append(A.ShiftJoker(p, card, i, j, end, at))
    return out


def _new_meld_actions(r: RoundState, p: int, hand: list[int], at: int) -> list[A.Action]:
    own_sets = [k for kind, k in (_key(m) for m in r.melds if m.owner == p) if kind == SET]
    own_runs = [k for kind, k in (_key(m) for m in r.melds if m.owner == p) if kind == RUN]
    out: list[A.Action] = []
    for kind, options in (
        (SET, candidate_sets(hand, 1, own_sets)),
        (RUN, candidate_runs(hand, 1, own_runs)),
    ):
        for cards in options[:4]:
            rest = list(hand)
            for c in cards:
                rest.remove(c)
            if any(c % DECK < 52 for c in rest) or r.jokers_only:
                out.append(A.LayMeld(p, kind, tuple(cards), at))
    return out


def suggest_lay_down(
    hand: Sequence[int], wanted: tuple[int, ...]
) -> tuple[tuple[int, tuple[int, ...]], ...] | None:
    """One lay-down of contract ``wanted`` from ``hand`` (see :func:`melds.find_contract`)."""
    return _suggest(tuple(sorted(hand)), wanted)


@lru_cache(maxsize=8192)
def _suggest(
    hand: tuple[int, ...], wanted: tuple[int, ...]
) -> tuple[tuple[int, tuple[int, ...]], ...] | None:
    found = find_contract(hand, wanted)
    if found is None:
        return None
    return tuple((kind, tuple(cards)) for kind, cards in found)


_HANDLERS: dict[type, Callable[[Game, Any, int, Events], None]] = {
    A.Draw: _draw,
    A.TakeDiscard: _take_discard,
    A.Call: _call,
    A.LayDown: _lay_down,
    A.LayMeld: _lay_meld,
    A.LayOff: _lay_off,
    A.ShiftJoker: _shift_joker,
    A.Discard: _discard_action,
    A.EndTurn: _end_turn_action,
    A.NextRound: _next_round_action,
}
