"""The one panel grid (bot/ui/grid.py): Discord's 5 rows × 5 buttons, a select alone in its
row, priorities kept, and narrowing that reaches every choice."""

from __future__ import annotations

import itertools
import logging

import discord
import pytest

from bot.ui import grid


def btn(n: int) -> discord.ui.Button[discord.ui.View]:
    return discord.ui.Button(label=str(n), custom_id=f"b{n}")


def sel(n: int) -> discord.ui.Select[discord.ui.View]:
    return discord.ui.Select(custom_id=f"s{n}", options=[discord.SelectOption(label="x")])


def rows_of(view: discord.ui.View) -> dict[int, list[discord.ui.Item[discord.ui.View]]]:
    rows: dict[int, list[discord.ui.Item[discord.ui.View]]] = {}
    for item in view.children:
        assert item.row is not None
        rows.setdefault(item.row, []).append(item)
    return rows


@pytest.mark.parametrize(
    ("buttons", "selects"), list(itertools.product((0, 3, 7, 25, 40), (0, 1, 2, 6)))
)
def test_never_more_than_5_rows_25_buttons_and_a_select_alone(buttons: int, selects: int) -> None:
    entries = [(i, btn(i)) for i in range(buttons)] + [(i * 3, sel(i)) for i in range(selects)]
    view, left = grid.place(entries)
    rows = rows_of(view)
    assert len(rows) <= grid.ROWS and max(rows, default=0) < grid.ROWS
    assert sum(not grid.is_select(c) for c in view.children) <= grid.CELLS
    for items in rows.values():
        if any(grid.is_select(c) for c in items):
            assert len(items) == 1
        assert len(items) <= grid.PER_ROW
    assert len(view.children) + len(left) == buttons + selects  # nothing silently lost
    view.to_components()  # discord.py accepts the layout


def test_priorities_are_kept_the_least_important_is_left_out() -> None:
    entries = [(9, btn(100 + i)) for i in range(30)] + [(0, btn(1)), (1, sel(1))]
    view, left = grid.place(entries)
    ids = [c.custom_id for c in view.children]  # type: ignore[attr-defined]
    assert ids[:2] == ["b1", "s1"]
    assert len(left) == 30 - 15  # row 0: b1 (+4), row 1: the select, rows 2-4: 15 more
    assert [c.custom_id for c in left] == [f"b{100 + i}" for i in range(15, 30)]  # type: ignore[attr-defined]


def test_what_does_not_fit_is_said_once(caplog: pytest.LogCaptureFixture) -> None:
    """A panel past the grid is a move its player cannot reach: the grid says which, in one
    warning line, rather than each game dropping the list it returns."""
    with caplog.at_level(logging.WARNING, logger="bot.ui.grid"):
        grid.place([(0, btn(i)) for i in range(27)])
    assert [r.getMessage() for r in caplog.records] == [
        "2 component(s) did not fit a panel: b25, b26"
    ]
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="bot.ui.grid"):
        grid.place([(0, btn(i)) for i in range(25)])
    assert caplog.records == []


def reach(count: int, room: int) -> list[int]:
    """Every choice reached by walking every group of every step."""
    found: list[int] = []

    def walk(path: tuple[int, ...]) -> None:
        step = grid.narrow(count, room, path)
        assert step is not None
        if step.done:
            assert len(step.choices) <= room
            found.extend(step.choices)
            return
        assert 2 <= len(step.groups) <= room
        for i in range(len(step.groups)):
            walk((*path, i))

    walk(())
    return found


@pytest.mark.parametrize(
    ("count", "room"), [(0, 20), (20, 20), (26, 20), (30, 24), (700, 25), (9, 2)]
)
def test_narrowing_reaches_every_choice_in_order(count: int, room: int) -> None:
    assert reach(count, room) == list(range(count))


def test_a_group_that_does_not_exist_is_none() -> None:
    assert grid.narrow(30, 20, (6,)) is None
    assert grid.narrow(30, 20, (0, 0)) is None  # the group's choices fit: no further step
    step = grid.narrow(30, 20)
    assert step is not None and [len(g) for g in step.groups] == [5] * 6  # a row at a time


def test_narrowed_reads_a_stale_path_as_none_the_groups_again() -> None:
    start = grid.narrow(30, 20)
    assert grid.narrowed(30, 20, (6,)) == (start, ())  # never a guessed group
    at, path = grid.narrowed(30, 20, (1,))
    assert path == (1,) and at.done and list(at.choices) == list(range(5, 10))


def test_a_groups_label_names_its_first_and_last_choice_within_80_characters() -> None:
    assert grid.group_label("Alice — card 1", "Bob — card 7") == "Alice — card 1 … Bob — card 7"
    assert grid.group_label("K♣", "K♣") == "K♣"
    assert len(grid.group_label("x" * 100, "y" * 100)) <= 80
