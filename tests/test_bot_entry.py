"""``python -m bot``'s start-up problems, each one line naming the setting or the cause
(issue 24): no token or a wrong setting exits 2, a refused token exits 2, a network that
is down at start is retried with backoff."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from emulator import Emulator

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
    wanted = [" ".join(p.split()) for p in listed.group(1).split(",")]
    said = " ".join(NO_TOKEN.split())
    assert all(p in said for p in wanted), wanted
    assert "Attach Files" in wanted


def run_bot(
    cwd: Path, *args: str, timeout: float = 60, **settings: str
) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` in ``cwd`` with only ``settings`` of the bot's environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TAMALOU_"))}
    env["PYTHONPATH"] = str(ROOT)
    env.update(settings)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.parametrize(
    ("setting", "value", "said"),
    [
        ("TAMALOU_GUILD_ID", "abc", "a server id"),
        ("TAMALOU_LOG_LEVEL", "verbose", "DEBUG, INFO, WARNING, ERROR"),
        ("TAMALOU_AI_DELAY_MS", "-5", "milliseconds, 0 to 60000"),
        ("TAMALOU_AI_WORKERS", "0", "1 to 64"),
        ("TAMALOU_MIN_MATCHES", "zero", "a number of matches"),
        ("TAMALOU_SYNC_COMMANDS", "sometimes", "auto, 1 (always) or 0 (never)"),
        ("TAMALOU_SHARDS", "0-3", "TAMALOU_SHARD_COUNT"),
        ("TAMALOU_METRICS_PORT", "80", "1024 to 65535, or 0 (off)"),  # as its hint says
    ],
)
def test_a_wrong_setting_is_one_line_naming_it_and_exit_2(
    tmp_path: Path, setting: str, value: str, said: str
) -> None:
    done = run_bot(tmp_path, DISCORD_TOKEN="x", **{setting: value})
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: ") and setting in lines[0] and said in lines[0]
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "tamalou.sqlite3").exists()


def test_a_wrong_setting_in_dot_env_is_named_and_an_empty_one_is_its_default(
    tmp_path: Path,
) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=\nTAMALOU_AI_DELAY_MS=\nTAMALOU_GUILD_ID=\n")
    done = run_bot(tmp_path)
    assert done.returncode == 2 and "No DISCORD_TOKEN is set" in done.stderr  # no other error
    (tmp_path / ".env").write_text("DISCORD_TOKEN=x\nTAMALOU_EDIT_INTERVAL_MS=fast\n")
    done = run_bot(tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: TAMALOU_EDIT_INTERVAL_MS='fast' is not milliseconds, 0 to 60000 (input should "
        "be a valid integer, unable to parse string as an integer) (.env.example explains "
        "every setting)"
    ]
    done = run_bot(tmp_path, TAMALOU_EDIT_INTERVAL_MS="0", TAMALOU_DB=str(tmp_path / "no/x.db"))
    assert "TAMALOU_EDIT_INTERVAL_MS" not in done.stderr  # the environment wins over .env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_network_down_at_start_is_retried_with_backoff_one_line_each(tmp_path: Path) -> None:
    """Nothing listens where Discord should be: the bot says so in one line an attempt and
    tries again later and later (1 s, 2 s, ...), without a traceback, until it is stopped."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TAMALOU_"))}
    env |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "x", "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-m", "emulator.launcher", "--port", str(free_port()), "--"]
    proc = subprocess.Popen([*cmd, "bot"], cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True)
    said: list[str] = []
    try:
        assert proc.stderr is not None
        deadline = time.monotonic() + 60
        while len([s for s in said if "cannot reach Discord" in s]) < 3:
            assert time.monotonic() < deadline, said
            line = proc.stderr.readline()
            assert line, said  # the process did not end
            said.append(line)
        assert proc.poll() is None  # still trying
    finally:
        proc.kill()
        proc.wait()
    retries = [s for s in said if "cannot reach Discord" in s]
    waits = [re.search(r"trying again in (\d+) s", s) for s in retries]
    assert [int(w.group(1)) for w in waits if w] == [1, 2, 4]
    assert "Connect call failed" in retries[0] or "Cannot connect" in retries[0]
    assert not any("Traceback" in s for s in said)


async def test_a_refused_token_is_one_line_and_exit_2(emulator: Emulator, tmp_path: Path) -> None:
    bot = await emulator.start_bot(
        "bot",
        env={"DISCORD_TOKEN": "not-the-token", "TAMALOU_DB": str(tmp_path / "t.sqlite3")},
        wait="none",
        cwd=tmp_path,
    )
    code = await asyncio.wait_for(bot.proc.wait(), 60)
    log = bot.log_path.read_text()
    assert code == 2, log
    from bot.__main__ import TOKEN_REFUSED

    assert TOKEN_REFUSED in log and "Traceback" not in log
    assert emulator.take_problems("rejected")  # the emulator's 401 at login
    emulator.take_problems("bot_exit")


