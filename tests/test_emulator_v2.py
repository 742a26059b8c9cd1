"""Components V2 in the emulator: Discord's rules for V2 messages, and reading them.

The rules' sources are in docs/emulator.md ("Components V2") and next to each check in
emulator/validation.py: discord-api-docs (``components/reference.mdx``, "Component
Reference"; ``components/using-message-components.mdx``; ``resources/message.mdx``,
Create/Edit Message), discord-api-spec's request schemas, and Discord's answers as bots
quote them. Requests go through discord.py's own HTTP clients (its ``HTTPClient``, its
webhook adapter for callbacks and token edits), so a refusal is the ``HTTPException`` a bot
gets; the reading tests drive the sample bot's ``/demo layout`` (emulator/sample/bot.py),
built with discord.py 2.7's ``LayoutView``.
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
from discord.webhook.async_ import async_context, interaction_message_response_params

from emulator import Emulator, running_emulator
from emulator.model import IS_COMPONENTS_V2
from emulator.recording import audit_v2

pytestmark = pytest.mark.asyncio(loop_scope="module")

V2, EPHEMERAL = IS_COMPONENTS_V2, 1 << 6
BUTTON = {"type": 2, "style": 1, "label": "Draw", "custom_id": "draw"}
PNG = b"\x89PNG\r\n\x1a\n" + bytes(16)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Emulator]:
    log_dir = tmp_path_factory.mktemp("emulator_v2")
    async with running_emulator(log_dir=log_dir, check=False) as emu:
        await emu.start_bot("emulator.sample", env={"EMU_SAMPLE_GUILD_ID": str(emu.guild.id)})
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
    await shared.settle()
    shared.check()


# ---------------------------------------------------------------------- helpers
async def refused(emu: Emulator, call: Awaitable[Any], code: int = 50035) -> dict[str, Any]:
    """Awaits a request Discord refuses (400, ``code``); returns the answer's ``errors``."""
    with pytest.raises(discord.HTTPException) as caught:
        await call
    assert (caught.value.status, caught.value.code) == (400, code), caught.value.text
    body = emu.requests[-1].response
    assert isinstance(body, dict) and body["code"] == code
    assert [p.kind for p in emu.take_problems("rejected")] == ["rejected"]
    errors: dict[str, Any] = body.get("errors", {})
    return errors


def codes(errors: dict[str, Any], *path: str | int) -> list[str]:
    node = errors
    for part in path:
        node = node[str(part)]
    return [e["code"] for e in node["_errors"]]


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def container(*children: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"type": 17, "components": list(children), **fields}


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def gallery(*urls: str) -> dict[str, Any]:
    return {"type": 12, "items": [{"media": {"url": u}} for u in urls]}


def thumbnail(url: str) -> dict[str, Any]:
    return {"type": 11, "media": {"url": url}}


def section(*texts: str, accessory: dict[str, Any] | None = None) -> dict[str, Any]:
    comp: dict[str, Any] = {"type": 9, "components": [text(t) for t in texts]}
    if accessory is not None:
        comp["accessory"] = accessory
    return comp


def v2(*components: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"flags": V2, "components": list(components), **fields}


def post(
    client: discord.Client, emu: Emulator, payload: dict[str, Any], *names: str
) -> Awaitable[Any]:
    """A channel post of ``payload`` (JSON, or multipart with a picture per name)."""
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=emu.channel().id)
    if not names:
        return client.http.request(route, json=payload)
    return client.http.request(route, form=form(payload, names), files=pictures(names))


def patch(
    client: discord.Client, emu: Emulator, message_id: Any, payload: dict[str, Any], *names: str
) -> Awaitable[Any]:
    route = Route("PATCH", "/channels/{c}/messages/{m}", c=emu.channel().id, m=message_id)
    if not names:
        return client.http.request(route, json=payload)
    return client.http.request(route, form=form(payload, names), files=pictures(names))


def pictures(names: tuple[str, ...]) -> list[discord.File]:
    return [discord.File(io.BytesIO(PNG), filename=n) for n in names]


def form(payload: dict[str, Any], names: tuple[str, ...]) -> list[dict[str, Any]]:
    parts: list[dict[str, Any]] = [{"name": "payload_json", "value": json.dumps(payload)}]
    parts += [
        {"name": f"files[{i}]", "value": PNG, "filename": n, "content_type": "image/png"}
        for i, n in enumerate(names)
    ]
    return parts


