"""Kalooki's Discord side: its public messages (``table``), its private panel (``panel``),
the lay-down being built in a panel (``drafts``), what they read of the table (``seen``)
and how cards and seats read (``faces``), its button and select verbs and their arguments
(``verbs``), its ``/kalooki`` commands (``commands``, a Cog loaded as an extension).
docs/kalooki.md, "On Discord"."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import discord

from bot.games import GamePlugin, Panel
from bot.games.kalooki import drafts, seen, verbs
from bot.games.kalooki import panel as panels
from bot.games.kalooki import table as tables
from bot.i18n import t
from bot.tables import LiveTable
from bot.ui.pipeline import Answer, Click
from tamalou.games.kalooki.rules import KALOOKI, PRESETS, Rules

GAME_ID = "kalooki"


@functools.lru_cache(maxsize=256)
def _rules(preset: str, turn_seconds: int, max_players: int, call_seconds: int) -> Rules:
    data = PRESETS[preset].model_dump()
    data.update(turn_clock_s=turn_seconds, max_players=max_players, call_window_s=call_seconds)
    return Rules.model_validate(data)  # validated, unlike model_copy(update=...)


def rules_for(settings: dict[str, Any]) -> Rules:
    """The table's rules: a preset (K-V1..K-V3) with the table's turn clock, call window
    and seats (K-V4).

    Raises pydantic's ``ValidationError`` (or ``KeyError`` for an unknown preset)."""
    preset = str(settings.get("preset", "kalooki"))
    if preset not in PRESETS:
        raise KeyError(preset)
    return _rules(
        preset,
        int(settings.get("turn_seconds", KALOOKI.turn_clock_s)),
        int(settings.get("max_players", KALOOKI.max_players)),
        int(settings.get("call_seconds", KALOOKI.call_window_s)),
    )


class KalookiPlugin(GamePlugin):
    game_id = GAME_ID
    extension = "bot.games.kalooki.commands"
    verbs = verbs.VERBS
    default_ai_level = "medium"

    def rules_for(self, settings: dict[str, Any]) -> Rules:
        return rules_for(settings)

    def server_defaults(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        """The server's turn time and call window (``/cardsadmin kalooki``), else the game's."""
        return {
            "turn_seconds": int(stored.get("kalooki_turn_s", KALOOKI.turn_clock_s)),
            "call_seconds": int(stored.get("kalooki_call_s", KALOOKI.call_window_s)),
        }

    def variant_name(self, variant: str, lang: str) -> str:
        """A preset's name on a season card (``Baby Kalooki``)."""
        name = t(lang, f"kalooki.variant.{variant}")
        return variant if name == f"kalooki.variant.{variant}" else name

    def panel_state_data(self, state: drafts.PanelState | None) -> dict[str, Any] | None:
        """The lay-down being built and the hand's order, kept with the table."""
        return drafts.to_data(state)

    def panel_state_of(self, data: Any) -> drafts.PanelState | None:
        return drafts.load(data)

    def lobby_message(
        self, table: LiveTable, lang: str, expires_at: int
    ) -> tuple[discord.Embed, discord.ui.View]:
        return tables.lobby_message(table, lang, expires_at)

    def table_message(
        self, table: LiveTable, lang: str, at: int
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        return tables.table_message(table, lang, at)

    def panel(
        self,
        table: LiveTable,
        seat: int,
        lang: str,
        at: int,
        *,
        step: Any = None,
        state: drafts.PanelState | None = None,
        seen: Any = None,
    ) -> Panel:
        return panels.panel(table, seat, lang, at, seen, state)

    def turn_of(self, table: LiveTable, at: int) -> tuple[int, tuple[int, int, int]] | None:
        """Whose turn it is and which turn (a new key each turn started), or None: the
        presenter pings that player (docs/architecture.md, "Turn pings")."""
        return seen.turn_of(table, at)

    def turn_since(self, table: LiveTable) -> int | None:
        """When the player may draw: after the call window (K-K2)."""
        game = table.game
        return None if game is None else int(game.round.draw_at)

    def round_no(self, table: LiveTable) -> int:
        game = table.game
        assert game is not None
        return int(game.round.round_no)

    def answer(self, click: Click) -> Answer:
        return verbs.answer(click)


PLUGIN = KalookiPlugin()
