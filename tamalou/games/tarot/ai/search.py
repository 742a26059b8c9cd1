"""Tarot ``hard``'s card-play search: determinized play-outs from its own view.

At a card choice, ``hard`` deals the cards it has not seen to the other hands (and to the
hidden écart or dog) consistently with what the public tricks proved (voids in a suit or
in trumps, the highest trump a seat may hold, T-P3/T-P4), the cards of a shown dog to the
taker (T-B4) and the écart's limits (no King nor oudler; its trumps are shown, T-B5). In
each such deal it plays every candidate card and then the rest of the deal with a fast
rule-of-thumb model of every seat (medium's habits), and counts the deal as the engine
would (T-P7 Excuse, T-E2 margin, T-E3 Petit au bout, T-E4/T-E5 the seat's score). All the
candidates share the same deals (paired samples).

The work is bounded by a count of simulated card plays (``work``), not by the clock, so a
decision is the same on any machine and after a replay (the generator is seeded by the
player's seed and the events it has seen). The bot adds a wall-clock cap (``stop``, from
the player's ``budget_ms``) that only cuts a search short on a slow or busy machine. No
I/O, no global random.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tamalou.games.tarot.cards import (
    DECK,
    EXCUSE,
    EXCUSE_SUIT,
    IS_OUDLER,
    IS_TRUMP,
    KING,
    PETIT,
    POINTS,
    RANK,
    SUIT,
    TRUMP,
    TRUMP_21,
    from_code,
)
from tamalou.games.tarot.engine import led_and_top, legal_for
from tamalou.games.tarot.rules import CONTRACTS, GARDE_CONTRE, GARDE_SANS, Rules
from tamalou.games.tarot.views import PlayerView

HIGH_TRUMP = 71  # trump 16: medium trusts a trick won from here up

# -- the trick, on plain ints -----------------------------------------------------------------


def legal_cards(hand: Sequence[int], trick: Sequence[int]) -> list[int]:
    """The cards of ``hand`` that may go on ``trick`` (T-P2..T-P5)."""
    return legal_for(list(hand), *led_and_top(trick))


def trick_winner(seats: Sequence[int], trick: Sequence[int]) -> tuple[int, int]:
    """(index in the trick, card) of the card winning it so far (T-P6); (-1, -1) if none."""
    led = -1
    best = -1
    at = -1
    card = -1
    for i, c in enumerate(trick):
        s = SUIT[c]
        if s == EXCUSE_SUIT:
            continue
        if led < 0:
            led = s
        key = 100 + c if s == TRUMP else (RANK[c] if s == led else -1)
        if key > best:
            best, at, card = key, i, c
    return at, card


def card_beats(card: int, best: int) -> bool:
    """Whether ``card`` beats ``best``, the card winning a trick so far (-1: none; T-P6)."""
    if card == EXCUSE:
        return False
    if best < 0:
        return True
    if IS_TRUMP[card]:
        return not IS_TRUMP[best] or card > best
    return not IS_TRUMP[best] and SUIT[card] == SUIT[best] and RANK[card] > RANK[best]


#: sort keys by card id, for the hot path (lower = played first)
_DUMP = tuple(
    (c == PETIT) * 10_000 + (c == EXCUSE) * 20_000 + POINTS[c] * 100 + IS_TRUMP[c] * 50 + RANK[c]
    for c in DECK
)
_SMEAR = tuple(
    -1 if IS_OUDLER[c] else POINTS[c] * 100 + (not IS_TRUMP[c]) * 50 + RANK[c] for c in DECK
)
_CHEAP = tuple(IS_TRUMP[c] * 100 + RANK[c] for c in DECK)
_LEAD = tuple(-POINTS[c] * 15 - RANK[c] for c in DECK)


def model_card(
    hand: list[int],
    legal: list[int],
    size: int,
    win_seat: int,
    win_card: int,
    points: int,
    ally: bool,
    attack: bool,
    last: bool,
) -> int:
    """The rollouts' model of a seat: medium's habits on plain ints (cheap, full hands).
    ``size`` cards are on the trick, ``win_card`` (of ``win_seat``, -1: none) wins it so far
    and ``ally`` says whether that seat is in this seat's camp."""
    if len(legal) == 1:
        return legal[0]
    if EXCUSE in legal and len(hand) == 2:
        return EXCUSE
    if not size or win_seat < 0:
        if size:
            return min(legal, key=_DUMP.__getitem__)  # after a led Excuse: the lowest
        trumps = [c for c in legal if IS_TRUMP[c] and c != PETIT]
        if attack and trumps and len(trumps) * 2 >= len(hand):
            return TRUMP_21 if TRUMP_21 in trumps else trumps[0]
        length = [0, 0, 0, 0, 0, 0]
        for c in hand:
            length[SUIT[c]] += 1
        best = -(10**9)
        pick = -1
        for c in legal:
            s = SUIT[c]
            if s < TRUMP:
                if RANK[c] == KING:
                    return c
                key = length[s] * 100 + _LEAD[c]
                if key > best:
                    best, pick = key, c
        if pick >= 0:
            return pick
        if trumps:
            return trumps[0]
        return min(legal, key=_DUMP.__getitem__)
    if ally and (last or (IS_TRUMP[win_card] and win_card >= HIGH_TRUMP) or RANK[win_card] == KING):
        if PETIT in legal:
            return PETIT
        pick = max(legal, key=_SMEAR.__getitem__)
        if _SMEAR[pick] >= 0:
            return pick
    if not ally:
        if IS_TRUMP[win_card]:
            winners = [c for c in legal if IS_TRUMP[c] and c > win_card]
        else:
            ws, wr = SUIT[win_card], RANK[win_card]
            winners = [c for c in legal if IS_TRUMP[c] or (SUIT[c] == ws and RANK[c] > wr)]
        if winners:
            if last:
                if PETIT in winners:
                    return PETIT
                return min(winners, key=_CHEAP.__getitem__)
            if IS_TRUMP[winners[-1]]:
                trumps = [c for c in winners if IS_TRUMP[c]]
                big = [c for c in trumps if c != TRUMP_21]
                if points >= 9 or not big:
                    return trumps[-1]
                return big[-1] if len(trumps) > 2 else big[0]
            return winners[-1]
        if EXCUSE in legal and points >= 7:
            return EXCUSE
    return min(legal, key=_DUMP.__getitem__)


