"""Tamalou's Discord side: its table message and panels (``render``), its button verbs
(``verbs``), its ``/tamalou`` commands (``commands``, a Cog loaded as an extension)."""

from __future__ import annotations

import functools
from typing import Any

import discord

from bot.games import Panel
from bot.games.tamalou import render, verbs
from bot.tables import LiveTable
from bot.ui.cards import CardPicture
from tamalou.games.tamalou.rules import TAMALOU, Rules

GAME_ID = "tamalou"


@functools.lru_cache(maxsize=256)
def _rules(target: float, turn_seconds: int, max_players: int) -> Rules:
    data = TAMALOU.model_dump()
    data.update(target=target, turn_ms=turn_seconds * 1000, max_players=max_players)
    return Rules.model_validate(data)  # validated, unlike model_copy(update=...)


def rules_for(settings: dict[str, Any]) -> Rules:
    """The table's rules: the tamalou preset with the table settings (R-M5, R-K1).

    Raises pydantic's ``ValidationError`` for settings the rules model refuses.
    """
    return _rules(
        float(settings.get("target", TAMALOU.target)),
        int(settings.get("turn_seconds", TAMALOU.turn_ms // 1000)),
        int(settings.get("max_players", TAMALOU.max_players)),
    )


class TamalouPlugin:
    game_id = GAME_ID
    extension = "bot.games.tamalou.commands"
    verbs = verbs.VERBS
    default_ai_level = "medium"

    def rules_for(self, settings: dict[str, Any]) -> Rules:
        return rules_for(settings)

    def lobby_message(
        self, table: LiveTable, lang: str, expires_at: int
    ) -> tuple[discord.Embed, discord.ui.View]:
        return render.lobby_message(table, lang, expires_at)

    def table_message(
        self, table: LiveTable, lang: str, at: int
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        return render.table_message(table, lang, at)

    def table_picture(self, table: LiveTable, lang: str, at: int) -> CardPicture | None:
        return render.table_picture(table, lang, at)

    def panel(self, table: LiveTable, seat: int, lang: str, at: int, **choice: Any) -> Panel:
        return render.panel(table, seat, lang, at, choice.get("queen_slot"))

    def build_action(
        self, verb: str, seat: int, parts: list[int], values: list[str], at: int
    ) -> Any:
        return verbs.build_action(verb, seat, parts, values, at)

    async def on_verb(
        self,
        interaction: discord.Interaction,
        table: LiveTable,
        verb: str,
        arg: str | None,
        values: list[str],
        lang: str,
    ) -> None:
        await verbs.on_verb(interaction, table, verb, arg, values, lang)


PLUGIN = TamalouPlugin()
