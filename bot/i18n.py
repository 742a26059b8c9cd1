"""French and English for every string the bot shows; commands localised through a Translator.

Catalogues live in ``bot/locales/<lang>.json`` (flat keys). ``t(lang, key, **values)``
formats a string; a key missing from a language falls back to English, then to the key.
Ephemeral text follows the clicking user's locale; public text the guild's language.
"""

from __future__ import annotations

import json
import logging
from functools import cache
from importlib import resources
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)

LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "fr"


@cache
def catalog(lang: str) -> dict[str, str]:
    """``locales/<lang>.json`` merged with every ``locales/<part>.<lang>.json``."""
    data: dict[str, str] = {}
    folder = resources.files("bot") / "locales"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name == f"{lang}.json" or entry.name.endswith(f".{lang}.json"):
            data.update(json.loads(entry.read_text(encoding="utf-8")))
    return data


def lang_of(locale: discord.Locale | str | None, default: str = "en") -> str:
    """``fr`` for any French locale, ``en`` for any other known locale."""
    if locale is None:
        return default
    value = locale.value if isinstance(locale, discord.Locale) else str(locale)
    return "fr" if value.lower().startswith("fr") else "en"


def t(lang: str, key: str, **values: Any) -> str:
    text = catalog(lang).get(key) or catalog("en").get(key)
    if text is None:
        log.warning("missing translation key %s", key)
        return key
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):
        log.warning("bad values for translation key %s", key)
        return text


class Translator(app_commands.Translator):
    """Slash commands, options and choices in French and English (``locale_str`` keys)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if key is None:
            return None
        lang = lang_of(locale)
        if locale.value not in ("fr", "en-US", "en-GB"):
            return None
        return catalog(lang).get(key)


def ls(text: str, key: str) -> app_commands.locale_str:
    """A command string: English text by default, translated by ``key``."""
    return app_commands.locale_str(text, key=key)
