"""The rules of a deal and a match: ``new_game``, ``apply``, ``legal_actions``, ``next_deadline``.

Every decision about the game is made here. ``apply`` either changes the state and returns
the events, or raises :class:`IllegalAction` and leaves the state exactly as it was: each
handler checks everything before it changes anything.

Time is an input: a deadline that has passed must be applied with :class:`Tick` before any
other action (``apply`` refuses with ``deadline_pending``); :func:`step` does both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tamalou.core.chance import rng_for
from tamalou.core.errors import IllegalAction
from tamalou.games.tarot import actions as A
from tamalou.games.tarot import events as E
from tamalou.games.tarot.cards import (
    CAVALIER,
    DECK,
    EXCUSE,
    EXCUSE_SUIT,
    IS_OUDLER,
    IS_TRUMP,
    JACK,
    KING,
    PETIT,
    QUEEN,
    RANK,
    SUIT,
    TRUMP,
    lowest_key,
    suit_card,
)
from tamalou.games.tarot.rules import GARDE, GARDE_CONTRE, PASS, PETITE, Rules
from tamalou.games.tarot.scoring import places, score_deal
from tamalou.games.tarot.state import DealResult, DealState, Game, SeatState, Trick

Events = list[E.Event]

# -- set-up (T-S) -------------------------------------------------------------------------


def new_game(
    rules: Rules, players: int, seed: str | int, at: int = 0, ai: list[bool] | None = None
) -> tuple[Game, Events]:
    """A new match with its first deal dealt; the first dealer is drawn from the seed (T-S1)."""
    if not rules.min_players <= players <= rules.max_players:
        raise IllegalAction("bad_player_count", min=rules.min_players, max=rules.max_players)
    ai = list(ai) if ai is not None else [False] * players
    if len(ai) != players:
        raise IllegalAction("bad_player_count", min=players, max=players)
    seed = str(seed)
    placeholder = DealState(0, "", 0, [SeatState([], a) for a in ai], [], [], phase="over")
    game = Game(rules, seed, players, ai, placeholder, [0] * players, now=at)
    dealer = rng_for(seed, "dealer").randrange(players)
    events: Events = []
    _deal(game, dealer, at, events)
    return game, events


def packets(hand: int) -> list[int]:
    """T-S3: a hand is dealt by threes (sans chien's last round: two each)."""
    return [3] * (hand // 3) + ([hand % 3] if hand % 3 else [])


def has_petit_sec(hand: list[int]) -> bool:
    """T-S4: the Petit is the hand's only trump, and no Excuse."""
    return PETIT in hand and EXCUSE not in hand and sum(IS_TRUMP[c] for c in hand) == 1


def _deal(game: Game, dealer: int, at: int, ev: Events) -> None:
    """Deal until a deal stands (a petit sec annuls it and the next dealer deals, T-S4)."""
    rules, n = game.rules, game.players
    hand_size, dog_size = rules.deal_for(n)
    carried = [(s.timeouts, s.away) for s in game.deal.seats]  # T-K4 spans deals
    while True:
        game.deals_dealt += 1
        deal_no = game.deals_dealt
        seed = f"{game.seed}:{deal_no}"
        rng = rng_for(seed, "deal")
        deck = list(DECK)
        rng.shuffle(deck)
        sizes = packets(hand_size)
        count = len(sizes) * n
        gaps = set(rng.sample(range(1, count), dog_size))  # never the first or last card
        hands: list[list[int]] = [[] for _ in range(n)]
        dog: list[int] = []
        pos = k = 0
        for size in sizes:
            for j in range(n):
                if k in gaps:
                    dog.append(deck[pos])
                    pos += 1
                hands[(dealer + 1 + j) % n].extend(deck[pos : pos + size])
                pos += size
                k += 1
        seats = [
            SeatState(list(h), is_ai=game.ai[i], timeouts=carried[i][0], away=carried[i][1])
            for i, h in enumerate(hands)
        ]
        game.deal = DealState(deal_no, seed, dealer, seats, dog, [list(h) for h in hands])
        game.next_deal_deadline = None
        ev.append(E.Dealt(deal_no, seed, dealer, tuple(tuple(h) for h in hands), tuple(dog)))
        ev.append(E.DealStarted(deal_no, dealer, hand_size, dog_size))
        for i, h in enumerate(hands):
            ev.append(E.HandDealt(i, tuple(h), to=(i,)))
        sec = next((p for j in range(n) if has_petit_sec(hands[p := (dealer + 1 + j) % n])), None)
        if sec is None:
            _start_turn(game, "bid", (dealer + 1) % n, at, ev)
            return
        game.deal.phase = "over"
        ev.append(E.PetitSec(sec, tuple(hands[sec])))
        ev.append(E.DealAnnulled(deal_no, "petit_sec"))
        dealer = (dealer + 1) % n  # T-S1: the deal passes on, annulled or not


def _start_turn(game: Game, phase: str, player: int, at: int, ev: Events) -> None:
    rules = game.rules
    d = game.deal
    d.phase, d.current, d.turn_started = phase, player, at
    d.turns += 1
    if d.seats[player].away:
        ms = rules.away_ms  # T-K4
    elif phase == "play":
        ms = rules.play_ms
    elif phase == "bid":
        ms = rules.bid_ms
    elif phase == "ecart":
        ms = rules.ecart_ms
    elif phase == "call":
        ms = rules.call_ms
    else:
        ms = rules.chelem_ms
    d.deadline = at + ms
    ev.append(E.TurnStarted(player, phase, d.deadline))


# -- time ---------------------------------------------------------------------------------


def next_deadline(game: Game) -> int | None:
    """When the clock next changes the game, in ms; ``None`` if it waits for players."""
    if game.over:
        return None
    if game.deal.phase == "over":
        return game.next_deal_deadline
    if _humans_away(game):
        return None  # nobody human left to play: the table closes (abandoned)
    return game.deal.deadline


def turn(game: Game) -> tuple[int, tuple[int, int]] | None:
    """The seat to act and the turn's key, new at each turn started (the deal's number and
    the turn's number in it): a bid (T-B2), the King's call (T-5.1), the écart (T-B5), the
    chelem window (T-A1), a card (T-P1). None between deals and once the match is over.
    A poignée is shown within its player's turn (T-A2): no new turn."""
    d = game.deal
    if game.over or d.phase == "over":
        return None
    return d.current, (d.deal_no, d.turns)


def contested(game: Game, action: A.Action) -> bool:
    """Whether a press stamped before ``action`` could still change it (the game protocol's
    ``contested``). During a deal only the seat to act acts: a bid in turn (T-B2), the
    King's call (T-5.1), the écart (T-B5), the chelem (T-A1, the taker), a poignée with
    one's card to trick 1 (T-A2) and a card (T-P1); nothing races, so the seat to act's
    move is not contested. Anything else is: a press by another seat (refused now, it may be
    its turn once an earlier press lands), and the next deal, which any seat may start."""
    d = game.deal
    return game.over or d.phase == "over" or action.player != d.current


def _advance(game: Game, at: int, ev: Events) -> None:
    while True:
        due = next_deadline(game)
        if due is None or due > at:
            return
        game.now = max(game.now, due)
        if game.deal.phase == "over":
            _next_deal(game, due, ev)
        else:
            _timeout(game, due, ev)


def _timeout(game: Game, at: int, ev: Events) -> None:
    """T-K1..T-K4: the clock acts for the current player, never above pass, never declaring."""
    d = game.deal
    p, phase = d.current, d.phase
    if phase == "chelem":  # T-K1: the window closes; letting it go is no lapse (no away count)
        ev.append(E.ChelemAnnounced(p, False))
        _start_play(game, at, ev)
        return
    seat = d.seats[p]
    seat.timeouts += 1
    if seat.timeouts >= game.rules.timeouts_until_away:
        seat.away = True
    ev.append(E.TimedOut(p, phase, seat.away))
    if phase == "bid":
        seat.bid = PASS
        ev.append(E.BidMade(p, PASS, auto=True))
        _after_bid(game, at, ev)
    elif phase == "call":
        _do_call(game, auto_call(d.seats[p].hand), at, ev, auto=True)
    elif phase == "ecart":
        cards = auto_ecart(game)
        seat.hand.extend(d.ecart)
        d.ecart = []
        for c in cards:
            seat.hand.remove(c)
        d.ecart = cards
        _finish_ecart(game, at, ev, auto=True)
    else:
        card = min(playable(game, p), key=lowest_key)  # T-K3: the Excuse only if alone
        _do_play(game, p, card, at, ev, auto=True)


def warning_at(game: Game) -> int | None:
    """T-K2: when the warning of the current play turn's last seconds starts."""
    d = game.deal
    if game.over or d.phase != "play":
        return None
    return max(d.turn_started, d.deadline - game.rules.warning_ms)


def display_moments(game: Game) -> set[int]:
    """T-K2: the warning of a turn's last seconds starts (not already at the turn's start)."""
    moment = warning_at(game)
    return {moment} if moment is not None and moment > game.deal.turn_started else set()


def _humans_away(game: Game) -> bool:
    """Every human at the table is away (T-K4); a table of AI players only never is."""
    humans = [s for s in game.deal.seats if not s.is_ai]
    return bool(humans) and all(s.away for s in humans)


def abandoned(game: Game) -> bool:
    """Every human is away (T-K4), as Kalooki's K-K4: nobody is left to play, the match is
    abandoned with no result and the table closes at once. It used to wait for the deal's
    end, the clock and the AI players playing it out for nobody (a ruling, docs/rules.md)."""
    if game.over or (game.deal.phase == "over" and game.next_deal_deadline is not None):
        return False
    return _humans_away(game)


# -- apply --------------------------------------------------------------------------------


def apply(game: Game, action: A.Action) -> Events:
    """Apply one action; raise :class:`IllegalAction` (state unchanged) if the rules refuse."""
    at = action.at if action.at > game.now else game.now
    ev: Events = []
    if type(action) is A.Tick:
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
    seat = game.deal.seats[action.player]
    if seat.timeouts or seat.away:
        before = (seat.timeouts, seat.away)
        seat.timeouts, seat.away = 0, False  # T-K4: they act again
        try:
            handler(game, action, at, ev)
        except IllegalAction:
            seat.timeouts, seat.away = before
            raise
    else:
        handler(game, action, at, ev)
    game.now = at
    return ev


def step(game: Game, action: A.Action) -> Events:
    """Apply the deadlines due by ``action.at``, then the action."""
    ev = apply(game, A.Tick(action.at)) if type(action) is not A.Tick else []
    return ev + apply(game, action)


def _turn(game: Game, player: int, phase: str) -> DealState:
    d = game.deal
    if d.phase == "over":
        raise IllegalAction("deal_over")
    if d.phase != phase:
        raise IllegalAction("wrong_phase", phase=d.phase)
    if d.current != player:
        raise IllegalAction("not_your_turn")
    return d


# -- bidding (T-B) --------------------------------------------------------------------------


def highest_bid(d: DealState) -> int:
    return max(s.bid or 0 for s in d.seats)


def _bid(game: Game, a: A.Bid, at: int, ev: Events) -> None:
    d = _turn(game, a.player, "bid")
    if a.contract != PASS:
        if not PETITE <= a.contract <= GARDE_CONTRE:
            raise IllegalAction("bad_contract")
        if a.contract <= highest_bid(d):
            raise IllegalAction("bid_too_low", highest=highest_bid(d))  # T-B2
    d.seats[a.player].bid = a.contract
    ev.append(E.BidMade(a.player, a.contract))
    _after_bid(game, at, ev)


def _after_bid(game: Game, at: int, ev: Events) -> None:
    d = game.deal
    n = game.players
    highest = highest_bid(d)
    nxt = (d.current + 1) % n
    while d.seats[nxt].bid is None and highest == GARDE_CONTRE:
        d.seats[nxt].bid = PASS  # T-B2: after a Garde contre the rest pass
        ev.append(E.BidMade(nxt, PASS, auto=True))
        nxt = (nxt + 1) % n
    if d.seats[nxt].bid is None:
        _start_turn(game, "bid", nxt, at, ev)
        return
    if highest == PASS:  # T-B3
        d.phase = "over"
        ev.append(E.DealAnnulled(d.deal_no, "all_passed"))
        if _humans_away(game):
            game.next_deal_deadline = None  # nobody to play: wait for a player's NextDeal
        else:
            _deal(game, (d.dealer + 1) % n, at, ev)
        return
    d.taker = next(i for i, s in enumerate(d.seats) if s.bid == highest)
    d.contract = highest
    ev.append(E.TakerKnown(d.taker, highest))
    if n == 5:
        _start_turn(game, "call", d.taker, at, ev)  # T-5.1: before the dog is turned
    else:
        _after_call(game, at, ev)


# -- the called King (T-5) ----------------------------------------------------------------


def callable_cards(hand: list[int]) -> list[int]:
    """T-5.1: a King; a Queen only holding all four Kings; and so on down to the Jack."""
    held = set(hand)
    out: list[int] = []
    for rank in (KING, QUEEN, CAVALIER, JACK):
        row = [suit_card(s, rank) for s in range(4)]
        out.extend(row)
        if not held.issuperset(row):
            break
    return out


def auto_call(hand: list[int]) -> int:
    """T-K1: the King of the first suit (♠♥♦♣) not held, else likewise a Queen, …"""
    held = set(hand)
    options = callable_cards(hand)
    return next((c for c in options if c not in held), options[-1])


def _call(game: Game, a: A.CallKing, at: int, ev: Events) -> None:
    d = _turn(game, a.player, "call")
    if a.card not in callable_cards(d.seats[a.player].hand):
        raise IllegalAction("cannot_call")
    _do_call(game, a.card, at, ev)


def _do_call(game: Game, card: int, at: int, ev: Events, auto: bool = False) -> None:
    d = game.deal
    d.called = card
    holder = next((i for i, h in enumerate(d.dealt) if card in h), None)
    d.partner = None if holder is None or holder == d.taker else holder  # T-5.2
    if holder == d.taker:
        d.partner_known = True  # alone, and the taker knows it: nobody else learns it yet
    ev.append(E.KingCalled(d.taker, card, auto))
    _after_call(game, at, ev)


def _after_call(game: Game, at: int, ev: Events) -> None:
    d = game.deal
    if d.dog and d.contract in (PETITE, GARDE):  # T-B4
        d.dog_shown = True
        ev.append(E.DogShown(d.taker, tuple(d.dog)))
        d.seats[d.taker].hand.extend(d.dog)
        _start_turn(game, "ecart", d.taker, at, ev)
    elif game.rules.chelem:
        _start_turn(game, "chelem", d.taker, at, ev)
    else:
        _start_play(game, at, ev)


# -- the écart (T-B5) ---------------------------------------------------------------------


def ecart_trump_limit(d: DealState) -> int:
    """T-B5: at most max(0, E - S) trumps, S the non-King suit cards in hand + dog."""
    pool = d.seats[d.taker].hand
    s = sum(1 for c in pool if SUIT[c] < TRUMP and RANK[c] != KING)
    s += sum(1 for c in d.ecart if SUIT[c] < TRUMP and RANK[c] != KING)
    return max(0, len(d.dog) - s)


def discardable(d: DealState) -> list[int]:
    """The cards the taker may put into the écart now, one at a time."""
    if len(d.ecart) >= len(d.dog):
        return []
    trumps_ok = sum(IS_TRUMP[c] for c in d.ecart) < ecart_trump_limit(d)
    return [
        c
        for c in d.seats[d.taker].hand
        if (SUIT[c] < TRUMP and RANK[c] != KING) or (trumps_ok and IS_TRUMP[c] and not IS_OUDLER[c])
    ]


def ecart_refusal(d: DealState, cards: tuple[int, ...]) -> str | None:
    """Why ``cards`` is not a legal whole écart (T-B5), or None."""
    pool = d.seats[d.taker].hand + d.ecart
    if len(set(cards)) != len(cards) or len(cards) != len(d.dog):
        return "ecart_size"
    if any(c not in pool for c in cards):
        return "not_in_hand"
    if any(IS_OUDLER[c] for c in cards):
        return "ecart_oudler"
    if any(SUIT[c] < TRUMP and RANK[c] == KING for c in cards):
        return "ecart_king"
    s = sum(1 for c in pool if SUIT[c] < TRUMP and RANK[c] != KING)
    if sum(IS_TRUMP[c] for c in cards) > max(0, len(d.dog) - s):
        return "ecart_trump"
    return None


def auto_ecart(game: Game) -> list[int]:
    """T-K1/T-K3: the écart so far completed with the lowest legal cards, trumps if forced."""
    d = game.deal
    chosen = list(d.ecart)
    taker = d.seats[d.taker]
    left = sorted(taker.hand, key=lowest_key)
    limit = ecart_trump_limit(d)
    trumps = sum(IS_TRUMP[c] for c in chosen)
    for c in left:
        if len(chosen) == len(d.dog):
            break
        if SUIT[c] < TRUMP and RANK[c] != KING:
            chosen.append(c)
        elif IS_TRUMP[c] and not IS_OUDLER[c] and trumps < limit:
            chosen.append(c)
            trumps += 1
    return chosen


def _discard(game: Game, a: A.Discard, at: int, ev: Events) -> None:
    d = _turn(game, a.player, "ecart")
    if a.card not in d.seats[a.player].hand:
        raise IllegalAction("not_in_hand")
    if a.card not in discardable(d):
        raise IllegalAction(_ecart_card_reason(a.card))
    d.seats[a.player].hand.remove(a.card)
    d.ecart.append(a.card)
    ev.append(E.Discarded(a.player, a.card, to=(a.player,)))
    if len(d.ecart) == len(d.dog):
        _finish_ecart(game, at, ev)


def _ecart_card_reason(card: int) -> str:
    if IS_OUDLER[card]:
        return "ecart_oudler"
    if SUIT[card] < TRUMP and RANK[card] == KING:
        return "ecart_king"
    return "ecart_trump"


def _ecart(game: Game, a: A.Ecart, at: int, ev: Events) -> None:
    d = _turn(game, a.player, "ecart")
    reason = ecart_refusal(d, a.cards)
    if reason is not None:
        raise IllegalAction(reason)
    seat = d.seats[a.player]
    seat.hand.extend(d.ecart)
    for c in a.cards:
        seat.hand.remove(c)
    d.ecart = list(a.cards)
    _finish_ecart(game, at, ev)


def _finish_ecart(game: Game, at: int, ev: Events, auto: bool = False) -> None:
    d = game.deal
    trumps = tuple(sorted(c for c in d.ecart if IS_TRUMP[c]))
    ev.append(E.EcartLaid(d.taker, len(d.ecart), trumps, auto))  # trumps shown to all
    ev.append(E.EcartCards(d.taker, tuple(d.ecart), to=(d.taker,)))
    _start_play(game, at, ev)  # the chelem window closes with the écart (T-K1)


# -- chelem (T-A1) -------------------------------------------------------------------------


def _chelem(game: Game, a: A.Chelem, at: int, ev: Events) -> None:
    d = game.deal
    if d.phase not in ("ecart", "chelem") or d.current != a.player:
        raise IllegalAction("not_your_turn" if d.phase in ("ecart", "chelem") else "wrong_phase")
    if not game.rules.chelem:
        raise IllegalAction("chelem_not_played")
    if d.chelem:
        raise IllegalAction("chelem_already_announced")
    if d.phase == "ecart" and not a.announce:
        raise IllegalAction("nothing_to_decline")
    d.chelem = a.announce
    ev.append(E.ChelemAnnounced(a.player, a.announce))
    if d.phase == "chelem":
        _start_play(game, at, ev)


# -- play (T-P) ---------------------------------------------------------------------------


def _start_play(game: Game, at: int, ev: Events) -> None:
    d = game.deal
    leader = d.taker if d.chelem else (d.dealer + 1) % game.players  # T-P1, T-A1
    d.tricks.append(Trick(leader, [], []))
    _start_turn(game, "play", leader, at, ev)


def playable(game: Game, player: int) -> list[int]:
    """The cards ``player`` may play to the current trick (T-P2..T-P5, T-5.4)."""
    d = game.deal
    hand = d.seats[player].hand
    trick = d.tricks[-1]
    if not trick.cards:
        if d.called is not None and len(d.tricks) == 1:  # T-5.4
            cs = SUIT[d.called]
            allowed = [c for c in hand if SUIT[c] != cs or c == d.called]
            return allowed or list(hand)
        return list(hand)
    led, top = led_and_top(trick.cards)
    return legal_for(list(hand), led, top)


def led_and_top(trick: Sequence[int]) -> tuple[int, int]:
    """A trick's led suit (-1: none yet, or only the Excuse, T-P2) and its highest trump
    (-1: none)."""
    led = -1
    top = -1
    for c in trick:
        s = SUIT[c]
        if s == EXCUSE_SUIT:
            continue
        if led < 0:
            led = s
        if s == TRUMP and c > top:
            top = c
    return led, top


def legal_for(hand: list[int], led: int, top: int) -> list[int]:
    """The cards of ``hand`` playable on a trick led in ``led`` (-1: nothing led yet, or
    only the Excuse: the next card sets the suit, T-P2) whose highest trump is ``top`` (-1:
    none): follow, else trump over the top if possible, else any trump, else anything; the
    Excuse always (T-P3..T-P5). On plain ints: the AI's rollouts use it too."""
    if led < 0:
        return hand
    if led != TRUMP:
        follow = [c for c in hand if SUIT[c] == led]
        if follow:
            if EXCUSE in hand:
                follow.append(EXCUSE)
            return follow
    trumps = [c for c in hand if IS_TRUMP[c]]
    if not trumps:
        return hand
    over = [c for c in trumps if c > top]
    out = over or trumps
    if EXCUSE in hand:
        out.append(EXCUSE)
    return out


def play_refusal(game: Game, player: int, card: int) -> str:
    """Why ``card`` may not be played now (call only when it may not)."""
    d = game.deal
    hand = d.seats[player].hand
    if card not in hand:
        return "not_in_hand"
    trick = d.tricks[-1]
    if not trick.cards:
        return "called_suit_first_lead"
    led = next(SUIT[c] for c in trick.cards if c != EXCUSE)
    if led != TRUMP and any(SUIT[c] == led for c in hand):
        return "must_follow"
    if not IS_TRUMP[card]:
        return "must_trump"
    return "must_overtrump"


def trick_winner(trick: Trick) -> int:
    """T-P6: the highest trump, else the highest card of the led suit; never the Excuse."""
    led = -1
    best = -1
    winner = trick.leader
    for p, c in zip(trick.players, trick.cards, strict=True):
        s = SUIT[c]
        if s == EXCUSE_SUIT:
            continue
        if led < 0:
            led = s
        if s == TRUMP:
            key = 100 + c
        elif s == led:
            key = RANK[c]
        else:
            continue
        if key > best:
            best, winner = key, p
    return winner


def _play(game: Game, a: A.Play, at: int, ev: Events) -> None:
    _turn(game, a.player, "play")
    if a.card not in playable(game, a.player):
        raise IllegalAction(play_refusal(game, a.player, a.card))
    _do_play(game, a.player, a.card, at, ev)


def _do_play(game: Game, player: int, card: int, at: int, ev: Events, auto: bool = False) -> None:
    d = game.deal
    d.seats[player].hand.remove(card)
    trick = d.tricks[-1]
    trick.players.append(player)
    trick.cards.append(card)
    ev.append(E.Played(player, card, len(d.tricks), auto))
    if card == d.called:
        d.partner_known = True
        ev.append(E.PartnerRevealed(player))  # T-5.3: the partner (or the taker alone)
    n = game.players
    if len(trick.cards) < n:
        _start_turn(game, "play", (player + 1) % n, at, ev)
        return
    trick.winner = w = trick_winner(trick)
    ev.append(E.TrickWon(len(d.tricks), w, tuple(trick.cards), tuple(trick.players)))
    if d.seats[w].hand:
        d.tricks.append(Trick(w, [], []))
        _start_turn(game, "play", w, at, ev)
    else:
        _end_deal(game, at, ev)


# -- poignée (T-A2) -----------------------------------------------------------------------


def poignee_trumps(game: Game, player: int) -> list[int]:
    """The trumps ``player`` may show: their hand's, and the taker's discarded ones (T-A2)."""
    d = game.deal
    held = [c for c in d.seats[player].hand if IS_TRUMP[c]]
    if player == d.taker:
        held += [c for c in d.ecart if IS_TRUMP[c]]
    return sorted(held)


def poignee_open(game: Game, player: int) -> bool:
    """T-A2: only with one's card to trick 1, before it, once."""
    d = game.deal
    return (
        game.rules.poignee
        and d.phase == "play"
        and d.current == player
        and len(d.tricks) == 1
        and d.seats[player].poignee == 0
    )


def poignee_options(game: Game, player: int) -> list[tuple[int, ...]]:
    """One way to show each level reached: the lowest trumps, the Excuse only when needed."""
    if not poignee_open(game, player):
        return []
    trumps = poignee_trumps(game, player)
    excuse = EXCUSE in game.deal.seats[player].hand
    out: list[tuple[int, ...]] = []
    for need in game.rules.poignee_trumps[game.players]:
        if len(trumps) >= need:
            out.append(tuple(trumps[:need]))
        elif excuse and len(trumps) + 1 == need:
            out.append((*trumps, EXCUSE))
    return out


def _poignee(game: Game, a: A.Poignee, at: int, ev: Events) -> None:
    d = game.deal
    if d.phase != "play" or d.current != a.player:
        raise IllegalAction("not_your_turn")
    if not game.rules.poignee:
        raise IllegalAction("poignee_not_played")
    if len(d.tricks) != 1:
        raise IllegalAction("poignee_trick_1_only")
    if d.seats[a.player].poignee:
        raise IllegalAction("poignee_already_shown")
    sizes = game.rules.poignee_trumps[game.players]
    if len(a.cards) not in sizes:
        raise IllegalAction("poignee_size", sizes=sizes)
    trumps = poignee_trumps(game, a.player)
    allowed = set(trumps)
    if EXCUSE in d.seats[a.player].hand:
        allowed.add(EXCUSE)
    if len(set(a.cards)) != len(a.cards) or not allowed.issuperset(a.cards):
        raise IllegalAction("poignee_cards")
    if EXCUSE in a.cards and not set(a.cards).issuperset(trumps):
        raise IllegalAction("poignee_excuse")  # only if every trump held is shown
    level = sizes.index(len(a.cards)) + 1
    seat = d.seats[a.player]
    seat.poignee = level
    seat.poignee_cards = sorted(a.cards)
    ev.append(E.PoigneeShown(a.player, level, tuple(sorted(a.cards))))


# -- end of deal and match (T-E, T-M) -----------------------------------------------------


def _end_deal(game: Game, at: int, ev: Events) -> None:
    d = game.deal
    rules, n = game.rules, game.players
    d.phase = "over"
    sc = score_deal(
        rules,
        n,
        d.taker,
        d.partner,
        d.contract,
        d.tricks,
        d.dog,
        d.ecart,
        [s.poignee for s in d.seats],
        d.chelem,
    )
    for i, s in enumerate(sc.scores):
        game.cumulative[i] += s
    played_no = len(game.history) + 1
    game.history.append(
        DealResult(
            d.deal_no,
            played_no,
            d.dealer,
            d.taker,
            d.contract,
            d.partner,
            d.called,
            sc.attack_hp,
            sc.defence_hp,
            sc.oudlers,
            sc.won,
            sc.margin,
            list(sc.scores),
            list(d.dog),
            list(d.ecart),
            sc.needed,
            sc.petit_au_bout,
            [s.poignee for s in d.seats],
            sc.chelem,
            sc.per_defender,
        )
    )
    if played_no >= rules.deals_in_match(n):  # T-M1, T-M3
        game.over = True
        best = max(game.cumulative)
        game.winners = [i for i, c in enumerate(game.cumulative) if c == best]
        game.next_deal_deadline = None
    elif _humans_away(game):
        game.next_deal_deadline = None  # nobody to play: wait for a player's NextDeal
    else:
        game.next_deal_deadline = at + rules.next_deal_ms
    ev.append(
        E.DealEnded(
            d.deal_no,
            played_no,
            d.taker,
            d.contract,
            d.partner,
            d.called,
            tuple(d.dog),
            tuple(d.ecart),
            sc.attack_hp,
            sc.defence_hp,
            sc.oudlers,
            sc.needed,
            sc.won,
            sc.margin,
            sc.petit_au_bout,
            tuple(s.poignee for s in d.seats),
            sc.chelem,
            sc.per_defender,
            sc.scores,
            tuple(game.cumulative),
            game.over,
            tuple(game.winners),
        )
    )


def deal_places(game: Game) -> list[int]:
    return places(game.cumulative)


def _next_deal(game: Game, at: int, ev: Events) -> None:
    _deal(game, (game.deal.dealer + 1) % game.players, at, ev)  # T-S1


def _next_deal_action(game: Game, a: A.NextDeal, at: int, ev: Events) -> None:
    if game.deal.phase != "over":
        raise IllegalAction("deal_not_over")
    _next_deal(game, at, ev)


# -- legal actions ------------------------------------------------------------------------


def legal_actions(game: Game, player: int, at: int | None = None) -> list[A.Action]:
    """Every action ``player`` may take now, stamped ``at`` (default: the game's time).

    Choices made as a set (the écart, a poignée) are listed one way each: one card at a time
    for the écart (:class:`Discard`), the lowest trumps for each poignée level; ``apply``
    validates any other proposed set (:class:`Ecart`, :class:`Poignee`).
    """
    if game.over or not 0 <= player < game.players:
        return []
    d = game.deal
    at = game.now if at is None else max(at, game.now)
    if d.phase == "over":
        return [A.NextDeal(player, at)]
    if d.current != player:
        return []
    phase = d.phase
    if phase == "play":
        play = A.Play
        out: list[A.Action] = [play(player, c, at) for c in playable(game, player)]
        if len(d.tricks) == 1 and game.rules.poignee and not d.seats[player].poignee:
            out.extend(A.Poignee(player, cs, at) for cs in poignee_options(game, player))
        return out
    if phase == "bid":
        bids: list[A.Action] = [A.Bid(player, PASS, at)]
        bids.extend(A.Bid(player, c, at) for c in range(highest_bid(d) + 1, GARDE_CONTRE + 1))
        return bids
    if phase == "call":
        return [A.CallKing(player, c, at) for c in callable_cards(d.seats[player].hand)]
    if phase == "ecart":
        out = [A.Discard(player, c, at) for c in discardable(d)]
        if game.rules.chelem and not d.chelem:
            out.append(A.Chelem(player, True, at))
        return out
    return [A.Chelem(player, True, at), A.Chelem(player, False, at)]  # chelem window


_HANDLERS: dict[type, Callable[[Game, Any, int, Events], None]] = {
    A.Bid: _bid,
    A.CallKing: _call,
    A.Discard: _discard,
    A.Ecart: _ecart,
    A.Chelem: _chelem,
    A.Poignee: _poignee,
    A.Play: _play,
    A.NextDeal: _next_deal_action,
}

__all__ = [
    "GARDE",
    "abandoned",
    "apply",
    "contested",
    "display_moments",
    "legal_actions",
    "new_game",
    "next_deadline",
    "step",
    "turn",
]
