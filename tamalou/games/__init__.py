"""The registry of games: a game id maps to its package, imported on first use.

Every registered package satisfies :class:`tamalou.core.protocol.GameModule`.
"""

from __future__ import annotations

import importlib
from typing import cast

from tamalou.core.protocol import GameModule

#: game id -> package. Adding a game: add its package under tamalou/games/ and one line here.
REGISTRY: dict[str, str] = {
    "tamalou": "tamalou.games.tamalou",
    "kalooki": "tamalou.games.kalooki",
    "tarot": "tamalou.games.tarot",
}


def game_ids() -> list[str]:
    return list(REGISTRY)


def load(game_id: str) -> GameModule:
    """The game module for ``game_id`` (``KeyError`` names the known ids)."""
    try:
        path = REGISTRY[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(REGISTRY)}") from None
    return cast(GameModule, importlib.import_module(path))
