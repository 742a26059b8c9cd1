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
    from bot.ui.kit import seat_name

    ai = SeatRow(1, 2, "AI 2 (medium)", "medium")
    assert seat_name(ai, "fr") == "IA 2 (moyen)"
    assert seat_name(ai, "en") == "AI 2 (medium)"
    assert seat_name(SeatRow(0, 99, "bo*b"), "fr") == "bo\\*b"  # markdown escaped


# -- plurals (CLDR cardinal rules, ICU plural blocks in the catalogues) ----------------------

#: a count followed by a counted noun: such a message must choose its form by the count
COUNTED = {
    "en": r"cards|tricks|points|deals|rounds|players|calls|melds|oudlers|matches|jokers",
    "fr": r"cartes|plis|points|donnes|manches|joueurs|appels|combinaisons|bouts|parties|tours",
}


def _without_plural_blocks(text: str) -> str:
    from bot.i18n import _PLURAL, _block

    while (m := _PLURAL.search(text)) is not None:
        _, end = _block(text, m.end())
        text = text[: m.start()] + text[end:]
    return text


def test_the_plural_categories_follow_cldr() -> None:
    """CLDR cardinal rules: English *one* is exactly 1; French *one* is 0 and 1 (i = 0,1), so
    any number below 2 («0 pli», «1,5 point»)."""
    from bot.i18n import plural_category

    assert [plural_category("en", n) for n in (0, 1, 1.5, 2, "1", "3–5")] == [
        "other", "one", "other", "other", "one", "other",
    ]  # fmt: skip
    assert [plural_category("fr", n) for n in (0, 1, 1.5, "1,5", 2, 21)] == [
        "one", "one", "one", "one", "other", "other",
    ]  # fmt: skip


def test_counts_read_right_in_both_languages() -> None:
    assert t("en", "tarot.seat.tricks", n=1) == "1 trick"
    assert t("en", "tarot.seat.tricks", n=0) == "0 tricks"
    assert t("fr", "tarot.seat.tricks", n=0) == "0 pli"
    assert t("fr", "tarot.seat.cards", n=2) == "2 cartes"
    assert t("en", "tarot.seat.cards", n=1) == "1 card"
    deal = {"name": "A", "contract": "Garde", "margin": 3, "needed": 41}
    won = t("en", "tarot.over.won", points=44, oudlers=1, **deal)
    assert "with 1 oudler," in won and "(s)" not in won
    lost = t("fr", "tarot.over.lost", points=38, oudlers=2, **deal)
    assert lost.endswith("avec 2 bouts, 41 demandés.")
    assert "1 round:" in t("en", "tarot.lobby.settings_value", players="3–5", rounds=1)
    assert "deal(s)" not in t("en", "tarot.lobby.settings_value", players="4", rounds=2)
    assert t("en", "kalooki.table.contract_value", contract="x", cards=1) == "x · 1 card dealt"
    assert t("fr", "stats.unranked", matches=1, min=5) == (
        "Pas encore classé : 1 partie jouée sur 5."
    )
    assert t("en", "season.started", season="S", number=2, min=1).endswith(
        "1 match is needed to be ranked."
    )


def test_no_message_puts_a_count_before_a_fixed_plural() -> None:
    """Every count before a counted noun is a plural block, in every game's catalogue, and no
    message hedges with "(s)"."""
    for lang, nouns in COUNTED.items():
        bad = []
        for key, text in catalog(lang).items():
            plain = _without_plural_blocks(text)
            # "{name} calls {card}": a verb after a name, not a count
            if re.search(r"\{(?!name\})\w+\} (?:" + nouns + r")\b", plain) or "(s)" in plain:
                bad.append(key)
        assert not bad, (lang, bad)


def test_every_plural_block_parses_and_has_an_other_form() -> None:
    from bot.i18n import _PLURAL, _block

    for lang in ("en", "fr"):
        for key, text in catalog(lang).items():
            for m in _PLURAL.finditer(text):
                branches, _ = _block(text, m.end())
                assert "other" in branches, (lang, key)
                assert set(branches) <= {"one", "other"} | {f"={i}" for i in range(10)}


def test_the_wording_fixes_of_issue_30() -> None:
    en, fr = catalog("en"), catalog("fr")
    assert en["tarot.contract.garde_sans"] == "Garde sans (without the dog)"
    assert en["tarot.contract.garde_contre"] == "Garde contre (against the dog)"
    assert "écart +" not in fr["tarot.rules.text"]  # the écart is the discarded cards
    assert "deal" in en["tarot.over.next"].lower() and "donne" in fr["tarot.over.next"]


def test_tarot_rounds_has_one_name_and_one_meaning() -> None:
    """The `rounds` option counts rounds (each player deals once a round), as its name says;
    the table counts the deals they make (deal 1/4 at four players, one round)."""
    for lang, word in (("en", "round"), ("fr", "tour")):
        strings = catalog(lang)
        assert strings["optname.tarot_rounds"].startswith(word)
        assert strings["opt.tarot_rounds"].lower().startswith(word)
        lobby = t(lang, "tarot.lobby.settings_value", players="4", rounds=1)
        assert f"1 {word}" in lobby and "(s)" not in lobby and "deal(" not in lobby


def test_french_elides_de_before_a_name_that_starts_with_a_vowel() -> None:
    """«la carte de alice» read wrong: «d'alice», «d'IA 1», «d'**Émile**»; «de bob» and
    «de Hugo» stay; English is untouched."""
    from bot.i18n import elide, t

    assert t("fr", "btn.look_at", slot=1, name="alice") == "Regarder la carte 1 d'alice"
    assert t("fr", "btn.look_at", slot=1, name="IA 1 (moyen)").endswith("d'IA 1 (moyen)")
    assert t("fr", "btn.look_at", slot=1, name="bob").endswith("de bob")
    assert elide("la place de **{name}**", {"name": "Émile"}) == "la place d'**{name}**"
    assert elide("de {name}", {"name": "Hugo"}) == "de {name}"
    assert t("en", "btn.look_at", slot=1, name="alice") == "Look at alice's card 1"


def test_no_french_line_agrees_with_a_players_gender() -> None:
    """A member's gender is not known: «alice est sorti» read wrong; the catalogues say it
    without agreeing («Sortie d'alice»)."""
    fr = catalog("fr")
    assert fr["kalooki.over.out"] == "Sortie de {name}."
    assert not [k for k, v in fr.items() if re.search(r"\{name\} est sorti", v)]
