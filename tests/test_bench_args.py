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
