"""Tarot ``hard``: medium's habits, with card counting from the public tricks.

It sees only its own :class:`PlayerView`: its hand, its own écart when it took, the dog
when shown and every played trick. From the tricks it learns which cards are still out
and who is void in a suit or in trumps (a player who did not follow, did not trump, or
trumped under the top trump, T-P2..T-P5). With that it plays:

- **safe smear**: points go to a trick the own camp wins only when no opponent still to
  play can beat the winning card (medium trusts any trump from the 16 up, or a King);
- **secure wins**: a trick the other camp leads is taken with the cheapest card no later
  opponent can beat; without one, a card that would only be overtaken is not wasted;
- **leads**: masters first (a King or a trump no unseen card beats); the defence never
  leads trumps, and makes the taker trump by leading the suits he is void in, low;
- **the Petit**: played as soon as it wins safely, kept out of tricks it would lose.

Those rules give its default card; every card choice is then checked by a search of the
play (:mod:`tamalou.games.tarot.ai.search`): the default card stays unless
another scores better over the same sampled deals by more than ``MARGIN`` standard errors.
"""

from __future__ import annotations

import dataclasses
import time

from tamalou.games.tarot import actions as A
from tamalou.games.tarot.ai.policy import (
    HeuristicPlayer,
    Style,
    beats,
    hand_strength,
    wanted_contract,
    winner_of,
)
from tamalou.games.tarot.ai.search import distinct, search, situation
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
from tamalou.games.tarot.rules import Rules
from tamalou.games.tarot.views import PlayerView

HARD = Style()
#: three players (T-B): the taker plays alone against two, and medium's bids win 72 % of
#: its takes there, leaving good hands unplayed; bids 10 % bolder: +4.82 a deal over the
#: same 1,500 deals that give +2.58 with medium's bids (1.2: +1.85, 1.3: -0.41; docs/ai.md)
BOLD_AT_THREE = 1.1
#: the search's bound: simulated card plays per decision (deterministic, ~N ms here)
WORK = 4_000
#: a searched card replaces the rules' card when better by this many standard errors
MARGIN = 1.0


class Knowledge:
    """What the public tricks and the own hand say about the cards still out."""

    __slots__ = ("max_trump", "out", "shown", "void")

    def __init__(self, view: PlayerView, hand: list[int]) -> None:
        n = len(view.public.seats)
        seen: set[int] = set(hand)
        seen.update(from_code(c) for c in view.ecart)
        self.void: list[set[int]] = [set() for _ in range(n)]
        self.max_trump: list[int] = [TRUMP_21] * n  # the highest trump a seat may hold
        self.shown: list[set[int]] = [set() for _ in range(n)]  # suits a seat followed
        tricks = list(view.public.tricks)
        if view.public.trick is not None:
            tricks.append(view.public.trick)
        for t in tricks:
            led = -1
            top = -1
            for p, code in t.plays:
                c = from_code(code)
                seen.add(c)
                s = SUIT[c]
                if s == EXCUSE_SUIT:
                    continue
                if led < 0:
                    led = s
                    self.shown[p].add(s)
                elif s == led:
                    self.shown[p].add(s)
                if s != led:
                    self.void[p].add(led)
                    if s != TRUMP:
                        self.void[p].add(TRUMP)
                    elif c < top:  # trumped under: nothing above the top (T-P4)
                        self.max_trump[p] = min(self.max_trump[p], top)
                elif s == TRUMP and c < top:
                    self.max_trump[p] = min(self.max_trump[p], top)
                if s == TRUMP and c > top:
                    top = c
        self.out = [c for c in DECK if c not in seen]

    def may_beat(self, seat: int, plays: list[tuple[int, int]], led: int) -> bool:
        """Whether ``seat`` (still to play) may hold a card that beats the trick so far."""
        _, best = winner_of(plays)
        if best < 0:
            return True
        void = self.void[seat]
        trumps_left = [
            c for c in self.out if IS_TRUMP[c] and c <= self.max_trump[seat] and c != PETIT
        ]
        if led != TRUMP and led not in void:
            follows = [c for c in self.out if SUIT[c] == led]
            if follows:
                if IS_TRUMP[best]:
                    return False  # it must follow (the suit is still out): no trumping
                # it follows: it beats only with a higher card of the suit; it may also be
                # void without our knowing when few cards of the suit are out
                if any(RANK[c] > RANK[best] for c in follows):
                    return True
                if len(follows) > 2:
                    return False
        if TRUMP in void:
            return False
        if IS_TRUMP[best]:
            return any(c > best for c in trumps_left)
        return bool(trumps_left)


