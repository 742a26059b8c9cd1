"""Tests of the Discord emulator itself, driving the sample bot in emulator/sample.

Most tests share one emulator and one bot process (module scope) to stay fast; each test
starts with no recorded problem and fails at teardown on any problem it did not take.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import discord.utils
import pytest
import pytest_asyncio

from emulator import (
    CommandNotAvailableError,
    ComponentDisabledError,
    Emulator,
    EmulatorError,
    running_emulator,
    snowflake_from_ms,
    snowflake_time_ms,
)
from emulator.validation import check_message
from tests.support.backends import fresh_database

pytestmark = pytest.mark.asyncio(loop_scope="module")

SAMPLE = "emulator.sample"


def sample_env(emu: Emulator) -> dict[str, str]:
    return {"EMU_SAMPLE_GUILD_ID": str(emu.guild.id)}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Emulator]:
    log_dir = tmp_path_factory.mktemp("emulator")
    async with running_emulator(log_dir=log_dir, check=False) as emu:
        await emu.start_bot(SAMPLE, env=sample_env(emu))
        yield emu


@pytest_asyncio.fixture(loop_scope="module")
async def emu(shared: Emulator) -> AsyncIterator[Emulator]:
    shared.take_problems()
    deadline = shared.response_deadline
    yield shared
    await shared.settle()
    shared.response_deadline = deadline
    shared.check()


async def api(emu: Emulator, method: str, path: str, **kwargs: object) -> tuple[int, str, object]:
    headers = {"Authorization": f"Bot {emu.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(
            method,
            emu.api_base + path,
            headers=headers,
            **kwargs,  # type: ignore[arg-type]
        ) as resp,
    ):
        body = await resp.json() if resp.status != 204 else None
        return resp.status, resp.headers.get("Content-Type", ""), body


async def test_a_new_scene_forgets_the_requests_but_not_their_numbering() -> None:
    """``forget_records`` (tests sharing one bot) empties ``requests``; the next request's
    id follows the last one's. The bot acknowledges each reply by its request id: an id
    used again read as a reply consumed before the bot had it."""
    async with running_emulator() as emu:
        await api(emu, "GET", "/users/@me")
        await api(emu, "GET", "/users/@me")
        last = emu.requests[-1].id
        emu.forget_records()
        assert emu.requests == []
        await api(emu, "GET", "/users/@me")
        assert [r.id for r in emu.requests] == [last + 1]


# ---------------------------------------------------------------------- pure units
async def test_snowflake_round_trip() -> None:
    at = 1_700_000_000_123
    sf = snowflake_from_ms(at, increment=7)
    assert snowflake_time_ms(sf) == at
    assert int(discord.utils.snowflake_time(sf).timestamp() * 1000) == at


async def test_message_limits() -> None:
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": "x"}]}
    assert not check_message({"content": "x" * 2000, "components": [row]}, 0)
    assert check_message({"content": "x" * 2001}, 0)
    six_rows = [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": f"c{i}"}]}
        for i in range(6)
    ]
    assert check_message({"components": six_rows}, 0)
    six_buttons = [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": "b", "custom_id": f"c{i}"} for i in range(6)
            ],
        }
    ]
    assert check_message({"components": six_buttons}, 0)
    select_and_button = [
        {
            "type": 1,
            "components": [
                {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]},
                {"type": 2, "style": 1, "label": "b", "custom_id": "b"},
            ],
        }
    ]
    assert check_message({"components": select_and_button}, 0)
    assert check_message(
        {
            "components": [
                {
                    "type": 1,
                    "components": [{"type": 2, "style": 1, "label": "b", "custom_id": "c" * 101}],
                }
            ]
        },
        0,
    )
    assert check_message(
        {
            "components": [
                {
                    "type": 1,
                    "components": [{"type": 2, "style": 1, "label": "l" * 81, "custom_id": "c"}],
                }
            ]
        },
        0,
    )
    dupes = [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": "b", "custom_id": "same"} for _ in range(2)
            ],
        }
    ]
    err = check_message({"components": dupes}, 0)
    assert "duplicated" in str(err.flat)
    assert check_message({"embeds": [{"title": "t" * 257}]}, 0)
    assert check_message({"embeds": [{"description": "d" * 4097}]}, 0)
    assert check_message({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, 0)
    assert check_message({"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]}, 0)
    assert check_message({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, 0)
    assert check_message({"embeds": [{"footer": {"text": "f" * 2049}}]}, 0)
    assert check_message({"embeds": [{"title": "t"}] * 11}, 0)
    big = [{"description": "d" * 4000}, {"description": "d" * 2001}]
    assert "6000" in str(check_message({"embeds": big}, 0).flat)


# ---------------------------------------------------------------------- REST rules
async def test_json_content_type_is_exact(emu: Emulator) -> None:
    status, ctype, body = await api(emu, "GET", "/users/@me")
    assert status == 200 and ctype == "application/json"
    assert isinstance(body, dict) and body["id"] == str(emu.app_id)


async def test_unknown_endpoint_detected(emu: Emulator) -> None:
    inter = await emu.slash("alice", "demo unknown")
    assert [m.content for m in inter.followups] == ["not found"]
    problems = emu.take_problems("unknown_endpoint")
    assert len(problems) == 1 and "/emu-sample/nothing" in problems[0].message


async def test_command_sync_rejects_bad_localized_names(emu: Emulator) -> None:
    cmd = {"name": "x", "description": "d", "type": 1, "name_localizations": {"fr": "Avec Espace"}}
    status, _, body = await api(emu, "POST", f"/applications/{emu.app_id}/commands", json=cmd)
    assert status == 400 and isinstance(body, dict) and body["code"] == 50035
    assert emu.take_problems("rejected")


async def test_command_sync_rejects_a_locale_discord_does_not_know(emu: Emulator) -> None:
    """Issue 23: Discord's French is ``fr``; ``fr-FR`` is refused (50035), in a command's
    name, description and choice localisations."""
    url = f"/applications/{emu.app_id}/commands"
    for bad in (
        {"name_localizations": {"fr-FR": "nouveau"}},
        {"description_localizations": {"fr-FR": "une table"}},
        {
            "options": [
                {
                    "type": 3,
                    "name": "o",
                    "description": "d",
                    "choices": [{"name": "a", "value": "a", "name_localizations": {"fr-FR": "b"}}],
                }
            ]
        },
    ):
        cmd = {"name": "x", "description": "d", "type": 1, **bad}
        status, _, body = await api(emu, "POST", url, json=cmd)
        assert status == 400 and isinstance(body, dict) and body["code"] == 50035, bad
        assert emu.take_problems("rejected")
    good = {"name": "x2", "description": "d", "type": 1, "name_localizations": {"fr": "x2"}}
    status, _, _ = await api(emu, "POST", url, json=good)
    assert status in (200, 201)
    await api(emu, "DELETE", f"{url}/{(await api(emu, 'GET', url))[2][-1]['id']}")  # type: ignore[index]


async def test_a_channel_message_may_not_be_ephemeral(emu: Emulator) -> None:
    """Issue 23: EPHEMERAL (64) is an interaction response's flag; Create Message refuses it."""
    channel = emu.channel("general")
    url = f"/channels/{channel.id}/messages"
    status, _, body = await api(emu, "POST", url, json={"content": "x", "flags": 64})
    assert status == 400 and isinstance(body, dict) and body["code"] == 50035
    assert emu.take_problems("rejected")
    status, _, _ = await api(emu, "POST", url, json={"content": "x", "flags": 4096})  # silent
    assert status == 200


