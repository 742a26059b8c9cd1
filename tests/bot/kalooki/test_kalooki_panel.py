"""Kalooki's table message and panel, over forced deals: every button and option is a
legal action (or a step of building one), a lay-down being built is checked by the engine,
and the public message shows only public cards (K-S4)."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

import tamalou.games
from bot.games.kalooki import drafts, verbs
from bot.games.kalooki import panel as panels
from bot.games.kalooki import table as tables
from bot.games.kalooki.faces import sorted_hand
from bot.storage import SeatRow, TableRow
from bot.tables import LiveTable, TableError
from tamalou.core import cards
from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki.engine import apply, legal_actions
from tamalou.games.kalooki.rules import BABY
from tamalou.games.kalooki.scripted import card, forced_game, place_melds
from tamalou.games.kalooki.state import Game

TID = 7


def live(game: Game, table_id: int = TID) -> LiveTable:
    seats = [SeatRow(i, 100 + i, f"p{i}") for i in range(game.players)]
    row = TableRow(table_id, 1, 10, 100, "playing", {}, None, 0, 0, seats, "kalooki")
    return LiveTable(row, game.rules, tamalou.games.load(row.game), game=game)


def ids(view: discord.ui.View) -> list[str]:
    return [str(getattr(i, "custom_id", "")) for i in view.children]


def select(view: discord.ui.View, marker: str) -> Any:
    found = [i for i in view.children if marker in str(getattr(i, "custom_id", ""))]
    assert len(found) == 1, ids(view)
    return found[0]


def labels(view: discord.ui.View) -> list[str]:
    return [str(getattr(i, "label", "")) for i in view.children]


def building(game: Game, melds: Any = (), **fields: Any) -> drafts.PanelState:
    """Seat 0's panel state: a lay-down being built in this deal."""
    made = tuple(tuple(card(c) if isinstance(c, str) else c for c in m) for m in melds)
    return drafts.PanelState(drafts.Draft(1, game.round.deal_no, "build", made, **fields))


def two_sets_drawn() -> Game:
    """Seat 0 holds two sets (Baby round 1: 3 3) and draws K♣."""
    game = forced_game(
        [["7s", "7h", "7d", "9c", "9d", "9h"], ["2c", "3c", "4c", "5d", "6d", "8s"]],
        pile=["Kc"],
        discard=["Qd"],
        rules=BABY,
    )
    game.round.draw_at = game.now  # past the call window
    apply(game, A.Draw(0, game.now))
    return game


def test_k_t3_the_discard_select_offers_every_natural_card_in_hand() -> None:
    game = two_sets_drawn()
    shown = panels.panel(live(game), 0, "en", game.now)
    options = select(shown.view, ":pick:7:1.1").options
    legal = {a.card for a in legal_actions(game, 0) if isinstance(a, A.Discard)}
    assert {int(o.value) for o in options} == legal
    assert "K♣" in shown.text  # the card drawn is in the hand shown
    assert "kalooki:build:7:1" in ids(shown.view)
    assert "kalooki:sugg:7:1" in ids(shown.view)  # the engine found a lay-down


def test_k_l1_a_lay_down_being_built_is_checked_meld_by_meld() -> None:
    game = two_sets_drawn()
    table = live(game)
    state = building(game, [["7s", "7h", "9c"], ["9d", "9h", "7d"]])
    d = drafts.draft(state, 1, game.round.deal_no, 2)
    shown = panels.panel(table, 0, "en", game.now, state=state)
    assert shown.text.count("❌ a set's cards must all have the same rank") == 2
    # one multi-select per meld of the contract, the picked cards pre-selected
    first = select(shown.view, ":pick:7:1.3.0")
    assert first.max_values == 7 and first.min_values == 0
    assert {o.value for o in first.options if o.default} == {
        str(card(c)) for c in ("7s", "7h", "9c")
    }
    refusal = drafts.check_draft(game, 0, (3, 3), d)
    assert refusal is not None and refusal.reason == "set_mixed_ranks"
    assert refusal.detail["meld"] == 1  # which meld


