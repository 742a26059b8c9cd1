"""A game's verb answers a click with a value (act, panel step, line, refusal): plain
assertions, no Discord and no event loop (bot/ui/pipeline.py carries the value out)."""

from __future__ import annotations

from typing import Any

from bot import games
from bot.games.kalooki import drafts
from bot.games.tamalou.verbs import Step
from bot.tables.service import Outcome
from bot.ui.pipeline import KEEP, Act, Click, Refuse, Say, ShowPanel
from tamalou.games.kalooki import actions as KA
from tamalou.games.kalooki.rules import BABY
from tamalou.games.kalooki.scripted import forced_game as kalooki_game
from tamalou.games.tamalou import actions as TA
from tamalou.games.tamalou import events as TE
from tamalou.games.tamalou.scripted import forced_game as tamalou_game
from tests.support.live_tables import live_table

ROWS = [["2h", "3h", "4h", "5h"], ["2s", "3s", "4s", "5s"], ["2d", "3d", "4d", "5d"]]


def click(
    game: Any, seat: int, verb: str, parts: list[int], *, from_panel: bool = True, state: Any = None
) -> Click:
    table = live_table(game)
    plugin = games.plugin(table.row.game)
    return Click(
        None,  # type: ignore[arg-type]  # a verb never reads the interaction
        plugin,
        table,
        verb,
        parts,
        [],
        seat,
        "en",
        game.now,
        from_panel,
        game.now,
        state,
    )


def test_tamalou_a_draw_is_an_action_then_the_panel_in_place() -> None:
    game = tamalou_game(ROWS, pile=["9h"], discard=["9c"])
    c = click(game, 0, "draw", [1])
    answer = c.plugin.answer(c)
    assert isinstance(answer, Act) and answer.action == TA.Draw(0, game.now)
    assert answer.then is not None
    after = answer.then(Outcome([]))
    assert isinstance(after, ShowPanel) and after.edit is True and after.step is None


def test_tamalou_a_missed_double_is_said_not_shown_r_d2() -> None:
    game = tamalou_game(ROWS, pile=["9h"], discard=["9c"])
    c = click(game, 1, "dbl", [1, 1, game.round.seq])  # slot 1 holds a 2, the discard a 9
    answer = c.plugin.answer(c)
    assert isinstance(answer, Act) and answer.then is not None
    events = c.table.module.apply(game, answer.action)
    assert any(isinstance(e, TE.DoubleMissed) for e in events)
    said = answer.then(Outcome(events))
    assert isinstance(said, Say) and said.text


def test_tamalou_a_narrowing_is_a_panel_step_and_nothing_is_played() -> None:
    game = tamalou_game(ROWS, pile=["9h"], discard=["9c"])
    c = click(game, 0, "repg", [1, 2])
    answer = c.plugin.answer(c)
    assert isinstance(answer, ShowPanel) and answer.step == Step(rep_group=(2,))


def test_kalooki_sorting_is_the_seats_next_panel_state() -> None:
    game = kalooki_game(
        [["7s", "7h", "7d", "9c", "9d", "9h"], ["2c", "3c", "4c", "5d", "6d", "8s"]],
        pile=["Kc"],
        discard=["Qd"],
        rules=BABY,
    )
    c = click(game, 0, "sort", [1])
    answer = c.plugin.answer(c)
    assert isinstance(answer, ShowPanel) and answer.state == drafts.PanelState(None, "rank")
    again = click(game, 0, "sort", [1], state=answer.state)
    back = again.plugin.answer(again)
    assert isinstance(back, ShowPanel) and drafts.sort_of(back.state) == "suit"


def test_kalooki_a_suggestion_with_none_to_suggest_is_a_refusal() -> None:
    game = kalooki_game(
        [["2s", "7h", "9d", "Jc", "Kd", "4h"], ["2c", "3c", "4c", "5d", "6d", "8s"]],
        pile=["Qh"],
        discard=["Qd"],
        rules=BABY,
    )
    c = click(game, 0, "sugg", [1])
    assert c.plugin.answer(c) == Refuse("stale_choice")


def test_kalooki_a_call_is_said_and_keeps_the_panel_state() -> None:
    game = kalooki_game(
        [
            ["7s", "7h", "3d", "4d", "5s", "6s"],
            ["8c", "9c", "10c", "Jc", "Qc", "Kc"],
            ["2h", "3h", "4h", "5h", "6h", "8h"],
        ],
        pile=["Ac"],
        discard=["9s"],
        rules=BABY,
    )
    c = click(game, 1, "call", [1, 39], from_panel=False)
    answer = c.plugin.answer(c)
    assert isinstance(answer, Act) and isinstance(answer.action, KA.Call)
    assert answer.state is KEEP