async def test_a_nonce_with_enforce_nonce_returns_the_message_already_made(emu: Emulator) -> None:
    """Create Message: "If true and nonce is present, it will be checked for uniqueness in
    the past few minutes. If another message was created by the same author with the same
    nonce, that message will be returned and no new message will be created." A nonce is
    an integer or a string of at most 25 characters."""
    channel = emu.channel("general")
    url = f"/channels/{channel.id}/messages"
    first = {"content": "first", "nonce": "tp1.abc", "enforce_nonce": True}
    status, _, made = await api(emu, "POST", url, json=first)
    assert status == 200 and isinstance(made, dict)
    again = {"content": "second", "nonce": "tp1.abc", "enforce_nonce": True}
    status, _, found = await api(emu, "POST", url, json=again)
    assert status == 200 and isinstance(found, dict)
    assert found["id"] == made["id"] and found["content"] == "first"
    status, _, other = await api(emu, "POST", url, json={"content": "x", "nonce": "tp1.abc"})
    assert status == 200 and isinstance(other, dict) and other["id"] != made["id"]  # not enforced
    emu.advance(2 * 60 * 1000 + 1)  # past the window: a new message
    status, _, late = await api(emu, "POST", url, json=again)
    assert status == 200 and isinstance(late, dict) and late["id"] != made["id"]
    status, _, body = await api(emu, "POST", url, json={"content": "x", "nonce": "n" * 26})
    assert status == 400 and isinstance(body, dict) and body["code"] == 50035
    assert emu.take_problems("rejected")
    assert not check_message({"nonce": 12345678901234567890}, 0)
    assert "enforce_nonce" in str(check_message({"nonce": "a", "enforce_nonce": "yes"}, 0).flat)


