"""The one click pipeline (bot/ui/pipeline.py): the same forged, stale, foreign and
out-of-range clicks sent to every game get the same answers, and nothing is played.

Each game's table is started with two members (and an AI seat where the game needs a third
player); then alice (seated), dave (not seated) and a forged custom id each press what no
honest client could: the platform refuses them all before a game sees the click.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from emulator import Emulator, Message
from tests.support.bot_harness import BotHarness, forged_click

pytestmark = [pytest.mark.e2e, pytest.mark.one_backend]

INVALID = "This button is not valid"
OLD = "This button belongs to an earlier round"
FOREIGN = "You are not at this table"
GONE = "This table is closed"


@dataclass(frozen=True)
class Game:
    name: str
    ai: int  # AI seats the host adds (tarot plays three or more)
    panel_verb: str  # a verb of the panel only, with a well-formed argument after the round
    panel_arg: str
    select_arg: str  # a panel select's argument after the round (its values are forged)
    other: str  # another game, whose buttons this table does not carry


GAMES = [
    Game("tamalou", 0, "throw", "", "", "kalooki"),
    Game("kalooki", 0, "end", "", ".1", "tarot"),
    Game("tarot", 1, "play", ".5", ".10", "tamalou"),
]


def hand_button(emu: Emulator, game: str) -> tuple[Message, str]:
    """The newest table message and its "My hand" button's custom id."""
    for msg in reversed(emu.channel_messages()):
        for row in msg.components:
            for c in row.get("components", []):
                if str(c.get("custom_id", "")).startswith(f"{game}:hand:"):
                    return msg, str(c["custom_id"])
    raise AssertionError(f"no {game} table message")


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
async def test_every_game_refuses_forged_stale_foreign_and_out_of_range_clicks_alike(
    emulator: Emulator, tmp_path: Path, game: Game
) -> None:
    h = BotHarness(emulator, tmp_path)
    emu = h.emu
    # tarot: a deal where a human bids first (an AI's first bid, off any click, could land
    # after the count of the moves below under load)
    await h.start(seeds=["pipe4"] if game.name == "tarot" else [])
    await emu.slash("alice", f"{game.name} new")
    await emu.click("bob", emu.channel_messages()[-1], "Join")
    for _ in range(game.ai):
        await emu.slash("alice", f"{game.name} addbot")
    await emu.click("alice", emu.channel_messages()[-1], "Start")
    table, hand = hand_button(emu, game.name)
    tid = int(h.sql("SELECT id FROM tables ORDER BY id DESC LIMIT 1")[0]["id"])
    logged = len(h.sql("SELECT n FROM actions"))
    await emu.click("alice", table, custom_id=hand)  # her private panel
    panel = emu.last_ephemeral("alice")  # forged clicks below carry their own component
    logged_after_hand = len(h.sql("SELECT n FROM actions"))  # Tamalou's peek is a move
    g, v = game.name, game.panel_verb
    on_table = {
        f"{g}:zzz:{tid}:1": INVALID,  # a verb the game does not have
        f"{g}:hand:{tid}:²": INVALID,  # not ASCII digits (passes str.isdigit)
        f"{g}:hand:{tid}:1.2.3": INVALID,  # more numbers than the verb carries
        f"{g}:hand:{tid}:9": INVALID,  # a round yet to come
        f"{g}:{v}:{tid}:1{game.panel_arg}": INVALID,  # a panel's verb on the public message
        f"{g}:hand:{tid + 7}:1": GONE,  # no such table
        f"{game.other}:hand:{tid}:1": INVALID,  # another game's button for this table
    }
    for custom_id, answer in on_table.items():
        await forged_click(h, "alice", custom_id, on=table)
        assert answer in emu.last_ephemeral("alice").content, custom_id
    await forged_click(h, "dave", hand, on=table)  # a member without a seat
    assert FOREIGN in emu.last_ephemeral("dave").content
    on_panel = {
        f"{g}:{v}:{tid}:0{game.panel_arg}": (OLD, None),  # an earlier round
        f"{g}:{v}:{tid}:1{game.panel_arg}.4.4": (INVALID, None),  # out of range
        f"{g}:pick:{tid}:1{game.select_arg}": (INVALID, ["²"]),  # a forged select value
        f"{g}:pick:{tid}:1{game.select_arg}.": (INVALID, ["1"]),  # an empty number
    }
    for custom_id, (answer, values) in on_panel.items():
        await forged_click(h, "alice", custom_id, on=panel, values=values)
        assert answer in emu.last_ephemeral("alice").content, custom_id
    assert len(h.sql("SELECT n FROM actions")) == logged_after_hand >= logged  # nothing played
    emu.check()