def answer(inter: Any, rtype: int, *, ephemeral: bool = False, **fields: Any) -> Awaitable[Any]:
    """An interaction callback as discord.py's webhook adapter builds it (``view``,
    ``content``, ``embed``, ``flags`` ... as ``InteractionResponse`` passes them)."""
    if ephemeral:
        fields["flags"] = discord.MessageFlags(ephemeral=True)

    async def send() -> Any:
        async with aiohttp.ClientSession() as session:
            adapter = async_context.get()
            params = interaction_message_response_params(type=rtype, **fields)
            return await adapter.create_interaction_response(
                inter.id, inter.token, session=session, params=params
            )

    return send()


def edit_original(emu: Emulator, inter: Any, **fields: Any) -> Awaitable[Any]:
    """``interaction.edit_original_response(...)``: PATCH webhooks/{app}/{token}/@original."""

    async def send() -> Any:
        async with aiohttp.ClientSession() as session:
            adapter = async_context.get()
            params = handle_message_parameters(**fields)
            return await adapter.edit_original_interaction_response(
                str(emu.app_id),
                inter.token,
                session=session,
                payload=params.payload,
                multipart=params.multipart,
                files=params.files,
            )

    return send()


def layout(*items: discord.ui.Item[Any]) -> discord.ui.LayoutView:
    view = discord.ui.LayoutView()
    for item in items:
        view.add_item(item)
    return view


# ---------------------------------------------------------------------- what Discord accepts
async def test_every_v2_component_as_discord_py_sends_it_is_accepted(
    emu: Emulator, client: discord.Client
) -> None:
    """components/reference.mdx: a V2 message (flag IS_COMPONENTS_V2, which discord.py
    sets for a LayoutView) of a container (accent colour, spoiler) holding a text display,
    a section with a thumbnail, a gallery, a file, a separator and action rows (a button,
    a select) — discord.py sends ``accent_color: null`` and ``description: null`` unset."""
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id="pick", options=[discord.SelectOption(label="a", value="a")]
    )
    view = layout(
        discord.ui.Container(
            discord.ui.TextDisplay("## Table"),
            discord.ui.Section(
                "alice", "3 cards", accessory=discord.ui.Thumbnail("attachment://t.png")
            ),
            discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://g.png")),
            discord.ui.File("attachment://f.png"),
            discord.ui.Separator(spacing=discord.SeparatorSpacing.large),
            discord.ui.ActionRow(discord.ui.Button(label="Go", custom_id="go")),
            discord.ui.ActionRow(select),
            accent_colour=0x2E7D32,
            spoiler=True,
        ),
        discord.ui.Container(discord.ui.TextDisplay("no colour")),
        discord.ui.TextDisplay("-# small print"),
    )
    params = handle_message_parameters(view=view, files=pictures(("t.png", "g.png", "f.png")))
    made = await client.http.send_message(emu.channel().id, params=params)
    msg = emu.message(int(made["id"]))
    assert msg.v2 and made["flags"] == V2
    assert msg.display_text == "## Table\nalice\n3 cards\nno colour\n-# small print"
    assert [(m.kind, m.attachment.filename if m.attachment else None) for m in msg.media()] == [
        ("thumbnail", "t.png"),
        ("gallery", "g.png"),
        ("file", "f.png"),
    ]


async def test_a_v2_message_shows_only_the_attachments_its_components_name(
    emu: Emulator, client: discord.Client
) -> None:
    """components/reference.mdx: "Attachments won't show by default - they must be exposed
    through components": ``pictures()`` is what a reader sees, ``attachments`` all of them
    (a leak scan reads all), and each picture's bytes are there as a V1 message's are."""
    made = await post(client, emu, v2(gallery("attachment://shown.png")), "shown.png", "hidden.png")
    msg = emu.message(int(made["id"]))
    assert [a.filename for a in msg.attachments] == ["shown.png", "hidden.png"]
    assert [a.filename for a in msg.pictures()] == ["shown.png"]
    assert msg.media()[0].attachment is not None and msg.media()[0].attachment.data == PNG
    assert emu.history()[-1].files[0].data == PNG


