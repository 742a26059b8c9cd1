"""French tarot (RULES-TAROT.md): this module is its entry in the game protocol.

See :class:`tamalou.core.protocol.GameModule` for what each function promises.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tamalou.core.errors import IllegalAction
from tamalou.core.protocol import RoundSummary, no_seat_stats
from tamalou.games.tarot import events as E
from tamalou.games.tarot.actions import Action, Tick
from tamalou.games.tarot.codec import action_from_dict, action_from_log, action_to_dict
from tamalou.games.tarot.engine import (
    abandoned,
    apply,
    contested,
    display_moments,
    legal_actions,
    new_game,
    next_deadline,
    step,
)
from tamalou.games.tarot.rules import PRESETS, TAROT, Rules
from tamalou.games.tarot.scoring import places
from tamalou.games.tarot.state import Game
from tamalou.games.tarot.views import PlayerView, PublicView, public_view, view

GAME_ID = "tarot"
DEFAULT_PRESET = "tarot"
AI_LEVELS: tuple[str, ...] = ("random", "easy", "medium", "hard")
SLOW_AI_LEVELS: frozenset[str] = frozenset({"hard"})  # a search: up to ~40 ms
#: the bot's cap on a ``hard`` decision (the search is bounded by work first; docs/ai.md)
AI_BUDGET_MS = 35.0
LOWER_SCORE_WINS = False  # points won: the highest total wins (T-M3)
stream_for = E.stream_for


def rules_from_dict(data: dict[str, Any]) -> Rules:
    return Rules.model_validate(data)


def tick(at: int) -> Tick:
    return Tick(at)


def round_summaries(events: Sequence[E.Event]) -> list[RoundSummary]:
    """One per played deal (T-M2: annulled deals are not counted). ``totals`` are the points
    of each seat's camp; ``caller`` is the taker."""
    out: list[RoundSummary] = []
    for e in events:
        if not isinstance(e, E.DealEnded):
            continue
        attack = {e.taker} | ({e.partner} if e.partner is not None else set())
        totals = tuple(
            (e.attack_hp if i in attack else e.defence_hp) / 2 for i in range(len(e.scores))
        )
        scores = tuple(float(s) for s in e.scores)
        out.append(
            RoundSummary(
                e.played_no,
                "won" if e.won else "lost",
                e.taker,
                totals,
                scores,
                tuple(places(scores)),
            )
        )
    return out


#: none of the seasons' counters (calls, doubles) is a thing of this game
seat_stats = no_seat_stats


def deal_results(events: Sequence[E.Event]) -> dict[int, tuple[float, ...]]:
    """Each seeded deal's scores by seat, keyed by the deal's number (``Dealt.deal_no``: the
    same number is the same cards at every table of a seed, however the deals before it
    went). A deal all passed is a result, nought for every seat (T-B3); a deal annulled for a
    petit sec is none (it is annulled with the same cards everywhere, T-S4). Duplicate
    tournaments compare these seat by seat across tables."""
    out: dict[int, tuple[float, ...]] = {}
    seats = 0
    for e in events:
        if isinstance(e, E.Dealt):
            seats = len(e.hands)
        elif isinstance(e, E.DealAnnulled) and e.reason == "all_passed":
            out[e.deal_no] = (0.0,) * seats
        elif isinstance(e, E.DealEnded):
            out[e.deal_no] = tuple(float(s) for s in e.scores)
    return out


def match_over(game: Game) -> bool:
    return game.over


def match_result(game: Game) -> tuple[list[float], list[int]]:
    return [float(c) for c in game.cumulative], list(game.winners)


def now(game: Game) -> int:
    return game.now


def away(game: Game, seat: int) -> bool:
    """The seat's player is away (shown to everyone as such)."""
    seats = game.deal.seats
    return 0 <= seat < len(seats) and seats[seat].away


def make_ai(level: str, seat: int, rules: Rules, seed: str) -> Any:
    from tamalou.games.tarot.ai import make_player

    return make_player(level, seat, rules, seed, budget_ms=AI_BUDGET_MS)


__all__ = [
    "AI_LEVELS",
    "DEFAULT_PRESET",
    "GAME_ID",
    "LOWER_SCORE_WINS",
    "PRESETS",
    "SLOW_AI_LEVELS",
    "TAROT",
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
    "public_view",
    "round_summaries",
    "rules_from_dict",
    "seat_stats",
    "step",
    "stream_for",
    "tick",
    "view",
]
