"""``python -m bot smoke CHANNEL_ID``: checks against real Discord what no emulator can
prove, and prints each assumption as held or not (docs/operating.md, "Smoke test against
Discord"). Never in CI: it needs a test bot's token (``DISCORD_TOKEN``), a test server, and
a member of it to press buttons five times (a real click cannot be scripted).

It posts a message with a button in the channel, and asks the operator (or a member) to
press it. Then:

1. the first click is answered with a deferred update (type 6), and its token edits the
   message six times in a row: the **interaction token's bucket** (its ``X-RateLimit-*``);
2. the second click is answered with an UPDATE_MESSAGE (type 7) carrying a new picture:
   **an UPDATE_MESSAGE with a new attachment** (the message is fetched back);
3. a thread is started from the message and archived: **the bot archives its own thread**
   (held only if the bot lacks Manage Threads there, or it proves nothing);
4. after ``--age-s`` (600 s: 10 minutes) from the first click, the first click's token
   edits the message ``@original``: **a table message edited through a click's token
   10 minutes old, the click made by another member** than the message's author (the bot);
5. the **X-RateLimit-\\* headers** seen on every route.

Then the Components V2 checks (docs/operating.md, "The V2 checks"), on a second message: a
V2 table (a container with a heading, a "Click me" row and a gallery of one picture), whose
button is pressed three times:

6. the first click is answered with an ephemeral V2 panel (a section with a thumbnail of
   its own picture), which is then edited through the click's token: **an ephemeral V2
   panel edited through its token** stays V2 and ephemeral, with its new text and picture;
7. the second click is answered with an UPDATE_MESSAGE carrying the gallery's next
   picture: **a gallery's picture replaced by an UPDATE_MESSAGE** (fetched back);
8. the third click is deferred (type 6), and its token edits the table's text: **a V2
   table edited through @original of another member's click token** (fetched back);
9. then that token edits the table again, its gallery naming a new upload: **a gallery's
   picture replaced by a webhook edit** (fetched back; discord-api-docs#7529 reports a 400
   "unfurled media attachment not found" for this);
10. then the bot edits the table through the channel, its gallery naming a new upload: **a
    gallery's picture replaced by a channel edit**, the route the bot's table edit falls
    back to when a token edit is refused (fetched back).

Steps 6 to 10 run after step 3, while the first click's token ages; steps 4 and 5 come last.
Each check is printed held or NOT HELD with what was seen; a refusal is printed with
Discord's answer, never raised.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord

from bot.budget import request_kind

CUSTOM_ID = "tamalou:smoke:click"
V2_CUSTOM_ID = "tamalou:smoke:v2"
#: the colours of the V2 checks' pictures: each step's picture differs from the last
GREEN, BLUE, RED = (30, 120, 60), (40, 80, 160), (170, 40, 40)
GOLD, GREY = (200, 160, 30), (90, 90, 90)
HEADERS = (
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset-After",
    "X-RateLimit-Bucket",
    "X-RateLimit-Scope",
)

USAGE = """usage: python -m bot smoke CHANNEL_ID [--age-s 600] [--wait-s 600]

Checks against real Discord what the bot's design rests on (docs/operating.md). Use a
TEST bot (DISCORD_TOKEN) and a text channel of a TEST server where it may post, embed,
attach files and create public threads. A member must press the buttons it posts when
asked: twice on its first message, three times on its Components V2 table.
"""


@dataclass
class Check:
    name: str
    held: bool
    detail: str

    def line(self) -> str:
        return f"{'held' if self.held else 'NOT HELD'}: {self.name} ({self.detail})"


@dataclass
class Seen:
    """The ``X-RateLimit-*`` headers of each route's last answer, and every 429."""

    routes: dict[str, dict[str, str]] = field(default_factory=dict)
    rate_limited: list[str] = field(default_factory=list)

    def trace(self) -> aiohttp.TraceConfig:
        config = aiohttp.TraceConfig()

        async def on_request_end(
            session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestEndParams
        ) -> None:
            kind = request_kind(params.url.path)
            if kind == "other":
                return
            route = f"{params.method} {_shape(params.url.path)}"
            got = {h: params.response.headers[h] for h in HEADERS if h in params.response.headers}
            if got:
                self.routes[route] = got
            if params.response.status == 429:
                self.rate_limited.append(route)

        config.on_request_end.append(on_request_end)
        return config