# ---------------------------------------------------------------------- the flag
async def test_v2_components_without_the_flag_are_refused(
    emu: Emulator, client: discord.Client
) -> None:
    """Every V2 type says "To use this component in messages you must send the message flag
    1 << 15 (IS_COMPONENTS_V2)": without it a top-level component must be an action row
    (Discord: UNION_TYPE_CHOICES 'must be one of (1,)', Discord.Net#3132), and a row holds
    buttons or a select only (Action Row Child Components)."""
    errors = await refused(emu, post(client, emu, {"components": [container(text("x"))]}))
    assert codes(errors, "components", 0, "type") == ["UNION_TYPE_CHOICES"]
    errors = await refused(emu, post(client, emu, {"components": [row(text("x"))]}))
    assert codes(errors, "components", 0, "components", 0, "type") == ["UNION_TYPE_CHOICES"]
    await post(client, emu, v2(container(text("x"))))


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("content", "hello"),
        ("content", "\u200b"),
        ("embeds", [{"title": "t"}]),
        ("sticker_ids", ["1"]),
        ("poll", {"question": {"text": "?"}}),
    ],
)
async def test_content_embeds_stickers_or_poll_with_the_flag_are_refused(
    emu: Emulator, client: discord.Client, field: str, value: Any
) -> None:
    """message.mdx, Create Message: with IS_COMPONENTS_V2 "the message can only contain
    components. Providing content, embeds, sticker_ids, poll ... will fail with a 400";
    Discord answers ``content[MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2]``
    (even a zero-width space)."""
    errors = await refused(emu, post(client, emu, v2(text("x"), **{field: value})))
    assert codes(errors, field) == ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"]


async def test_legacy_fields_reset_to_empty_are_accepted_with_the_flag(
    emu: Emulator, client: discord.Client
) -> None:
    """Edit Message: reset values are null (content, poll) and [] (embeds, sticker_ids),
    which discord.py sends for ``content=None``/``embed=None``."""
    await post(client, emu, v2(text("x"), content=None, embeds=[], sticker_ids=[], poll=None))


# ---------------------------------------------------------------------- limits
async def test_forty_components_counting_nested_ones_are_the_most(
    emu: Emulator, client: discord.Client
) -> None:
    """components/reference.mdx: "Messages allow up to 40 total components" (the change log:
    the limit counts the components in containers; discord.py's LayoutView too)."""
    await post(client, emu, v2(container(*[text(f"{i}") for i in range(39)])))
    errors = await refused(
        emu, post(client, emu, v2(container(*[text(f"{i}") for i in range(40)])))
    )
    assert codes(errors, "components") == ["BASE_TYPE_MAX_LENGTH"]
    accessories = [section("s", accessory={**BUTTON, "custom_id": f"b{i}"}) for i in range(13)]
    errors = await refused(emu, post(client, emu, v2(container(*accessories), text("41st"))))
    assert codes(errors, "components") == ["BASE_TYPE_MAX_LENGTH"]  # 1 + 13 × 3 + 1


async def test_four_thousand_characters_across_the_text_displays_are_the_most(
    emu: Emulator, client: discord.Client
) -> None:
    """The text displays of a message total at most 4000 characters (discord-api-docs PR
    #8562, issue #8554; discord.py's ``LayoutView.content_length``), wherever they stand."""
    await post(client, emu, v2(text("a" * 2000), container(section("b" * 2000, accessory=BUTTON))))
    too_long = v2(text("a" * 2000), container(section("b" * 2001, accessory=BUTTON)))
    errors = await refused(emu, post(client, emu, too_long))
    assert codes(errors, "components") == ["MAX_TEXT_DISPLAY_LENGTH"]
    errors = await refused(emu, post(client, emu, v2(text(""))))
    assert codes(errors, "components", 0, "content") == ["BASE_TYPE_BAD_LENGTH"]


