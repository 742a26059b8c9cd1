"""Kalooki ``hard``: medium's habits, with a measured distance to the contract.

It learns only from its own view and its own event stream (public moves: who took which
discard, who threw which card, the melds on the table). Its decisions:

- **distance**: the fewest cards the hand still lacks to meet the round's contract (K-L1),
  with jokers filling what K-M4 lets them fill (one per "3", never two side by side in a
  "4"); sets of different ranks and runs of different suits (K-M6);
- **discard** (not laid down): the card whose loss keeps the distance lowest, then keeps
  the most *outs* (unseen cards that would shorten it), then one the next players did not
  show they collect (ranks they took from the discard), then the most points;
- **take / call / refuse**: only a card that shortens the distance;
- **laid down**: lay off everything (naturals, then jokers: 50 points each), keep cards a
  lay-off or a new meld may use soon, throw the highest of the rest, preferring cards no
  opponent still collecting can use.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations, product
from typing import Any

from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.ai.policy import HeuristicPlayer
from tamalou.games.kalooki.melds import DECK, is_joker, points, rank_of, suit_of
from tamalou.games.kalooki.rules import RUN, SET, Rules
from tamalou.games.kalooki.views import PlayerView

_FULL_WINDOW = 0b1111


@lru_cache(maxsize=1 << 15)
def _suit_options(mask: int) -> tuple[tuple[int, int], ...]:
    """The best run windows of one suit whose held positions are ``mask`` (bit p = position
    p, 1 ace low .. 14 ace high): (cards that must be naturals, places a joker may fill) of
    the fullest window and of any window with one place more missing, best first."""
    scored: list[tuple[int, int]] = []
    for low in range(1, 12):
        held = (mask >> low) & _FULL_WINDOW
        missing = [i for i in range(4) if not held >> i & 1]
        jok = min(_jokerable(missing), 2)
        scored.append((len(missing), jok))
    least = min(n for n, _ in scored)
    options = sorted({(n - j, j) for n, j in scored if n <= least + 1})
    return tuple(options[:3])


def _jokerable(missing: Sequence[int]) -> int:
    """How many of a run window's missing places (indices 0..3) jokers may fill: no two
    jokers side by side (K-M4a): the largest non-adjacent subset of the missing places."""
    count, last = 0, -2
    for i in missing:
        if i - last > 1:
            count += 1
            last = i
    return count


def distance(counts: list[int], jokers: int, contract: Sequence[int]) -> int:
    """The fewest cards ``counts`` (copies held per natural 0..51) and ``jokers`` lack to meet
    ``contract``: a small search over the sets (by rank; the most held ranks), then the
    runs (one suit each, its best windows); jokers fill what K-M4 allows."""
    nsets = sum(1 for k in contract if k == SET)
    nruns = len(contract) - nsets
    by_rank = [sum(counts[s * 13 + r] for s in range(4)) for r in range(13)]
    ranks = sorted(range(13), key=lambda r: -by_rank[r])[: nsets + 2] if nsets else []
    best = [99]
    suit_sets = list(combinations(range(4), nruns)) if nruns <= 4 else []

    def runs(must: int, jok: int) -> None:
        options = []
        for s in range(4):
            mask = 0
            base = s * 13
            for r in range(13):
                if counts[base + r]:
                    mask |= (1 << 1) | (1 << 14) if r == 0 else 2 << r
            options.append(_suit_options(mask))
        for suits in suit_sets:
            for picks in product(*(options[s] for s in suits)):
                m = must + sum(p[0] for p in picks)
                j = jok + sum(p[1] for p in picks)
                total = m + max(0, j - jokers)
                if total < best[0]:
                    best[0] = total

    def sets(i: int, start: int, must: int, jok: int) -> None:
        if must >= best[0]:
            return
        if i == nsets:
            if nruns:
                runs(must, jok)
            else:
                best[0] = min(best[0], must + max(0, jok - jokers))
            return
        for k in range(start, len(ranks)):
            r = ranks[k]
            take: list[int] = []
            # take the copies least useful to runs: suits with spare copies first
            for s in sorted(range(4), key=lambda s: -counts[s * 13 + r]):
                c = s * 13 + r
                for _ in range(counts[c]):
                    if len(take) < 3:
                        take.append(c)
            n = len(take)
            m_nat = max(0, 2 - n)
            m_jok = 3 - n - m_nat
            for c in take:
                counts[c] -= 1
            sets(i + 1, k + 1, must + m_nat, jok + m_jok)
            for c in take:
                counts[c] += 1

    sets(0, 0, 0, 0)
    return best[0]


class HardPlayer(HeuristicPlayer):
    """``hard``: see the module's docstring."""

    def __init__(self, seat: int, rules: Rules, seed: int | str) -> None:
        super().__init__(seat, rules, seed, "medium")
        self.level = "hard"
        self.discards: list[int] = []  # the discard pile as seen (public)
        self.taken: dict[int, set[int]] = {}  # seat -> naturals (0..51) it took from the discard
        self.thrown: dict[int, set[int]] = {}  # seat -> naturals it discarded this round
        self.players = 0

    # -- memory (public facts only) --------------------------------------------------------

    def observe(self, events: Sequence[E.Event]) -> None:
        for e in events:
            if isinstance(e, E.RoundStarted):
                self.discards = [e.up_card]
                self.taken = {}
                self.thrown = {}
            elif isinstance(e, E.Discarded):
                self.discards.append(e.card)
                self.thrown.setdefault(e.player, set()).add(e.card % DECK)
            elif isinstance(e, E.CallAllowed) or (
                isinstance(e, E.Drew) and e.source == "discard" and e.card is not None
            ):
                assert e.card is not None
                if self.discards:
                    self.discards.pop()
                if not is_joker(e.card):
                    self.taken.setdefault(e.player, set()).add(e.card % DECK)
            elif isinstance(e, E.Reshuffled):
                self.discards = self.discards[-1:]

    # -- decisions -------------------------------------------------------------------------

    def act(self, seen: PlayerView, legal: Sequence[Any], at: int) -> A.Action | None:
        by_kind: dict[str, list[Any]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        pub = seen.public
        hand = seen.hand
        top = pub.discard_top
        contract = pub.contract
        down = pub.seats[seen.seat].laid_down
        if "call" in by_kind:
            if top is not None and not is_joker(top) and self._improves(hand, top, contract):
                return by_kind["call"][0]
            if top is not None and is_joker(top):
                return by_kind["call"][0]
            return None
        if "draw" in by_kind:
            if (
                "take_discard" in by_kind
                and top is not None
                and (is_joker(top) or self._improves(hand, top, contract))
            ):
                return by_kind["take_discard"][0]
            return by_kind["draw"][0]
        for kind in ("lay_down", "shift_joker", "lay_meld"):
            if kind in by_kind:
                return by_kind[kind][0]
        if "lay_off" in by_kind:
            naturals = [a for a in by_kind["lay_off"] if not is_joker(a.card)]
            if naturals:
                return max(naturals, key=lambda a: points(a.card))
            return by_kind["lay_off"][0]
        if "discard" in by_kind:
            if down:
                return self._discard_down(seen, by_kind["discard"])
            return self._discard_up(seen, by_kind["discard"])
        if "end_turn" in by_kind:
            return by_kind["end_turn"][0]
        return None

    @staticmethod
    def _counts(hand: Sequence[int]) -> tuple[list[int], int]:
        counts = [0] * 52
        jokers = 0
        for c in hand:
            index = c % DECK
            if index >= 52:
                jokers += 1
            else:
                counts[index] += 1
        return counts, jokers

    def _improves(self, hand: Sequence[int], card: int, contract: Sequence[int]) -> bool:
        counts, jokers = self._counts(hand)
        now = distance(counts, jokers, contract)
        if now == 0:
            return False
        counts[card % DECK] += 1
        return distance(counts, jokers, contract) < now

    def _unseen(self, seen: PlayerView) -> list[int]:
        """Copies of each natural whose place this seat does not know."""
        n = len(seen.public.seats)
        decks, _ = self.rules.pack(n)
        left = [decks] * 52
        known = list(seen.hand) + list(self.discards)
        for m in seen.public.melds:
            known.extend(m.cards)
        for c in known:
            index = c % DECK
            if index < 52 and left[index] > 0:
                left[index] -= 1
        return left

    def _collectors(self, seen: PlayerView) -> set[int]:
        """Naturals (0..51) an opponent still collecting (not laid down) showed it wants:
        same rank as a card it took, or next to it in the suit."""
        wanted: set[int] = set()
        for seat, cards in self.taken.items():
            if seat == seen.seat or seen.public.seats[seat].laid_down:
                continue
            for x in cards:
                r, s = x % 13, x // 13
                wanted.update(t * 13 + r for t in range(4))
                for d in (-2, -1, 1, 2):
                    if 0 <= r + d < 13:
                        wanted.add(s * 13 + r + d)
        return wanted

    def _discard_up(self, seen: PlayerView, options: list[A.Discard]) -> A.Discard:
        hand = seen.hand
        contract = seen.public.contract
        counts, jokers = self._counts(hand)
        unseen = self._unseen(seen)
        wanted = self._collectors(seen)
        tried: dict[int, tuple[int, ...]] = {}
        dist: dict[int, int] = {}
        for a in options:
            x = a.card % DECK
            if x in dist:
                continue
            counts[x] -= 1
            dist[x] = distance(counts, jokers, contract)
            counts[x] += 1
        low = min(dist.values())
        ties = [x for x, d in dist.items() if d == low]
        # outs for at most four of the tied cards: the least connected, highest first
        ties.sort(key=lambda x: (self._links(counts, x), -points(x), x))
        for x in ties[:4]:
            d = low
            counts[x] -= 1
            outs = 0
            if d > 0:
                for y in range(52):
                    if not unseen[y]:
                        continue
                    if not self._near(counts, y):
                        continue
                    counts[y] += 1
                    if distance(counts, jokers, contract) < d:
                        outs += unseen[y]
                    counts[y] -= 1
            counts[x] += 1
            tried[x] = (-outs, 1 if x in wanted else 0, -points(x))
        best = min(tried, key=lambda x: (tried[x], x))
        return min((a for a in options if a.card % DECK == best), key=lambda a: a.card)

    @staticmethod
    def _links(counts: list[int], x: int) -> int:
        """Cards of the hand that share ``x``'s rank or sit within two of it in its suit."""
        r, s = x % 13, x // 13
        links = sum(counts[t * 13 + r] for t in range(4)) - 1
        for d in (-2, -1, 1, 2):
            q = r + d
            if 0 <= q < 13:
                links += counts[s * 13 + q]
        return links

    @staticmethod
    def _near(counts: list[int], y: int) -> bool:
        r, s = y % 13, y // 13
        if any(counts[t * 13 + r] for t in range(4)):
            return True
        base = s * 13
        for d in (-3, -2, -1, 1, 2, 3):
            q = r + d
            if 0 <= q < 13 and counts[base + q]:
                return True
            if q == 13 and counts[base]:  # ace high
                return True
            if q == -1 and counts[base + 12]:
                return True
        return False

    def _discard_down(self, seen: PlayerView, options: list[A.Discard]) -> A.Discard:
        """Laid down: keep what may be laid off or melded soon; throw the highest rest."""
        hand = seen.hand
        pub = seen.public
        soon: set[int] = set()  # naturals one card away from a lay-off
        for m in pub.melds:
            naturals = [c for c in m.cards if not is_joker(c)]
            if not naturals:
                continue
            if m.kind == SET:
                continue  # laid off already when held
            if m.kind == RUN:
                s = suit_of(naturals[0])
                n = len(m.cards)
                for p in (m.low - 2, m.low + n + 1):
                    if 1 <= p <= 14:
                        soon.add(s * 13 + (0 if p in (1, 14) else p - 1))
        counts, _ = self._counts(hand)
        wanted = self._collectors(seen)

        def cost(a: A.Discard) -> tuple[int, int, int, int]:
            x = a.card % DECK
            r = rank_of(x)
            pair = sum(counts[t * 13 + r] for t in range(4)) - 1
            keep = (2 if pair >= 1 else 0) + (1 if x in soon else 0)
            return (keep, 1 if x in wanted else 0, -points(x), a.card)

        return min(options, key=cost)
