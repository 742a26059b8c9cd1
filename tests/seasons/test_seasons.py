"""Seasons, records, the rating and the leaderboard (bot/seasons/, docs/seasons.md).

Matches are real: played by a seeded random player through the engine and stored through
:class:`bot.storage.Storage`, so the season code replays true action logs. Every test that
takes the ``storage`` fixture runs on SQLite and on PostgreSQL (tests/support/backends.py).
"""

from __future__ import annotations

import asyncio
import csv
import io
import itertools
import random
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot.seasons import (
    PAGE_SIZE,
    Season,
    SeasonError,
    Seasons,
    analyse_match,
    display_rating,
    rate,
    rating_chart,
)
from bot.seasons import store as seasons_store
from bot.storage import MatchRow, RoundRecord, Row, SeatRow, Storage, open_storage
from emulator import CommandNotAvailableError, Emulator
from tamalou.core.drivers import random_playout
from tamalou.games import load
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.codec import action_to_dict
from tamalou.games.tamalou.engine import apply, legal_actions, new_game
from tamalou.games.tamalou.rules import TAMALOU
from tamalou.games.tamalou.state import Game
from tests.support.bot_harness import BotHarness, find_seed

GUILD = 4242
START = 1_700_000_000_000
_channels = itertools.count(1000)

Seat = tuple[int, str, str | None]  # user id, name, AI level (None: a human)


def play(
    seats: list[Seat], seed: int, started_at: int, target: float = 60.0
) -> tuple[list[tuple[int, dict[str, Any]]], list[E.Event]]:
    """A whole match by a seeded random player: the action log and every event."""
    rules = TAMALOU.model_copy(update={"target": target})
    rng = random.Random(seed)
    n = len(seats)
    game, events = new_game(rules, n, str(seed), started_at, [s[2] is not None for s in seats])
    log: list[tuple[int, dict[str, Any]]] = []
    now = started_at
    for _ in range(50_000):
        if game.over:
            break
        now += rng.randint(300, 3000)
        tick = A.Tick(now)
        events += apply(game, tick)
        log.append((now, action_to_dict(tick)))
        if game.over:
            break
        options = [a for s in range(n) for a in legal_actions(game, s, now)]
        if options:
            action = rng.choice(options)
            events += apply(game, action)
            log.append((now, action_to_dict(action)))
    assert game.over
    return log, events


async def store_match(
    storage: Storage,
    seats: list[Seat],
    seed: int,
    guild: int = GUILD,
    target: float = 60.0,
    game: str = "tamalou",
) -> tuple[int, list[E.Event]]:
    """Play a match and store it as the table service would: finished, not yet recorded."""
    started = START + seed * 10_000_000
    rules = TAMALOU.model_copy(update={"target": target})
    uid, name, ai = seats[0]
    table = await storage.create_table(
        guild, next(_channels), SeatRow(0, uid, name, ai), {}, started, game
    )
    assert table is not None
    seat_dicts = [{"user_id": u, "name": nm, "ai_level": lv} for u, nm, lv in seats]
    match_id = await storage.create_match(
        table, str(seed), rules.model_dump(mode="json"), seat_dicts, started
    )
    log, events = play(seats, seed, started, target)
    user_ids = [s[0] for s in seats]
    rounds = [
        (
            RoundRecord(
                e.round_no,
                e.reason,
                e.caller,
                log[-1][0],
                list(e.totals),
                list(e.scores),
                list(e.places),
            ),
            user_ids,
        )
        for e in events
        if isinstance(e, E.RoundEnded)
    ]
    await storage.append_actions(
        match_id,
        0,
        [(at, p, None) for at, p in log],
        rounds,
        finished_at=log[-1][0],
        table_id=table.id,
    )
    return match_id, events


def humans(*ids: int) -> list[Seat]:
    return [(i, f"player{i}", None) for i in ids]


@pytest.fixture
def seasons(storage: Storage) -> Seasons:
    return Seasons(storage, min_matches=3)


async def rows(seasons: Seasons, sql: str, *args: Any) -> list[Row]:
    return await seasons.storage.fetch(sql, *args)


