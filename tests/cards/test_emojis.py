"""Card emojis through the Discord emulator with the real discord.py client.

The application's emojis outlive the bot: a restart, or a second process, reuses them.
When they cannot be uploaded the bot shows text cards and says so once in its log.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

import discord
import pytest

from bot.ui.cards import ALL_CODES, CardEmojis, emoji_name, emoji_png
from emulator import Emulator

WARNING = "card emojis unavailable"


def _posts(emu: Emulator) -> list[str]:
    return [m.content for m in emu.channel_messages() if m.content.startswith("cards:")]


async def _bot_line(emu: Emulator, count: int) -> str:
    await emu.wait_for(lambda: len(_posts(emu)) >= count, timeout=30, what="the bot's line")
    return _posts(emu)[count - 1]


async def _start(emu: Emulator) -> None:
    await emu.start_bot("tests.cards.emoji_bot", env={"EMOJI_BOT_CHANNEL": str(emu.channel().id)})


@pytest.fixture
async def logged_in(
    emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Callable[[], asyncio.Future[discord.Client]]]:
    """Real discord.py clients logged in to the emulator's REST API (no gateway needed)."""
    monkeypatch.setattr(discord.http.Route, "BASE", emulator.api_base)
    clients: list[discord.Client] = []

    async def make() -> discord.Client:
        client = discord.Client(intents=discord.Intents.none())
        await client.login(emulator.token)
        clients.append(client)
        return client

    yield make  # type: ignore[misc]
    for client in clients:
        await client.close()


async def test_first_start_uploads_every_face_once_and_a_restart_uploads_nothing(
    emulator: Emulator,
) -> None:
    emu = emulator
    await _start(emu)
    first = await _bot_line(emu, 1)
    store = emu.app_emojis
    assert store.uploads == len(ALL_CODES)
    assert sorted(e.name for e in store.emojis.values()) == sorted(map(emoji_name, ALL_CODES))
    assert store.images[emoji_name("10h")] == emoji_png("10h")
    ids = {e.name: e.id for e in store.emojis.values()}
    assert first == (
        f"cards: <:c1_7c:{ids['c1_7c']}><:c1_10h:{ids['c1_10h']}>"
        f"<:c1_T21:{ids['c1_T21']}><:c1_tCh:{ids['c1_tCh']}> uploaded={len(ALL_CODES)}"
    )

    await emu.stop_bot()
    await _start(emu)
    second = await _bot_line(emu, 2)
    assert store.uploads == len(ALL_CODES)  # nothing uploaded again
    # every face uploaded once (a 429 of Discord's rate limits, retried, uploads nothing)
    uploaded = [r for r in emu.requests_to("POST", "/emojis") if r.status != 429]
    assert len(uploaded) == len(ALL_CODES)
    assert second == first.replace(f"uploaded={len(ALL_CODES)}", "uploaded=0")
    assert WARNING not in emu.bot.log_path.read_text()  # type: ignore[union-attr]


@pytest.mark.emulator(response_deadline=3.0)
async def test_refused_uploads_leave_text_cards_and_one_warning_in_the_log(
    emulator: Emulator,
) -> None:
    emu = emulator
    emu.app_emojis.limit = 5  # Discord answers 30008 "Maximum number of emojis reached"
    await _start(emu)
    line = await _bot_line(emu, 1)
    assert line == "cards: 7♣ 10♥ T21 C♥ uploaded=5"
    log = emu.bot.log_path.read_text()  # type: ignore[union-attr]
    assert log.count(WARNING) == 1
    assert "WARNING" in log.split(WARNING)[0].splitlines()[-1]
    assert "30008" in log


async def test_a_missing_permission_falls_back_and_warns_once_however_often_it_syncs(
    emulator: Emulator,
    logged_in: Callable[[], asyncio.Future[discord.Client]],
    caplog: pytest.LogCaptureFixture,
) -> None:
    emulator.app_emojis.refuse = (403, 50013, "Missing Permissions")
    cards = CardEmojis(await logged_in(), codes=["7c", "Qh"])
    with caplog.at_level(logging.INFO, logger="bot.ui.cards.emojis"):
        assert await cards.sync() is False
        assert await cards.sync() is False
    warnings = [
        r
        for r in caplog.records
        if r.name == "bot.ui.cards.emojis" and r.levelno == logging.WARNING
    ]
    assert len(warnings) == 1 and "50013" in warnings[0].getMessage()
    assert cards.emoji_for("7c") is None and cards.partial_emoji("7c") is None
    assert cards.show("Qh") == "Q♥"
    assert cards.line(["7c", "Qh"]) == "7♣ Q♥"


