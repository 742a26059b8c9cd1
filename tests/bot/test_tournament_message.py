"""The tournament message and a tournament table's settings (bot/tournaments/commands.py)."""

from __future__ import annotations

import json

import pytest

from bot.games import rules_for
from bot.tournaments.commands import button_id, table_settings, tournament_message
from bot.tournaments.store import Entrant, Tournament, TourTable
from bot.ui.routing import route
from tamalou.core.tournament import Format, standings


def cup(status: str, entrants: int = 3) -> Tournament:
    found = Tournament(
        7, 1, 10, "tarot", "Cup", 500, status, Format(players=4, rounds=2),
        {"ai_level": "easy", "table": {}}, "s", None, 0, 0,
    )  # fmt: skip
    found.entrants = [Entrant(100 + i, f"m{i}", i + 1) for i in range(entrants)]
    return found


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_sign_up_message_lists_the_entrants_with_the_buttons(lang: str) -> None:
    embed, view = tournament_message(cup("signup"), [], [], lang)
    text = json.dumps(embed.to_dict(), ensure_ascii=False)
    assert "Cup" in text and "m0" in text and "m2" in text
    ids = [c.custom_id for c in view.children]  # type: ignore[attr-defined]
    assert ids == [button_id(7, v) for v in ("join", "leave", "start", "cancel")]


def test_the_buttons_are_not_taken_for_a_table_s() -> None:
    assert route(button_id(7, "join")) is None  # on_interaction leaves them to discord.py


def test_the_standings_and_the_round_s_tables_are_shown_with_the_ai_seats_marked() -> None:
    found = cup("playing", 3)
    ranking = standings([(e.user_id, e.name) for e in found.entrants], [{100: 3, 101: -1, 102: -2}])
    tables = [TourTable(7, 1, 1, "s:round:1", (100, None, 101, 102), 1, "playing", None)]
    embed, view = tournament_message(found, ranking, tables, "en")
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Standings"].splitlines()[0] == "**1.** m0 — **+3** (Buchholz 0)"
    assert fields["Round 1/2"] == "Table 1: m0, 🤖 AI, m1, m2 — playing"
    assert [c.custom_id for c in view.children] == [button_id(7, "cancel")]  # type: ignore[attr-defined]


def test_a_tamalou_tournament_table_plays_fixed_rounds_from_rotating_seats() -> None:
    """R-X16 fixed rounds, R-X17 the first player rotates: duplicate tables start each round
    at the same seat (by default the round's winner starts the next, R-M4)."""
    rules = rules_for("tamalou", table_settings("tamalou", 4, 3, 45))
    assert (rules.match_end, rules.max_rounds, rules.first_player) == ("rounds", 3, "rotate")  # type: ignore[attr-defined]
    assert rules.max_players == 4  # type: ignore[attr-defined]
    tarot = rules_for("tarot", table_settings("tarot", 4, 2, None))
    assert (tarot.name, tarot.rounds) == ("tarot", 2)  # type: ignore[attr-defined]
    assert rules_for("tarot", table_settings("tarot", 3, None, None)).name == "tarot3"  # type: ignore[attr-defined]


def test_the_tournament_names_no_game_each_plugin_says_its_own() -> None:
    """What a tournament table of a game is (its settings, how a duplicate round scores) is
    the game's plugin's: no module of bot/tournaments names a game."""
    import ast
    from pathlib import Path

    from bot import games

    root = Path(__file__).parents[2] / "bot" / "tournaments"
    named = [
        (path.name, node.value)
        for path in root.glob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and node.value in games.REGISTRY
    ]
    assert named == []
    assert games.plugin("kalooki").tournament_settings(6, None, 30) == {
        "max_players": 6,
        "turn_seconds": 30,
    }
    assert [games.plugin(g).duplicate_scoring for g in games.REGISTRY] == [
        "rank",
        "rank",
        "difference",
    ]
