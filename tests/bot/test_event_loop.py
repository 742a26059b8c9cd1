"""The bot's event loop (issue 16): uvloop by default, asyncio on demand, a clear refusal of
anything else."""

from __future__ import annotations

import asyncio

import pytest

from bot import __main__ as entry
from bot.config import ConfigError, event_loop


def test_the_setting_reads_uvloop_by_default_and_refuses_other_loops() -> None:
    assert event_loop("") == "uvloop"
    assert event_loop(" AsyncIO ") == "asyncio"
    with pytest.raises(ConfigError, match="TAMALOU_EVENT_LOOP='trio' is not an event loop"):
        event_loop("trio")


def test_the_bot_runs_on_the_loop_it_is_given() -> None:
    uvloop = pytest.importorskip("uvloop")

    async def loop_type() -> type:
        return type(asyncio.get_running_loop())

    assert entry.runner("uvloop")(loop_type()) is uvloop.Loop
    assert entry.runner("asyncio")(loop_type()) is not uvloop.Loop
