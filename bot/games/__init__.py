"""The bot-side game plugins: each game's Discord side, found by its game id.

A plugin is the Discord half of a game whose engine is registered in ``tamalou.games``. It
knows how the game's settings become rules, how its table message and private panels look,
which button verbs it answers and what engine action each verb is, and which extension
(a Cog) holds its slash commands. ``bot/tables/`` never imports this package: the app gives
the table service :func:`rules_for`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord
from pydantic import BaseModel

if TYPE_CHECKING:
    from bot.tables import LiveTable
    from bot.ui.cards.display import CardPicture

#: game id -> module holding ``PLUGIN``. Adding a game: its package under bot/games/ and a line.
REGISTRY: dict[str, str] = {
    "tamalou": "bot.games.tamalou",
    "kalooki": "bot.games.kalooki",
    "tarot": "bot.games.tarot",
}


@dataclass(slots=True)
class Panel:
    """A private panel: its text, its components, when timed secrets must be hidden, and
    the picture it carries (rendered and attached by the presenter; docs/cards.md)."""

    text: str
    view: discord.ui.View
    hide_at: int | None = None
    picture: CardPicture | None = None


class GamePlugin(Protocol):
    """A game's Discord side. Optional methods, read with ``getattr``: ``table_picture(table,
    lang, at)`` (docs/cards.md), ``display_name(lang)``, the game's name in shared
    messages such as "Tarot — table 3 is closed" (default: the id capitalised), and
    ``panel_memory(table_id, seat)`` / ``restore_panel_memory(table_id, seat, data)``, what a
    seat's panel keeps between clicks, stored with the table (docs/adding-a-game.md)."""

    game_id: str
    #: the extension (``bot.load_extension``) holding the game's Cog and slash group
    extension: str
    #: every play verb its buttons and selects carry (``<game>:<verb>:<table>[:<arg>]``)
    verbs: frozenset[str]
    default_ai_level: str

    def rules_for(self, settings: dict[str, Any]) -> BaseModel:
        """The table's rules from its settings (raises ``ValidationError`` when refused)."""
        ...

    def lobby_message(
        self, table: LiveTable, lang: str, expires_at: int
    ) -> tuple[discord.Embed, discord.ui.View]: ...

    def table_message(
        self, table: LiveTable, lang: str, at: int
    ) -> tuple[discord.Embed, discord.ui.View | None]: ...

    # Optional: ``table_picture(table, lang, at) -> CardPicture | None``, the picture the
    # table message carries (the presenter renders and attaches it; docs/cards.md).

    def panel(self, table: LiveTable, seat: int, lang: str, at: int, **choice: Any) -> Panel:
        """One seat's panel, built from the engine's view and legal actions."""
        ...

    def build_action(
        self, verb: str, seat: int, parts: list[int], values: list[str], at: int
    ) -> Any:
        """A verb of a click (and its parsed argument) as the engine action it asks for."""
        ...

    async def on_verb(
        self,
        interaction: discord.Interaction,
        table: LiveTable,
        verb: str,
        arg: str | None,
        values: list[str],
        lang: str,
    ) -> None:
        """Answer a play verb: turn it into an action, act, show the result."""
        ...


#: the plugins imported so far, by game id (``plugin`` is called at every click and edit)
_LOADED: dict[str, GamePlugin] = {}


def plugin(game_id: str) -> GamePlugin:
    """The plugin of ``game_id`` (``KeyError`` when there is none)."""
    found = _LOADED.get(game_id)
    if found is None:
        module = importlib.import_module(REGISTRY[game_id])
        found = _LOADED[game_id] = module.PLUGIN
    return found


def display_name(game_id: str, lang: str) -> str:
    """The game's name as players read it (``Tamalou``, ``Kalooki``, ``Tarot``): the plugin's
    optional ``display_name(lang)``, else the id capitalised."""
    try:
        named = getattr(plugin(game_id), "display_name", None)
    except (KeyError, ImportError):
        named = None
    return str(named(lang)) if callable(named) else game_id.capitalize()


def forget(game_id: str, table_id: int) -> None:
    """A table is done with (closed, or its match drawn over): the plugin's optional
    ``forget(table_id)`` drops what its panels kept in memory for it."""
    try:
        drop = getattr(plugin(game_id), "forget", None)
    except (KeyError, ImportError):
        drop = None
    if callable(drop):
        drop(table_id)


def plugins() -> list[GamePlugin]:
    return [plugin(g) for g in REGISTRY]


def rules_for(game_id: str, settings: dict[str, Any]) -> BaseModel:
    """What the table service is given: a table's settings as its game's rules."""
    return plugin(game_id).rules_for(settings)
