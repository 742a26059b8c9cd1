"""What players see of the rating, boards per game, and settings through Config.

Issue 10: ratings were shown negative with μ and σ; a season number of 10**20 overflowed.
Issue 9: seasons read TAMALOU_MIN_MATCHES themselves; a board per game.
"""

from __future__ import annotations

import pytest

from bot.config import Config, ConfigError
from bot.seasons import Seasons, display_rating, rating_text
from bot.seasons.commands import board_value, card_embed
from bot.storage import Storage
from tests.seasons.test_seasons import GUILD, humans, store_match


def test_display_rating_starts_at_1000_and_is_never_negative() -> None:
    assert display_rating(0.0) == 1000  # a new player: mu 25, sigma 25/3, ordinal 0
    assert display_rating(1.0) == 1040 and display_rating(-1.0) == 960
    assert display_rating(-25.0) == 0 and display_rating(-1e9) == 0
    ordinals = [-30.0, -8.5, -0.1, 0.0, 3.3, 12.0, 40.0]
    shown = [display_rating(o) for o in ordinals]
    assert shown == sorted(shown) and min(shown) >= 0


def test_a_provisional_rating_carries_a_question_mark() -> None:
    assert rating_text(1.0, provisional=True) == "1040?"
    assert rating_text(1.0, provisional=False) == "1040"


async def test_the_card_shows_no_mu_sigma_and_marks_provisional(storage: Storage) -> None:
    seasons = Seasons(storage, min_matches=2)
    match_id, _ = await store_match(storage, humans(1, 2), seed=500)
    season = await seasons.record_match(match_id)
    assert season is not None
    card = await seasons.card(season, 1)
    assert card is not None and card.provisional
    text = str(card_embed(card, "ann", "en").to_dict())
    assert "μ" not in text and "σ" not in text and "mu " not in text
    assert f"**{card.player.rating}?**" in text
    second, _ = await store_match(storage, humans(1, 2), seed=501)
    await seasons.record_match(second)
    card = await seasons.card(season, 1)
    assert card is not None and not card.provisional
    assert f"**{card.player.rating}**" in str(card_embed(card, "ann", "en").to_dict())
    board = await seasons.leaderboard(season)
    assert [board_value(line.player, "rating", 2) for line in board.lines] == [
        str(display_rating(line.player.ordinal)) for line in board.lines
    ]


async def test_the_chart_points_are_display_ratings(storage: Storage) -> None:
    seasons = Seasons(storage)
    match_id, _ = await store_match(storage, humans(1, 2), seed=502)
    season = await seasons.record_match(match_id)
    assert season is not None
    card = await seasons.card(season, 1)
    assert card is not None and card.ratings == [card.player.rating]


async def test_a_season_number_beyond_64_bits_is_no_season(storage: Storage) -> None:
    seasons = Seasons(storage)
    await seasons.start(GUILD)
    assert await seasons.get(GUILD, 10**20) is None
    assert await seasons.get(GUILD, -(10**20)) is None
    assert await seasons.by_id(10**20) is None
    assert (await seasons.get(GUILD, 1)) is not None


async def test_each_game_has_its_own_board(storage: Storage) -> None:
    seasons = Seasons(storage, min_matches=1)
    tamalou, _ = await store_match(storage, humans(1, 2), seed=510)
    other, _ = await store_match(storage, humans(2, 3), seed=511, game="kalooki")
    await seasons.record_match(tamalou)
    season = await seasons.record_match(other)
    assert season is not None  # one season of the guild holds both games
    board = await seasons.leaderboard(season)
    assert sorted(line.player.user_id for line in board.lines) == [1, 2]
    kalooki = await seasons.leaderboard(season, game="kalooki")
    assert sorted(line.player.user_id for line in kalooki.lines) == [2, 3]
    card = await seasons.card(season, 2, game="kalooki")
    assert card is not None and card.player.matches == 1
    assert await seasons.card(season, 3) is None  # 3 never played Tamalou
    assert "player3" not in await seasons.export_csv(season)
    assert "player3" in await seasons.export_csv(season, game="kalooki")


async def test_the_minimum_of_matches_comes_from_config_not_the_environment(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAMALOU_MIN_MATCHES", "7")
    config = Config.from_env(env_file=None)
    assert config.min_matches == 7
    assert (await Seasons(storage).start(GUILD))[1].min_matches == 3  # no env read of its own
    seasons = Seasons(storage, min_matches=config.min_matches)
    _, fresh = await seasons.start(GUILD + 1)
    assert fresh.min_matches == 7


def test_database_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAMALOU_DB", "postgresql://bot@db/tamalou")
    monkeypatch.setenv("TAMALOU_DB_BUSY_MS", "1500")
    config = Config.from_env(env_file=None)
    assert (config.database, config.database_busy_ms) == ("postgresql://bot@db/tamalou", 1500)
    monkeypatch.setenv("TAMALOU_MIN_MATCHES", "zero")
    with pytest.raises(ConfigError, match="TAMALOU_MIN_MATCHES='zero'"):  # said, not guessed
        Config.from_env(env_file=None)
    monkeypatch.setenv("TAMALOU_MIN_MATCHES", "")  # empty: the default
    assert Config.from_env(env_file=None).min_matches == 3
    monkeypatch.delenv("TAMALOU_DB")
    assert Config.from_env(env_file=None).database == "tamalou.sqlite3"
