"""The rules model: every number and table a house rule can change, as data.

One frozen pydantic model; presets are named instances (R-V*). The engine reads the
compiled lookup tables of :class:`CompiledRules` on its hot path, never pydantic fields.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cached_property
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tamalou.core import cards


class Power(StrEnum):
    """What a power card lets its player do (R-P, R-V)."""

    REPLAY = "replay"  # Jack in tamalou: a whole new turn, drawing from the pile only
    BLIND_SWAP = "blind_swap"  # Queen in tamalou: one of yours with an opponent's, unseen
    LOOK_OWN = "look_own"  # King in tamalou: look at one of your cards
    LOOK_OPPONENT = "look_opponent"  # look at one opponent card
    LOOK_ANY = "look_any"  # look at any card, yours included (dutch Jack)
    SWAP_ANY = "swap_any"  # swap any two cards of any two players (dutch Queen)
    LOOK_THEN_SWAP = "look_then_swap"  # look at an opponent card, then optionally swap


#: Power kinds the engine plays today; the others are expressible for presets to come.
PLAYABLE_POWERS = frozenset(
    {Power.REPLAY, Power.BLIND_SWAP, Power.LOOK_OWN, Power.LOOK_OPPONENT, Power.LOOK_ANY}
)

UNTIL_END = -1  # a double block that lasts until the end of the round


class Scoring(BaseModel):
    """Round scoring (R-M2) and its variants."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    caller_wins_on_tie: bool = True  # caller "wins" if nobody is strictly lower
    caller_win_score: float | None = 0  # None: the caller scores their total
    caller_lose_score: float | None = None  # None: total; a number: that fixed score
    caller_lose_malus: Literal["none", "difference"] = "none"
    others_at_or_below_caller_score_zero: bool = True
    failed_call_points: float = 0  # R-M5: failed-call penalty, added to the round score


