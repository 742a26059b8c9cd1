"""How fast is the leaderboard of a big season? (docs/seasons.md reports the figures.)

    .venv/bin/python tools/bench_leaderboard.py [--players 10000] [--matches 100000]
        [--db FILE | --db postgresql://…]

Builds a season of ``--players`` players and ``--matches`` matches of 2 to 5 humans in a
fresh database (a temporary SQLite file by default, or the empty database ``--db`` names,
through the real migrations), with ratings from the real OpenSkill updates, then times
:meth:`bot.seasons.Seasons.leaderboard` exactly as the bot calls it (on the bot's open
storage) for every sort, on the first, a middle and the last page, with a viewer who is
not on the page. ``--drop-indexes`` shows the same without the season indexes.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.seasons import MODEL, SORTS, PlayerRecord, Seasons, SeatResult
from bot.storage import SeatRow, Storage, open_storage

GUILD = 1
START = 1_700_000_000_000


async def build(storage: Storage, players: int, matches: int, seed: int) -> Seasons:
    seasons = Seasons(storage, min_matches=3)
    _, season = await seasons.start(GUILD)
    rng = random.Random(seed)
    records = {uid: PlayerRecord(uid, f"player{uid}") for uid in range(1, players + 1)}
    ratings = {uid: MODEL.rating() for uid in records}
    results: list[tuple[object, ...]] = []
    marks: list[tuple[object, ...]] = []
    t0 = time.perf_counter()
    for match_id in range(1, matches + 1):
        lineup = rng.sample(range(1, players + 1), rng.randint(2, 5))
        ranks = [float(r) for r in range(1, len(lineup) + 1)]
        rng.shuffle(ranks)
        rated = MODEL.rate([[ratings[u]] for u in lineup], ranks=ranks)
        ended_at = START + match_id * 60_000
        for seat, (uid, place, team) in enumerate(zip(lineup, ranks, rated, strict=True)):
            rank = int(place)
            ratings[uid] = team[0]
            rounds = rng.randint(2, 8)
            score = float(rng.randint(0, 25 * rounds))
            result = SeatResult(
                seat, uid, f"player{uid}", True, rank, rank == 1, rounds,
                rng.randint(0, rounds), score, float(rng.randint(0, 10)),
                rng.randint(0, 2), rng.randint(0, 1), rng.randint(0, 4), rng.randint(0, 2),
            )  # fmt: skip
            record = records[uid]
            record.mu, record.sigma, record.ordinal = team[0].mu, team[0].sigma, team[0].ordinal()
            record.rated_matches += 1
            record.add(result, ended_at)
            results.append(
                (season.id, match_id, uid, seat, ended_at, rank, int(rank == 1), rounds,
                 result.rounds_won, score, result.calls_right, result.calls_wrong,
                 result.doubles, result.doubles_missed, result.best_round,
                 record.mu, record.sigma, record.ordinal)
            )  # fmt: skip
        marks.append((match_id, season.id, 1, len(lineup), ended_at))
    print(f"simulated {matches} matches with OpenSkill in {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    table = await storage.create_table(GUILD, 1, SeatRow(0, 1, "player1"), {}, START)
    assert table is not None
    async with storage.transaction() as tx:
        await tx.executemany(  # the matches the season rows refer to
            "INSERT INTO matches (id, table_id, guild_id, seed, rules, seats, started_at, "
            "ended_at, status) VALUES (?, ?, ?, '', '{}', '[]', ?, ?, 'finished')",
            [(m[0], table.id, GUILD, m[4], m[4]) for m in marks],
        )
        await tx.executemany(
            "INSERT INTO season_matches (match_id, season_id, rated, humans, recorded_at) "
            "VALUES (?, ?, ?, ?, ?)",
            marks,
        )
        await tx.executemany(
            "INSERT INTO season_results (season_id, match_id, user_id, seat, ended_at, rank, won, "
            "rounds, rounds_won, score_sum, calls_right, calls_wrong, doubles, doubles_missed, "
            "best_round, mu, sigma, ordinal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
            "?, ?, ?, ?)",
            results,
        )
        await tx.executemany(
            "INSERT INTO season_players (season_id, user_id, name, matches, wins, rank_sum, "
            "rounds, rounds_won, score_sum, calls_right, calls_wrong, doubles, doubles_missed, "
            "best_round, rated_matches, mu, sigma, ordinal, win_rate, mean_score, last_match_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(season.id, *r.values()) for r in records.values() if r.matches],
        )
    await storage.execute("ANALYZE")
    print(f"wrote {len(results)} season results in {time.perf_counter() - t0:.1f} s")
    return seasons


async def measure(seasons: Seasons, repeat: int) -> dict[str, list[float]]:
    season = await seasons.current(GUILD)
    assert season is not None
    first = await seasons.leaderboard(season)
    pages = first.pages
    last_on_board = (await seasons.leaderboard(season, page=pages - 1)).lines[-1].player.user_id
    timings: dict[str, list[float]] = {}
    for sort in SORTS:
        for label, page in (("first", 0), ("middle", pages // 2), ("last", pages - 1)):
            runs = []
            for _ in range(repeat):
                t0 = time.perf_counter()
                board = await seasons.leaderboard(season, sort, page, viewer=last_on_board)
                runs.append((time.perf_counter() - t0) * 1000)
                assert len(board.lines) > 0
            timings[f"{sort:8} {label:6}"] = runs
    runs = []
    for uid in range(1, repeat + 1):
        t0 = time.perf_counter()
        await seasons.card(season, uid)
        runs.append((time.perf_counter() - t0) * 1000)
    timings["stats card     "] = runs
    return timings


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--db", default=None, help="an empty database: a SQLite file or a postgresql:// URL"
    )
    parser.add_argument("--drop-indexes", action="store_true")
    args = parser.parse_args()
    folder = tempfile.TemporaryDirectory()
    target = args.db or str(Path(folder.name) / "bench.sqlite3")
    storage = open_storage(target)
    await storage.open()
    print(f"backend: {storage.name}")
    seasons = await build(storage, args.players, args.matches, args.seed)
    if args.drop_indexes:
        for name in ("rating", "wins", "win_rate", "mean_score", "matches"):
            await storage.execute(f"DROP INDEX season_players_{name}")
        await storage.execute("DROP INDEX season_results_player")
        print("season indexes dropped")
    timings = await measure(seasons, args.repeat)
    print(f"\n{args.players} players, {args.matches} matches; ms per call ({args.repeat} calls)")
    print("                 median    p95     max")
    worst = 0.0
    for label, runs in timings.items():
        runs.sort()
        p95 = runs[min(len(runs) - 1, int(len(runs) * 0.95))]
        worst = max(worst, runs[-1])
        print(f"{label}  {statistics.median(runs):6.2f} {p95:6.2f} {runs[-1]:7.2f}")
    print(f"\nslowest call: {worst:.2f} ms")
    await storage.close()
    folder.cleanup()


if __name__ == "__main__":
    asyncio.run(main())
