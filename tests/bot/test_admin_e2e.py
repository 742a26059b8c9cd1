"""``/cardsadmin``, the one admin command, through the emulator with the real bot: hidden
from members by Discord (Manage Server by default, at the top level), the old admin
subcommands saying where they went, each game's defaults read by its new tables, and the
role allowed to open tables.

Members: alice (en-US, Manage Server), bob and carol (French), dave (en-GB), erin (en-US).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from emulator import CommandNotAvailableError, Emulator
from emulator.model import Role
from tests.support.bot_harness import BotHarness
from tests.support.shared_bot import SharedBot
from tests.test_humans_gone_e2e import let_the_clock_play

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

MANAGE_GUILD = 1 << 5


@pytest_asyncio.fixture(loop_scope="module")
async def harness(shared_bot: SharedBot) -> AsyncIterator[BotHarness]:
    """A guild of its own on the bot the module's tests share."""
    async with shared_bot.scene() as h:
        yield h


def synced(emu: Emulator, name: str) -> dict:  # type: ignore[type-arg]
    (command,) = [c for c in emu.commands() if c["name"] == name]
    return command


async def test_members_are_not_offered_the_admin_command_and_old_ones_say_where_it_went(
    harness: BotHarness,
) -> None:
    """Discord hides a command by ``default_member_permissions`` only at the top level: the
    admin subcommands of each game's group were shown to every member and refused after a
    pick. ``/cardsadmin`` is synced with Manage Server; the games' groups keep play and read
    commands for everyone; an old admin subcommand answers where it went, in the member's
    language, and does nothing."""
    h, emu = harness, harness.emu
    await h.start()
    admin = synced(emu, "cardsadmin")
    assert int(admin["default_member_permissions"]) == MANAGE_GUILD
    assert admin["name_localizations"]["fr"] == "cartesadmin"
    assert {o["name"] for o in admin["options"]} == {
        "settings",
        "tamalou",
        "kalooki",
        "tarot",
        "table_role",
        "season",
        "tournament",
    }
    for game in ("tamalou", "kalooki", "tarot"):
        group = synced(emu, game)
        assert group.get("default_member_permissions") is None  # play and read: everyone
        assert {"new", "join", "leaderboard", "stats"} <= {o["name"] for o in group["options"]}
    with pytest.raises(CommandNotAvailableError):
        await emu.slash("bob", "cardsadmin settings", language="en")
    with pytest.raises(CommandNotAvailableError):
        await emu.slash("dave", "cardsadmin season start", name="Mine")
    await emu.slash("bob", "kalooki season start")
    moved = emu.last_ephemeral("bob").content
    assert "`/cartesadmin saison commencer`" in moved and "Rien n'a été modifié" in moved
    await emu.slash("dave", "tarot tournament create")
    moved = emu.last_ephemeral("dave").content
    assert "`/cardsadmin tournament create`" in moved and "Nothing was changed" in moved
    await emu.slash("alice", "tamalou settings")  # even for an admin: it only says where
    moved = emu.last_ephemeral("alice").content
    assert "`/cardsadmin settings`" in moved and "`/cardsadmin tamalou`" in moved
    for name in ("seasons", "tournaments", "guild_settings"):
        assert h.sql(f"SELECT * FROM {name} WHERE guild_id = ?", h.guild_id) == [], name


async def test_an_admin_sets_each_games_defaults_and_new_tables_read_them(
    harness: BotHarness,
) -> None:
    """Kalooki's turn time and call window and tarot's turn time were only a table's own
    options (tarot had none): a server sets them once in ``/cardsadmin``."""
    h, emu = harness, harness.emu
    await h.start()
    await emu.slash("alice", "cardsadmin kalooki", turn_seconds=60, call_seconds=5)
    assert "Kalooki: 60 s a turn, 5 s to call a discard." in emu.last_ephemeral("alice").content
    await emu.slash("alice", "cardsadmin tarot", turn_seconds=45, locale="fr")
    shown = emu.last_ephemeral("alice").content
    assert "Tarot : 45 s pour une enchère ou une carte." in shown
    assert "Kalooki : 60 s par tour, 5 s pour appeler une défausse." in shown
    await emu.slash("dave", "kalooki new")
    (row,) = h.sql(
        "SELECT settings FROM tables WHERE game = 'kalooki' AND guild_id = ?", h.guild_id
    )
    settings = json.loads(row["settings"])
    assert settings["turn_seconds"] == 60 and settings["call_seconds"] == 5
    await emu.slash("dave", "kalooki cancel")
    await emu.slash("erin", "kalooki new", turn_seconds=20)  # a table's own option wins
    assert (
        json.loads(
            h.sql("SELECT settings FROM tables WHERE guild_id = ?", h.guild_id)[-1]["settings"]
        )["turn_seconds"]
        == 20
    )
    await emu.slash("erin", "kalooki cancel")
    await emu.slash("dave", "tarot new")
    assert (
        json.loads(
            h.sql("SELECT settings FROM tables WHERE guild_id = ?", h.guild_id)[-1]["settings"]
        )["turn_seconds"]
        == 45
    )


