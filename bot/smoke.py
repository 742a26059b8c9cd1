"""``python -m bot smoke CHANNEL_ID``: checks against real Discord what no emulator can
prove, and prints each assumption as held or not (docs/operating.md, "Smoke test against
Discord"). Never in CI: it needs a test bot's token (``DISCORD_TOKEN``), a test server, and
a member of it to press a button twice (a real click cannot be scripted).

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
"""

from __future__ import annotations

import argparse
import asyncio
import io
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord

from bot.budget import request_kind

CUSTOM_ID = "tamalou:smoke:click"
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
attach files and create public threads. A member must press the button it posts, twice.
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


def picture() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (64, 32), (30, 120, 60)).save(buf, format="PNG")
    return buf.getvalue()


async def smoke(
    client: discord.Client,
    seen: Seen,
    channel_id: int,
    *,
    age_s: float,
    wait_s: float,
    say: Callable[[str], None] = print,
) -> list[Check]:
    checks: list[Check] = []
    clicks: asyncio.Queue[discord.Interaction] = asyncio.Queue()
    channel = await client.fetch_channel(channel_id)
    assert isinstance(channel, discord.TextChannel), "CHANNEL_ID must be a server text channel"
    message = await channel.send(
        "Tamalou smoke test. **Press “Click me”** (a member other than the bot; twice in "
        "all, when asked).",
        view=ClickView(clicks),
    )
    say(f"Posted a message with a button in #{channel.name}: press “Click me” (1 of 2).")

    async def next_click() -> discord.Interaction:
        return await asyncio.wait_for(clicks.get(), wait_s)

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
            outcome.extend(await smoke(client, seen, channel_id, age_s=age_s, wait_s=wait_s))
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