async def test_stall_next_does_the_request_and_holds_its_answer(emu: Emulator) -> None:
    """Tests kill the bot between Discord's work and its answer."""
    channel = emu.channel("general")
    url = f"/channels/{channel.id}/messages"
    stall = emu.stall_next("POST", url, contains="held")
    pending = asyncio.ensure_future(api(emu, "POST", url, json={"content": "held"}))
    await asyncio.wait_for(stall.hit.wait(), 5)
    assert [m.content for m in emu.channel_messages(channel)][-1:] == ["held"]  # done
    assert not pending.done()
    stall.release()
    status, _, _ = await asyncio.wait_for(pending, 5)
    assert status == 200


async def test_a_select_may_not_have_more_defaults_than_max_values() -> None:
    """Issue 23: a string select whose default options exceed ``max_values`` is refused."""

    def select(defaults: int, max_values: int) -> dict[str, object]:
        options = [{"label": f"o{i}", "value": f"{i}", "default": i < defaults} for i in range(3)]
        comp = {"type": 3, "custom_id": "s", "options": options, "max_values": max_values}
        return {"components": [{"type": 1, "components": [comp]}]}

    assert not check_message(select(1, 1), 0)
    assert not check_message(select(2, 2), 0)
    assert "default" in str(check_message(select(2, 1), 0).flat)


async def test_fail_next_answers_the_next_matching_requests_with_the_fault(
    emu: Emulator,
) -> None:
    """Tests inject Discord's faults: the next N matching requests get the status and code."""
    channel = emu.channel("general")
    url = f"/channels/{channel.id}/messages"
    emu.advance(seconds=5)  # the channel's posting bucket (5 per 5 s) starts afresh
    emu.fail_next("POST", url, 502, 0, "Bad Gateway", times=2)
    for _ in range(2):
        status, _, _ = await api(emu, "POST", url, json={"content": "x"})
        assert status == 502
    status, _, _ = await api(emu, "POST", url, json={"content": "x"})
    assert status == 200


# ---------------------------------------------------------------------- interactions
async def test_slash_public_reply(emu: Emulator) -> None:
    inter = await emu.slash("alice", "demo hello")
    assert inter.response_type == 4 and not inter.ephemeral
    msg = emu.last_message("general")
    assert msg is inter.response and msg.content == "hello alice"
    assert [b.label for b in msg.buttons()] == ["Count", "Off", "Boom", "Secret"]
    assert emu.history()[-1].public
    assert msg in emu.visible_messages("erin")


async def test_button_ephemeral_only_for_clicker(emu: Emulator) -> None:
    await emu.slash("alice", "demo hello")
    table = emu.last_message()
    click = await emu.click("bob", table, "Secret")
    reply = click.response
    assert reply is not None and reply.ephemeral and reply.content.startswith("secret #")
    assert reply in emu.ephemerals("bob")
    assert reply not in emu.ephemerals("alice")
    assert reply not in emu.visible_messages("carol")
    assert reply not in emu.channel_messages()
    assert emu.leaks(reply.content, owner="bob") == []
    assert all(e.audience == emu.member("bob").id for e in emu.history() if reply.content in e.text)
    with pytest.raises(EmulatorError):  # carol cannot click bob's ephemeral
        await emu.click("carol", reply, "Secret")


async def test_view_button_updates_message(emu: Emulator) -> None:
    await emu.slash("alice", "demo hello")
    table = emu.last_message()
    inter = await emu.click("carol", table, "Count")
    assert inter.response_type == 7
    assert table.content == "count=1" and table.buttons()[0].label == "Count (1)"
    await emu.click("dave", table, custom_id=table.buttons()[0].custom_id)
    assert table.content == "count=2"
    versions = [e.content for e in emu.history() if e.message_id == table.id]
    assert versions == ["hello alice", "count=1", "count=2"]


