"""The variants' panels offer exactly the engine's legal moves (DESIGN: panels from legal
actions): swap any two (R-X2), give the top (R-X4), the end-of-turn call (R-X6), a contre
(R-X9), play for someone (R-X10), the look-then-swap (R-X3); a move of many choices is
narrowed one choice at a time and every path ends on a legal action; no panel holds more
than Discord's 5 rows of 5."""

from __future__ import annotations

from typing import Any

import discord

from bot.games.tamalou import panel as panels
from bot.games.tamalou import table as tables
from bot.games.tamalou import verbs
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import apply, legal_actions
from tamalou.games.tamalou.rules import DUTCH, DUTCH_ROI, KOUBO, SWISS, TAMOUL, Rules
from tamalou.games.tamalou.scripted import forced_game
from tamalou.games.tamalou.state import Game
from tests.support.live_tables import custom_ids, live_table

ROWS = [
    ["Ac", "2c", "3c", "4c"],
    ["5c", "6c", "7c", "8c"],
    ["5d", "6d", "7d", "8d"],
    ["5h", "6h", "7h", "8h"],
]


def game_of(rules: Rules, pile: list[str], discard: list[str] | None = None, n: int = 4) -> Game:
    return forced_game(ROWS[:n], pile=pile, discard=discard or ["9s"], rules=rules)


def thrown(rules: Rules, card: str, n: int = 4) -> Game:
    """Seat 0 draws ``card`` from the pile and throws it: its power is offered (R-X5)."""
    game = game_of(rules, [card], n=n)
    apply(game, A.Draw(0, game.now))
    apply(game, A.Throw(0, game.now))
    if game.round.window_until:  # R-X11: the power comes after the doubles window
        apply(game, A.Tick(game.round.window_until))
    return game


def key(action: Any) -> tuple[Any, ...]:
    return (action.kind, *(v for k, v in vars_of(action).items() if k != "at"))


def vars_of(action: Any) -> dict[str, Any]:
    return {f: getattr(action, f) for f in action.__slots__}


def shown(
    game: Game, seat: int = 0, step: tuple[int, ...] | None = None, group: tuple[int, ...] = ()
) -> discord.ui.View:
    panel = panels.panel(live_table(game), seat, "en", game.now, None, step, step_group=group)
    assert len(panel.view.children) <= 25
    assert max((i.row or 0 for i in panel.view.children), default=0) <= 4
    return panel.view


def reachable(
    game: Game,
    seat: int = 0,
    step: tuple[int, ...] | None = None,
    group: tuple[int, ...] = (),
    seen: set[str] | None = None,
) -> set[tuple[Any, ...]]:
    """Every action a player can reach from a panel by following its step buttons (and a
    step's groups, when its choices do not fit)."""
    found: set[tuple[Any, ...]] = set()
    seen = set() if seen is None else seen
    for cid in custom_ids(shown(game, seat, step, group)):
        _, verb, _, *rest = cid.split(":")
        arg = rest[0] if rest else ""
        parts = [int(p) for p in arg.split(".")] if arg else []
        if cid in seen:
            continue  # "Other choices" leads back to groups already followed
        seen.add(cid)
        if verb == "step" and len(parts) > 1:
            found |= reachable(game, seat, tuple(parts[1:]), (), seen)
        elif verb == "stepg":
            groups, chosen = verbs.step_of_group(parts)
            found |= reachable(game, seat, chosen, groups, seen)
        elif verb == "act":
            found.add(key(verbs.chosen(legal_actions(game, seat, game.now), "act", parts, [])))
        elif verb == "dfor":
            found.add(key(verbs.build_action("dfor", seat, parts, [], game.now)))
    return found


def legal_of(game: Game, kind: str, seat: int = 0) -> set[tuple[Any, ...]]:
    return {key(a) for a in legal_actions(game, seat) if a.kind == kind}


def test_r_x2_swap_any_two_reaches_exactly_the_legal_swaps() -> None:
    game = thrown(DUTCH, "Qh")  # dutch Queen: swap any two, 4 players: 96 legal swaps
    legal = legal_of(game, "swap_two")
    assert len(legal) > 25
    ids = custom_ids(shown(game))
    assert any(":step:" in i for i in ids)  # too many for one panel: narrowed
    assert reachable(game) == legal