# -- a deal seen from one seat, and its determinizations -------------------------------------


@dataclass(slots=True)
class Situation:
    """Everything a search needs, taken from the view (public facts and the own hand)."""

    n: int
    me: int
    taker: int
    partner: int | None  # known partner (== taker: alone), None: unknown
    called: int | None
    contract: int
    hand: list[int]
    counts: list[int]  # cards in each hand now
    trick_seats: list[int]
    trick: list[int]
    leader: int
    tricks_left: int  # tricks still to finish, the one in progress included
    won_hp: list[int]  # half-points won per seat so far (an Excuse counted for its owner)
    won_oudlers: list[int]
    won_tricks: list[int]
    excuse_owner: int  # the seat that played the Excuse in a finished trick (-1: none)
    excuse_winner: int  # who won that trick
    aside_known: list[int]  # the écart or dog cards this seat knows
    aside_size: int  # total cards aside (écart, or an unseen dog)
    aside_trumps: list[int]  # trumps shown in the écart
    aside_free: bool  # an unseen dog (any card) rather than an écart (T-B5 limits)
    dog_to_taker: list[int]  # shown dog cards not yet played: in the taker's hand or écart
    unknown: list[int]
    allowed: list[list[bool]]  # allowed[seat][card]
    poignee_bonus: int
    rules: Rules


