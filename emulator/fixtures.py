"""Pytest fixtures for the Discord emulator.

Enable them with ``pytest_plugins = ["emulator.fixtures"]`` in ``tests/conftest.py``.

* ``emulator``: a started :class:`~emulator.Emulator` (no bot yet). Options come from
  ``@pytest.mark.emulator(response_deadline=0.5, members=[...], ...)``. At teardown it waits
  for pending interactions, kills the bot, and fails the test (teardown error) for every
  problem not taken with ``emu.take_problems()``.
* ``emulator_factory``: ``await emulator_factory(**kwargs)`` for extra emulators in one test.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from .harness import Emulator, running_emulator


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "emulator(**options): keyword arguments for the `emulator` fixture"
    )


@pytest_asyncio.fixture
async def emulator(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Emulator]:
    marker = request.node.get_closest_marker("emulator")
    options: dict[str, Any] = dict(marker.kwargs) if marker else {}
    options.setdefault("log_dir", tmp_path / "emulator")
    Path(options["log_dir"]).mkdir(parents=True, exist_ok=True)
    async with running_emulator(**options) as emu:
        yield emu


@pytest_asyncio.fixture
async def emulator_factory(
    tmp_path: Path,
) -> AsyncIterator[Callable[..., Awaitable[Emulator]]]:
    async with contextlib.AsyncExitStack() as stack:
        count = 0

        async def make(**options: Any) -> Emulator:
            nonlocal count
            count += 1
            log_dir = tmp_path / f"emulator-{count}"
            log_dir.mkdir(parents=True, exist_ok=True)
            options.setdefault("log_dir", log_dir)
            return await stack.enter_async_context(running_emulator(**options))

        yield make