def _shape(path: str) -> str:
    """A path with its ids and tokens as placeholders."""
    parts = path.split("/")
    out = []
    for i, part in enumerate(parts):
        before = parts[i - 1] if i else ""
        if part.isdigit():
            out.append("{id}")
        elif before.isdigit() and parts[i - 2 : i - 1] in (["webhooks"], ["interactions"]):
            out.append("{token}")
        else:
            out.append(part)
    return "/".join(out)


class ClickView(discord.ui.View):
    def __init__(self, clicks: asyncio.Queue[discord.Interaction]) -> None:
        super().__init__(timeout=None)
        self.clicks = clicks

    @discord.ui.button(label="Click me", custom_id=CUSTOM_ID, style=discord.ButtonStyle.primary)
    async def click(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await self.clicks.put(interaction)  # answered at once by the running step


def picture(colour: tuple[int, int, int] = GREEN) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (64, 32), colour).save(buf, format="PNG")
    return buf.getvalue()


def png(name: str, colour: tuple[int, int, int]) -> discord.File:
    return discord.File(io.BytesIO(picture(colour)), filename=name)


class SmokeTable(discord.ui.LayoutView):
    """The V2 checks' table, laid out as the bot's: a container with an accent colour, a
    heading, the step's words, a row with "Click me" (left out once no click is wanted),
    a separator and a gallery of one picture; the picture's name in small text below."""

    def __init__(
        self,
        clicks: asyncio.Queue[discord.Interaction] | None,
        text: str,
        picture_name: str,
    ) -> None:
        super().__init__(timeout=None)
        parts: list[discord.ui.Item[SmokeTable]] = [
            discord.ui.TextDisplay("## Tamalou smoke test: Components V2"),
            discord.ui.TextDisplay(text),
        ]
        if clicks is not None:
            queue = clicks
            button: discord.ui.Button[SmokeTable] = discord.ui.Button(
                label="Click me", custom_id=V2_CUSTOM_ID, style=discord.ButtonStyle.primary
            )

            async def on_click(interaction: discord.Interaction) -> None:
                await queue.put(interaction)  # answered at once by the running step

            button.callback = on_click  # type: ignore[method-assign]
            parts.append(discord.ui.ActionRow(button))
        gallery: discord.ui.MediaGallery[SmokeTable] = discord.ui.MediaGallery(
            discord.MediaGalleryItem(
                f"attachment://{picture_name}", description="the smoke test's picture"
            )
        )
        parts += [discord.ui.Separator(), gallery]
        self.add_item(discord.ui.Container(*parts, accent_colour=0x1E783C))
        self.add_item(discord.ui.TextDisplay(f"-# picture: {picture_name}"))


def smoke_panel(text: str, picture_name: str) -> discord.ui.LayoutView:
    """The V2 checks' private panel: a container holding a section whose accessory is a
    thumbnail of the panel's own picture, as the bot's hand panels."""
    panel = discord.ui.LayoutView()
    thumbnail: discord.ui.Thumbnail[discord.ui.LayoutView] = discord.ui.Thumbnail(
        f"attachment://{picture_name}", description="the panel's picture"
    )
    section: discord.ui.Section[discord.ui.LayoutView] = discord.ui.Section(
        text, accessory=thumbnail
    )
    panel.add_item(discord.ui.Container(section, accent_colour=0x1E783C))
    return panel