def test_k_m6_the_whole_contract_is_checked_before_it_is_sent() -> None:
    """Two sets of the same rank: each meld is valid, the contract is not (K-M6)."""
    game = forced_game(
        [["7s", "7h", "7d", "7c", "7s@1", "7h@1"], ["2c", "3c", "4c", "5d", "6d", "8s"]],
        pile=["Kc"],
        rules=BABY,
    )
    game.round.draw_at = game.now
    apply(game, A.Draw(0, game.now))
    state = building(game, [["7s", "7h", "7d"], ["7c", "7s@1", "7h@1"]])
    text = panels.panel(live(game), 0, "en", game.now, state=state).text
    assert text.count("✅") == 2  # each meld alone is a set
    assert "⚠️ Not yet, meld 2: you already have a set of that rank" in text


def test_k_l1_a_refused_lay_down_says_which_meld_and_why() -> None:
    game = two_sets_drawn()
    state = building(game, [["7s", "7h", "7d"], ["9c", "JK"]], refusal=(2, "set_too_short"))
    text = panels.panel(live(game), 0, "en", game.now, state=state).text
    assert "❌ Refused, meld 2: a set needs at least 3 cards" in text
    fr = panels.panel(live(game), 0, "fr", game.now, state=state).text
    assert "combinaison 2 : un brelan a au moins 3 cartes" in fr


def test_k_l1_a_valid_draft_passes_the_engine_check() -> None:
    game = two_sets_drawn()
    state = building(game, [["7s", "7h", "7d"], ["9c", "9d", "9h"]])
    d = drafts.draft(state, 1, game.round.deal_no, 2)
    assert drafts.check_draft(game, 0, (3, 3), d) is None
    assert "✅ Ready: the engine accepts this lay-down." in (
        panels.panel(live(game), 0, "en", game.now, state=state).text
    )
    melds = tuple((3, tuple(m)) for m in d.melds)
    apply(game, A.LayDown(0, melds, game.now))
    assert game.round.seats[0].laid_down


def laid_down_with(hand: list[str], melds: list[tuple[int, int, list[str]]]) -> Game:
    game = forced_game([hand, ["2c", "3c", "4c", "5d", "6d", "8s"]], pile=["Kc"], rules=BABY)
    place_melds(game, melds)
    game.round.draw_at = game.now
    apply(game, A.Draw(0, game.now))
    return game


def test_k_l4_the_lay_off_select_lists_each_place_a_card_fits() -> None:
    game = laid_down_with(
        ["9h", "4h", "Qs", "Qh"], [(0, 3, ["Ks", "Kh", "Kd"]), (1, 4, ["5h", "6h", "7h", "8h"])]
    )
    shown = panels.panel(live(game), 0, "en", game.now)
    options = select(shown.view, ":pick:7:1.2").options
    legal = [a for a in legal_actions(game, 0) if isinstance(a, A.LayOff | A.ShiftJoker)]
    assert sorted(o.value for o in options) == sorted(verbs.lay_off_value(a) for a in legal)
    texts = [o.label for o in options]
    assert "9♥ on #2 (p1)" in texts and "4♥ below #2 (p1)" in texts
    assert "K♣ on #1 (p0)" in texts  # the card drawn fits the set of kings
    for a in legal:  # each option's value is the engine's action again
        assert verbs.build_action("pick", 0, [1, 2], [verbs.lay_off_value(a)], a.at) == a
    assert "kalooki:meld:7:1" in ids(shown.view)  # K-L2: new melds once laid down


