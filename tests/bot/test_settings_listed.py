"""Every setting the bot reads is listed in .env.example (DESIGN: "Running it")."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_setting_read_is_listed_in_the_example() -> None:
    read = set(re.findall(r'"((?:TAMALOU|DISCORD)_[A-Z_]+)"', (ROOT / "bot/config.py").read_text()))
    listed = set(
        re.findall(r"^((?:TAMALOU|DISCORD)_[A-Z_]+)=", (ROOT / ".env.example").read_text(), re.M)
    )
    assert {"TAMALOU_SHARDS", "TAMALOU_SHARD_COUNT", "TAMALOU_DB_BUSY_MS"} <= read
    assert read - listed == set()