async def test_disabled_and_unknown_buttons_refused(emu: Emulator) -> None:
    await emu.slash("alice", "demo hello")
    table = emu.last_message()
    with pytest.raises(ComponentDisabledError):
        await emu.click("bob", table, "Off")
    with pytest.raises(EmulatorError, match="no button"):
        await emu.click("bob", table, "Nope")


async def test_moderator_deletes_a_message(emu: Emulator) -> None:
    await emu.slash("alice", "demo hello")
    table = emu.last_message()
    await emu.delete_message(table)
    assert table.deleted and table not in emu.channel_messages()
    with pytest.raises(EmulatorError, match="deleted"):
        await emu.click("bob", table, "Secret")
    status, _, body = await api(
        emu, "PATCH", f"/channels/{table.channel_id}/messages/{table.id}", json={"content": "x"}
    )
    assert status == 404 and isinstance(body, dict) and body["code"] == 10008


async def test_select_menu(emu: Emulator) -> None:
    await emu.slash("alice", "demo hello")
    inter = await emu.select("erin", emu.last_message(), None, ["Blue"])
    assert inter.response is not None and inter.response.content == "picked ['b']"
    with pytest.raises(EmulatorError):
        await emu.select("erin", emu.last_message(), None, ["Green"])


async def test_defer_then_followups(emu: Emulator) -> None:
    inter = await emu.slash("alice", "demo deferred")
    assert inter.response_type == 5
    original = inter.response
    assert original is not None and original.content == "done after defer"
    assert not original.loading and not original.ephemeral
    (second,) = inter.followups
    assert second.ephemeral and second.recipient_id == emu.member("alice").id
    loading = next(e for e in emu.history() if e.message_id == original.id)
    assert loading.flags & 128  # the "thinking..." state was shown first

    inter = await emu.slash("bob", "demo deferred", ephemeral=True)
    assert inter.response is not None and inter.response.ephemeral
    assert inter.response.content == "done after defer"


async def test_edit_original(emu: Emulator) -> None:
    inter = await emu.slash("alice", "demo edit")
    assert inter.response is not None and inter.response.content == "v2"
    assert [e.content for e in emu.history() if e.message_id == inter.response.id] == ["v1", "v2"]
    assert [m.content for m in inter.followups] == ["original says v2"]


async def test_followup_and_original_lifecycle(emu: Emulator) -> None:
    inter = await emu.slash("bob", "demo lifecycle")
    assert inter.response is not None and inter.response.deleted  # @original deleted
    first, gone, last = inter.followups
    assert first.content == "f2" and not first.deleted
    assert gone.deleted and gone not in emu.channel_messages()
    assert last.content == "fetched f2" and last.ephemeral
    assert [m.content for m in inter.messages] == ["f2", "fetched f2"]
    actions = [(e.action, e.content) for e in emu.history() if e.interaction_id == inter.id]
    assert actions == [
        ("create", "r1"),
        ("create", "f1"),
        ("edit", "f2"),
        ("create", "gone"),
        ("delete", "gone"),
        ("delete", "r1"),
        ("create", "fetched f2"),
    ]


async def test_channel_message_send_edit_delete_and_file(emu: Emulator) -> None:
    inter = await emu.slash("alice", "demo post", channel="tables")
    texts = [m.content for m in emu.channel_messages("tables")]
    assert texts[-2:] == ["channel v2", "a file"]
    sent = emu.channel_messages("tables")[-2]
    assert [e.content for e in emu.history() if e.message_id == sent.id] == [
        "channel v1",
        "channel v2",
    ]
    assert "temporary" not in texts
    (att,) = emu.last_message("tables").attachments
    assert att.filename == "card.png" and att.data == b"PNGDATA"
    report = inter.followups[0].content
    assert "fetched=channel v2" in report and "recent=['channel v2'" in report
    url = report.split("url=")[1]
    async with aiohttp.ClientSession() as session, session.get(url) as resp:
        assert await resp.read() == b"PNGDATA"


