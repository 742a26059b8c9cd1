"""The benchmark's command line (tools/bench_bot.py): ``--quick`` gives small defaults,
but what the command line sets itself stays (it overrode ``--restart-tables 0`` and ran a
restart and the scale runs anyway)."""

from __future__ import annotations

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
