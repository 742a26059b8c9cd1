"""The emulator refuses what Discord refuses, and accepts what it accepts.

Each request goes through discord.py's own HTTP clients (``HTTPClient`` for the bot's
REST calls, the webhook adapter for interaction callbacks), so a refusal is the
``HTTPException`` the bot would get; its body is Discord's shape (50035 Invalid Form Body
with the ``errors`` tree, or Discord's own code). The sources of each rule are in
docs/emulator.md ("Limits") and next to the check in emulator/validation.py.
"""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator, Awaitable
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord.http import Route, handle_message_parameters
from discord.webhook.async_ import async_context, interaction_response_params

from emulator import Emulator, running_emulator
from emulator.validation import command_size

pytestmark = pytest.mark.asyncio(loop_scope="module")

BUTTON = {"type": 2, "style": 1, "label": "Draw", "custom_id": "draw"}
SUPPRESS_NOTIFICATIONS, EPHEMERAL, LOADING, CROSSPOSTED = 1 << 12, 1 << 6, 1 << 7, 1 << 0


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Emulator]:
    async with running_emulator(log_dir=tmp_path_factory.mktemp("refusals"), check=False) as emu:
        yield emu


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(shared: Emulator) -> AsyncIterator[discord.Client]:
    """discord.py's own HTTP client, logged in to the emulator (no gateway)."""
    base = discord.http.Route.BASE
    discord.http.Route.BASE = shared.api_base
    bot = discord.Client(intents=discord.Intents.none())
    await bot.login(shared.token)
    yield bot
    await bot.close()
    discord.http.Route.BASE = base


@pytest_asyncio.fixture(loop_scope="module")
async def emu(shared: Emulator, client: discord.Client) -> AsyncIterator[Emulator]:
    shared.take_problems()
    yield shared
    shared.check()


def row(*components: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"type": 1, "components": list(components)}]


async def refused(emu: Emulator, call: Awaitable[Any], code: int = 50035) -> dict[str, Any]:
    """Awaits a request Discord refuses: the bot gets a 400 with ``code``; returns the
    ``errors`` tree of the answer (the emulator records it as a "rejected" problem)."""
    with pytest.raises(discord.HTTPException) as caught:
        await call
    assert (caught.value.status, caught.value.code) == (400, code), caught.value.text
    body = emu.requests[-1].response
    assert isinstance(body, dict) and body["code"] == code
    if code == 50035:
        assert body["message"] == "Invalid Form Body"
    assert [p.kind for p in emu.take_problems("rejected")] == ["rejected"]
    errors: dict[str, Any] = body.get("errors", {})
    return errors


def codes(errors: dict[str, Any], *path: str | int) -> list[str]:
    node = errors
    for part in path:
        node = node[str(part)]
    return [e["code"] for e in node["_errors"]]


def post(client: discord.Client, emu: Emulator, payload: dict[str, Any]) -> Awaitable[Any]:
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=emu.channel().id)
    return client.http.request(route, json=payload)


def files(count: int) -> list[discord.File]:
    return [discord.File(io.BytesIO(b"x"), filename=f"f{i}.txt") for i in range(count)]


def callback(inter: Any, rtype: int, data: dict[str, Any]) -> Awaitable[Any]:
    """An interaction callback as discord.py's webhook adapter sends it."""

    async def send() -> Any:
        async with aiohttp.ClientSession() as session:
            adapter = async_context.get()
            params = interaction_response_params(rtype, data)
            return await adapter.create_interaction_response(
                inter.id, inter.token, session=session, params=params
            )

    return send()


# ---------------------------------------------------------------------- allowed_mentions
async def test_parse_users_with_a_users_list_is_refused(
    emu: Emulator, client: discord.Client
) -> None:
    """message.mdx: parse and users are mutually exclusive ("causing a validation
    error"); an empty users list "does not trigger a validation error"."""
    both = {"content": "<@1>", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}
    errors = await refused(emu, post(client, emu, both))
    assert codes(errors, "allowed_mentions") == ["MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE"]
    empty = {"content": "<@1>", "allowed_mentions": {"parse": ["users"], "users": []}}
    await post(client, emu, empty)
    other = {"content": "hi", "allowed_mentions": {"parse": ["everyone"], "users": ["1"]}}
    await post(client, emu, other)