async def test_gateway_resume(emu: Emulator) -> None:
    await emu.reconnect_gateway()
    inter = await emu.slash("erin", "demo when")
    assert inter.text.startswith("t=")


async def test_typed_options_and_subcommand_group(emu: Emulator) -> None:
    inter = await emu.slash("alice", "demo pick", who="bob", times=3)
    assert inter.text == "who=bob times=3 note=None roles=1"
    inter = await emu.slash("alice", "demo pick", who="alice", times=10, note="hi")
    assert inter.text == "who=alice times=10 note=hi roles=2"
    with pytest.raises(EmulatorError, match="above"):
        await emu.slash("alice", "demo pick", who="bob", times=11)
    with pytest.raises(EmulatorError, match="needs option"):
        await emu.slash("alice", "demo pick", who="bob")
    with pytest.raises(EmulatorError, match="no option"):
        await emu.slash("alice", "demo pick", who="bob", times=1, colour="red")
    inter = await emu.slash("carol", "demo season start", name="Spring")
    assert inter.text == "season Spring started"
    with pytest.raises(CommandNotAvailableError):
        await emu.slash("carol", "demo nothing")


async def test_permissions_and_locales(emu: Emulator) -> None:
    inter = await emu.slash("alice", "demo admin")
    assert inter.text == "admin=True locale=en-US guild=en-US"
    inter = await emu.slash("bob", "demo admin")
    assert inter.text == "admin=False locale=fr guild=en-US"
    inter = await emu.slash("bob", "demo admin", locale="de")
    assert "locale=de" in inter.text
    with pytest.raises(CommandNotAvailableError):
        await emu.slash("bob", "adminonly")
    assert (await emu.slash("alice", "adminonly")).text == "admin stuff"


async def test_modal(emu: Emulator) -> None:
    opened = await emu.slash("dave", "demo modal")
    assert opened.response_type == 9 and opened.modal is not None
    submitted = await emu.submit_modal("dave", opened, {"Name": "Zed"})
    assert submitted.text == "hello Zed"


async def test_dm_and_member_chunk(emu: Emulator) -> None:
    await emu.slash("carol", "demo dm")
    assert [m.content for m in emu.dms("carol")] == ["psst, a secret DM"]
    assert emu.leaks("psst", owner="carol") == []
    inter = await emu.slash("alice", "demo members", prefix="ca")
    assert inter.text == "carol"


async def test_second_initial_response_rejected(emu: Emulator) -> None:
    inter = await emu.slash("alice", "demo twice")
    assert [m.content for m in inter.followups] == ["second: 400 40060"]


async def test_late_response_rejected(emu: Emulator) -> None:
    emu.response_deadline = 0.2
    inter = await emu.slash("alice", "demo slow", delay=0.5)
    assert inter.expired and not inter.responded and inter.late_responses == 1
    assert any("10062" in e or "Unknown interaction" in e for e in inter.errors)
    assert [p.kind for p in emu.take_problems()] == ["lost_interaction", "traceback"]
    late = emu.requests_to("POST", f"/interactions/{inter.id}/")
    assert late[-1].status == 404 and late[-1].response["code"] == 10062


async def test_out_of_order_delivery_keeps_timestamps(emu: Emulator) -> None:
    base = emu.clock.now_ms() - 1000
    later = await emu.slash("bob", "demo when", at=base + 120, wait=False)
    earlier = await emu.slash("carol", "demo when", at=base, wait=False)
    await emu.handled(later)
    await emu.handled(earlier)
    assert earlier.id < later.id
    assert earlier.text == f"t={base}" and later.text == f"t={base + 120}"
    assert earlier.delivered_ms >= later.delivered_ms


async def test_invalid_payloads_rejected_like_discord(emu: Emulator) -> None:
    for kind in ("rows", "long", "embed"):
        inter = await emu.slash("alice", "demo invalid", kind=kind)
        assert inter.text == "rejected 400 50035", kind
    assert len(emu.take_problems("rejected")) == 3


async def test_bot_traceback_detected(emu: Emulator) -> None:
    await emu.slash("alice", "demo hello")
    click = await emu.click("bob", emu.last_message(), "Boom")
    assert any("button exploded" in e for e in click.errors)
    emu.response_deadline = 0.2
    inter = await emu.slash("alice", "demo boom")
    assert any("command exploded" in e for e in inter.errors)
    await emu.settle()
    kinds = [p.kind for p in emu.take_problems()]
    # /demo boom never answers: a traceback and a lost interaction
    assert sorted(kinds) == ["lost_interaction", "traceback", "traceback"]


