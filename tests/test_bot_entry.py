"""``python -m bot`` without a token explains how to get one and exits non-zero."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_no_token_prints_how_to_get_one(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TAMALOU_"))}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr
    assert "discord.com/developers/applications" in done.stderr
    assert not (tmp_path / "tamalou.sqlite3").exists()  # nothing is created without a token


def test_the_no_token_message_asks_for_the_permissions_readme_lists() -> None:
    from bot.__main__ import NO_TOKEN

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = re.search(r"permissions\s+\*\*([^*]+)\*\*", readme)
    assert listed is not None
    wanted = [p.strip() for p in listed.group(1).split(",")]
    said = " ".join(NO_TOKEN.split())
    assert all(p in said for p in wanted), wanted
    assert "Attach Files" in wanted
