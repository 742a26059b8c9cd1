"""One click computes the game's views once (issue 21): whatever a click reads before it
acts (a legal choice, a draft, a suggestion), the table message and its picture drawn after
the action, and the member's panel all read one ``Seen`` of each state (bot/ui/seen.py),
in every game.

A spy stands on the engine's ``view``, ``public_view`` and ``legal_actions`` (the game
module the table service loads, which every game's Discord side reads through ``Seen``) and
counts each call by the state it was made on. The platform is stood in for by what it calls
of the game during a click (``bot/ui/pipeline.py`` carries out the game's answer; a table
edit draws ``table_message`` and ``table_picture`` at one moment; the panel desk's ``show``
draws ``panel`` once), on a clock that moves a millisecond at every reading, as a real one
would between them.
"""

from __future__ import annotations

import ast
import itertools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot import games
from bot.games.kalooki import drafts
from bot.games.tamalou import verbs as tamalou_verbs
from bot.tables import LiveTable
from bot.tables.service import Outcome
from bot.ui.pipeline import Click, carry_out
from tamalou.core.errors import IllegalAction
from tamalou.games.kalooki import actions as KA
from tamalou.games.kalooki.engine import apply as kalooki_apply
from tamalou.games.kalooki.rules import BABY
from tamalou.games.kalooki.scripted import card
from tamalou.games.kalooki.scripted import forced_game as kalooki_game
from tamalou.games.tamalou import actions as TamA
from tamalou.games.tamalou.scripted import forced_game as tamalou_game
from tamalou.games.tarot import actions as TA
from tamalou.games.tarot.cards import from_code
from tamalou.games.tarot.engine import apply as tarot_apply
from tamalou.games.tarot.scripted import forced_game as tarot_game
from tests.support.live_tables import live_table

VIEWS = ("view", "public_view", "legal_actions")


