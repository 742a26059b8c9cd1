"""French and English everywhere: the catalogues agree and cover every reason and command."""

from __future__ import annotations

import re
from pathlib import Path

import discord
from discord import app_commands

from bot.i18n import Translator, catalog, t

ROOT = Path(__file__).resolve().parents[1]


def test_both_languages_have_the_same_keys() -> None:
    assert set(catalog("en")) == set(catalog("fr"))


def test_every_refusal_reason_has_a_translation() -> None:
    package = ROOT / "tamalou" / "games" / "tamalou" / "engine"  # the engine, split by role
    engine = "\n".join(p.read_text() for p in sorted(package.glob("*.py")))
    reasons = set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', engine))
    assert reasons, "no engine reason found"
    bot = "".join(p.read_text() for p in (ROOT / "bot").rglob("*.py"))
    errors = set(re.findall(r'TableError\(\s*"([a-z_]+)"', bot))
    for lang in ("en", "fr"):
        strings = catalog(lang)
        assert not [r for r in reasons if f"illegal.{r}" not in strings], lang
        assert not [r for r in errors if f"err.{r}" not in strings], lang


def test_every_literal_key_used_by_the_bot_exists() -> None:
    bot = "".join(p.read_text() for p in (ROOT / "bot").rglob("*.py"))
    keys = set(re.findall(r'\bt\(\s*lang,\s*"([a-z_.]+)"', bot))
    assert len(keys) > 30
    for lang in ("en", "fr"):
        assert not sorted(k for k in keys if k not in catalog(lang)), lang


def test_a_missing_key_falls_back_to_the_key_itself() -> None:
    assert t("fr", "no.such.key") == "no.such.key"
    assert t("fr", "ok.joined", id=3) == "Vous êtes assis à la table 3."


async def test_commands_and_option_names_are_localised() -> None:
    translator = Translator()
    context = app_commands.TranslationContext(
        location=app_commands.TranslationContextLocation.parameter_name, data=None
    )
    name = app_commands.locale_str("turn_seconds", key="optname.turn_seconds")
    assert await translator.translate(name, discord.Locale.french, context) == "secondes_tour"
    command = app_commands.locale_str("new", key="cmd.new")
    assert await translator.translate(command, discord.Locale.french, context) == "nouvelle"
    assert await translator.translate(command, discord.Locale.japanese, context) is None
    for key, value in catalog("fr").items():
        if key.startswith(("optname.", "cmd.")) and not key.endswith(".desc"):
            assert re.fullmatch(r"[-_\w]{1,32}", value) and value == value.lower(), key


def test_ai_seats_are_named_in_the_reader_language() -> None:
    from bot.storage import SeatRow
    from bot.ui.common import seat_name

    ai = SeatRow(1, 2, "AI 2 (medium)", "medium")
    assert seat_name(ai, "fr") == "IA 2 (moyen)"
    assert seat_name(ai, "en") == "AI 2 (medium)"
    assert seat_name(SeatRow(0, 99, "bo*b"), "fr") == "bo\\*b"  # markdown escaped
