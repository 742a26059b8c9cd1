"""A tournament's life over the table service (bot/tournaments/runner.py), no Discord: an
8-member duplicate tarot tournament of 2 tables x 2 rounds played out, its standings
checked against a computation of their own, a restart in the middle of a round."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest

import tamalou.games
from bot.games import rules_for
from bot.storage import Storage, display_state, open_storage
from bot.tables import LiveTable, TableError, TableService
from bot.tournaments.runner import TournamentError, TournamentRunner
from bot.tournaments.store import Tournament, TournamentStore
from tamalou.core.tournament import Format
from tests.bot.test_tables import Clock, Presenter

GUILD, CHANNEL, HOST = 1, 10, 500
MEMBERS = list(range(100, 108))


class Bot:
    """A table service and a tournament runner on one database (a bot process)."""

    def __init__(self, storage: Storage, clock: Clock) -> None:
        self.storage = storage
        self.presenter = Presenter()
        self.service = TableService(
            storage,
            self.presenter,
            rules_for=rules_for,
            load_game=tamalou.games.load,
            reorder_ms=0,
            clock=clock,
            seeds=lambda: "unused",
        )
        self.store = TournamentStore(storage, clock)
        self.shown: list[Tournament] = []

        async def show(t: Tournament) -> None:
            self.shown.append(t)

        self.runner = TournamentRunner(
            self.store,
            self.service,
            lower_wins=lambda game: tamalou.games.load(game).LOWER_SCORE_WINS,
            on_change=show,
        )
        self.service.on_match_finished = self.runner.match_finished
        self.service.on_table_closed = self.runner.table_closed


async def boot(path: Path, clock: Clock) -> Bot:
    storage = open_storage(path)
    await storage.open()
    bot = Bot(storage, clock)
    await bot.service.load()
    await bot.runner.sweep()
    return bot


async def play(bot: Bot, table: LiveTable, clock: Clock, rng: random.Random, moves: int) -> None:
    """Random legal moves by the table's members (and the clock when nobody may move)."""
    module = table.module
    for _ in range(moves):
        if table.status != "playing" or table.game is None:
            return
        clock.now += 5
        options: list[Any] = []
        seat = 0
        for seat in range(len(table.match_seats)):
            options = module.legal_actions(table.game, seat, clock.now)
            if options:
                break
        if options:
            await bot.service.act(table, rng.choice(options), table.match_seats[seat].user_id)
        else:
            due = module.next_deadline(table.game)
            assert due is not None, "nobody may move and no clock runs"
            clock.now = max(clock.now, due)
            await bot.service.tick(table)


def tables_of(bot: Bot, tournament_id: int) -> list[LiveTable]:
    return sorted(
        (t for t in bot.service.tables.values() if t.row.tournament_id == tournament_id),
        key=lambda t: t.id,
    )


async def by_hand(bot: Bot, tournament_id: int) -> dict[int, float]:
    """Duplicate tarot worked out from the logs without the tournament code: for each seeded
    deal, a seat's score minus the mean of that seat's scores over the tables that played
    it (a deal all passed scores 0 at every seat)."""
    totals: dict[int, float] = dict.fromkeys(MEMBERS, 0.0)
    tarot = tamalou.games.load("tarot")
    for round_no in (1, 2):
        per_deal: dict[int, list[tuple[tuple[int | None, ...], list[float]]]] = {}
        for tt in await bot.store.tables(tournament_id, round_no):
            assert tt.table_id is not None
            match = await bot.storage.fetchrow(
                "SELECT id FROM matches WHERE table_id = ?", tt.table_id
            )
            match_row = await bot.storage.get_match(int(match["id"]))  # type: ignore[index]
            assert match_row is not None
            state, events = tarot.new_game(
                tarot.rules_from_dict(match_row.rules), 4, match_row.seed, match_row.started_at
            )
            for a in await bot.storage.actions(match_row.id):
                events.extend(tarot.apply(state, tarot.action_from_dict(a.payload)))
            for e in events:
                kind = type(e).__name__
                if kind == "DealEnded":
                    per_deal.setdefault(e.deal_no, []).append((tt.seats, list(e.scores)))
                elif kind == "DealAnnulled" and e.reason == "all_passed":
                    per_deal.setdefault(e.deal_no, []).append((tt.seats, [0.0] * 4))
        for played in per_deal.values():
            for seat in range(4):
                mean = sum(scores[seat] for _, scores in played) / len(played)
                for seats, scores in played:
                    user = seats[seat]
                    if user is not None:
                        totals[user] += scores[seat] - mean
    return {u: round(v, 6) for u, v in totals.items()}


