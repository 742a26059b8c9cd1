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
    """What a power card lets its player do (R-P, R-V, R-X)."""

    REPLAY = "replay"  # Jack in tamalou: a whole new turn, drawing from the pile only
    BLIND_SWAP = "blind_swap"  # Queen in tamalou: one of yours with an opponent's, unseen
    LOOK_OWN = "look_own"  # King in tamalou: look at one of your cards
    LOOK_OPPONENT = "look_opponent"  # look at one opponent card (R-X3)
    LOOK_ANY = "look_any"  # look at any card, yours included (R-X1)
    SWAP_ANY = "swap_any"  # swap any two cards of two different players (R-X2)
    LOOK_THEN_SWAP = "look_then_swap"  # look at an opponent card, then optionally swap (R-X3)
    GIVE_TOP = "give_top"  # the pile's top card, face down, to another player (R-X4)


UNTIL_END = -1  # a double block that lasts until the end of the round

#: The mechanics the engine does not play yet; a preset that needs one is refused.
NOT_PLAYED: frozenset[str] = frozenset()


class Scoring(BaseModel):
    """Round scoring (R-M2) and its variants (R-V, R-X15).

    The order (R-X15): totals (penalty cards in), the caller's bonus or malus, negative
    totals, fines.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    caller_wins_on_tie: bool = True  # caller "wins" if nobody is strictly lower
    caller_win_score: float | None = 0  # None: the caller scores their total
    caller_lose_score: float | None = None  # None: total; a number: that fixed score
    caller_lose_malus: Literal["none", "difference"] = "none"  # cabo: + (total - lowest)
    others_at_or_below_caller_score_zero: bool = True
    failed_call_points: float = 0  # R-M5: failed-call penalty, added to the round score
    #: dutch (R-V1): before scoring, the caller takes a pile card per player strictly below
    caller_draws_per_better: bool = False
    #: tamoul (R-V3, R-X9): a contre-caller strictly below the caller scores this...
    contre_win_score: float = -20
    #: ...else their total plus this
    contre_lose_malus: float = 20
    #: cabo (R-V4): a caller with a negative total adds |total| to every other player and
    #: scores at least 0
    negative_caller_gives: bool = False
    #: cabo (R-V4, R-X8): an automatic caller who is beaten is spared the
    #: ``caller_lose_malus`` (False: the malus applies to them as to any caller)
    automatic_caller_no_malus: bool = False
    #: fontenay (R-V9): emptying your row by your own double scores this (round ends at once)
    own_empty_row_score: float | None = None
    #: cabo (R-X13): points per missed double
    miss_points: float = 0


class Rules(BaseModel):
    """A complete rules set. Frozen: a table's rules never change mid-match."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "tamalou"
    #: what the call is shouted as («Tamalou», «Dutch», «Cabo»...), for display
    call_name: str = "Tamalou"
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
    # Powers (R-P, R-X5): by rank, with overrides by colour (None: no power for that colour)
    powers: dict[str, Power] = Field(
        default_factory=lambda: {"J": Power.REPLAY, "Q": Power.BLIND_SWAP, "K": Power.LOOK_OWN}
    )
    red_powers: dict[str, Power | None] = Field(default_factory=dict)
    black_powers: dict[str, Power | None] = Field(default_factory=dict)
    #: ranks whose power cannot be passed (R-X5: on a timeout the first legal choice is taken)
    must_ranks: tuple[str, ...] = ()
    #: R-T5 "discarded": the thrown drawn card or the replaced card gives its power;
    #: R-X5 "thrown": only a card drawn from the pile and thrown at once
    power_from: Literal["discarded", "thrown"] = "discarded"
    #: R-X12: a doubled card gives its power to its thrower. "stack": the last thrown
    #: resolves first (dutch); "seat_order": at the window's close (dutch_roi)
    doubled_powers: Literal["none", "stack", "seat_order"] = "none"
    transmit_powers: tuple[Power, ...] = (Power.BLIND_SWAP, Power.LOOK_OWN)  # R-P6
    #: koubo (R-X3): on a look-then-swap, the target is shown both cards
    swap_shows_target: bool = False
    # Draws (R-T2, R-X13)
    untakeable_ranks: tuple[str, ...] = ("J", "Q", "K")  # R-T2
    draw_from_discard: bool = True  # dutch_roi: the pile only
    take_doubled_top: bool = True  # cabo: a top put there by a double cannot be taken
    # Players and set-up (R-C4, R-S)
    min_players: int = Field(default=2, ge=2)
    max_players: int = Field(default=5, ge=2, le=8)
    cards_per_player: int = Field(default=4, ge=1, le=8)
    peek_slots: tuple[int, ...] = (1, 4)  # 1-based
    long_peek: bool = False  # R-X14: no peek phase, slots stay viewable until the first draw
    # Calling (R-A, R-X6..R-X9)
    call_threshold: float = 5
    call_checked: bool = True  # False: no threshold, every call is right (R-X7)
    call_shown: bool = True  # a right call turns the caller's cards face up (R-A2)
    call_when: Literal["start_of_turn", "end_of_turn"] = "start_of_turn"
    caller_frozen: bool = True  # no turn, no double, no play for someone (R-A3, R-X7)
    caller_untargetable: bool = True  # no power and no play for someone picks his cards
    #: after a right call: "always" a last round (R-A3); "never": the round ends at once;
    #: "fewer_cards": a last round only with strictly fewer cards than each other (classique)
    call_last_round: Literal["always", "never", "fewer_cards"] = "always"
    #: a wrong call: R-A4 (shown, penalty card, play on) or cabo's void round
    failed_call: Literal["penalty", "void_round"] = "penalty"
    failed_call_penalty_cards: int = Field(default=1, ge=0)
    contre: bool = False  # R-X9
    #: a row emptied: R-D8 ends the round; R-X8 an automatic call at the end of your own
    #: turn or at once
    empty_row: Literal["ends_round", "call_end_of_turn", "call_at_once"] = "ends_round"
    # Doubles (R-D, R-X10, R-X11, R-X13)
    miss_penalty_cards: int = Field(default=1, ge=0)
    too_late_free: bool = False  # R-V0: a too-late double goes back free
    miss_bars_card: bool = False  # cabo: a miss bars you from that discard card
    double_blocks_ms: tuple[int, ...] = (0, 5_000, 20_000, 60_000, UNTIL_END)  # R-D6
    play_for_someone: bool = False  # R-X10
    open_doubles_ms: int = 0  # R-X11: a window after each turn discard (0: the race, R-D4)
    # Time (R-S2, R-P3, R-K, R-A3), all in milliseconds
    peek_ms: int = 5_000
    peek_phase_max_ms: int = 30_000
    look_ms: int = 2_000
    swap_display_ms: int = 2_000
    failed_call_reveal_ms: int = 5_000
    final_window_ms: int = 5_000
    turn_ms: int = Field(default=45_000, ge=15_000, le=300_000)  # a table setting (R-K1)
    short_turn_ms: int = Field(default=15_000, ge=3_000)
    fuse_ms: int = 15_000
    timeouts_until_away: int = 2
    next_round_ms: int = 60_000
    # Next round (R-M4, R-X17)
    #: "winner" (R-M4), "rotate" (R-X17), "caller_tie" (dutch_roi: tie goes to the caller,
    #: else the tied player first after the caller)
    first_player: Literal["winner", "rotate", "caller_tie"] = "winner"
    # Match (R-M, R-X16)
    #: "exceed": over target (R-M3); "reach": target or more loses and ends it; "rounds":
    #: max_rounds; "elimination": out at target or more, the last one in wins
    match_end: Literal["exceed", "reach", "rounds", "elimination"] = "exceed"
    target: float = Field(default=100, ge=10, le=1000)  # a table setting (R-M3)
    max_rounds: int | None = None
    exact_target_falls_to: float | None = None
    #: reaching it wins outright (R-X16 grand winner): fontenay; tamoul by a ruling
    win_at: float | None = None
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
        if self.match_end == "rounds" and self.max_rounds is None:
            raise ValueError("a match of fixed rounds needs max_rounds")
        return self

    @property
    def uses_target(self) -> bool:
        """Whether the target ends the match (R-M3, R-X16): not in a match of fixed rounds
        (koubo), where a table's target would mean nothing."""
        return self.match_end != "rounds"

    def with_target(self, target: float) -> Rules:
        """These rules with a table's own target (R-M5), validated: the match values tied to
        the target scale with it (R-X16), as fontenay's «mi-partie» halves both (50 / -25).
        Tamoul's exactly 100 falls to 50, so at 30 exactly 30 falls to 15 (kept at 50 it
        would fall *up*, over the target, and lose the match); its -100 grand winner is -30."""
        scale = target / self.target
        data = self.model_dump()
        data["target"] = target
        for key in ("exact_target_falls_to", "win_at"):
            if data[key] is not None:
                data[key] = data[key] * scale
        return Rules.model_validate(data)

    def value(self, card: int) -> float:
        r = cards.rank(card)
        if r != cards.JOKER:
            table = self.red_values if cards.is_red(card) else self.black_values
            if r in table:
                return table[r]
        return self.values[r]

    def power(self, card: int) -> Power | None:
        """R-X5: the power of a card, by rank and colour."""
        r = cards.rank(card)
        if r != cards.JOKER:
            table = self.red_powers if cards.is_red(card) else self.black_powers
            if r in table:
                return table[r]
        return self.powers.get(r)

    def mechanics(self) -> set[str]:
        """The R-X mechanics these rules use beyond the default game (data, by field)."""
        used: set[str] = set()
        kinds = set(self.powers.values()) | {
            p for t in (self.red_powers, self.black_powers) for p in t.values() if p
        }
        if Power.LOOK_ANY in kinds:
            used.add("R-X1")
        if Power.SWAP_ANY in kinds:
            used.add("R-X2")
        if kinds & {Power.LOOK_OPPONENT, Power.LOOK_THEN_SWAP}:
            used.add("R-X3")
        if Power.GIVE_TOP in kinds:
            used.add("R-X4")
        if self.must_ranks or self.power_from == "thrown":
            used.add("R-X5")
        if self.call_when == "end_of_turn":
            used.add("R-X6")
        if (
            not self.call_checked
            or not self.call_shown
            or not self.caller_frozen
            or self.call_last_round != "always"
            or self.failed_call != "penalty"
        ):
            used.add("R-X7")
        if self.empty_row != "ends_round":
            used.add("R-X8")
        if self.contre:
            used.add("R-X9")
        if self.play_for_someone:
            used.add("R-X10")
        if self.open_doubles_ms:
            used.add("R-X11")
        if self.doubled_powers != "none":
            used.add("R-X12")
        if self.too_late_free or self.miss_bars_card or not self.draw_from_discard:
            used.add("R-X13")
        if self.long_peek:
            used.add("R-X14")
        if self.match_end != "exceed" or self.win_at is not None:
            used.add("R-X16")
        if self.first_player != "winner":
            used.add("R-X17")
        return used

    def unsupported(self) -> list[str]:
        """What these rules ask for that the engine does not play yet (empty: all played)."""
        return sorted(self.mechanics() & NOT_PLAYED)

    @cached_property
    def compiled(self) -> CompiledRules:
        return CompiledRules(self)