async def add_players(
    seasons: Seasons, season: Season, players: list[dict[str, Any]], game: str = "tamalou"
) -> None:
    """Season records written directly (board tests need many players, not many matches)."""
    async with seasons.storage.transaction() as tx:
        for p in players:
            matches = p.get("matches", 5)
            wins = p.get("wins", 0)
            await tx.execute(
                "INSERT INTO season_players (season_id, game, user_id, name, matches, wins, "
                "rounds, score_sum, mu, sigma, ordinal, win_rate, mean_score) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 25, 8, ?, ?, ?)",
                season.id,
                game,
                p["user_id"],
                f"p{p['user_id']}",
                matches,
                wins,
                matches * 2,
                p.get("mean_score", 10.0) * matches * 2,
                p.get("ordinal", 0.0),
                wins / matches,
                p.get("mean_score", 10.0),
            )


# -- recording ---------------------------------------------------------------------------


async def test_first_finished_match_creates_season_one(storage: Storage, seasons: Seasons) -> None:
    assert await seasons.current(GUILD) is None
    match_id, _ = await store_match(storage, humans(1, 2, 3), seed=1)
    season = await seasons.record_match(match_id)
    assert season is not None and season.number == 1 and season.name is None
    assert season.min_matches == 3
    assert [s.number for s in await seasons.in_guild(GUILD)] == [1]


async def test_record_counts_match_the_replayed_events(storage: Storage, seasons: Seasons) -> None:
    match_id, events = await store_match(storage, humans(1, 2, 3), seed=2)
    season = await seasons.record_match(match_id)
    assert season is not None
    ended = [e for e in events if isinstance(e, E.RoundEnded)]
    final = ended[-1]
    for seat, uid in enumerate((1, 2, 3)):
        card = await seasons.card(season, uid)
        assert card is not None
        p = card.player
        assert p.matches == 1
        assert p.wins == int(seat in final.winners)
        assert p.rank_sum == 1 + sum(c < final.cumulative[seat] for c in final.cumulative)
        assert p.rounds == len(ended)
        assert p.rounds_won == sum(e.places[seat] == 1 for e in ended)
        assert p.score_sum == pytest.approx(sum(e.scores[seat] for e in ended))
        assert p.best_round == min(e.scores[seat] for e in ended)
        mine = [e for e in events if getattr(e, "player", None) == seat]
        assert p.calls_right == sum(isinstance(e, E.Called) and e.right for e in mine)
        assert p.calls_wrong == sum(isinstance(e, E.Called) and not e.right for e in mine)
        assert p.doubles == sum(isinstance(e, E.Doubled) for e in mine)
        assert p.doubles_missed == sum(isinstance(e, E.DoubleMissed) for e in mine)


async def test_some_calls_and_doubles_are_counted(storage: Storage, seasons: Seasons) -> None:
    """The random matches used here do exercise the call and double counters."""
    for seed in range(10, 16):
        match_id, _ = await store_match(storage, humans(1, 2, 3), seed=seed)
        await seasons.record_match(match_id)
    (totals,) = await rows(
        seasons,
        "SELECT SUM(calls_right + calls_wrong), SUM(doubles), SUM(doubles_missed) "
        "FROM season_players",
    )
    assert totals[0] > 0 and totals[1] > 0 and totals[2] > 0


# -- the rating ----------------------------------------------------------------------------


def test_rate_is_the_library_plackett_luce() -> None:
    model = PlackettLuce()
    a, b, c = model.rating(), model.rating(), model.rating()
    expected = model.rate([[a], [b], [c]], ranks=[1, 2, 2])
    got = rate([(25.0, 25 / 3)] * 3, [1, 2, 2])
    for (mu, sigma, ordinal), team in zip(got, expected, strict=True):
        assert mu == pytest.approx(team[0].mu)
        assert sigma == pytest.approx(team[0].sigma)
        assert ordinal == pytest.approx(team[0].ordinal())
    # the library's figures for that outcome (openskill 6, default model)
    assert got[0][0] == pytest.approx(27.869048680749426)
    assert got[1][0] == pytest.approx(23.565475659625285)
    assert got[1][1] == pytest.approx(8.058224222802378)


