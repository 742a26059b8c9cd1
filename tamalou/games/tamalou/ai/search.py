"""The ``hard`` player: determinized rollouts within a time budget.

At a turn decision (call or draw or take the discard, keep or throw, which slot) it samples
the cards it has not seen into the hidden slots and the pile ("determinizations" that fit
what it knows: its memory, and a bias to low cards where an opponent knows what it kept),
plays every candidate action forward to the end of the round with a fast greedy model of
all players, and scores the round's place (R-E3). The medium choice stays unless another
candidate is better by a clear margin over the same samples (paired, 1.5 standard errors):
the search corrects the rules of thumb, it does not replace them with noise.

The search is bounded by ``budget_ms`` (wall clock) and ``max_iterations`` (samples); with
``budget_ms=None`` it is deterministic given the seed and the events seen.
"""

from __future__ import annotations

import math
import random
import time

from tamalou.core import cards
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou.ai.estimate import Estimate
from tamalou.games.tamalou.ai.memory import HOLE, UNKNOWN
from tamalou.games.tamalou.ai.policy import MEDIUM, HeuristicPlayer
from tamalou.games.tamalou.rules import Power, Rules
from tamalou.games.tamalou.views import PlayerView

MAX_TURNS = 40  # a rollout still running after this many turns is scored as it stands


