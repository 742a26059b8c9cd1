"""Tournaments: Swiss seating, duplicate scoring and standings, for every game (pure).

A tournament is a number of *rounds*; in each round its entrants sit at tables of the same
size and every table plays one match (a *table-round*). This module decides who sits where
and what each table-round is worth; it knows no game and no platform: the bot gives it
each table's results as numbers, seat by seat.

- **Seating** (:func:`seat_round`): the first round from the tournament's seed, later rounds
  by the standings (Swiss: close scores meet), avoiding opponents already met where a
  seating without repeats exists (a bounded search, then the fewest repeats). A table short
  of players gets AI seats (``None``). The seat order at a table is drawn from the seed.
- **Duplicate** (:func:`table_seed`): every table of a round plays the same seed, so the
  same deals with each hand at the same seat position. A seat's result on a deal is
  compared with the same seat on the same deal at the other tables:
  ``"difference"`` (tarot) — the score minus that seat's average over the tables;
  ``"rank"`` (Tamalou, Kalooki) — match points for the rank among those seats: one for each
  table beaten, a half for each tie. Summed over the deals into the table-round's score.
- **Without duplicate** (``"places"``): each table has its own seed and a player scores
  match points by place at the table's end: one for each player beaten, a half a tie. A
  round of one table is scored so too (duplicate has nothing to compare it with).
- **Standings** (:func:`standings`): by tournament score; ties broken by the Buchholz score
  (the sum of the scores of every entrant met at a table), then by sign-up order.

Randomness comes from the tournament's seed only (:mod:`tamalou.core.chance`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tamalou.core.chance import rng_for

Scoring = Literal["difference", "rank", "places"]
#: nodes the seating search visits before it settles for the fewest repeats it found
SEARCH_LIMIT = 20_000


class Format(BaseModel):
    """A tournament's format, fixed when it is created."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: int = Field(ge=2, le=8)  # seats a table
    rounds: int = Field(ge=1, le=10)
    duplicate: bool = True
    # how a table-round is scored with duplicate on ("places" is always used with it off)
    duplicate_scoring: Literal["difference", "rank"] = "difference"

    @property
    def scoring(self) -> Scoring:
        return self.duplicate_scoring if self.duplicate else "places"


@dataclass(frozen=True, slots=True)
class TablePlan:
    """One table of a round: its number (1-based), seed and seats (user ids; None = AI)."""

    table_no: int
    seed: str
    seats: tuple[int | None, ...]

    @property
    def ai_seats(self) -> int:
        return sum(1 for s in self.seats if s is None)


@dataclass(frozen=True, slots=True)
class TableResult:
    """What a table of a round played: each deal's scores by seat (keyed by the seeded deal,
    so the same key means the same cards at every table) and the match's final totals."""

    table_no: int
    seats: tuple[int | None, ...]
    deals: Mapping[int, tuple[float, ...]]
    totals: tuple[float, ...]


@dataclass(slots=True)
class Standing:
    user_id: int
    name: str
    score: float = 0.0
    buchholz: float = 0.0
    rounds: int = 0  # table-rounds played
    rank: int = 0  # 1 = first; never shared (sign-up order breaks the last tie)
    withdrawn: bool = False
    by_round: list[float] = field(default_factory=list)


def table_seed(seed: str, round_no: int, table_no: int, duplicate: bool) -> str:
    """The match seed of a table: one per round with duplicate (every table the same deals),
    one per table without."""
    base = f"{seed}:round:{round_no}"
    return base if duplicate else f"{base}:table:{table_no}"


