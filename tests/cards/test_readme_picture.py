"""docs/img/table.png is drawn by tools/make_readme_picture.py from the bot's own reveal."""

from __future__ import annotations

from pathlib import Path

from bot.ui.cards import read_description
from tools.make_readme_picture import OUT, main


def test_the_readme_picture_is_the_bots_reveal_of_a_scripted_round(tmp_path: Path) -> None:
    out = tmp_path / "table.png"
    assert main(["--out", str(out)]) == 0
    drawn = read_description(out.read_bytes())
    assert drawn is not None and drawn["kind"] == "table"
    assert drawn["rows"][0]["label"] == "1. Alice"  # the right Tamalou (R-A2)
    assert read_description(OUT.read_bytes()) == drawn  # the committed file is up to date
