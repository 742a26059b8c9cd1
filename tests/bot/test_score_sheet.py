"""The score sheet at a match's end: every round's score per player (Tamalou, Kalooki), in
a code block that fits Discord's limits however long the match and however odd the names."""

from __future__ import annotations

import discord
import pytest

from bot.games.kalooki import table as kalooki_tables
from bot.games.tamalou import table as tables
from bot.ui import score_sheet
from tamalou.games.kalooki import actions as KA
from tamalou.games.kalooki.rules import BABY, SET, RoundSpec
from tamalou.games.tamalou.scripted import forced_game
from tamalou.games.tamalou.state import Game, RoundResult
from tests.games.kalooki.helpers import AFTER_WINDOW, card, place_melds, play
from tests.games.kalooki.helpers import forced_game as kalooki_game
from tests.support.live_tables import live_table

ROWS = [["2h", "3h", "4h", "5h"], ["2s", "3s", "4s", "5s"], ["2d", "3d", "4d", "5d"]]


def finished_match(scores: list[list[float]]) -> Game:
    """A Tamalou match over after ``scores`` (each round's score per seat)."""
    game = forced_game(ROWS)
    n = game.players
    for no, row in enumerate(scores, start=1):
        game.history.append(
            RoundResult(
                round_no=no,
                reason="called",
                hands=[[None] * 4 for _ in range(n)],
                totals=[0.0] * n,
                places=[1 + sorted(row).index(v) for v in row],
                scores=list(row),
                caller=None,
                first_player=0,
            )
        )
    game.cumulative = [sum(r[s] for r in scores) for s in range(n)]
    game.round.phase = "over"
    game.over = True
    game.winners = [i for i, c in enumerate(game.cumulative) if c == min(game.cumulative)]
    return game


def sheet_field(embed: discord.Embed, title: str) -> str:
    found = [f for f in embed.fields if (f.name or "").startswith(title)]
    assert found, [f.name for f in embed.fields]
    return found[0].value or ""


@pytest.mark.parametrize(
    ("lang", "title", "word"),
    [("en", "Score sheet", "Round"), ("fr", "Feuille de marque", "Manche")],
)
def test_the_match_over_message_shows_every_rounds_score_per_player(
    lang: str, title: str, word: str
) -> None:
    game = finished_match([[5, 12, 0], [-3, 7, 20], [9, 1, 4]])
    embed, _ = tables.table_message(live_table(game), lang, game.now)
    value = sheet_field(embed, title)
    lines = value.strip("`\n").splitlines()
    assert lines[0].split() == [word, "p0", "p1", "p2"]  # the ranking: 11, 20, 24
    assert [ln.split() for ln in lines[2:5]] == [
        ["1", "5", "12", "0"],
        ["2", "-3", "7", "20"],
        ["3", "9", "1", "4"],
    ]
    assert lines[-1].split() == ["Total", "11", "20", "24"]


def test_a_round_over_mid_match_has_no_score_sheet() -> None:
    game = finished_match([[5, 12, 0]])
    game.over = False
    embed, _ = tables.table_message(live_table(game), "en", game.now)
    assert not any((f.name or "").startswith("Score sheet") for f in embed.fields)


def test_a_100_round_match_shows_its_last_rounds_within_discords_limits() -> None:
    game = finished_match([[r % 7, 30 - r % 11, 2 * (r % 5)] for r in range(100)])
    table = live_table(game)
    for i, seat in enumerate(table.seats):  # 32 characters of markdown and a backtick each
        seat.name = ("**_`~|>" * 5)[:31] + str(i)
    embed, _ = tables.table_message(table, "en", game.now)
    assert len(embed) <= 6000
    field = next(f for f in embed.fields if (f.name or "").startswith("Score sheet"))
    value = field.value or ""
    assert len(value) <= 1024
    kept = value.strip("`\n").splitlines()[2:-2]
    assert field.name == f"Score sheet — the last {len(kept)} rounds of 100"
    assert len(kept) >= 20 and kept[-1].split()[0] == "100"
    assert value.count("```") == 2  # a name's backtick cannot close the block


def test_a_name_in_the_grid_is_plain_and_one_column_wide() -> None:
    assert score_sheet.plain("`Zoé` 🎉 名前", 40) == "'Zoé' ? ??"
    assert score_sheet.plain("a" * 32) == "aaaaaaaa"
    assert score_sheet.plain("AI 1 (medium)") == "AI 1"  # its level is in the ranking above
    assert score_sheet.plain("IA 2 (x)") == "IA 2 (x)"  # a name that fits stays whole


def test_kalooki_match_over_shows_the_score_sheet() -> None:
    one_round = BABY.model_copy(update={"rounds": (RoundSpec(cards=6, contract=(3, 3)),)})
    g = kalooki_game([["9h"], ["Kh", "5d"], ["Qh", "5c"]], pile=["9d"], first=0, rules=one_round)
    place_melds(g, [(0, SET, ["9c", "9s", "9h@1"])])
    play(g, KA.Draw(0, AFTER_WINDOW))
    play(g, KA.LayOff(0, card("9d"), 0, "high", AFTER_WINDOW))
    play(g, KA.Discard(0, card("9h"), AFTER_WINDOW))
    assert g.over
    for lang, title in (("en", "Score sheet"), ("fr", "Feuille de marque")):
        embed, _ = kalooki_tables.table_message(live_table(g), lang, g.now)
        lines = sheet_field(embed, title).strip("`\n").splitlines()
        assert lines[0].split()[1:] == ["p0", "p1", "p2"]
        assert lines[2].split() == ["1", "0", "15", "15"]


def test_names_alike_in_their_column_are_told_apart_by_their_column() -> None:
    long = "x" * 32
    assert score_sheet.columns([long, long + "y", "bob", "bob"]) == [
        "xxxxxx#1",
        "xxxxxx#2",
        "bob#3",
        "bob#4",
    ]
    assert score_sheet.columns(["alice", "bob"]) == ["alice", "bob"]
