"""A French reader reads French rank letters on French-suited cards (R, D, V: Roi, Dame,
Valet) wherever the reader's language is known: Tamalou's and Kalooki's text cards, their
buttons and select options, as tarot's cards and every game's rules already read them."""

from __future__ import annotations

import pytest

from bot.games.kalooki import faces as kalooki_faces
from bot.games.kalooki import panel as kalooki_panel
from bot.games.tamalou import table as tables
from bot.ui.cards import local_text
from tamalou.core import cards
from tamalou.games.tamalou.scripted import forced_game
from tamalou.games.tamalou.state import RoundResult
from tests.cards.fakes import as_text
from tests.support.live_tables import live_table

__all__ = ["as_text"]  # a fixture


@pytest.mark.parametrize(
    ("code", "fr", "en"),
    [("Kh", "R♥", "K♥"), ("Qs", "D♠", "Q♠"), ("Jc", "V♣", "J♣"), ("10d", "10♦", "10♦")],
)
def test_the_text_of_a_card_is_in_the_readers_letters(code: str, fr: str, en: str) -> None:
    assert local_text(code, "fr") == fr
    assert local_text(code, "en") == en
    assert local_text(code, None) == en  # a reader not known: the face's own letters


def test_tamalou_a_round_over_reads_r_d_v_in_french_and_k_q_j_in_english(
    as_text: None,
) -> None:
    game = forced_game([["Kh", "Qs", "Jd", "4h"], ["2s", "3s", "4s", "5s"]])
    game.history.append(
        RoundResult(
            round_no=1,
            reason="called",
            hands=[[cards.from_code(c) for c in ("Kh", "Qs", "Jd", "4h")], [None] * 4],
            totals=[24.0, 0.0],
            places=[2, 1],
            scores=[24.0, 0.0],
            caller=None,
            first_player=0,
        )
    )
    game.round.phase = "over"
    table = live_table(game)
    french, _ = tables.table_message(table, "fr", game.now)
    english, _ = tables.table_message(table, "en", game.now)
    assert "R♥ D♠ V♦ 4♥" in (french.description or "")
    assert "K♥ Q♠ J♦ 4♥" in (english.description or "")
    take = tables.take_button(table.id, 1, "Kh", "fr")
    assert take.label == "Prendre R♥"
    reveal = tables.table_picture(table, "fr", game.now)
    assert reveal is not None and reveal.alt is not None
    assert "R♥ D♠ V♦ 4♥" in reveal.alt  # a screen reader reads the reader's letters too
    assert list(reveal.args[0][-1][1])[:3] == ["Kh", "Qs", "Jd"]  # the faces stay as drawn


def test_kalooki_cards_as_words_and_select_options_read_french_letters(as_text: None) -> None:
    king = cards.from_code("Ks")
    assert kalooki_faces.card_word(king, lang="fr") == "R♠"
    assert kalooki_faces.face(king, lang="fr") == "R♠"
    assert kalooki_faces.faces([king, cards.from_code("Qh")], lang="fr") == "R♠ D♥"
    assert kalooki_panel.option(king, lang="fr").label == "R♠"
    assert kalooki_panel.option(king, lang="en").label == "K♠"
