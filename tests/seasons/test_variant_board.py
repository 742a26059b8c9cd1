"""Seasons and house variants (R-V): ratings stay per game, the leaderboard can be filtered
by variant, and a member's card lists the variants they play."""

from __future__ import annotations

import json
import re

from bot.seasons import Seasons
from bot.seasons.commands import LeaderboardButton, board_message, card_embed
from bot.storage import Storage
from tests.seasons.test_seasons import humans, store_match


async def as_variant(storage: Storage, match_id: int, variant: str) -> None:
    """The match was played with ``variant``: its rules carry the preset's name."""
    row = await storage.fetchrow("SELECT rules FROM matches WHERE id = ?", match_id)
    assert row is not None
    rules = json.loads(row["rules"]) if isinstance(row["rules"], str) else dict(row["rules"])
    rules["name"] = variant
    await storage.execute("UPDATE matches SET rules = ? WHERE id = ?", json.dumps(rules), match_id)


async def test_the_board_of_a_variant_counts_its_matches_and_keeps_the_game_rating(
    storage: Storage,
) -> None:
    seasons = Seasons(storage, min_matches=1)
    plain, _ = await store_match(storage, humans(1, 2), seed=610)
    dutch1, _ = await store_match(storage, humans(1, 3), seed=611)
    dutch2, _ = await store_match(storage, humans(2, 3), seed=612)
    await as_variant(storage, dutch1, "dutch")
    await as_variant(storage, dutch2, "dutch")
    for match_id in (plain, dutch1, dutch2):
        season = await seasons.record_match(match_id)
    assert season is not None
    whole = await seasons.leaderboard(season)
    ratings = {line.player.user_id: line.player.ordinal for line in whole.lines}
    board = await seasons.variant_board(season, "dutch")
    assert board.variant == "dutch"
    matches = {line.player.user_id: line.player.matches for line in board.lines}
    assert matches == {1: 1, 2: 1, 3: 2}
    for line in board.lines:  # the rating is the game's, not the variant's
        assert line.player.ordinal == ratings[line.player.user_id]
    assert [line.position for line in board.lines] == [1, 2, 3]
    plain_board = await seasons.variant_board(season, "tamalou")
    assert {line.player.user_id for line in plain_board.lines} == {1, 2}
    assert (await seasons.variant_board(season, "cabo")).lines == []


async def test_results_recorded_before_variants_count_as_the_default_game(
    storage: Storage,
) -> None:
    seasons = Seasons(storage, min_matches=1)
    match_id, _ = await store_match(storage, humans(4, 5), seed=620)
    season = await seasons.record_match(match_id)
    assert season is not None
    await storage.execute("UPDATE season_results SET variant = NULL WHERE match_id = ?", match_id)
    board = await seasons.variant_board(season, "tamalou")
    assert {line.player.user_id for line in board.lines} == {4, 5}


async def test_a_member_card_lists_the_variants_they_play(storage: Storage) -> None:
    seasons = Seasons(storage, min_matches=1)
    ids = []
    for seed in (630, 631, 632):
        match_id, _ = await store_match(storage, humans(7, 8), seed=seed)
        ids.append(match_id)
    await as_variant(storage, ids[0], "cabo")
    await as_variant(storage, ids[1], "cabo")
    for match_id in ids:
        season = await seasons.record_match(match_id)
    assert season is not None
    card = await seasons.card(season, 7)
    assert card is not None
    assert [(v, m) for v, m, _ in card.variants] == [("cabo", 2), ("tamalou", 1)]
    embed = card_embed(card, "seven", "fr")
    field = next(f for f in embed.fields if f.name == "Variantes")
    assert field.value and "Cabo 2" in field.value and "Tamalou 1" in field.value


async def test_the_filtered_board_names_its_variant_and_its_pages_keep_it(
    storage: Storage,
) -> None:
    seasons = Seasons(storage, min_matches=1)
    match_id, _ = await store_match(storage, humans(11, 12), seed=640)
    await as_variant(storage, match_id, "koubo")
    season = await seasons.record_match(match_id)
    assert season is not None
    board = await seasons.variant_board(season, "koubo")
    embed, view = board_message(board, "en")
    assert embed.description and "Variant: Koubo" in embed.description
    ids = [str(getattr(item, "custom_id", "")) for item in view.children]
    assert all(i.endswith(".rating-koubo") for i in ids)
    template = LeaderboardButton.__discord_ui_compiled_template__  # type: ignore[attr-defined]
    found = re.fullmatch(template, ids[0])
    assert found is not None and found["variant"] == "koubo" and found["game"] is None
