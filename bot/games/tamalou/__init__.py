"""Tamalou's Discord side: its public messages (``table``), its private panel (``panel``,
narrowing many choices in ``steps``), what both read of the table (``seen``) and how cards
and seats read (``faces``), its button verbs and their arguments (``verbs``), its
``/tamalou`` commands (``commands``, a Cog loaded as an extension)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.games import GamePlugin, Panel
from bot.games.tamalou import options, seen, variants, verbs
from bot.games.tamalou import panel as panels
from bot.games.tamalou import table as tables
from bot.games.tamalou.verbs import Step as PanelStep
from bot.seasons.fields import TAMALOU_STATS
from bot.tables import LiveTable
from bot.ui.cards import CardPicture
from bot.ui.pipeline import Answer, Click
from tamalou.games.tamalou.rules import TAMALOU, Rules

GAME_ID = "tamalou"


def rules_for(settings: dict[str, Any]) -> Rules:
    """The table's rules: its variant's preset with the table settings (R-M5, R-K1, R-V).

    Raises pydantic's ``ValidationError`` for settings the rules model refuses. A
    tournament's table (``match_rounds``) plays that many rounds (R-X16) and rotates the
    first player (R-X17), so that duplicate tables start every round from the same seat.
    """
    rules = variants.rules_for(settings)
    rounds = settings.get("match_rounds")
    if rounds is None:
        return rules
    return Rules.model_validate(
        {
            **rules.model_dump(),
            "match_end": "rounds",
            "max_rounds": int(rounds),
            "first_player": "rotate",
        }
    )


class TamalouPlugin(GamePlugin):
    game_id = GAME_ID
    extension = "bot.games.tamalou.commands"
    verbs = verbs.VERBS
    default_ai_level = "medium"
    season_stats = TAMALOU_STATS

    def rules_for(self, settings: dict[str, Any]) -> Rules:
        return rules_for(settings)

    def server_defaults(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        """The server's turn time (``/cardsadmin tamalou``), when in today's range (one
        stored before the ranges: the game's). Its house variant is ``/tamalou new``'s
        default alone: a tournament plays its own format (fixed rounds, R-X16)."""
        turn = stored.get("turn_seconds")
        if not options.in_range("turn_seconds", turn):
            turn = TAMALOU.turn_ms // 1000
        return {"turn_seconds": turn}

    # Optional plugin parts the seasons commands look for: the leaderboard's variant filter.
    def tournament_settings(
        self, players: int, length: int | None, turn_seconds: int | None
    ) -> dict[str, Any]:
        """A tournament table plays a fixed number of rounds (R-X16), 3 by default."""
        settings = super().tournament_settings(players, length, turn_seconds)
        return {**settings, "match_rounds": length or 3}

    def variant_choices(self) -> list[app_commands.Choice[str]]:
        return variants.choices()

    def canonical_variant(self, name: str) -> str:
        return variants.canonical(name)

    def table_name(self, table: LiveTable, lang: str) -> str:
        """The table's variant (R-V): a Dutch table is "Dutch — table 3"."""
        return tables.title_name(table, lang)

    def variant_name(self, variant: str, lang: str) -> str:
        name = variants.display_name(variant, lang)
        return variant if name == f"variant.{variant}" else name

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
        return panels.panel(
            table,
            seat,
            lang,
            at,
            s.queen_slot,
            s.step,
            s.rep_group,
            seen,
            queen_group=s.queen_group,
            step_group=s.step_group,
            more_group=s.more_group,
            doubles=s.doubles,
        )

    def turn_of(self, table: LiveTable, at: int) -> tuple[int, tuple[int, int]] | None:
        """Whose turn it is and which turn (a new key each turn started), or None."""
        return seen.turn_of(table, at)

    def turn_since(self, table: LiveTable) -> int | None:
        """The turn's start (R-T1)."""
        game = table.game
        return None if game is None else int(game.round.turn_started)

    def moment(self, table: LiveTable, at: int) -> Any:
        """Every turn's start, the last turns after a call included (``turn_of`` pings only
        in the play)."""
        game = table.game
        if game is None:
            return None
        r = game.round
        return (r.round_no, r.phase, r.current, r.turn_started)

    def round_no(self, table: LiveTable) -> int:
        game = table.game
        assert game is not None
        return int(game.round.round_no)

    def answer(self, click: Click) -> Answer:
        return verbs.answer(click)


PLUGIN = TamalouPlugin()