@pytest.mark.one_backend
async def test_a_duplicate_tarot_tournament_plays_to_its_final_ranking_across_a_restart(
    tmp_path: Path,
) -> None:
    clock = Clock()
    rng = random.Random(7)
    path = tmp_path / "t.sqlite3"
    bot = await boot(path, clock)
    fmt = Format(players=4, rounds=2, duplicate=True, duplicate_scoring="difference")
    settings = {"ai_level": "easy", "table": {"preset": "tarot", "rounds": 1}}
    cup = await bot.store.create(GUILD, CHANNEL, "tarot", "Cup", HOST, fmt, settings, "cup-seed")
    for user in MEMBERS:
        await bot.runner.sign_up(cup.id, user, f"m{user}")
    with pytest.raises(TournamentError) as refused:
        await bot.runner.start(cup.id, MEMBERS[0])
    assert refused.value.reason == "host_only"
    await bot.runner.start(cup.id, HOST)

    first = tables_of(bot, cup.id)
    assert len(first) == 2
    assert first[0].match is not None and first[1].match is not None
    assert first[0].match.seed == first[1].match.seed == "cup-seed:round:1"  # duplicate
    hands = [t.game.deal.dealt for t in first if t.game is not None]
    assert hands[0] == hands[1]  # the same cards at the same seat positions
    assert {s.user_id for t in first for s in t.seats} == set(MEMBERS)
    with pytest.raises(TournamentError):
        await bot.runner.sign_up(cup.id, 999, "late")

    shown = len(bot.shown)
    await play(bot, first[0], clock, rng, 5000)
    assert first[0].status == "finished"
    assert len(bot.shown) > shown  # the message says that table is done
    with pytest.raises(TableError) as no_rematch:  # the tournament seats the next round
        await bot.service.rematch(first[0].id, first[0].seats[0].user_id)
    assert no_rematch.value.reason == "tournament_table"
    await play(bot, first[1], clock, rng, 40)  # the middle of table 2's match
    assert first[1].status == "playing"
    await bot.storage.close()

    bot = await boot(path, clock)  # the restart: the tournament and table 2 carry on
    found = await bot.store.get(cup.id)
    assert found is not None and found.status == "playing"
    assert await bot.store.rounds(cup.id) == [(1, "playing")]
    left = tables_of(bot, cup.id)
    assert [t.id for t in left] == [first[1].id]
    await play(bot, left[0], clock, rng, 5000)
    assert await bot.store.rounds(cup.id) == [(1, "scored"), (2, "playing")]

    second = tables_of(bot, cup.id)
    assert len(second) == 2 and second[0].match is not None
    assert second[0].match.seed == "cup-seed:round:2"
    for table in second:
        await play(bot, table, clock, rng, 5000)
    found = await bot.store.get(cup.id)
    assert found is not None and found.status == "finished"

    expected = await by_hand(bot, cup.id)
    final = {e.user_id: e.score or 0.0 for e in found.entrants}
    assert final == pytest.approx(expected)
    assert sum(final.values()) == pytest.approx(0)  # differences from a mean sum to nought
    ranks = sorted(found.entrants, key=lambda e: e.final_rank or 0)
    assert [e.final_rank for e in ranks] == list(range(1, 9))
    assert all((a.score or 0) >= (b.score or 0) for a, b in itertools.pairwise(ranks))
    # the hooks heard again and a sweep after the end change nothing (exactly once)
    scored = await bot.store.scores(cup.id)
    assert len(scored) == 2
    for table in second:
        assert table.match is not None
        await bot.runner.match_finished(table.match.id)
    await bot.runner.sweep()
    assert await bot.store.scores(cup.id) == scored
    again = await bot.store.get(cup.id)
    assert again is not None
    assert [(e.final_rank, e.score) for e in again.entrants] == [
        (e.final_rank, e.score) for e in found.entrants
    ]
    await bot.storage.close()


