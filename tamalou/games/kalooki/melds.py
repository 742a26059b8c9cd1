"""Melds (K-M): card arithmetic, validation of a "3" or a "4", and candidate melds for a hand.

A run is an ordered list of cards, lowest first; ``low`` is the *position* of its first card:
1 is the ace low, 2..13 the ranks two to king, 14 the ace high (K-M3). A joker stands for
the card of its position (K-M5).
"""

from __future__ import annotations

from collections.abc import Sequence

from tamalou.core.errors import IllegalAction
from tamalou.games.kalooki.rules import RUN, SET

DECK = 54
MAX_RUN = 13  # K-M3: A..K or 2..A; a run of 13 is complete


def is_joker(card: int) -> bool:
    return card % DECK >= 52


def rank_of(card: int) -> int:
    """0 = ace .. 12 = king (naturals only)."""
    return card % DECK % 13


def suit_of(card: int) -> int:
    """0 clubs, 1 diamonds, 2 hearts, 3 spades (naturals only)."""
    return card % DECK // 13


def positions(card: int) -> tuple[int, ...]:
    """The run positions a natural card may hold: an ace is 1 or 14 (K-M3)."""
    r = card % DECK % 13
    return (1, 14) if r == 0 else (r + 1,)


def points(card: int) -> int:
    """K-C3: joker 50, black ace 15, red ace 1, K Q J 10, 2..10 face value."""
    index = card % DECK
    if index >= 52:
        return 50
    r = index % 13
    if r == 0:
        return 15 if index // 13 in (0, 3) else 1
    return 10 if r >= 9 else r + 1


# -- validation ---------------------------------------------------------------------------


def check_set(cards: Sequence[int]) -> int:
    """K-M1/K-M4b: a "3" of 3+ cards, naturals of one rank, at least two naturals.

    Returns the rank; raises :class:`IllegalAction` naming what is wrong.
    """
    if len(cards) < 3:
        raise IllegalAction("set_too_short", size=len(cards))
    naturals = [c for c in cards if not is_joker(c)]
    if len(naturals) < 2:
        raise IllegalAction("set_needs_two_naturals")
    rank = rank_of(naturals[0])
    if any(rank_of(c) != rank for c in naturals):
        raise IllegalAction("set_mixed_ranks")
    return rank


def run_low(cards: Sequence[int]) -> int:
    """K-M2..K-M5: the position of the first card if ``cards`` in this order is a "4".

    Raises :class:`IllegalAction` naming what is wrong.
    """
    n = len(cards)
    if n < 4:
        raise IllegalAction("run_too_short", size=n)
    if n > MAX_RUN:
        raise IllegalAction("run_too_long", size=n)
    suit = -1
    lows: set[int] | None = None
    prev_joker = False
    for i, c in enumerate(cards):
        if c % DECK >= 52:
            if prev_joker:
                raise IllegalAction("run_jokers_adjacent")  # K-M4a
            prev_joker = True
            continue
        prev_joker = False
        s = c % DECK // 13
        if suit < 0:
            suit = s
        elif s != suit:
            raise IllegalAction("run_mixed_suits")
        cand = {p - i for p in positions(c)}
        lows = cand if lows is None else lows & cand
        if not lows:
            raise IllegalAction("run_not_consecutive")
    if lows is None:
        raise IllegalAction("run_needs_naturals")
    fit = [low for low in sorted(lows) if low >= 1 and low + n - 1 <= 14]
    if not fit:
        raise IllegalAction("run_past_ace")  # K-M3/K-M5: nothing beyond an ace end
    return fit[0]