async def test_token_expiry_for_followups(emu: Emulator) -> None:
    inter = await emu.slash("alice", "demo hello")
    path = f"/webhooks/{emu.app_id}/{inter.token}/messages/@original"
    status, _, _ = await api(emu, "PATCH", path, json={"content": "edited"})
    assert status == 200 and inter.response is not None and inter.response.content == "edited"
    emu.advance(minutes=15, seconds=1)
    status, _, body = await api(emu, "PATCH", path, json={"content": "too late"})
    assert status == 401 and isinstance(body, dict) and body["code"] == 50027


async def test_no_click_lost_right_after_the_reply(emu: Emulator) -> None:
    for _ in range(15):
        inter = await emu.slash("alice", "demo hello", wait=False)
        await emu.responded(inter)
        msg = inter.response
        assert msg is not None
        click = await emu.click("bob", msg, "Count")  # view stored only after the reply
        assert click.response_type == 7


# ---------------------------------------------------------------------- process control
async def test_restart_keeps_state_and_persistent_buttons(tmp_path: Path) -> None:
    async with running_emulator(log_dir=tmp_path) as emu:
        await emu.start_bot(SAMPLE, env=sample_env(emu))
        await emu.slash("alice", "demo hello")
        table = emu.last_message()
        ids = [c["id"] for c in emu.commands()]
        await emu.kill_bot()
        with pytest.raises(EmulatorError):
            await emu.slash("alice", "demo hello")
        await emu.start_bot(SAMPLE, env=sample_env(emu))
        assert emu.last_message() is table
        assert [c["id"] for c in emu.commands()] == ids  # re-sync keeps command ids
        click = await emu.click("erin", table, "Secret")
        assert click.response is not None and click.response.content.startswith("secret #")
        emu.response_deadline = 0.3
        lost = await emu.click("erin", table, "Count")  # a non-persistent View died
        await emu.settle()
        assert lost.expired
        (problem,) = emu.take_problems()
        assert problem.kind == "lost_interaction" and "no stored View" in problem.message
        await emu.stop_bot()
        assert emu.take_problems() == []


async def test_two_shards(tmp_path: Path) -> None:
    async with running_emulator(log_dir=tmp_path, shard_count=2) as emu:
        await emu.start_bot(SAMPLE, env={**sample_env(emu), "EMU_IDENTIFY_DELAY": "0"})
        assert sorted(emu.sessions) == [0, 1]
        inter = await emu.slash("bob", "demo hello")
        assert inter.text.startswith("hello bob")


async def test_problems_fail_at_exit(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match=r"unknown_endpoint.*GET /api/v10/nope"):
        async with running_emulator(log_dir=tmp_path) as emu:
            status, ctype, _ = await api(emu, "GET", "/nope")
            assert status == 404 and ctype == "application/json"


@pytest.mark.asyncio(loop_scope="function")
@pytest.mark.emulator(response_deadline=0.5, preferred_locale="fr")
async def test_emulator_fixture(emulator: Emulator) -> None:
    assert emulator.response_deadline == 0.5 and emulator.guild.preferred_locale == "fr"
    await emulator.start_bot(SAMPLE, env=sample_env(emulator), wait="connected")
    inter = await emulator.slash("alice", "demo admin")
    assert inter.text == "admin=True locale=en-US guild=fr"