class CompiledRules:
    """Lookup tables by card id for the hot path."""

    __slots__ = ("deck", "must", "power", "rank", "takeable", "value")

    def __init__(self, rules: Rules) -> None:
        self.deck = cards.build_deck(rules.ranks, rules.jokers, rules.decks)
        size = cards.DECK_SIZE * rules.decks
        self.value: list[float] = [0.0] * size
        self.rank: list[str] = [""] * size
        self.power: list[Power | None] = [None] * size
        self.takeable: list[bool] = [False] * size
        self.must: list[bool] = [False] * size
        for c in range(size):
            r = cards.rank(c)
            self.rank[c] = r
            if r in rules.values or r in rules.red_values or r in rules.black_values:
                self.value[c] = rules.value(c) if r in rules.values else 0.0
            self.power[c] = rules.power(c)
            self.takeable[c] = r not in rules.untakeable_ranks
            self.must[c] = r in rules.must_ranks


TAMALOU = Rules()

#: R-V0: what every house preset shares and the default game does not
_COMMON: dict[str, object] = {
    "peek_slots": (1, 2),
    "untakeable_ranks": (),
    "values": {**TAMALOU.values, "10": 10},
    "power_from": "thrown",
    "transmit_powers": (),
    "too_late_free": True,
}
_DUTCH_CALL: dict[str, object] = {
    "call_name": "Dutch",
    "call_checked": False,
    "call_shown": False,
    "call_when": "end_of_turn",
    "empty_row": "call_end_of_turn",
}