def _place(
    sit: Situation, rng: random.Random, strict: bool
) -> tuple[list[list[int]], list[int]] | None:
    """One random placement of the unknown cards: (hands, hidden aside), or None."""
    n = sit.n
    hands: list[list[int]] = [[] for _ in range(n + 1)]  # slot n: the hidden aside
    need = list(sit.counts)
    need[sit.me] = 0
    need.append(sit.aside_size - len(sit.aside_known) - len(sit.aside_trumps))
    taker = sit.taker
    dog = set(sit.dog_to_taker)
    allowed = sit.allowed
    free = sit.aside_free
    seats = [p for p in range(n) if need[p] > 0]
    slots: list[tuple[int, int, list[int]]] = []
    for c in sit.unknown:
        if c in dog:  # a shown dog card went to the taker: his hand or his écart
            out = [taker] if need[taker] > 0 and (not strict or allowed[taker][c]) else []
        else:
            out = [p for p in seats if not strict or allowed[p][c]]
        # an écart holds no King, no oudler and, hidden, no trump (T-B5); an unseen dog any
        if need[n] and (free or (SUIT[c] < TRUMP and RANK[c] != KING)):
            out.append(n)
        if not out:
            return None
        slots.append((len(out) * 1000 + int(rng.random() * 1000), c, out))
    slots.sort()  # the most constrained cards first, ties in a random order
    for _, c, out in slots:
        total = 0
        for p in out:
            total += need[p]
        if not total:
            return None
        r = rng.random() * total
        pick = -1
        for p in out:
            if need[p]:
                pick = p
                r -= need[p]
                if r < 0:
                    break
        hands[pick].append(c)
        need[pick] -= 1
    aside = hands.pop()
    hands[sit.me] = list(sit.hand)
    return hands, aside