# ---------------------------------------------------------------------- each component
async def test_a_section_holds_one_to_three_texts_and_a_button_or_thumbnail(
    emu: Emulator, client: discord.Client
) -> None:
    """Section: "One to three child components" (text displays) and an ``accessory``, a
    Button or a Thumbnail (spec SectionComponentForMessageRequest: both required)."""
    await post(client, emu, v2(section("a", "b", "c", accessory=BUTTON)))
    await post(client, emu, v2(section("a", accessory=thumbnail("https://e.x/p.png"))))
    errors = await refused(
        emu, post(client, emu, v2(section("a", "b", "c", "d", accessory=BUTTON)))
    )
    assert codes(errors, "components", 0, "components") == ["BASE_TYPE_BAD_LENGTH"]
    errors = await refused(emu, post(client, emu, v2(section(accessory=BUTTON))))
    assert codes(errors, "components", 0, "components") == ["BASE_TYPE_BAD_LENGTH"]
    errors = await refused(emu, post(client, emu, v2(section("a"))))
    assert codes(errors, "components", 0, "accessory") == ["BASE_TYPE_REQUIRED"]
    errors = await refused(emu, post(client, emu, v2(section("a", accessory=text("b")))))
    assert codes(errors, "components", 0, "accessory", "type") == ["UNION_TYPE_CHOICES"]
    not_text = {"type": 9, "components": [BUTTON], "accessory": {**BUTTON, "custom_id": "other"}}
    errors = await refused(emu, post(client, emu, v2(not_text)))
    assert codes(errors, "components", 0, "components", 0, "type") == ["UNION_TYPE_CHOICES"]


async def test_a_thumbnail_stands_only_as_a_sections_accessory(
    emu: Emulator, client: discord.Client
) -> None:
    """Thumbnail: "only available in messages as an accessory in a section" (neither a
    top-level component nor a Container child)."""
    errors = await refused(emu, post(client, emu, v2(thumbnail("https://e.x/p.png"))))
    assert codes(errors, "components", 0, "type") == ["UNION_TYPE_CHOICES"]
    errors = await refused(emu, post(client, emu, v2(container(thumbnail("https://e.x/p.png")))))
    assert codes(errors, "components", 0, "components", 0, "type") == ["UNION_TYPE_CHOICES"]
    no_media = {"type": 9, "components": [text("a")], "accessory": {"type": 11}}
    errors = await refused(emu, post(client, emu, v2(no_media)))
    assert codes(errors, "components", 0, "accessory", "media") == ["BASE_TYPE_REQUIRED"]


async def test_a_container_holds_one_to_forty_components_and_no_container(
    emu: Emulator, client: discord.Client
) -> None:
    """Container Child Components: Action Row, Text Display, Section, Media Gallery,
    Separator, File; spec: 1-40 of them; accent_color "RGB from 0x000000 to 0xFFFFFF"."""
    await post(client, emu, v2(container(text("x"), accent_color=0xFFFFFF, spoiler=False)))
    errors = await refused(emu, post(client, emu, v2(container(container(text("x"))))))
    assert codes(errors, "components", 0, "components", 0, "type") == ["UNION_TYPE_CHOICES"]
    errors = await refused(emu, post(client, emu, v2(container())))
    assert codes(errors, "components", 0, "components") == ["BASE_TYPE_BAD_LENGTH"]
    errors = await refused(emu, post(client, emu, v2(container(text("x"), accent_color=0x1000000))))
    assert codes(errors, "components", 0, "accent_color") == ["NUMBER_TYPE_MAX"]
    errors = await refused(emu, post(client, emu, v2(container(BUTTON))))
    assert codes(errors, "components", 0, "components", 0, "type") == ["UNION_TYPE_CHOICES"]


async def test_an_action_row_in_a_container_keeps_its_rules(
    emu: Emulator, client: discord.Client
) -> None:
    """Action Row: "Up to 5 ... buttons" or "A single select", in a container as at the top."""
    six = [{**BUTTON, "custom_id": f"b{i}"} for i in range(6)]
    errors = await refused(emu, post(client, emu, v2(container(row(*six)))))
    assert codes(errors, "components", 0, "components", 0, "components") == ["BASE_TYPE_BAD_LENGTH"]
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
    errors = await refused(emu, post(client, emu, v2(container(row(select, BUTTON)))))
    assert codes(errors, "components", 0, "components", 0, "components") == [
        "COMPONENT_LAYOUT_WIDTH_EXCEEDED"
    ]
    await post(client, emu, v2(container(row(*six[:5]), row(select))))