def _walk(components: Sequence[Any]) -> Iterator[Any]:
    for component in components:
        yield component
        yield from _walk(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from _walk([accessory])


def _file_name(url: str) -> str:
    """``attachment://a.png`` or Discord's CDN url of it (``…/a.png?ex=…``): ``a.png``."""
    return url.split("?")[0].rsplit("/", 1)[-1]


@dataclass
class V2Seen:
    """What a fetched message shows, read as a V2 reader does."""

    v2: bool
    ephemeral: bool
    texts: list[str]
    pictures: list[str]  # the file names its gallery items and thumbnails show
    attachments: list[str]

    @classmethod
    def of(cls, message: discord.Message) -> V2Seen:
        parts = list(_walk(message.components))
        pictures = [
            _file_name(item.media.url)
            for part in parts
            if isinstance(part, discord.components.MediaGalleryComponent)
            for item in part.items
        ] + [
            _file_name(part.media.url)
            for part in parts
            if isinstance(part, discord.components.ThumbnailComponent)
        ]
        return cls(
            v2=message.flags.components_v2,
            ephemeral=message.flags.ephemeral,
            texts=[p.content for p in parts if isinstance(p, discord.components.TextDisplay)],
            pictures=pictures,
            attachments=[a.filename for a in message.attachments],
        )

    def shows(self, text: str, picture_name: str) -> bool:
        """V2, saying ``text``, its one picture ``picture_name``, no other file left on it.

        Discord lists in ``attachments`` only the files no component or embed references
        (message.mdx, Message Object: "any attached files that are not referenced in embeds
        or components"), so there a V2 table's pictures are read from its components, and
        ``attachments`` is empty, or holds a replaced picture left behind."""
        return (
            self.v2
            and any(text in t for t in self.texts)
            and self.pictures == [picture_name]
            and set(self.attachments) <= {picture_name}
        )

    def __str__(self) -> str:
        return (
            f"V2 flag {'set' if self.v2 else 'MISSING'}, texts {self.texts}, "
            f"pictures {self.pictures}, attachments {self.attachments}"
        )


def _refusal(exc: discord.HTTPException) -> str:
    return f"refused: {exc.status} {exc.code} {exc.text}"


ASK_V2 = "**Press “Click me”** ({} of 3): a member other than the bot."
PANEL_EDITED = "Your panel, edited through its token"
TABLE_EDITED = "Edited through the click token of {}"
GALLERY_EDITED = "The gallery's picture replaced through that token"
CHANNEL_EDITED = "Done: the gallery's picture replaced by the bot's channel edit"


async def v2_checks(
    channel: discord.TextChannel,
    checks: list[Check],
    *,
    next_click: Callable[[asyncio.Queue[discord.Interaction]], Awaitable[discord.Interaction]],
    say: Callable[[str], None],
) -> None:
    """Steps 6 to 10 (the module's docstring) on a V2 table posted in ``channel``, each
    check appended to ``checks`` as it is made."""
    clicks: asyncio.Queue[discord.Interaction] = asyncio.Queue()
    table = await channel.send(
        view=SmokeTable(clicks, ASK_V2.format(1), "smoke-1.png"),
        file=png("smoke-1.png", GREEN),
    )
    say(f"Posted a Components V2 table in #{channel.name}: press its “Click me” (1 of 3).")

    async def ask(step: int, picture_name: str) -> None:
        say(f"Press the V2 table's “Click me” ({step} of 3).")
        try:
            await table.edit(view=SmokeTable(clicks, ASK_V2.format(step), picture_name))
        except discord.HTTPException as exc:
            say(f"(the table could not say so: {_refusal(exc)})")

    click = await next_click(clicks)
    try:
        await click.response.send_message(
            view=smoke_panel("Your panel", "smoke-hand.png"),
            file=png("smoke-hand.png", BLUE),
            ephemeral=True,
        )
        # Discord answers the edit with the message as it now stands (an ephemeral one
        # cannot be fetched from the channel)
        edited = await click.edit_original_response(
            view=smoke_panel(PANEL_EDITED, "smoke-hand.png")
        )
        panel = V2Seen.of(edited)
        held, why = panel.shows(PANEL_EDITED, "smoke-hand.png") and panel.ephemeral, str(panel)
        why += f", ephemeral flag {'set' if panel.ephemeral else 'MISSING'}"
    except discord.HTTPException as exc:
        held, why = False, _refusal(exc)
    checks.append(
        Check(
            "an ephemeral V2 panel (a thumbnail beside its text) edited through its token "
            "stays V2 and ephemeral, with its picture",
            held,
            why,
        )
    )
    await ask(2, "smoke-1.png")

    click = await next_click(clicks)
    shown = "smoke-1.png"  # the picture the table shows, named again by the next edits
    try:
        await click.response.edit_message(
            view=SmokeTable(clicks, ASK_V2.format(3), "smoke-2.png"),
            attachments=[png("smoke-2.png", RED)],
        )
        seen = V2Seen.of(await channel.fetch_message(table.id))
        held, why = seen.shows(ASK_V2.format(3), "smoke-2.png"), f"{shown} to smoke-2.png: {seen}"
        if seen.pictures and seen.pictures[0] in seen.attachments:
            shown = seen.pictures[0]
    except discord.HTTPException as exc:
        held, why = False, _refusal(exc)
    checks.append(Check("a V2 gallery's picture replaced by an UPDATE_MESSAGE (type 7)", held, why))
    if held:
        say("Press the V2 table's “Click me” (3 of 3).")
    else:
        await ask(3, shown)

    click = await next_click(clicks)
    text = TABLE_EDITED.format(click.user)
    try:
        await click.response.defer()  # type 6: the table is this click's original response
        await click.edit_original_response(view=SmokeTable(None, text, shown))
        seen = V2Seen.of(await channel.fetch_message(table.id))
        held = seen.shows(text, shown) and click.user.id != table.author.id
        why = f"clicked by {click.user}, message by {table.author}: {seen}"
    except discord.HTTPException as exc:
        held, why = False, _refusal(exc)
    checks.append(
        Check(
            "a V2 table edited through @original of a click's token, the click by another member",
            held,
            why,
        )
    )

    try:
        await click.edit_original_response(
            view=SmokeTable(None, GALLERY_EDITED, "smoke-3.png"),
            attachments=[png("smoke-3.png", GOLD)],
        )
        seen = V2Seen.of(await channel.fetch_message(table.id))
        held, why = seen.shows(GALLERY_EDITED, "smoke-3.png"), f"{shown} to smoke-3.png: {seen}"
        if seen.pictures and set(seen.attachments) <= {seen.pictures[0]}:
            shown = seen.pictures[0]
    except discord.HTTPException as exc:
        held, why = False, _refusal(exc)
    checks.append(
        Check(
            "a V2 gallery's picture replaced by a webhook edit (@original of a click's "
            "token; discord-api-docs#7529)",
            held,
            why,
        )
    )

    try:
        await table.edit(
            view=SmokeTable(None, CHANNEL_EDITED, "smoke-4.png"),
            attachments=[png("smoke-4.png", GREY)],
        )
        seen = V2Seen.of(await channel.fetch_message(table.id))
        held, why = seen.shows(CHANNEL_EDITED, "smoke-4.png"), f"{shown} to smoke-4.png: {seen}"
    except discord.HTTPException as exc:
        held, why = False, _refusal(exc)
    checks.append(
        Check(
            "a V2 gallery's picture replaced by a channel edit (the route a refused token "
            "edit falls back to)",
            held,
            why,
        )
    )


async def smoke(
    client: discord.Client,
    seen: Seen,
    channel_id: int,
    *,
    age_s: float,
    wait_s: float,
    say: Callable[[str], None] = print,
    checks: list[Check] | None = None,
) -> list[Check]:
    """Runs the checks, appending each to ``checks`` as it is made (so that those made
    before a missed click are still printed)."""
    checks = [] if checks is None else checks
    clicks: asyncio.Queue[discord.Interaction] = asyncio.Queue()
    channel = await client.fetch_channel(channel_id)
    assert isinstance(channel, discord.TextChannel), "CHANNEL_ID must be a server text channel"
    message = await channel.send(
        "Tamalou smoke test. **Press “Click me”** (a member other than the bot; twice in "
        "all, when asked).",
        view=ClickView(clicks),
    )
    say(f"Posted a message with a button in #{channel.name}: press “Click me” (1 of 2).")

    async def next_click(
        queue: asyncio.Queue[discord.Interaction] = clicks,
    ) -> discord.Interaction:
        return await asyncio.wait_for(queue.get(), wait_s)

    first = await next_click()
    clicked_at = time.monotonic()
    await first.response.defer()  # type 6: the message is this click's original response
    say(f"Click 1 by {first.user} answered with a deferred update; six edits through its token")
    for n in range(6):
        await first.edit_original_response(content=f"Tamalou smoke test: token edit {n + 1}/6")
    webhook = {r: h for r, h in seen.routes.items() if "/webhooks/" in r}
    limits = [
        f"{r}: {h.get('X-RateLimit-Limit')} per {h.get('X-RateLimit-Reset-After')} s"
        for r, h in webhook.items()
    ]
    checks.append(
        Check(
            "an interaction token's webhook bucket is its own (about 5 per 2 s)",
            bool(webhook) and not any("/webhooks/" in r for r in seen.rate_limited),
            "; ".join(limits) or "no X-RateLimit headers on the token's routes",
        )
    )

    await first.edit_original_response(
        content="Tamalou smoke test: **press “Click me” again** (2 of 2)."
    )
    say("Press “Click me” again (2 of 2).")
    second = await next_click()
    await second.response.edit_message(
        content="Tamalou smoke test: a picture carried by an UPDATE_MESSAGE",
        attachments=[discord.File(io.BytesIO(picture()), filename="smoke.png")],
    )
    fetched = await channel.fetch_message(message.id)
    names = [a.filename for a in fetched.attachments]
    checks.append(
        Check(
            "an UPDATE_MESSAGE (type 7) carries a new attachment",
            "smoke.png" in names,
            f"attachments {names}",
        )
    )

    me = channel.guild.me
    manage = channel.permissions_for(me).manage_threads
    try:
        thread = await message.create_thread(name="tamalou smoke")
        await thread.edit(archived=True)
        archived, why = True, "archived"
    except discord.HTTPException as exc:
        archived, why = False, f"{exc.status} {exc.code} {exc.text}"
    checks.append(
        Check(
            "the bot archives its own thread without Manage Threads",
            archived and not manage,
            why
            + (" (but the bot HAS Manage Threads here: remove it to prove this)" if manage else ""),
        )
    )

    await v2_checks(channel, checks, next_click=next_click, say=say)

    wait = age_s - (time.monotonic() - clicked_at)
    if wait > 0:
        say(f"Waiting {wait:.0f} s, until the first click's token is {age_s:g} s old.")
        await asyncio.sleep(wait)
    text = f"Tamalou smoke test: edited through a token {age_s:g} s old"
    try:
        await first.edit_original_response(content=text, attachments=[])
        edited = (await channel.fetch_message(message.id)).content == text
        why = f"clicked by {first.user}, message by {message.author}"
    except discord.HTTPException as exc:
        edited, why = False, f"{exc.status} {exc.code} {exc.text}"
    checks.append(
        Check(
            f"a table message edited through @original of a click's token {age_s:g} s old, "
            "the click by another member",
            edited and first.user.id != message.author.id,
            why,
        )
    )

    channel_routes = {r: h for r, h in seen.routes.items() if "/channels/" in r}
    checks.append(
        Check(
            "Discord sends X-RateLimit-* headers (the bot's budget and discord.py read them)",
            bool(channel_routes) and bool(webhook),
            "; ".join(f"{r}: {h}" for r, h in sorted(seen.routes.items())),
        )
    )
    return checks


async def run(token: str, channel_id: int, age_s: float, wait_s: float) -> int:
    seen = Seen()
    client = discord.Client(intents=discord.Intents.default(), http_trace=seen.trace())
    outcome: list[Check] = []
    failure: list[str] = []

    @client.event
    async def on_ready() -> None:
        try:
            await smoke(client, seen, channel_id, age_s=age_s, wait_s=wait_s, checks=outcome)
        except TimeoutError:
            failure.append(f"nobody pressed the button within {wait_s:g} s")
        except (discord.HTTPException, AssertionError) as exc:
            failure.append(str(exc))
        finally:
            await client.close()

    async with client:
        await client.start(token)
    for check in outcome:
        print(check.line())
    for why in failure:
        print(f"error: {why}")
    return 0 if outcome and all(c.held for c in outcome) and not failure else 1


def main(token: str, argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot smoke", usage=USAGE)
    parser.add_argument("channel", type=int)
    parser.add_argument(
        "--age-s", type=float, default=600.0, help="the token's age at the last edit"
    )
    parser.add_argument(
        "--wait-s", type=float, default=600.0, help="how long a click is waited for"
    )
    args = parser.parse_args(argv)
    return asyncio.run(run(token, args.channel, args.age_s, args.wait_s))
