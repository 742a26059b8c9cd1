"""Tamalou, the game: a pure rules engine (no Discord, no I/O, no clock, no global random)."""

from tamalou.actions import Action
from tamalou.engine import apply, legal_actions, new_game, next_deadline, step
from tamalou.errors import IllegalAction
from tamalou.rules import PRESETS, TAMALOU, Rules
from tamalou.state import Game
from tamalou.views import PlayerView, PublicView, public_view, view

__all__ = [
    "PRESETS",
    "TAMALOU",
    "Action",
    "Game",
    "IllegalAction",
    "PlayerView",
    "PublicView",
    "Rules",
    "apply",
    "legal_actions",
    "new_game",
    "next_deadline",
    "public_view",
    "step",
    "view",
]