async def test_the_launcher_times_a_click_inside_the_bot(tmp_path: Path) -> None:
    """EMU_ANSWER_TIMES=1 (tools/bench_bot.py's open loop): the launcher reports each
    interaction's time inside the bot's process, from its gateway frame read off the socket
    to its first answer written, and the part of it the frame waited to be read."""
    seen: list[dict[str, object]] = []
    async with running_emulator(log_dir=tmp_path, check=False) as emu:
        original = emu._on_bot_event

        def spy(ev: dict[str, object]) -> None:
            seen.append(ev)
            original(ev)

        emu._on_bot_event = spy  # type: ignore[method-assign]
        await emu.start_bot(SAMPLE, env={**sample_env(emu), "EMU_ANSWER_TIMES": "1"})
        user = emu.members[0]
        await emu.slash(user, "demo hello")
        hello = emu.last_message(emu.guild.channels[0])
        secret = next(b.custom_id for b in hello.buttons() if "demo:secret:" in (b.custom_id or ""))
        inter = await emu.click(user, hello, custom_id=secret)
        assert inter.responded

        def answered() -> list[dict[str, object]]:
            return [
                e
                for e in seen
                if e.get("kind") == "answered" and e.get("interaction_id") == inter.id
            ]

        await emu.wait_for(lambda: bool(answered()), 10, "the click's answered report")
    (report,) = answered()
    bot_ms, queued_ms = report["bot_ms"], report["queued_ms"]
    assert isinstance(bot_ms, float) and isinstance(queued_ms, float)
    assert 0 <= queued_ms <= bot_ms
    assert report["rules_ms"] == 0.0  # a bot that waits no reorder window


COUNT_ROUND_TRIPS = """
import asyncio, sys
import asyncpg
from emulator import launcher

class Reporter:
    n = 0
    def send(self, kind, **data):
        Reporter.n += data["n"]

launcher.install_db_round_trips(Reporter())

async def main(url):
    con = await asyncpg.connect(url)
    counts = []
    async def step(coro):
        before = Reporter.n
        await coro
        counts.append(Reporter.n - before)
    async def in_transaction():
        async with con.transaction():
            await con.execute("SELECT 1")
    await step(con.execute("CREATE TEMP TABLE t (x int)"))
    await step(con.fetchval("SELECT $1::int", 1))
    await step(con.fetchval("SELECT $1::int", 2))
    await step(con.executemany("INSERT INTO t VALUES ($1)", [(1,), (2,), (3,)]))
    await step(in_transaction())
    await con.close()
    print(counts)

asyncio.run(main(sys.argv[1]))
"""


async def test_the_launcher_counts_postgresql_round_trips() -> None:
    """EMU_DB_ROUND_TRIPS=1 (tools/bench_bot.py's scale runs): one a simple query, two for a
    statement prepared then run, one once it is cached, one for a pipelined executemany
    (after its prepare), three for a transaction of one statement (BEGIN, it, COMMIT)."""
    url = await fresh_database()  # skips without a PostgreSQL server
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-c", COUNT_ROUND_TRIPS, url],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.strip() == "[1, 2, 1, 2, 3]", done.stderr[-2000:]


async def test_emoji_markup_in_a_label_placeholder_or_option_label_is_found() -> None:
    """Issue 21: Discord shows ``<:c1_9h:123>`` as text in a button label, a select's
    placeholder or an option label (only content and embeds render custom emojis); the
    emulator records it as a problem of every e2e run (``emu.check``)."""
    from emulator.validation import markup_in_labels

    row = {
        "type": 1,
        "components": [
            {"type": 2, "style": 2, "label": "Take <:c1_9h:123>", "custom_id": "a"},
            {"type": 2, "style": 2, "label": "Take 9♥", "custom_id": "b", "emoji": {"id": "1"}},
        ],
    }
    select = {
        "type": 1,
        "components": [
            {
                "type": 3,
                "custom_id": "c",
                "placeholder": "<a:x:9> pick",
                "options": [
                    {"label": "<:c1_2s:5> on #1", "value": "1"},
                    {"label": "2♠", "value": "2"},
                ],
            }
        ],
    }
    assert markup_in_labels([row, select]) == [
        ("label", "Take <:c1_9h:123>"),
        ("placeholder", "<a:x:9> pick"),
        ("option label", "<:c1_2s:5> on #1"),
    ]


async def test_the_bots_test_clock_keeps_its_offset_through_a_torn_read(tmp_path: Path) -> None:
    """The harness's clock file was written in place: a read between its truncation and its
    write gave an offset of 0, the bot's clock went back by every advance for a moment, and
    a turn ping timed from then came that much early (a CI failure). The harness replaces
    the file atomically, and the bot keeps its last offset when the file reads empty."""
    import time

    from tests.support.e2e_bot import OffsetClock

    path = tmp_path / "clock_offset_ms"
    path.write_text("600000")
    clock = OffsetClock(str(path))
    first = clock()
    assert first - time.time() * 1000 > 590_000
    path.write_text("")  # the instant of a write in place
    time.sleep(0.01)
    assert clock() - time.time() * 1000 > 590_000
