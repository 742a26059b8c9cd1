"""The ``hard`` player: determinized rollouts within a time budget.

At a turn decision (call or draw or take the discard, keep or throw, which slot) it samples
the cards it has not seen into the hidden slots and the pile ("determinizations" that fit
what it knows: its memory, and a bias to low cards where an opponent knows what it kept),
plays every candidate action forward to the end of the round with a fast greedy model of
all players, and scores where the round leaves the *match*: the preset's round scores
(R-M2, R-X15 via ``scoring.round_scores``) added to the match scores of its view, then the
preset's match end (R-M3, R-X16: over or reaching the target, elimination, a grand winner, a
fixed number of rounds) or, while the match goes on, the chance its lead holds. The
rollouts play the preset's mechanics: checked or unchecked calls, a last round or none,
hidden calls, failed calls, the powers of every preset (look any, swaps of any two, look
then swap, give the top), eliminated seats. The medium choice stays unless another
candidate is better by a clear margin over the same samples (paired, 1.5 standard errors):
the search corrects the rules of thumb, it does not replace them with noise. A call medium
would not make is searched only against opponents who keep pace (``keeps_pace``).

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
from tamalou.games.tamalou.scoring import round_scores
from tamalou.games.tamalou.views import PlayerView

#: a decision's search time (ms): its p99, with the view and the answer, stays under 50 ms
#: in the bot's worker pool on a loaded machine (docs/ai.md)
BUDGET_MS = 30.0
MARGIN = 1.5  # standard errors by which a candidate must beat medium's choice
CALL_MARGIN = 2.5  # the same for a call (R-A1), which ends the round for the caller
#: points a round by which hard's match lead over every opponent grows against a weaker
#: player (easy: about 6 in dutch; medium about 1): at this pace or more, no added calls
WEAK_EDGE = 4.0
MAX_TURNS = 40  # a rollout still running after this many turns is scored as it stands


_ScoreKey = tuple[tuple[float, ...], int | None, tuple[int, ...], tuple[bool, ...]]


class _Sim:
    """One determinized round, played fast by a greedy model of every player."""

    __slots__ = (
        "active",
        "call_at",
        "caller",
        "failed",
        "gamble_call",
        "know",
        "n",
        "pile",
        "power",
        "power_on_replace",
        "rank",
        "rows",
        "rules",
        "same_rank",
        "scored",
        "threshold",
        "top",
        "top_spent",
        "turns_left",
        "unknown_value",
        "value",
        "void",
    )

    def __init__(self, rules: Rules, unknown_value: float) -> None:
        c = rules.compiled
        self.rules = rules
        self.value = c.value
        self.rank = c.rank
        self.power = c.power
        by_rank: dict[str, set[int]] = {}
        for card, r in enumerate(c.rank):
            by_rank.setdefault(r, set()).add(card)
        # card -> the cards of its rank (R-D1's doubles), to pass over a row in one test
        self.same_rank = [frozenset(by_rank[r]) for r in c.rank]
        # R-X5 (power_from "thrown"): only a drawn card thrown at once plays its power
        self.power_on_replace = rules.power_from == "discarded"
        self.threshold = rules.call_threshold if rules.call_checked else math.inf
        self.call_at = rules.call_threshold  # when a modelled player calls (R-A1's bar)
        # a call on one unseen card: only where a wrong call costs a penalty card (R-A4), not
        # where it voids the round at 10 points (cabo, R-V4; see ``wants_call``)
        self.gamble_call = rules.failed_call != "void_round"
        self.unknown_value = unknown_value
        self.rows: list[list[int]] = []
        self.know: list[list[bool]] = []
        self.pile: list[int] = []
        self.top: int | None = None
        self.top_spent = False
        self.caller: int | None = None
        self.turns_left = 0
        self.n = 0
        self.active: list[bool] = []  # R-X16: False for a seat out of the match
        self.failed: list[int] = []  # failed calls this round (R-A2, R-M5)
        self.void = False  # R-X7: a failed call voided the round
        # the preset's round scores by (totals, caller, failed calls, seats in), shared by
        # the copies: the rollouts of one search end in a few hundred places at most
        self.scored: dict[_ScoreKey, list[float]] = {}

    def copy(self) -> _Sim:
        s = _Sim.__new__(_Sim)
        s.rules = self.rules
        s.value, s.rank, s.power = self.value, self.rank, self.power
        s.same_rank, s.scored = self.same_rank, self.scored
        s.power_on_replace = self.power_on_replace
        s.threshold, s.call_at, s.unknown_value = self.threshold, self.call_at, self.unknown_value
        s.gamble_call = self.gamble_call
        s.rows = [r[:] for r in self.rows]
        s.know = [k[:] for k in self.know]
        s.pile = self.pile[:]
        s.top, s.top_spent = self.top, self.top_spent
        s.caller, s.turns_left, s.n = self.caller, self.turns_left, self.n
        s.active, s.failed, s.void = self.active, list(self.failed), self.void
        return s

    # -- the greedy model ---------------------------------------------------------------
    # (the hot loop of the search: a rollout is a few dozen of these calls, so they read
    # attributes once into locals and loop over the row without building lists)

    def estimates(self, p: int) -> list[float]:
        value, mu = self.value, self.unknown_value
        return [
            -1.0 if c == HOLE else (value[c] if k else mu)
            for c, k in zip(self.rows[p], self.know[p], strict=True)
        ]

    def scan(self, p: int) -> tuple[int, float, float, int]:
        """One pass over a row: ``worst``'s slot and value, then the total of the cards the
        owner knows and the number it does not (``wants_call``)."""
        value, mu = self.value, self.unknown_value
        know = self.know[p]
        best_i, best_v = -1, -1.0  # by ``estimates``: the highest, the last known of a tie
        known, unknown = 0.0, 0
        for i, c in enumerate(self.rows[p]):
            if c == HOLE:  # estimated -1.0: taken only on a tie, if marked known
                if best_v == -1.0 and know[i]:
                    best_i = i
            elif know[i]:
                v = value[c]
                known += v
                if v >= best_v:
                    best_i, best_v = i, v
            else:
                unknown += 1
                if mu > best_v:
                    best_i, best_v = i, mu
        return best_i, best_v, known, unknown

    def worst(self, p: int) -> tuple[int, float]:
        """The slot that looks highest (the last known one of a tie, else the first), by
        ``estimates``; (-1, -1.0) if none looks above a hole."""
        i, v, _, _ = self.scan(p)
        return i, v

    def wants_call(self, p: int) -> bool:
        if self.caller is not None:
            return False
        _, _, known, unknown = self.scan(p)
        return self.calls(known, unknown)

    def calls(self, known: float, unknown: int) -> bool:
        """A modelled player's call, from what it knows of its row."""
        if unknown == 0:
            return known <= self.call_at
        # a gamble on one unseen card (right about a third of the time): only where a wrong
        # call costs a penalty card (R-A4); where it voids the round at 10 points (cabo,
        # R-V4) medium never takes it (P(total <= 5) < 0.8), and modelling it made the
        # rollouts expect opponents to throw rounds away
        return unknown == 1 and known <= 1 and self.gamble_call

    def discard(self, card: int, p: int, allow_power: bool = True, depth: int = 0) -> None:
        self.top, self.top_spent = card, False
        power = self.power[card]
        if allow_power and power is not None:
            if power == Power.REPLAY and depth < 2 and self.pile:
                self.draw_and_play(p, depth + 1)
                return
            if power in (Power.LOOK_OWN, Power.LOOK_ANY):  # R-P3, R-X1: learn one of mine
                for i, c in enumerate(self.rows[p]):
                    if c != HOLE and not self.know[p][i]:
                        self.know[p][i] = True
                        break
            elif power in (Power.BLIND_SWAP, Power.SWAP_ANY):  # R-P2, R-X2
                self.swap(p)
            elif power == Power.LOOK_THEN_SWAP:  # R-X3: the card is seen before the swap
                self.swap(p, informed=True)
            elif power == Power.GIVE_TOP:  # R-X4: the pile's top to the lowest-looking one
                self.give_top(p)

    def swap(self, p: int, informed: bool = False) -> None:
        i, v = self.worst(p)
        if i < 0 or v < 7:
            return
        for q in range(self.n):
            if q == p or q == self.caller or not self.active[q] or not self.rows[q]:
                continue
            est = self.estimates(q)
            j = min(range(len(est)), key=lambda k: est[k] if est[k] >= 0 else 99.0)
            if est[j] < 0 or est[j] >= v - 2:
                continue
            a, b = self.rows[p], self.rows[q]
            if informed and self.value[b[j]] >= v - 1:
                continue  # seen, and not worth it
            a[i], b[j] = b[j], a[i]
            self.know[p][i] = informed
            self.know[q][j] = False
            return

    def give_top(self, p: int) -> None:
        if not self.pile:
            return
        others = [q for q in range(self.n) if q != p and q != self.caller and self.active[q]]
        if not others:
            return
        q = min(others, key=lambda o: sum(v for v in self.estimates(o) if v >= 0))
        self.rows[q].append(self.pile.pop())
        self.know[q].append(False)

    def draw_and_play(self, p: int, depth: int = 0, worst: tuple[int, float] | None = None) -> None:
        if not self.pile:
            return
        x = self.pile.pop()
        self.keep_or_throw(p, x, True, depth, worst)

    def keep_or_throw(
        self,
        p: int,
        x: int,
        may_throw: bool,
        depth: int = 0,
        worst: tuple[int, float] | None = None,
    ) -> None:
        """``worst``: the row's ``worst(p)`` when the caller has it already."""
        i, w = self.worst(p) if worst is None else worst
        if i >= 0 and (not may_throw or self.value[x] < w - 0.5):
            old = self.rows[p][i]
            self.rows[p][i] = x
            self.know[p][i] = True
            self.discard(old, p, allow_power=self.power_on_replace, depth=depth)
        else:
            self.discard(x, p, depth=depth)

    def doubles(self, after: int) -> bool:
        """R-D1: after a turn, the first player who knows a card of the top's rank doubles.

        True if that double emptied the player's row (R-X8: the round ends): the only
        move of the model that takes a card out of a row."""
        top = self.top
        if top is None or self.top_spent:
            return False
        rank = self.rank
        r = rank[top]
        same = self.same_rank[top]
        n, caller, active = self.n, self.caller, self.active
        for k in range(1, n + 1):
            q = (after + k) % n
            if q == caller or not active[q]:
                continue
            row, know = self.rows[q], self.know[q]
            if same.isdisjoint(row):
                continue  # no card of the rank in the row, known or not
            for i, c in enumerate(row):
                if know[i] and c != HOLE and rank[c] == r:
                    row[i] = HOLE
                    know[i] = False
                    self.top, self.top_spent = c, True
                    return row.count(HOLE) == len(row)
        return False

    def call(self, p: int) -> None:
        rules = self.rules
        total = sum(self.value[c] for c in self.rows[p] if c != HOLE)
        if rules.call_shown:
            self.know[p] = [True] * len(self.rows[p])  # R-A2/R-A4: shown to everyone
        if total <= self.threshold:  # R-X7: an unchecked call is always right
            self.caller = p
            others = [q for q in range(self.n) if q != p and self.active[q]]
            if rules.call_last_round == "never":
                last = False
            elif rules.call_last_round == "fewer_cards":  # classique
                mine = sum(1 for c in self.rows[p] if c != HOLE)
                last = all(mine < sum(1 for c in self.rows[q] if c != HOLE) for q in others)
            else:
                last = True
            self.turns_left = len(others) if last else 0
            return
        self.failed[p] += 1
        if rules.failed_call == "void_round":
            self.void = True
            return
        for _ in range(rules.failed_call_penalty_cards):
            if self.pile:
                self.rows[p].append(self.pile.pop())
                self.know[p].append(False)

    def turn(self, p: int) -> None:
        i, w, known, unknown = self.scan(p)  # the row as the turn starts: one pass
        if self.caller is None and self.calls(known, unknown):
            self.call(p)
            return
        top = self.top
        if top is not None and self.power[top] is None:
            v = self.value[top]
            if i >= 0 and v <= 2 and v < w - 2:
                self.top = None
                self.keep_or_throw(p, top, False, worst=(i, w))
                return
        self.draw_and_play(p, worst=(i, w))

    def finish(self, start: int) -> None:
        """Play turns from ``start`` until the round ends (``over``)."""
        if self.over():
            return
        n, active = self.n, self.active
        p = start
        for _ in range(MAX_TURNS):
            # ``over`` without its look at the rows: only a double empties a row
            caller = self.caller
            if self.void or (caller is not None and self.turns_left <= 0) or not self.pile:
                return
            if p != caller and active[p]:
                self.turn(p)
                emptied = self.doubles(p)
                if caller is not None:
                    self.turns_left -= 1
                if emptied:
                    return
            p = (p + 1) % n

    def over(self) -> bool:
        if self.void or (self.caller is not None and self.turns_left <= 0) or not self.pile:
            return True
        # R-X8, approximated: an emptied row ends the round
        return any(
            a and r.count(HOLE) == len(r) for a, r in zip(self.active, self.rows, strict=True)
        )

    def round_scores(self) -> list[float]:
        """The round's scores by the preset (R-M2, R-X15); a void round scores nothing."""
        if self.void:  # cabo: the failed caller scores the failed-call points, others 0
            points = self.rules.scoring.failed_call_points
            return [points * f for f in self.failed]
        value = self.value
        totals: list[float] = []
        for r in self.rows:
            total = 0.0
            for c in r:
                if c != HOLE:
                    total += value[c]
            totals.append(total)
        caller = self.caller
        if caller is not None and self.rules.scoring.caller_draws_per_better:
            # dutch (R-V1): the caller takes a pile card per player strictly below
            mine = totals[caller]
            for q in range(self.n):
                if q != caller and self.active[q] and totals[q] < mine:
                    totals[caller] += value[self.pile.pop()] if self.pile else self.unknown_value
        key = (tuple(totals), caller, tuple(self.failed), tuple(self.active))
        scores = self.scored.get(key)
        if scores is None:
            scores = round_scores(
                self.rules.scoring, totals, caller, self.failed, active=self.active
            )
            self.scored[key] = scores
        return list(scores)

    def reward(self, me: int, outlook: _Outlook) -> float:
        """The chance the match is won from where this round leaves it."""
        return outlook.win_chance(me, self.round_scores())