def arrange_run(cards: Sequence[int]) -> list[int] | None:
    """The cards in run order when the player gave them unordered (a UI's multi-select):
    naturals by position, a joker in each one-card gap, spare jokers above the top then
    below the bottom. ``None`` if no arrangement is a valid "4"."""
    jokers = [c for c in cards if is_joker(c)]
    naturals = [c for c in cards if not is_joker(c)]
    if not naturals:
        return None
    for ace_high in (False, True):
        by_pos: dict[int, int] = {}
        for c in naturals:
            p = positions(c)[-1] if ace_high else positions(c)[0]
            if p in by_pos:
                break
            by_pos[p] = c
        else:
            lo, hi = min(by_pos), max(by_pos)
            spare = list(jokers)
            out: list[int] = []
            ok = True
            for p in range(lo, hi + 1):
                if p in by_pos:
                    out.append(by_pos[p])
                elif spare and (not out or not is_joker(out[-1])):
                    out.append(spare.pop())
                else:
                    ok = False
                    break
            if not ok:
                continue
            if spare and hi < 14 and not is_joker(out[-1]):
                out.append(spare.pop())
                hi += 1
            if spare and lo > 1 and not is_joker(out[0]):
                out.insert(0, spare.pop())
            if spare:
                continue
            try:
                run_low(out)
            except IllegalAction:
                continue
            return out
    return None


def normalize(kind: int, cards: Sequence[int]) -> tuple[list[int], int]:
    """A proposed meld checked: (cards in table order, ``low`` for a run or rank for a set).

    A run given in a valid order keeps it (the player placed the jokers); otherwise it is
    arranged by :func:`arrange_run`.
    """
    if len(set(cards)) != len(cards):
        raise IllegalAction("card_twice")
    if kind == SET:
        return list(cards), check_set(cards)
    if kind != RUN:
        raise IllegalAction("bad_meld_kind", kind=kind)
    try:
        return list(cards), run_low(cards)
    except IllegalAction as refusal:
        arranged = arrange_run(cards)
        if arranged is None:
            raise refusal from None
        return arranged, run_low(arranged)


