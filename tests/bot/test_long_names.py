"""Members' names at Discord's longest (32 characters) and markdown-heavy (each of
``_ * ~ | > ` \\`` escaped with a backslash where the text is markdown): every message that
carries them stays within Discord's limits, reads them whole, and shows no backslash where
the text is not markdown (a button's label, a select option)."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest
from discord.utils import escape_markdown

from bot.games.tamalou import panel as panels
from bot.storage import SeatRow
from bot.tournaments.commands import tournament_message
from bot.tournaments.store import Entrant, Tournament, TourTable
from bot.ui.threads import summary
from tamalou.core.tournament import Format, standings
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou.engine import apply
from tamalou.games.tamalou.rules import DUTCH
from tamalou.games.tamalou.scripted import forced_game
from tests.support.live_tables import live_table


def long_name(i: int) -> str:
    """32 characters, 26 of them escaped in markdown; the members differ only at the end."""
    name = ("_*~|>`" * 6)[:28] + f"m{i:03d}"
    assert len(name) == 32
    return name


def cup(status: str, entrants: int = 30) -> Tournament:
    found = Tournament(
        7, 1, 10, "tarot", "Cup", 500, status, Format(players=4, rounds=2),
        {"ai_level": "easy", "table": {}}, "s", None, 0, 0,
    )  # fmt: skip
    found.entrants = [Entrant(100 + i, long_name(i), i + 1) for i in range(entrants)]
    return found


def fields(embed: discord.Embed) -> dict[str, str]:
    return {str(f.name): str(f.value) for f in embed.fields}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_sign_up_list_of_30_long_names_fits_its_field_cut_at_a_line(lang: str) -> None:
    """Its field was the only one not cut: past 21-28 such names every edit of the message
    was refused (a field is at most 1,024 characters) and the list froze."""
    found = cup("signup")
    embed, _ = tournament_message(found, [], [], lang)
    (value,) = fields(embed).values()
    assert len(value) <= 1024
    *shown, more = value.splitlines()
    assert shown == [f"{i + 1}. {escape_markdown(long_name(i))}" for i in range(len(shown))]
    assert more == ("… and {n} more" if lang == "en" else "… et {n} de plus").format(
        n=30 - len(shown)
    )
    assert len(json.dumps(embed.to_dict(), ensure_ascii=False)) < 6000


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_standings_and_tables_of_30_long_names_are_cut_at_a_line(lang: str) -> None:
    found = cup("playing")
    ids = [(e.user_id, e.name) for e in found.entrants]
    ranking = standings(ids, [{u: float(i) for i, (u, _) in enumerate(ids)}])
    tables = [
        TourTable(7, 1, n + 1, "s:round:1", tuple(100 + 4 * n + k for k in range(4)), 1,
                  "playing", None)
        for n in range(7)
    ] + [TourTable(7, 1, 8, "s:round:1", (128, 129, None, None), 1, "playing", None)]  # fmt: skip
    embed, _ = tournament_message(found, ranking, tables, lang)
    for value in fields(embed).values():
        assert len(value) <= 1024
        *whole, last = value.splitlines()
        assert last.startswith("…") or len(whole) + 1 == len(value.splitlines())
        names = [escape_markdown(long_name(i)) for i in range(30)]
        for line in whole:  # each line whole: a name in it is never cut
            assert any(name in line for name in names), line
    standings_field = next(v for k, v in fields(embed).items() if "1/2" not in k)
    assert standings_field.splitlines()[-1].startswith("…")


def test_dutch_swap_labels_with_long_names_fit_differ_and_show_no_backslash() -> None:
    """R-X2 (dutch Queen, swap any two) with four such names: the label held two escaped
    names (80 characters reached) and four buttons read the same, with the backslashes
    shown. A label is plain text: names unescaped, shortened to keep both ends."""
    rows = [["Ac", "2c", "3c", "4c"], ["5c", "6c", "7c", "8c"], ["5d", "6d"], ["5h", "6h"]]
    game = forced_game(rows, pile=["Qh"], discard=["9s"], rules=DUTCH)
    apply(game, A.Draw(0, game.now))
    apply(game, A.Throw(0, game.now))
    if game.round.window_until:
        apply(game, A.Tick(game.round.window_until))
    table = live_table(game)
    table.row.seats = [SeatRow(i, 100 + i, long_name(i)) for i in range(4)]
    labels: list[str] = []
    step: tuple[int, ...] | None = None
    for _ in range(6):  # follow the steps down to the swaps themselves
        view = panels.panel(table, 0, "en", game.now, None, step).view
        items: list[Any] = [i for i in view.children if isinstance(i, discord.ui.Button)]
        labels += [str(i.label) for i in items]
        acts = [i for i in items if ":act:" in str(i.custom_id)]
        if acts:
            swaps = [str(i.label) for i in acts]
            break
        nxt = next(str(i.custom_id) for i in items if ":step:" in str(i.custom_id))
        step = tuple(int(p) for p in nxt.split(":")[3].split(".")[1:])
    else:
        raise AssertionError(f"no swap reached: {labels}")
    assert all(len(label) <= 80 and "\\" not in label for label in labels)
    assert len(set(swaps)) == len(swaps), swaps
    assert all(s.count("m00") == 2 for s in swaps), swaps  # both names' ends are read


def test_the_channel_summary_escapes_the_names() -> None:
    """The summary is an embed's markdown: a name's ``_`` or ``*`` made it italic or bold
    (and could break the line); escaped as everywhere else."""
    rows = [["Ac", "2c"], ["5c", "6c"]]
    table = live_table(forced_game(rows, pile=["Qh"], discard=["9s"], rules=DUTCH))
    table.row.seats = [SeatRow(i, 100 + i, long_name(i)) for i in range(2)]
    text = str(summary(table, "en", 555).description)
    assert escape_markdown(long_name(0)) in text and escape_markdown(long_name(1)) in text
