"""What a game's season screens show besides what every game has (no Discord here).

Every game's board and card show matches, wins, ranks, rounds and round scores; a game
names its rounds in its own word (a tarot deal) and adds its own counters (Tamalou's calls
and doubles). Its bot plugin says which (``GamePlugin.season_stats``): the card shows those
fields, the CSV export those columns, and no game shows another's.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Counter:
    """One of a game's own counters: the card's field ``stats.<name>`` (its value
    ``stats.<name>.value``, given ``columns`` by name) and its CSV columns."""

    name: str
    columns: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SeasonStats:
    """A game's season screens: the word for its rounds and its own counters."""

    #: ``round`` or ``deal``: the card's "Rounds"/"Deals", the CSV's ``rounds``/``deals``
    round_word: str = "round"
    counters: tuple[Counter, ...] = ()

    def csv_header(self) -> tuple[str, ...]:
        w = self.round_word
        own = tuple(c for counter in self.counters for c in counter.columns)
        return (
            "rank",
            "user_id",
            "name",
            "matches",
            "wins",
            "win_rate",
            "mean_rank",
            f"{w}s",
            f"{w}s_won",
            f"total_{w}_score",
            f"mean_{w}_score",
            f"best_{w}",
            *own,
            "rated_matches",
            "rating",
            "provisional",
            "mu",
            "sigma",
            "ordinal",
        )


#: Tamalou's: a call right or wrong (R-C), a double made or missed (R-D)
TAMALOU_STATS = SeasonStats(
    counters=(
        Counter("calls", ("calls_right", "calls_wrong")),
        Counter("doubles", ("doubles", "doubles_missed")),
    )
)