async def test_ratings_follow_the_library_match_after_match(
    storage: Storage, seasons: Seasons
) -> None:
    model = PlackettLuce()
    expected = {uid: model.rating() for uid in (1, 2, 3, 4)}
    lineups = [(1, 2, 3), (2, 3, 4), (1, 4), (4, 3, 2, 1)]
    season = None
    for seed, lineup in enumerate(lineups, start=20):
        match_id, events = await store_match(storage, humans(*lineup), seed=seed)
        season = await seasons.record_match(match_id)
        final = [e for e in events if isinstance(e, E.RoundEnded)][-1]
        ranks = [1 + sum(c < mine for c in final.cumulative) for mine in final.cumulative]
        new = model.rate([[expected[uid]] for uid in lineup], ranks=ranks)
        for uid, team in zip(lineup, new, strict=True):
            expected[uid] = team[0]
    assert season is not None
    for uid, want in expected.items():
        card = await seasons.card(season, uid)
        assert card is not None
        assert card.player.mu == pytest.approx(want.mu)
        assert card.player.sigma == pytest.approx(want.sigma)
        assert card.player.ordinal == pytest.approx(want.ordinal())
        assert card.ratings[-1] == display_rating(want.ordinal())


async def test_ai_seats_are_not_rated(storage: Storage, seasons: Seasons) -> None:
    seats: list[Seat] = [(1, "ann", None), (2, "AI 1", "easy"), (7, "bob", None)]
    match_id, _ = await store_match(storage, seats, seed=30)
    season = await seasons.record_match(match_id)
    assert season is not None
    listed = await rows(seasons, "SELECT user_id FROM season_players ORDER BY user_id")
    assert [r[0] for r in listed] == [1, 7]
    (marker,) = await rows(seasons, "SELECT rated, humans FROM season_matches")
    assert tuple(marker) == (1, 2)


async def test_a_single_human_match_is_recorded_but_not_rated(
    storage: Storage, seasons: Seasons
) -> None:
    seats: list[Seat] = [(1, "ann", None), (2, "AI 1", "easy"), (3, "AI 2", "medium")]
    match_id, _ = await store_match(storage, seats, seed=31)
    season = await seasons.record_match(match_id)
    assert season is not None
    card = await seasons.card(season, 1)
    assert card is not None
    assert card.player.matches == 1 and card.player.rated_matches == 0
    assert (card.player.mu, card.player.sigma) == (PlackettLuce().mu, PlackettLuce().sigma)
    (marker,) = await rows(seasons, "SELECT rated, humans FROM season_matches")
    assert tuple(marker) == (0, 1)


# -- exactly once ----------------------------------------------------------------------------


