"""The table service wakes AI seats when their legal moves appear with no action committed
(issue 29): a display moment of the game passing (Kalooki's call window closing) wakes them,
on a fake clock and the default AI delay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import tamalou.games
from bot.games import rules_for
from bot.storage import Storage
from bot.tables import LiveTable, TableService
from tests.bot.test_ai_wake_e2e import ai_first_seed
from tests.test_service import T0, Clock, Presenter

AI_DELAY_MS = 1500


async def kalooki_table(tmp_path: Path) -> tuple[TableService, Storage, Clock, LiveTable]:
    storage = Storage(tmp_path / "t.sqlite3")
    await storage.open()
    clock = Clock()
    seed = ai_first_seed("kalooki", 3)
    service = TableService(
        storage,
        Presenter(),
        rules_for=rules_for,
        load_game=tamalou.games.load,
        reorder_ms=0,
        ai_delay_ms=AI_DELAY_MS,
        clock=clock,
        seeds=lambda: seed,
    )
    table = await service.open_table(1, 10, 100, "human", {"preset": "baby"}, "kalooki")
    for _ in range(2):
        await service.add_ai(table, 100, "easy")
    await service.start(table, 100)
    return service, storage, clock, table


async def test_an_ai_seat_draws_once_the_call_window_closes(tmp_path: Path) -> None:
    """K-K2: the current AI seat has no legal draw inside the call window; it draws within
    its delay of the window's end (it waited the whole 90 s turn clock before)."""
    service, storage, clock, table = await kalooki_table(tmp_path)
    game = table.game
    assert game is not None and game.round.current == 1 and 1 in table.ai
    draw_at = game.round.draw_at
    assert draw_at - T0 == game.rules.compiled.call_window_ms > AI_DELAY_MS  # the default
    acted: list[tuple[int, Any]] = []
    act = service.act

    async def recording(t: LiveTable, action: Any, user_id: int | None) -> Any:
        acted.append((clock.now, action))
        return await act(t, action, user_id)

    service.act = recording  # type: ignore[method-assign]
    for _ in range(20):  # the scheduler's wakes, one after the other, on the fake clock
        wake = service.next_wake(table)
        assert wake is not None
        clock.now = max(clock.now, wake)
        await service._wake(table.id)
        if any(a.kind in ("draw", "take_discard") for _, a in acted):
            break
    drawn = [(at, a) for at, a in acted if a.kind in ("draw", "take_discard")]
    assert drawn, "the AI seat never drew"
    at, action = drawn[0]
    assert action.player == 1
    assert draw_at <= at <= draw_at + AI_DELAY_MS
    await storage.close()