def test_r_x2_swap_any_two_reaches_every_card_of_a_row_past_20_cards() -> None:
    """A 30-card row (penalties, R-D5): its slots are more than a step's 20 buttons, which
    cut slots 21-30 out of the swaps; the step narrows them in groups now (``stepg``)."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    long_row = [f"{r}h" for r in ranks] + [f"{r}c" for r in ranks] + ["As", "2s", "3s", "4s"]
    game = forced_game([ROWS[2], long_row], pile=["Qd"], discard=["9s"], rules=DUTCH)
    apply(game, A.Draw(0, game.now))
    apply(game, A.Throw(0, game.now))
    legal = legal_of(game, "swap_two")
    assert any(a[3] == 30 or a[5] == 30 for a in legal)  # a swap of the 30th card is legal
    assert reachable(game) == legal


def test_r_x2_a_few_swaps_are_offered_at_once() -> None:
    game = thrown(SWISS, "Jh", n=2)  # swiss Jack: swap any two, 2 players: 16
    assert {i.split(":")[1] for i in custom_ids(shown(game))} == {"act", "pass"}
    assert reachable(game) == legal_of(game, "swap_two")


def test_r_x4_r_x5_give_the_top_names_each_legal_player_and_cannot_be_passed() -> None:
    game = thrown(DUTCH_ROI, "Kh")  # red King: *must* give the top
    legal = legal_of(game, "give_top")
    assert len(legal) == 3
    assert reachable(game) == legal
    panel = panels.panel(live_table(game), 0, "en", game.now)
    assert "tamalou:pass:7:1" not in custom_ids(panel.view)  # R-X5: a must power
    assert "p1" in "".join(str(getattr(i, "label", "")) for i in panel.view.children)


def test_r_x6_the_end_of_turn_call_offers_the_call_by_its_name_or_the_end_of_the_turn() -> None:
    game = game_of(DUTCH, ["2h"])
    apply(game, A.Draw(0, game.now))
    apply(game, A.Throw(0, game.now))
    assert game.round.stage == "call"
    view = shown(game)
    labels = {str(getattr(i, "label", "")) for i in view.children}
    assert "Dutch!" in labels and "End my turn" in labels
    assert reachable(game) == legal_of(game, "end_turn")
    panel = panels.panel(live_table(game), 0, "fr", game.now)
    assert "Dutch" in panel.text


def test_r_x9_a_contre_is_offered_at_the_start_of_the_last_turn() -> None:
    rows = [["Ac", "Ad", "2c", "As"], ROWS[1], ROWS[2]]
    game = forced_game(rows, pile=["9h", "9d", "9c"], discard=["9s"], rules=TAMOUL)
    apply(game, A.CallTamalou(0, game.now))  # 5 <= 6.5: right, hidden
    assert game.round.current == 1
    assert legal_of(game, "contre", seat=1)
    ids = custom_ids(shown(game, seat=1))
    assert reachable(game, seat=1) >= legal_of(game, "contre", seat=1)
    panel = panels.panel(live_table(game), 1, "en", game.now)
    assert "contre" in panel.text and any(":act:" in i for i in ids)


def test_r_x3_look_then_swap_offers_the_looked_card_with_each_of_yours() -> None:
    rules = KOUBO.model_copy(update={"ranks": DUTCH.ranks})
    game = thrown(rules, "Qh", n=2)  # koubo Queen: look then swap
    look = next(a for a in legal_actions(game, 0) if isinstance(a, A.Look))
    apply(game, look)
    swaps = legal_of(game, "swap")
    assert len(swaps) == 4
    ids = custom_ids(shown(game))
    assert not [i for i in ids if ":qmine:" in i]  # one click: the target is the looked card
    assert reachable(game) == swaps
    assert "tamalou:pass:7:1" in ids


def test_r_x10_play_for_someone_reaches_exactly_the_legal_doubles_for_others() -> None:
    game = game_of(DUTCH, ["2h"], discard=["5s"])  # three 5s at other seats
    kind = verbs.KINDS.index("double_for")
    legal = legal_of(game, "double_for", seat=1)
    assert len(legal) > 25
    assert reachable(game, seat=1, step=(kind,)) == legal
    table_ids = custom_ids(tables.table_message(live_table(game), "en", game.now)[1])
    assert "tamalou:for:7:1" in table_ids
    assert not [i for i in custom_ids(shown(game, seat=1)) if ":dfor:" in i]  # on the table


def test_r_x11_the_table_doubles_aim_at_the_window_card_after_a_first_double() -> None:
    rows = [["Ac", "2c", "3c", "4c"], ["9c", "6c", "7c", "8c"], ["9d", "6d", "7d", "8d"]]
    game = forced_game(rows, pile=["9h"], discard=["Ks"], rules=DUTCH_ROI)
    apply(game, A.Draw(0, game.now))
    apply(game, A.Throw(0, game.now))  # the 9h: a 3 s window opens on it
    window = game.round.window_seq
    ev = apply(game, A.Double(1, 1, window, game.now + 10))
    assert any(isinstance(e, E.Doubled) for e in ev)
    ids = custom_ids(tables.table_message(live_table(game), "en", game.now + 20)[1])
    assert f"tamalou:dbl:7:1.1.{window}" in ids  # not the covering 9c's number
    ev = apply(game, A.Double(2, 1, window, game.now + 30))  # R-X11: it counts too
    assert any(isinstance(e, E.Doubled) for e in ev)


def test_a_stale_step_says_so_and_offers_only_back() -> None:
    game = game_of(DUTCH, ["2h"])
    kind = verbs.KINDS.index("swap_two")
    panel = panels.panel(live_table(game), 0, "en", game.now, None, (kind,))
    assert custom_ids(panel.view) == ["tamalou:step:7:1"]
    assert "no longer possible" in panel.text