async def test_crash_before_commit_records_nothing_and_the_sweep_records_once(
    storage: Storage, seasons: Seasons, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id, _ = await store_match(storage, humans(1, 2), seed=40)

    async def crash(*args: object) -> None:
        raise RuntimeError("the bot died before the commit")

    with monkeypatch.context() as m:
        m.setattr(seasons_store, "_mark_recorded", crash)
        with pytest.raises(RuntimeError):
            await seasons.record_match(match_id)
    # the records written before the crash were rolled back with it
    assert await rows(seasons, "SELECT * FROM season_players") == []
    assert await rows(seasons, "SELECT * FROM season_results") == []
    # restart: a new Seasons on a new connection to the database sweeps the match in, once
    again = open_storage(storage.path)
    await again.open()
    restarted = Seasons(again)
    assert await restarted.sweep() == 1
    assert await restarted.sweep() == 0
    assert await restarted.record_match(match_id) is None
    await again.close()
    matches = await rows(seasons, "SELECT user_id, matches FROM season_players ORDER BY 1")
    assert [tuple(r) for r in matches] == [(1, 1), (2, 1)]


async def test_match_finished_while_the_bot_was_down_is_swept(
    storage: Storage, seasons: Seasons
) -> None:
    """The match was committed finished, the hook never ran: the sweep records it."""
    first, _ = await store_match(storage, humans(1, 2), seed=41)
    second, _ = await store_match(storage, humans(1, 2), seed=42)
    await seasons.record_match(first)
    assert await seasons.sweep() == 1
    recorded = await rows(seasons, "SELECT match_id FROM season_matches ORDER BY 1")
    assert [r[0] for r in recorded] == [first, second]


async def test_concurrent_recordings_of_one_match_count_it_once(
    storage: Storage, seasons: Seasons
) -> None:
    match_id, _ = await store_match(storage, humans(1, 2, 3), seed=43)
    second_process = open_storage(storage.path)  # its own connection, as another bot process
    await second_process.open()
    other = Seasons(second_process)
    results = await asyncio.gather(
        seasons.record_match(match_id), other.record_match(match_id), seasons.sweep()
    )
    await second_process.close()
    assert sum(1 for r in results if r not in (None, 0)) == 1
    counts = await rows(seasons, "SELECT matches FROM season_players")
    assert [r[0] for r in counts] == [1, 1, 1]


async def test_unfinished_matches_are_not_recorded(storage: Storage, seasons: Seasons) -> None:
    table = await storage.create_table(GUILD, next(_channels), SeatRow(0, 1, "a"), {}, START)
    assert table is not None
    match_id = await storage.create_match(
        table, "s", TAMALOU.model_dump(mode="json"), [{"user_id": 1, "name": "a"}], START
    )
    assert await seasons.record_match(match_id) is None
    assert await seasons.sweep() == 0


# -- seasons -------------------------------------------------------------------------------


async def test_ending_a_season_freezes_its_board_and_starts_the_next(
    storage: Storage, seasons: Seasons
) -> None:
    first, _ = await store_match(storage, humans(1, 2), seed=50)
    one = await seasons.record_match(first)
    assert one is not None
    ended, two = await seasons.end(GUILD)
    assert ended.id == one.id and two.number == 2 and two.current
    frozen = await seasons.get(GUILD, 1)
    assert frozen is not None and not frozen.current
    before = await seasons.leaderboard(frozen)
    second, _ = await store_match(storage, humans(1, 3), seed=51)
    recorded_in = await seasons.record_match(second)
    assert recorded_in is not None and recorded_in.id == two.id
    after = await seasons.leaderboard(frozen)
    assert [ln.player for ln in after.lines] == [ln.player for ln in before.lines]
    board_two = await seasons.leaderboard(two)
    assert sorted(ln.player.user_id for ln in board_two.lines) == [1, 3]
    assert all(ln.player.matches == 1 for ln in board_two.lines)  # a fresh rating and record


async def test_season_start_names_the_next_season_and_keeps_the_minimum(
    seasons: Seasons,
) -> None:
    ended, first = await seasons.start(GUILD, "Spring", min_matches=5)
    assert ended is None and first.number == 1 and first.name == "Spring"
    ended, second = await seasons.start(GUILD, "Summer")
    assert ended is not None and ended.id == first.id
    assert second.number == 2 and second.min_matches == 5
    listed = await seasons.in_guild(GUILD)
    assert [(s.number, s.name, s.current) for s in listed] == [
        (1, "Spring", False),
        (2, "Summer", True),
    ]


async def test_season_end_without_a_season_is_refused(seasons: Seasons) -> None:
    with pytest.raises(SeasonError) as exc:
        await seasons.end(GUILD)
    assert exc.value.reason == "no_season"


async def test_seasons_are_per_guild(storage: Storage, seasons: Seasons) -> None:
    a, _ = await store_match(storage, humans(1, 2), seed=52, guild=1)
    b, _ = await store_match(storage, humans(1, 2), seed=53, guild=2)
    sa, sb = await seasons.record_match(a), await seasons.record_match(b)
    assert sa is not None and sb is not None and sa.id != sb.id
    assert sa.number == sb.number == 1


# -- the board -------------------------------------------------------------------------------


async def test_pages_of_ten_cover_every_player_once(seasons: Seasons) -> None:
    _, season = await seasons.start(GUILD)
    await add_players(seasons, season, [{"user_id": i, "ordinal": i * 0.5} for i in range(1, 26)])
    seen: list[int] = []
    for page in range(3):
        board = await seasons.leaderboard(season, page=page)
        assert board.pages == 3 and board.page == page and board.total == 25
        seen += [ln.player.user_id for ln in board.lines]
        assert [ln.position for ln in board.lines] == list(
            range(page * PAGE_SIZE + 1, page * PAGE_SIZE + 1 + len(board.lines))
        )
    assert seen == list(range(25, 0, -1))  # best rating first
    assert (await seasons.leaderboard(season, page=99)).page == 2  # clamped
    assert (await seasons.leaderboard(season, page=-1)).page == 0


async def test_viewer_line_is_shown_when_off_the_page(seasons: Seasons) -> None:
    _, season = await seasons.start(GUILD)
    await add_players(seasons, season, [{"user_id": i, "ordinal": float(i)} for i in range(1, 26)])
    board = await seasons.leaderboard(season, page=0, viewer=3)
    assert board.me is not None and board.me.player.user_id == 3 and board.me.position == 23
    on_page = await seasons.leaderboard(season, page=2, viewer=3)
    assert on_page.me is None and 3 in [ln.player.user_id for ln in on_page.lines]
    stranger = await seasons.leaderboard(season, viewer=999)
    assert stranger.me is None


async def test_players_under_the_minimum_are_listed_but_not_ranked(seasons: Seasons) -> None:
    _, season = await seasons.start(GUILD, min_matches=3)
    await add_players(
        seasons,
        season,
        [
            {"user_id": 1, "ordinal": 30.0, "matches": 2},  # best rating, too few matches
            {"user_id": 2, "ordinal": 5.0, "matches": 3},
            {"user_id": 3, "ordinal": 9.0, "matches": 8},
        ],
    )
    board = await seasons.leaderboard(season, viewer=1)
    assert [(ln.position, ln.player.user_id) for ln in board.lines] == [(1, 3), (2, 2), (None, 1)]
    assert board.ranked == 2 and board.total == 3
    card = await seasons.card(season, 1)
    assert card is not None and card.position is None and card.player.matches == 2


async def test_unranked_players_fill_the_pages_after_the_ranked_ones(seasons: Seasons) -> None:
    _, season = await seasons.start(GUILD, min_matches=3)
    players = [{"user_id": i, "ordinal": float(i), "matches": 5} for i in range(1, 13)]
    players += [{"user_id": 100 + i, "ordinal": 50.0, "matches": 1} for i in range(5)]
    await add_players(seasons, season, players)
    second = await seasons.leaderboard(season, page=1, viewer=104)
    assert [ln.position for ln in second.lines] == [11, 12, None, None, None, None, None]
    assert second.me is None
    first = await seasons.leaderboard(season, page=0, viewer=104)
    assert first.me is not None and first.me.position is None


@pytest.mark.parametrize(
    ("sort", "expected"),
    [("rating", [3, 1, 2]), ("wins", [2, 3, 1]), ("winrate", [1, 2, 3]), ("score", [2, 1, 3])],
)
async def test_board_sorts(seasons: Seasons, sort: str, expected: list[int]) -> None:
    _, season = await seasons.start(GUILD, min_matches=1)
    await add_players(
        seasons,
        season,
        [
            {"user_id": 1, "ordinal": 5.0, "matches": 4, "wins": 4, "mean_score": 8.0},
            {"user_id": 2, "ordinal": 1.0, "matches": 10, "wins": 6, "mean_score": 3.0},
            {"user_id": 3, "ordinal": 9.0, "matches": 20, "wins": 5, "mean_score": 12.0},
        ],
    )
    board = await seasons.leaderboard(season, sort=sort, viewer=expected[-1])
    assert [ln.player.user_id for ln in board.lines] == expected
    assert board.me is None


@pytest.mark.parametrize(
    ("game", "expected"), [("tamalou", [2, 1, 3]), ("kalooki", [2, 1, 3]), ("tarot", [3, 1, 2])]
)
async def test_board_by_score_puts_the_games_best_score_first(
    seasons: Seasons, game: str, expected: list[int]
) -> None:
    """R-E3, K-P3: penalty points, the lowest mean score first; T-M3: tarot counts points
    won, the highest first. The direction is the game module's ``LOWER_SCORE_WINS``; the
    viewer's own place off the page follows it too."""
    _, season = await seasons.start(GUILD, min_matches=1)
    players = [
        {"user_id": 1, "mean_score": 8.0},
        {"user_id": 2, "mean_score": 3.0},
        {"user_id": 3, "mean_score": 12.0},
    ]
    score = {p["user_id"]: p["mean_score"] for p in players}
    between = (score[expected[1]] + score[expected[2]]) / 2  # between the 2nd and the last
    players += [{"user_id": 10 + i, "mean_score": between} for i in range(10)]
    await add_players(seasons, season, players, game=game)
    board = await seasons.leaderboard(season, sort="score", game=game)
    assert [ln.player.user_id for ln in board.lines][:1] == expected[:1]
    ours = [ln.player.user_id for ln in board.lines if ln.player.user_id < 10]
    assert ours == expected[:2]  # the worst of the three is on page 2
    me = await seasons.leaderboard(season, sort="score", game=game, viewer=expected[-1])
    assert me.me is not None and me.me.position == 13
    assert load(game).LOWER_SCORE_WINS is (game != "tarot")


async def test_csv_export_lists_every_player(storage: Storage, seasons: Seasons) -> None:
    for seed, lineup in enumerate([(1, 2, 3), (1, 2), (2, 3)], start=60):
        match_id, _ = await store_match(storage, humans(*lineup), seed=seed)
        season = await seasons.record_match(match_id)
    assert season is not None
    text = await seasons.export_csv(season)
    table = list(csv.DictReader(io.StringIO(text)))
    assert sorted(int(r["user_id"]) for r in table) == [1, 2, 3]
    assert sum(int(r["matches"]) for r in table) == 7
    # 3 matches needed: only player 2 is ranked, listed first; the others have no rank
    assert (table[0]["user_id"], table[0]["rank"]) == ("2", "1")
    assert [r["rank"] for r in table[1:]] == ["", ""]


def test_rating_chart_is_a_png() -> None:
    png = rating_chart([1000, 1060, 1128, 1116], "ann", "match", "rating")
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000


async def test_rounds_fall_back_to_round_scores_when_the_log_does_not_replay(
    storage: Storage,
) -> None:
    match_id, events = await store_match(storage, humans(1, 2, 3), seed=70)
    row = await storage.get_match(match_id)
    assert row is not None
    ended = [e for e in events if isinstance(e, E.RoundEnded)]
    round_rows = [
        (e.round_no, seat, e.scores[seat], e.places[seat]) for e in ended for seat in range(3)
    ]
    results = analyse_match(row, [{"kind": "nonsense"}], round_rows)
    assert [r.rounds for r in results] == [len(ended)] * 3
    assert [r.score_sum for r in results] == [sum(e.scores[s] for e in ended) for s in range(3)]
    assert sum(r.won for r in results) >= 1


class Recording:
    """A game module whose ``apply`` keeps the log the table service would store, and the
    events it returned."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.log: list[dict[str, Any]] = []
        self.events: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.module, name)

    def apply(self, state: Any, action: Any) -> list[Any]:
        events = list(self.module.apply(state, action))  # an illegal action raises: not logged
        self.log.append(self.module.action_to_dict(action))
        self.events += events
        return events


@pytest.mark.parametrize(
    ("game", "preset", "players"), [("kalooki", "baby", 3), ("tarot", "tarot3", 3)]
)
def test_every_games_match_is_replayed_from_its_log(
    game: str, preset: str, players: int, caplog: pytest.LogCaptureFixture
) -> None:
    """Kalooki and tarot matches are read from their own log, as Tamalou's are: rounds,
    final totals and winners through the game protocol, not from ``round_scores`` (K-P3,
    T-M3), and no warning logged."""
    module = Recording(load(game))
    rules = module.PRESETS[preset]
    state, _ = module.new_game(rules, players, "s1", 0, [False] * players)
    random_playout(module, state, players, random.Random(3))
    assert module.match_over(state)
    rounds = module.round_summaries(module.events)
    assert len(rounds) >= 2
    seats = [{"user_id": 100 + i, "name": f"p{i}", "ai_level": None} for i in range(players)]
    row = MatchRow(1, 1, 1, "s1", rules.model_dump(mode="json"), seats, 0, 10, "finished", game)
    with caplog.at_level("WARNING"):
        results = analyse_match(row, module.log, [])  # no round_scores at all
    assert not caplog.records
    totals, winners = module.match_result(state)
    assert winners and [r.won for r in results] == [i in winners for i in range(players)]
    assert [r.rounds for r in results] == [len(rounds)] * players
    assert [r.rounds_won for r in results] == [
        sum(r.places[i] == 1 for r in rounds) for i in range(players)
    ]
    assert [r.score_sum for r in results] == [
        sum(r.scores[i] for r in rounds) for i in range(players)
    ]
    assert [float(t) for t in totals] == pytest.approx([r.score_sum for r in results])


# -- end to end: the real bot through the Discord emulator --------------------------------------


@pytest.mark.e2e
async def test_leaderboard_and_stats_through_discord(emulator: Emulator, tmp_path: Path) -> None:
    """Matches stored before the bot starts are swept into Season 1; the board pages."""
    emu = emulator
    db = await BotHarness(emu, tmp_path).database()  # SQLite or PostgreSQL (tests/conftest.py)
    storage = open_storage(db)
    await storage.open()
    names = ["bob", "carol", "dave", "erin"]
    others: list[Seat] = [(emu.member(n).id, n, None) for n in names]
    others += [(900_000 + i, f"guest{i}", None) for i in range(7)]
    guild = emu.guild.id
    for i in range(9):  # everybody but alice plays 3 or 4 matches: ranked
        await store_match(storage, [others[(4 * i + k) % 11] for k in range(4)], 80 + i, guild)
    alice: Seat = (emu.member("alice").id, "alice", None)
    await store_match(storage, [alice, others[0], (1, "AI 1", "easy")], 95, guild)  # 1 match
    await storage.close()

    env = {"TAMALOU_DB": db, "TAMALOU_GUILD_ID": str(guild)}
    await emu.start_bot("bot", env=env)
    await emu.slash("alice", "tamalou leaderboard")
    board = emu.last_message()
    assert not board.ephemeral and "Season 1" in board.text
    assert "Page 1/2" in board.text and "12 players, 11 ranked" in board.text
    assert board.text.count(" · wins ") == 11  # ten lines and alice's own
    assert "Where alice stands" in board.text and "**–** alice" in board.text
    assert board.button("◀ Previous").disabled and not board.button("Next ▶").disabled

    await emu.click("alice", board, "Next ▶")
    assert "Page 2/2" in board.text and "**11.**" in board.text and "**–** alice" in board.text
    assert "Where alice stands" not in board.text  # she is on this page
    assert board.button("Next ▶").disabled

    await emu.stop_bot()  # the buttons keep working after a restart
    await emu.start_bot("bot", env=env)
    await emu.click("dave", board, "◀ Previous")
    assert "Page 1/2" in board.text and "**1.**" in board.text

    await emu.slash("bob", "tamalou stats")
    card = emu.last_message()
    assert not card.ephemeral and "bob — Tamalou · Season 1" in card.text
    assert [a.filename for a in card.attachments] == ["rating.png"]
    assert card.attachments[0].data.startswith(b"\x89PNG")
    assert card.embed is not None and card.embed["image"]["url"].endswith("rating.png")

    await emu.slash("dave", "tamalou stats", member="alice")
    assert "Not ranked yet: 1 of 3 matches" in emu.last_message().text

    await emu.slash("alice", "cardsadmin season export", game="tamalou")
    export = emu.last_ephemeral("alice")
    assert [a.filename for a in export.attachments] == ["tamalou-season-1.csv"]
    lines = export.attachments[0].data.decode().splitlines()
    assert lines[0].startswith("rank,user_id,name") and len(lines) == 13

    with pytest.raises(CommandNotAvailableError):  # hidden from members
        await emu.slash("dave", "cardsadmin season export", game="tamalou")
    await emu.slash("dave", "tamalou season export")  # moved: it says where, exports nothing
    moved = emu.last_ephemeral("dave")
    assert "`/cardsadmin season export`" in moved.content and not moved.attachments

    await emu.slash("alice", "cardsadmin season end")
    announce = emu.last_message()
    assert not announce.ephemeral
    assert "Season 1** is over" in announce.text and "Season 2** (season 2)" in announce.text
    await emu.slash("alice", "cardsadmin season list", game="tamalou")
    listed = emu.last_ephemeral("alice").text
    assert "1. Season 1** — " in listed and "2. Season 2** — current" in listed
    await emu.slash("erin", "tamalou leaderboard", season=1)
    assert "this board is frozen" in emu.last_message().text
    await emu.slash("erin", "tamalou leaderboard")
    assert "Nobody has finished a match this season yet" in emu.last_message().text


@pytest.mark.e2e
async def test_a_match_played_on_discord_lands_in_the_season(
    emulator: Emulator, tmp_path: Path
) -> None:
    """The live hook: a match ends at a table, the season records it at once."""
    h, emu = BotHarness(emulator, tmp_path), emulator

    def wanted(g: Game) -> bool:
        value = TAMALOU.compiled.value
        low = sum(value[c] for c in g.round.seats[0].row if c is not None)
        return g.round.first_player == 0 and low <= 5

    seed = find_seed(2, wanted)
    await h.start(seeds=[seed])
    await emu.slash("alice", "tamalou new", target=10)
    await emu.click("bob", h.table_message(), "Join")
    await emu.click("alice", h.table_message(), "Start")
    for p in ("alice", "bob"):
        await emu.click(p, h.table_message(), "My cards")
    h.advance(5_100)
    await emu.wait_for(lambda: "to play" in h.table_message().text, 10, "the first turn")
    await emu.click("alice", h.table_message(), "Tamalou!")
    await emu.click("bob", h.table_message(), "Draw")
    await emu.click("bob", emu.last_ephemeral("bob"), "Jeter")
    h.advance(5_100)
    await emu.wait_for(lambda: "match is over" in h.table_message().text, 10, "the match end")
    await emu.wait_for(lambda: h.sql("SELECT * FROM season_matches"), 10, "the season record")
    await emu.slash("alice", "tamalou leaderboard", by="wins")
    board = emu.last_message().text
    assert "Season 1" in board and "Sorted by wins" in board
    assert "**–** alice — **1** · wins 1/1" in board and "**–** bob — **0** · wins 0/1" in board


def test_a_game_whose_highest_total_wins_is_recorded_that_way() -> None:
    """Tarot (T-M3): the highest total wins; the season reads the direction the game module
    declares (``LOWER_SCORE_WINS``; a match of a game without a replay here, from
    ``round_scores``)."""
    seats = [{"user_id": 100 + i, "name": f"p{i}", "ai_level": None} for i in range(3)]
    row = MatchRow(1, 1, 1, "s", {}, seats, 0, 10, "finished", "tarot")
    round_rows = [(1, 0, -60.0, 3), (1, 1, 30.0, 1), (1, 2, 30.0, 1)]
    round_rows += [(2, 0, 80.0, 1), (2, 1, -40.0, 2), (2, 2, -40.0, 2)]
    results = analyse_match(row, [], round_rows)  # totals 20, -10, -10
    assert [r.won for r in results] == [True, False, False]
    assert [r.rank for r in results] == [1, 2, 2]
    assert [r.best_round for r in results] == [80.0, 30.0, 30.0]