class _Sim:
    """One determinized round, played fast by a greedy model of every player."""

    __slots__ = (
        "caller",
        "know",
        "n",
        "pile",
        "power",
        "rank",
        "rows",
        "threshold",
        "top",
        "top_spent",
        "turns_left",
        "unknown_value",
        "value",
    )

    def __init__(self, rules: Rules, unknown_value: float) -> None:
        c = rules.compiled
        self.value = c.value
        self.rank = c.rank
        self.power = c.power
        self.threshold = rules.call_threshold
        self.unknown_value = unknown_value
        self.rows: list[list[int]] = []
        self.know: list[list[bool]] = []
        self.pile: list[int] = []
        self.top: int | None = None
        self.top_spent = False
        self.caller: int | None = None
        self.turns_left = 0
        self.n = 0

    def copy(self) -> _Sim:
        s = _Sim.__new__(_Sim)
        s.value, s.rank, s.power = self.value, self.rank, self.power
        s.threshold, s.unknown_value = self.threshold, self.unknown_value
        s.rows = [list(r) for r in self.rows]
        s.know = [list(k) for k in self.know]
        s.pile = list(self.pile)
        s.top, s.top_spent = self.top, self.top_spent
        s.caller, s.turns_left, s.n = self.caller, self.turns_left, self.n
        return s

    # -- the greedy model ---------------------------------------------------------------

    def estimates(self, p: int) -> list[float]:
        value, mu = self.value, self.unknown_value
        return [
            -1.0 if c == HOLE else (value[c] if k else mu)
            for c, k in zip(self.rows[p], self.know[p], strict=True)
        ]

    def worst(self, p: int) -> tuple[int, float]:
        est = self.estimates(p)
        best_i, best_v = -1, -1.0
        for i, v in enumerate(est):
            if v > best_v or (v == best_v and self.know[p][i]):
                best_i, best_v = i, v
        return best_i, best_v

    def wants_call(self, p: int) -> bool:
        if self.caller is not None:
            return False
        known = 0.0
        unknown = 0
        for c, k in zip(self.rows[p], self.know[p], strict=True):
            if c == HOLE:
                continue
            if k:
                known += self.value[c]
            else:
                unknown += 1
        return (unknown == 0 and known <= self.threshold) or (unknown == 1 and known <= 1)

    def discard(self, card: int, p: int, allow_power: bool = True, depth: int = 0) -> None:
        self.top, self.top_spent = card, False
        power = self.power[card]
        if allow_power and power is not None:
            if power == Power.REPLAY and depth < 2 and self.pile:
                self.draw_and_play(p, depth + 1)
                return
            if power == Power.LOOK_OWN:
                for i, c in enumerate(self.rows[p]):
                    if c != HOLE and not self.know[p][i]:
                        self.know[p][i] = True
                        break
            elif power == Power.BLIND_SWAP:
                self.swap(p)

    def swap(self, p: int) -> None:
        i, v = self.worst(p)
        if i < 0 or v < 7:
            return
        for q in range(self.n):
            if q == p or q == self.caller:
                continue
            est = self.estimates(q)
            j = min(range(len(est)), key=lambda k: est[k] if est[k] >= 0 else 99.0)
            if est[j] < 0 or est[j] >= v - 2:
                continue
            a, b = self.rows[p], self.rows[q]
            a[i], b[j] = b[j], a[i]
            self.know[p][i] = False
            self.know[q][j] = False
            return

    def draw_and_play(self, p: int, depth: int = 0) -> None:
        if not self.pile:
            return
        x = self.pile.pop()
        self.keep_or_throw(p, x, True, depth)

    def keep_or_throw(self, p: int, x: int, may_throw: bool, depth: int = 0) -> None:
        i, w = self.worst(p)
        if i >= 0 and (not may_throw or self.value[x] < w - 0.5):
            old = self.rows[p][i]
            self.rows[p][i] = x
            self.know[p][i] = True
            self.discard(old, p, depth=depth)
        else:
            self.discard(x, p, depth=depth)

    def doubles(self, after: int) -> None:
        """R-D1: after a turn, the first player who knows a card of the top's rank doubles."""
        if self.top is None or self.top_spent:
            return
        r = self.rank[self.top]
        for k in range(1, self.n + 1):
            q = (after + k) % self.n
            if q == self.caller:
                continue
            row, know = self.rows[q], self.know[q]
            for i, c in enumerate(row):
                if c != HOLE and know[i] and self.rank[c] == r:
                    row[i] = HOLE
                    know[i] = False
                    self.top, self.top_spent = c, True
                    return

    def call(self, p: int) -> None:
        total = sum(self.value[c] for c in self.rows[p] if c != HOLE)
        self.know[p] = [True] * len(self.rows[p])  # R-A2/R-A4: shown to everyone
        if total <= self.threshold:
            self.caller = p
            self.turns_left = self.n - 1
        elif self.pile:
            self.rows[p].append(self.pile.pop())
            self.know[p].append(False)

    def turn(self, p: int) -> None:
        if self.wants_call(p):
            self.call(p)
            return
        top = self.top
        if top is not None and self.power[top] is None:
            i, w = self.worst(p)
            v = self.value[top]
            if i >= 0 and v <= 2 and v < w - 2:
                self.top = None
                self.keep_or_throw(p, top, False)
                return
        self.draw_and_play(p)

    def finish(self, start: int) -> None:
        """Play turns from ``start`` until the round ends."""
        p = start
        for _ in range(MAX_TURNS):
            if self.caller is not None and self.turns_left <= 0:
                return
            if not self.pile:
                return
            if p != self.caller:
                was_called = self.caller is not None
                self.turn(p)
                self.doubles(p)
                if was_called:
                    self.turns_left -= 1
            if any(all(c == HOLE for c in r) for r in self.rows):
                return
            p = (p + 1) % self.n

    def reward(self, me: int) -> float:
        """Win share (R-E3 ranking), with a small pull toward a lower total than the rest."""
        value = self.value
        keys = []
        for q in range(self.n):
            row = [c for c in self.rows[q] if c != HOLE]
            keys.append((sum(value[c] for c in row), len(row), 0 if q == self.caller else 1))
        mine = keys[me]
        win = 0.0 if any(k < mine for k in keys) else 1.0 / sum(1 for k in keys if k == mine)
        best_other = min(k[0] for q, k in enumerate(keys) if q != me)
        margin = max(-20.0, min(20.0, best_other - mine[0]))
        return win + 0.01 * margin


