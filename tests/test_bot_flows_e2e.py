"""End to end, every flow a player sees: powers, discard, doubles, rounds, refusals, commands.

The real bot process and discord.py against the Discord emulator, several simulated
members, deals scripted by the match seed (``find_seed``) and the game rebuilt from the
bot's own log as the oracle (``h.game()``). Members: alice (en-US, Manage Server), bob and
carol (French: their ephemerals and panel buttons are French), dave (en-GB), erin (en-US).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from emulator import CommandNotAvailableError, Emulator
from tamalou.core import cards
from tamalou.games.tamalou.rules import TAMALOU
from tamalou.games.tamalou.state import Game
from tests.support.bot_harness import (
    BotHarness,
    find_seed,
    forged_click,
    label,
    open_table,
    peek_all,
)
from tests.support.shared_bot import SharedBot

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

FACES = ("J", "Q", "K")


@pytest_asyncio.fixture(loop_scope="module")
async def harness(shared_bot: SharedBot) -> AsyncIterator[BotHarness]:
    """A guild of its own on the bot the module's tests share."""
    async with shared_bot.scene() as h:
        yield h


# -- helpers --------------------------------------------------------------------------------


def rank(card: int | None) -> str:
    assert card is not None
    return cards.rank(card)


def total(row: list[int | None]) -> float:
    value = TAMALOU.compiled.value
    return sum(value[c] for c in row if c is not None)


def deal(seed: str, round_no: int, players: int) -> tuple[list[list[int]], list[int]]:
    """The rows and pile of a later round of ``seed`` (as the engine deals it)."""
    rng = random.Random(f"{seed}:{round_no}:deal")
    deck = list(TAMALOU.compiled.deck)
    rng.shuffle(deck)
    k = TAMALOU.cards_per_player
    return [deck[i * k : (i + 1) * k] for i in range(players)], deck[players * k :]


def h_rows(seed: str, players: int = 2) -> list[list[int]]:
    return deal(seed, 1, players)[0]


def table_id(h: BotHarness) -> int:
    return h.table_id()


def public_text(emu: Emulator) -> str:
    return "\n".join(m.text for m in emu.channel_messages())


# -- powers (R-P) ---------------------------------------------------------------------------


@pytest.mark.one_backend
async def test_r_p1_jack_play_again_is_a_pile_only_extra_turn(harness: BotHarness) -> None:
    """R-P1, R-T5: a thrown Jack offers "Play again"; the extra turn draws from the pile only."""
    h, emu = harness, harness.emu
    seed = find_seed(
        2,
        lambda g: (
            g.round.first_player == 0
            and rank(g.round.pile[-1]) == "J"
            and rank(g.round.pile[-2]) not in FACES
        ),
    )
    await h.start(seeds=[seed])
    await open_table(h, ["alice", "bob"])
    await peek_all(h, ["alice", "bob"])
    game = h.game()
    jack, second = game.round.pile[-1], game.round.pile[-2]
    tid = table_id(h)
    await emu.click("alice", h.table_message(), "Draw")
    await emu.click("alice", h.panel("alice"), "Throw it")
    panel = emu.last_ephemeral("alice")
    assert "Jack: play a whole new turn" in panel.content
    assert {b.label for b in panel.buttons()} == {"Play again (Jack)", "Pass"}
    assert "may use the Jack (play again)" in h.table_message().text
    await emu.click("alice", panel, "Play again (Jack)")
    panel = emu.last_ephemeral("alice")
    labels = {b.label for b in panel.buttons()}
    assert "Draw" in labels and not any(str(b).startswith("Take") for b in labels)
    assert "Tamalou!" in labels  # R-P1: the Jack's extra turn is a whole new turn, call included
    table = h.table_message()
    assert "alice plays again (Jack)" in table.text
    assert "extra turn of the Jack: pile only" in table.text
    # the discard (a face card anyway) cannot be taken, whatever button is pressed
    await forged_click(h, "alice", f"tamalou:take:{tid}:1")
    assert "draw from the pile" in emu.last_ephemeral("alice").content
    await emu.click("alice", panel, "Draw")  # the panel is updated in place
    assert f"You drew **{label(second)}**" in panel.content
    await emu.click("alice", h.panel("alice"), "Throw it")
    game = h.game()
    assert game.round.discard == [jack, second]
    assert game.round.current == 1 and game.round.transmitted is None  # never transmitted
    await emu.click("bob", h.table_message(), "My cards")
    labels = {b.label for b in emu.last_ephemeral("bob").buttons()}
    assert "Piocher" in labels and "Rejouer (Valet)" not in labels


