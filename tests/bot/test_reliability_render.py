"""Issue 10, what the table message and the panels say (no Discord connection): the
match-over ranking (R-M3), a failed call's reveal hidden on time (R-A4), words a person
would say."""

from __future__ import annotations

from bot.games.tamalou import panel as panels
from bot.games.tamalou import table as tables
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import apply, display_moments
from tamalou.games.tamalou.scripted import forced_game
from tamalou.games.tamalou.state import Game, RoundResult
from tamalou.games.tamalou.views import public_view
from tests.support.live_tables import custom_ids, live_table

ROWS = [["2h", "3h", "4h", "5h"], ["2s", "3s", "4s", "5s"], ["2d", "3d", "4d", "5d"]]


def finished_match(cumulative: list[float], round_places: list[int]) -> Game:
    """A match whose last round ranked ``round_places`` and whose totals are ``cumulative``."""
    game = forced_game(ROWS)
    n = game.players
    game.cumulative = list(cumulative)
    game.history.append(
        RoundResult(
            round_no=1,
            reason="called",
            hands=[[None] * 4 for _ in range(n)],
            totals=[0.0] * n,
            places=round_places,
            scores=[0.0] * n,
            caller=None,
            first_player=0,
        )
    )
    game.round.phase = "over"
    game.over = True
    game.winners = [i for i, c in enumerate(cumulative) if c == min(cumulative)]
    return game


def lines_of(game: Game) -> list[str]:
    embed, _ = tables.table_message(live_table(game), "en", game.now)
    return (embed.description or "").splitlines()


def test_r_m3_the_match_over_message_ranks_by_the_match_not_the_last_round() -> None:
    # p0 won the last round but lost the match (was "2. bob (106), 3. alice (93)")
    game = finished_match([106, 93, 40], round_places=[1, 2, 3])
    lines = lines_of(game)
    assert [line.split("**")[1] for line in lines] == ["p2", "p1", "p0"]
    assert [line.split(".")[0] for line in lines] == ["1", "2", "3"]


def test_r_m3_players_tied_on_the_match_total_share_a_place() -> None:
    game = finished_match([50, 50, 80], round_places=[2, 1, 3])
    lines = lines_of(game)
    assert [line.split(".")[0] for line in lines] == ["1", "1", "3"]
    assert [line.split("**")[1] for line in lines] == ["p0", "p1", "p2"]


def test_r_e3_a_round_over_message_mid_match_still_ranks_by_the_round() -> None:
    game = finished_match([106, 93, 40], round_places=[1, 2, 3])
    game.over = False
    game.winners = []
    lines = lines_of(game)
    assert [line.split("**")[1] for line in lines] == ["p0", "p1", "p2"]


# -- R-A4: a failed call's reveal ends on time, in public and in the caller's panel ------------


def wrong_call() -> tuple[Game, int, list[E.Event]]:
    """p0 (2h 3h 4h 5h = 14) calls Tamalou: wrong (R-A4); the reveal's end and the events."""
    game = forced_game(ROWS, pile=["9c", "9d"], discard=["8c"])
    events = apply(game, A.CallTamalou(0, game.now))
    (called,) = [e for e in events if e.kind == "called"]
    assert called.reveal_until is not None
    return game, called.reveal_until, events


def test_r_a4_the_end_of_a_failed_calls_reveal_is_a_display_moment() -> None:
    game, until, _ = wrong_call()
    assert until in display_moments(game)


def test_r_a4_the_table_message_hides_the_callers_cards_when_the_reveal_ends() -> None:
    game, until, events = wrong_call()
    table = live_table(game)
    table.recent.extend(events)
    shown, _ = tables.table_message(table, "en", until - 1)
    hidden, _ = tables.table_message(table, "en", until)
    assert "`2♥`" in (shown.description or "")
    text = (hidden.description or "") + " ".join(str(f.value) for f in hidden.fields)
    assert "2♥" not in text and "5♥" not in text


def test_r_a4_the_callers_own_panel_hides_the_revealed_cards_when_the_reveal_ends() -> None:
    game, until, _ = wrong_call()
    table = live_table(game)
    during = panels.panel(table, 0, "en", until - 1)
    assert during.hide_at == until
    assert "**2♥**" in during.text
    after = panels.panel(table, 0, "en", until)
    assert after.hide_at is None and "2♥" not in after.text


