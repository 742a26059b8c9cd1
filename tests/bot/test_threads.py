"""What the channel keeps of a table that plays in a thread (issue 22): the summary."""

from __future__ import annotations

from bot.storage import MatchRow
from bot.tables import MatchSeat
from bot.ui import threads
from tamalou.games.tamalou.scripted import forced_game
from tests.support.live_tables import live_table

ROWS = [["2h", "3h", "4h", "5h"], ["2s", "3s", "4s", "5s"]]


def playing() -> object:
    table = live_table(forced_game(ROWS))
    seats = [MatchSeat(s.user_id, s.name, s.ai_level).to_dict() for s in table.seats]
    table.match = MatchRow(1, table.id, 1, "s", {}, seats, 0, None, "playing")
    return table


def test_the_summary_names_the_players_the_standing_and_links_the_thread() -> None:
    table = playing()
    embed = threads.summary(table, "en", 555)  # type: ignore[arg-type]
    assert embed.title == "Tamalou — table 7"
    text = embed.description or ""
    assert "Players: p0, p1" in text and "Standing: 1. p0 0 · 1. p1 0" in text
    assert "The table plays in <#555>." in text


def test_a_closed_tables_summary_says_why_and_where_it_played() -> None:
    table = playing()
    table.row.status = "cancelled"  # type: ignore[attr-defined]
    embed = threads.summary(table, "fr", 555, "cancelled")  # type: ignore[arg-type]
    text = embed.description or ""
    assert "Joueurs : p0, p1" in text and "La table s'est jouée dans <#555>." in text
    assert threads.summary(table, "en", None).description.count("<#") == 0  # type: ignore[arg-type,union-attr]


def test_a_thread_name_fits_discords_hundred_characters() -> None:
    table = playing()
    assert threads.thread_name(table, "en") == "Tamalou · table 7"  # type: ignore[arg-type]


def test_the_summary_ranks_the_standing_in_the_games_direction() -> None:
    """Best first (Tamalou: the lowest total, R-E3), not in seat order; tarot's highest
    first (T-M3)."""
    table = playing()
    table.game.cumulative = [30.0, 5.0]  # type: ignore[attr-defined]
    text = threads.summary(table, "en", 555).description or ""  # type: ignore[arg-type]
    assert "Standing: 1. p1 5 · 2. p0 30" in text
    assert threads.ranked([10.0, -5.0, 10.0], lower_wins=False) == [(1, 0), (1, 2), (3, 1)]
    assert threads.ranked([10.0, -5.0, 10.0], lower_wins=True) == [(1, 1), (2, 0), (2, 2)]


def test_a_tournament_tables_summary_names_the_tournament_round_and_table() -> None:
    table = playing()
    table.row.tournament_id = 3  # type: ignore[attr-defined]
    part = {"name": "Cup", "round": 1, "rounds": 2, "table": 2}
    table.row.settings = {"tournament": part}  # type: ignore[attr-defined]
    fr = threads.summary(table, "fr", 555).description or ""  # type: ignore[arg-type]
    en = threads.summary(table, "en", 555).description or ""  # type: ignore[arg-type]
    assert fr.startswith("Tournoi **Cup** · ronde 1/2 · table 2\n")
    assert en.startswith("Tournament **Cup** · round 1/2 · table 2\n")