@pytest.mark.one_backend
async def test_r_p2_queen_swap_pauses_doubles_and_is_transmitted_once(
    harness: BotHarness,
) -> None:
    """R-P2, R-D7, R-P6: the Queen's blind swap through buttons and a select; the next
    player may use it instead of drawing; the player after them may not."""
    h, emu = harness, harness.emu

    def wanted(g: Game) -> bool:
        r = g.round
        return r.first_player == 0 and rank(r.pile[-1]) == "Q" and rank(r.pile[-2]) not in FACES

    seed = find_seed(3, wanted)
    await h.start(seeds=[seed])
    await open_table(h, ["alice", "bob", "carol"])
    await peek_all(h, ["alice", "bob", "carol"])
    before = h.game()
    a2, b3 = before.round.seats[0].row[1], before.round.seats[1].row[2]
    await emu.click("alice", h.table_message(), "Draw")
    await emu.click("alice", h.panel("alice"), "Throw it")
    panel = emu.last_ephemeral("alice")
    assert "Queen: choose one of your cards" in panel.content
    assert {b.label for b in panel.buttons()} == {
        "My card 1",
        "My card 2",
        "My card 3",
        "My card 4",
        "Pass",
    }
    await emu.click("alice", panel, "My card 2")
    panel = emu.last_ephemeral("alice")
    (select,) = panel.selects()
    options = {o["label"] for o in select.options}
    assert "bob — card 3" in options and "carol — card 1" in options
    assert not any(o.startswith("alice") for o in options)  # never yourself
    await emu.select("alice", panel, None, ["bob — card 3"])
    game = h.game()
    assert game.round.seats[0].row[1] == b3 and game.round.seats[1].row[2] == a2
    table = h.table_message()
    assert "alice swapped their card 2 with bob's card 3" in table.text
    for card in (a2, b3):  # nobody saw the swapped cards
        assert label(card) not in table.text
    # R-D7: doubles are paused for 2 s while the swap is shown: the buttons say so
    assert table.button("Double 1").disabled
    assert len(h.game().round.seats[2].row) == 4
    h.advance(2_100)
    await emu.wait_for(
        lambda: not h.table_message().button("Double 1").disabled, 10, "the doubles to open again"
    )
    table = h.table_message()
    # R-P6: bob may use the Queen instead of drawing
    await emu.click("bob", table, "My cards")
    panel = emu.last_ephemeral("bob")
    assert "pouvoir" in panel.content.lower()
    labels = {b.label for b in panel.buttons()}
    assert {"Piocher", "Ma carte 1"} <= labels
    h.advance(2_100)
    await emu.click("bob", panel, "Ma carte 1")
    panel = emu.last_ephemeral("bob")
    (select,) = panel.selects()
    assert {o["value"] for o in select.options} >= {"2.1", "0.4"}
    b1, c4 = h.game().round.seats[1].row[0], h.game().round.seats[2].row[3]
    await emu.select("bob", panel, None, ["2.4"])
    game = h.game()
    assert game.round.seats[1].row[0] == c4 and game.round.seats[2].row[3] == b1
    assert "bob swapped their card 1 with carol's card 4" in h.table_message().text
    assert game.round.current == 2 and game.round.transmitted is None  # not transmitted again
    await emu.click("carol", h.table_message(), "My cards")
    labels = {b.label for b in emu.last_ephemeral("carol").buttons()}
    assert "Piocher" in labels and not any(lb.startswith("Ma carte") for lb in labels)