# -- R-A2: a right call, in public; R-K1: the fuse, drawn at its moment ------------------------

RIGHT = [["Ah", "2h", "Ac", "10c"], ["9s", "9h", "8s", "7s"]]  # p0: 4 points, a right call


def fields_of(table: object, at: int) -> str:
    embed, _ = tables.table_message(table, "en", at)  # type: ignore[arg-type]
    return (embed.description or "") + "\n" + "\n".join(str(f.value) for f in embed.fields)


def test_r_a2_a_right_call_shows_the_callers_cards_to_everyone_and_locks_them() -> None:
    game = forced_game(RIGHT, pile=["9c", "Kd"], discard=["8c"])
    events = apply(game, A.CallTamalou(0, game.now))
    table = live_table(game)
    table.recent.extend(events)
    text = fields_of(table, game.now)
    assert "p0 called Tamalou! Right" in text and "one last turn" in text
    caller = text.splitlines()[0]
    assert all(f"`{c}`" in caller for c in ("A♥", "2♥", "A♣", "10♣")) and "🔒" in caller
    assert "9♠" not in text  # the others' cards stay hidden


def test_r_k1_the_fuse_is_drawn_at_its_moment_15_s_before_the_turn_runs_out() -> None:
    """The fuse's start is a display moment (the scheduler redraws the table then)."""
    game = forced_game(RIGHT, pile=["9c", "Kd"], discard=["8c"])
    fuse = game.round.turn_deadline - game.rules.fuse_ms
    assert fuse in display_moments(game)
    table = live_table(game)
    assert "fuse is burning" not in fields_of(table, fuse - 1)
    assert "fuse is burning" in fields_of(table, fuse)


# -- what players noticed: each reads as a person would say it, or does not show ------------


def table_ids(game: Game) -> list[str]:
    _, view = tables.table_message(live_table(game), "en", game.now)
    return custom_ids(view)


def test_an_empty_discard_offers_no_take_button() -> None:
    """Was a disabled "Take —"."""
    game = forced_game(ROWS)
    assert game.round.discard == []
    _, view = tables.table_message(live_table(game), "en", game.now)
    labels = [str(getattr(i, "label", "")) for i in view.children]
    assert not [x for x in labels if x.startswith("Take")]
    assert not [i for i in custom_ids(view) if ":dbl:" in i]  # nothing to double either


def test_r_s2_the_peek_phase_shows_no_rows_of_disabled_double_buttons() -> None:
    game = forced_game(ROWS, discard=["9c"], play=False)
    assert game.round.phase == "peek"
    assert not [i for i in table_ids(game) if ":dbl:" in i]
    played = forced_game(ROWS, discard=["9c"])
    assert [i for i in table_ids(played) if ":dbl:" in i]  # R-D1: in play they are there


def test_r_k1_a_short_15_s_turn_is_not_all_fuse() -> None:
    """R-K3's 15 s turns showed the fuse (R-K1's last 15 s) for the whole turn."""
    game = forced_game(ROWS, discard=["9c"])
    r = game.round
    r.turn_started, r.turn_deadline = game.now, game.now + 15_000
    assert not public_view(game, game.now).fuse
    assert not public_view(game, game.now + 9_999).fuse
    assert public_view(game, game.now + 10_000).fuse
    r.turn_deadline = game.now + 45_000  # a whole turn: its last 15 s, as before
    assert not public_view(game, game.now + 29_999).fuse
    assert public_view(game, game.now + 30_000).fuse


def test_r_p3_a_look_at_your_own_card_says_your_card() -> None:
    """Was "p0's card 2 is 3♥" said to p0 himself."""
    game = forced_game(ROWS, pile=["Kc"], discard=["9c"])
    apply(game, A.Draw(0, game.now))
    apply(game, A.Throw(0, game.now))
    apply(game, A.Look(0, 0, 2, game.now))
    text = panels.panel(live_table(game), 0, "en", game.now).text
    assert "Your card 2 is **3♥**" in text and "p0's card" not in text


def test_r_k4_a_player_who_went_away_is_shown_away_on_the_table_message() -> None:
    game = forced_game(ROWS, discard=["9c"])
    game.round.seats[1].away = True
    embed, _ = tables.table_message(live_table(game), "en", game.now)
    (line,) = [x for x in (embed.description or "").splitlines() if "**p1**" in x]
    assert "away" in line
