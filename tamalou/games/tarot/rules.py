"""The tarot rules as data: one frozen pydantic model and its presets (RULES-TAROT.md).

Every count-dependent number (hand and dog sizes, poignée thresholds, the taker's share) is a
table keyed by the number of players, so one preset (``tarot``) serves 3, 4 or 5 players and
``new_game`` picks the row of the table's size.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tamalou.games.tarot.cards import DECK

PASS, PETITE, GARDE, GARDE_SANS, GARDE_CONTRE = 0, 1, 2, 3, 4
CONTRACTS: tuple[str, ...] = ("pass", "petite", "garde", "garde_sans", "garde_contre")


class Rules(BaseModel):
    """A complete tarot rules set. Frozen: a table's rules never change mid-match."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "tarot"
    min_players: int = Field(default=3, ge=3, le=5)
    max_players: int = Field(default=5, ge=3, le=5)
    seats: int = Field(default=4, ge=3, le=5)  # the table's usual size (the preset's)
    # T-S2: players -> (cards per hand, dog)
    deal: dict[int, tuple[int, int]] = Field(
        default_factory=lambda: {3: (24, 6), 4: (18, 6), 5: (15, 3)}
    )
    sans_chien: bool = False  # option, 3 players only: 26 cards each, no dog, no écart
    # T-B1: multiplier by contract (Petite, Garde, Garde sans, Garde contre)
    multipliers: tuple[int, int, int, int] = (1, 2, 4, 6)
    base: int = 25  # T-E4
    needed: tuple[int, int, int, int] = (56, 51, 41, 36)  # T-E2, by oudlers
    # T-A2/T-A3: trumps to show by players, bonus by level
    poignee_trumps: dict[int, tuple[int, int, int]] = Field(
        default_factory=lambda: {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}
    )
    poignee_bonus: tuple[int, int, int] = (20, 30, 40)
    poignee: bool = True
    petit_au_bout: bool = True
    petit_au_bout_points: int = 10  # T-E3
    chelem: bool = True  # the announcement (T-A1); an unannounced chelem always counts
    chelem_points: tuple[int, int, int] = (400, 200, 200)  # made announced, made, failed/defence
    # T-E5: the taker's share, in per-defender scores (5 players: taker + partner, or alone)
    taker_share: dict[int, int] = Field(default_factory=lambda: {3: 2, 4: 3, 5: 2})
    partner_share: int = 1
    alone_share: int = 4
    # Time (T-K), ms
    bid_ms: int = Field(default=30_000, ge=1_000)
    call_ms: int = Field(default=30_000, ge=1_000)
    ecart_ms: int = Field(default=90_000, ge=1_000)
    chelem_ms: int = Field(default=15_000, ge=1_000)
    play_ms: int = Field(default=30_000, ge=1_000)
    warning_ms: int = Field(default=10_000, ge=0)
    away_ms: int = Field(default=5_000, ge=500)
    timeouts_until_away: int = Field(default=2, ge=1)
    next_deal_ms: int = Field(default=30_000, ge=1_000)
    # Match (T-M1): rounds x players played deals
    rounds: int = Field(default=1, ge=1, le=5)

    @model_validator(mode="after")
    def _check(self) -> Rules:
        if self.min_players > self.max_players:
            raise ValueError("min_players is above max_players")
        if not self.min_players <= self.seats <= self.max_players:
            raise ValueError("seats must be between min_players and max_players")
        if self.sans_chien and not self.offers_sans_chien:
            raise ValueError("sans_chien is played by exactly 3 players")
        for n in range(self.min_players, self.max_players + 1):
            hand, dog = self.deal_for(n)
            if hand * n + dog != len(DECK):
                raise ValueError(f"{n} players: {hand} x {n} + {dog} is not 78 cards")
            if n not in self.poignee_trumps or n not in self.taker_share:
                raise ValueError(f"no poignée or share table for {n} players")
        return self

    @property
    def offers_sans_chien(self) -> bool:
        """Whether the option ``sans_chien`` may be played on these rules: ruling 10, by
        exactly three players (with four or five the cards do not divide without a dog)."""
        return (self.min_players, self.max_players) == (3, 3)

    def deal_for(self, players: int) -> tuple[int, int]:
        """(cards per hand, dog size) at ``players`` (T-S2, option sans_chien)."""
        if self.sans_chien:
            return (len(DECK) // players, 0)
        return self.deal[players]

    def multiplier(self, contract: int) -> int:
        return self.multipliers[contract - 1]

    def deals_in_match(self, players: int) -> int:
        """T-M1: D = rounds x players."""
        return self.rounds * players


TAROT = Rules()
TAROT3 = Rules(name="tarot3", min_players=3, max_players=3, seats=3)
TAROT5 = Rules(name="tarot5", min_players=5, max_players=5, seats=5)

PRESETS: dict[str, Rules] = {r.name: r for r in (TAROT, TAROT3, TAROT5)}


def sans_chien(rules: Rules = TAROT3) -> Rules:
    """The option ``sans_chien`` on a three-player rules set (validated)."""
    return Rules.model_validate({**rules.model_dump(), "sans_chien": True})
