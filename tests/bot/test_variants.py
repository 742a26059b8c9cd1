"""House variants on Discord (R-V): choosing one, its name on the messages, its rules in
short, and every engine refusal of the variants said in both languages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.games.tamalou import panel as panels
from bot.games.tamalou import table as tables
from bot.games.tamalou import variants
from bot.i18n import catalog
from bot.tables import TableError
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou.engine import apply
from tamalou.games.tamalou.rules import CABO, KOUBO, PRESETS, TAMALOU
from tamalou.games.tamalou.scripted import forced_game
from tamalou.games.tamalou.state import RoundResult
from tests.support.live_tables import live_table

ROOT = Path(__file__).resolve().parents[2]
ROWS = [["2h", "3h", "4h", "5h"], ["2s", "3s", "4s", "5s"]]

#: RULES.md R-V1..R-V9: the names players know the presets by (French)
FRENCH_NAMES = {
    "dutch": "Dutch",
    "koubo": "Koubo",
    "tamoul": "Tamoul",
    "cabo": "Cabo",
    "classique": "Tamalou classique",
    "swiss": "Variante suisse (Dune)",
    "dutch_sec": "Dutch sec",
    "dutch_roi": "Dutch au Roi rouge",
    "fontenay": "Fontenaysienne",
}


def test_r_v_every_preset_is_a_choice_named_in_both_languages() -> None:
    values = [c.value for c in variants.choices()]
    assert set(PRESETS) <= set(values) and "fontenay_half" in values
    assert len(values) <= 25  # Discord: 25 choices an option
    for v in values:
        assert catalog("en")[f"variant.{v}"] and catalog("fr")[f"variant.{v}"]
    for v, name in FRENCH_NAMES.items():
        assert variants.display_name(v, "fr") == name


def test_r_v_a_table_plays_the_preset_its_settings_name() -> None:
    for name, preset in PRESETS.items():
        rules = variants.rules_for({"variant": name})
        assert rules.model_dump() == preset.model_dump()


def test_r_m5_a_setting_left_out_keeps_the_variant_value_and_a_given_one_wins() -> None:
    cabo = variants.rules_for({"variant": "cabo", "turn_seconds": 30})
    assert cabo.target == CABO.target == 50 and cabo.turn_ms == 30_000
    assert variants.rules_for({"variant": "koubo"}).max_players == KOUBO.max_players == 4
    assert variants.rules_for({"variant": "cabo", "target": 80}).target == 80


def test_a_table_opened_before_variants_plays_the_default_game() -> None:
    old = {"target": 100, "turn_seconds": 45, "max_players": 5}
    assert variants.rules_for(old).model_dump() == TAMALOU.model_dump()


def test_r_v_ruling_1_aliases_name_the_same_presets() -> None:
    assert variants.rules_for({"variant": "dune"}).name == "swiss"
    assert variants.rules_for({"variant": "braguet"}).name == "classique"


def test_an_unknown_variant_is_refused_with_a_translated_reason() -> None:
    with pytest.raises(TableError) as refused:
        variants.rules_for({"variant": "poker"})
    assert refused.value.reason == "unknown_variant"
    assert "err.unknown_variant" in catalog("fr")


def test_a_tables_target_scales_the_values_tied_to_it() -> None:
    """R-M5: ``/tamalou new variant:tamoul target:30`` falls back from exactly 30 to 15 (not
    to 50, over its own target) and is won outright at -30; the lobby says so."""
    rules = variants.rules_for({"variant": "tamoul", "target": 30})
    assert (rules.target, rules.exact_target_falls_to, rules.win_at) == (30, 15, -30)
    assert variants.match_text(rules, "en").endswith("; -30 wins outright")
    half = variants.rules_for({"variant": "fontenay", "target": 50})
    assert half.win_at == PRESETS["fontenay_half"].win_at


def test_the_match_length_is_a_target_or_the_rounds_of_a_fixed_match() -> None:
    """The lobby's settings and the table's footer start with it (R-M3, R-X16): koubo's
    match is 10 rounds, not "to 100 points"."""
    assert variants.match_short(KOUBO, "en") == "Match of 10 rounds"
    assert variants.match_short(KOUBO, "fr") == "Partie en 10 manches"
    assert variants.match_short(TAMALOU, "en") == "Match to 100 points"
    assert variants.match_short(PRESETS["cabo"], "fr") == "Partie en 50 points"
    game = forced_game(ROWS, rules=KOUBO)
    embed, _ = tables.table_message(live_table(game), "en", game.now)
    assert embed.footer.text and embed.footer.text.startswith("Koubo · Match of 10 rounds · ")
    assert not KOUBO.uses_target and all(PRESETS[v].uses_target for v in ("swiss", "cabo"))


def test_swiss_says_its_100_rounds_at_most_in_the_lobby_and_its_rules() -> None:
    """R-V6 ruling: an elimination match capped at 100 rounds says both, in both languages."""
    swiss = PRESETS["swiss"]
    assert variants.lobby_value(swiss, "en").endswith(
        "out at 100 points: the last one in wins; at most 100 rounds"
    )
    assert variants.lobby_value(swiss, "fr").endswith(" ; 100 manches au plus")
    assert "after 100 rounds at most" in variants.rules_text("swiss", "en")
    assert "au bout de 100 manches au plus" in variants.rules_text("swiss", "fr")
    assert "at most" not in variants.lobby_value(KOUBO, "en")  # its rounds are the match


def test_settings_the_rules_model_refuses_are_refused() -> None:
    with pytest.raises(ValidationError):
        variants.rules_for({"variant": "dutch", "turn_seconds": 1})


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_rules_variant_says_what_each_variant_changes(lang: str) -> None:
    texts = {v: variants.rules_text(v, lang) for v in variants.VARIANTS}
    assert texts["tamalou"] == catalog(lang)["rules.text"]
    for v, text in texts.items():
        assert len(text) < 2000  # one Discord message
        if v != "tamalou":
            assert variants.display_name(v, lang) in text
            assert text.count("\n") >= 1
    assert len(set(texts.values())) == len(texts)  # each its own


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_rules_variant_names_a_grand_winners_score(lang: str) -> None:
    """R-X16: a variant whose match a low score wins outright says so in ``/tamalou rules``
    (fontenay −50, fontenay_half −25, tamoul −100 by a ruling)."""
    named = {v: r.win_at for v, r in variants.VARIANTS.items() if r.win_at is not None}
    assert {"fontenay", "fontenay_half", "tamoul"} <= set(named)
    for v, win_at in named.items():
        assert f"−{-win_at:g}" in variants.rules_text(v, lang), v


def test_the_lobby_and_the_table_name_the_variant() -> None:
    game = forced_game(ROWS, rules=PRESETS["dutch"])
    table = live_table(game)
    embed, _ = tables.lobby_message(table, "fr", 0)
    assert any(str(f.value).startswith("Dutch — ") for f in embed.fields)
    embed, _ = tables.table_message(table, "fr", game.now)
    assert embed.footer.text and embed.footer.text.startswith("Dutch · ")
    assert "🔒 Dutch annoncé" in embed.footer.text  # the legend names the variant's call
    assert "Tamalou" not in embed.footer.text
    plain = live_table(forced_game(ROWS))
    embed, _ = tables.table_message(plain, "en", plain.game.now if plain.game else 0)
    assert embed.footer.text and not embed.footer.text.startswith("Tamalou ·")
    assert "🔒 Tamalou called" in embed.footer.text


@pytest.mark.parametrize("over", [False, True])
def test_r_v_a_finished_round_of_a_variant_names_the_variant(over: bool) -> None:
    """The table message of a finished round (or match) names the variant and how its match
    ends, as the lobby does (it had no footer: a finished koubo round read as plain Tamalou)."""
    game = forced_game(ROWS, rules=KOUBO)
    apply(game, A.CallTamalou(0, game.now))  # koubo: unchecked, a last round for p1
    game.round.phase = "over"
    game.history.append(
        RoundResult(1, "called", [[None] * 4] * 2, [0.0, 0.0], [1, 2], [0.0, 0.0], 0, 0)
    )
    game.over = over
    embed, _ = tables.table_message(live_table(game), "en", game.now)
    assert embed.footer.text == variants.lobby_value(KOUBO, "en")
    assert embed.footer.text.startswith("Koubo — ") and "10" in embed.footer.text
    plain = forced_game(ROWS)
    plain.round.phase = "over"
    plain.history.append(game.history[-1])
    embed, _ = tables.table_message(live_table(plain), "en", plain.now)
    assert not embed.footer.text  # the default game: no variant to name


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_negative_round_score_reads_with_its_own_sign(lang: str) -> None:
    """R-V3: a right Tamoul scores -20; the round's lines read "→ -20", not "→ +-20"."""
    game = forced_game(ROWS, rules=PRESETS["tamoul"])
    game.round.phase = "over"
    game.history.append(
        RoundResult(1, "called", [[None] * 4] * 2, [4.0, 7.0], [1, 2], [-20.0, 7.0], 0, 0)
    )
    game.cumulative = [-20.0, 7.0]
    embed, _ = tables.table_message(live_table(game), lang, game.now)
    text = embed.description or ""
    assert "→ -20 " in text and "→ +7 " in text and "+-" not in text