async def test_an_application_near_its_limit_uploads_nothing(
    emulator: Emulator,
    logged_in: Callable[[], asyncio.Future[discord.Client]],
    caplog: pytest.LogCaptureFixture,
) -> None:
    from emulator.emojis import AppEmoji

    store = emulator.app_emojis
    for n in range(1999):  # someone else's emojis fill the application
        store.emojis[n + 1] = AppEmoji(n + 1, f"other_{n}")
    cards = CardEmojis(await logged_in(), codes=["7c", "Qh"])
    with caplog.at_level(logging.WARNING, logger="bot.ui.cards.emojis"):
        assert await cards.sync() is False
    assert store.uploads == 0
    assert "1999 of 2000" in caplog.text


async def test_two_processes_starting_together_share_one_emoji_per_face(
    emulator: Emulator, logged_in: Callable[[], asyncio.Future[discord.Client]]
) -> None:
    codes = ["7c", "8c", "9c", "10c", "Jc", "Qc", "Kc", "T1", "EX", "BK"]
    clients = [await logged_in(), await logged_in()]
    both_listed = asyncio.Barrier(2)
    for client in clients:
        # The first two lists (one per process) wait for each other: both see an empty list
        # before either uploads, the worst race.
        real = client.fetch_application_emojis
        calls = 0

        async def listed(real: Callable[[], Any] = real) -> Any:
            nonlocal calls
            calls += 1
            emojis = await real()
            if calls <= 2:
                await both_listed.wait()
            return emojis

        client.fetch_application_emojis = listed  # type: ignore[method-assign]
    a, b = (CardEmojis(c, codes=codes) for c in clients)
    assert await asyncio.gather(a.sync(), b.sync()) == [True, True]
    names = [e.name for e in emulator.app_emojis.emojis.values()]
    assert sorted(names) == sorted(map(emoji_name, codes))  # one each, none twice
    assert a.uploaded + b.uploaded == len(codes)
    for code in codes:
        assert a.emoji_for(code) == b.emoji_for(code) is not None
    # Each face was tried by both: the loser got Discord's 400 50035 "name already taken",
    # listed again and took the winner's emoji.
    raced = emulator.take_problems("rejected")
    assert len(raced) == len(codes)
    assert all("50035" in p.message and "ALREADY_TAKEN" in p.detail for p in raced)


async def test_an_emoji_for_a_button_is_a_partial_emoji_with_the_id(
    emulator: Emulator, logged_in: Callable[[], asyncio.Future[discord.Client]]
) -> None:
    cards = CardEmojis(await logged_in(), codes=["Ks"])
    assert await cards.sync() is True
    emoji = cards.partial_emoji("Ks")
    stored = next(iter(emulator.app_emojis.emojis.values()))
    assert emoji is not None and (emoji.name, emoji.id) == ("c1_Ks", stored.id)
    assert cards.emoji_for("Ks") == f"<:c1_Ks:{stored.id}>" == str(emoji)
    assert cards.emoji_for("Qs") is None  # not one this manager was asked to keep


async def test_the_emulator_keeps_discords_rules_for_names_and_images(
    emulator: Emulator, logged_in: Callable[[], asyncio.Future[discord.Client]]
) -> None:
    client = await logged_in()
    png = emoji_png("7c")
    with pytest.raises(discord.HTTPException) as short:
        await client.create_application_emoji(name="x", image=png)
    with pytest.raises(discord.HTTPException) as dash:
        await client.create_application_emoji(name="bad-name", image=png)
    with pytest.raises(discord.HTTPException) as big:
        await client.create_application_emoji(name="big", image=png + b"\0" * 256 * 1024)
    assert {short.value.code, dash.value.code, big.value.code} == {50035}
    assert "BINARY_TYPE_MAX_SIZE" in big.value.text or "256" in big.value.text
    made = await client.create_application_emoji(name="ok_7c", image=png)
    assert [e.id for e in await client.fetch_application_emojis()] == [made.id]
    await made.delete()
    assert await client.fetch_application_emojis() == []
    assert len(emulator.take_problems("rejected")) == 3