@pytest.mark.one_backend
async def test_r_p3_king_look_is_private_hidden_after_2_s_and_transmitted(
    harness: BotHarness,
) -> None:
    """R-P3, R-P6: "Look at n" shows one card to the looker only, hidden after 2 s by an
    edit of the ephemeral; the next player may look too instead of drawing."""
    h, emu = harness, harness.emu

    def wanted(g: Game) -> bool:
        r = g.round
        return r.first_player == 0 and rank(r.pile[-1]) == "K"

    seed = find_seed(2, wanted)
    await h.start(seeds=[seed])
    await open_table(h, ["alice", "bob"])
    await peek_all(h, ["alice", "bob"])
    game = h.game()
    a3, b2 = game.round.seats[0].row[2], game.round.seats[1].row[1]
    await emu.click("alice", h.table_message(), "Draw")
    await emu.click("alice", h.panel("alice"), "Throw it")
    panel = emu.last_ephemeral("alice")
    assert "King: look at one of your cards" in panel.content
    assert {b.label for b in panel.buttons()} >= {"Look at 1", "Look at 4", "Pass"}
    await emu.click("alice", panel, "Look at 3")
    panel = emu.last_ephemeral("alice")
    assert f"Your card 3 is **{label(a3)}**" in panel.content
    assert emu.leaks(label(a3), owner="alice") == []
    assert "alice looked at their card 3" in h.table_message().text
    h.advance(2_100)
    await emu.wait_for(
        lambda: label(a3) not in emu.last_ephemeral("alice").content, 10, "the look to be hidden"
    )
    assert emu.last_ephemeral("alice").id == panel.id  # the same ephemeral, edited
    # R-P6: bob may look instead of drawing
    await emu.click("bob", h.table_message(), "My cards")
    panel = emu.last_ephemeral("bob")
    assert {"Piocher", "Regarder 2"} <= {b.label for b in panel.buttons()}
    await emu.click("bob", panel, "Regarder 2")
    assert label(b2) in emu.last_ephemeral("bob").content
    assert emu.leaks(label(b2), owner="bob") == []
    game = h.game()
    assert game.round.current == 0 and game.round.transmitted is None  # not transmitted again
    assert len(game.round.discard) == 1  # bob used the power: he did not draw


@pytest.mark.one_backend
async def test_r_p3_a_look_shown_twice_is_hidden_by_one_edit_drawn_after_the_others(
    harness: BotHarness,
) -> None:
    """Every drawing of a panel that still showed a timed card scheduled its own hide: the
    look, then "My cards", gave two hides of the same message, each drawn when its task woke
    and sent through its own token — under load one landed over a newer drawing (a Throw
    button gone in the CI's Cabo match, a Draw back after it was drawn). A seat's panel is
    drawn and sent by one task at a time, and a hide a later drawing did is not sent."""
    h, emu = harness, harness.emu
    seed = find_seed(2, lambda g: g.round.first_player == 0 and rank(g.round.pile[-1]) == "K")
    await h.start(seeds=[seed])
    await open_table(h, ["alice", "bob"])
    await peek_all(h, ["alice", "bob"])
    a3 = h.game().round.seats[0].row[2]
    await emu.click("alice", h.table_message(), "Draw")
    await emu.click("alice", h.panel("alice"), "Throw it")
    await emu.click("alice", h.panel("alice"), "Look at 3")
    panel = h.panel("alice")
    await emu.click("alice", h.table_message(), "My cards")  # bob's turn: she looks again
    assert h.panel("alice").id == panel.id and label(a3) in panel.content

    def edits() -> int:
        return len(emu.requests_to("PATCH", f"/messages/{panel.id}"))

    before = edits()
    h.advance(2_100)
    await emu.wait_for(lambda: label(a3) not in panel.content, 10, "the look to be hidden")
    await asyncio.sleep(1.0)  # a second hide would have come by now
    assert edits() - before == 1
    assert "Your card 3 is" not in panel.content


# -- the discard (R-T2, R-T3) -------------------------------------------------------------


