"""The bot-side game plugins: each game's Discord side, found by its game id.

A plugin is the Discord half of a game whose engine is registered in ``tamalou.games``. It
knows how the game's settings become rules, how its table message and private panels look,
which button verbs it answers and what engine action each verb is, and which extension
(a Cog) holds its slash commands. ``bot/tables/`` never imports this package: the app gives
the table service :func:`rules_for`.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from pydantic import BaseModel

from bot.seasons.fields import SeasonStats
from bot.ui.pipeline import Verb

if TYPE_CHECKING:
    from bot.tables import LiveTable
    from bot.ui.cards.display import CardPicture
    from bot.ui.pipeline import Answer, Click

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


class GamePlugin(ABC):
    """A game's Discord side, the typed base every game's ``PLUGIN`` derives from.

    Abstract: what every game must say. The rest has a default a game overrides when it has
    that part (no ``getattr`` probe anywhere: the platform calls these methods).
    """

    game_id: str
    #: the extension (``bot.load_extension``) holding the game's Cog and slash group
    extension: str
    #: every play verb its buttons and selects carry (``<game>:<verb>:<table>[:<arg>]``), and
    #: what the platform checks of each before the game sees a click (``bot/ui/pipeline.py``)
    verbs: Mapping[str, Verb]
    default_ai_level: str
    #: what its season card and CSV show besides what every game has: the word for its
    #: rounds and its own counters (docs/seasons.md)
    season_stats: SeasonStats = SeasonStats()
    #: how a duplicate tournament's table-round is scored (docs/tournaments.md): ``rank``
    #: (places at each table) or ``difference`` (points against the other tables' same seat)
    duplicate_scoring: str = "rank"

    @abstractmethod
    def rules_for(self, settings: dict[str, Any]) -> BaseModel:
        """The table's rules from its settings (raises ``ValidationError`` when refused)."""

    @abstractmethod
    def lobby_message(
        self, table: LiveTable, lang: str, expires_at: int
    ) -> tuple[discord.Embed, discord.ui.View]: ...

    @abstractmethod
    def table_message(
        self, table: LiveTable, lang: str, at: int
    ) -> tuple[discord.Embed, discord.ui.View | None]: ...

    @abstractmethod
    def panel(
        self,
        table: LiveTable,
        seat: int,
        lang: str,
        at: int,
        *,
        step: Any = None,
        state: Any = None,
        seen: Any = None,
    ) -> Panel:
        """One seat's panel, built from the engine's view and legal actions. ``step``: the
        panel step a click chose (the game's own frozen value: a narrowing; None: the
        panel as it opens), ``state``: the seat's panel state the desk keeps (None: none),
        ``seen``: the click's views (``bot/ui/seen.py``), when it read some."""

    @abstractmethod
    def round_no(self, table: LiveTable) -> int:
        """The number of the round (a tarot deal) being played: every play button carries
        the round it was drawn for first, and the platform refuses another round's."""

    @abstractmethod
    def answer(self, click: Click) -> Answer:
        """Answer a play click the platform has checked, with a value: the engine action its
        verb asks for (``Act``, with what follows it), a step of the panel (``ShowPanel``),
        a line (``Say``), a refusal (``Refuse``) or None. No Discord, no event loop: the
        pipeline carries it out (``bot/ui/pipeline.py``)."""

    # -- optional parts, with their defaults ----------------------------------------------

    def display_name(self, lang: str) -> str:
        """The game's name in shared messages ("Tarot — table 3 is closed")."""
        return self.game_id.capitalize()

    def table_name(self, table: LiveTable, lang: str) -> str:
        """What a table's titles call it: its thread, its channel summary, its messages
        ("Dutch — table 3"). Default: the game's name."""
        return self.display_name(lang)

    def table_picture(self, table: LiveTable, lang: str, at: int) -> CardPicture | None:
        """The picture the table message carries (docs/cards.md); None: no picture."""
        return None

    def turn_of(self, table: LiveTable, at: int) -> tuple[int, Any] | None:
        """The human seat whose turn has started and a key new at each turn (the presenter
        pings that player, docs/architecture.md "Turn pings"); None: no ping."""
        return None

    def turn_since(self, table: LiveTable) -> int | None:
        """When the turn ``turn_of`` names started, on the game's clock (ms): its ping is due
        that long after, however late the table's drawing came. None: when the presenter
        first sees it."""
        return None

    def moment(self, table: LiveTable, at: int) -> Any:
        """A key that changes when a member's open panel may gain moves (a turn starts, a
        race opens): the presenter then edits the open panels that do. Default:
        the turn pings' key (``turn_of``)."""
        return self.turn_of(table, at)

    def panel_state_data(self, state: Any) -> Any:
        """A seat's panel state (the game's frozen value the desk keeps between clicks:
        Kalooki's lay-down being built) as JSON-able data, stored with the table so a restart
        keeps it; None: nothing to store."""
        return None

    def panel_state_of(self, data: Any) -> Any:
        """:meth:`panel_state_data` read back at start-up (None: unreadable, dropped)."""
        return None

    def server_defaults(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        """The table settings the server's defaults for this game give a new table
        (``stored``: the server's settings, set by ``/cardsadmin <game>``): ``/<game> new``
        and a tournament's tables read them, a setting the table was given winning. Default:
        none."""
        return {}

    def tournament_settings(
        self, players: int, length: int | None, turn_seconds: int | None
    ) -> dict[str, Any]:
        """A tournament table's settings in the game's own words (its ``rules_for`` reads
        them): ``players`` seats, a match ``length`` (rounds or deals; None: the game's
        default), ``turn_seconds`` (None: the game's default)."""
        settings: dict[str, Any] = {"max_players": players}
        if turn_seconds is not None:
            settings["turn_seconds"] = turn_seconds
        return settings

    def variant_choices(self) -> list[app_commands.Choice[str]] | None:
        """The ``variant:`` filter of the game's leaderboard (None: the game has none)."""
        return None

    def canonical_variant(self, name: str) -> str:
        """A variant name as the leaderboard stores it."""
        return name

    def variant_name(self, variant: str, lang: str) -> str:
        """A stored variant (its rules' preset name) as players read it on a season card;
        an unknown one as it is stored."""
        return variant


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
    """The game's name as players read it (``Tamalou``, ``Kalooki``, ``Tarot``); the id
    capitalised for a game this bot does not have (an old table's row)."""
    try:
        return plugin(game_id).display_name(lang)
    except (KeyError, ImportError):
        return game_id.capitalize()


def table_name(table: LiveTable, lang: str) -> str:
    """What a table's titles call it (``GamePlugin.table_name``: a Tamalou house variant's
    name), the game's name for a game this bot does not have."""
    try:
        found = plugin(table.row.game)
    except (KeyError, ImportError):
        return table.row.game.capitalize()
    return found.table_name(table, lang)


def plugins() -> list[GamePlugin]:
    return [plugin(g) for g in REGISTRY]


def rules_for(game_id: str, settings: dict[str, Any]) -> BaseModel:
    """What the table service is given: a table's settings as its game's rules."""
    return plugin(game_id).rules_for(settings)