class SearchPlayer(HeuristicPlayer):
    """``hard``: medium's rules of thumb, checked by determinized rollouts."""

    level = "hard"

    def __init__(
        self,
        seat: int,
        rules: Rules,
        seed: int | str,
        budget_ms: float | None = 50.0,
        max_iterations: int | None = None,
    ) -> None:
        super().__init__(seat, rules, seed, MEDIUM, level="hard")
        self.budget_ms = budget_ms
        self.max_iterations = max_iterations if max_iterations is not None else 10_000
        self.last_iterations = 0

    def choose(self, view: PlayerView, legal: list[A.Action]) -> A.Action | None:
        est = Estimate.of(self.memory)
        options = self.options(legal, est)
        if not options:
            return None
        options.sort(key=lambda o: -o[0])
        default = options[0][1]
        kinds = {a.kind for a in legal}
        if self.rules.mechanics():
            return default  # the rollouts model the default game only: medium's choice
        if "replace" in kinds or "throw" in kinds or "draw" in kinds:
            candidates = self.candidates(options, legal, est)
            if len(candidates) > 1:
                return self.search(view, candidates, default, est)
        return default

    def gamble_double(self, view: PlayerView, at: int) -> A.Double | None:
        """R-D3: double an unseen card of its own only if the expected gain is positive.

        Gain: P(same rank) x the card's value (and a card fewer); loss: a penalty card
        (worth the mean unseen card) and a block (R-D5, R-D6). In the default rules this
        is almost never positive, so ``hard`` almost never gambles.
        """
        pub = view.public
        m = self.memory
        if pub.discard_seq is None or pub.discard_top is None or m.caller is not None:
            return None
        unknown = [i + 1 for i, c in enumerate(m.row(self.seat)) if c == UNKNOWN]
        if not unknown:
            return None
        est = Estimate.of(m)
        top_rank = self.rules.compiled.rank[cards.from_code(pub.discard_top)]
        rank = self.rules.compiled.rank
        same = [c for c in est.pool if rank[c] == top_rank]
        if not same:
            return None
        p = len(same) / len(est.pool)
        gain = p * (est.value[same[0]] + 0.5)
        loss = (1 - p) * (est.mean + 1.0)
        if gain <= loss:
            return None
        seq = pub.window_seq if pub.window_seq is not None else pub.discard_seq
        return A.Double(self.seat, unknown[0], seq, at)

    def candidates(
        self, options: list[tuple[float, A.Action]], legal: list[A.Action], est: Estimate
    ) -> list[A.Action]:
        out: list[A.Action] = []
        for _, a in options:
            if isinstance(a, A.Look | A.Swap) and len(out) >= 3:
                continue
            out.append(a)
        for a in legal:  # a call is a candidate once it is plausible (R-A1)
            if (
                isinstance(a, A.CallTamalou)
                and a not in out
                and est.p_at_most(self.memory, self.rules.call_threshold) >= 0.5
            ):
                out.append(a)
        return out[:6]

    # -- the search -----------------------------------------------------------------------

    def root(self, view: PlayerView, est: Estimate) -> tuple[_Sim, list[tuple[int, int, bool]]]:
        """The known part of the round, and the hidden places to fill (seat, slot, low)."""
        m = self.memory
        sim = _Sim(self.rules, est.mean)
        seats = [sv.seat for sv in view.public.seats]
        sim.n = len(seats)
        hidden: list[tuple[int, int, bool]] = []
        for s in seats:
            row = list(m.row(s))
            knows = m.owner_knows[s]
            know: list[bool] = []
            for i, c in enumerate(row):
                if s == self.seat:
                    know.append(c >= 0)
                else:
                    know.append(i < len(knows) and knows[i] and c != HOLE)
                if c == UNKNOWN:
                    hidden.append((s, i, s != self.seat and know[-1]))
            sim.rows.append(row)
            sim.know.append(know)
        sim.top = m.discard[-1] if m.discard else None
        sim.top_spent = not view.public.discard_doubleable
        sim.caller = m.caller
        if m.caller is not None:
            sim.turns_left = 0  # filled by the caller of search: last turns are few anyway
        return sim, hidden

    def sample(
        self, base: _Sim, hidden: list[tuple[int, int, bool]], est: Estimate, rng_seed: int
    ) -> _Sim:
        rng = random.Random(rng_seed)
        pool = list(est.pool)
        rng.shuffle(pool)
        sim = base.copy()
        value = est.value
        for s, i, low in hidden:
            if not pool:
                sim.rows[s][i] = HOLE
                continue
            if low and len(pool) > 2:  # they know it and kept it: likely low
                j = min(range(3), key=lambda k: value[pool[-1 - k]])
                pool[-1], pool[-1 - j] = pool[-1 - j], pool[-1]
            sim.rows[s][i] = pool.pop()
        sim.pile = pool
        return sim

    def play(self, sim: _Sim, a: A.Action) -> None:
        """Apply the root action for this seat, then finish the round."""
        me = self.seat
        m = self.memory
        if isinstance(a, A.CallTamalou):
            sim.call(me)
        elif isinstance(a, A.Draw):
            sim.draw_and_play(me)
        elif isinstance(a, A.TakeDiscard):
            top = sim.top
            sim.top = None
            if top is not None:
                sim.keep_or_throw(me, top, False)
        elif isinstance(a, A.Throw):
            if m.held is not None:
                sim.discard(m.held, me)
        elif isinstance(a, A.Replace):
            if m.held is not None:
                old = sim.rows[me][a.slot - 1]
                sim.rows[me][a.slot - 1] = m.held
                sim.know[me][a.slot - 1] = True
                sim.discard(old, me)
        elif isinstance(a, A.Look):
            if a.target == me:
                sim.know[me][a.slot - 1] = True
        elif isinstance(a, A.Swap):
            mine, theirs = sim.rows[me], sim.rows[a.target]
            i, j = a.slot - 1, a.target_slot - 1
            mine[i], theirs[j] = theirs[j], mine[i]
            sim.know[me][i] = m.row(a.target)[j] >= 0
            sim.know[a.target][j] = False
        sim.doubles(me)
        if sim.caller is not None and sim.caller != me:
            sim.turns_left -= 1
        sim.finish((me + 1) % sim.n)

    def search(
        self, view: PlayerView, candidates: list[A.Action], default: A.Action, est: Estimate
    ) -> A.Action:
        start = time.perf_counter()
        base, hidden = self.root(view, est)
        if self.memory.caller is not None:
            base.turns_left = sum(
                1 for s in range(base.n) if s != self.memory.caller and s != self.seat
            )
        seed_base = self._rng().randrange(2**30)
        k = len(candidates)
        sums = [0.0] * k
        diffs: list[list[float]] = [[] for _ in range(k)]
        d = candidates.index(default)
        it = 0
        budget = None if self.budget_ms is None else self.budget_ms / 1000.0
        while it < self.max_iterations:
            det = self.sample(base, hidden, est, seed_base + it)
            rewards = []
            for a in candidates:
                sim = det.copy()
                self.play(sim, a)
                rewards.append(sim.reward(self.seat))
            for c in range(k):
                sums[c] += rewards[c]
                diffs[c].append(rewards[c] - rewards[d])
            it += 1
            if budget is not None and time.perf_counter() - start > budget * 0.9:
                break
        self.last_iterations = it
        best, best_score = d, 0.0
        for c in range(k):
            if c == d or it < 8:
                continue
            mean = sum(diffs[c]) / it
            var = sum((x - mean) ** 2 for x in diffs[c]) / (it - 1)
            se = math.sqrt(var / it) if var > 0 else 0.0
            score = mean - 1.5 * se
            if mean > 0 and score > best_score:
                best, best_score = c, score
        return candidates[best]
