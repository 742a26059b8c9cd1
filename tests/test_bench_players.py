"""The benchmark's simulated players (tools/bench_games.py) play as in real play (issue 21):
the member whose open panel offers a move makes it, a draw from the table's button; "My
cards" only without a live panel (or at the game's measured rate); Kalooki's member to play
opens their panel with the table's Draw."""

from __future__ import annotations

import random
from typing import Any

from emulator import Message, User
from tools.bench_games import KalookiPlayers, TableInfo, TamalouPlayers, TarotPlayers


def message(mid: int, ids: list[str], ephemeral: bool = False, **extra: Any) -> Message:
    row = {"type": 1, "components": [{"type": 2, "style": 1, "custom_id": c} for c in ids]}
    return Message(mid, 1, 1, 9, components=[row], flags=64 if ephemeral else 0, **extra)


USERS = [User(10 + i, f"p{i}") for i in range(3)]
TABLE = TableInfo(7, 1, USERS)
TAMALOU_TABLE = message(1, ["tamalou:draw:7:1", "tamalou:hand:7:1"])


def test_the_member_whose_panel_offers_the_turn_draws_on_the_table_then_plays_on_the_panel() -> (
    None
):
    players = TamalouPlayers()
    players.look = 0.0
    woken = message(2, ["tamalou:draw:7:1"], ephemeral=True)
    idle = message(3, [], ephemeral=True)
    panels: dict[int, Message | None] = {10: idle, 11: woken, 12: idle}
    for seed in range(20):
        click = players.choose(TABLE, TAMALOU_TABLE, panels, random.Random(seed))
        assert click is not None
        assert (click.user.id, click.message.id, click.custom_id) == (11, 1, "tamalou:draw:7:1")
    drawn = message(2, ["tamalou:rep:7:1:0", "tamalou:throw:7:1"], ephemeral=True)
    click = players.choose(TABLE, TAMALOU_TABLE, {**panels, 11: drawn}, random.Random(1))
    assert click is not None
    assert (click.user.id, click.message.id) == (11, 2)  # the move on their own panel
    assert click.custom_id in ("tamalou:rep:7:1:0", "tamalou:throw:7:1")


def test_my_cards_only_without_a_live_panel_or_at_the_measured_rate() -> None:
    players = TamalouPlayers()
    idle = message(3, [], ephemeral=True)
    click = players.choose(TABLE, TAMALOU_TABLE, {10: idle, 11: None, 12: idle}, random.Random(1))
    assert click is not None
    assert (click.user.id, click.kind, click.custom_id) == (11, "my cards", "tamalou:hand:7:1")
    # every member has a panel and none offers a move: nobody clicks (they wait for the bot)
    assert players.choose(TABLE, TAMALOU_TABLE, {10: idle, 12: idle}, random.Random(1)) is None
    # the member to move looks at their cards first at real play's rate (tarot: half)
    tarot = TarotPlayers(3)
    table = message(4, ["tarot:hand:7:1"])
    woken = message(5, ["tarot:play:7:1:3", "tarot:play:7:1:4"], ephemeral=True)
    kinds = [
        c.kind
        for seed in range(400)
        if (c := tarot.choose(TABLE, table, {10: woken}, random.Random(seed))) is not None
    ]
    assert len(kinds) == 400
    assert 0.4 < kinds.count("my cards") / 400 < 0.6
    assert set(kinds) == {"my cards", "play"}


def test_kalooki_member_marked_to_play_opens_their_panel_with_the_table_draw() -> None:
    players = KalookiPlayers()
    table = message(
        6,
        ["kalooki:draw:7:1", "kalooki:hand:7:1"],
        embeds=[{"description": "p0 · 13 cards\n▶ p1 · 13 cards\np2 · 13 cards"}],
    )
    panels: dict[int, Message | None] = {10: None, 11: None, 12: None}
    click = players.choose(TABLE, table, panels, random.Random(1))
    assert click is not None
    assert (click.user.id, click.kind, click.message.id) == (11, "draw", 6)
    # the others have no panel and are not to play: no "My hand" (2 in the e2e match's 188)
    assert players.choose(TABLE, table, {10: None, 12: None}, random.Random(1)) is None


def test_kalooki_member_to_play_whose_panel_offers_nothing_draws_on_the_table_not_my_cards(
    monkeypatch: Any,
) -> None:
    # a panel of the last round, or one still to be woken: once the table has been quiet
    # a while, the member the table marks to play presses its Draw (real play presses
    # "My cards" 1 % of the time; the quiet tables made it 28 %)
    import tools.bench_games as bench_games

    players = KalookiPlayers()
    players.look = 0.0
    table = message(
        6,
        ["kalooki:draw:7:1", "kalooki:hand:7:1"],
        embeds=[{"description": "p0 · 13 cards\n▶ p1 · 13 cards\np2 · 13 cards"}],
    )
    idle = message(3, [], ephemeral=True)
    panels: dict[int, Message | None] = {10: idle, 11: idle, 12: idle}
    now = {"t": 100.0}
    monkeypatch.setattr(bench_games.time, "monotonic", lambda: now["t"])
    assert players.choose(TABLE, table, panels, random.Random(1)) is None  # the bot's turn
    now["t"] += bench_games.QUIET_S["kalooki"] + 1
    click = players.choose(TABLE, table, panels, random.Random(1))
    assert click is not None
    assert (click.user.id, click.kind, click.message.id) == (11, "draw", 6)