class Rules(BaseModel):
    """A complete rules set. Frozen: a table's rules never change mid-match."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "tamalou"
    # Deck (R-C1)
    ranks: tuple[str, ...] = cards.RANKS
    jokers: int = Field(default=0, ge=0, le=2)
    decks: int = Field(default=1, ge=1, le=2)
    # Values (R-C2): by rank, with overrides for red and black suits
    values: dict[str, float] = Field(
        default_factory=lambda: {  # type: ignore[arg-type]
            "A": 1,
            "2": 2,
            "3": 3,
            "4": 4,
            "5": 5,
            "6": 6,
            "7": 7,
            "8": 8,
            "9": 9,
            "10": 0,
            "J": 10,
            "Q": 10,
            "K": 10,
            "JK": 0,
        }
    )
    red_values: dict[str, float] = Field(default_factory=dict)
    black_values: dict[str, float] = Field(default_factory=dict)
    # Powers (R-P)
    powers: dict[str, Power] = Field(
        default_factory=lambda: {"J": Power.REPLAY, "Q": Power.BLIND_SWAP, "K": Power.LOOK_OWN}
    )
    transmit_powers: tuple[Power, ...] = (Power.BLIND_SWAP, Power.LOOK_OWN)  # R-P6
    untakeable_ranks: tuple[str, ...] = ("J", "Q", "K")  # R-T2
    # Players and set-up (R-C4, R-S)
    min_players: int = Field(default=2, ge=2)
    max_players: int = Field(default=5, le=8)
    cards_per_player: int = Field(default=4, ge=1, le=8)
    peek_slots: tuple[int, ...] = (1, 4)  # 1-based
    # Calling (R-A)
    call_threshold: float = 5
    call_when: Literal["start_of_turn", "end_of_turn"] = "start_of_turn"
    caller_frozen: bool = True
    failed_call_penalty_cards: int = Field(default=1, ge=0)
    # Doubles (R-D)
    miss_penalty_cards: int = Field(default=1, ge=0)
    double_blocks_ms: tuple[int, ...] = (0, 5_000, 20_000, 60_000, UNTIL_END)  # R-D6
    # Time (R-S2, R-P3, R-K, R-A3), all in milliseconds
    peek_ms: int = 5_000
    peek_phase_max_ms: int = 30_000
    look_ms: int = 2_000
    swap_display_ms: int = 2_000
    failed_call_reveal_ms: int = 5_000
    final_window_ms: int = 5_000
    turn_ms: int = Field(default=45_000, ge=5_000)
    short_turn_ms: int = Field(default=15_000, ge=3_000)
    fuse_ms: int = 15_000
    timeouts_until_away: int = 2
    next_round_ms: int = 60_000
    # Match (R-M)
    target: float = 100
    max_rounds: int | None = None
    exact_target_falls_to: float | None = None
    scoring: Scoring = Field(default_factory=Scoring)

    @model_validator(mode="after")
    def _check(self) -> Rules:
        for r in self.ranks:
            if r not in cards.RANKS:
                raise ValueError(f"unknown rank {r!r}")
        missing = [
            r for r in (*self.ranks, *(["JK"] if self.jokers else [])) if r not in self.values
        ]
        if missing:
            raise ValueError(f"no value for ranks {missing}")
        if self.min_players > self.max_players:
            raise ValueError("min_players is above max_players")
        if any(s < 1 or s > self.cards_per_player for s in self.peek_slots):
            raise ValueError("peek slots must be within the row")
        if not self.double_blocks_ms:
            raise ValueError("double_blocks_ms needs at least one entry")
        deck = len(self.ranks) * 4 + self.jokers
        if self.decks * deck < self.max_players * self.cards_per_player + 2:
            raise ValueError("the deck is too small for max_players")
        return self

    def value(self, card: int) -> float:
        r = cards.rank(card)
        if r != cards.JOKER:
            table = self.red_values if cards.is_red(card) else self.black_values
            if r in table:
                return table[r]
        return self.values[r]

    def unsupported(self) -> list[str]:
        """What these rules ask for that the engine does not play yet (empty for tamalou)."""
        missing = [f"power {p.value}" for p in self.powers.values() if p not in PLAYABLE_POWERS]
        if self.call_when != "start_of_turn":
            missing.append("call at the end of the turn")
        return missing

    @cached_property
    def compiled(self) -> CompiledRules:
        return CompiledRules(self)


class CompiledRules:
    """Lookup tables by card id for the hot path."""

    __slots__ = ("deck", "power", "rank", "takeable", "value")

    def __init__(self, rules: Rules) -> None:
        self.deck = cards.build_deck(rules.ranks, rules.jokers, rules.decks)
        size = cards.DECK_SIZE * rules.decks
        self.value: list[float] = [0.0] * size
        self.rank: list[str] = [""] * size
        self.power: list[Power | None] = [None] * size
        self.takeable: list[bool] = [False] * size
        for c in range(size):
            r = cards.rank(c)
            self.rank[c] = r
            if r in rules.values or r in rules.red_values or r in rules.black_values:
                self.value[c] = rules.value(c) if r in rules.values else 0.0
            self.power[c] = rules.powers.get(r)
            self.takeable[c] = r not in rules.untakeable_ranks


TAMALOU = Rules()

DUTCH = Rules(
    name="dutch",
    jokers=2,
    values={**TAMALOU.values, "JK": -1},
    red_values={"K": 0},
    black_values={"K": 15},
    powers={"J": Power.LOOK_ANY, "Q": Power.SWAP_ANY},
    transmit_powers=(),
    call_when="end_of_turn",
    scoring=Scoring(caller_win_score=None, caller_lose_score=None),
)

KOUBO = Rules(
    name="koubo",
    ranks=("A", "7", "8", "9", "10", "J", "Q", "K"),
    jokers=2,
    values={"A": 1, "7": 7, "8": 8, "9": 9, "10": 10, "J": 2, "Q": 3, "K": 11, "JK": -1},
    red_values={"K": 0},
    powers={
        "9": Power.LOOK_OWN,
        "10": Power.LOOK_OPPONENT,
        "J": Power.BLIND_SWAP,
        "Q": Power.LOOK_THEN_SWAP,
    },
    transmit_powers=(),
    untakeable_ranks=(),
    max_players=4,
    max_rounds=10,
    target=10_000,
    scoring=Scoring(
        caller_wins_on_tie=False,
        caller_win_score=-3,
        caller_lose_score=20,
        others_at_or_below_caller_score_zero=False,
    ),
)

TAMOUL = Rules(
    name="tamoul",
    values={**TAMALOU.values, "10": 10, "J": 15, "Q": 15, "K": 15},
    red_values={"K": 0.5, "Q": 1},
    powers={
        "7": Power.LOOK_OWN,
        "8": Power.LOOK_OPPONENT,
        "9": Power.BLIND_SWAP,
        "10": Power.LOOK_THEN_SWAP,
    },
    transmit_powers=(),
    untakeable_ranks=(),
    call_threshold=6.5,
    exact_target_falls_to=50,
)

CABO = Rules(
    name="cabo",
    jokers=2,
    values={**TAMALOU.values, "10": 10, "J": 11, "Q": 12, "K": 13, "JK": 0},
    red_values={"K": -2},
    powers={
        "7": Power.LOOK_OWN,
        "8": Power.LOOK_OWN,
        "9": Power.LOOK_OPPONENT,
        "10": Power.LOOK_OPPONENT,
        "J": Power.BLIND_SWAP,
        "Q": Power.BLIND_SWAP,
    },
    transmit_powers=(),
    untakeable_ranks=(),
    call_threshold=5,
    scoring=Scoring(caller_lose_malus="difference", failed_call_points=10),
)

PRESETS: dict[str, Rules] = {r.name: r for r in (TAMALOU, DUTCH, KOUBO, TAMOUL, CABO)}