async def test_a_gallery_holds_one_to_ten_items(emu: Emulator, client: discord.Client) -> None:
    """Media Gallery: "1 to 10 media gallery items"; an item's alt text at most 1024."""
    await post(client, emu, v2(gallery(*[f"https://e.x/{i}.png" for i in range(10)])))
    errors = await refused(
        emu, post(client, emu, v2(gallery(*[f"https://e.x/{i}.png" for i in range(11)])))
    )
    assert codes(errors, "components", 0, "items") == ["BASE_TYPE_BAD_LENGTH"]
    errors = await refused(emu, post(client, emu, v2(gallery())))
    assert codes(errors, "components", 0, "items") == ["BASE_TYPE_BAD_LENGTH"]
    long_alt = {
        "type": 12,
        "items": [{"media": {"url": "https://e.x/p.png"}, "description": "d" * 1025}],
    }
    errors = await refused(emu, post(client, emu, v2(long_alt)))
    assert codes(errors, "components", 0, "items", 0, "description") == ["BASE_TYPE_BAD_LENGTH"]


async def test_a_file_component_takes_only_an_attachment_reference(
    emu: Emulator, client: discord.Client
) -> None:
    """File: "only supports attachment references using the attachment://<filename>
    syntax"."""
    outside = {"type": 13, "file": {"url": "https://e.x/rules.pdf"}}
    errors = await refused(emu, post(client, emu, v2(outside)))
    assert codes(errors, "components", 0, "file", "url") == [
        "UNFURLED_MEDIA_ITEM_ATTACHMENT_REQUIRED"
    ]
    await post(client, emu, v2({"type": 13, "file": {"url": "attachment://r.png"}}), "r.png")


async def test_a_separators_spacing_is_small_or_large(
    emu: Emulator, client: discord.Client
) -> None:
    """Separator: spacing "1 for small padding, 2 for large padding"; divider a boolean."""
    await post(client, emu, v2(text("a"), {"type": 14, "spacing": 2, "divider": False}))
    errors = await refused(emu, post(client, emu, v2(text("a"), {"type": 14, "spacing": 3})))
    assert codes(errors, "components", 1, "spacing") == ["BASE_TYPE_CHOICES"]


async def test_custom_ids_are_unique_across_the_whole_message(
    emu: Emulator, client: discord.Client
) -> None:
    """Custom ID: "Multiple components on the same message must not share the same
    custom_id", a section's accessory and a container's row alike."""
    twice = v2(container(section("a", accessory=BUTTON), row(BUTTON)))
    errors = await refused(emu, post(client, emu, twice))
    assert codes(errors, "components") == ["COMPONENT_CUSTOM_ID_DUPLICATED"]
    same_id = v2({**text("a"), "id": 7}, container({**text("b"), "id": 7}))
    errors = await refused(emu, post(client, emu, same_id))
    assert codes(errors, "components") == ["COMPONENT_ID_DUPLICATED"]


# ---------------------------------------------------------------------- attachment://
async def test_a_picture_must_name_a_file_of_the_message(
    emu: Emulator, client: discord.Client
) -> None:
    """Unfurled Media Item: ``attachment://<filename>`` references an upload; one naming no
    file of the message is refused (discord-api-docs#7529: the "unfurled media attachment
    is not found"). An edit may name a file the message keeps, or a new one."""
    errors = await refused(
        emu, post(client, emu, v2(gallery("attachment://gone.png")), "other.png")
    )
    assert codes(errors, "components", 0, "items", 0, "media", "url") == [
        "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND"
    ]
    made = await post(
        client, emu, v2(container(section("a", accessory=thumbnail("attachment://t.png")))), "t.png"
    )
    kept = [{"id": made["attachments"][0]["id"]}]
    await patch(client, emu, made["id"], v2(gallery("attachment://t.png"), attachments=kept))
    await patch(client, emu, made["id"], v2(gallery("attachment://t.png")))  # kept without a list
    errors = await refused(emu, patch(client, emu, made["id"], {"attachments": []}))
    assert codes(errors, "components", 0, "items", 0, "media", "url") == [
        "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND"
    ]
    replaced = v2(gallery("attachment://new.png"), attachments=[{"id": 0, "filename": "new.png"}])
    await patch(client, emu, made["id"], replaced, "new.png")
    msg = emu.message(int(made["id"]))
    assert [a.filename for a in msg.pictures()] == ["new.png"]