def test_k_l7_a_joker_shift_is_offered_in_the_lay_off_select() -> None:
    game = laid_down_with(
        ["6h", "2s", "Qs", "Qh"], [(0, 3, ["Ks", "Kh", "Kd"]), (1, 4, ["5h", "JK", "7h", "8h"])]
    )
    shifts = [a for a in legal_actions(game, 0) if isinstance(a, A.ShiftJoker)]
    assert shifts
    options = select(panels.panel(live(game), 0, "en", game.now).view, ":pick:7:1.2").options
    assert "6♥ for the joker of #2 (p1)" in [o.label for o in options]
    action = verbs.build_action("pick", 0, [1, 2], [verbs.lay_off_value(shifts[0])], game.now)
    assert action == shifts[0]


def test_k_l4_more_lay_offs_than_one_list_holds_are_reached_card_first() -> None:
    """A select holds 25 options: with more lay-offs the panel asks for the card first, then
    lists where that card goes; every lay-off stays reachable."""
    melds = [
        (1, 3, ["3s", "3h", "3d"]),
        (1, 3, ["4s", "4h", "4d"]),
        (1, 3, ["9s", "9h", "9d"]),
        (1, 3, ["10s", "10h", "10d"]),
        (0, 4, ["5c@1", "6c@1", "7c@1", "8c@1"]),
        (0, 4, ["5h", "6h", "7h", "8h"]),
        (0, 4, ["5s", "6s", "7s", "8s@1"]),
        (0, 3, ["Js", "Jh", "Jd"]),
    ]
    hand = ["JK", "3c@1", "3s@1", "4c@1", "4s@1", "9c", "9s@1", "10c", "10s@1", "Jc", "Js@1"]
    game = laid_down_with([*hand, "Qs", "Qh", "9h@1", "4h@1", "10d@1", "Jd@1"], melds)
    legal = [a for a in legal_actions(game, 0) if isinstance(a, A.LayOff | A.ShiftJoker)]
    assert len(legal) > verbs.MAX_OPTIONS
    table = live(game)
    shown = panels.panel(table, 0, "en", game.now)
    first = select(shown.view, ":pick:7:1.5")
    assert sorted(int(o.value) for o in first.options) == sorted({a.card for a in legal})
    assert ":pick:7:1.2" not in " ".join(ids(shown.view))  # no list cut at 25
    reached = []
    for option in first.options:
        # what picking the card does (verbs.panel_step)
        state = drafts.PanelState(drafts.Draft(1, game.round.deal_no, lay_card=int(option.value)))
        view = panels.panel(table, 0, "en", game.now, state=state).view
        assert [
            o.default for o in select(view, ":pick:7:1.5").options if o.value == option.value
        ] == [True]
        for o in select(view, ":pick:7:1.2").options:
            action = verbs.build_action("pick", 0, [1, 2], [o.value], game.now)
            assert action.card == int(option.value)
            reached.append(action)
    assert sorted(map(repr, reached)) == sorted(repr(a) for a in legal)
    assert len(shown.view.children) <= 25 and max(i.row or 0 for i in shown.view.children) <= 4


def called_game() -> Game:
    """Three players; seat 2 (not the current player, not the discarder) calls the up-card."""
    game = forced_game(
        [
            ["7s", "7h", "3d", "4d", "5s", "6s"],
            ["8c", "9c", "10c", "Jc", "Qc", "Kc"],
            ["2h", "3h", "4h", "5h", "6h", "8h"],
        ],
        pile=["Ac"],
        discard=["9s"],
        rules=BABY,
    )
    apply(game, A.Call(1, card("9s"), game.now))
    return game


def test_k_cl4_the_current_player_is_asked_to_allow_or_refuse() -> None:
    game = called_game()
    shown = panels.panel(live(game), 0, "en", game.now)
    assert "📣 **p1** calls 9♠" in shown.text
    names = labels(shown.view)
    assert "Allow (draw from the pile)" in names and "Refuse (take 9♠)" in names
    embed, _ = tables.table_message(live(game), "en", game.now)
    status = next(f.value for f in embed.fields if f.name == "Turn")
    assert "**p1** calls 9♠" in status and "**p0** allows it" in status


