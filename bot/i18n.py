"""French and English for every string the bot shows; commands localised through a Translator.

Catalogues live in ``bot/locales/<lang>.json`` (flat keys). ``t(lang, key, **values)``
formats a string; a key missing from a language falls back to English, then to the key.
Ephemeral text follows the clicking user's locale; public text the guild's language.

Plurals: a count in a message is written as an ICU plural block, ``{n, plural, one {{n}
trick} other {{n} tricks}}`` (selectors ``one``, ``other`` and exact ``=0``, ``=1``…); the
branch is chosen by :func:`plural_category`, the CLDR cardinal rule of the language (English
*one* is exactly 1; French *one* is 0 and 1, and any number below 2: «0 pli», «1,5 point»).
Two languages need two one-line rules, so the bot carries them instead of Babel (which would
bring gettext catalogues or a second formatter for what these JSON strings already do); see
docs/architecture.md.
"""

from __future__ import annotations

import json
import logging
import re
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


_PLURAL = re.compile(r"\{(\w+), plural,")
#: French "de" before a value (a name, in bold or not): elided before a vowel
_DE = re.compile(r"\b([Dd])e (\**)\{(\w+)\}")
_VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüœæ")


def elide(text: str, values: dict[str, Any]) -> str:
    """French elision of "de" before a value that starts with a vowel: «la carte de bob»,
    «la carte d'alice», «d'IA 1». A name's gender is never known, so the catalogues avoid
    agreeing with it; its first letter is known here. (An h is left alone: «de Hugo».)"""

    def one(m: re.Match[str]) -> str:
        value = values.get(m[3])
        first = str(value).lstrip("\\*_`~")[:1].lower() if value is not None else ""
        return f"{m[1]}'{m[2]}{{{m[3]}}}" if first in _VOWELS and first else m[0]

    return _DE.sub(one, text)


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(str(value).strip().replace("\u202f", "").replace(",", "."))
    except ValueError:
        return None  # "3–5": not one number, the other form


def plural_category(lang: str, value: Any) -> str:
    """CLDR cardinal plural category (``one`` or ``other``) of ``value`` in ``lang``."""
    n = _number(value)
    if n is None:
        return "other"
    if lang == "fr":
        return "one" if 0 <= abs(n) < 2 else "other"  # CLDR fr: i = 0,1
    return "one" if abs(n) == 1 else "other"  # CLDR en: i = 1 and v = 0


def _block(text: str, start: int) -> tuple[dict[str, str], int]:
    """The branches of the plural block whose selectors begin at ``start`` and the index
    after its closing brace."""
    branches: dict[str, str] = {}
    i = start
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            raise ValueError("an unclosed plural block")
        if text[i] == "}":
            return branches, i + 1
        j = text.index("{", i)
        selector = text[i:j].strip()
        depth, k = 1, j + 1
        while depth:
            if k >= len(text):
                raise ValueError("an unclosed plural branch")
            depth += {"{": 1, "}": -1}.get(text[k], 0)
            k += 1
        branches[selector] = text[j + 1 : k - 1]
        i = k


def plurals(text: str, lang: str, values: dict[str, Any]) -> str:
    """``text`` with each plural block replaced by the branch its count chooses."""
    while (m := _PLURAL.search(text)) is not None:
        branches, end = _block(text, m.end())
        value = values[m.group(1)]
        n = _number(value)
        exact = f"={value if n is None else f'{n:g}'}"
        chosen = branches.get(exact) or branches.get(plural_category(lang, value))
        text = (
            text[: m.start()] + (chosen if chosen is not None else branches["other"]) + text[end:]
        )
    return text


def t(lang: str, key: str, **values: Any) -> str:
    text = catalog(lang).get(key)
    if not text:
        text, lang = catalog("en").get(key), "en"
    if text is None:
        log.warning("missing translation key %s", key)
        return key
    if "{" not in text and "}" not in text:
        return text  # nothing to fill in (many labels): no formatting a click
    try:
        if ", plural," in text:  # else no plural block (``_PLURAL``) to look for
            text = plurals(text, lang, values)
        if lang == "fr" and "de " in text:
            text = elide(text, values)
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
