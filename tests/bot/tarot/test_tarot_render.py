"""Tarot's table message and panels, without Discord: panels offer exactly the engine's
legal actions (DESIGN), the public message never names what T-5.3 keeps secret, and every
refusal of the engine is answered in French and English."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
import pytest
from pydantic import ValidationError

from bot import games
from bot.games.tarot import panel as panels
from bot.games.tarot import rules_for, verbs
from bot.games.tarot import table as tables
from bot.games.tarot.faces import face, label
from bot.i18n import catalog
from bot.ui.cards import (
    CardEmojis,
    code_from_emoji_name,
    codes_in_markup,
    is_code,
    read_description,
)
from bot.ui.kit import closed_message
from tamalou.core.errors import IllegalAction
from tamalou.games.tarot import actions as A
from tamalou.games.tarot.cards import DECK, code, from_code, sort_key
from tamalou.games.tarot.engine import apply, legal_actions, new_game, playable
from tamalou.games.tarot.rules import TAROT, TAROT3, TAROT5, sans_chien
from tamalou.games.tarot.scripted import forced_game
from tamalou.games.tarot.state import Game
from tamalou.games.tarot.views import public_view, view
from tests.cards.fakes import as_text, with_emojis
from tests.support.live_tables import custom_ids, live_table

ROOT = Path(__file__).resolve().parents[3]
__all__ = ["as_text", "with_emojis"]  # fixtures


def table_of(game: Game) -> Any:
    return live_table(game)


def ids(game: Game, seat: int, pending: list[str] | None = None) -> list[str]:
    return custom_ids(panels.panel(table_of(game), seat, "en", game.now, pending).view)


def selects(game: Game, seat: int, pending: list[str] | None = None) -> list[Any]:
    view = panels.panel(table_of(game), seat, "en", game.now, pending).view
    return [i for i in view.children if isinstance(i, discord.ui.Select)]


def bid_round(game: Game, bids: dict[int, int]) -> None:
    while game.deal.phase == "bid":
        seat = game.deal.current
        apply(game, A.Bid(seat, bids.get(seat, 0), game.now))


# -- cards ---------------------------------------------------------------------------------


def test_t_c1_every_card_has_its_own_face_and_name_in_both_languages() -> None:
    for lang in ("en", "fr"):
        faces = {face(code(c), lang) for c in DECK}
        assert len(faces) == 78 and all(is_code(f) for f in faces)
    for lang in ("en", "fr"):
        assert len({label(code(c), lang) for c in DECK}) == 78
    assert [label(c, "fr") for c in ("Kh", "Qs", "Cd", "Jc", "Ah", "T1", "EX")] == [
        "R♥", "D♠", "C♦", "V♣", "1♥", "Petit", "Excuse",
    ]  # fmt: skip
    assert face("Kh", "fr") == "tRh" and face("Cd", "fr") == "tCd" and face("T21", "fr") == "T21"
    assert face("Kh", "en") == "tKh" and face("Cd", "en") == "tCd" and face("Ah", "en") == "tAh"


def test_every_engine_refusal_is_answered_in_french_and_english() -> None:
    engine = (ROOT / "tamalou" / "games" / "tarot" / "engine.py").read_text()
    reasons = set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', engine))
    reasons |= set(re.findall(r'return "([a-z_]+)"', engine))
    assert {"must_follow", "must_overtrump", "ecart_king", "poignee_size"} <= reasons
    for lang in ("en", "fr"):
        strings = catalog(lang)
        missing = [r for r in reasons if f"tarot.illegal.{r}" not in strings]
        missing = [r for r in missing if f"illegal.{r}" not in strings]
        assert not missing, lang


# -- settings ------------------------------------------------------------------------------


def test_presets_and_the_sans_chien_option_at_three_players_only() -> None:
    assert rules_for({"preset": "tarot5"}).seats == 5
    assert rules_for({"preset": "tarot3", "sans_chien": True}) == sans_chien(TAROT3)
    assert rules_for({"preset": "tarot", "rounds": 3}).rounds == 3
    with pytest.raises(ValidationError):
        rules_for({"preset": "tarot", "sans_chien": True})  # ruling 10


# -- panels from the legal actions ---------------------------------------------------------


def test_t_b2_the_bid_panel_offers_exactly_the_engines_bids() -> None:
    game = forced_game([[], [], [], []])
    apply(game, A.Bid(1, 2, game.now))  # Garde
    legal = [a.contract for a in legal_actions(game, 2) if isinstance(a, A.Bid)]
    assert legal == [0, 3, 4]
    assert [i for i in ids(game, 2) if ":bid:" in i] == [f"tarot:bid:7:1.{c}" for c in legal]
    assert not [i for i in ids(game, 3) if ":bid:" in i]  # not their turn


def test_t_b5_the_ecart_select_lists_the_engines_cards_and_checks_before_sending() -> None:
    game = forced_game([["Ks", "T21", "T1", "EX"], [], [], []], dealer=3)
    bid_round(game, {0: 2})
    assert game.deal.phase == "ecart"
    (select,) = selects(game, 0)
    discardable = [a.card for a in legal_actions(game, 0) if isinstance(a, A.Discard)]
    assert [int(o.value) for o in select.options] == discardable
    assert select.max_values == len(discardable) and select.min_values == 0
    assert from_code("Ks") not in discardable and from_code("T21") not in discardable
    view = panels.panel(table_of(game), 0, "en", game.now).view
    lay = next(i for i in view.children if ":ecart:" in str(getattr(i, "custom_id", "")))
    assert isinstance(lay, discord.ui.Button) and lay.disabled  # nothing chosen yet
    chosen = [code(c) for c in discardable[:6]]
    view = panels.panel(table_of(game), 0, "en", game.now, chosen).view
    lay = next(i for i in view.children if ":ecart:" in str(getattr(i, "custom_id", "")))
    assert isinstance(lay, discord.ui.Button) and not lay.disabled
    assert lay.custom_id == "tarot:ecart:7:1." + ".".join(str(c) for c in discardable[:6])


def test_t_b5_an_ecart_with_too_many_trumps_is_flagged_before_sending() -> None:
    """Trumps are discardable when forced, but only as many as needed (T-B5)."""
    trumps = [f"T{n}" for n in range(2, 15)]
    hand = ["Ks", "Kh", "Kd", "Kc", "2s", *trumps]  # one plain suit card
    dog = ["3s", "4s", "5s", "6s", "T15", "T16"]  # four more: at most one trump
    game = forced_game([hand, [], [], []], dog=dog, dealer=3)
    bid_round(game, {0: 1})
    chosen = ["2s", "3s", "4s", "5s", "T2", "T3"]  # S = 5: one trump allowed, two chosen
    assert all(
        c in [code(a.card) for a in legal_actions(game, 0) if a.kind == "discard"] for c in chosen
    )
    shown = panels.panel(table_of(game), 0, "en", game.now, chosen)
    assert "Trumps go into the écart only" in shown.text
    lay = next(i for i in shown.view.children if ":ecart:" in str(getattr(i, "custom_id", "")))
    assert isinstance(lay, discord.ui.Button) and lay.disabled


def test_at_three_players_more_than_25_ecart_cards_are_split_into_selects() -> None:
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q"]
    hand = [f"{r}s" for r in ranks] + [f"{r}h" for r in ranks[:11]]
    dog = [f"{r}d" for r in ranks[:6]]
    game = forced_game([hand, [], []], dog=dog, rules=TAROT3, dealer=2)
    bid_round(game, {0: 1})
    discardable = [a.card for a in legal_actions(game, 0) if isinstance(a, A.Discard)]
    assert len(discardable) == 30
    groups = selects(game, 0)
    assert len(groups) == 2
    assert [int(o.value) for s in groups for o in s.options] == discardable


def test_t_p3_the_play_panel_offers_exactly_the_playable_cards() -> None:
    game = forced_game([["Ks", "2h"], ["3s", "4s", "T5"], [], []], dealer=3)
    bid_round(game, {0: 3})  # Garde sans: no écart
    apply(game, A.Chelem(0, False, game.now))
    apply(game, A.Play(0, from_code("Ks"), game.now))
    assert game.deal.current == 1
    cards = playable(game, 1)
    assert cards == [from_code("3s"), from_code("4s")]
    plays = [i for i in ids(game, 1) if ":play:" in i]
    assert plays == [f"tarot:play:7:1.{c}" for c in cards]
    assert f"tarot:play:7:1.{from_code('T5')}" not in plays  # must follow (T-P3)


def test_a_long_hand_plays_from_one_select_a_group_first() -> None:
    """26 playable cards (three players without the dog): one more than a select holds.
    Was: two selects, a row each; now a group of the cards first, then its select."""
    game = forced_game([[], [], []], rules=sans_chien(TAROT3), dealer=2)
    bid_round(game, {0: 1})
    if game.deal.phase == "chelem":
        apply(game, A.Chelem(0, False, game.now))
    assert game.deal.phase == "play" and len(playable(game, 0)) == 26
    groups = [i for i in ids(game, 0) if i.startswith("tarot:cards:7:1.")]
    assert len(groups) == 2 and selects(game, 0) == []
    reached: list[int] = []
    table = table_of(game)
    for g in groups:
        path = tuple(int(p) for p in g.rsplit(":", 1)[1].split(".")[1:])
        view = panels.panel(table, 0, "en", game.now, play_group=path).view
        menus = [i for i in view.children if isinstance(i, discord.ui.Select)]
        assert [str(m.custom_id) for m in menus] == ["tarot:pick:7:1.10"]
        assert "tarot:cards:7:1" in custom_ids(view)  # the other group
        reached += [int(o.value) for o in menus[0].options]
    assert sorted(reached) == sorted(playable(game, 0)) and len(reached) == 26
    assert reached == sorted(reached, key=lambda c: sort_key(c))  # the hand's order


def test_t_a1_t_a2_chelem_and_poignee_buttons_come_from_the_engine() -> None:
    trumps = [f"T{n}" for n in range(2, 13)]  # eleven trumps: a simple poignée at 4 (10)
    game = forced_game([trumps, [], [], []], dealer=3)
    bid_round(game, {0: 3})
    assert game.deal.phase == "chelem"
    assert [i for i in ids(game, 0) if ":chelem:" in i] == [
        "tarot:chelem:7:1.1",
        "tarot:chelem:7:1.0",
    ]
    apply(game, A.Chelem(0, False, game.now))
    options = [a for a in legal_actions(game, 0) if isinstance(a, A.Poignee)]
    assert [len(a.cards) for a in options] == [10]
    shown = panels.panel(table_of(game), 0, "en", game.now)
    assert [i for i in custom_ids(shown.view) if ":poig:" in i] == ["tarot:poig:7:1.1"]
    assert "You may show a poignée of 10" in shown.text


def test_t_5_3_the_partner_is_named_nowhere_public_before_the_called_king_falls() -> None:
    game = forced_game([["Qs"], ["Kh", "2h"], [], [], []], rules=TAROT5, dealer=4)
    bid_round(game, {0: 2})
    assert game.deal.phase == "call"
    calls = [i for i in ids(game, 0) if ":call:" in i]
    callable_ = [a.card for a in legal_actions(game, 0) if isinstance(a, A.CallKing)]
    assert calls == [f"tarot:call:7:1.{c}" for c in callable_]
    apply(game, A.CallKing(0, from_code("Kh"), game.now))
    table = table_of(game)
    embed, _ = tables.table_message(table, "en", game.now)
    text = str(embed.to_dict())
    assert "partner still secret" in text and "partner: **p1**" not in text
    assert "you play with p0" in panels.panel(table, 1, "en", game.now).text.lower()
    for seat in (2, 3, 4):
        assert "called card" not in panels.panel(table, seat, "en", game.now).text.lower()


def test_t_a2_the_player_chooses_which_trumps_to_show_and_the_engine_judges() -> None:
    trumps = [f"T{n}" for n in range(2, 13)]  # eleven trumps and the Excuse
    game = forced_game([[*trumps, "EX"], [], [], []], dealer=3)
    bid_round(game, {0: 3})
    apply(game, A.Chelem(0, False, game.now))
    menu = next(s for s in selects(game, 0) if str(s.custom_id) == "tarot:pick:7:1.20")
    assert [o.value for o in menu.options] == [str(from_code(c)) for c in [*trumps, "EX"]]
    assert (menu.min_values, menu.max_values) == (10, 10)  # a simple poignée only (10 of 12)
    highest = [str(from_code(c)) for c in trumps[1:]]  # hide the T2, show T3…T12
    action = verbs.build_action("pick", 0, [1, verbs.PICK_POIGNEE], highest, game.now)
    assert isinstance(action, A.Poignee)
    apply(game, action)
    assert game.deal.seats[0].poignee == 1
    assert code(game.deal.seats[0].poignee_cards[0]) == "T3"
    wrong = verbs.build_action("pick", 1, [1, verbs.PICK_POIGNEE], highest[:3], game.now)
    with pytest.raises(IllegalAction):
        apply(game, wrong)  # not bob's turn, and not his trumps: the engine refuses


def test_the_rules_and_the_commands_read_in_french_and_english() -> None:
    for lang in ("en", "fr"):
        text = catalog(lang)["tarot.rules.text"]
        assert len(text) <= 2000 and "56" in text and "36" in text  # T-E2 thresholds
    fr = catalog("fr")
    assert (fr["cmd.tarot"], fr["optname.tarot_preset"], fr["optname.tarot_rounds"]) == (
        "tarot",
        "variante",
        "tours",
    )
    assert [label(c, "fr") for c in ("T21", "Cs")] == ["A21", "C♠"]  # atout, Cavalier


@pytest.mark.parametrize(
    ("game", "lang", "title"),
    [
        ("tarot", "en", "Tarot — table 7 is closed"),
        ("tarot", "fr", "Tarot — la table 7 est fermée"),
        ("tamalou", "fr", "Tamalou — la table 7 est fermée"),
        ("kalooki", "en", "Kalooki — table 7 is closed"),
    ],
)
def test_the_closed_title_names_the_tables_game(game: str, lang: str, title: str) -> None:
    embed = closed_message(7, lang, "cancelled", games.display_name(game, lang))
    assert embed.title == title


# -- cards as emojis and pictures (issue 14) ------------------------------------------------


def first_trick_game() -> Game:
    """Seat 0 led the King of spades, seat 1 follows with the 3: a trick in progress."""
    game = forced_game([["Ks", "2h"], ["3s", "4s", "T5"], [], []], dealer=3)
    bid_round(game, {0: 3})  # Garde sans: no écart
    apply(game, A.Chelem(0, False, game.now))
    apply(game, A.Play(0, from_code("Ks"), game.now))
    apply(game, A.Play(1, from_code("3s"), game.now))
    return game


def test_with_emojis_the_table_and_the_panel_show_cards_as_emojis(
    with_emojis: CardEmojis,
) -> None:
    game = first_trick_game()
    table = table_of(game)
    embed, _ = tables.table_message(table, "en", game.now)
    trick = next(f for f in embed.fields if f.name.startswith("Trick"))
    assert codes_in_markup(trick.value) == ["tKs", "t3s"]  # the trick's cards as emojis (English)
    assert "`" not in trick.value
    shown = panels.panel(table, 2, "en", game.now)
    hand = [face(c, "en") for c in view(game, 2, game.now).hand]
    assert codes_in_markup(shown.text) == hand
    plays = [i for i in shown.view.children if ":play:" in str(getattr(i, "custom_id", ""))]
    assert plays and all(
        isinstance(b, discord.ui.Button) and b.emoji is not None and b.label for b in plays
    )  # the card's emoji on the button, its name as the label (screen readers)
    names = {code_from_emoji_name(b.emoji.name) for b in plays if isinstance(b, discord.ui.Button)}
    assert names == {face(code(c), "en") for c in playable(game, 2)}


def test_as_text_the_cards_keep_their_names(as_text: None) -> None:
    game = first_trick_game()
    table = table_of(game)
    embed, _ = tables.table_message(table, "en", game.now)
    trick = next(f for f in embed.fields if f.name.startswith("Trick"))
    assert "`K♠`" in trick.value and "`3♠`" in trick.value
    shown = panels.panel(table, 2, "en", game.now)
    assert codes_in_markup(shown.text) == []
    assert all(
        getattr(i, "emoji", None) is None for i in shown.view.children
    )  # no emoji: the text labels only


def test_the_panel_carries_the_readers_hand_as_a_picture_and_only_it(as_text: None) -> None:
    game = first_trick_game()
    table = table_of(game)
    for seat in range(4):
        picture = panels.panel(table, seat, "en", game.now).picture
        hand = [face(c, "en") for c in view(game, seat, game.now).hand]  # as the panel sorts it
        assert sorted(hand) == sorted(face(code(c), "en") for c in game.deal.seats[seat].hand)
        assert picture is not None and picture.kind == "hand"
        assert list(picture.args[0]) == hand


def test_the_ecart_chosen_so_far_is_raised_in_the_hand_picture(as_text: None) -> None:
    game = forced_game([[], [], [], []], dealer=3)
    bid_round(game, {0: 1})
    assert game.deal.phase == "ecart"
    pv_hand = view(game, 0, game.now).hand
    chosen = [c for c in pv_hand if not c.startswith("T") and c[0] not in "K"][:2]
    picture = panels.panel(table_of(game), 0, "en", game.now, chosen).picture
    assert picture is not None
    raised = dict(picture.options)["highlight"]
    assert [pv_hand[i] for i in raised] == chosen


async def test_the_table_pictures_the_trick_in_progress_then_the_last_trick() -> None:
    game = first_trick_game()
    table = table_of(game)
    picture = tables.table_picture(table, "en", game.now)
    assert picture is not None and picture.kind == "trick"
    assert [p[1] for p in picture.args[0]] == ["tKs", "t3s"]
    assert dict(picture.options)["winner"] is None
    embed, _ = tables.table_message(table, "en", game.now)
    assert embed.image.url == picture.url
    for seat in (2, 3):  # the trick is completed: the picture keeps it, its winner framed
        card = playable(game, seat)[0]
        apply(game, A.Play(seat, card, game.now))
    done = tables.table_picture(table, "en", game.now)
    assert done is not None and len(done.args[0]) == 4
    won = game.deal.tricks[0].winner
    assert dict(done.options)["winner"] == game.deal.tricks[0].players.index(won)
    described = read_description((await done.render()).png)
    assert described is not None
    assert sorted(described["faces"]) == sorted(p[1] for p in done.args[0])


def test_no_trick_picture_before_the_play(as_text: None) -> None:
    game = forced_game([[], [], [], []], dealer=3)
    assert tables.table_picture(table_of(game), "en", game.now) is None


def test_a_panel_too_long_with_emojis_names_its_cards_instead(with_emojis: CardEmojis) -> None:
    """Three players, every trump in one hand: the hand and the three poignées offered
    (13, 15, 18 trumps, T-A2) as emojis would pass a message's 2000 characters; the panel
    names the cards instead, whole, and the buttons keep their emojis."""
    trumps = [f"T{n}" for n in range(1, 22)]
    game = forced_game([[*trumps, "EX", "Ks", "Kh"], [], []], rules=sans_chien(TAROT3), dealer=2)
    bid_round(game, {0: 1})
    if game.deal.phase == "chelem":
        apply(game, A.Chelem(0, False, game.now))
    assert game.deal.phase == "play" and game.deal.current == 0
    table = table_of(game)
    shown = panels.panel(table, 0, "en", game.now)
    assert len(shown.text) <= 2000
    assert "You may show a poignée of 18" in shown.text  # nothing cut off
    assert codes_in_markup(shown.text) == [] and "`T21`" in shown.text
    options = [o for i in shown.view.children for o in getattr(i, "options", [])]
    assert options and all(o.emoji is not None for o in options)  # the selects keep emojis
    short = panels.panel(table, 1, "en", game.now)  # a panel that fits keeps its emojis
    assert codes_in_markup(short.text)


def test_the_events_keep_whole_lines() -> None:
    lines = ["a" * 600, "b" * 600, "c" * 300]
    assert tables.last_lines(lines, 1024) == "b" * 600 + "\n" + "c" * 300
    assert tables.last_lines(["x" * 2000], 1024) == "x" * 1024


# -- the deal's end shows its last trick (issue 30) ----------------------------------------


def _played_out() -> Game:
    game = first_trick_game()
    while game.deal.phase == "play":
        p = game.deal.current
        apply(game, A.Play(p, playable(game, p)[0], game.now))
    return game


def test_the_deal_over_message_shows_the_last_trick_and_its_winner(as_text: None) -> None:
    """The deal-over message replaces the table as the 18th trick's last card falls: it shows
    that trick (cards, winner) as a field and as the picture."""
    game = _played_out()
    table = table_of(game)
    pv = public_view(game, game.now)
    assert pv.phase == "over" and pv.last_deal is not None
    last = pv.tricks[-1]
    embed, _ = tables.table_message(table, "en", game.now)
    field = next(f for f in embed.fields if f.name == "Last trick (18)")
    assert field.value is not None and field.value.count(" → ") == 3 and "🏆" in field.value
    for _, card in last.plays:
        assert label(card, "en") in field.value
    assert embed.image.url == tables.trick_picture(table, pv, "en").url  # type: ignore[union-attr]
    fr, _ = tables.table_message(table, "fr", game.now)
    assert any(f.name == "Dernier pli (18)" for f in fr.fields)


def test_the_last_trick_names_the_petit_au_bout(as_text: None) -> None:
    """T-E3: a Petit au bout is named on the last trick it was played in."""
    game = _played_out()
    table = table_of(game)
    pv = public_view(game, game.now)
    assert pv.last_deal is not None
    last = pv.tricks[-1]
    plays = [(last.plays[0][0], "T1"), *last.plays[1:]]
    pv = pv.model_copy(
        update={
            "tricks": [*pv.tricks[:-1], last.model_copy(update={"plays": plays})],
            "last_deal": pv.last_deal.model_copy(update={"petit_au_bout": 1}),
        }
    )
    embed, _ = tables.deal_over_message(table, pv, "en")
    field = next(f for f in embed.fields if f.name == "Last trick (18)")
    assert field.value is not None and field.value.endswith("· Petit au bout")
    assert "Next deal starts" in [f.name for f in embed.fields]


def test_the_dealer_is_not_marked_with_the_excuses_glyph() -> None:
    game = first_trick_game()
    table = table_of(game)
    pv = public_view(game, game.now)
    dealer = tables.seat_line(table, pv, pv.dealer, "en")
    assert "🃏" not in dealer and tables.DEALER in dealer
    assert tables.DEALER not in tables.seat_line(table, pv, (pv.dealer + 1) % 4, "en")


def test_pictures_emoji_names_and_alt_text_follow_the_readers_language(
    with_emojis: CardEmojis,
) -> None:
    """An English reader sees K♠ where a French one sees R♠: in the pictures (the faces
    drawn), the emojis (their names) and the pictures' alt text. The public table message is
    drawn in the language it is rendered in (the server's)."""
    from bot.ui.cards import emoji_name, render_trick

    game = first_trick_game()
    table = table_of(game)
    pv = public_view(game, game.now)
    for lang, king, shown in (("en", "tKs", "K♠"), ("fr", "tRs", "R♠")):
        picture = tables.trick_picture(table, pv, lang)
        assert picture is not None and [p[1] for p in picture.args[0]] == [king, "t3s"]
        assert render_trick(list(picture.args[0])).alt_text.split(" | ")[0].endswith(shown)
        embed, _ = tables.table_message(table, lang, game.now)
        trick = next(f for f in embed.fields if f.name.startswith(("Trick", "Pli")))
        assert f":{emoji_name(king)}:" in (trick.value or "")
        hand = panels.panel(table, 0, lang, game.now).picture
        own = {face(x, lang) for x in view(game, 0).hand}
        assert hand is not None and set(hand.args[0]) == own
    queen = face("Qh", "en")
    assert queen == "tQh" and label("Qh", "en") == "Q♥" and face("Qh", "fr") == "tDh"


async def test_a_french_readers_alt_text_names_trumps_as_the_text_does() -> None:
    """The pictures' alt text came from the face codes, which do not carry the reader's
    language: a French screen reader read "T5" where the panel's text says "A5". The game
    gives its own words (``CardPicture.alt``), in the reader's language."""
    game = first_trick_game()
    table = table_of(game)
    for lang, trump in (("fr", "A5"), ("en", "T5")):
        hand = panels.panel(table, 1, lang, game.now).picture
        assert hand is not None and hand.alt is not None
        assert hand.alt.split() == [label(c, lang) for c in view(game, 1).hand]
        assert trump in hand.alt.split()
        assert (await hand.file()).description == hand.alt
    apply(game, A.Play(2, playable(game, 2)[0], game.now))
    pv = public_view(game, game.now)
    trick = tables.trick_picture(table, pv, "fr")
    assert trick is not None and trick.alt is not None
    played = [label(c, "fr") for _, c in pv.trick.plays]  # type: ignore[union-attr]
    assert [part.split(": ")[1] for part in trick.alt.split(" | ")] == played
    assert trick.key != tables.trick_picture(table, pv, "en").key  # type: ignore[union-attr]


def test_card_buttons_and_the_ecart_select_follow_the_hands_sorted_order() -> None:
    """Issue 21: the 17 (or 18) card buttons and the écart select came in deal order while
    the panel's text and picture show the hand sorted (suits, trumps, the Excuse)."""
    game, _ = new_game(TAROT, 4, "sorted", 0)
    taker = game.deal.current
    bid_round(game, {taker: 2})
    assert game.deal.phase == "ecart" and game.deal.taker == taker
    (select,) = selects(game, taker)
    chosen = [int(o.value) for o in select.options]
    assert chosen == sorted(chosen, key=sort_key)
    game, _ = new_game(TAROT, 4, "sorted", 0)
    bid_round(game, {taker: 3})  # Garde sans: no écart
    if game.deal.phase == "chelem":
        apply(game, A.Chelem(taker, False, game.now))
    seat = game.deal.current
    plays = [int(i.rsplit(".", 1)[1]) for i in ids(game, seat) if ":play:" in i]
    hand = game.deal.seats[seat].hand
    assert len(plays) == len(hand) and hand != sorted(hand, key=sort_key)  # dealt unsorted
    assert plays == sorted(hand, key=sort_key)


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "the match is over"), ("fr", "la partie est terminée")]
)
def test_t_m1_a_panel_after_the_match_says_it_is_over_not_deal_4_of_3(lang: str, said: str) -> None:
    """T-M1: after the last deal a member's panel read "deal 4/3"."""
    import random

    from tamalou.core.drivers import random_playout
    from tamalou.games import load

    game, _ = new_game(TAROT3, 3, "over", 0)
    random_playout(load("tarot"), game, 3, random.Random(4))
    assert game.over
    text = panels.panel(table_of(game), 0, lang, game.now, None).text
    assert said in text.splitlines()[0] and "4/3" not in text


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "Previous trick (1)"), ("fr", "Pli précédent (1)")]
)
def test_the_previous_trick_and_its_taker_stay_readable_after_the_next_lead(
    as_text: None, lang: str, said: str
) -> None:
    game = first_trick_game()
    table = table_of(game)
    for seat in (2, 3):
        apply(game, A.Play(seat, playable(game, seat)[0], game.now))
    embed, _ = tables.table_message(table, lang, game.now)
    assert not any(f.name == said for f in embed.fields)  # the trick field still shows it
    won = game.deal.tricks[0].winner
    lead = playable(game, won)[0]
    apply(game, A.Play(won, lead, game.now))
    embed, _ = tables.table_message(table, lang, game.now)
    previous = next(f for f in embed.fields if f.name == said)
    winner_name = tables.name_of(table, won, lang)
    assert f"🏆 {winner_name}" in previous.value
    for card in game.deal.tricks[0].cards:
        assert f"`{label(code(card), lang)}`" in previous.value


