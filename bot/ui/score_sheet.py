"""A match's score sheet: every round's score of every player, as a text grid in a code
block (an embed field of at most 1,024 characters), shown with the match-end message.

A code block shows names as typed (no markdown is read in it), so a name is only cut to its
column and kept to characters one column wide (a backtick could close the block). When the
rounds do not all fit, the sheet keeps the last ones and its title says so: a swiss match
of 100 rounds shows its last rounds and the totals.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from bot.i18n import t

#: Discord's limit for an embed field's value
FIELD_LIMIT = 1024
#: a column's widest name
NAME_WIDTH = 8
#: the fence around the grid (``` and a newline each side)
FENCE = 8


def plain(name: str, width: int = NAME_WIDTH) -> str:
    """``name`` cut to ``width`` characters that each take one column of a monospaced
    grid: accents kept, a wide or invisible character as ``?``, a backtick as ``'``."""
    if len(name) > width and " (" in name.strip():  # "AI 1 (medium)": "AI 1", not "AI 1 (me"
        name = name.strip().split(" (", 1)[0]
    out = []
    for ch in name:
        if ch == "`":
            ch = "'"
        elif (
            not ch.isprintable()
            or unicodedata.combining(ch)
            or unicodedata.east_asian_width(ch) in ("W", "F")
        ):
            ch = "?"
        out.append(ch)
    return "".join(out).strip()[:width] or "?"


def columns(names: Sequence[str]) -> list[str]:
    """The columns' headers: each name cut to its column; names that would read alike there
    end with their column's number (``alice#1``, ``alice#2``: the order of the ranking)."""
    cells = [plain(n) for n in names]
    for c, cell in enumerate(cells):
        if cells.count(cell) > 1 or any(
            cell == plain(other) for k, other in enumerate(names) if k != c
        ):
            suffix = f"#{c + 1}"
            cells[c] = plain(names[c], NAME_WIDTH - len(suffix)) + suffix
    return cells


def number(value: float | None) -> str:
    return "·" if value is None else f"{value:g}"


def sheet(
    lang: str,
    names: Sequence[str],
    rounds: Sequence[tuple[int, Sequence[float | None]]],
    totals: Sequence[float],
    limit: int = FIELD_LIMIT,
) -> tuple[str, str] | None:
    """``(field name, field value)`` of the score sheet, or ``None`` (no round, or no room).

    ``names``: the columns' plain names (the caller's order: the ranking), ``rounds``: each
    round's number and its score per column (``None``: the seat was out of the match),
    ``totals``: each column's match score. ``limit``: the room the value may take."""
    if not rounds or not names:
        return None
    cells = columns(names)
    first = [
        len(str(rounds[-1][0])) + 1,
        len(t(lang, "sheet.round")),
        len(t(lang, "sheet.total")),
    ]
    label_w = max(first)
    widths = [
        max(
            len(cells[c]),
            len(number(totals[c])),
            *(len(number(scores[c])) for _, scores in rounds),
        )
        for c in range(len(cells))
    ]

    def row(label: str, values: Sequence[str]) -> str:
        body = " ".join(v.rjust(widths[c]) for c, v in enumerate(values))
        return f"{label.ljust(label_w)} {body}".rstrip()

    head = row(t(lang, "sheet.round"), cells)
    rule = "-" * len(head)
    foot = row(t(lang, "sheet.total"), [number(v) for v in totals])
    lines = [row(f"{no}", [number(v) for v in scores]) for no, scores in rounds]
    room = limit - FENCE - len(head) - len(rule) - 2 * len(foot) - 4
    kept: list[str] = []
    for ln in reversed(lines):
        if room - len(ln) - 1 < 0:
            break
        kept.append(ln)
        room -= len(ln) + 1
    if not kept:
        return None
    kept.reverse()
    body = "\n".join([head, rule, *kept, rule, foot])
    if len(kept) == len(lines):
        title = t(lang, "sheet.title")
    else:
        title = t(lang, "sheet.title_last", n=len(kept), total=len(lines))
    return title, f"```\n{body}\n```"