@dataclass
class Spy:
    """Calls of the engine's views, by (function, seat, state): the state is the number of
    actions the table has applied (``LiveTable.logged``)."""

    table: LiveTable
    calls: Counter[tuple[str, int | None, int]] = field(default_factory=Counter)

    def wrap(self, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def counted(game: Any, *args: Any) -> Any:
            seat = args[0] if name != "public_view" else None
            self.calls[(name, seat, self.table.logged)] += 1
            return real(game, *args)

        return counted


class Platform:
    """What the platform calls of a game in one click (bot/ui/desk.py, service.py)."""

    def __init__(self, table: LiveTable, start: int, state: Any = None) -> None:
        self.table = table
        ticks = itertools.count(start)
        self.service = SimpleNamespace(clock=lambda: next(ticks), act=self.act)
        self.desk = SimpleNamespace(show=self.show_panel, set_state=self.set_state)
        self.config = SimpleNamespace(answer_deadline_ms=1500)
        self.discord_clock = SimpleNamespace(age=lambda press_ms: 0)  # pressed just now
        self.panels: list[Any] = []
        #: the seat's panel state, as the desk keeps it
        self.state = state

    def set_state(self, table_id: int, seat: int, state: Any) -> None:
        self.state = state

    async def act(
        self, table: LiveTable, action: Any, user_id: int, may_apply: Any = None
    ) -> Outcome:
        try:
            events = table.module.apply(table.game, action)
        except IllegalAction as exc:
            return Outcome([], exc)
        table.logged += 1  # committed (the service counts every action it applies)
        plugin = games.plugin(table.row.game)
        at = self.service.clock()  # a table edit: the message and its picture at one moment
        plugin.table_message(table, "en", at)
        plugin.table_picture(table, "en", at)
        return Outcome(events)

    async def show_panel(
        self,
        interaction: Any,
        table: LiveTable,
        seat: int,
        lang: str,
        edit: bool,
        step: Any = None,
        seen: Any = None,
    ) -> None:
        plugin = games.plugin(table.row.game)
        at = self.service.clock()
        self.panels.append(
            plugin.panel(table, seat, lang, at, step=step, state=self.state, seen=seen)
        )


class Response:
    def is_done(self) -> bool:
        return False

    async def defer(self) -> None:
        raise AssertionError("nothing here waits past the safety deadline")


async def click(
    monkeypatch: pytest.MonkeyPatch,
    game: Any,
    seat: int,
    verb: str,
    parts: list[int],
    values: list[str] | None = None,
    from_panel: bool = True,
    state: Any = None,
) -> tuple[Spy, Platform]:
    table = live_table(game)
    table.match = object()  # type: ignore[assignment]  # a table the service plays
    spy = Spy(table)
    for name in VIEWS:
        monkeypatch.setattr(table.module, name, spy.wrap(name, getattr(table.module, name)))
    platform = Platform(table, game.now, state)
    interaction = SimpleNamespace(
        client=platform,
        id=1 << 30,
        user=SimpleNamespace(id=100 + seat),
        response=Response(),
        extras={},
    )
    plugin = games.plugin(table.row.game)
    checked = Click(
        interaction,  # type: ignore[arg-type]
        plugin,
        table,
        verb,
        parts,
        values or [],
        seat,
        "en",
        game.now,
        from_panel,
        platform.service.clock(),
        state,
    )
    await carry_out(checked, plugin.answer(checked))
    assert len(platform.panels) == 1  # the click showed the member's panel
    return spy, platform


def assert_once(spy: Spy, seat: int, states: int) -> None:
    """Each view of each state computed at most once, the clicker's view once in the last
    state, and one public view at most a state (a seat's view carries it)."""
    repeated = {key: n for key, n in spy.calls.items() if n > 1}
    assert not repeated, repeated
    last = spy.table.logged
    assert spy.calls[("view", seat, last)] == 1, spy.calls
    assert {state for (_, _, state) in spy.calls} <= set(range(last - states + 1, last + 1))
    for state in range(last + 1):
        assert spy.calls[("public_view", None, state)] <= 1


# -- Tamalou -------------------------------------------------------------------------------

ROWS = [["2h", "3h", "4h", "5h"], ["2s", "3s", "4s", "5s"], ["2d", "3d", "4d", "5d"]]


async def test_tamalou_my_cards_reads_the_legal_moves_once(monkeypatch: pytest.MonkeyPatch) -> None:
    game = tamalou_game(ROWS, pile=["9h"], discard=["9c"])
    spy, _ = await click(monkeypatch, game, 1, "hand", [1], from_panel=False)
    assert spy.calls == Counter({("legal_actions", 1, 0): 1, ("view", 1, 0): 1})


async def test_tamalou_a_draw_computes_each_view_once(monkeypatch: pytest.MonkeyPatch) -> None:
    game = tamalou_game(ROWS, pile=["9h"], discard=["9c"])
    spy, platform = await click(monkeypatch, game, 0, "draw", [1])
    assert_once(spy, 0, states=1)
    assert "[1]" in platform.panels[0].text  # the row, drawn from the one view


async def test_tamalou_a_generic_choice_is_judged_once_before_and_drawn_once_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = tamalou_game(ROWS, pile=["9h"], discard=["9c"])
    code = tamalou_verbs.code_of(TamA.Draw(0, game.now))  # an ``act`` button naming the Draw
    assert code is not None
    spy, _ = await click(monkeypatch, game, 0, "act", [1, *map(int, code.split("."))])
    assert_once(spy, 0, states=2)
    assert spy.calls[("legal_actions", 0, 0)] == 1  # judged at the press, before the move


# -- Kalooki -------------------------------------------------------------------------------


def kalooki_drawn() -> Any:
    """Seat 0 holds two sets (Baby round 1: 3 3) and draws K♣: a lay-down is suggested."""
    game = kalooki_game(
        [["7s", "7h", "7d", "9c", "9d", "9h"], ["2c", "3c", "4c", "5d", "6d", "8s"]],
        pile=["Kc", "Qh"],
        discard=["Qd"],
        rules=BABY,
    )
    game.round.draw_at = game.now  # past the call window
    return game


@pytest.mark.parametrize("verb", ["sugg", "sort", "build"])
async def test_kalooki_a_panel_step_computes_the_seats_view_once(
    monkeypatch: pytest.MonkeyPatch, verb: str
) -> None:
    """Was: the step read the public view, the suggestion its own view, the panel a third."""
    game = kalooki_drawn()
    kalooki_apply(game, KA.Draw(0, game.now))
    spy, _ = await click(monkeypatch, game, 0, verb, [1])
    assert spy.calls == Counter({("view", 0, 0): 1, ("legal_actions", 0, 0): 1})


async def test_kalooki_a_draw_computes_each_view_once(monkeypatch: pytest.MonkeyPatch) -> None:
    spy, platform = await click(monkeypatch, kalooki_drawn(), 0, "draw", [1, 1])
    assert_once(spy, 0, states=1)
    assert "kalooki:sugg:7:1" in [
        getattr(c, "custom_id", "") for c in platform.panels[0].view.children
    ]


async def test_kalooki_a_lay_down_computes_each_view_once(monkeypatch: pytest.MonkeyPatch) -> None:
    game = kalooki_drawn()
    kalooki_apply(game, KA.Draw(0, game.now))
    sets = [["7s", "7h", "7d"], ["9c", "9d", "9h"]]
    melds = tuple(tuple(card(c) for c in meld) for meld in sets)
    state = drafts.PanelState(drafts.Draft(1, game.round.deal_no, "build", melds))
    spy, _ = await click(monkeypatch, game, 0, "lay", [1], state=state)
    assert spy.table.logged == 1 and game.round.seats[0].laid_down
    assert_once(spy, 0, states=2)


# -- tarot ---------------------------------------------------------------------------------


def tarot_trick() -> Any:
    """Seat 0 led the King of spades: seat 1 plays to the trick in progress."""
    game = tarot_game([["Ks", "2h"], ["3s", "4s", "T5"], [], []], dealer=3)
    while game.deal.phase == "bid":
        seat = game.deal.current
        tarot_apply(game, TA.Bid(seat, 3 if seat == 0 else 0, game.now))  # a Garde sans
    tarot_apply(game, TA.Chelem(0, False, game.now))
    tarot_apply(game, TA.Play(0, from_code("Ks"), game.now))
    return game


async def test_tarot_my_hand_computes_the_view_once(monkeypatch: pytest.MonkeyPatch) -> None:
    spy, _ = await click(monkeypatch, tarot_trick(), 2, "hand", [1], from_panel=False)
    assert spy.calls == Counter({("view", 2, 0): 1, ("legal_actions", 2, 0): 1})


async def test_tarot_a_card_played_computes_each_view_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Was: the table message and its picture each built the public view."""
    game = tarot_trick()
    spy, _ = await click(monkeypatch, game, 1, "play", [1, from_code("3s")])
    assert spy.table.logged == 1
    assert_once(spy, 1, states=1)
    assert spy.calls[("public_view", None, 1)] == 1  # the table message and its picture


def test_no_module_of_a_game_reads_the_engine_views_but_through_seen() -> None:
    """The views are read in one place a game (``Seen``): no module of a game's Discord
    side imports the engine's view functions."""
    root = Path(__file__).parents[2] / "bot" / "games"
    found = []
    for path in root.glob("*/*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tamalou."):
                found += [(path.name, a.name) for a in node.names if a.name in VIEWS]
    assert found == []
