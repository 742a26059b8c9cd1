"""How real play shares its clicks out: counted from whole matches of the end-to-end tests.

    .venv/bin/python -m tools.click_shares                 # the matches below, a table each
    .venv/bin/python -m tools.click_shares TEST_ID ...     # other tests (pytest node ids)

Runs the given end-to-end tests (one whole match or round each) with this module as a
pytest plugin: when a test ends, every component click the emulator delivered (buttons and
selects: interaction type 3) is counted by game (the custom id's first part), by origin
(``panel``: the clicked message is an ephemeral, a member's private panel; ``table``: a
public message) and by verb: the shares of real play that issue 21 asks ``tools/bench_bot``'s
click mix to follow (docs/benchmarks-archive.md, "Sixth session: CPU a click", compares them with
the benchmark's).

The tests script their players, so the shares are those of the scripted matches: every
move a player makes, on the message a player makes it on, with the "My cards" the tests
press (about one a member a round, as in play).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: one whole match, round or deal per game, played by humans through the emulator
MATCHES = (
    "tests/test_one_panel_e2e.py::test_one_private_panel_per_member_over_a_whole_round_and_a_restart",
    "tests/test_kalooki_bot_e2e.py::test_k_a_whole_baby_match_with_calls_lays_a_restart_and_no_leak",
    "tests/bot/tarot/test_tarot_e2e.py::test_one_private_panel_per_member_over_a_whole_four_human_deal",
)
OUT = "CLICK_SHARES_OUT"


def clicks_of(emu: Any) -> list[dict[str, str]]:
    """Every component click the emulator delivered: game, verb, origin."""
    out = []
    for inter in emu.interactions.values():
        if inter.type != 3:
            continue
        parts = inter.name.split(":")
        if len(parts) < 3:
            continue
        msg = emu.messages.get(inter.message_id or 0)
        origin = "panel" if msg is not None and msg.ephemeral else "table"
        out.append({"game": parts[0], "verb": parts[1], "origin": origin})
    return out


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    """Before the fixtures go: the test's emulator's clicks, appended to ``$CLICK_SHARES_OUT``."""
    path = os.environ.get(OUT)
    funcargs = getattr(item, "funcargs", {})
    for value in funcargs.values():
        emu = getattr(value, "emu", value)
        if path and hasattr(emu, "interactions") and hasattr(emu, "messages"):
            with open(path, "a") as f:
                f.write(json.dumps({"test": item.nodeid, "clicks": clicks_of(emu)}) + "\n")
            break
    yield


def shares(records: list[dict[str, Any]]) -> list[str]:
    lines = []
    for record in records:
        clicks = record["clicks"]
        by_game: dict[str, list[dict[str, str]]] = {}
        for c in clicks:
            by_game.setdefault(c["game"], []).append(c)
        for game, cs in sorted(by_game.items()):
            n = len(cs)
            origin = Counter(c["origin"] for c in cs)
            verbs = Counter(f"{c['verb']} ({c['origin']})" for c in cs)
            lines.append(
                f"{game}, {record['test'].split('::')[-1]}: {n} clicks, panel "
                f"{origin['panel'] / n:.0%}, table {origin['table'] / n:.0%}"
            )
            lines.append("  " + ", ".join(f"{v} {k / n:.0%} ({k})" for v, k in verbs.most_common()))
    return lines


def main(argv: list[str] | None = None) -> int:
    tests = list(argv if argv is not None else sys.argv[1:]) or list(MATCHES)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "clicks.jsonl"
        env = {**os.environ, OUT: str(out)}
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "tools.click_shares", "-k", "sqlite"]
        code = subprocess.call([*cmd, *tests], env=env)
        records = (
            [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
        )
    print("\n".join(shares(records)))
    return code


if __name__ == "__main__":
    sys.exit(main())