# ---------------------------------------------------------------------- a V2 message stays V2
async def test_a_channel_edit_cannot_take_a_v2_message_back_to_v1(
    emu: Emulator, client: discord.Client
) -> None:
    """using-message-components.mdx: "the flag cannot be removed from the message when
    editing the message". Flags without it make Discord read the components as V1 ones
    (UNION_TYPE_CHOICES, Discord.Net#3132); with nothing else wrong the flags are refused.
    An edit without ``flags`` keeps the flag, so its content is refused and its action
    rows are a V2 message's."""
    made = await post(client, emu, v2(container(text("table"))))
    mid = made["id"]
    errors = await refused(
        emu, patch(client, emu, mid, {"flags": 0, "components": [container(text("t"))]})
    )
    assert codes(errors, "components", 0, "type") == ["UNION_TYPE_CHOICES"]
    errors = await refused(emu, patch(client, emu, mid, {"flags": 0, "components": [row(BUTTON)]}))
    assert codes(errors, "flags") == ["MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG"]
    errors = await refused(emu, patch(client, emu, mid, {"content": "plain"}))
    assert codes(errors, "content") == ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"]
    errors = await refused(emu, patch(client, emu, mid, {"embeds": [{"title": "t"}]}))
    assert codes(errors, "embeds") == ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"]
    await patch(client, emu, mid, {"components": [row(BUTTON)]})
    msg = emu.message(int(mid))
    assert msg.v2 and msg.display_text == "" and msg.button("Draw")


async def test_an_update_message_cannot_take_a_v2_message_back_to_v1(emu: Emulator) -> None:
    """The same through an interaction's UPDATE_MESSAGE (callback type 7), as discord.py's
    ``edit_message`` sends it; the errors sit under ``data``. A LayoutView's update is V2."""
    table = await emu.slash("alice", "demo layout")
    msg = table.response
    assert msg is not None and msg.v2
    click = emu.undelivered("bob", "component", message=msg)
    errors = await refused(emu, answer(click, 7, embed=discord.Embed(title="old table")))
    assert codes(errors, "data", "embeds") == [
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"
    ]
    v1_view = discord.ui.View().add_item(discord.ui.Button(label="x", custom_id="x"))
    errors = await refused(emu, answer(click, 7, view=v1_view, flags=discord.MessageFlags()))
    assert codes(errors, "data", "flags") == ["MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG"]
    await answer(click, 7, view=layout(discord.ui.TextDisplay("updated")))
    assert msg.v2 and msg.display_text == "updated"


async def test_a_token_edit_of_an_ephemeral_v2_message_stays_v2(emu: Emulator) -> None:
    """An ephemeral V2 response (flags 32832) edited through its token (PATCH @original):
    content is refused, dropping the flag is refused, a LayoutView edit keeps it V2 and
    ephemeral."""
    inter = emu.undelivered("alice")
    await answer(inter, 4, view=layout(discord.ui.TextDisplay("your hand")), ephemeral=True)
    panel = inter.response
    assert panel is not None and panel.flags == V2 | EPHEMERAL
    errors = await refused(emu, edit_original(emu, inter, content="plain"))
    assert codes(errors, "content") == ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"]
    errors = await refused(emu, edit_original(emu, inter, flags=discord.MessageFlags(), view=None))
    assert codes(errors, "flags") == ["MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG"]
    await edit_original(emu, inter, view=layout(discord.ui.TextDisplay("your new hand")))
    assert panel.flags == V2 | EPHEMERAL and panel.display_text == "your new hand"


async def test_a_v1_message_becomes_v2_only_with_its_content_and_embeds_reset(
    emu: Emulator, client: discord.Client
) -> None:
    """Edit Message: "the IS_COMPONENTS_V2 flag can only be set. When [it] is set, any of
    the used content, embeds ... fields must have their values reset to empty. For content
    and poll this is null. For embeds and sticker_ids this is []. Failing to do this will
    result in a 400 BAD REQUEST response." discord.py resets them for ``content=None,
    embed=None``."""
    made = await post(client, emu, {"content": "old table", "embeds": [{"title": "t"}]})
    mid = made["id"]
    errors = await refused(emu, patch(client, emu, mid, v2(text("new"))))
    assert (
        codes(errors, "content")
        == codes(errors, "embeds")
        == ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"]
    )
    errors = await refused(emu, patch(client, emu, mid, v2(text("new"), content=None)))
    assert list(errors) == ["embeds"]
    view = layout(discord.ui.TextDisplay("new table"))
    params = handle_message_parameters(content=None, embed=None, view=view)
    await client.http.edit_message(emu.channel().id, mid, params=params)
    msg = emu.message(int(mid))
    assert msg.v2 and (msg.content, msg.embeds, msg.display_text) == ("", [], "new table")