def test_k_cl3_the_call_button_names_the_discard_it_claims() -> None:
    game = forced_game(
        [
            ["7s", "7h", "3d", "4d", "5s", "6s"],
            ["8c", "9c", "10c", "Jc", "Qc", "Kc"],
            ["2h", "3h", "4h", "5h", "6h", "8h"],
        ],
        pile=["Ac"],
        discard=["9s"],
        rules=BABY,
    )
    _, view = tables.table_message(live(game), "en", game.now)
    assert view is not None
    assert f"kalooki:call:7:1.{card('9s')}" in ids(view)
    assert verbs.build_action("call", 1, [1, card("9s")], [], 5) == A.Call(1, card("9s"), 5)
    panel = panels.panel(live(game), 1, "en", game.now)
    assert f"kalooki:call:7:1.{card('9s')}.1" in ids(panel.view)  # from the panel: edits it


def test_the_hand_is_sorted_by_suit_or_by_rank() -> None:
    game = two_sets_drawn()
    by_suit = panels.panel(live(game), 0, "en", game.now).text
    assert "7♠ 7♥ 9♥ 9♣ K♣ 7♦ 9♦" in by_suit
    by_rank = panels.panel(live(game), 0, "en", game.now, state=drafts.toggled(None)).text
    assert "7♠ 7♥ 7♦ 9♥ 9♣ 9♦ K♣" in by_rank
    assert "kalooki:sort:7:1" in ids(panels.panel(live(game), 0, "en", game.now).view)


def test_k_s4_the_table_message_shows_melds_sizes_calls_and_no_hand() -> None:
    game = laid_down_with(
        ["9h", "4h", "Qs", "Qh"], [(0, 3, ["Ks", "Kh", "Kd"]), (1, 4, ["5h", "JK", "7h", "8h"])]
    )
    embed, view = tables.table_message(live(game), "en", game.now)
    data = json.dumps(embed.to_dict(), ensure_ascii=False)
    assert "K♠ K♥ K♦" in data and "5♥ 🃏 7♥ 8♥" in data  # melds as cards, in table order
    assert "Melds of p0" in data and "`#2` a run:" in data
    assert "**p0** · 5 cards · calls 0" in data
    assert "2 sets ·" in data and "a set, a set" not in data  # the contract, counted (K-R2)
    for secret in ("9♥", "4♥", "Q♠", "Q♥", "K♣"):  # seat 0's hand (K♣ was drawn)
        assert secret not in data
    assert view is not None and [str(getattr(i, "label", "")) for i in view.children][-1] == (
        "My hand"
    )


def test_k_p_the_round_over_message_is_the_round_standings() -> None:
    game = forced_game(
        [["7s", "7h", "7d", "9c", "9d", "9h"], ["2c", "3c", "4c", "5d", "Kd", "8s"]],
        pile=["Kc"],
        rules=BABY,
    )
    game.round.draw_at = game.now
    apply(game, A.Draw(0, game.now))
    lay = tuple((3, tuple(card(c) for c in m)) for m in (["7s", "7h", "7d"], ["9c", "9d", "9h"]))
    apply(game, A.LayDown(0, lay, game.now))
    apply(game, A.Discard(0, card("Kc"), game.now))
    assert game.round.phase == "over"
    embed, view = tables.table_message(live(game), "en", game.now)
    text = json.dumps(embed.to_dict(), ensure_ascii=False)
    assert "round 1/3 over" in text
    assert "1. **p0**" in text and "2. **p1**" in text
    assert "in one go" in text  # K-P2: doubled
    assert view is not None and ids(view) == ["kalooki:next:7:1"]


