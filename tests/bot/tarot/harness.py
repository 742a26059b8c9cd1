"""Driving tarot tables of the real bot through the emulator (docs/emulator.md).

The oracle is the bot's own SQLite log folded by the engine (``TarotHarness.game``); seeds
are chosen by simulating the deal with the engine and the same AI players the bot seats, so
a test knows who takes before the bot deals (scripted deals for the real bot).
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from typing import Any

from bot.games.tarot.faces import face
from emulator import Emulator, Message
from tamalou.games.tarot import actions as A
from tamalou.games.tarot import events as E
from tamalou.games.tarot.ai import make_player
from tamalou.games.tarot.engine import apply, auto_ecart, legal_actions, new_game
from tamalou.games.tarot.rules import PRESETS, Rules
from tamalou.games.tarot.state import Game
from tamalou.games.tarot.views import view
from tests.support.bot_harness import BotHarness

TABLE_BUTTON = re.compile(r"tarot:(join|hand|next|rematch):")

#: a human's bid by seat (None: pass); the seats not listed are AI players
Bids = dict[int, int]


def _ai_players(rules: Rules, seed: str, ai: dict[int, str]) -> dict[int, Any]:
    return {s: make_player(level, s, rules, f"{seed}:ai:{s}") for s, level in ai.items()}


def simulate_bidding(
    rules: Rules, players: int, seed: str, ai: dict[int, str], bids: Bids
) -> Game | None:
    """The first deal's bidding as the bot will play it: AI seats decide as the bot's AI
    players will (same level, same seed), humans bid as ``bids`` says (else pass). Returns
    the game after the bidding, or None when the deal was annulled."""
    game, events = new_game(rules, players, seed, 0, [s in ai for s in range(players)])
    bots = _ai_players(rules, seed, ai)
    for s, p in bots.items():
        p.observe(E.stream_for(events, s))
    while game.deal.phase == "bid" and game.deal.deal_no == 1:
        cur = game.deal.current
        if cur in bots:
            action = bots[cur].act(view(game, cur), legal_actions(game, cur), game.now)
            assert action is not None
        else:
            wanted = bids.get(cur, 0)
            legal = {a.contract for a in legal_actions(game, cur) if isinstance(a, A.Bid)}
            action = A.Bid(cur, wanted if wanted in legal else 0, game.now)
        events = apply(game, action)
        for s, p in bots.items():
            p.observe(E.stream_for(events, s))
    return game if game.deal.deal_no == 1 and game.deal.taker >= 0 else None


def find_seed(wanted: Callable[[Game], bool], limit: int = 3000, **kw: Any) -> str:
    for i in range(limit):
        seed = f"tarot{i}"
        game = simulate_bidding(seed=seed, **kw)
        if game is not None and wanted(game):
            return seed
    raise AssertionError("no seed gives that deal")


class TarotHarness(BotHarness):
    def table_message(self) -> Message:
        for msg in reversed(self.public_messages()):  # the channel and its threads
            if msg.components and TABLE_BUTTON.search(json.dumps(msg.components)):
                return msg
        raise AssertionError("no tarot table message in the channel")

    async def shows(self, text: str, timeout: float = 10.0) -> Message:
        """The table message once it shows ``text`` (the bot edits it after each commit)."""

        def found() -> bool:
            try:
                return text in self.table_message().text
            except AssertionError:  # between two deals: the table moves to a new message
                return False

        await self.emu.wait_for(found, timeout, f"the table to show {text!r}")
        return self.table_message()

    def game(self) -> Game:  # type: ignore[override]
        rows = self.newest_match()
        assert rows, "no match in the database"
        game, _ = self.replayed(rows[0])
        return game  # type: ignore[no-any-return]

    # -- acting ---------------------------------------------------------------------

    def _hand_button(self) -> tuple[Message, str] | None:
        for msg in reversed(self.emu.channel_messages()):
            for row in msg.components:
                for c in row.get("components", []):
                    if ":hand:" in str(c.get("custom_id", "")):
                        return msg, str(c["custom_id"])
        return None

    async def open_panel(self, user: str) -> Message:
        """``user`` presses "My hand" on the table message: their panel of the deal, edited in
        place when it is open (one panel per member per deal), else a new ephemeral. Between
        two deals the table moves to a new message: wait for it."""
        await self.emu.wait_for(lambda: self._hand_button() is not None, 10, "a table message")
        found = self._hand_button()
        assert found is not None
        inter = await self.emu.click(user, found[0], custom_id=found[1])
        await self.emu.handled(inter)
        return self.panel(user)

    def panel(self, user: str) -> Message:
        """The member's panel as last shown (edited in place: not always the newest)."""
        panels = [m for m in self.emu.ephemerals(user) if m.content.startswith("Tarot — table")]
        assert panels, f"{user} has no panel"
        return max(panels, key=lambda m: m.last_request_id or 0)

    async def wait_turn(self, humans: dict[int, str], timeout: float = 20.0) -> Game:
        """The game once a human has something to do (or the deal is over)."""
        end = time.monotonic() + timeout
        while True:
            game = self.game()
            d = game.deal
            if d.phase == "over" or game.over or d.current in humans:
                return game
            if time.monotonic() > end:
                raise AssertionError(f"the AI players did not act: {d.phase} {d.current}")
            await asyncio.sleep(0.05)

    async def act(self, user: str, game: Game, seat: int, action: A.Action) -> Message:
        """``user`` takes ``action`` through their panel, as a player would."""
        panel = await self.open_panel(user)
        tid, deal = self.table_id(), game.deal.deal_no
        emu = self.emu
        match action:
            case A.Bid():
                await emu.click(user, panel, custom_id=f"tarot:bid:{tid}:{deal}.{action.contract}")
            case A.CallKing():
                await emu.click(user, panel, custom_id=f"tarot:call:{tid}:{deal}.{action.card}")
            case A.Chelem():
                arg = f"{deal}.{int(action.announce)}"
                await emu.click(user, panel, custom_id=f"tarot:chelem:{tid}:{arg}")
            case A.Ecart():
                select = next(
                    s
                    for s in panel.selects()
                    if s.custom_id.startswith(f"tarot:pick:{tid}:{deal}.1")
                )
                await emu.select(user, panel, select.custom_id, [str(c) for c in action.cards])
                ids = ".".join(str(c) for c in action.cards)
                await emu.click(user, panel, custom_id=f"tarot:ecart:{tid}:{deal}.{ids}")
            case A.Play():
                cid = f"tarot:play:{tid}:{deal}.{action.card}"
                if cid in json.dumps(panel.components):
                    await emu.click(user, panel, custom_id=cid)
                else:
                    select = next(
                        s
                        for s in panel.selects()
                        if str(action.card) in [o["value"] for o in s.options]
                    )
                    await emu.select(user, panel, select.custom_id, [str(action.card)])
            case A.Poignee():
                raise AssertionError("use the poignée button")
        return panel