async def test_a_deferral_is_filled_as_v2_by_its_followup_or_edit(emu: Emulator) -> None:
    """receiving-and-responding.mdx: a deferral "the only valid message flag you may use is
    EPHEMERAL. If you'd like to create a component based message with IS_COMPONENTS_V2 you
    must do that with the edit original response endpoint"; the first followup fills the
    thinking message the same way."""
    inter = emu.undelivered("alice")
    await answer(inter, 5, ephemeral=True)
    await edit_original(emu, inter, view=layout(discord.ui.TextDisplay("dealt")))
    assert inter.response is not None and inter.response.flags == V2 | EPHEMERAL
    other = emu.undelivered("alice")
    await answer(other, 5)
    params = handle_message_parameters(view=layout(discord.ui.TextDisplay("dealt too")))
    async with aiohttp.ClientSession() as session:  # interaction.followup.send(view=...)
        await async_context.get().execute_webhook(
            emu.app_id, other.token, session=session, payload=params.payload, wait=True
        )
    assert other.response is not None and other.response.v2
    assert other.response.display_text == "dealt too" and not other.followups


# ---------------------------------------------------------------------- reading, clicking
async def test_a_v2_tables_text_buttons_select_and_picture_are_read(emu: Emulator) -> None:
    """The harness reads a V2 message as a player does: its text displays in order
    (``display_text``; ``text`` adds labels and alt texts), a section's accessory button
    and a container's row are clicked, a select in a container's row is picked, the
    gallery's picture is the attachment it names."""
    inter = await emu.slash("alice", "demo layout")
    table = inter.response
    assert table is not None and table.v2
    assert table.display_text == "## Table 1\nSeat 1: alice\nseated: 0\n-# last move: none"
    assert "Sit" in table.text and "the discard pile" in table.text
    assert [m.attachment.filename for m in table.media() if m.attachment] == ["table.png"]
    assert table.pictures()[0].data.startswith(b"\x89PNG")
    await emu.click("bob", table, "Sit")  # a section's accessory: an UPDATE_MESSAGE
    assert "seated: 1" in table.display_text and table.v2
    assert table.pictures()[0].filename == "table.png"  # kept by the update
    hand = await emu.click("bob", table, "Hand")  # a row in the container
    panel = emu.last_ephemeral("bob")
    assert hand.response is panel and panel.flags == V2 | EPHEMERAL
    assert panel.display_text == "Your hand"
    assert [m.kind for m in panel.media()] == ["thumbnail"]
    assert (
        panel.pictures()[0].filename == "hand.png"
        and panel.pictures()[0].data == table.pictures()[0].data
    )
    await emu.select("carol", table, "demo:layout:seat", ["Seat 2"])
    assert emu.last_ephemeral("carol").content == "seat 2"
    entry = [e for e in emu.history() if e.message_id == table.id][-1]
    assert entry.display_text == table.display_text


async def test_the_recording_says_whether_every_write_was_v2(
    emu: Emulator, client: discord.Client
) -> None:
    """``emu.v2_audit()`` reads the request log: every accepted post, edit, callback or
    followup that wrote a message in scope, and whether it left it V2 (a deferral's
    thinking message aside); a refused write fails the audit too."""
    start = len(emu.requests)
    inter = await emu.slash("alice", "demo layout")
    table = inter.response
    assert table is not None
    await emu.click("bob", table, "Sit")
    await emu.click("bob", table, "Hand")
    audit = audit_v2(emu.requests[start:])
    assert audit.ok and len(audit.writes) == 3, str(audit)
    await emu.select("carol", table, "demo:layout:seat", ["Seat 1"])  # answers in plain text
    audit = audit_v2(emu.requests[start:])
    assert not audit.ok and [r.message_id for r in audit.not_v2] == [emu.last_ephemeral("carol").id]
    ours = {table.id}
    assert audit_v2(emu.requests[start:], messages=ours.__contains__).ok
    await refused(emu, post(client, emu, v2(text("x"), content="x")))
    audit = emu.v2_audit(messages=ours.__contains__)
    assert not audit.ok and len(audit.refused) >= 1