@pytest.mark.one_backend
async def test_r_t2_take_the_discard_must_keep_and_faces_are_never_offered(
    harness: BotHarness,
) -> None:
    """R-T2, R-T3, R-T5: bob takes alice's thrown card (it must replace one of his); the
    Queen he discards offers a power he passes (R-P6: a passed power is not transmitted);
    a face card on the discard is never offered to take."""
    h, emu = harness, harness.emu

    def wanted(g: Game) -> bool:
        r = g.round
        return (
            r.first_player == 0 and rank(r.pile[-1]) not in FACES and rank(r.seats[1].row[1]) == "Q"
        )

    seed = find_seed(2, wanted)
    await h.start(seeds=[seed])
    await open_table(h, ["alice", "bob"])
    await peek_all(h, ["alice", "bob"])
    game = h.game()
    thrown, queen = game.round.pile[-1], game.round.seats[1].row[1]
    tid = table_id(h)
    await emu.click("alice", h.table_message(), "Draw")
    await emu.click("alice", h.panel("alice"), "Throw it")
    table = h.table_message()
    assert table.button(f"Take {label(thrown)}").disabled is False
    await emu.click("bob", table, "My cards")
    panel = emu.last_ephemeral("bob")
    await emu.click("bob", panel, f"Prendre {label(thrown)}")
    panel = emu.last_ephemeral("bob")
    assert label(thrown) in panel.content
    labels = {b.label for b in panel.buttons()}
    assert "Remplacer 2" in labels and "Jeter" not in labels  # R-T3: it must be kept
    assert f"bob took {label(thrown)} from the discard" in h.table_message().text
    await forged_click(h, "bob", f"tamalou:throw:{tid}:1", on=panel)
    assert "doit remplacer" in emu.last_ephemeral("bob").content
    await emu.click("bob", panel, "Remplacer 2")  # the panel is edited in place
    assert {b.label for b in panel.buttons()} >= {"Ma carte 1", "Passer"}  # R-T5
    await emu.click("bob", panel, "Passer")
    game = h.game()
    assert game.round.seats[1].row[1] == thrown and game.round.discard[-1] == queen
    assert game.round.current == 0 and game.round.transmitted is None
    table = h.table_message()
    assert "bob passed the power: Queen (blind swap)" in table.text
    assert table.button(f"Take {label(queen)}").disabled  # never a face card
    await emu.click("alice", table, "My cards")
    labels = {b.label for b in emu.last_ephemeral("alice").buttons()}
    assert "Draw" in labels and f"Take {label(queen)}" not in labels
    assert not any(lb.startswith("My card") for lb in labels)  # passed: not transmitted
    await forged_click(h, "alice", f"tamalou:take:{tid}:1")
    assert "never taken from the discard" in emu.last_ephemeral("alice").content
    assert h.game().round.stage == "start"


# -- doubles (R-D) --------------------------------------------------------------------------