class HardPlayer(HeuristicPlayer):
    """``hard``: see the module's docstring."""

    level = "hard"

    def __init__(
        self,
        seat: int,
        rules: Rules,
        seed: int | str,
        style: Style = HARD,
        *,
        work: int = WORK,
        margin: float = MARGIN,
        budget_ms: float | None = None,
    ) -> None:
        super().__init__(seat, rules, seed, style, level="hard")
        self.work = work
        self.margin = margin
        self.budget_ms = budget_ms
        self._bold = dataclasses.replace(style, bid_scale=style.bid_scale * BOLD_AT_THREE)

    def choose(self, view: PlayerView, legal: list[A.Action]) -> A.Action:
        if legal and isinstance(legal[0], A.Bid) and len(view.public.seats) == 3:
            hand = [from_code(c) for c in view.hand]
            want = wanted_contract(hand_strength(hand), 3, self._bold)
            bids = [a for a in legal if isinstance(a, A.Bid)]
            return max((a for a in bids if a.contract <= want), key=lambda a: a.contract)
        return super().choose(view, legal)

    def _play(self, view: PlayerView, hand: list[int], cards: list[int]) -> int:
        choice = self._play_rules(view, hand, cards)
        if len(cards) == 1 or self.work <= 0:
            return choice
        know = Knowledge(view, hand)
        sit = situation(view, hand, know.void, know.max_trump, self.rules)
        candidates = distinct(cards, sit.unknown)
        if choice not in candidates:
            candidates.append(choice)
        if len(candidates) == 1:
            return choice
        stop = None
        if self.budget_ms is not None:
            deadline = time.perf_counter() + self.budget_ms / 1000

            def stop() -> bool:
                return time.perf_counter() >= deadline

        found = search(sit, candidates, self._rng(), self.work, stop=stop)
        best = max(candidates, key=lambda c: (found.mean(c), c == choice))
        if best != choice:
            gain, se = found.edge(best, choice)
            if gain > self.margin * se:
                return best
        return choice

    def _play_rules(self, view: PlayerView, hand: list[int], cards: list[int]) -> int:
        if len(cards) == 1:
            return cards[0]
        pub = view.public
        n = len(pub.seats)
        trick = pub.trick
        plays = [(p, from_code(c)) for p, c in trick.plays] if trick else []
        if EXCUSE in cards and len(hand) == 2:
            return EXCUSE  # never keep the Excuse to the last trick (T-P8)
        know = Knowledge(view, hand)
        allies, _ = self._camp(view)
        if not plays:
            return self._lead_hard(view, hand, cards, know, allies)
        led = next((SUIT[c] for _, c in plays if SUIT[c] != EXCUSE_SUIT), -1)
        order = [(plays[0][0] + k) % n for k in range(n)]
        later = order[len(plays) + 1 :]
        later_opponents = [p for p in later if p not in allies]
        who, _ = winner_of(plays)
        ally_wins = who in allies

        def secure(trick: list[tuple[int, int]]) -> bool:
            lead = led if led >= 0 else next((SUIT[c] for _, c in trick if c != EXCUSE), -1)
            return not any(know.may_beat(p, trick, lead) for p in later_opponents)

        if ally_wins and secure(plays):
            if PETIT in cards:
                return PETIT
            plain = [c for c in cards if not IS_OUDLER[c]]
            if plain:
                return max(plain, key=lambda c: (POINTS[c], -IS_TRUMP[c], RANK[c]))
        winners = [c for c in cards if beats(c, plays)]
        if winners and not ally_wins:
            sure = [c for c in winners if secure([*plays, (self.seat, c)])]
            if sure:
                if PETIT in sure:
                    return PETIT
                return min(sure, key=lambda c: (IS_TRUMP[c], RANK[c] if c != TRUMP_21 else 99))
            # no sure win: the cheapest winner when the trick is worth it, else no waste
            later_allies = [p for p in later if p in allies]
            if not later_allies and sum(POINTS[c] for _, c in plays) >= 7:
                cheap = [c for c in winners if c != PETIT] or winners
                return min(cheap, key=lambda c: (IS_TRUMP[c], RANK[c]))
            low = [c for c in cards if c not in (PETIT, EXCUSE)] or cards
            return min(low, key=lambda c: (POINTS[c], IS_TRUMP[c], RANK[c]))
        choice = super()._play(view, hand, cards)
        if choice == PETIT and not (ally_wins and secure(plays)) and later_opponents:
            others = [c for c in cards if c != PETIT]
            if others:
                return min(others, key=lambda c: (POINTS[c], IS_TRUMP[c], RANK[c]))
        return choice

    def _lead_hard(
        self,
        view: PlayerView,
        hand: list[int],
        cards: list[int],
        know: Knowledge,
        allies: set[int],
    ) -> int:
        pub = view.public
        taker = pub.taker if pub.taker is not None else -1
        attack = self.seat == taker or view.i_am_partner
        n = len(pub.seats)
        opponents = [p for p in range(n) if p not in allies]
        played = {from_code(c) for t in pub.tricks for _, c in t.plays}
        # a King (or any card) that no opponent can beat: a sure trick
        for c in sorted(cards, key=lambda c: -POINTS[c]):
            if (
                SUIT[c] < TRUMP
                and RANK[c] == KING
                and not any(know.may_beat(p, [(self.seat, c)], SUIT[c]) for p in opponents)
                and (attack or not 0 <= taker < n or SUIT[c] in know.shown[taker])
            ):
                return c
        if not attack:
            # the defence makes the taker trump: a suit he is void in, lowest card
            voids = know.void[taker] if 0 <= taker < n else set()
            short = [
                c for c in cards if SUIT[c] < TRUMP and SUIT[c] in voids and TRUMP not in voids
            ]
            if short:
                return min(short, key=lambda c: (POINTS[c], RANK[c]))
            suits = [c for c in cards if SUIT[c] < TRUMP]
            if suits:
                length = {s: sum(1 for c in hand if SUIT[c] == s) for s in range(4)}
                low = [c for c in suits if POINTS[c] == 1] or suits
                return min(low, key=lambda c: (-length[SUIT[c]], POINTS[c], RANK[c]))
        else:
            trumps = [c for c in cards if IS_TRUMP[c] and c != PETIT]
            out_trumps = [c for c in know.out if IS_TRUMP[c]]
            if trumps and PETIT in know.out and max(trumps) > max(out_trumps, default=0):
                return max(trumps)  # a master trump hunts the Petit
        return self._lead(view, hand, cards, played)
