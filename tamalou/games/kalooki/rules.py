"""The Kalooki rules model (RULES-KALOOKI.md): every number and option as data.

One frozen pydantic model; the presets `kalooki`, `baby` and `classic4` (K-V1..K-V3) are
named instances, the options of K-V4/K-V5 are fields. The engine reads the compiled tables
of :class:`CompiledRules` on its hot path, never pydantic fields.
"""

from __future__ import annotations

from functools import cached_property
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tamalou.core import cards

SET = 3  # a "3": cards of one rank (K-M1)
RUN = 4  # a "4": consecutive cards of one suit (K-M2)


class RoundSpec(BaseModel):
    """One round of the match: the cards dealt and the contract (K-R1/K-R2)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cards: int = Field(ge=3, le=22)
    contract: tuple[Literal[3, 4], ...]


def _rounds(spec: str) -> tuple[RoundSpec, ...]:
    out = []
    for part in spec.split(","):
        count, melds = part.strip().split(":")
        out.append(RoundSpec(cards=int(count), contract=tuple(int(m) for m in melds.split())))
    return tuple(out)


#: K-R1: cards dealt and contract of each of the nine rounds.
KALOOKI_ROUNDS = _rounds(
    "9:3 3 3, 10:3 3 4, 11:3 4 4, 12:4 4 4, 12:3 3 3 3, 13:3 3 3 4, 14:3 3 4 4,"
    " 15:3 4 4 4, 16:4 4 4 4"
)
#: K-R2: Baby Kalooki.
BABY_ROUNDS = _rounds("6:3 3, 7:3 4, 8:4 4")


class Rules(BaseModel):
    """A complete Kalooki rules set. Frozen: a table's rules never change mid-match."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "kalooki"
    rounds: tuple[RoundSpec, ...] = KALOOKI_ROUNDS
    min_players: int = Field(default=2, ge=2)
    max_players: int = Field(default=8, le=8)
    # K-R3 / K-V4 options (contracts unchanged)
    deal12_first3: bool = False  # 12 cards in rounds 1-3
    baby_deal8: bool = False  # 8 cards in every round of a 3-round (baby) match
    jokers_2to4: Literal[4, 6] = 4  # Q1: jokers with 2 decks
    double_any_one_go: bool = False  # K-P2 even if somebody laid down before
    # K-V5 pagat options
    pagat_pack: bool = False  # one 108-card pack for 3-6 players
    shift_to_either_end: bool = False  # K-L7: the shifted joker may go below the run too
    # Calls (K-CL5)
    max_calls: int = Field(default=3, ge=0)
    # Time (K-K), seconds as the table settings say them
    turn_clock_s: int = Field(default=90, ge=5)
    call_window_s: int = Field(default=3, ge=0)
    fuse_s: int = Field(default=15, ge=0)
    short_turn_s: int = Field(default=30, ge=3)
    timeouts_until_away: int = Field(default=2, ge=1)
    next_round_s: int = Field(default=60, ge=0)

    @model_validator(mode="after")
    def _check(self) -> Rules:
        if not self.rounds:
            raise ValueError("a match needs at least one round")
        if self.pagat_pack and (self.min_players < 3 or self.max_players > 6):
            raise ValueError("pagat_pack is for 3 to 6 players (K-V5)")
        if self.min_players > self.max_players:
            raise ValueError("min_players is above max_players")
        for n in (self.min_players, self.max_players):
            decks, jokers = self.pack(n)
            if (
                decks * 52 + jokers
                < n * max(self.cards_for(i) for i in range(len(self.rounds))) + 2
            ):
                raise ValueError(f"the pack is too small for {n} players")
        return self

    def pack(self, players: int) -> tuple[int, int]:
        """K-C1: (decks, jokers) for ``players``."""
        if self.pagat_pack or players <= 4:
            return 2, (4 if self.pagat_pack else self.jokers_2to4)
        if players <= 6:
            return 3, 8
        return 4, 10

    def cards_for(self, index: int) -> int:
        """Cards dealt in round ``index`` (0-based), options of K-R3 included."""
        spec = self.rounds[index]
        if self.deal12_first3 and index < 3 and len(self.rounds) > 3:
            return max(spec.cards, 12)
        if self.baby_deal8 and len(self.rounds) == 3:
            return max(spec.cards, 8)
        return spec.cards

    @cached_property
    def compiled(self) -> CompiledRules:
        return CompiledRules(self)


def build_pack(decks: int, jokers: int) -> list[int]:
    """Every card id of the pack (K-C1/K-C2): ``decks`` French decks, ``jokers`` jokers.

    Card ids are those of :mod:`tamalou.core.cards`; jokers beyond two per deck take the
    joker ids of the following deck numbers (ids stay distinct, K-C2).
    """
    pack = [d * cards.DECK_SIZE + i for d in range(decks) for i in range(52)]
    pack.extend((j // 2) * cards.DECK_SIZE + 52 + j % 2 for j in range(jokers))
    return pack


class CompiledRules:
    """Millisecond clocks for the hot path."""

    __slots__ = ("call_window_ms", "fuse_ms", "next_round_ms", "short_turn_ms", "turn_ms")

    def __init__(self, rules: Rules) -> None:
        self.turn_ms = rules.turn_clock_s * 1000
        self.call_window_ms = rules.call_window_s * 1000
        self.fuse_ms = rules.fuse_s * 1000
        self.short_turn_ms = rules.short_turn_s * 1000
        self.next_round_ms = rules.next_round_s * 1000


KALOOKI = Rules()
BABY = Rules(name="baby", rounds=BABY_ROUNDS)
CLASSIC4 = Rules(name="classic4", rounds=KALOOKI_ROUNDS[:4])

PRESETS: dict[str, Rules] = {r.name: r for r in (KALOOKI, BABY, CLASSIC4)}