def determinize(sit: Situation, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    for _ in range(12):
        got = _place(sit, rng, strict=True)
        if got is not None:
            return got
    for _ in range(12):
        got = _place(sit, rng, strict=False)
        if got is not None:
            return got
    raise RuntimeError("no placement of the unseen cards")  # pragma: no cover


def play_out(
    sit: Situation,
    hands: list[list[int]],
    aside: list[int],
    first: int,
) -> int:
    """Play ``first`` for this seat, then the deal to its end by the model: this seat's
    score (T-E4/T-E5)."""
    n = sit.n
    taker = sit.taker
    partner = sit.partner
    if partner is None and sit.called is not None:
        partner = next((p for p in range(n) if sit.called in hands[p]), taker)
    camp = [1] * n
    camp[taker] = 0
    if partner is not None:
        camp[partner] = 0
    hp = [0, 0]
    oud = [0, 0]
    tricks_won = [0, 0]
    for p in range(n):
        hp[camp[p]] += sit.won_hp[p]
        oud[camp[p]] += sit.won_oudlers[p]
        tricks_won[camp[p]] += sit.won_tricks[p]
    if sit.excuse_owner >= 0 and camp[sit.excuse_owner] != camp[sit.excuse_winner]:
        hp[camp[sit.excuse_owner]] -= 1  # T-P7: the half point given for the Excuse
        hp[camp[sit.excuse_winner]] += 1
    petit_at, petit_camp, excuse_won_last = 0, 0, False
    hands = [list(h) for h in hands]
    trick = list(sit.trick)
    seats = list(sit.trick_seats)
    leader = sit.leader
    pab = 0
    left = sit.tricks_left
    me = sit.me
    turn = (leader + len(trick)) % n
    pending = first
    for h in hands:
        h.sort()
    while left > 0:
        # the trick so far: led suit, highest trump, winning card and seat, points
        led = -1
        top = -1
        win_key = -1
        win_seat = -1
        win_card = -1
        points = 0
        for p, c in zip(seats, trick, strict=True):
            s = SUIT[c]
            points += POINTS[c]
            if s == EXCUSE_SUIT:
                continue
            if led < 0:
                led = s
            key = 100 + c if s == TRUMP else (RANK[c] if s == led else -1)
            if key > win_key:
                win_key, win_seat, win_card = key, p, c
            if s == TRUMP and c > top:
                top = c
        while len(trick) < n:
            h = hands[turn]
            if pending >= 0:
                c = pending
                pending = -1
            else:
                legal = legal_for(h, led, top)
                c = model_card(
                    h,
                    legal,
                    len(trick),
                    win_seat,
                    win_card,
                    points,
                    win_seat >= 0 and camp[win_seat] == camp[turn],
                    camp[turn] == 0,
                    len(trick) == n - 1,
                )
            h.remove(c)
            trick.append(c)
            seats.append(turn)
            s = SUIT[c]
            points += POINTS[c]
            if s != EXCUSE_SUIT:
                if led < 0:
                    led = s
                key = 100 + c if s == TRUMP else (RANK[c] if s == led else -1)
                if key > win_key:
                    win_key, win_seat, win_card = key, turn, c
                if s == TRUMP and c > top:
                    top = c
            turn = (turn + 1) % n
        w = win_seat if win_seat >= 0 else seats[0]
        wc = camp[w]
        last = left == 1
        if last and EXCUSE in trick:
            x = seats[trick.index(EXCUSE)]
            if tricks_won[1 - camp[x]] == 0:
                w, wc = x, camp[x]  # T-P8: a camp that won every trick wins with it
        tricks_won[wc] += 1
        for p, c in zip(seats, trick, strict=True):
            to = wc
            if c == EXCUSE and p != w:
                xc = camp[p]
                if last:
                    to = 1 - xc
                else:
                    to = xc
                    if wc != xc:
                        hp[xc] -= 1
                        hp[wc] += 1
            hp[to] += POINTS[c]
            oud[to] += IS_OUDLER[c]
        if PETIT in trick:
            petit_at, petit_camp = left, wc
        if last and EXCUSE in trick and w == seats[trick.index(EXCUSE)]:
            excuse_won_last = True
        leader = w
        turn = w
        trick = []
        seats = []
        left -= 1
    # T-E3: the last trick holds the Petit (the one before when the Excuse won the last)
    if petit_at == (2 if excuse_won_last else 1):
        pab = 1 if petit_camp == 0 else -1
    aside_all = list(sit.aside_known) + list(sit.aside_trumps) + aside
    aside_hp = sum(POINTS[c] for c in aside_all)
    aside_oud = sum(IS_OUDLER[c] for c in aside_all)
    if sit.contract == GARDE_CONTRE:
        hp[1] += aside_hp
        oud[1] += aside_oud
    else:
        hp[0] += aside_hp
        oud[0] += aside_oud
    rules = sit.rules
    diff = hp[0] - 2 * rules.needed[min(3, oud[0])]
    s = 1 if diff >= 0 else -1
    margin = (abs(diff) + 1) // 2
    pab_points = pab * rules.petit_au_bout_points if rules.petit_au_bout else 0
    c = (s * (rules.base + margin) + pab_points) * rules.multiplier(sit.contract) + s * (
        sit.poignee_bonus
    )
    if tricks_won[1] == 0:
        c += rules.chelem_points[1]
    elif tricks_won[0] == 0:
        c -= rules.chelem_points[2]
    if camp[me] == 1:
        return -c
    if me != taker:
        return rules.partner_share * c
    if partner is None or partner == taker:
        return (rules.alone_share if n == 5 else rules.taker_share[n]) * c
    return rules.taker_share[n] * c


@dataclass(slots=True)
class Searched:
    """Per candidate card, its seat scores over the shared samples."""

    values: dict[int, list[int]]

    def mean(self, card: int) -> float:
        v = self.values[card]
        return sum(v) / len(v)

    def edge(self, card: int, base: int) -> tuple[float, float]:
        """Mean and standard error of ``card``'s paired gain over ``base``."""
        d = [a - b for a, b in zip(self.values[card], self.values[base], strict=True)]
        m = sum(d) / len(d)
        if len(d) < 2:
            return m, float("inf")
        var = sum((x - m) ** 2 for x in d) / (len(d) - 1)
        return m, (var / len(d)) ** 0.5


def search(
    sit: Situation,
    candidates: Sequence[int],
    rng: random.Random,
    work: int,
    min_samples: int = 4,
    max_samples: int = 60,
    stop: Callable[[], bool] | None = None,
) -> Searched:
    """Score every candidate over the same determinizations, within ``work`` plays (and
    until ``stop()`` says the time is up: checked after each sample)."""
    remaining = sum(sit.counts) + 1
    per_sample = remaining * len(candidates)
    samples = max(min_samples, min(max_samples, work // max(1, per_sample)))
    values: dict[int, list[int]] = {c: [] for c in candidates}
    for _ in range(samples):
        hands, aside = determinize(sit, rng)
        for c in candidates:
            values[c].append(play_out(sit, hands, aside, c))
        if stop is not None and stop():
            break
    return Searched(values)


def distinct(cards: Sequence[int], unknown: Sequence[int]) -> list[int]:
    """``cards`` less the ones that play alike: two cards of a suit (or two trumps) worth
    the same points with no unseen card between them (the lower one is kept)."""
    out = sorted(cards)
    unseen = set(unknown)
    keep: list[int] = []
    for c in out:
        if keep:
            b = keep[-1]
            if (
                SUIT[b] == SUIT[c] < EXCUSE_SUIT
                and POINTS[b] == POINTS[c]
                and not IS_OUDLER[b]
                and not IS_OUDLER[c]
                and not any(x in unseen for x in range(b + 1, c))
            ):
                continue
        keep.append(c)
    return keep


def allowed_table(n: int, void: list[set[int]], max_trump: list[int]) -> list[list[bool]]:
    table = []
    for p in range(n):
        row = []
        for c in DECK:
            s = SUIT[c]
            ok = s == EXCUSE_SUIT or (s not in void[p] and (s != TRUMP or c <= max_trump[p]))
            row.append(ok)
        table.append(row)
    return table


__all__ = [
    "Searched",
    "Situation",
    "allowed_table",
    "determinize",
    "legal_cards",
    "model_card",
    "play_out",
    "search",
    "situation",
]


def situation(
    view: PlayerView, hand: list[int], void: list[set[int]], max_trump: list[int], rules: Rules
) -> Situation:
    """The search's picture of the deal from ``view`` (public facts and the own hand)."""
    pub = view.public
    n = len(pub.seats)
    me = view.seat
    taker = pub.taker if pub.taker is not None else 0
    contract = CONTRACTS.index(pub.contract) if pub.contract else 1
    won_hp = [0] * n
    won_oud = [0] * n
    won_tricks = [0] * n
    excuse_owner = excuse_winner = -1
    played: set[int] = set()
    for t in pub.tricks:
        w = t.winner if t.winner is not None else t.leader
        won_tricks[w] += 1
        for p, code in t.plays:
            c = from_code(code)
            played.add(c)
            to = w
            if c == EXCUSE and p != w:
                to = p
                excuse_owner, excuse_winner = p, w
            won_hp[to] += POINTS[c]
            won_oud[to] += IS_OUDLER[c]
    trick_seats: list[int] = []
    trick: list[int] = []
    if pub.trick is not None:
        for p, code in pub.trick.plays:
            trick_seats.append(p)
            trick.append(from_code(code))
    played.update(trick)
    counts = [s.cards for s in pub.seats]
    counts[me] = len(hand)
    free = contract in (GARDE_SANS, GARDE_CONTRE)
    in_hands = sum(counts)
    aside_size = len(DECK) - in_hands - len(played)
    if me == taker and not free:
        aside_known = [from_code(c) for c in view.ecart]
        aside_trumps: list[int] = []
    else:
        aside_known = []
        aside_trumps = [] if free else [from_code(c) for c in pub.ecart_trumps]
    seen = set(hand) | played | set(aside_known) | set(aside_trumps)
    dog_to_taker: list[int] = []
    if me != taker and not free:
        dog_to_taker = [from_code(c) for c in pub.dog if from_code(c) not in seen]
    unknown = [c for c in DECK if c not in seen]
    partner = view.partner
    if view.i_am_partner:
        partner = me
    called = from_code(pub.called) if pub.called else None
    if called is not None and partner is None and called in hand:
        partner = me
    bonus = sum(rules.poignee_bonus[s.poignee - 1] for s in pub.seats if s.poignee)
    return Situation(
        n=n,
        me=me,
        taker=taker,
        partner=partner,
        called=called if n == 5 else None,
        contract=contract,
        hand=list(hand),
        counts=counts,
        trick_seats=trick_seats,
        trick=trick,
        leader=(me - len(trick)) % n,
        tricks_left=len(hand),
        won_hp=won_hp,
        won_oudlers=won_oud,
        won_tricks=won_tricks,
        excuse_owner=excuse_owner,
        excuse_winner=excuse_winner,
        aside_known=aside_known,
        aside_size=aside_size,
        aside_trumps=aside_trumps,
        aside_free=free,
        dog_to_taker=dog_to_taker,
        unknown=unknown,
        allowed=allowed_table(n, void, max_trump),
        poignee_bonus=bonus,
        rules=rules,
    )