@pytest.mark.one_backend
async def test_r_d5_wrong_rank_then_blocked_and_a_double_click_is_free(harness: BotHarness) -> None:
    """R-D5: a wrong-rank double is shown to all and costs a penalty card; R-D6: after the
    second miss doubles are blocked ("blocked until"), refused without penalty; a double
    click on a winning double is refused without penalty."""
    h, emu = harness, harness.emu

    def wanted(g: Game) -> bool:
        r = g.round
        top = rank(r.pile[-1])
        return (
            r.first_player == 0
            and top not in FACES
            and all(rank(c) != top for c in r.seats[1].row[:3])
            and rank(r.seats[2].row[2]) == top
        )

    seed = find_seed(3, wanted)
    await h.start(seeds=[seed])
    await open_table(h, ["alice", "bob", "carol"])
    await peek_all(h, ["alice", "bob", "carol"])
    game = h.game()
    b1, b2, c3 = game.round.seats[1].row[0], game.round.seats[1].row[1], game.round.seats[2].row[2]
    await emu.click("alice", h.table_message(), "Draw")
    await emu.click("alice", h.panel("alice"), "Throw it")
    await emu.click("bob", h.table_message(), "Double 1")
    assert f"Mauvaise valeur : votre {label(b1)}" in emu.last_ephemeral("bob").content
    assert f"bob missed a double: {label(b1)} shown, penalty card" in h.table_message().text
    game = h.game()
    assert len(game.round.seats[1].row) == 5 and game.round.seats[1].row[0] == b1  # back in place
    await emu.click("bob", h.table_message(), "Double 2")  # the 1st miss blocks nothing
    assert label(b2) in emu.last_ephemeral("bob").content
    assert len(h.game().round.seats[1].row) == 6
    assert "🚫" in h.table_message().text
    await emu.click("bob", h.table_message(), "Double 3")
    refusal = emu.last_ephemeral("bob").content
    assert "bloqués jusqu'à <t:" in refusal
    assert len(h.game().round.seats[1].row) == 6  # refused: no penalty
    # carol presses her winning double twice
    button = h.table_message().button("Double 3")
    assert button.custom_id is not None
    first = await forged_click(h, "carol", button.custom_id, wait=False)
    second = await forged_click(h, "carol", button.custom_id, wait=False)
    await emu.handled(first)
    await emu.handled(second)
    answers = [m.content for m in emu.ephemerals("carol")[-2:]]
    assert any("Double !" in a for a in answers)
    assert any("déjà doublé" in a for a in answers)
    game = h.game()
    assert game.round.seats[2].row == [
        *game.round.seats[2].row[:2],
        None,
        game.round.seats[2].row[3],
    ]
    assert len(game.round.seats[2].row) == 4 and game.round.discard[-1] == c3
    assert f"carol doubled a {label(c3)} (card 3)" in h.table_message().text


# -- rounds and the match (R-M) -------------------------------------------------------------


async def test_next_round_timeouts_away_and_the_match_end(harness: BotHarness) -> None:
    """R-E1, R-M4: "Next round" re-posts the table (the old message says it continues
    below) and the round winner starts; R-S5: the peek phase ends by itself after 30 s;
    R-K3: short turns after a timeout; R-K4: away after two, the round ends when all but
    one are away; R-M3: the standings, Rematch, and buttons of a finished table refused."""
    h, emu = harness, harness.emu

    def wanted(g: Game) -> bool:
        r = g.round
        a, b = total(r.seats[0].row), total(r.seats[1].row)
        if not (
            r.first_player == 1
            and a <= 5 < b
            and rank(r.pile[-1]) not in FACES
            and rank(r.pile[-2]) not in FACES
        ):
            return False
        rows, _ = deal(g.seed, 2, 2)
        return max(total(rows[0]), b + total(rows[1])) > max(10, b)

    seed = find_seed(2, wanted)
    await h.start(seeds=[seed])
    target = max(10, int(total(h_rows(seed)[1])))
    await open_table(h, ["alice", "bob"], target=target)
    await peek_all(h, ["alice", "bob"])
    await emu.click("bob", h.table_message(), "My cards")
    old_panel = emu.last_ephemeral("bob")  # bob's one panel of round 1
    await emu.click("bob", h.table_message(), "Draw")  # edits it (one panel a round)
    assert h.panel("bob").id == old_panel.id
    await emu.click("bob", h.panel("bob"), "Jeter")
    await emu.click("alice", h.table_message(), "Tamalou!")
    await emu.click("bob", h.table_message(), "Draw")
    await emu.click("bob", h.panel("bob"), "Jeter")
    h.advance(5_100)
    await emu.wait_for(lambda: "round 1 is over" in h.table_message().text, 10, "the round end")
    round1 = h.table_message()
    assert "Next round starts" in round1.text and "after a right Tamalou" in round1.text
    game = h.game()
    assert game.history[0].places == [1, 2] and game.history[0].scores[0] == 0
    await emu.click("bob", round1, "Next round")
    await emu.wait_for(lambda: h.table_message().id != round1.id, 10, "the round-2 message")
    assert round1.content == "This round is over: the table continues below."
    assert round1.components == []
    table = h.table_message()
    assert "round 2" in table.text and "Peek phase" in table.text
    game = h.game()
    assert game.round.round_no == 2 and game.round.first_player == 0  # R-M4: alice won
    # a round-1 button in round 2
    await forged_click(h, "bob", f"tamalou:draw:{table_id(h)}:1", on=old_panel)
    assert "manche précédente" in emu.last_ephemeral("bob").content
    # R-S5: nobody peeks; the first turn starts 30 s after the deal
    h.advance(30_100)
    await emu.wait_for(lambda: "**alice** to play" in h.table_message().text, 10, "the 1st turn")
    await emu.click("bob", h.table_message(), "My cards")
    panel = emu.last_ephemeral("bob")
    assert not any(b.label.startswith("Regarder les cartes") for b in panel.buttons())
    assert not any(label(c) in panel.content for c in h.game().round.seats[1].row)  # lost peek
    # R-K3, R-K4: alice, bob, then alice (short turn) let the clock play
    h.advance(45_100)
    await emu.wait_for(lambda: h.game().round.current == 1, 10, "alice's timeout")
    # the log has the timeout before the message shows it (commit, then show)
    await emu.wait_for(
        lambda: "alice ran out of time" in h.table_message().text, 10, "the timeout shown"
    )
    assert "⏱" in h.table_message().text
    h.advance(45_100)
    await emu.wait_for(lambda: h.game().round.current == 0, 10, "bob's timeout")
    r = h.game().round
    assert r.turn_deadline - r.turn_started == 15_000  # R-K3: a short turn
    h.advance(15_100)
    await emu.wait_for(lambda: "match is over" in h.table_message().text, 10, "the match end")
    over = h.table_message().text
    assert "every player but one was away" in over
    game = h.game()
    assert game.over and game.history[1].reason == "away"
    for s, name in enumerate(("alice", "bob")):
        assert f"{name}**" in over and f"(total {game.cumulative[s]:g})" in over
    winner = ("alice", "bob")[game.winners[0]]
    assert f"Winner\n{winner}" in over
    # the finished table refuses its old buttons
    await forged_click(h, "bob", f"tamalou:draw:{table_id(h)}:1", on=old_panel)
    assert "Cette table est fermée" in emu.last_ephemeral("bob").content
    await emu.click("alice", h.table_message(), "Rematch")
    await emu.wait_for(lambda: "round 1" in h.table_message().text, 10, "the rematch")
    await forged_click(h, "bob", f"tamalou:rematch:{table_id(h) - 1}")
    assert "déjà ouverte" in emu.last_ephemeral("bob").content  # a second press
    assert len(h.sql("SELECT id FROM matches WHERE guild_id = ?", h.guild_id)) == 2