async def test_a_server_may_keep_opening_tables_to_one_role(
    own_emulator: Emulator, tmp_path: Path
) -> None:
    """``/cardsadmin table_role``: a member without the role is refused ``new`` with a clear
    answer naming it, in their language; with it (or Manage Server) a table opens; no role
    set again: everyone. An emulator of its own: the role is the guild's from the start,
    and erin keeps it."""
    h, emu = BotHarness(own_emulator, tmp_path), own_emulator
    dealers = Role(max(r.id for r in emu.guild.roles) + 1, "Dealers", 0, position=1)
    emu.guild.roles.append(dealers)  # known to the bot from the guild it receives at start
    emu.member("erin").role_ids.append(dealers.id)
    await h.start()
    await emu.slash("alice", "cardsadmin table_role", role="Dealers")
    assert f"tables opened by <@&{dealers.id}>" in emu.last_ephemeral("alice").content
    await emu.slash("dave", "tamalou new")
    refused = emu.last_ephemeral("dave").content
    assert f"Only members with the role <@&{dealers.id}> may open a table" in refused
    await emu.slash("bob", "kalooki new")
    assert "Seuls les membres qui ont le rôle" in emu.last_ephemeral("bob").content
    assert h.sql("SELECT * FROM tables") == []
    await emu.slash("erin", "tamalou new")
    assert "Table 1 is open" in emu.last_ephemeral("erin").content
    await emu.slash("dave", "tamalou join")  # joining is not opening
    await emu.slash("erin", "tamalou cancel")
    await emu.slash("alice", "cardsadmin table_role")  # none: every member again
    assert "tables opened by every member" in emu.last_ephemeral("alice").content
    await emu.slash("dave", "tamalou new")
    assert "is open" in emu.last_ephemeral("dave").content


async def test_a_tournaments_tables_read_the_servers_defaults_for_their_game(
    own_emulator: Emulator, tmp_path: Path
) -> None:
    """``/cardsadmin kalooki``, ``tarot`` and ``tamalou`` set each game's turn time (and
    Kalooki's call window) for ``/<game> new``; a tournament's tables read them too (they
    played on the game's own clocks). A tournament's ``turn_seconds`` still wins. An
    emulator of its own: it reads every tournament and match of the database."""
    h, emu = BotHarness(own_emulator, tmp_path), own_emulator
    await h.start()
    await emu.slash("alice", "cardsadmin kalooki", turn_seconds=60, call_seconds=5)
    await emu.slash("alice", "cardsadmin tarot", turn_seconds=45)
    await emu.slash("alice", "cardsadmin tamalou", turn_seconds=30)
    for game in ("kalooki", "tarot", "tamalou"):
        await emu.slash("alice", "cardsadmin tournament create", game=game, name=f"{game} cup")
    tables = {
        r["game"]: json.loads(r["settings"])["table"]
        for r in h.sql("SELECT game, settings FROM tournaments")
    }
    assert tables["kalooki"]["turn_seconds"] == 60 and tables["kalooki"]["call_seconds"] == 5
    assert tables["tarot"]["turn_seconds"] == 45
    assert tables["tamalou"]["turn_seconds"] == 30
    kalooki = next(
        m for m in reversed(h.public_messages()) if "kalooki cup" in m.text and m.components
    )
    for name in ("alice", "erin"):
        await emu.click(name, kalooki, "Join")
    await emu.click("alice", kalooki, "Start")
    (match,) = await h.until(lambda: h.sql("SELECT rules FROM matches"), 15, "the table")
    rules = json.loads(match["rules"])
    assert rules["turn_clock_s"] == 60 and rules["call_window_s"] == 5  # the server's clocks
    await emu.slash(
        "alice",
        "cardsadmin tournament create",
        game="tarot",
        name="quick",
        turn_seconds=20,
        channel="tables",  # one live tournament of a game a channel
    )
    (row,) = h.sql("SELECT settings FROM tournaments WHERE name = 'quick'")
    own = json.loads(row["settings"])["table"]
    assert own["turn_seconds"] == 20  # the tournament's own option wins


async def test_the_role_allowed_to_open_tables_decides_rematch_not_tournament_tables(
    own_emulator: Emulator, tmp_path: Path
) -> None:
    """``/cardsadmin table_role`` keeps opening tables to a role: Rematch opens one, so a
    member without the role is refused it, the role named, and the finished table stays for
    a member with it; a tournament's tables are opened by the tournament an admin created,
    so its entrants without the role still play. An emulator of its own: the role is the
    guild's from the start."""
    h, emu = BotHarness(own_emulator, tmp_path), own_emulator
    dealers = Role(max(r.id for r in emu.guild.roles) + 1, "Dealers", 0, position=1)
    emu.guild.roles.append(dealers)
    emu.member("erin").role_ids.append(dealers.id)
    await h.start()
    await emu.slash("alice", "cardsadmin table_role", role="Dealers")
    await emu.slash("erin", "tamalou new")
    await emu.slash("erin", "tamalou addbot", level="easy")
    await emu.click("dave", h.table_message(), "Join")
    await emu.click("erin", h.table_message(), "Start")
    await let_the_clock_play(h, 46_000)  # both away: the match ends (docs/rules.md)
    over = await emu.wait_for(
        lambda: next(
            (m for m in reversed(h.public_messages()) if "tamalou:rematch:" in str(m.components)),
            None,
        ),
        10,
        "the Rematch button",
    )
    await emu.click("dave", over, "Rematch")
    assert f"Only members with the role <@&{dealers.id}> may open a table" in (
        emu.last_ephemeral("dave").content
    )
    assert len(h.sql("SELECT id FROM matches")) == 1  # no rematch opened
    await emu.click("erin", over, "Rematch")
    await h.until(lambda: len(h.sql("SELECT id FROM matches")) == 2, 10, "erin's rematch")
    await emu.slash("erin", "tamalou cancel")
    await emu.slash("alice", "cardsadmin tournament create", game="kalooki", name="Cup")
    cup = next(m for m in reversed(h.public_messages()) if "Cup" in m.text and m.components)
    for name in ("dave", "bob"):  # neither has the role
        await emu.click(name, cup, "Join")
    await emu.click("alice", cup, "Start")
    await h.until(
        lambda: h.sql("SELECT id FROM tables WHERE tournament_id IS NOT NULL"),
        15,
        "the tournament's table",
    )