class _Outlook:
    """The match around the round (from the view): scores so far and how the match ends."""

    __slots__ = (
        "active",
        "chances",
        "cum",
        "falls_to",
        "match_end",
        "rounds_left",
        "seats",
        "spread",
        "target",
        "win_at",
    )

    def __init__(self, rules: Rules, cum: list[float], active: list[bool], round_no: int) -> None:
        self.cum = cum
        self.active = active
        self.seats = [i for i, a in enumerate(active) if a]
        self.rounds_left = None if rules.max_rounds is None else max(0, rules.max_rounds - round_no)
        self.spread = 12.0  # a round's score difference, roughly (its standard deviation)
        # the match end, read once (every rollout's score reads it)
        self.target, self.match_end, self.win_at = rules.target, rules.match_end, rules.win_at
        self.falls_to = rules.exact_target_falls_to
        self.chances: dict[tuple[int, tuple[float, ...]], float] = {}  # many rollouts tie

    def win_chance(self, me: int, scores: list[float]) -> float:
        key = (me, tuple(scores))
        chance = self.chances.get(key)
        if chance is None:
            chance = self.chances[key] = self._win_chance(me, scores)
        return chance

    def _win_chance(self, me: int, scores: list[float]) -> float:
        target = self.target
        cum = [c + s if a else c for c, s, a in zip(self.cum, scores, self.active, strict=True)]
        falls_to = self.falls_to
        if falls_to is not None:  # R-X16 (tamoul): exactly on the target falls back
            cum = [falls_to if c == target else c for c in cum]
        seats = self.seats
        mine = cum[me]
        others = [i for i in seats if i != me]
        if not others:
            return 1.0
        if self.match_end == "elimination":
            left = [i for i in seats if cum[i] < target]
            if me not in left:
                if left:
                    return 0.0
                return _share(mine, [cum[i] for i in seats])  # all crossed: the lowest wins
            if len(left) == 1:
                return 1.0
            others = [i for i in left if i != me]
            if self.rounds_left == 0:
                return _share(mine, [cum[i] for i in left])
            room = target - max(cum[i] for i in left)
        else:
            live = [cum[i] for i in seats]
            high = max(live)
            if self.win_at is not None and min(live) <= self.win_at:
                return _share(mine, live)  # a grand winner
            if self.match_end == "exceed":
                over = high > target
            elif self.match_end == "reach":
                over = high >= target
            else:
                over = False
            if over or self.rounds_left == 0:
                return _share(mine, live)
            room = target - high
            if self.match_end == "rounds":
                room = 20.0 * (self.rounds_left or 1)
        rounds = max(1.0, room / 20.0)
        if self.rounds_left is not None:
            rounds = min(rounds, max(1.0, float(self.rounds_left)))
        lead = min([cum[i] for i in others]) - mine
        return _phi(lead / (self.spread * math.sqrt(rounds)))