# -- refusals -------------------------------------------------------------------------------


async def test_refusals_forged_buttons_spam_and_a_cancelled_table(harness: BotHarness) -> None:
    """Not your turn; forged, unknown and malformed custom ids are refused politely; a user
    spamming a button applies it once; the host (not another player) cancels; a cancelled
    table refuses its buttons."""
    h, emu = harness, harness.emu

    def wanted(g: Game) -> bool:
        r = g.round
        return r.first_player == 0 and rank(r.pile[-1]) not in FACES

    seed = find_seed(3, wanted)
    await h.start(seeds=[seed])
    await open_table(h, ["alice", "bob", "erin"])
    await peek_all(h, ["alice", "bob", "erin"])
    tid = table_id(h)
    table = h.table_message()
    await emu.click("erin", table, "Draw")
    assert "It is not your turn" in emu.last_ephemeral("erin").content
    await emu.click("bob", table, "Tamalou!")
    assert "Ce n'est pas votre tour" in emu.last_ephemeral("bob").content
    await emu.click("dave", table, "Draw")
    assert "not at this table" in emu.last_ephemeral("dave").content
    forged = {
        f"tamalou:zzz:{tid}:1": "This button is not valid",  # unknown verb
        f"tamalou:draw:{tid + 7}:1": "This table is closed",  # unknown table
        f"tamalou:dbl:{tid}:1.2": "This button is not valid",  # an argument missing
        f"tamalou:rep:{tid}": "This button is not valid",
        f"tamalou:look:{tid}:1..": "This button is not valid",
        f"tamalou:draw:{tid}:9": "This button is not valid",  # a round yet to come
        f"tamalou:look:{tid}:1.3": "This button is not valid",  # a panel verb, in public
    }
    for custom_id, answer in forged.items():
        await forged_click(h, "alice", custom_id)
        assert answer in emu.last_ephemeral("alice").content, custom_id
    own = h.panel("alice")  # on her own panel: a verb she may not use now
    await forged_click(h, "alice", f"tamalou:look:{tid}:1.3", on=own)
    assert "no power to use" in emu.last_ephemeral("alice").content
    await forged_click(h, "alice", f"tamalou:qswap:{tid}:1.2", values=["x.y"], on=own)
    assert "This button is not valid" in emu.last_ephemeral("alice").content
    await forged_click(h, "alice", f"tamalou:qswap:{tid}:1.2", values=["1.1"], on=own)
    assert "no power to use" in emu.last_ephemeral("alice").content
    assert h.game().round.stage == "start" and len(h.actions()) == 4  # 3 peeks and the tick
    # spam: ten concurrent presses on Draw apply one draw
    presses = [await emu.click("alice", h.table_message(), "Draw", wait=False) for _ in range(10)]
    for press in presses:
        await emu.handled(press)
    kinds = [a.kind for a in h.actions()]
    assert kinds.count("draw") == 1
    answers = [m.content for m in emu.ephemerals("alice")[-9:]]
    assert sum("You already hold a card" in a for a in answers) == 9
    panel = h.panel("alice")  # her open panel shows the one draw
    assert "You drew" in panel.content
    throw = panel.button("Throw it").custom_id
    assert throw is not None
    presses = [await forged_click(h, "alice", throw, on=panel, wait=False) for _ in range(6)]
    for press in presses:
        await emu.handled(press)
    game = h.game()
    assert [a.kind for a in h.actions()].count("throw") == 1
    assert len(game.round.discard) == 1 and game.round.current == 1 and game.round.stage == "start"
    assert len(game.round.pile) == 52 - 12 - 1
    # cancel: not bob (a player), not dave (outside), but the host
    await emu.slash("bob", "tamalou cancel")
    assert "Seul l'hôte" in emu.last_ephemeral("bob").content
    await emu.slash("dave", "tamalou cancel")
    assert "Only the host" in emu.last_ephemeral("dave").content
    await emu.click("bob", h.table_message(), "My cards")
    bob_panel = h.panel("bob")  # his one panel of the round, edited by "My cards"
    await emu.slash("alice", "tamalou cancel")
    assert f"Table {tid} is closed" in emu.last_ephemeral("alice").content
    closed = emu.channel_messages()[-1]
    assert "The table was cancelled" in closed.text and closed.components == []
    await emu.click("bob", bob_panel, "Piocher")
    assert "Cette table est fermée" in emu.last_ephemeral("bob").content
    await forged_click(h, "erin", f"tamalou:draw:{tid}:1", on=closed)
    assert "This table is closed" in emu.last_ephemeral("erin").content
    assert h.sql("SELECT status FROM matches WHERE guild_id = ?", h.guild_id)[0]["status"] == (
        "cancelled"
    )


