"""Without PostgreSQL, its tests skip locally (saying how to get it) but fail in CI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ONE_PG_TEST = (
    "tests/storage/test_storage.py::test_guild_settings_merge[postgresql]",
    "tests/storage/test_storage.py::test_guild_settings_merge[sqlite]",
)


def run_without_postgresql(ci: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "TAMALOU_TEST_PG")}
    env["TAMALOU_PG_BIN"] = "/nonexistent/postgresql/bin"
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", *ONE_PG_TEST],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_locally_the_postgresql_tests_skip_saying_how_to_get_it() -> None:
    done = run_without_postgresql(ci=False)
    assert done.returncode == 0, done.stdout
    assert "SKIPPED" in done.stdout and "apt-get install -y postgresql" in done.stdout


def test_in_ci_missing_postgresql_fails() -> None:
    done = run_without_postgresql(ci=True)
    assert done.returncode == 1, done.stdout
    assert "CI must test PostgreSQL too" in done.stdout and "SKIPPED" not in done.stdout