def test_every_refusal_reason_the_engine_can_raise_has_both_translations() -> None:
    """The variants' new reasons (docs/variants.md) and those computed by ``_busy``."""
    package = ROOT / "tamalou" / "games" / "tamalou" / "engine"  # the engine, split by role
    engine = "\n".join(p.read_text() for p in sorted(package.glob("*.py")))
    reasons = set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', engine))
    busy = re.search(r"def _busy\(.*?\n\n", engine, re.S)
    assert busy is not None
    reasons |= set(re.findall(r'"([a-z_]+)"', busy.group(0))) - {"holding", "call"}
    documented = (ROOT / "docs" / "variants.md").read_text().split("## New refusal reasons")[1]
    table = set(re.findall(r"^\| `([a-z_]+)` \|", documented, re.M))
    assert len(table) >= 17 and table <= reasons
    for lang in ("en", "fr"):
        missing = sorted(r for r in reasons if f"illegal.{r}" not in catalog(lang))
        assert not missing, (lang, missing)


def test_r_v0_the_peek_names_the_variant_slots_1_and_2() -> None:
    game = forced_game(ROWS, rules=PRESETS["dutch"], play=False)
    table = live_table(game)
    panel = panels.panel(table, 0, "en", game.now)
    labels = [str(getattr(i, "label", "")) for i in panel.view.children]
    assert "Peek at cards 1 and 2" in labels and "cards 1 and 2" in panel.text
    embed, _ = tables.table_message(table, "fr", game.now)
    assert any("vos cartes 1 et 2" in str(f.value) for f in embed.fields)
    plain = forced_game(ROWS, play=False)
    assert "1 and 4" in panels.panel(live_table(plain), 0, "en", plain.now).text