def test_a_long_hand_is_also_a_picture_with_the_cards_being_built_raised() -> None:
    hand = ["2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "Js", "Qs"]
    other = ["3c", "4c", "5c", "6c", "7c", "8c", "9c", "10c", "Jc", "Qc", "Kc"]
    game = forced_game([hand, other], pile=["Ks"], rules=BABY)
    game.round.draw_at = game.now
    apply(game, A.Draw(0, game.now))
    shown = panels.panel(live(game), 0, "en", game.now)
    assert shown.picture is not None and shown.picture.kind == "hand"
    codes = list(shown.picture.args[0])
    assert codes == [*hand, "Ks"]  # the hand's order (by suit, then rank)
    assert dict(shown.picture.options)["highlight"] == ()
    state = building(game, [["2s"], []])
    raised = dict(panels.panel(live(game), 0, "en", game.now, state=state).picture.options)  # type: ignore[union-attr]
    assert raised["highlight"] == (codes.index("2s"),)
    short = forced_game([hand[:6], other[:6]], rules=BABY)
    assert panels.panel(live(short), 0, "en", short.now).picture is None  # text is enough


def test_a_bad_select_value_is_refused() -> None:
    with pytest.raises(TableError):
        verbs.build_action("pick", 0, [1, 2], ["9.1.2"], 0)
    with pytest.raises(TableError):
        verbs.build_action("pick", 0, [1, 1], ["x"], 0)
    with pytest.raises(TableError):
        verbs.ints("1.a")


def test_every_kalooki_refusal_reason_is_translated() -> None:
    import re
    from pathlib import Path

    from bot.i18n import catalog

    root = Path(__file__).resolve().parents[3] / "tamalou" / "games" / "kalooki"
    text = "".join(p.read_text() for p in root.glob("*.py"))
    reasons = set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', text))
    assert len(reasons) > 30
    for lang in ("en", "fr"):
        assert not [r for r in reasons if f"illegal.{r}" not in catalog(lang)], lang


def test_every_kalooki_key_exists_in_both_languages() -> None:
    import re
    from pathlib import Path

    from bot.i18n import catalog

    folder = Path(__file__).resolve().parents[3] / "bot" / "games" / "kalooki"
    text = "".join(p.read_text() for p in folder.glob("*.py"))
    keys = set(re.findall(r'\bt\(\s*lang,\s*"([a-z_.0-9]+)"', text))
    keys |= {f"kalooki.kind.{k}" for k in (3, 4)}
    keys |= {f"kalooki.preset.{p}" for p in ("kalooki", "baby", "classic4")}
    assert len(keys) > 60
    for lang in ("en", "fr"):
        assert not sorted(k for k in keys if k not in catalog(lang)), lang
    assert cards.label(card("JK")) == "🃏"


def test_k_v_the_table_settings_choose_a_preset_and_its_clocks() -> None:
    from bot.games.kalooki import rules_for

    nine = rules_for({"preset": "kalooki", "turn_seconds": 60, "max_players": 6})
    assert len(nine.rounds) == 9 and nine.turn_clock_s == 60 and nine.max_players == 6
    assert nine.call_window_s == 3  # K-K2 by default
    assert len(rules_for({"preset": "baby", "call_seconds": 0}).rounds) == 3
    assert rules_for({"preset": "baby", "call_seconds": 0}).call_window_s == 0
    assert len(rules_for({"preset": "classic4"}).rounds) == 4
    with pytest.raises(KeyError):
        rules_for({"preset": "nope"})


def test_eight_players_and_a_full_table_fit_one_message() -> None:
    """Eight runs of 13 and 26 sets on the table: every meld shown, under Discord's limits."""
    from tamalou.games.kalooki.rules import KALOOKI

    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    hands = [[f"{r}c@3" for r in ranks[i : i + 1]] for i in range(8)]
    game = forced_game(hands, rules=KALOOKI)
    melds: list[tuple[int, int, list[str]]] = []
    for owner in range(8):
        suit, deck = "cdhs"[owner % 4], owner // 4
        melds.append((owner, 4, [f"{r}{suit}@{deck}" for r in ranks]))
    n = 0
    for r in ranks[1:]:
        for deck in (2, 3):
            melds.append((n % 8, 3, [f"{r}{s}@{deck}" for s in "dhs"]))
            n += 1
    place_melds(game, melds)
    embed, _ = tables.table_message(live(game), "en", game.now)
    assert len(embed) <= 6000 and len(embed.fields) <= 25
    text = json.dumps(embed.to_dict(), ensure_ascii=False)
    assert f"`#{len(melds)}`" in text  # the last meld is shown


# -- the call window on the table and in the panel (K-K2, K-CL2; issue 30) -------------------

HANDS3 = [["2c", "3d", "4h"], ["5c", "6d", "7h"], ["8c", "9d", "10h"]]


def window_game() -> Game:
    """Three players, seat 0 to draw; seat 2 dealt and "discarded" the up-card 7♠ (K-S3):
    seat 1 may call it, so the call window is open until ``draw_at``."""
    game = forced_game(HANDS3, pile=["Ah", "Ad"], discard=["7s"], first=0)
    assert game.round.draw_at > game.now
    return game


def _status(embed: discord.Embed) -> str:
    return next(f.value for f in embed.fields if f.name in ("Turn", "Tour")) or ""


def test_k_k2_the_table_says_calls_open_only_while_the_window_is() -> None:
    game = window_game()
    table = live(game)
    draw_at = game.round.draw_at
    embed, view = tables.table_message(table, "en", draw_at - 1)
    assert "drawing allowed" in _status(embed)
    by_label = {str(getattr(i, "label", "")): i for i in view.children}
    assert by_label["Draw"].disabled  # K-K2: nobody draws in the window
    embed, view = tables.table_message(table, "en", draw_at)
    status = _status(embed)
    assert "drawing allowed" not in status and "Calls open until the draw." in status
    by_label = {str(getattr(i, "label", "")): i for i in view.children}
    assert not by_label["Draw"].disabled
    fr, _ = tables.table_message(table, "fr", draw_at)
    assert "Appels ouverts jusqu'à la pioche." in _status(fr)


def test_k_k2_the_current_players_panel_in_the_window_waits_then_offers_draw() -> None:
    game = window_game()
    table = live(game)
    draw_at = game.round.draw_at
    shown = panels.panel(table, 0, "en", draw_at - 1)
    assert "Your turn: draw" not in shown.text and "may call the discard" in shown.text
    assert not any(":draw:" in i for i in ids(shown.view))
    assert shown.hide_at == draw_at  # drawn again when the window closes
    after = panels.panel(table, 0, "en", draw_at)
    assert "Your turn: draw" in after.text and any(":draw:" in i for i in ids(after.view))
    assert after.hide_at is None


def test_k_s3_the_dealer_calling_the_up_card_is_told_it_is_theirs() -> None:
    """K-S3/K-CL1: the public Call is one button for every seat; the dealer's click on the
    up-card is refused with its own reason, in both languages."""
    from bot.i18n import t
    from tamalou.core.errors import IllegalAction

    game = window_game()
    with pytest.raises(IllegalAction, match="own_upcard"):
        apply(game, A.Call(2, card("7s"), 10))
    for lang in ("en", "fr"):
        assert t(lang, "illegal.own_upcard") != "illegal.own_upcard"
    apply(game, A.Call(1, card("7s"), 10))  # another seat may


def test_a_draft_and_the_hand_order_round_trip_as_data() -> None:
    """What the panel desk stores with the table (panel_memory) gives the same state back."""
    d = drafts.Draft(2, 1, "build", ((1, 2), (3,), ()), refusal=(2, "set_too_short"))
    state = drafts.toggled(drafts.PanelState(d))
    data = json.loads(json.dumps(drafts.to_data(state)))
    assert drafts.to_data(None) is None
    back = drafts.load(data)
    assert back == state
    assert back is not None and drafts.draft(back, 2, 1, 3).melds == ((1, 2), (3,), ())
    assert drafts.sort_of(back) == "rank"
    unreadable = drafts.load({"draft": {"round_no": "x"}})  # dropped, no error
    assert unreadable is not None and unreadable.draft is None


def test_k_l4_a_joker_fitting_more_than_25_places_reaches_each_of_them() -> None:
    """A joker fits both ends of many runs: even its own list holds more than a select's 25
    options, and the options past 25 were cut. The list narrows now: a range of lay-offs
    first (a panel step), then the lay-off; every one is reached (K-L4)."""
    low, high = ["3", "4", "5", "6"], ["8", "9", "10", "J"]
    kinds = [(s, "@1", r) for s in "shdc" for r in (low, high)]  # the second deck
    kinds += [("h", "", low), ("h", "", high), ("c", "", high), ("d", "", high), ("s", "", low)]
    runs = [(0, 4, [f"{r}{s}{deck}" for r in ranks]) for s, deck, ranks in kinds]
    runs.append((0, 3, ["Ks", "Kh", "Kd"]))
    game = laid_down_with(["JK", "Qs", "Qh", "Qd"], runs)
    legal = [
        a
        for a in legal_actions(game, 0)
        if isinstance(a, A.LayOff | A.ShiftJoker) and a.card == card("JK")
    ]
    assert len(legal) > verbs.MAX_OPTIONS
    table = live(game)
    shown = panels.panel(table, 0, "en", game.now).view
    first = select(shown, ":pick:7:1.5").options
    groups = [o for o in first if o.value.startswith(f"{card('JK')}.")]
    assert len(groups) >= 2  # the joker's places, a range at a time
    assert [o.label for o in groups] == ["🃏: places 1–25", f"🃏: places 26–{len(legal)}"]
    reached = []
    for group in groups:
        lay_card, lay_group = verbs.lay_card_of(group.value)  # what verbs.panel_step does
        d = drafts.Draft(1, game.round.deal_no, lay_card=lay_card, lay_group=lay_group)
        view = panels.panel(table, 0, "en", game.now, state=drafts.PanelState(d)).view
        assert max(i.row or 0 for i in view.children) <= 4
        options = select(view, ":pick:7:1.2").options
        assert len(options) <= verbs.MAX_OPTIONS
        for o in options:
            reached.append(verbs.build_action("pick", 0, [1, 2], [o.value], game.now))
    assert sorted(map(repr, reached)) == sorted(repr(a) for a in legal)


def test_a_lay_card_value_is_a_card_and_maybe_a_range_else_bad_button() -> None:
    assert verbs.lay_card_of(verbs.lay_card_value(52)) == (52, None)
    assert verbs.lay_card_of(verbs.lay_card_value(52, 1)) == (52, 1)
    for forged in ("", "x", "1.2.3", "²", "-1"):
        with pytest.raises(TableError):
            verbs.lay_card_of(forged)


def thirty_one_cards() -> Game:
    """Seat 0 holds 30 cards (calls pile them up, K-CL) and draws a 31st: more than a
    select's 25 options."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    hand = [f"{r}h" for r in ranks] + [f"{r}c" for r in ranks] + ["As", "2s", "3s", "4s"]
    game = forced_game(
        [hand, ["2d", "3d", "4d", "5d", "6d", "8s"]], pile=["Kd"], discard=["Qd"], rules=BABY
    )
    game.round.draw_at = game.now  # past the call window
    apply(game, A.Draw(0, game.now))
    return game


def test_k_t3_every_card_of_a_hand_past_25_can_be_discarded_a_group_first() -> None:
    """Was: the discard select listed the hand's first 25 cards and cut the rest."""
    game = thirty_one_cards()
    table = live(game)
    legal = [a.card for a in legal_actions(game, 0) if isinstance(a, A.Discard)]
    assert len(legal) == 31
    reached: list[int] = []
    for group in (0, 1):
        state = drafts.PanelState(drafts.Draft(1, game.round.deal_no, card_group=group))
        shown = panels.panel(table, 0, "en", game.now, state=state).view
        assert len(shown.children) <= 25
        other = f"kalooki:cards:7:1.{1 - group}"
        assert other in ids(shown)  # the other group of the hand
        reached += [int(o.value) for o in select(shown, ":pick:7:1.1").options]
    order = sorted_hand(game.round.seats[0].hand, "suit")
    assert reached == order  # every card, in the hand's order


async def test_k_l1_a_meld_built_from_two_groups_of_a_long_hand_keeps_both(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A meld's cards picked in one group of the hand stay picked while another group is
    listed (its select lists its own cards only), in the build mode laid out by the grid."""
    from tests.bot.test_views_once import click

    game = thirty_one_cards()
    state = building(game)
    order = sorted_hand(game.round.seats[0].hand, "suit")
    first, second = order[0], order[27]  # one card of each group
    picks = [(0, first), (1, second)]
    for group, picked in picks:
        _, platform = await click(
            monkeypatch, game, 0, "pick", [1, verbs.PICK_MELD, 0, group], [str(picked)], state=state
        )
        state = platform.state
    d = drafts.draft(state, 1, game.round.deal_no, 2)
    assert d.melds[0] == (first, second)
    _, platform = await click(monkeypatch, game, 0, "cards", [1, 1], state=state)
    shown = platform.panels[0].view
    d = drafts.draft(platform.state, 1, game.round.deal_no, 2)
    assert d.card_group == 1 and "kalooki:cards:7:1.0" in ids(shown)
    meld = select(shown, ":pick:7:1.3.0.1")
    assert {int(o.value) for o in meld.options} == set(order[25:])
    assert [int(o.value) for o in meld.options if o.default] == [second]
    assert max(i.row or 0 for i in shown.children) <= 4


def test_round_9s_hand_picture_has_one_row_a_suit_in_the_panels_order() -> None:
    """A 16-card hand (round 9, K-R1) as a picture: sorted by suit as the panel's text, one
    row a suit and the jokers on their own (no suit runs over two rows); sorted by rank,
    balanced rows in that order. Only the reader's own cards: another seat's hand changes
    nothing in it."""
    from bot.ui.cards import pictures

    hand = ["Ks", "2s", "9s", "5s", "7s", "4h", "Jh", "Ah", "6h", "3d", "Qd", "8d"]
    hand += ["10c", "2c", "5c", "JK"]
    other = ["3c", "4c", "5c@1", "6c", "7c", "8c", "9c", "10c@1", "Jc", "Qc", "Kc"]
    game = forced_game([hand, other], rules=BABY)
    shown = panels.panel(live(game), 0, "en", game.now)
    picture = shown.picture
    assert picture is not None and picture.kind == "hand"
    codes = tuple(picture.args[0])
    assert list(codes) == [cards.code(c) for c in sorted_hand([card(x) for x in hand], "suit")]
    options = dict(picture.options)
    lines = pictures._grouped(codes, tuple(options["groups"]), options["per_row"])
    suits = [{c[-1] if c != "JK" else "joker" for c in ln} for ln in lines]
    assert suits == [{"s"}, {"h"}, {"c"}, {"d"}, {"joker"}]  # no suit runs over two rows
    assert [len(ln) for ln in lines] == [5, 4, 3, 3, 1]
    rendered = pictures.render_hand(codes, **options)
    one_row = pictures.render_hand(["2s"])
    row = one_row.height - 2 * pictures.MARGIN + pictures.GAP
    assert rendered.height == 5 * row - pictures.GAP + 2 * pictures.MARGIN
    by_rank = panels.panel(
        live(game), 0, "en", game.now, state=drafts.PanelState(sort="rank")
    ).picture
    assert by_rank is not None
    assert list(by_rank.args[0]) == [
        cards.code(c) for c in sorted_hand([card(x) for x in hand], "rank")
    ]
    assert "groups" not in dict(by_rank.options)  # balanced rows: 2 rows of 8
    assert (
        pictures.render_hand(by_rank.args[0]).height == 2 * row - pictures.GAP + 2 * pictures.MARGIN
    )
    swapped = forced_game([hand, ["Ks@1", *other[1:]]], rules=BABY)
    again = panels.panel(live(swapped), 0, "en", swapped.now).picture
    assert again == picture  # another seat's cards are nowhere in it
