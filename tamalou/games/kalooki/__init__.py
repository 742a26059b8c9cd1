"""Kalooki (Jamaican rummy, RULES-KALOOKI.md): this module is its entry in the game protocol.

See :class:`tamalou.core.protocol.GameModule` for what each function promises, and
docs/kalooki.md for how a UI builds a lay-down.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tamalou.core.errors import IllegalAction
from tamalou.core.protocol import RoundSummary, deals_by_round, no_seat_stats
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.actions import Action, Tick
from tamalou.games.kalooki.codec import action_from_dict, action_from_log, action_to_dict
from tamalou.games.kalooki.engine import (
    abandoned,
    apply,
    check_lay_down,
    contested,
    display_moments,
    legal_actions,
    new_game,
    next_deadline,
    step,
    suggest_lay_down,
)
from tamalou.games.kalooki.rules import KALOOKI, PRESETS, Rules
from tamalou.games.kalooki.state import Game
from tamalou.games.kalooki.views import PlayerView, PublicView, public_view, view

GAME_ID = "kalooki"
DEFAULT_PRESET = "kalooki"
AI_LEVELS: tuple[str, ...] = ("random", "easy", "medium", "hard")
SLOW_AI_LEVELS: frozenset[str] = frozenset({"hard"})  # up to ~75 ms at 16 cards
LOWER_SCORE_WINS = True  # penalty points: the lowest total wins (K-P3)
stream_for = E.stream_for


def rules_from_dict(data: dict[str, Any]) -> Rules:
    return Rules.model_validate(data)


def tick(at: int) -> Tick:
    return Tick(at)


def round_summaries(events: Sequence[E.Event]) -> list[RoundSummary]:
    return [
        RoundSummary(e.round_no, e.reason, e.out, e.totals, e.scores, e.places)
        for e in events
        if isinstance(e, E.RoundEnded)
    ]


#: its rounds are its deals: a duplicate tournament compares them round by round
deal_results = deals_by_round(round_summaries)

#: none of the seasons' counters (calls, doubles) is a thing of this game
seat_stats = no_seat_stats


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
    from tamalou.games.kalooki.ai import make_player

    return make_player(level, seat, rules, seed)


__all__ = [
    "AI_LEVELS",
    "DEFAULT_PRESET",
    "GAME_ID",
    "KALOOKI",
    "LOWER_SCORE_WINS",
    "PRESETS",
    "SLOW_AI_LEVELS",
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
    "check_lay_down",
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
    "public_view",
    "round_summaries",
    "rules_from_dict",
    "seat_stats",
    "step",
    "stream_for",
    "suggest_lay_down",
    "tick",
    "view",
]