def _share(mine: float, scores: list[float]) -> float:
    """R-M3: a win shared by the lowest scores."""
    best = min(scores)
    return 1.0 / sum(1 for c in scores if c == best) if mine == best else 0.0


_SQRT2 = math.sqrt(2.0)


def _phi(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / _SQRT2))


class SearchPlayer(HeuristicPlayer):
    """``hard``: medium's rules of thumb, checked by determinized rollouts."""

    level = "hard"

    def __init__(
        self,
        seat: int,
        rules: Rules,
        seed: int | str,
        budget_ms: float | None = BUDGET_MS,
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
        if self.rash_opponent(view):
            return default
        if kinds & {"replace", "throw", "draw"} or (
            "end_turn" in kinds and "call" in kinds  # R-X6: the end-of-turn call
        ):
            candidates = self.candidates(options, legal, est, view)
            if len(candidates) > 1 and default in candidates:
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
        self,
        options: list[tuple[float, A.Action]],
        legal: list[A.Action],
        est: Estimate,
        view: PlayerView,
    ) -> list[A.Action]:
        default = options[0][1]
        add_calls = self.keeps_pace(view)
        out: list[A.Action] = []
        for _, a in options:
            if isinstance(a, A.Look | A.Swap) and len(out) >= 3:
                continue
            if isinstance(a, A.CallTamalou) and a is not default and not add_calls:
                continue
            out.append(a)
        if add_calls:
            plausible = (
                not self.rules.call_checked  # R-X7: every call is right, only the win matters
                or est.p_at_most(self.memory, self.rules.call_threshold) >= 0.5
            )
            for a in legal:  # a call is a candidate once it is plausible (R-A1)
                if isinstance(a, A.CallTamalou) and a not in out and plausible:
                    out.append(a)
        return out[:6]

    def keeps_pace(self, view: PlayerView) -> bool:
        """Whether the search may add a call medium would not make: only against opponents
        who have kept pace over the match so far (public scores, R-M2).

        The rollouts model every opponent as a greedy player who keeps each drawn card that
        lowers its row, so an early call looks like a lead locked in. Against a player who
        plays that well it is (hard's added calls win it matches against medium); against a
        weaker one (easy forgets, random plays at random), whose row stays high, waiting
        wins more, and the added calls made hard lose more matches to easy and random than
        medium did. Until a round has been scored there is no evidence either way: medium's
        calls only."""
        pub = view.public
        played = pub.round_no - 1
        if played < 1:
            return False
        mine = next(sv.score for sv in pub.seats if sv.seat == self.seat)
        others = [sv.score for sv in pub.seats if sv.seat != self.seat and not sv.out]
        if not others:
            return False
        return min(others) - mine < WEAK_EDGE * played

    def rash_opponent(self, view: PlayerView) -> bool:
        """Whether an opponent still in has called on one of its first two turns of a
        round this match, where a call ends the round at once (R-X7, dutch_sec).

        A player who plays to lower its row seldom calls before it can know the row is low
        (medium in about one dutch_sec match in ten); one who does (random, in most rounds)
        may end any round at any turn, which the
        rollouts' opponents never do before their row is low, so the search's model is
        wrong where it matters most (when to call, how fast to lower the row): hard plays
        medium's choices instead. Where the others play a last turn after a call (R-A3),
        medium's own early calls on low peeked cards would look the same: not there."""
        if self.rules.call_last_round != "never":
            return False
        rash = self.memory.rash_calls
        return any(
            rash.get(sv.seat, 0) > 0
            for sv in view.public.seats
            if sv.seat != self.seat and not sv.out
        )

    # -- the search -----------------------------------------------------------------------

    def root(self, view: PlayerView, est: Estimate) -> tuple[_Sim, list[tuple[int, int, bool]]]:
        """The known part of the round, and the hidden places to fill (seat, slot, low)."""
        m = self.memory
        sim = _Sim(self.rules, est.mean)
        seats = [sv.seat for sv in view.public.seats]
        sim.n = len(seats)
        sim.active = [not sv.out for sv in view.public.seats]
        sim.failed = [0] * sim.n
        hidden: list[tuple[int, int, bool]] = []
        for s in seats:
            row = list(m.row(s)) if sim.active[s] else []
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
                sim.discard(old, me, allow_power=sim.power_on_replace)
        elif isinstance(a, A.EndTurn):
            pass
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
                1
                for s in range(base.n)
                if s != self.memory.caller and s != self.seat and base.active[s]
            )
        pub = view.public
        outlook = _Outlook(
            self.rules, [sv.score for sv in pub.seats], list(base.active), pub.round_no
        )
        seed_base = self._rng().randrange(2**30)
        k = len(candidates)
        sums = [0.0] * k
        diffs: list[list[float]] = [[] for _ in range(k)]
        d = candidates.index(default)
        it = 0
        budget = None if self.budget_ms is None else self.budget_ms / 1000.0
        deadline = None if budget is None else start + budget * 0.9
        clock = time.perf_counter
        while it < self.max_iterations:
            det = self.sample(base, hidden, est, seed_base + it)
            rewards = []
            for c, a in enumerate(candidates):
                sim = det if c == k - 1 else det.copy()  # the last one plays the sample itself
                self.play(sim, a)
                rewards.append(sim.reward(self.seat, outlook))
                if deadline is not None and it and clock() > deadline:
                    break  # the budget is checked after every rollout, not every sample
            if len(rewards) < k:
                break  # a sample cut short is dropped: the candidates stay paired
            for c in range(k):
                sums[c] += rewards[c]
                diffs[c].append(rewards[c] - rewards[d])
            it += 1
            if deadline is not None and clock() > deadline:
                break
        self.last_iterations = it
        best, best_score = d, 0.0
        for c in range(k):
            if c == d or it < 8:
                continue
            mean = sum(diffs[c]) / it
            var = sum((x - mean) ** 2 for x in diffs[c]) / (it - 1)
            se = math.sqrt(var / it) if var > 0 else 0.0
            # a call cannot be taken back: it needs the stronger evidence
            margin = CALL_MARGIN if isinstance(candidates[c], A.CallTamalou) else MARGIN
            score = mean - margin * se
            if mean > 0 and score > best_score:
                best, best_score = c, score
        return candidates[best]