DUTCH = Rules(
    **{
        **_COMMON,
        **_DUTCH_CALL,
        "name": "dutch",
        "jokers": 2,
        "values": {**TAMALOU.values, "10": 10, "JK": -1},
        "red_values": {"K": 0},
        "black_values": {"K": 15},
        "powers": {"J": Power.LOOK_ANY, "Q": Power.SWAP_ANY},
        "doubled_powers": "stack",
        "play_for_someone": True,
        "scoring": Scoring(
            caller_win_score=None,
            others_at_or_below_caller_score_zero=False,
            caller_draws_per_better=True,
        ),
    }
)

KOUBO = Rules(
    **{
        **_COMMON,
        "name": "koubo",
        "call_name": "Koubo",
        "ranks": ("A", "7", "8", "9", "10", "J", "Q", "K"),
        "jokers": 2,
        "values": {"A": 1, "7": 7, "8": 8, "9": 9, "10": 10, "J": 2, "Q": 3, "K": 11, "JK": -1},
        "red_values": {"K": 0},
        "powers": {
            "9": Power.LOOK_OWN,
            "10": Power.LOOK_OPPONENT,
            "J": Power.BLIND_SWAP,
            "Q": Power.LOOK_THEN_SWAP,
        },
        "swap_shows_target": True,
        "max_players": 4,
        "call_checked": False,
        "call_shown": False,
        "match_end": "rounds",
        "max_rounds": 10,
        "scoring": Scoring(
            caller_wins_on_tie=False,
            caller_win_score=-3,
            caller_lose_score=20,
            others_at_or_below_caller_score_zero=False,
        ),
    }
)