def default_choice(game: Game, seat: int, bids: Bids, call: int | None = None) -> A.Action:
    """A human's move: the scripted bid, the called card, the lowest legal écart, no chelem,
    the first legal card."""
    legal = legal_actions(game, seat)
    d = game.deal
    if d.phase == "bid":
        wanted = bids.get(seat, 0)
        ok = {a.contract for a in legal if isinstance(a, A.Bid)}
        return A.Bid(seat, wanted if wanted in ok else 0)
    if d.phase == "call":
        calls = [a for a in legal if isinstance(a, A.CallKing)]
        return next((a for a in calls if a.card == call), calls[0])
    if d.phase == "ecart":
        return A.Ecart(seat, tuple(auto_ecart(game)))
    if d.phase == "chelem":
        return A.Chelem(seat, False)
    return next(a for a in legal if isinstance(a, A.Play))


async def play_until(
    h: TarotHarness,
    humans: dict[int, str],
    until: Callable[[Game], bool],
    bids: Bids,
    call: int | None = None,
    timeout: float = 120.0,
) -> Game:
    """Humans act through their panels (AI seats on their own) until ``until(game)``."""
    end = time.monotonic() + timeout
    while True:
        game = await h.wait_turn(humans)
        if until(game) or game.deal.phase == "over":
            return game
        assert time.monotonic() < end, "the deal did not reach the point wanted"
        seat = game.deal.current
        await h.act(humans[seat], game, seat, default_choice(game, seat, bids, call))
        await h.emu.wait_for(lambda g=game: _moved(h, g), 10, "the action to be applied")


def _moved(h: TarotHarness, before: Game) -> bool:
    after = h.game()
    return (
        after.deal.deal_no,
        after.deal.phase,
        after.deal.current,
        len(after.deal.tricks),
        sum(len(s.hand) for s in after.deal.seats),
    ) != (
        before.deal.deal_no,
        before.deal.phase,
        before.deal.current,
        len(before.deal.tricks),
        sum(len(s.hand) for s in before.deal.seats),
    )


async def open_table(
    h: TarotHarness, humans: list[str], ai: int, level: str = "medium", **options: Any
) -> None:
    """``humans[0]`` opens a table, the others join, the host seats ``ai`` AI players and
    starts."""
    emu = h.emu
    await emu.slash(humans[0], "tarot new", **options)
    for p in humans[1:]:
        await emu.click(p, h.table_message(), "Join")
    for _ in range(ai):
        await emu.slash(humans[0], "tarot addbot", level=level)
    await emu.click(humans[0], h.table_message(), "Start")


__all__ = [
    "PRESETS",
    "Emulator",
    "TarotHarness",
    "default_choice",
    "face",
    "find_seed",
    "open_table",
    "play_until",
    "simulate_bidding",
]
