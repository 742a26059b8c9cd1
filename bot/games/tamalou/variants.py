"""House variants on Discord (R-V): which presets a table may play, their names in both
languages, a table's rules from its settings, and what a variant changes, in a few lines.

The rules themselves are data in the engine (``tamalou.games.tamalou.rules.PRESETS``); this
module only names them and reads a table's ``variant`` setting. No rule is decided here.
"""

from __future__ import annotations

import functools
from typing import Any

from discord import app_commands

from bot.i18n import catalog, ls, t
from bot.tables import TableError
from tamalou.games.tamalou.rules import ALIASES, FONTENAY_HALF, PRESETS, TAMALOU, Rules

DEFAULT_VARIANT = TAMALOU.name
#: every rules set a table may play: the presets (R-V1..R-V9) and fontenay's «mi-partie»
VARIANTS: dict[str, Rules] = {**PRESETS, FONTENAY_HALF.name: FONTENAY_HALF}


def canonical(name: str | None) -> str:
    """A variant's id from a setting or an option (aliases of R-V ruling 1 resolved);
    ``TableError("unknown_variant")`` when there is no such variant."""
    if not name:
        return DEFAULT_VARIANT
    key = ALIASES.get(name.lower(), name.lower())
    if key not in VARIANTS:
        raise TableError("unknown_variant", name=name[:40])
    return key


def variant_of(settings: dict[str, Any]) -> str:
    """The variant a table's settings name (tables opened before variants: the default)."""
    return canonical(settings.get("variant"))


def display_name(variant: str, lang: str) -> str:
    """The variant's name as players know it (French names as in RULES.md)."""
    return t(lang, f"variant.{variant}")


def choices() -> list[app_commands.Choice[str]]:
    """``/tamalou new variant:`` and ``/tamalou settings variant:``: one choice a variant,
    named in the member's language."""
    english = catalog("en")
    return [
        app_commands.Choice(name=ls(english[f"variant.{v}"], f"variant.{v}"), value=v)
        for v in VARIANTS
    ]


@functools.lru_cache(maxsize=256)
def _rules(
    variant: str, target: float | None, turn_seconds: int | None, max_players: int | None
) -> Rules:
    base = VARIANTS[variant]
    data = base.model_dump()
    if target is not None:
        data["target"] = target
    if turn_seconds is not None:
        data["turn_ms"] = turn_seconds * 1000
    if max_players is not None:
        data["max_players"] = max_players
    return Rules.model_validate(data)  # validated, unlike model_copy(update=...)


def rules_for(settings: dict[str, Any]) -> Rules:
    """The table's rules: its variant's preset with the table settings (R-M5, R-K1).

    A setting left out keeps the preset's value (cabo plays to 50, koubo seats 4). Raises
    pydantic's ``ValidationError`` for settings the rules model refuses, ``TableError`` for
    an unknown variant.
    """

    def number(key: str) -> int | None:
        value = settings.get(key)
        return None if value is None else int(value)

    target = settings.get("target")
    return _rules(
        variant_of(settings),
        None if target is None else float(target),
        number("turn_seconds"),
        number("max_players"),
    )


def rules_text(variant: str, lang: str) -> str:
    """``/tamalou rules variant:``: what the variant changes from the default game."""
    if variant == DEFAULT_VARIANT:
        return t(lang, "rules.text")
    title = t(lang, "rules.variant_title", name=display_name(variant, lang))
    return f"{title}\n{t(lang, f'variant.{variant}.rules')}"


def lobby_value(rules: Rules, lang: str) -> str:
    """The lobby's variant field: its name, and ``/tamalou rules`` to read what it changes."""
    return display_name(rules.name, lang)


def footer_prefix(rules: Rules, lang: str) -> str:
    """The table message's footer starts with the variant's name (none for the default)."""
    return "" if rules.name == DEFAULT_VARIANT else f"{display_name(rules.name, lang)} · "