TAMOUL = Rules(
    **{
        **_COMMON,
        "name": "tamoul",
        "call_name": "Tamoul",
        "values": {**TAMALOU.values, "10": 10, "J": 15, "Q": 15, "K": 15},
        "red_values": {"K": 0.5, "Q": 1},
        "powers": {
            "7": Power.LOOK_OWN,
            "8": Power.LOOK_OPPONENT,
            "9": Power.BLIND_SWAP,
            "10": Power.LOOK_THEN_SWAP,
        },
        "call_threshold": 6.5,
        "call_shown": False,
        "contre": True,
        "first_player": "rotate",
        "exact_target_falls_to": 50,
        # Ruling (docs/rules.md): a right Tamoul scores -20, so two players who call well
        # drift below 0 and R-M3 alone never ends their match; reaching -100 wins it.
        "win_at": -100,
        "scoring": Scoring(caller_win_score=-20),
    }
)

CABO = Rules(
    **{
        **_COMMON,
        "name": "cabo",
        "call_name": "Cabo",
        "jokers": 2,
        "values": {**TAMALOU.values, "10": 10, "J": 11, "Q": 12, "K": 13, "JK": 0},
        "red_values": {"K": -2},
        "powers": {
            "7": Power.LOOK_OWN,
            "8": Power.LOOK_OWN,
            "9": Power.LOOK_OPPONENT,
            "10": Power.LOOK_OPPONENT,
            "J": Power.BLIND_SWAP,
            "Q": Power.BLIND_SWAP,
        },
        "long_peek": True,
        "miss_penalty_cards": 0,
        "miss_bars_card": True,
        "take_doubled_top": False,
        "play_for_someone": True,
        "call_shown": False,
        "failed_call": "void_round",
        "empty_row": "call_at_once",
        "first_player": "rotate",
        "match_end": "reach",
        "target": 50,
        "exact_target_falls_to": 0,
        "scoring": Scoring(
            caller_lose_malus="difference",
            failed_call_points=10,
            negative_caller_gives=True,
            automatic_caller_no_malus=True,
            miss_points=2,
        ),
    }
)