def test_the_hand_picture_has_one_row_a_suit_and_the_trumps_in_two_when_long(
    as_text: None,
) -> None:
    from bot.ui.cards import pictures

    hand = ["2s", "3s", "Ks", "4h", "5h", "6h", *(f"T{n}" for n in range(1, 18)), "EX"]
    picture = panels.hand_picture(hand, "en")
    assert picture is not None
    options = dict(picture.options)
    lines = pictures._grouped(tuple(picture.args[0]), tuple(options["groups"]), options["per_row"])
    suits = [{"T" if c[0] == "T" or c == "EX" else c[-1] for c in ln} for ln in lines]
    assert suits == [{"s"}, {"h"}, {"T"}, {"T"}]  # no suit runs over two rows
    assert [len(ln) for ln in lines] == [3, 3, 9, 9]
    rendered = pictures.render_hand(picture.args[0], **options)
    one_row = pictures.render_hand(["t2s"])
    row = one_row.height - 2 * pictures.MARGIN + pictures.GAP
    assert rendered.height == 4 * row - pictures.GAP + 2 * pictures.MARGIN


def test_a_servers_tarot_turn_time_sets_bids_the_call_and_cards_and_three_times_the_ecart() -> None:
    """``/cardsadmin tarot turn_seconds:`` reaches a table's rules; none keeps the game's."""
    own = rules_for({"preset": "tarot"})
    assert (own.bid_ms, own.play_ms, own.ecart_ms) == (30_000, 30_000, 90_000)
    rules = rules_for({"preset": "tarot", "turn_seconds": 45})
    assert (rules.bid_ms, rules.call_ms, rules.play_ms) == (45_000, 45_000, 45_000)
    assert rules.ecart_ms == 135_000
