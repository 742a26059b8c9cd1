"""Tarot's Discord side: its public messages (``table``), its private panel (``panel``),
what both read of the table (``seen``) and how cards and seats read (``faces``), its button
verbs and their arguments (``verbs``), its ``/tarot`` commands (``commands``, a Cog loaded
as an extension)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import discord

from bot.games import GamePlugin, Panel
from bot.games.tarot import panel as panels
from bot.games.tarot import seen, verbs
from bot.games.tarot import table as tables
from bot.games.tarot.verbs import Step as PanelStep
from bot.i18n import t
from bot.seasons.fields import SeasonStats
from bot.tables import LiveTable
from bot.ui.cards import CardPicture
from bot.ui.pipeline import Answer, Click
from tamalou.games.tarot.rules import PRESETS, Rules, sans_chien

GAME_ID = "tarot"


@functools.lru_cache(maxsize=64)
def _rules(preset: str, without_dog: bool, rounds: int, turn_seconds: int | None) -> Rules:
    rules = PRESETS[preset]
    if without_dog:
        rules = sans_chien(rules)  # refused (ValidationError) unless three players
    data: dict[str, Any] = {**rules.model_dump(), "rounds": rounds}
    if turn_seconds is not None:  # a server's default (/cardsadmin tarot): bids, call, cards
        turn = turn_seconds * 1000
        data.update(bid_ms=turn, call_ms=turn, play_ms=turn, ecart_ms=3 * turn)
    return Rules.model_validate(data)


def rules_for(settings: dict[str, Any]) -> Rules:
    """The table's rules: a preset (``tarot``, ``tarot3``, ``tarot5``), the option
    ``sans_chien``, the match length (T-M1) and the server's turn time if it set one (a
    bid, the King's call and a card each get it, the écart three times it). Raises
    ``ValidationError`` when refused."""
    turn = settings.get("turn_seconds")
    return _rules(
        str(settings.get("preset", "tarot")),
        bool(settings.get("sans_chien", False)),
        int(settings.get("rounds", 1)),
        None if turn is None else int(turn),
    )


class TarotPlugin(GamePlugin):
    game_id = GAME_ID
    extension = "bot.games.tarot.commands"
    verbs = verbs.VERBS
    default_ai_level = "medium"
    season_stats = SeasonStats(round_word="deal")  # T-M1: a match is deals
    #: a deal's points against the same seat's at the other tables (docs/tournaments.md)
    duplicate_scoring = "difference"

    def display_name(self, lang: str) -> str:
        return t(lang, "tarot.name")

    def rules_for(self, settings: dict[str, Any]) -> Rules:
        return rules_for(settings)

    def variant_name(self, variant: str, lang: str) -> str:
        """A preset's name on a season card (``Tarot for three``)."""
        name = t(lang, f"tarot.variant.{variant}")
        return variant if name == f"tarot.variant.{variant}" else name

    def server_defaults(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        """The server's turn time (``/cardsadmin tarot``) if it set one; else the rules'
        own clocks."""
        turn = stored.get("tarot_turn_s")
        return {} if turn is None else {"turn_seconds": int(turn)}

    def tournament_settings(
        self, players: int, length: int | None, turn_seconds: int | None
    ) -> dict[str, Any]:
        """The preset of that many players, ``length`` deals (1 by default), a turn time
        when one is given (None: the rules' own clocks)."""
        preset = {3: "tarot3", 4: "tarot", 5: "tarot5"}.get(players, "tarot")
        settings: dict[str, Any] = {"preset": preset, "rounds": length or 1}
        if turn_seconds is not None:
            settings["turn_seconds"] = turn_seconds
        return settings

    def lobby_message(
        self, table: LiveTable, lang: str, expires_at: int
    ) -> tuple[discord.Embed, discord.ui.View]:
        return tables.lobby_message(table, lang, expires_at)

    def table_message(
        self, table: LiveTable, lang: str, at: int
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        return tables.table_message(table, lang, at)

    def table_picture(self, table: LiveTable, lang: str, at: int) -> CardPicture | None:
        return tables.table_picture(table, lang, at)

    def panel(
        self,
        table: LiveTable,
        seat: int,
        lang: str,
        at: int,
        *,
        step: PanelStep | None = None,
        state: Any = None,
        seen: Any = None,
    ) -> Panel:
        s = step or PanelStep()
        return panels.panel(table, seat, lang, at, s.pending, seen, s.play_group)

    def turn_of(self, table: LiveTable, at: int) -> tuple[int, tuple[int, int]] | None:
        """Whose turn it is and which turn (a new key each turn started), or None: the
        presenter pings that player (docs/architecture.md, "Turn pings")."""
        return seen.turn_of(table, at)

    def turn_since(self, table: LiveTable) -> int | None:
        """The turn's start: a bid, the call, the écart, the chelem window or a card."""
        game = table.game
        return None if game is None else int(game.deal.turn_started)

    def round_no(self, table: LiveTable) -> int:
        game = table.game
        assert game is not None
        return int(game.deal.deal_no)

    def answer(self, click: Click) -> Answer:
        return verbs.answer(click)


PLUGIN = TarotPlugin()