def run_suit(cards: Sequence[int]) -> int:
    return next(c % DECK // 13 for c in cards if c % DECK < 52)


# -- candidates (a UI's helper and the AI's) -----------------------------------------------


def candidate_sets(
    hand: Sequence[int], jokers: int = 1, skip_ranks: Sequence[int] = ()
) -> list[list[int]]:
    """Minimal "3"s the hand can make: three naturals of a rank, or two and a joker."""
    by_rank: dict[int, list[int]] = {}
    joker_cards = []
    for c in hand:
        if c % DECK >= 52:
            joker_cards.append(c)
        else:
            by_rank.setdefault(c % DECK % 13, []).append(c)
    out: list[list[int]] = []
    for r in sorted(by_rank):
        if r in skip_ranks:
            continue
        group = by_rank[r]
        if len(group) >= 3:
            out.append(group[:3])
        elif len(group) == 2 and joker_cards and jokers > 0:
            out.append([*group, joker_cards[0]])
    return out


def candidate_runs(
    hand: Sequence[int], jokers: int = 1, skip_suits: Sequence[int] = (), length: int = 4
) -> list[list[int]]:
    """Runs of ``length`` the hand can make with at most ``jokers`` jokers, lowest first."""
    joker_cards = [c for c in hand if c % DECK >= 52][:jokers]
    nj = len(joker_cards)
    masks = [0, 0, 0, 0]  # run positions held, by suit (bit p = position p)
    for c in hand:
        index = c % DECK
        if index < 52:
            r = index % 13
            masks[index // 13] |= _ACE_BITS if r == 0 else 2 << r
    out: list[list[int]] = []
    window = (1 << length) - 1
    need = max(2, length - nj)
    for s in range(4):
        mask = masks[s]
        held = mask.bit_count() - (1 if mask & _ACE_BITS == _ACE_BITS else 0)
        if held < need or s in skip_suits:
            continue  # the usual case: too few cards of the suit
        lows = [
            low for low in range(1, 16 - length) if ((mask >> low) & window).bit_count() >= need
        ]
        if not lows:
            continue
        slots: dict[int, int] = {}
        for c in hand:
            index = c % DECK
            if index < 52 and index // 13 == s:
                for p in positions(c):
                    slots.setdefault(p, c)
        for low in lows:
            run: list[int] = []
            used = 0
            for p in range(low, low + length):
                found = slots.get(p)
                if found is None:
                    if run and is_joker(run[-1]):
                        break
                    found = joker_cards[used]
                    used += 1
                run.append(found)
            else:
                if len(set(run)) == length:
                    out.append(run)
    return out


_ACE_BITS = (1 << 1) | (1 << 14)


def find_contract(
    hand: Sequence[int], contract: Sequence[int], budget: int = 400
) -> list[tuple[int, list[int]]] | None:
    """One way to meet ``contract`` from ``hand`` (K-L1, K-M6, K-M7), or ``None``.

    A bounded search over minimal melds: cheap enough for every legal-action listing; it may
    miss an exotic lay-down a player can still propose by hand.
    """
    sets_needed = sum(1 for k in contract if k == SET)
    runs_needed = len(contract) - sets_needed
    set_options = candidate_sets(hand, jokers=1) if sets_needed else []
    if len(set_options) < sets_needed:
        return None  # K-M6: the sets need as many different ranks
    run_options = candidate_runs(hand, jokers=2) if runs_needed else []
    run_suits = len({_key(RUN, r) for r in run_options})
    if run_suits < runs_needed and runs_needed < 3:
        return None  # K-M6: the runs need as many different suits (no K-M7 without three)
    if run_suits >= runs_needed:
        found = _search(hand, sets_needed, set_options, runs_needed, run_options, [], budget)
        if found is not None:
            return found
    if runs_needed >= 3:  # K-M7: one complete run for three "4"s
        for run in candidate_runs(hand, jokers=4, length=MAX_RUN):
            rest = [r for r in run_options if not set(r) & set(run)]
            found = _search(
                hand, sets_needed, set_options, runs_needed - 3, rest, [(RUN, run)], budget
            )
            if found is not None:
                return found
    return None


def _search(
    hand: Sequence[int],
    sets_needed: int,
    set_options: list[list[int]],
    runs_needed: int,
    run_options: list[list[int]],
    start: list[tuple[int, list[int]]],
    budget: int,
) -> list[tuple[int, list[int]]] | None:
    options = [(SET, m, _key(SET, m), frozenset(m)) for m in set_options]
    first_run = len(options)
    options += [(RUN, m, _key(RUN, m), frozenset(m)) for m in run_options]
    chosen = list(start)
    used: set[int] = {c for _, m in start for c in m}
    keys: set[tuple[int, int]] = {(k, _key(k, m)) for k, m in start}
    nodes = 0

    def search(need_sets: int, need_runs: int, begin: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return False
        if need_sets == 0 and need_runs == 0:
            # K-T5: a natural card must stay for the discard
            return any(c not in used and not is_joker(c) for c in hand)
        if need_sets == 0 and begin < first_run:
            begin = first_run
        end = first_run if need_sets else len(options)
        for i in range(begin, end):
            kind, meld, key, cards = options[i]
            if (kind, key) in keys or not used.isdisjoint(cards):
                continue
            chosen.append((kind, meld))
            used.update(cards)
            keys.add((kind, key))
            if need_sets:
                found = search(need_sets - 1, need_runs, i + 1)
            else:
                found = search(0, need_runs - 1, i + 1)
            if found:
                return True
            chosen.pop()
            used.difference_update(cards)
            keys.discard((kind, key))
        return False

    return chosen if search(sets_needed, runs_needed, 0) else None


def _key(kind: int, meld: Sequence[int]) -> int:
    """K-M6: a player's sets differ by rank, runs by suit."""
    natural = next(c for c in meld if not is_joker(c))
    return rank_of(natural) if kind == SET else suit_of(natural)
