"""The benchmark's command line (tools/bench_bot.py): ``--quick`` gives small defaults,
but what the command line sets itself stays (it overrode ``--restart-tables 0`` and ran a
restart and the scale runs anyway)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from tools.bench_bot import parse_args


def test_quick_keeps_what_the_command_line_sets() -> None:
    args = parse_args(["--quick", "--restart-tables", "0", "--scale-tables=0", "--tables", "7"])
    assert (args.restart_tables, args.scale_tables, args.tables) == (0, 0, 7)
    assert (args.clicks, args.trivial) == (1000, 500)  # the rest: quick's


def test_quick_alone_is_small() -> None:
    args = parse_args(["--quick"])
    assert (args.tables, args.restart_tables, args.scale_tables) == (40, 100, 40)
    mix = parse_args(["--quick", "--games", "kalooki,tarot"])
    assert (mix.tables, mix.restart_tables, mix.scale_tables) == (30, 60, 0)


def test_without_quick_the_defaults_are_the_full_run() -> None:
    args = parse_args([])
    assert (args.tables, args.restart_tables, args.scale_tables) == (200, 1000, 100)


def test_each_repeat_runs_in_a_process_of_its_own(monkeypatch) -> None:
    """``--repeat N``: the load generator's heap grew from one run to the next in one process
    (every message version kept, frozen for the load), so later runs offered fewer clicks,
    which raised the bot's CPU a click; each run is now a child process of its own."""
    import tools.bench_bot as bench_bot

    calls: list[tuple[list[str], int]] = []

    async def in_process(args):  # the old way: must not be used for repeats
        raise AssertionError("a repeat ran in the parent's process")

    def child(argv: list[str], index: int) -> dict:
        calls.append((argv, index))
        figures = {"cpu_ms_per_click": 3.0, "trivial_cpu_ms_per_click": 1.0, "p99_ms": 9.0}
        return {"cpu_ratio": 2.0 + index, **figures}

    monkeypatch.setattr(bench_bot, "bench", in_process)
    monkeypatch.setattr(bench_bot, "repeat_run", child)
    monkeypatch.setattr(bench_bot, "summary", lambda args, run: f"ratio {run['cpu_ratio']}")
    argv = ["--repeat", "3", "--tables", "7"]
    assert bench_bot.main(argv) == 0
    assert calls == [(argv, 0), (argv, 1), (argv, 2)]


def test_the_bot_keeps_its_compiled_modules_between_starts_unless_told(tmp_path: Path) -> None:
    """A deployed bot reads its compiled modules at a restart; on a machine that sets
    PYTHONDONTWRITEBYTECODE the benchmark's bot compiled every module at every start (about
    0.5 s of CPU of the restart). ``--no-pyc`` measures that as before."""
    from tools import bench_bot

    emu = SimpleNamespace(guild=SimpleNamespace(id=1))
    old = dict(bench_bot.WORK), dict(bench_bot.PYC)
    try:
        bench_bot.WORK["dir"] = str(tmp_path)
        bench_bot.PYC["on"] = not parse_args([]).no_pyc
        env = bench_bot.bot_env(emu, tmp_path / "t.sqlite3")  # type: ignore[arg-type]
        assert env["PYTHONPYCACHEPREFIX"] == str(tmp_path / "pycache")
        assert env["PYTHONDONTWRITEBYTECODE"] == ""  # empty: bytecode is written
        bench_bot.PYC["on"] = not parse_args(["--no-pyc"]).no_pyc
        env = bench_bot.bot_env(emu, tmp_path / "t.sqlite3")  # type: ignore[arg-type]
        assert "PYTHONPYCACHEPREFIX" not in env and "PYTHONDONTWRITEBYTECODE" not in env
    finally:
        bench_bot.WORK.update(old[0])
        bench_bot.PYC.update(old[1])


def test_the_global_budget_line_counts_every_request_but_the_interaction_endpoints() -> None:
    """Discord exempts the interaction endpoints (callback, token webhooks) from the bot's
    global limit; every other request a click makes is on it, counted exactly by route."""
    from tools.bench_bot import global_bound, global_line

    requests = {
        "POST /interactions/{iid}/{token}/callback": 10,
        "PATCH /webhooks/{app}/{token}/messages/@original": 6,
        "PATCH /channels/{cid}/messages/{mid}": 2,
        "POST /channels/{cid}/messages": 1,
    }
    assert [k for k in requests if global_bound(k)] == [
        "PATCH /channels/{cid}/messages/{mid}",
        "POST /channels/{cid}/messages",
    ]
    assert global_line(requests, 10) == (
        "global-bound requests a click: 0.300 (PATCH /channels/{cid}/messages/{mid} 0.200, "
        "POST /channels/{cid}/messages 0.100)"
    )
