"""Every setting the bot reads is listed in .env.example (DESIGN: "Running it"), and each
setting's default there is the model's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.config import Config

ROOT = Path(__file__).resolve().parents[2]


def listed() -> dict[str, str]:
    text = (ROOT / ".env.example").read_text()
    return dict(re.findall(r"^((?:TAMALOU|DISCORD)_[A-Z_]+)=(.*)$", text, re.M))


def test_every_setting_read_is_listed_in_the_example() -> None:
    read = set(re.findall(r'"((?:TAMALOU|DISCORD)_[A-Z_]+)"', (ROOT / "bot/config.py").read_text()))
    assert {"TAMALOU_SHARDS", "TAMALOU_SHARD_COUNT", "TAMALOU_DB_BUSY_MS"} <= read
    assert read - set(listed()) == set()
    aliases = {f.validation_alias for f in Config.model_fields.values() if f.validation_alias}
    assert aliases == read


def test_the_example_file_is_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    """``cp .env.example .env`` with a token changes nothing but the token."""
    for name in listed():
        monkeypatch.delenv(name, raising=False)
    example = Config.from_env(env_file=str(ROOT / ".env.example"))
    assert example.replace(token="") == Config()


def test_the_token_is_never_in_the_settings_repr() -> None:
    config = Config(token="secret-token-value")
    assert "secret-token-value" not in repr(config) and "secret-token-value" not in str(config)
