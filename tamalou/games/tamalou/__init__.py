"""Tamalou, the game (RULES.md): this module is its entry in the game protocol.

See :class:`tamalou.core.protocol.GameModule` for what each function promises.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tamalou.core.errors import IllegalAction
from tamalou.core.protocol import RoundSummary, deals_by_round
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.actions import Action, Tick
from tamalou.games.tamalou.codec import action_from_dict, action_from_log, action_to_dict
from tamalou.games.tamalou.engine import (
    abandoned,
    apply,
    contested,
    display_moments,
    legal_actions,
    new_game,
    next_deadline,
    step,
)
from tamalou.games.tamalou.rules import ALIASES, PRESETS, TAMALOU, Rules, preset
from tamalou.games.tamalou.scoring import match_places
from tamalou.games.tamalou.state import Game
from tamalou.games.tamalou.views import PlayerView, PublicView, public_view, view

GAME_ID = "tamalou"
DEFAULT_PRESET = "tamalou"
AI_LEVELS: tuple[str, ...] = ("random", "easy", "medium", "hard")
SLOW_AI_LEVELS = frozenset({"hard"})
LOWER_SCORE_WINS = True  # penalty points: the lowest total wins (R-E3)
stream_for = E.stream_for


def rules_from_dict(data: dict[str, Any]) -> Rules:
    return Rules.model_validate(data)


def tick(at: int) -> Tick:
    return Tick(at)


def round_summaries(events: Sequence[E.Event]) -> list[RoundSummary]:
    return [
        RoundSummary(e.round_no, e.reason, e.caller, e.totals, e.scores, e.places)
        for e in events
        if isinstance(e, E.RoundEnded)
    ]


#: its rounds are its deals: a duplicate tournament compares them round by round
deal_results = deals_by_round(round_summaries)


def seat_stats(events: Sequence[E.Event], players: int) -> list[dict[str, int]]:
    """Per seat, what a season's stats count (optional part of the protocol): calls right and
    wrong (R-A2), doubles made and missed (R-D1, R-D5)."""
    stats = [dict.fromkeys(("calls_right", "calls_wrong", "doubles", "doubles_missed"), 0)]
    stats += [dict(stats[0]) for _ in range(players - 1)]
    for e in events:
        if isinstance(e, E.Called):
            stats[e.player]["calls_right" if e.right else "calls_wrong"] += 1
        elif isinstance(e, E.Doubled):
            stats[e.player]["doubles"] += 1
        elif isinstance(e, E.DoubleMissed):
            stats[e.player]["doubles_missed"] += 1
    return stats


def standings(game: Game) -> list[int]:
    """R-M3: each seat's match place by cumulative score (1 = best; ties share a place)."""
    return match_places(game.cumulative)


def match_over(game: Game) -> bool:
    return game.over


def match_result(game: Game) -> tuple[list[float], list[int]]:
    return [float(c) for c in game.cumulative], list(game.winners)


def now(game: Game) -> int:
    return game.now


def away(game: Game, seat: int) -> bool:
    """The seat's player is away (shown to everyone as such)."""
    seats = game.round.seats
    return 0 <= seat < len(seats) and seats[seat].away


def make_ai(level: str, seat: int, rules: Rules, seed: str) -> Any:
    from tamalou.games.tamalou.ai import make_player

    return make_player(level, seat, rules, seed)


__all__ = [
    "AI_LEVELS",
    "ALIASES",
    "DEFAULT_PRESET",
    "GAME_ID",
    "LOWER_SCORE_WINS",
    "PRESETS",
    "SLOW_AI_LEVELS",
    "TAMALOU",
    "Action",
    "Game",
    "IllegalAction",
    "PlayerView",
    "PublicView",
    "Rules",
    "abandoned",
    "action_from_dict",
    "action_from_log",
    "action_to_dict",
    "apply",
    "away",
    "contested",
    "deal_results",
    "display_moments",
    "legal_actions",
    "make_ai",
    "match_over",
    "match_result",
    "new_game",
    "next_deadline",
    "now",
    "preset",
    "public_view",
    "round_summaries",
    "rules_from_dict",
    "seat_stats",
    "standings",
    "step",
    "stream_for",
    "tick",
    "view",
]