def test_variant_events_are_told_in_words_without_a_hidden_card() -> None:
    """R-X2, R-X4, R-X7, R-X9, R-X13: public events of the variants in words; none names a
    card the event does not show."""
    from tamalou.games.tamalou import events as E

    game = forced_game(ROWS, rules=PRESETS["cabo"])
    table = live_table(game)
    lines = {
        "swap": tables.event_line(table, E.SwappedTwo(0, 0, 2, 1, 3, 0), "en"),
        "give": tables.event_line(table, E.GaveTop(0, 1, 5), "en"),
        "hidden": tables.event_line(table, E.CalledHidden(1, False, True), "en"),
        "contre": tables.event_line(table, E.Contred(0), "fr"),
        "miss": tables.event_line(table, E.DoubleMissed(0, 2, 7, "wrong_rank", 1, None), "en"),
        "fine": tables.event_line(table, E.Fined(0, 2), "en"),
    }
    assert lines["swap"] == "p0 swapped p0's card 2 with p1's card 3."
    assert lines["give"] and "p1" in lines["give"] and "card 5" in lines["give"]
    assert lines["hidden"] == "p1 called Cabo! Cards stay hidden."
    assert lines["contre"] == "p0 contre !"
    assert lines["miss"] and "penalty" not in lines["miss"]  # cabo: points, not a card
    assert lines["fine"] == "p0 pays 2 points for the miss."
    private = E.SwapShown(1, ((1, 2, 7),), 0, to=(1,))
    assert tables.event_line(table, private, "en") is None


def test_elimination_rules_say_the_match_ends_once_every_human_is_out() -> None:
    """R-X16 ruling (docs/rules.md): /tamalou rules variant:swiss and dutch_sec say it, in
    both languages."""
    for variant in ("swiss", "dutch_sec"):
        assert "Once every human is out, the match ends" in variants.rules_text(variant, "en")
        assert "plus aucun humain n'est en lice" in variants.rules_text(variant, "fr")
