"""The private panel is built from the engine's legal actions, never from the rules (DESIGN:
"Panels are built from the engine's legal actions"): whatever powers a preset has, its panel
offers exactly the legal ones, and an action kind the panel has no button for is still
playable through the generic fallback."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest

from bot.games.tamalou import panel as panels
from bot.games.tamalou import table as tables
from bot.games.tamalou import verbs
from bot.tables import TableError
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou.engine import apply, legal_actions
from tamalou.games.tamalou.rules import TAMALOU, Power, Rules
from tamalou.games.tamalou.scripted import forced_game
from tamalou.games.tamalou.state import Game
from tamalou.games.tamalou.views import view
from tests.support.live_tables import custom_ids, live_table, select_values

ROWS = [["2h", "3h", "4h", "5h"], ["2s", "3s", "4s", "5s"], ["2d", "3d", "4d", "5d"]]


def with_powers(**powers: Power) -> Rules:
    data = TAMALOU.model_dump()
    data.update(powers={**TAMALOU.powers, **powers}, transmit_powers=())
    return Rules.model_validate(data)


def thrown(card: str, rules: Rules = TAMALOU) -> Game:
    """Player 0 draws ``card`` from the pile and throws it: its power is offered (R-T5)."""
    game = forced_game(ROWS, pile=[card], discard=["9c"], rules=rules)
    apply(game, A.Draw(0, game.now))
    apply(game, A.Throw(0, game.now))
    assert game.round.stage == "power"
    return game


def buttons(game: Game, seat: int = 0, queen_slot: int | None = None) -> list[str]:
    shown = panels.panel(live_table(game), seat, "en", game.now, queen_slot)
    return custom_ids(shown.view)


def test_r_p3_the_king_offers_a_look_at_each_own_card_the_engine_lists() -> None:
    game = thrown("Kc")
    looks = [a for a in legal_actions(game, 0) if isinstance(a, A.Look)]
    assert looks and all(a.target == 0 for a in looks)
    ids = buttons(game)
    assert [i for i in ids if ":look:" in i] == [f"tamalou:look:7:1.{a.slot}" for a in looks]
    assert "tamalou:pass:7:1" in ids  # R-T5: the power may be passed


def test_a_look_at_an_opponent_power_offers_exactly_the_legal_looks() -> None:
    game = thrown("Kc", with_powers(K=Power.LOOK_OPPONENT))
    legal = [a for a in legal_actions(game, 0) if isinstance(a, A.Look)]
    assert {a.target for a in legal} == {1, 2}
    ids = buttons(game)
    assert not [i for i in ids if ":look:" in i]  # no own-card look: the engine lists none
    codes = [i.removeprefix("tamalou:act:7:1.") for i in ids if ":act:" in i]
    assert len(codes) == len(legal)
    for code in codes:  # each button names one legal action, and a click finds it again
        parts = [1, *map(int, code.split("."))]
        assert verbs.chosen(legal_actions(game, 0, game.now), "act", parts, []) in legal


def test_a_look_at_any_card_offers_own_and_opponents_cards() -> None:
    game = thrown("Kc", with_powers(K=Power.LOOK_ANY))
    legal = [a for a in legal_actions(game, 0) if isinstance(a, A.Look)]
    ids = buttons(game)
    own = [i for i in ids if ":look:" in i]
    others = [i for i in ids if ":act:" in i]
    assert len(own) == sum(a.target == 0 for a in legal) == 4
    assert len(others) == sum(a.target != 0 for a in legal) == 8


def test_r_p2_the_queen_offers_own_slots_then_the_legal_targets_of_the_chosen_slot() -> None:
    game = thrown("Qc")
    game.round.seats[2].frozen = True  # R-A2: a caller's cards cannot be swapped
    game.round.caller = 2  # R-X7: the caller is untargetable (not the frozen flag alone)
    swaps = [a for a in legal_actions(game, 0) if isinstance(a, A.Swap)]
    ids = buttons(game)
    assert [i for i in ids if ":qmine:" in i] == [
        f"tamalou:qmine:7:1.{s}" for s in sorted({a.slot for a in swaps})
    ]
    chosen = buttons(game, queen_slot=2)
    assert "tamalou:qswap:7:1.2" in chosen
    shown = panels.panel(live_table(game), 0, "en", game.now, 2)
    assert select_values(shown.view) == [
        f"{a.target}.{a.target_slot}" for a in swaps if a.slot == 2
    ]
    assert not any(v.startswith("2.") for v in select_values(shown.view))


def test_r_p2_the_queen_reaches_every_target_past_a_selects_25_a_group_first() -> None:
    """Two opponents of 13 cards: 26 targets for each of your cards, one more than a select
    holds (the 26th was cut). The targets come in groups now (``qmine`` with a group)."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    game = forced_game(
        [["2d", "3d", "4d", "5d"], [f"{r}h" for r in ranks], [f"{r}c" for r in ranks]],
        pile=["Qd"],
        discard=["9s"],
    )
    apply(game, A.Draw(0, game.now))
    apply(game, A.Throw(0, game.now))
    table = live_table(game)
    targets = [
        f"{a.target}.{a.target_slot}"
        for a in legal_actions(game, 0)
        if isinstance(a, A.Swap) and a.slot == 1
    ]
    assert len(targets) == 26
    first = custom_ids(panels.panel(table, 0, "en", game.now, 1).view)
    groups = [i for i in first if i.startswith("tamalou:qmine:7:1.1.")]
    assert len(groups) >= 2 and not [i for i in first if ":qswap:" in i]
    reached: list[str] = []
    for g in groups:
        path = tuple(int(p) for p in g.rsplit(":", 1)[1].split(".")[2:])
        shown = panels.panel(table, 0, "en", game.now, 1, queen_group=path)
        assert "tamalou:qmine:7:1.1" in custom_ids(shown.view)  # the other groups
        reached += select_values(shown.view)
    assert reached == targets  # every target, in the engine's order


