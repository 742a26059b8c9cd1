"""A tournament's life: sign-up, rounds of tables, scoring, the final ranking (no Discord).

The runner seats each round (:func:`tamalou.core.tournament.seat_round`), opens its tables
through the table service (:meth:`bot.tables.TableService.open_seated`) with the round's
seeds, and hears from the service when a table's match is finished or a table is closed.
When every table of the round is done the round is scored (once), then the next round is
seated, or the tournament ends with its final ranking. Every step is stored before the next
starts and can be done again safely, so :meth:`TournamentRunner.sweep` at start-up carries
on after a restart wherever it stopped. The Discord side is told through ``on_change``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.storage import MatchRow, SeatRow, display_state
from bot.tables import TableError, TableService
from bot.tables.service import AI_USER_BASE
from bot.tournaments.store import Tournament, TournamentStore, TourTable
from tamalou.core.protocol import GameModule
from tamalou.core.replay import replay
from tamalou.core.tournament import (
    Standing,
    TableResult,
    entrant_scores,
    meetings,
    seat_round,
    standings,
)

log = logging.getLogger(__name__)

Changed = Callable[[Tournament], Awaitable[None]]


class TournamentError(TableError):
    """A refusal the member reads: ``err.<reason>`` in ``locales/tournaments.<lang>.json``."""


def table_result(
    module: GameModule,
    match: MatchRow,
    actions: Sequence[dict[str, Any]],
    table_no: int,
    seats: tuple[int | None, ...],
) -> TableResult:
    """A finished match's result for its tournament, from its replayed log (the truth):
    each deal's scores by seat, keyed by the seeded deal (the game's ``deal_results``)."""
    rules = module.rules_from_dict(match.rules)
    ai = [bool(s.get("ai_level")) for s in match.seats]
    state, events = replay(module, rules, len(ai), match.seed, match.started_at, ai, actions)
    deals = dict(module.deal_results(events))
    totals = tuple(float(x) for x in module.match_result(state)[0])
    return TableResult(table_no, seats, deals, totals)


class TournamentRunner:
    def __init__(
        self,
        store: TournamentStore,
        service: TableService,
        *,
        lower_wins: Callable[[str], bool],
        on_change: Changed | None = None,
    ) -> None:
        self.store = store
        self.service = service
        self.lower_wins = lower_wins
        self.on_change = on_change
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    async def changed(self, tournament_id: int) -> None:
        """The tournament's message drawn again (``on_change``): its state changed."""
        if self.on_change is None:
            return
        found = await self.store.get(tournament_id)
        if found is not None:
            try:
                await self.on_change(found)
            except Exception:
                log.exception("tournament %s: showing it failed", tournament_id)

    async def _get(self, tournament_id: int) -> Tournament:
        found = await self.store.get(tournament_id)
        if found is None:
            raise TournamentError("tournament_gone")
        return found

    # -- sign-up -------------------------------------------------------------------------

    async def sign_up(
        self, tournament_id: int, user_id: int, name: str, *, show: bool = True
    ) -> None:
        """``show`` False: the caller draws the message (:meth:`changed`) once it answered."""
        async with self.lock(tournament_id):
            found = await self._get(tournament_id)
            if found.status != "signup":
                raise TournamentError("tournament_started")
            if found.entrant(user_id) is not None:
                raise TournamentError("already_signed_up")
            await self.store.sign_up(tournament_id, user_id, name)
        if show:
            await self.changed(tournament_id)

    async def leave(self, tournament_id: int, user_id: int, *, show: bool = True) -> None:
        async with self.lock(tournament_id):
            found = await self._get(tournament_id)
            if found.entrant(user_id) is None:
                raise TournamentError("not_signed_up")
            if found.status != "signup":
                raise TournamentError("tournament_started")
            await self.store.leave(tournament_id, user_id)
        if show:
            await self.changed(tournament_id)

    def _host_only(self, found: Tournament, user_id: int, manager: bool) -> None:
        if found.host_id != user_id and not manager:
            raise TournamentError("host_only")

    # -- the host's moves ----------------------------------------------------------------

    async def start(self, tournament_id: int, user_id: int, manager: bool = False) -> None:
        async with self.lock(tournament_id):
            found = await self._get(tournament_id)
            self._host_only(found, user_id, manager)
            if found.status != "signup":
                raise TournamentError("tournament_started")
            if len(found.entrants) < 2:
                raise TournamentError("too_few_entrants", min=2)
            await self._seat(found, 1)
        await self.changed(tournament_id)

    async def cancel(self, tournament_id: int, user_id: int, manager: bool = False) -> None:
        async with self.lock(tournament_id):
            found = await self._get(tournament_id)
            self._host_only(found, user_id, manager)
            if found.status not in ("signup", "playing"):
                raise TournamentError("tournament_over")
            table_ids = await self.store.cancel(tournament_id)
        for table_id in table_ids:  # outside the lock: each close calls table_closed
            live = self.service.tables.get(table_id)
            if live is not None:
                with contextlib.suppress(TableError):  # closed meanwhile
                    await self.service.cancel(live, "tournament_cancelled")
        await self.changed(tournament_id)

    async def replace_by_ai(
        self, tournament_id: int, host_id: int, user_id: int, manager: bool = False
    ) -> None:
        """A member who left: withdrawn (the points won stay theirs), an AI seat in their
        place at the tables still to be seated; their table of the round plays on (their
        seat is played by the clock, as for anyone away)."""
        async with self.lock(tournament_id):
            found = await self._get(tournament_id)
            self._host_only(found, host_id, manager)
            if found.status != "playing":
                raise TournamentError("tournament_not_playing")
            entrant = found.entrant(user_id)
            if entrant is None:
                raise TournamentError("not_an_entrant")
            if entrant.withdrawn:
                raise TournamentError("already_withdrawn")
            await self.store.withdraw(tournament_id, user_id)
        await self.changed(tournament_id)

    # -- rounds ----------------------------------------------------------------------------

    async def standing(self, found: Tournament) -> list[Standing]:
        tables = await self.store.tables(found.id)
        return standings(
            [(e.user_id, e.name) for e in found.entrants],
            await self.store.scores(found.id),
            [t.seats for t in tables if t.status == "finished"],
            [e.user_id for e in found.entrants if e.withdrawn],
        )

    async def _seat(self, found: Tournament, round_no: int) -> None:
        """Seat round ``round_no`` (once) and open its tables (those not open yet)."""
        active = {e.user_id for e in found.active}
        ranked = [s.user_id for s in await self.standing(found) if s.user_id in active]
        if round_no == 1:
            ranked = [e.user_id for e in found.active]  # sign-up order; the seed draws
        met = meetings(t.seats for t in await self.store.tables(found.id))
        plans = seat_round(ranked, found.format, found.seed, round_no, met)
        await self.store.start_round(found.id, round_no, plans)
        await self._open(found, round_no)

    async def _open(self, found: Tournament, round_no: int) -> None:
        names = {e.user_id: e.name for e in found.entrants}
        level = str(found.settings.get("ai_level", "medium"))
        table_settings = dict(found.settings.get("table", {}))
        for tt in await self.store.tables(found.id, round_no):
            if tt.table_id is not None or tt.status != "playing":
                continue
            seats, ai_no = [], 0
            for i, user in enumerate(tt.seats):
                if user is None:
                    uid = AI_USER_BASE + ai_no
                    ai_no += 1
                    seats.append(SeatRow(i, uid, f"AI {ai_no} ({level})", level))
                else:
                    seats.append(SeatRow(i, user, names.get(user, str(user))))
            # what its summary says of it (bot/ui/threads.py), kept with the table's settings
            # so that a restart keeps it: no game's rules read it
            part = {
                "name": found.name,
                "round": round_no,
                "rounds": found.format.rounds,
                "table": tt.table_no,
            }
            live = await self.service.open_seated(
                found.guild_id,
                found.channel_id,
                found.host_id,
                seats,
                {**table_settings, "tournament": part},
                found.game,
                tt.seed,
                tournament_id=found.id,
            )
            await self.store.attach_table(found.id, round_no, tt.table_no, live.id)
            log.info(
                "tournament %s round %s: table %s opened (%s)",
                found.id,
                round_no,
                tt.table_no,
                live.id,
            )

    # -- what the table service tells -----------------------------------------------------

    async def match_finished(self, match_id: int) -> None:
        match = await self.service.storage.get_match(match_id)
        if match is None:
            return
        tt = await self.store.table_of(match.table_id)
        if tt is None:
            return
        await self._table_done(tt, match)

    async def table_closed(self, table_id: int, reason: str) -> None:
        tt = await self.store.table_of(table_id)
        if tt is None or tt.status != "playing":
            return
        async with self.lock(tt.tournament_id):
            if await self.store.finish_table(tt, None):
                log.info("tournament %s: table %s closed (%s)", tt.tournament_id, table_id, reason)
        await self._advance(tt.tournament_id, table_done=True)

    async def _table_done(self, tt: TourTable, match: MatchRow) -> None:
        module = self.service.load_game(match.game)
        actions = [a.payload for a in await self.service.storage.actions(match.id)]
        result = table_result(module, match, actions, tt.table_no, tt.seats)
        async with self.lock(tt.tournament_id):
            await self.store.finish_table(tt, result)
        await self._advance(tt.tournament_id, table_done=True)

    async def _advance(self, tournament_id: int, table_done: bool = False) -> None:
        """Score the round whose tables are all done; seat the next round or finish. The
        message is drawn again when anything changed (``table_done``: a table just did)."""
        changed = table_done
        async with self.lock(tournament_id):
            found = await self.store.get(tournament_id)
            if found is None or found.status != "playing":
                return
            rounds = await self.store.rounds(tournament_id)
            if not rounds:
                return
            round_no, status = rounds[-1]
            if status == "playing":
                tables = await self.store.tables(tournament_id, round_no)
                if any(t.status == "playing" for t in tables):
                    await self._open(found, round_no)  # after a restart: any table unopened
                else:
                    await self._score(found, round_no, tables)
                    status = "scored"
            if status == "scored":
                if round_no < found.format.rounds and len(found.active) >= 2:
                    await self._seat(found, round_no + 1)
                else:
                    ranking = await self.standing(found)
                    await self.store.finish(tournament_id, ranking)
                changed = True
        if changed:
            await self.changed(tournament_id)

    async def _score(self, found: Tournament, round_no: int, tables: list[TourTable]) -> None:
        """The round's scores by entrant, once (a closed table's members score nothing)."""
        results = [t.result for t in tables if t.result is not None]
        scores = entrant_scores(results, found.format.scoring, self.lower_wins(found.game))
        for t in tables:
            for user in t.seats:
                if user is not None:
                    scores.setdefault(user, 0.0)
        await self.store.score_round(found.id, round_no, scores)

    async def sweep(self) -> int:
        """At start-up: every playing tournament carries on where it stopped (a table whose
        match finished or was closed while the bot was down, a round scored but not yet
        followed). Returns how many tournaments were looked at."""
        live = await self.store.live()
        for found in live:
            if found.status != "playing":
                continue
            try:
                for tt in await self.store.tables(found.id):
                    if tt.status != "playing" or tt.table_id is None:
                        continue
                    row = await self.service.storage.get_table(tt.table_id)
                    if row is None or row.status == "cancelled":
                        await self.table_closed(tt.table_id, "restart")
                    elif row.status == "finished":
                        match = await display_state.last_match(self.service.storage, tt.table_id)
                        if match is not None:
                            await self._table_done(tt, match)
                await self._advance(found.id)
            except Exception:
                log.exception("tournament %s: carrying on after the restart failed", found.id)
        return len(live)
