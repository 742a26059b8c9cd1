"""A database the bot cannot use at start says what is wrong and what to do (issue 10).

No raw driver traceback: a typed :class:`StorageError` whose text names the database, the
problem and the remedy, raised by ``Storage.open()``; ``python -m bot.storage`` prints it
in one line and exits with status 2.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import aiosqlite
import pytest

from bot.storage import StorageError, open_storage
from tests.support.backends import free_port, server_url

ROOT = Path(__file__).resolve().parents[2]


def corrupt(path: Path) -> None:
    path.write_bytes(b"this is no database, just some bytes. " * 200)


async def test_a_corrupt_file_is_named_with_what_to_do(tmp_path: Path) -> None:
    db = tmp_path / "tamalou.sqlite3"
    corrupt(db)
    with pytest.raises(StorageError) as err:
        await open_storage(db).open()
    text = str(err.value)
    assert not isinstance(err.value, sqlite3.Error)
    assert str(db) in text and "corrupt" in text
    assert "Restore it from a backup" in text and "TAMALOU_DB" in text


async def test_a_read_only_file_fails_at_start_not_at_the_first_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite opens a file the process may not write read-only: found at open()."""
    db = tmp_path / "tamalou.sqlite3"
    storage = open_storage(db)
    await storage.open()  # a good database, migrated
    await storage.close()
    real_connect = aiosqlite.connect

    def read_only(path: str, **kwargs: object) -> aiosqlite.Connection:
        # the fault: the file opens read-only, as for a user without write permission
        return real_connect(f"file:{path}?mode=ro", uri=True, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(aiosqlite, "connect", read_only)
    with pytest.raises(StorageError) as err:
        await open_storage(db).open()
    text = str(err.value)
    assert str(db) in text and "read-only" in text and "write access" in text


def test_the_command_prints_one_clear_line_for_a_corrupt_file(tmp_path: Path) -> None:
    db = tmp_path / "bad.sqlite3"
    corrupt(db)
    done = subprocess.run(
        [sys.executable, "-m", "bot.storage", "migrate", str(db)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"error: The database {db} is corrupt")


async def test_an_unreachable_postgresql_is_named_with_what_to_do() -> None:
    url = f"postgresql://tamalou@127.0.0.1:{free_port()}/nothing"
    with pytest.raises(StorageError) as err:
        await open_storage(url, busy_timeout_ms=500).open()
    text = str(err.value)
    assert "Cannot reach PostgreSQL at postgresql://tamalou@127.0.0.1" in text
    assert "TAMALOU_DB" in text


async def test_a_missing_postgresql_database_is_named_with_what_to_do() -> None:
    url = server_url("no_such_database")
    with pytest.raises(StorageError) as err:
        await open_storage(url).open()
    assert "does not exist" in str(err.value) and "createdb" in str(err.value)


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` with a token (no Discord is reachable: it must stop before)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TAMALOU_"))}
    clean.update({"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "not-a-real-token", **env})
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_bot_stops_at_a_corrupt_database_saying_what_to_do(tmp_path: Path) -> None:
    db = tmp_path / "tamalou.sqlite3"
    corrupt(db)
    done = run_bot(tmp_path, TAMALOU_DB=str(db))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"error: The database {db} is corrupt")
    assert "Restore it from a backup" in done.stderr


def test_the_bot_stops_at_a_read_only_database_saying_what_to_do(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "tamalou.sqlite3"
    sqlite3.connect(db).close()
    db.chmod(0o444)
    folder.chmod(0o555)
    try:
        if os.access(db, os.W_OK):
            done = run_bot(tmp_path, TAMALOU_DB=f"file:{db}?mode=ro")  # root writes anyway
        else:
            done = run_bot(tmp_path, TAMALOU_DB=str(db))
    finally:
        folder.chmod(0o755)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "read-only" in done.stderr and "write access" in done.stderr


def test_the_bot_stops_at_an_unreachable_postgresql_saying_what_to_do(tmp_path: Path) -> None:
    url = f"postgresql://tamalou@127.0.0.1:{free_port()}/tamalou"
    done = run_bot(tmp_path, TAMALOU_DB=url, TAMALOU_DB_BUSY_MS="500")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("error: Cannot reach PostgreSQL at postgresql://tamalou@")
    assert "TAMALOU_DB" in done.stderr


def test_the_bot_stops_at_a_wrong_shard_range_saying_how_to_write_it(tmp_path: Path) -> None:
    done = run_bot(tmp_path, TAMALOU_SHARDS="0-3", TAMALOU_SHARD_COUNT="2")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "TAMALOU_SHARD_COUNT=2 numbers the shards 0 to 1" in done.stderr
    assert not (tmp_path / "tamalou.sqlite3").exists()


def test_a_database_that_cannot_be_opened_is_one_line_and_no_traceback(tmp_path: Path) -> None:
    """A folder that does not exist: one line, never aiosqlite's worker thread's traceback
    after it (it answered on a closed event loop, in most runs)."""
    db = tmp_path / "no" / "tamalou.sqlite3"
    for _ in range(3):
        done = run_bot(tmp_path, TAMALOU_DB=str(db))
        assert done.returncode == 2
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr
        assert lines[0].startswith(f"error: The database {db} cannot be opened")
