"""Session-wide test settings: the emulator's fixtures, and the database backends the
end-to-end tests run on.

Every test of a module that drives the real bot with :class:`tests.support.bot_harness.BotHarness`
(or a harness class built on it) runs once per backend named by ``--e2e-db`` (or ``TAMALOU_E2E_DB``): ``sqlite``,
``postgresql`` or ``both``. Default: ``both`` in CI (``CI=true``), ``sqlite`` elsewhere (the
PostgreSQL runs need the server binaries: tests/support/backends.py says how to get them).
A test marked ``one_backend`` (rules, not storage) runs on the first of them only.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.support.bot_harness import E2E_DB, BotHarness

pytest_plugins = ["emulator.fixtures", "tests.support.shared_bot"]

BACKENDS = ("sqlite", "postgresql")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--e2e-db",
        default=None,
        choices=("sqlite", "postgresql", "both"),
        help="database backend(s) of the end-to-end tests (default: both in CI, else "
        "sqlite; also TAMALOU_E2E_DB)",
    )


def e2e_backends(config: pytest.Config) -> list[str]:
    chosen = config.getoption("--e2e-db") or os.environ.get("TAMALOU_E2E_DB", "").strip()
    if not chosen:
        chosen = "both" if os.environ.get("CI", "").lower() == "true" else "sqlite"
    if chosen not in (*BACKENDS, "both"):
        raise pytest.UsageError(f"TAMALOU_E2E_DB={chosen!r}: use sqlite, postgresql or both")
    return list(BACKENDS) if chosen == "both" else [chosen]


def drives_the_bot(module: object) -> bool:
    """The module uses BotHarness (or a harness built on it) at its top level."""
    return any(
        isinstance(value, type) and issubclass(value, BotHarness) for value in vars(module).values()
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    uses = {"emulator", "shared_bot", "own_emulator"} & set(metafunc.fixturenames)
    if drives_the_bot(metafunc.module) and uses:
        backends = e2e_backends(metafunc.config)
        if metafunc.definition.get_closest_marker("one_backend") and len(backends) > 1:
            backends = backends[:1]  # rules, not storage: the other e2e tests cover both
        # a module's tests run backend after backend: a bot the module shares
        # (tests/support/shared_bot.py) runs on one database at a time
        metafunc.parametrize("e2e_db", backends, indirect=True, scope="module")


@pytest.fixture(autouse=True)
def e2e_db(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """The backend a :class:`BotHarness` made in this test uses (None: not an e2e test)."""
    backend = getattr(request, "param", None)
    if backend is None:
        yield None
        return
    E2E_DB["backend"] = backend
    try:
        yield backend
    finally:
        E2E_DB["backend"] = "sqlite"