async def test_more_than_100_mention_ids_are_refused(emu: Emulator, client: discord.Client) -> None:
    """message.mdx: users and roles hold at most 100 ids each."""
    ids = [str(10**17 + i) for i in range(101)]
    errors = await refused(
        emu, post(client, emu, {"content": "x", "allowed_mentions": {"users": ids}})
    )
    assert codes(errors, "allowed_mentions", "users") == ["BASE_TYPE_MAX_LENGTH"]
    await post(client, emu, {"content": "x", "allowed_mentions": {"roles": ids[:100]}})


async def test_an_unknown_mention_type_is_refused(emu: Emulator, client: discord.Client) -> None:
    """message.mdx, Allowed Mention Types: "roles", "users", "everyone"."""
    payload = {"content": "x", "allowed_mentions": {"parse": ["users", "channels"]}}
    errors = await refused(emu, post(client, emu, payload))
    assert codes(errors, "allowed_mentions", "parse", 1) == ["BASE_TYPE_CHOICES"]


# ---------------------------------------------------------------------- components
async def test_an_empty_select_option_label_is_refused(
    emu: Emulator, client: discord.Client
) -> None:
    """discord-api-spec StringSelectOptionForRequest: label minLength 1."""
    options = [{"label": "", "value": "a"}, {"label": "B", "value": "b"}]
    select = {"type": 3, "custom_id": "pick", "options": options}
    errors = await refused(emu, post(client, emu, {"content": "x", "components": row(select)}))
    assert codes(errors, "components", 0, "components", 0, "options", 0, "label") == [
        "BASE_TYPE_BAD_LENGTH"
    ]


async def test_a_button_emoji_given_as_a_string_is_refused(
    emu: Emulator, client: discord.Client
) -> None:
    """components reference, Button: emoji is a partial emoji object."""
    errors = await refused(
        emu, post(client, emu, {"content": "x", "components": row({**BUTTON, "emoji": "🂡"})})
    )
    assert codes(errors, "components", 0, "components", 0, "emoji") == ["MODEL_TYPE_CONVERT"]
    await post(client, emu, {"content": "x", "components": row({**BUTTON, "emoji": {"name": "🂡"}})})


async def test_a_url_on_a_non_link_button_is_refused(emu: Emulator, client: discord.Client) -> None:
    """components reference, Button: non-link buttons "cannot have a url"."""
    button = {**BUTTON, "url": "https://example.com"}
    errors = await refused(emu, post(client, emu, {"content": "x", "components": row(button)}))
    assert codes(errors, "components", 0, "components", 0, "url") == [
        "COMPONENT_BUTTON_URL_NOT_LINK"
    ]
    link = {"type": 2, "style": 5, "label": "Rules", "url": "https://example.com"}
    await post(client, emu, {"content": "x", "components": row(link)})


async def test_a_message_of_components_alone_is_accepted(
    emu: Emulator, client: discord.Client
) -> None:
    """Create Message: "At least one of content, embeds, sticker_ids, components, files[n],
    poll ... is required": components alone make a message."""
    made = await post(client, emu, {"components": row(BUTTON)})
    msg = emu.message(int(made["id"]))
    assert msg.content == "" and msg.buttons()[0].label == "Draw"
    edit = Route("PATCH", "/channels/{c}/messages/{m}", c=msg.channel_id, m=msg.id)
    await client.http.request(edit, json={"content": "", "components": row(BUTTON)})
    await refused(emu, client.http.request(edit, json={"components": []}), 50006)