async def test_a_custom_id_no_button_matches_is_still_answered(harness: BotHarness) -> None:
    """A component whose custom_id matches no button of this bot version (an old message)
    gets an answer, not Discord's "This interaction failed"."""
    h, emu = harness, harness.emu
    await h.start()
    await emu.slash("alice", "tamalou new")
    emu.response_deadline = 1.0
    for custom_id in ("tamalou:draw:1:abc", "tamalou:qswap:1", "something:else"):
        inter = await forged_click(h, "alice", custom_id)
        await emu.responded(inter)
        assert inter.responded and not inter.expired, custom_id
        assert "This button is not valid" in emu.last_ephemeral("alice").content


# -- commands -------------------------------------------------------------------------------


async def test_commands_rules_settings_kick_cancel_and_lobby_expiry(harness: BotHarness) -> None:
    """/tamalou rules (ephemeral, the reader's language); /tamalou settings (Manage Server
    only; French makes public messages French); /tamalou kick (host); /tamalou cancel by a
    Manage Server member; a lobby nobody starts closes after 10 minutes."""
    h, emu = harness, harness.emu
    await h.start()
    await emu.slash("alice", "tamalou rules")
    await emu.slash("bob", "tamalou rules")
    assert "Tamalou in short" in emu.last_ephemeral("alice").content
    assert "Le Tamalou en bref" in emu.last_ephemeral("bob").content
    assert emu.channel_messages() == []  # nothing public
    # a subcommand cannot be hidden by Discord (default permissions are per top-level
    # command): the bot checks Manage Server itself
    # the admin command is hidden from members (Manage Server by default, top level); the
    # old subcommand says where the settings went, in bob's language, and changes nothing
    with pytest.raises(CommandNotAvailableError):
        await emu.slash("bob", "cardsadmin settings", language="en")
    await emu.slash("bob", "tamalou settings")
    moved = emu.last_ephemeral("bob").content
    assert "`/cartesadmin reglages`" in moved and "Rien n'a été modifié" in moved
    assert h.sql("SELECT * FROM guild_settings WHERE guild_id = ?", h.guild_id) == []
    await emu.slash("alice", "cardsadmin settings", language="fr")
    await emu.slash("alice", "cardsadmin tamalou", turn_seconds=20)
    shown = emu.last_ephemeral("alice").content
    assert "public language French" in shown and "Tamalou: 20 s a turn" in shown
    await emu.slash("dave", "tamalou new")
    lobby = h.table_message()
    assert "en attente de joueurs" in lobby.text and "20 s par tour" in lobby.text
    first = h.table_id()
    assert f"Table {first} is open" in emu.last_ephemeral("dave").content  # dave's language
    for p in ("bob", "carol", "erin"):
        await emu.click(p, h.table_message(), "Rejoindre")
    await emu.slash("carol", "tamalou kick", seat=2)
    assert "Seul l'hôte" in emu.last_ephemeral("carol").content
    await emu.slash("dave", "tamalou kick", seat=1)
    assert "cannot remove yourself" in emu.last_ephemeral("dave").content
    await emu.slash("dave", "tamalou kick", seat=6)
    assert "nobody in that seat" in emu.last_ephemeral("dave").content
    await emu.slash("dave", "tamalou kick", seat=2)
    assert "bob was removed" in emu.last_ephemeral("dave").content
    assert "bob" not in h.table_message().text and "carol" in h.table_message().text
    await emu.slash("bob", "tamalou cancel")
    assert "Seul l'hôte" in emu.last_ephemeral("bob").content
    await emu.slash("alice", "tamalou cancel")  # not seated, but Manage Server
    assert f"Table {first} is closed" in emu.last_ephemeral("alice").content
    assert "La table a été annulée" in emu.channel_messages()[-1].text
    await emu.slash("erin", "tamalou join")
    assert "no Tamalou table" in emu.last_ephemeral("erin").content
    # a lobby expires after 10 minutes
    await emu.slash("erin", "tamalou new")
    await emu.click("carol", h.table_message(), "Rejoindre")
    # from the lobby's own start: a fixed 599 s left a second's margin for the two clicks
    # (real time) before it, and the join lost it on a slow machine
    opened = int(h.sql("SELECT created_at FROM tables WHERE id = ?", h.table_id())[0]["created_at"])
    h.advance(opened + 595_000 - emu.clock.now_ms())  # 5 s before its 10 minutes
    await emu.slash("dave", "tamalou join")
    assert f"You sit at table {first + 1}" in emu.last_ephemeral("dave").content
    h.advance(max(0, opened + 601_500 - emu.clock.now_ms()))  # past them
    await emu.wait_for(
        lambda: "Personne n'a lancé la table à temps" in emu.channel_messages()[-1].text,
        10,
        "the lobby to expire",
    )
    assert emu.channel_messages()[-1].components == []
    await emu.slash("carol", "tamalou start")
    assert "pas de table" in emu.last_ephemeral("carol").content
    rows = h.sql("SELECT status FROM tables WHERE guild_id = ? ORDER BY id", h.guild_id)
    assert [r["status"] for r in rows] == ["cancelled", "cancelled"]
