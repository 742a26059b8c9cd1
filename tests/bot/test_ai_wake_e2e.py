"""End to end, on the bot's DEFAULT timings (AI delay 1.5 s, Kalooki's 3 s call window, the
turn clocks): every AI move of a match's first turns comes within the AI delay plus a second
of the moment its seat could first act (issue 29: Kalooki's AI seats sat out their whole
90 s turn clock at a call window, as nothing but a commit ever woke them).

The moment a seat could act is read off the engine, whatever the game: the match is rebuilt
from the bot's log and, before each AI action, the earliest time since the previous logged
action at which the seat had any legal move.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import tamalou.games
from emulator import Emulator, Message
from tests.support.bot_harness import BotHarness

pytestmark = [pytest.mark.e2e, pytest.mark.one_backend]

AI_DELAY_MS = 1500  # the bot's default (bot/config.py)
SLACK_MS = 1000
STEP_MS = 50

#: game -> (seats, the human's first click on the table message, AI actions to wait for)
GAMES: dict[str, tuple[int, str | None, int]] = {
    "tamalou": (3, "My cards", 4),  # two peeks, then the first AI turn
    "kalooki": (3, None, 4),  # two AI turns: draw and discard each
    "tarot": (4, None, 3),  # three AI bids before the human's
}


def first_seat(module: Any, rules: Any, seats: int, seed: str) -> int:
    """The seat whose turn comes first in the match of ``seed``."""
    game, _ = module.new_game(rules, seats, seed, 0, [False] + [True] * (seats - 1))
    dealt = game.deal if hasattr(game, "deal") else game.round  # tarot's deal, a round
    return int(dealt.current)


def ai_first_seed(game_id: str, seats: int) -> str:
    """A seed whose first turns are the AI seats' (seat 0, the human, moves last)."""
    module = tamalou.games.load(game_id)
    rules = module.PRESETS[module.DEFAULT_PRESET]
    for i in range(500):
        seed = f"wake{i}"
        if first_seat(module, rules, seats, seed) == 1:
            return seed
    raise AssertionError("no seed")


def may_act_at(module: Any, game: Any, seat: int, since: int, at: int) -> int:
    """The earliest time in [since, at] from which ``seat`` has a legal move (every time
    from then to ``at``: scanned back from ``at``)."""
    t = at
    while t - STEP_MS >= since and module.legal_actions(game, seat, t - STEP_MS):
        t -= STEP_MS
    return t


def ai_delays(h: BotHarness, game_id: str) -> list[tuple[str, int, int]]:
    """Each AI action of the match: (kind, when its seat could act, when it acted)."""
    module = tamalou.games.load(game_id)
    m = h.sql("SELECT * FROM matches ORDER BY id DESC LIMIT 1")[0]
    seats = json.loads(m["seats"])
    game, _ = module.new_game(
        module.rules_from_dict(json.loads(m["rules"])),
        len(seats),
        m["seed"],
        m["started_at"],
        [s["ai_level"] is not None for s in seats],
    )
    ai_seats = {i for i, s in enumerate(seats) if s["ai_level"] is not None}
    since = m["started_at"]
    found = []
    for row in h.sql("SELECT * FROM actions WHERE match_id = ? ORDER BY n", m["id"]):
        payload = json.loads(row["payload"])
        seat = payload.get("player")
        if row["user_id"] is None and payload["kind"] != "tick" and seat in ai_seats:
            may = may_act_at(module, game, seat, since, row["at"])
            found.append((payload["kind"], may, row["at"]))
        module.apply(game, module.action_from_dict(payload))
        since = row["at"]
    return found


def start_button(emu: Emulator, game_id: str) -> Message:
    pattern = re.compile(rf"{game_id}:start:")
    for msg in reversed(emu.channel_messages()):
        if msg.components and pattern.search(json.dumps(msg.components)):
            return msg
    raise AssertionError("no lobby message")


def table_message(emu: Emulator, game_id: str) -> Message:
    pattern = re.compile(rf"{game_id}:(draw|hand|cards):")
    for msg in reversed(emu.channel_messages()):
        if msg.components and pattern.search(json.dumps(msg.components)):
            return msg
    raise AssertionError("no table message")


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_ai_seats_act_within_their_delay_on_the_default_settings(
    emulator: Emulator, tmp_path: Path, game_id: str
) -> None:
    seats, first_click, wanted = GAMES[game_id]
    h = BotHarness(emulator, tmp_path)
    await h.start(seeds=[ai_first_seed(game_id, seats)], TAMALOU_AI_DELAY_MS=str(AI_DELAY_MS))
    emu = h.emu
    await emu.slash("alice", f"{game_id} new")
    for _ in range(seats - 1):
        await emu.slash("alice", f"{game_id} addbot", level="easy")
    await emu.click("alice", start_button(emu, game_id), "Start")
    if first_click is not None:
        await emu.click("alice", table_message(emu, game_id), first_click)

    def enough() -> bool:
        return len(ai_delays(h, game_id)) >= wanted

    await emu.wait_for(enough, 60, f"{wanted} AI actions")
    moves = ai_delays(h, game_id)
    late = [(kind, at - may) for kind, may, at in moves if at - may > AI_DELAY_MS + SLACK_MS]
    assert not late, f"AI moves later than {AI_DELAY_MS + SLACK_MS} ms after they could: {late}"
    emu.check()