def test_status_without_a_database_says_so_and_creates_none(tmp_path: Path) -> None:
    done = run_bot(tmp_path, "status")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: no database at tamalou.sqlite3 (TAMALOU_DB): the bot never started with "
        "these settings here."
    ]
    assert not (tmp_path / "tamalou.sqlite3").exists()


def test_status_of_a_database_no_bot_wrote_to_is_unhealthy(tmp_path: Path) -> None:
    done = run_bot(tmp_path, "status", TAMALOU_DB=str(tmp_path / "db.sqlite3"))
    assert done.returncode == 2  # no such file either
    import sqlite3

    sqlite3.connect(tmp_path / "db.sqlite3").close()  # an empty database: migrated, no status
    done = run_bot(tmp_path, "status", TAMALOU_DB=str(tmp_path / "db.sqlite3"))
    assert done.returncode == 1, done.stderr
    assert "none has written a status yet" in done.stdout
    assert "live tables: 0" in done.stdout


def test_an_unknown_command_prints_the_usage(tmp_path: Path) -> None:
    done = run_bot(tmp_path, "stauts")
    assert (
        done.returncode == 2 and "usage: python -m bot [status | smoke CHANNEL_ID]" in done.stderr
    )


def test_start_up_runs_with_the_bots_collector_thresholds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25 (restart of 1,000 live tables): the collector's young passes every 700
    objects ran hundreds of times over start-up's imports and rebuilt tables, the full
    ones over all of them. ``python -m bot`` sets the bot's own thresholds before it reads
    the database (``GameBot.setup_hook`` freezes what start-up built, then keeps them)."""
    import gc

    import bot.__main__ as entry
    from bot import GC_THRESHOLDS
    from bot.config import Config
    from bot.storage import StorageError

    seen: list[tuple[int, int, int]] = []

    async def check_database(config: Config) -> None:
        seen.append(gc.get_threshold())
        raise StorageError("stop here")

    monkeypatch.setattr(entry, "check_database", check_database)
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        config = Config(token="x", database=str(tmp_path / "t.sqlite3"))
        assert entry.main(config) == 2
    finally:
        gc.set_threshold(*before)
    assert seen == [GC_THRESHOLDS]


def test_status_says_connecting_while_the_network_is_down(tmp_path: Path) -> None:
    """A bot that retries a network that is down runs: ``python -m bot status`` says it is
    connecting since when, and why the last attempt failed (not "never started here?")."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TAMALOU_"))}
    env |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "x", "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-m", "emulator.launcher", "--port", str(free_port()), "--"]
    proc = subprocess.Popen([*cmd, "bot"], cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        deadline = time.monotonic() + 60
        while "cannot reach Discord" not in proc.stderr.readline():
            assert time.monotonic() < deadline and proc.poll() is None
        done = run_bot(tmp_path, "status")
    finally:
        proc.kill()
        proc.wait()
    assert done.returncode == 1, done.stderr  # not ready: unhealthy
    assert "never started here" not in done.stdout
    line = next(s for s in done.stdout.splitlines() if s.startswith("process"))
    said = r": connecting since \d+ s ago \(\d+ failed attempts?, last: .*(Connect|connect)"
    assert re.search(said, line), line


def test_a_mistyped_setting_is_warned_with_the_nearest_name(tmp_path: Path) -> None:
    """``TAMALOU_THREAD=0`` was ignored in silence (the tables still played in threads): a
    warning names it and the setting it probably meant, from the environment and .env."""
    (tmp_path / ".env").write_text("TAMALOU_PING_AFTR_S=5\n")
    done = run_bot(tmp_path, TAMALOU_THREAD="0", TAMALOU_NOTHING_LIKE_IT="1")
    assert done.returncode == 2 and "No DISCORD_TOKEN is set" in done.stderr
    warned = [s for s in done.stderr.splitlines() if "is not a setting" in s]
    assert len(warned) == 3, done.stderr
    assert "WARNING" in warned[0]
    assert any(
        "TAMALOU_THREAD is not a setting, ignored: did you mean TAMALOU_THREADS?" in s
        for s in warned
    )
    assert any("TAMALOU_PING_AFTR_S" in s and "TAMALOU_PING_AFTER_S?" in s for s in warned)
    assert any(
        s.endswith(
            "TAMALOU_NOTHING_LIKE_IT is not a setting, ignored (.env.example lists every setting)"
        )
        for s in warned
    )
    (tmp_path / ".env").unlink()
    done = run_bot(tmp_path, TAMALOU_THREADS="0", TAMALOU_TEST_SEEDS="a")  # no warning
    assert "is not a setting" not in done.stderr
