"""A server's default variant (R-V, /tamalou settings variant:) is kept with its other
settings, on SQLite and PostgreSQL, and setting one leaves the others as they were."""

from __future__ import annotations

from bot.storage import Storage


async def test_the_default_variant_merges_with_the_other_settings(storage: Storage) -> None:
    await storage.set_guild_settings(1, "fr", 30)
    await storage.set_guild_settings(1, None, None, "cabo")
    assert await storage.guild_settings(1) == {
        "language": "fr",
        "turn_seconds": 30,
        "variant": "cabo",
    }
    await storage.set_guild_settings(1, "en", None)
    assert (await storage.guild_settings(1))["variant"] == "cabo"
    await storage.set_guild_settings(1, None, None, "koubo")
    assert (await storage.guild_settings(1))["variant"] == "koubo"
    assert "variant" not in await storage.guild_settings(2)
