"""Tamalou shows cards as cards (issue 14): its table message, panels and buttons use the
card emojis once the bot has them, the end-of-round reveal and a known row are pictures,
and without emojis every card is text as before. No face a reader may not see reaches the
markup or a picture (R-S1: hidden cards are backs; R-S2: the peek; R-E1: the reveal)."""

from __future__ import annotations

from typing import Any

from bot.games.tamalou import panel as panels
from bot.games.tamalou import table as tables
from bot.ui.cards import BACK, CardEmojis, codes_in_markup, emoji_name
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou.engine import apply, next_deadline
from tamalou.games.tamalou.scripted import forced_game
from tamalou.games.tamalou.state import Game
from tamalou.games.tamalou.views import public_view
from tests.cards.fakes import as_text, with_emojis
from tests.support.live_tables import live_table

__all__ = ["as_text", "with_emojis"]  # fixtures

ROWS = [["2h", "3h", "4h", "5h"], ["2s", "3s", "4s", "5s"], ["2d", "3d", "4d", "5d"]]


def table_text(game: Game) -> tuple[str, Any]:
    embed, view = tables.table_message(live_table(game), "en", game.now)
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts), view


def take_button(view: Any) -> Any:
    return next(i for i in view.children if ":take:" in str(getattr(i, "custom_id", "")))


def round_over() -> Game:
    game = forced_game(ROWS, pile=["9h"], discard=["9c"])
    apply(game, A.CallTamalou(0, game.now))
    while game.round.phase != "over":
        due = next_deadline(game)
        assert due is not None
        apply(game, A.Tick(due))
    return game


def test_r_s1_the_table_shows_backs_and_the_discard_as_emojis(with_emojis: CardEmojis) -> None:
    game = forced_game(ROWS, pile=["9h"], discard=["9c"])
    text, view = table_text(game)
    shown = codes_in_markup(text)
    assert shown.count(BACK) == 12  # every card in a row is hidden (R-S1)
    assert set(shown) == {BACK, "9c"}  # the discard's top is the only face
    take = take_button(view)
    assert take.emoji is not None and take.emoji.name == emoji_name("9c")
    assert take.label == "Take"


def test_without_emojis_the_table_is_text(as_text: None) -> None:
    game = forced_game(ROWS, pile=["9h"], discard=["9c"])
    text, view = table_text(game)
    assert codes_in_markup(text) == [] and "🂠" in text and "9♣" in text
    assert take_button(view).label == "Take 9♣" and take_button(view).emoji is None


def test_events_show_the_thrown_card_as_its_emoji(with_emojis: CardEmojis) -> None:
    game = forced_game(ROWS, pile=["Jh"], discard=["9c"])
    table = live_table(game)
    events = apply(game, A.Draw(0, game.now)) + apply(game, A.Throw(0, game.now))
    lines = [line for e in events if (line := tables.event_line(table, e, "en"))]
    assert "Jh" in codes_in_markup("\n".join(lines))


def test_r_s2_the_peek_shows_the_two_cards_as_emojis_and_a_picture(
    with_emojis: CardEmojis,
) -> None:
    game = forced_game(ROWS, play=False)
    apply(game, A.Peek(0, game.now))
    shown = panels.panel(live_table(game), 0, "en", game.now)
    assert sorted(codes_in_markup(shown.text)) == sorted(["2h", "5h", BACK, BACK])
    assert shown.picture is not None and shown.picture.kind == "hand"
    (codes,) = shown.picture.args
    assert codes == ("2h", BACK, BACK, "5h")  # slots 1 and 4 (R-S2), the others backs
    assert dict(shown.picture.options)["captions"] == ("1", "2", "3", "4")
    # the peek is over: the panel shows backs, and no picture
    hidden = panels.panel(live_table(game), 0, "en", shown.hide_at or 0)
    assert set(codes_in_markup(hidden.text)) == {BACK} and hidden.picture is None


def test_the_peek_without_emojis_is_text_with_the_picture(as_text: None) -> None:
    game = forced_game(ROWS, play=False)
    apply(game, A.Peek(0, game.now))
    shown = panels.panel(live_table(game), 0, "en", game.now)
    assert "**2♥**" in shown.text and "**5♥**" in shown.text and "<:" not in shown.text
    assert shown.picture is not None  # pictures need no emoji upload


async def test_r_e1_the_reveal_is_a_picture_of_every_row(with_emojis: CardEmojis) -> None:
    game = round_over()
    table = live_table(game)
    picture = tables.table_picture(table, "en", game.now)
    assert picture is not None and picture.kind == "table"
    result = await picture.render()
    last = public_view(game, game.now).last_round
    assert last is not None
    hands = sorted(c for hand in last.hands for c in hand if c)
    assert len(hands) >= 12 and sorted(result.faces) == hands
    assert result.description["rows"][0]["label"].startswith("1. ")
    embed, _ = tables.table_message(table, "en", game.now)
    assert embed.image.url == picture.url
    assert sorted(codes_in_markup(embed.description or "")) == hands


def test_no_picture_on_the_table_before_the_round_is_over(with_emojis: CardEmojis) -> None:
    game = forced_game(ROWS, pile=["9h"], discard=["9c"])
    assert tables.table_picture(live_table(game), "en", game.now) is None
    embed, _ = tables.table_message(live_table(game), "en", game.now)
    assert embed.image.url is None