@pytest.mark.one_backend
async def test_a_cancelled_tournament_closes_its_tables(tmp_path: Path) -> None:
    clock = Clock()
    bot = await boot(tmp_path / "t.sqlite3", clock)
    fmt = Format(players=4, rounds=1)
    cup = await bot.store.create(
        GUILD, CHANNEL, "tarot", "Cup", HOST, fmt, {"table": {"preset": "tarot"}}, "s"
    )
    for user in MEMBERS[:6]:  # six members: two tables of three and an AI seat each
        await bot.runner.sign_up(cup.id, user, f"m{user}")
    await bot.runner.start(cup.id, HOST)
    tables = tables_of(bot, cup.id)
    assert [sum(1 for s in t.seats if s.ai_level) for t in tables] == [1, 1]
    await bot.runner.cancel(cup.id, HOST)
    assert all(t.status == "cancelled" for t in tables)
    assert bot.presenter.calls.count("closed:tournament_cancelled") == 2
    found = await bot.store.get(cup.id)
    assert found is not None and found.status == "cancelled"
    await bot.storage.close()


@pytest.mark.one_backend
async def test_a_duplicate_tamalou_tournament_scores_the_rank_among_the_same_seat(
    tmp_path: Path,
) -> None:
    """Four members, tables of two, two rounds of two Tamalou rounds each: every table of a
    round is dealt the same rows (R-X16 fixed rounds, R-X17 rotating first player), and a
    member's round score is one point for each other table whose player at the same seat
    scored more that round, a half for a tie (computed here from the logs)."""
    clock = Clock()
    rng = random.Random(3)
    bot = await boot(tmp_path / "t.sqlite3", clock)
    fmt = Format(players=2, rounds=2, duplicate=True, duplicate_scoring="rank")
    settings = {"ai_level": "easy", "table": {"max_players": 2, "match_rounds": 2}}
    cup = await bot.store.create(GUILD, CHANNEL, "tamalou", "Cup", HOST, fmt, settings, "tam")
    for user in MEMBERS[:4]:
        await bot.runner.sign_up(cup.id, user, f"m{user}")
    await bot.runner.start(cup.id, HOST)
    for _ in range(2):
        tables = tables_of(bot, cup.id)
        assert len(tables) == 2
        rows = [t.game.round.seats for t in tables if t.game is not None]
        assert [s.row for s in rows[0]] == [s.row for s in rows[1]]  # the same deal
        for table in tables:
            await play(bot, table, clock, rng, 20_000)
            assert table.status == "finished"
    found = await bot.store.get(cup.id)
    assert found is not None and found.status == "finished"
    tamalou_games = tamalou.games.load("tamalou")
    expected = dict.fromkeys(MEMBERS[:4], 0.0)
    for round_no in (1, 2):
        by_round: dict[int, list[tuple[tuple[int | None, ...], tuple[float, ...]]]] = {}
        for tt in await bot.store.tables(cup.id, round_no):
            assert tt.table_id is not None
            match = await display_state.last_match(bot.storage, tt.table_id)
            assert match is not None
            state, events = tamalou_games.new_game(
                tamalou_games.rules_from_dict(match.rules), 2, match.seed, match.started_at
            )
            for a in await bot.storage.actions(match.id):
                events.extend(tamalou_games.apply(state, tamalou_games.action_from_dict(a.payload)))
            for summary in tamalou_games.round_summaries(events):
                by_round.setdefault(summary.round_no, []).append((tt.seats, summary.scores))
        for played in by_round.values():
            for seat in range(2):
                for seats, scores in played:
                    others = [o[seat] for s, o in played if s is not seats]
                    points = sum(
                        1.0 if scores[seat] < x else 0.5 if scores[seat] == x else 0.0
                        for x in others
                    )
                    user = seats[seat]
                    assert user is not None
                    expected[user] += points
    assert {e.user_id: e.score for e in found.entrants} == pytest.approx(expected)
    assert len(set(expected.values())) > 1, expected  # not every seat tied
    await bot.storage.close()