CLASSIQUE = Rules(
    **{
        **_COMMON,
        "name": "classique",
        "call_name": "🔔",
        "values": TAMALOU.values,
        "play_for_someone": True,
        "call_last_round": "fewer_cards",
        "first_player": "rotate",
    }
)

SWISS = Rules(
    **{
        **_COMMON,
        "name": "swiss",
        "call_name": "Dune",
        "jokers": 2,
        "values": {**TAMALOU.values, "10": 10, "J": 11, "Q": 12, "K": 15, "JK": -5},
        "red_values": {"K": 0},
        "powers": {"J": Power.SWAP_ANY, "Q": Power.LOOK_ANY},
        "play_for_someone": True,
        "call_checked": False,
        "call_shown": False,
        "call_when": "end_of_turn",
        "caller_frozen": False,
        "caller_untargetable": False,
        "match_end": "elimination",
        # Ruling (docs/rules.md): jokers at -5 and the red King at 0 keep good players' totals
        # at 0 or below, so the last two in may never reach 100; at most 100 rounds, then the
        # lowest of those still in wins.
        "max_rounds": 100,
        "scoring": Scoring(caller_win_score=None, others_at_or_below_caller_score_zero=False),
    }
)

DUTCH_SEC = Rules(
    **{
        **_COMMON,
        "name": "dutch_sec",
        "call_name": "Dutch",
        "values": {**TAMALOU.values, "10": 10, "J": 11, "Q": 12, "K": 20},
        "red_values": {"K": 0},
        "powers": {"7": Power.BLIND_SWAP, "J": Power.LOOK_OWN, "Q": Power.LOOK_OPPONENT},
        "call_checked": False,
        "call_shown": False,
        "call_last_round": "never",
        "match_end": "elimination",
        "scoring": Scoring(caller_win_score=None, others_at_or_below_caller_score_zero=False),
    }
)

DUTCH_ROI = Rules(
    **{
        **_COMMON,
        **_DUTCH_CALL,
        "name": "dutch_roi",
        "values": {**TAMALOU.values, "10": 10, "J": 11, "Q": 12, "K": 13},
        "red_values": {"K": 0},
        "powers": {"J": Power.SWAP_ANY, "Q": Power.LOOK_ANY},
        "red_powers": {"K": Power.GIVE_TOP},
        "must_ranks": ("J", "K"),
        "draw_from_discard": False,
        "open_doubles_ms": 3_000,
        "play_for_someone": True,
        "doubled_powers": "seat_order",
        "first_player": "caller_tie",
        "scoring": Scoring(
            caller_win_score=None,
            others_at_or_below_caller_score_zero=False,
            caller_draws_per_better=True,
        ),
    }
)

FONTENAY = Rules(
    **{
        **_COMMON,
        "name": "fontenay",
        "jokers": 2,
        "values": {**TAMALOU.values, "JK": 0},
        "play_for_someone": True,
        "first_player": "rotate",
        "match_end": "reach",
        "win_at": -50,
        "scoring": Scoring(own_empty_row_score=-10),
    }
)

#: fontenay's «mi-partie» option (R-V9): 50 / -25
FONTENAY_HALF = FONTENAY.model_copy(update={"name": "fontenay_half", "target": 50, "win_at": -25})

PRESETS: dict[str, Rules] = {
    r.name: r
    for r in (
        TAMALOU,
        DUTCH,
        KOUBO,
        TAMOUL,
        CABO,
        CLASSIQUE,
        SWISS,
        DUTCH_SEC,
        DUTCH_ROI,
        FONTENAY,
        FONTENAY_HALF,
    )
}
#: R-V ruling 1: other names of the same presets
ALIASES: dict[str, str] = {"braguet": "classique", "dune": "swiss"}


def preset(name: str) -> Rules:
    """A preset by its name or alias (R-V ruling 1: `dune` = `swiss`, `braguet` = `classique`)."""
    key = ALIASES.get(name, name)
    if key not in PRESETS:
        raise KeyError(f"unknown preset {name!r}; known: {', '.join(sorted(PRESETS))}")
    return PRESETS[key]