def table_sizes(entrants: int, players: int) -> list[int]:
    """How many entrants sit at each table: as few tables as fit them, filled evenly (the
    short tables get the AI seats, at most one fewer human than the others)."""
    if entrants <= 0:
        return []
    tables = -(-entrants // players)
    return [entrants // tables + (1 if i < entrants % tables else 0) for i in range(tables)]


def seat_round(
    ranked: Sequence[int],
    fmt: Format,
    seed: str,
    round_no: int,
    met: Mapping[int, set[int]] | None = None,
) -> list[TablePlan]:
    """The tables of round ``round_no`` (1-based).

    ``ranked``: the active entrants' user ids, best standing first (sign-up order for the
    first round, which is drawn from the seed instead). ``met``: who already sat with whom.
    """
    players = list(ranked)
    if round_no == 1:
        rng_for(seed, "round:1:draw").shuffle(players)
    sizes = table_sizes(len(players), fmt.players)
    groups = _swiss(players, sizes, met or {}) if round_no > 1 else _chunks(players, sizes)
    plans = []
    for t, group in enumerate(groups, start=1):
        seats: list[int | None] = [*group, *([None] * (fmt.players - len(group)))]
        rng_for(seed, f"round:{round_no}:table:{t}:seats").shuffle(seats)
        plans.append(TablePlan(t, table_seed(seed, round_no, t, fmt.duplicate), tuple(seats)))
    return plans


def _chunks(players: list[int], sizes: list[int]) -> list[list[int]]:
    out, at = [], 0
    for size in sizes:
        out.append(players[at : at + size])
        at += size
    return out


def _swiss(players: list[int], sizes: list[int], met: Mapping[int, set[int]]) -> list[list[int]]:
    """Tables in standings order with the fewest repeat meetings: the first seating found in
    standings order with no repeat, else with one, and so on (bounded), else the greedy one."""

    def repeats(group: list[int], p: int) -> int:
        return sum(1 for q in group if q in met.get(p, ()) or p in met.get(q, ()))

    def search(budget: int) -> list[list[int]] | None:
        visits = 0
        groups: list[list[int]] = [[] for _ in sizes]

        def place(left: list[int], t: int, spent: int) -> bool:
            nonlocal visits
            visits += 1
            if visits > SEARCH_LIMIT:
                raise TimeoutError
            if t == len(sizes):
                return True
            group = groups[t]
            if len(group) == sizes[t]:
                return place(left, t + 1, spent)
            # a table starts with the best player left, so tables stay in standings order
            candidates = left[:1] if not group else left
            for p in candidates:
                cost = spent + repeats(group, p)
                if cost > budget:
                    continue
                group.append(p)
                if place([q for q in left if q != p], t, cost):
                    return True
                group.pop()
            return False

        return [list(g) for g in groups] if place(players, 0, 0) else None

    pairs = sum(s * (s - 1) // 2 for s in sizes)
    for budget in range(pairs + 1):
        try:
            found = search(budget)
        except TimeoutError:  # too many seatings to try: the greedy one below
            break
        if found is not None:
            return found
    groups: list[list[int]] = [[] for _ in sizes]
    left = list(players)
    for t, size in enumerate(sizes):
        while len(groups[t]) < size:
            best = min(left, key=lambda p: (repeats(groups[t], p), left.index(p)))
            groups[t].append(best)
            left.remove(best)
    return groups


# -- scoring ------------------------------------------------------------------------------


def _beaten(mine: float, others: Iterable[float], lower_wins: bool) -> float:
    """Match points: one for each result ``mine`` beats, a half for each tie."""
    points = 0.0
    for o in others:
        if mine == o:
            points += 0.5
        elif (mine < o) == lower_wins:
            points += 1.0
    return points


def round_scores(
    results: Sequence[TableResult], scoring: Scoring, lower_wins: bool
) -> dict[tuple[int, int], float]:
    """The score of every seat of a round, by ``(table_no, seat)`` (AI seats included: the
    caller keeps the entrants')."""
    out: dict[tuple[int, int], float] = {}
    for table in results:
        for seat in range(len(table.seats)):
            out[(table.table_no, seat)] = 0.0
    if len(results) == 1:  # duplicate compares tables: with one, by place
        scoring = "places"
    if scoring == "places":
        for table in results:
            for seat, total in enumerate(table.totals):
                others = [t for s, t in enumerate(table.totals) if s != seat]
                out[(table.table_no, seat)] = _beaten(total, others, lower_wins)
        return out
    deals = sorted({d for table in results for d in table.deals})
    for deal in deals:
        played = [t for t in results if deal in t.deals]
        seats = min(len(t.deals[deal]) for t in played)
        for seat in range(seats):
            scores = [t.deals[deal][seat] for t in played]
            for table, score in zip(played, scores, strict=True):
                if scoring == "difference":
                    value = score - sum(scores) / len(scores)
                else:
                    others = [s for o, s in zip(played, scores, strict=True) if o is not table]
                    value = _beaten(score, others, lower_wins)
                out[(table.table_no, seat)] += value
    return {k: round(v, 6) for k, v in out.items()}


def entrant_scores(
    results: Sequence[TableResult], scoring: Scoring, lower_wins: bool
) -> dict[int, float]:
    """A round's score of each entrant who sat in it (AI seats dropped)."""
    by_seat = round_scores(results, scoring, lower_wins)
    return {
        user: by_seat[(table.table_no, seat)]
        for table in results
        for seat, user in enumerate(table.seats)
        if user is not None
    }


def meetings(plans: Iterable[Sequence[int | None]]) -> dict[int, set[int]]:
    """Who sat with whom, from the seats of every table played."""
    met: dict[int, set[int]] = {}
    for seats in plans:
        humans = [u for u in seats if u is not None]
        for a, b in combinations(humans, 2):
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
    return met


def standings(
    entrants: Sequence[tuple[int, str]],
    rounds: Sequence[Mapping[int, float]],
    tables: Iterable[Sequence[int | None]] = (),
    withdrawn: Iterable[int] = (),
) -> list[Standing]:
    """The ranking after ``rounds`` (each a round's score by entrant).

    ``entrants`` in sign-up order (the last tie-break); ``tables`` the seats of every table
    played (for Buchholz). Ties: higher Buchholz first, then the earlier sign-up.
    """
    gone = set(withdrawn)
    rows = {u: Standing(u, name, withdrawn=u in gone) for u, name in entrants}
    for scores in rounds:
        for user, row in rows.items():
            if user in scores:
                row.score += scores[user]
                row.rounds += 1
                row.by_round.append(scores[user])
            else:
                row.by_round.append(0.0)
    met = meetings(tables)
    for user, row in rows.items():
        row.buchholz = sum(rows[o].score for o in met.get(user, ()) if o in rows)
    order = {u: i for i, (u, _) in enumerate(entrants)}
    ranked = sorted(
        rows.values(),
        key=lambda r: (-round(r.score, 6), -round(r.buchholz, 6), order[r.user_id]),
    )
    for i, row in enumerate(ranked, start=1):
        row.score, row.buchholz = round(row.score, 6), round(row.buchholz, 6)
        row.rank = i
    return ranked
