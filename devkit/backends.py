"""Both storage backends for the tests: a SQLite file, or a database on a real PostgreSQL.

The PostgreSQL server is started once per test session (on first use) from the Debian
package's binaries (``initdb``/``pg_ctl`` in ``/usr/lib/postgresql/<ver>/bin``, installed by
``.ci/run``), on a temporary directory and a free localhost port, as the ``postgres`` user
when the tests run as root; it is stopped when the session ends. Each test gets a fresh
database. ``TAMALOU_TEST_PG=postgresql://…`` uses a running server instead.

Without PostgreSQL the tests that need it skip, saying how to get it — except in CI
(``CI=true``), where they fail: CI must test both backends.
"""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import pwd
import shutil
import socket
import sqlite3
import subprocess
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest

from bot.storage import Storage, open_storage

BACKENDS = ("sqlite", "postgresql")
HOW_TO_GET_IT = (
    "PostgreSQL is not installed: the PostgreSQL half of the storage tests needs its server "
    "binaries (initdb, pg_ctl). Install them with `apt-get install -y postgresql` (Debian/"
    "Ubuntu; `.ci/run` does it), or point TAMALOU_PG_BIN at a folder holding them, or set "
    "TAMALOU_TEST_PG=postgresql://user@host:port/db to use a running server."
)


class PostgresMissing(RuntimeError):
    pass


def pg_bin() -> Path:
    """The folder of initdb and pg_ctl."""
    configured = os.environ.get("TAMALOU_PG_BIN")
    if configured:  # named: that folder only
        candidates = [configured]
    else:
        found = sorted(
            glob.glob("/usr/lib/postgresql/*/bin"),
            key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0,
        )
        candidates = list(reversed(found))
        initdb = shutil.which("initdb")
        if initdb:
            candidates.append(str(Path(initdb).resolve().parent))
    for folder in candidates:
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    raise PostgresMissing(HOW_TO_GET_IT)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """A throwaway PostgreSQL cluster: initdb on a temp dir, pg_ctl start, pg_ctl stop."""

    def __init__(self) -> None:
        self.bin = pg_bin()
        self.dir = Path(tempfile.mkdtemp(prefix="tamalou-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.user: str | None = None
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            self.user = "postgres"
            try:
                entry = pwd.getpwnam(self.user)
            except KeyError as exc:
                raise PostgresMissing(
                    f"no 'postgres' user to run the server. {HOW_TO_GET_IT}"
                ) from exc
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
        self.started = False

    def _run(self, *args: str) -> None:
        command = [str(a) for a in args]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")

    def start(self) -> None:
        self._run(
            self.bin / "initdb", "-D", self.data, "-U", "tamalou", "-A", "trust",
            "-E", "UTF8", "--no-sync",
        )  # fmt: skip
        options = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            "-c max_connections=200"
        )
        self._run(
            self.bin / "pg_ctl", "-D", self.data, "-l", self.dir / "server.log",
            "-w", "-t", "60", "-o", options, "start",
        )  # fmt: skip
        self.started = True

    def stop(self) -> None:
        if self.started:
            self.started = False
            try:
                self._run(self.bin / "pg_ctl", "-D", self.data, "-m", "immediate", "stop")
            finally:
                shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://tamalou@127.0.0.1:{self.port}/{database}"


_server: PostgresServer | None = None
_failure: str | None = None
_names = itertools.count(1)


def server_url(database: str = "postgres") -> str:
    """The session's PostgreSQL (started on first call); skip or fail if there is none."""
    global _server, _failure
    external = os.environ.get("TAMALOU_TEST_PG")
    if external:
        base = external.rsplit("/", 1)[0]
        return f"{base}/{database}"
    if _server is None and _failure is None:
        try:
            server = PostgresServer()
            server.start()
            atexit.register(server.stop)
            _server = server
        except (PostgresMissing, RuntimeError, OSError, subprocess.SubprocessError) as exc:
            _failure = str(exc)
    if _server is None:
        message = _failure or HOW_TO_GET_IT
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI must test PostgreSQL too: {message}", pytrace=False)
        pytest.skip(message)
    return _server.url(database)


async def fresh_database() -> str:
    """A new empty database on the session's server; its URL."""
    name = f"t{os.getpid()}_{next(_names)}"
    con = await asyncpg.connect(server_url("postgres"))
    try:
        await con.execute(f"CREATE DATABASE {name}")
    finally:
        await con.close()
    return server_url(name)


async def target_for(backend: str, folder: Path, name: str = "t") -> str:
    if backend == "postgresql":
        return await fresh_database()
    return str(folder / f"{name}.sqlite3")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def db_target(backend: str, tmp_path: Path) -> str:
    """Where a test's database lives: a SQLite path, or a fresh PostgreSQL database's URL."""
    return await target_for(backend, tmp_path)


@pytest.fixture
async def storage(db_target: str) -> AsyncIterator[Storage]:
    store = open_storage(db_target)
    await store.open()
    yield store
    await store.close()


@asynccontextmanager
async def another_writer(target: str) -> AsyncIterator[None]:
    """Another process's writer holding the write lock until the block ends."""
    if target.startswith("postgresql://"):
        con = await asyncpg.connect(target)
        try:
            async with con.transaction():
                await con.execute("LOCK TABLE tables, matches, actions IN EXCLUSIVE MODE")
                yield
        finally:
            await con.close()
    else:
        lite = sqlite3.connect(target, isolation_level=None)
        try:
            lite.execute("BEGIN IMMEDIATE")
            yield
            lite.execute("ROLLBACK")
        finally:
            lite.close()