# ---------------------------------------------------------------------- attachments
async def test_eleven_attachments_in_one_request_are_refused(
    emu: Emulator, client: discord.Client
) -> None:
    """discord-api-spec: attachments maxItems 10 (discord.py lists every file there);
    without that list, JSON code 30015 "Maximum number of attachments in a message
    reached (10)"."""
    channel = emu.channel().id
    params = handle_message_parameters(content="x", files=files(11))
    errors = await refused(emu, client.http.send_message(channel, params=params))
    assert codes(errors, "attachments") == ["BASE_TYPE_MAX_LENGTH"]
    form = [{"name": "payload_json", "value": json.dumps({"content": "x"})}]
    form += [{"name": f"files[{i}]", "value": b"x", "filename": f"f{i}.txt"} for i in range(11)]
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel)
    await refused(emu, client.http.request(route, form=form, files=files(11)), 30015)
    ten = handle_message_parameters(content="x", files=files(10))
    made = await client.http.send_message(channel, params=ten)
    assert len(made["attachments"]) == 10


async def test_an_attachment_id_naming_no_file_part_is_refused(
    emu: Emulator, client: discord.Client
) -> None:
    """message.mdx, Attachment Request Structure: a new attachment's id "must match the n
    in files[n]"; Discord answers ATTACHMENT_NOT_FOUND "Attachment data not found"."""
    channel = emu.channel().id
    form = [
        {"name": "payload_json", "value": json.dumps({"content": "x", "attachments": [{"id": 1}]})},
        {"name": "files[0]", "value": b"x", "filename": "f0.txt"},
    ]
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel)
    errors = await refused(emu, client.http.request(route, form=form, files=files(1)))
    assert codes(errors, "attachments", 0) == ["ATTACHMENT_NOT_FOUND"]


async def test_an_edit_that_appends_an_eleventh_attachment_is_refused(
    emu: Emulator, client: discord.Client
) -> None:
    """Edit Message: "Any provided files will be appended to the message"; a message holds
    at most 10 (30015). The message keeps its ten."""
    channel = emu.channel().id
    made = await client.http.send_message(
        channel, params=handle_message_parameters(content="ten", files=files(10))
    )
    form = [
        {"name": "payload_json", "value": json.dumps({"content": "eleven"})},
        {"name": "files[0]", "value": b"x", "filename": "extra.txt"},
    ]
    route = Route("PATCH", "/channels/{c}/messages/{m}", c=channel, m=made["id"])
    await refused(emu, client.http.request(route, form=form, files=files(1)), 30015)
    msg = emu.message(int(made["id"]))
    assert (msg.content, len(msg.attachments)) == ("ten", 10)


# ---------------------------------------------------------------------- interaction callbacks
async def test_a_message_response_with_a_flag_it_may_not_set_is_refused(emu: Emulator) -> None:
    """receiving-and-responding.mdx, Messages: only SUPPRESS_EMBEDS, EPHEMERAL,
    IS_COMPONENTS_V2, IS_VOICE_MESSAGE and SUPPRESS_NOTIFICATIONS can be set."""
    inter = emu.undelivered("alice")
    errors = await refused(emu, callback(inter, 4, {"content": "x", "flags": CROSSPOSTED}))
    assert codes(errors, "data", "flags") == ["MESSAGE_FLAGS_INVALID"]
    assert not inter.responded
    await callback(inter, 4, {"content": "x", "flags": EPHEMERAL | SUPPRESS_NOTIFICATIONS})
    assert inter.response is not None and inter.response.ephemeral


async def test_a_callbacks_message_errors_sit_under_data(emu: Emulator) -> None:
    """A callback's message is its ``data``: Discord's errors tree says so."""
    inter = emu.undelivered("alice")
    bad = {"content": "x", "components": row({**BUTTON, "emoji": "🂡"})}
    errors = await refused(emu, callback(inter, 4, bad))
    assert codes(errors, "data", "components", 0, "components", 0, "emoji") == [
        "MODEL_TYPE_CONVERT"
    ]


async def test_a_deferred_response_keeps_ephemeral_alone(emu: Emulator) -> None:
    """receiving-and-responding.mdx: with DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE "the only
    valid message flag you may use is EPHEMERAL". Discord accepts the others and drops them
    (discord-api-docs PR #7386, issue #7910): so does the emulator, and it reports them."""
    inter = emu.undelivered("alice")
    await callback(inter, 5, {"flags": EPHEMERAL | SUPPRESS_NOTIFICATIONS})
    assert inter.response is not None and inter.response.flags == EPHEMERAL | LOADING
    assert [p.kind for p in emu.take_problems("ignored_flags")] == ["ignored_flags"]
    plain = emu.undelivered("alice")
    await callback(plain, 5, {"flags": EPHEMERAL})
    assert not emu.problems


