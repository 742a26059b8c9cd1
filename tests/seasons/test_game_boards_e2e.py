"""End to end: each game's season screens in its own words and fields (docs/seasons.md).

A Kalooki board is titled Kalooki, a tarot card counts deals and names its preset, neither
shows Tamalou's calls and doubles, the season list names the game whose matches it counts,
and a game's CSV has its own columns, in English and in French.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from bot.seasons import Seasons
from bot.storage import open_storage
from emulator import Emulator
from tests.seasons.test_seasons import store_match
from tests.seasons.test_variant_board import as_variant
from tests.support.bot_harness import BotHarness

pytestmark = pytest.mark.e2e


async def record(h: BotHarness, emu: Emulator) -> None:
    """A season "Winter" holding one tarot3 match and one Baby Kalooki match of alice and
    bob, recorded as the bot records a finished match."""
    storage = open_storage(await h.database())
    await storage.open()
    try:
        seasons = Seasons(storage, min_matches=1)
        guild = emu.guild.id
        await seasons.start(guild, "Winter")
        alice, bob = emu.member("alice"), emu.member("bob")
        seats = [(alice.id, "alice", None), (bob.id, "bob", None)]
        for seed, game, preset in ((901, "tarot", "tarot3"), (902, "kalooki", "baby")):
            match_id, _ = await store_match(storage, seats, seed, guild=guild, game=game)
            await as_variant(storage, match_id, preset)
            assert await seasons.record_match(match_id) is not None
    finally:
        await storage.close()


async def test_each_game_names_its_own_boards_cards_seasons_and_columns(
    emulator: Emulator, tmp_path: Path
) -> None:
    emu = emulator
    h = BotHarness(emu, tmp_path)
    await h.start()
    await record(h, emu)

    board = await emu.slash("alice", "kalooki leaderboard")
    assert "Kalooki leaderboard — Winter" in board.text and "Tamalou" not in board.text
    card = await emu.slash("alice", "tarot stats")
    text = card.text
    assert "alice — Tarot · Winter" in text
    assert "Deals" in text and "best deal" in text and "Rounds" not in text
    assert "Three-player tarot 1" in text and "tarot3" not in text
    assert "Tamalou" not in text and "Doubles" not in text
    card = await emu.slash("alice", "kalooki stats")
    assert "Baby Kalooki 1" in card.text and "Tamalou calls" not in card.text
    assert "Doubles" not in card.text and "Rounds" in card.text
    listed = await emu.slash("alice", "cardsadmin season list", game="tarot")
    assert "Tarot — seasons of this server" in listed.text and "Tamalou" not in listed.text
    assert "1 match" in listed.text  # the tarot match, not both games'
    export = await emu.slash("alice", "cardsadmin season export", game="tarot")
    (sheet,) = [a for m in export.messages for a in m.attachments]
    header = next(csv.reader(io.StringIO(sheet.data.decode())))
    assert {"deals", "deals_won", "best_deal"} <= set(header)
    assert not {"calls_right", "doubles", "rounds"} & set(header)
    export = await emu.slash("alice", "cardsadmin season export", game="tamalou")
    (sheet,) = [a for m in export.messages for a in m.attachments]
    header = next(csv.reader(io.StringIO(sheet.data.decode())))
    assert {"rounds", "calls_right", "doubles_missed"} <= set(header)

    # in French: the public board and card in the server's language, the list in bob's
    await emu.slash("alice", "cardsadmin settings", language="fr")
    board = await emu.slash("alice", "kalooki leaderboard")
    assert "Kalooki — classement : Winter" in board.text
    card = await emu.slash("bob", "tarot stats")
    text = card.text
    assert "Donnes" in text and "meilleure donne" in text and "Manches" not in text
    assert "Tarot à trois 1" in text and "Annonces Tamalou" not in text
    card = await emu.slash("bob", "kalooki stats")
    assert "Baby Kalooki 1" in card.text and "Annonces Tamalou" not in card.text
    listed = await emu.slash("alice", "cardsadmin season list", game="kalooki", locale="fr")
    assert "Kalooki — saisons de ce serveur" in listed.text and "1 partie" in listed.text
    assert emu.take_problems() == []
