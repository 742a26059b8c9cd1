"""Card counting: what an unknown card is worth, and how likely a total is (R-C2, R-A1).

Everything here is a pure function of a :class:`Memory`; nothing reads the engine state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tamalou.games.tamalou.ai.memory import HOLE, UNKNOWN, Memory
from tamalou.games.tamalou.rules import Rules


@dataclass(slots=True)
class Estimate:
    """One decision's snapshot of the counting: built once, used by every option."""

    value: list[float]  # card id -> value
    pool: list[int]  # cards whose place is unknown (pile and hidden slots)
    pool_values: list[float]
    mean: float  # R-C2 counting: an unknown card is worth the mean of the unseen cards
    low_mean: float  # a card its owner knows and kept: the mean of the unseen cards below mean
    variance: float

    @classmethod
    def of(cls, m: Memory) -> Estimate:
        value = m.rules.compiled.value
        pool = m.unseen()
        vals = [value[c] for c in pool] or [5.0]
        mean = sum(vals) / len(vals)
        low = [v for v in vals if v <= mean] or vals
        var = sum((v - mean) ** 2 for v in vals) / len(vals)
        return cls(value, pool, vals, mean, sum(low) / len(low), var)

    # -- slots --------------------------------------------------------------------------

    def mine(self, m: Memory) -> dict[int, float]:
        """Expected value of each of my present slots (slot -> value)."""
        out: dict[int, float] = {}
        for i, c in enumerate(m.row(m.seat)):
            if c == HOLE:
                continue
            out[i + 1] = self.mean if c == UNKNOWN else self.value[c]
        return out

    def theirs(self, m: Memory, seat: int) -> dict[int, float]:
        """Expected value of an opponent's present slots; a card they know is likely low."""
        out: dict[int, float] = {}
        row = m.row(seat)
        knows = m.owner_knows[seat]
        for i, c in enumerate(row):
            if c == HOLE:
                continue
            if c >= 0:
                out[i + 1] = self.value[c]
            elif i < len(knows) and knows[i]:
                out[i + 1] = self.low_mean
            else:
                out[i + 1] = self.mean
        return out

    def total_of(self, m: Memory, seat: int) -> tuple[float, float]:
        """Expected total and its variance for ``seat``, from this player's point of view."""
        slots = self.mine(m) if seat == m.seat else self.theirs(m, seat)
        row = m.row(seat)
        unknown = sum(1 for c in row if c == UNKNOWN)
        return sum(slots.values()), unknown * self.variance

    # -- distributions ------------------------------------------------------------------

    def total_distribution(self, known: float, unknown: int) -> dict[float, float]:
        """Distribution of ``known`` plus ``unknown`` cards drawn from the unseen pool.

        Drawn with replacement (a close, cheap approximation for a handful of cards).
        """
        hist: dict[float, float] = {}
        w = 1.0 / len(self.pool_values)
        for v in self.pool_values:
            hist[v] = hist.get(v, 0.0) + w
        dist = {known: 1.0}
        for _ in range(unknown):
            nxt: dict[float, float] = {}
            for t, p in dist.items():
                for v, q in hist.items():
                    key = t + v
                    nxt[key] = nxt.get(key, 0.0) + p * q
            dist = nxt
        return dist

    def my_distribution(self, m: Memory) -> dict[float, float]:
        row = m.row(m.seat)
        known = sum(self.value[c] for c in row if c >= 0)
        unknown = sum(1 for c in row if c == UNKNOWN)
        return self.total_distribution(known, unknown)

    def p_at_most(self, m: Memory, threshold: float) -> float:
        """R-A1: the probability that my total is at most ``threshold``."""
        return sum(p for t, p in self.my_distribution(m).items() if t <= threshold + 1e-9)

    def p_win_if_called(self, m: Memory, improvement: float | None = None) -> float:
        """Chance a call now is right and nobody ends strictly lower (R-A2, R-A3, R-M2).

        Opponents play one last turn: their expected total drops by ``improvement``
        (1.5 by default; none when the call ends the round at once, R-X7). An unchecked
        call (R-X7) has no threshold.
        """
        threshold = call_threshold(m.rules)
        # R-M2: the caller wins ties, unless the preset says strictly lowest (koubo)
        tie = -0.5 if m.rules.scoring.caller_wins_on_tie else 0.5
        if improvement is None:
            improvement = 0.0 if m.rules.call_last_round == "never" else 1.5
        opponents = [s for s in m.seats() if s != m.seat]
        p = 0.0
        for t, pt in self.my_distribution(m).items():
            if t > threshold + 1e-9:
                continue
            q = pt
            for s in opponents:
                mu, var = self.total_of(m, s)
                sd = math.sqrt(var + 4.0)
                z = (t + tie - (mu - improvement)) / sd
                q *= 1.0 - _phi(z)  # opponent ends at t or above (or strictly above)
            p += q
        return p


def call_threshold(rules: Rules) -> float:
    """R-A1's threshold, or none (infinite) when the call is not checked (R-X7)."""
    return rules.call_threshold if rules.call_checked else math.inf


def _phi(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))