async def test_twenty_six_autocomplete_choices_are_refused(emu: Emulator) -> None:
    """receiving-and-responding.mdx, Autocomplete: "max of 25 choices"."""
    inter = emu.undelivered("alice", "autocomplete")
    choices = [{"name": f"c{i}", "value": f"{i}"} for i in range(26)]
    errors = await refused(emu, callback(inter, 8, {"choices": choices}))
    assert codes(errors, "data", "choices") == ["BASE_TYPE_MAX_LENGTH"]
    await callback(inter, 8, {"choices": choices[:25]})
    assert inter.choices is not None and len(inter.choices) == 25


# ---------------------------------------------------------------------- commands
def command(**option: Any) -> dict[str, Any]:
    opt = {"type": 4, "name": "seats", "description": "How many seats", **option}
    return {"name": "probe", "description": "A probe", "type": 1, "options": [opt]}


def sync(client: discord.Client, emu: Emulator, cmds: list[dict[str, Any]]) -> Awaitable[Any]:
    return client.http.bulk_upsert_guild_commands(emu.app_id, emu.guild.id, cmds)


async def test_an_option_whose_minimum_is_above_its_maximum_is_refused(
    emu: Emulator, client: discord.Client
) -> None:
    """application-commands.mdx: min_value and max_value bound the value permitted."""
    errors = await refused(emu, sync(client, emu, [command(min_value=8, max_value=2)]))
    assert codes(errors, 0, "options", 0, "min_value") == [
        "APPLICATION_COMMAND_OPTION_MIN_ABOVE_MAX"
    ]
    await sync(client, emu, [command(min_value=2, max_value=8)])


async def test_max_length_on_an_integer_option_is_refused(
    emu: Emulator, client: discord.Client
) -> None:
    """application-commands.mdx: max_length is valid for STRING options only."""
    errors = await refused(emu, sync(client, emu, [command(max_length=3)]))
    assert codes(errors, 0, "options", 0, "max_length") == [
        "APPLICATION_COMMAND_OPTION_FIELD_INVALID"
    ]
    await sync(client, emu, [command(type=3, max_length=3)])


async def test_a_command_over_8000_characters_with_its_localisations_is_refused(
    emu: Emulator, client: discord.Client
) -> None:
    """application-commands.mdx: 8000 characters for a command's names, descriptions and
    values, counting the longest localisation of each field."""

    def big(french: str) -> dict[str, Any]:
        options = [
            {
                "type": 3,
                "name": f"o{i}",
                "description": "d" * 70,
                "description_localizations": {"fr": french},
            }
            for i in range(25)
        ]
        subs = [
            {"type": 1, "name": f"s{j}", "description": "d", "options": options} for j in range(4)
        ]
        return {"name": "big", "description": "Big", "type": 1, "options": subs}

    too_big, fits = big("é" * 90), big("é" * 50)
    assert command_size(fits) < 8000 < command_size(too_big)  # the French makes the difference
    errors = await refused(emu, sync(client, emu, [too_big]))
    assert codes(errors, 0) == ["APPLICATION_COMMAND_TOO_LARGE"]
    await sync(client, emu, [fits])


async def test_a_choice_value_of_101_characters_is_refused(
    emu: Emulator, client: discord.Client
) -> None:
    """application-commands.mdx, Option Choice: a string value is "up to 100 characters"."""
    choices = [{"name": "long", "value": "v" * 101}]
    errors = await refused(emu, sync(client, emu, [command(type=3, choices=choices)]))
    assert codes(errors, 0, "options", 0, "choices", 0, "value") == ["BASE_TYPE_MAX_LENGTH"]
    await sync(client, emu, [command(type=3, choices=[{"name": "ok", "value": "v" * 100}])])