def test_nothing_is_offered_to_a_player_whose_turn_it_is_not() -> None:
    game = thrown("Kc")
    assert [i for i in buttons(game, seat=1) if ":act:" in i or ":look:" in i] == []


@dataclass(slots=True, unsafe_hash=True)
class Shout:
    """An action kind the Tamalou panel has no button for (a house variant's new power)."""

    player: int
    times: int
    at: int = 0
    kind: ClassVar[str] = "shout"


def _fallback_panel(
    monkeypatch: pytest.MonkeyPatch, count: int, group: tuple[int, ...] = ()
) -> list[str]:
    monkeypatch.setattr(verbs, "KINDS", (*verbs.KINDS, "shout"))
    monkeypatch.setattr(
        verbs, "action_to_dict", lambda a: {"kind": a.kind, "player": a.player, "times": a.times}
    )
    game = forced_game(ROWS)
    table = live_table(game)
    pv = view(game, 0, game.now)
    legal = [Shout(0, n) for n in range(count)]
    drawn = panels.panel_buttons(table, pv, "en", legal, more_group=group)  # type: ignore[arg-type]
    assert len(drawn.children) <= 25
    return custom_ids(drawn)


def test_an_unknown_action_kind_gets_one_button_per_legal_action(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ids = _fallback_panel(monkeypatch, 3)
    code = verbs.KINDS.index("shout")
    assert ids == [f"tamalou:act:7:1.{code}.{n}" for n in range(3)]


def test_more_unknown_actions_than_fit_are_all_reached_a_group_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Was: one select of them, cut at its 25 options (the 26th to 30th never offered)."""
    groups = _fallback_panel(monkeypatch, 30)
    assert groups and all(i.startswith("tamalou:more:7:1.") for i in groups)
    code = verbs.KINDS.index("shout")
    reached = []
    for g in groups:
        path = tuple(int(p) for p in g.rsplit(":", 1)[1].split(".")[1:])
        ids = _fallback_panel(monkeypatch, 30, path)
        assert "tamalou:more:7:1" in ids  # the other groups
        reached += [
            int(i.rsplit(".", 1)[1]) for i in ids if i.startswith(f"tamalou:act:7:1.{code}.")
        ]
    assert reached == list(range(30))  # every one, in the engine's order


def test_a_choice_no_longer_legal_is_refused_not_guessed() -> None:
    game = thrown("Kc", with_powers(K=Power.LOOK_OPPONENT))
    apply(game, A.Pass(0, game.now))
    with pytest.raises(TableError, match="stale_choice"):
        verbs.chosen(
            legal_actions(game, 0, game.now), "pick", [1], [f"{verbs.KINDS.index('look')}.1.1"]
        )


def test_r_t3_a_long_row_still_offers_to_throw_the_drawn_card() -> None:
    """A player with 26 cards (penalties pile up: R-D5, a wrong call) draws: the panel has
    room for 25 buttons, and the throw (R-T3) used to come after the 26 replacements, so it
    was cut (found by the tamoul whole-match e2e test): it comes first now."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    long_row = [f"{r}h" for r in ranks] + [f"{r}c" for r in ranks]
    game = forced_game(
        [long_row, ["2s", "3s", "4s", "5s"], ["2d", "3d", "4d", "5d"]],
        pile=["6d"],
        discard=["9s"],
    )
    apply(game, A.Draw(0, game.now))
    assert {a.kind for a in legal_actions(game, 0)} >= {"throw", "replace"}
    shown = buttons(game)
    assert f"tamalou:throw:{live_table(game).id}:1" in shown
    assert len(shown) <= 25


def thirty_cards_drawn() -> Game:
    """Player 0 holds 30 cards (penalties, R-D5) and has drawn."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    long_row = [f"{r}h" for r in ranks] + [f"{r}c" for r in ranks] + ["As", "2s", "3s", "4s"]
    game = forced_game(
        [long_row, ["5s", "6s", "7s", "8s"], ["2d", "3d", "4d", "5d"]],
        pile=["6d"],
        discard=["9s"],
    )
    apply(game, A.Draw(0, game.now))
    return game


def test_r_t3_every_slot_of_a_row_past_24_cards_can_be_replaced_group_then_slot() -> None:
    """A player with 30 cards (penalties, R-D5) draws: the panel had room for 24
    replacements and cut the rest, so slots 25-30 could never be replaced (R-T3). The grid
    narrows them now: a group of slots first (a panel step, ``repg``), then the slot."""
    game = thirty_cards_drawn()
    table = live_table(game)
    first = custom_ids(panels.panel(table, 0, "en", game.now).view)
    assert f"tamalou:throw:{table.id}:1" in first
    groups = [c for c in first if c.startswith(f"tamalou:repg:{table.id}:1.")]
    assert len(groups) >= 2
    reached: list[int] = []
    for g in groups:
        path = tuple(int(p) for p in g.rsplit(":", 1)[1].split(".")[1:])
        shown = panels.panel(table, 0, "en", game.now, rep_group=path)
        ids = custom_ids(shown.view)
        assert len(ids) <= 25
        assert f"tamalou:repg:{table.id}:1" in ids  # back to the groups
        reached += [int(c.rsplit(".", 1)[1]) for c in ids if f":rep:{table.id}:" in c]
    assert reached == list(range(1, 31))  # every slot, in the row's order


def test_a_group_of_slots_that_no_longer_exists_shows_the_groups_again() -> None:
    """A stale or forged ``repg`` group (a row that shrank meanwhile) is not guessed: the
    panel offers the groups of the row as it is now."""
    game = thirty_cards_drawn()
    table = live_table(game)
    fresh = custom_ids(panels.panel(table, 0, "en", game.now).view)
    assert custom_ids(panels.panel(table, 0, "en", game.now, rep_group=(99,)).view) == fresh
    assert verbs.VERBS["repg"].origin == "panel"


def test_r_d1_every_slot_of_a_row_past_20_cards_can_be_doubled_from_the_panel() -> None:
    """The table message holds 20 double buttons under its first row: slots past the 20th
    had none (R-D1, R-D5's penalties make such rows). The table's last one opens the
    member's panel with the doubles of their last slots (``dblm``)."""
    game = thirty_cards_drawn()
    apply(game, A.Throw(0, game.now))  # a discard to double on, the doubles open
    table = live_table(game)
    _, view = tables.table_message(table, "en", game.now)
    on_table = custom_ids(view)
    doubles = [c for c in on_table if ":dbl:" in c]
    assert [int(c.rsplit(":", 1)[1].split(".")[1]) for c in doubles] == list(range(1, 20))
    assert f"tamalou:dblm:{table.id}:1" in on_table and len(on_table) <= 25
    seen = custom_ids(panels.panel(table, 1, "en", game.now, doubles=()).view)
    assert [c for c in seen if ":dbl:" in c] == []  # seat 1 holds 4 cards: none past the 19th
    mine = custom_ids(panels.panel(table, 0, "en", game.now, doubles=()).view)
    late = [c for c in mine if ":dbl:" in c]
    assert [int(c.rsplit(":", 1)[1].split(".")[1]) for c in late] == list(range(20, 31))
    assert f"tamalou:step:{table.id}:1" in mine  # back to the panel
    parts = [int(p) for p in late[-1].rsplit(":", 1)[1].split(".")]
    action = verbs.build_action("dbl", 0, parts, [], game.now)
    assert isinstance(action, A.Double) and action.slot == 30
    assert verbs.VERBS["dbl"].origin == "any"


@pytest.mark.parametrize(
    ("lang", "offered", "not_offered"),
    [
        ("en", "Your turn — draw or call Tamalou", "take the discard"),
        ("fr", "À vous — piochez ou annoncez Tamalou", "prenez la défausse"),
    ],
)
def test_r_t2_the_turns_line_names_only_the_moves_the_engine_offers(
    lang: str, offered: str, not_offered: str
) -> None:
    """An empty discard (or a J/Q/K on it, R-T2) cannot be taken: the panel's turn line
    offered "take the discard" anyway."""
    game = forced_game(ROWS, pile=["9c"], discard=[])
    assert "take_discard" not in {a.kind for a in legal_actions(game, 0)}
    text = panels.panel(live_table(game), 0, lang, game.now).text
    assert offered in text and not_offered not in text
    game = forced_game(ROWS, pile=["9c"], discard=["7h"])
    text = panels.panel(live_table(game), 0, "en", game.now).text
    assert "Your turn — draw, take the discard or call Tamalou" in text
