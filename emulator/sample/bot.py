"""A tiny discord.py bot that exercises the emulator (not part of the product).

Env: DISCORD_TOKEN, EMU_SAMPLE_GUILD_ID (sync commands to that guild; else global).
"""

from __future__ import annotations

import asyncio
import io
import os
import re

import discord
from discord import app_commands
from discord.ext import commands

DISCORD_EPOCH_MS = 1420070400000


class SecretButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"demo:secret:(?P<n>\d+)"
):
    """Persistent button: its state is in the custom_id, it survives restarts."""

    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Secret", custom_id=f"demo:secret:{n}", style=discord.ButtonStyle.primary
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> SecretButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"secret #{self.n} for {interaction.user.name}", ephemeral=True
        )


class CounterView(discord.ui.View):
    """Non-persistent view (stored under the response's message id)."""

    def __init__(self) -> None:
        super().__init__(timeout=120)
        self.count = 0

    @discord.ui.button(label="Count", style=discord.ButtonStyle.secondary)
    async def count_button(
        self, interaction: discord.Interaction, button: discord.ui.Button[CounterView]
    ) -> None:
        self.count += 1
        button.label = f"Count ({self.count})"
        await interaction.response.edit_message(content=f"count={self.count}", view=self)

    @discord.ui.button(label="Off", disabled=True)
    async def off_button(
        self, interaction: discord.Interaction, button: discord.ui.Button[CounterView]
    ) -> None:
        await interaction.response.send_message("never")

    @discord.ui.button(label="Boom", style=discord.ButtonStyle.danger)
    async def boom_button(
        self, interaction: discord.Interaction, button: discord.ui.Button[CounterView]
    ) -> None:
        await interaction.response.defer()
        raise ValueError("button exploded")

    @discord.ui.select(
        placeholder="Pick a colour",
        options=[
            discord.SelectOption(label="Red", value="r"),
            discord.SelectOption(label="Blue", value="b"),
        ],
    )
    async def colour(
        self, interaction: discord.Interaction, select: discord.ui.Select[CounterView]
    ) -> None:
        await interaction.response.send_message(f"picked {select.values}", ephemeral=True)


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}")


#: the bytes of the sample's pictures (the emulator stores them, it does not decode them)
PICTURE = b"\x89PNG\r\n\x1a\n" + bytes(16)


class TableLayout(discord.ui.LayoutView):
    """A Components V2 table: a container holding a heading, a section whose accessory is
    a button, a gallery showing an attached picture, a row of a button and a row with a
    select. "Sit" answers with an UPDATE_MESSAGE of the next layout (V2 again), "Hand"
    with an ephemeral V2 panel holding its own picture, the select with a plain reply."""

    def __init__(self, sat: int = 0) -> None:
        super().__init__(timeout=120)
        self.sat = sat
        sit: discord.ui.Button[TableLayout] = discord.ui.Button(
            label="Sit", custom_id="demo:layout:sit"
        )
        sit.callback = self.on_sit  # type: ignore[method-assign]
        hand: discord.ui.Button[TableLayout] = discord.ui.Button(
            label="Hand", custom_id="demo:layout:hand"
        )
        hand.callback = self.on_hand  # type: ignore[method-assign]
        seat: discord.ui.Select[TableLayout] = discord.ui.Select(
            custom_id="demo:layout:seat",
            placeholder="Pick a seat",
            options=[discord.SelectOption(label=f"Seat {n}", value=str(n)) for n in (1, 2)],
        )
        seat.callback = self.on_seat  # type: ignore[method-assign]
        self.seat = seat
        gallery: discord.ui.MediaGallery[TableLayout] = discord.ui.MediaGallery(
            discord.MediaGalleryItem("attachment://table.png", description="the discard pile")
        )
        self.add_item(
            discord.ui.Container(
                discord.ui.TextDisplay("## Table 1"),
                discord.ui.Section("Seat 1: alice", f"seated: {sat}", accessory=sit),
                discord.ui.Separator(),
                gallery,
                discord.ui.ActionRow(hand),
                discord.ui.ActionRow(seat),
                accent_colour=0x2E7D32,
            )
        )
        self.add_item(discord.ui.TextDisplay("-# last move: none"))

    async def on_sit(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(view=TableLayout(self.sat + 1))

    async def on_hand(self, interaction: discord.Interaction) -> None:
        panel = discord.ui.LayoutView()
        panel.add_item(
            discord.ui.Section(
                "Your hand",
                accessory=discord.ui.Thumbnail("attachment://hand.png", description="your cards"),
            )
        )
        picture = discord.File(io.BytesIO(PICTURE), filename="hand.png")
        await interaction.response.send_message(view=panel, file=picture, ephemeral=True)

    async def on_seat(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"seat {self.seat.values[0]}", ephemeral=True)


demo = app_commands.Group(name="demo", description="Emulator demo commands")
season = app_commands.Group(name="season", description="Season things", parent=demo)


@demo.command(description="Public reply with buttons")
async def hello(interaction: discord.Interaction) -> None:
    view = CounterView()
    view.add_item(SecretButton(interaction.id % 1000))
    await interaction.response.send_message(f"hello {interaction.user.name}", view=view)


@demo.command(description="A Components V2 table with a picture")
async def layout(interaction: discord.Interaction) -> None:
    picture = discord.File(io.BytesIO(PICTURE), filename="table.png")
    await interaction.response.send_message(view=TableLayout(), file=picture)


@demo.command(description="Defer then follow up")
async def deferred(interaction: discord.Interaction, ephemeral: bool = False) -> None:
    await interaction.response.defer(thinking=True, ephemeral=ephemeral)
    await asyncio.sleep(0)
    await interaction.followup.send("done after defer")
    await interaction.followup.send("second followup", ephemeral=True)


@demo.command(description="Reply then edit @original")
async def edit(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("v1")
    await interaction.edit_original_response(content="v2")
    original = await interaction.original_response()
    await interaction.followup.send(f"original says {original.content}", ephemeral=True)


@demo.command(description="Followup and @original lifecycle")
async def lifecycle(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("r1")
    first = await interaction.followup.send("f1", wait=True)
    await first.edit(content="f2")
    fetched = await interaction.followup.fetch_message(first.id)
    gone = await interaction.followup.send("gone", wait=True)
    await gone.delete()
    await interaction.delete_original_response()
    await interaction.followup.send(f"fetched {fetched.content}", ephemeral=True)


@demo.command(description="Channel message send + edit + fetch + delete + file")
async def post(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("posting", ephemeral=True)
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    msg = await channel.send("channel v1")
    await msg.edit(content="channel v2")
    temp = await channel.send("temporary")
    await temp.delete()
    fetched = await channel.fetch_message(msg.id)
    recent = [m.content async for m in channel.history(limit=2)]
    data = io.BytesIO(b"PNGDATA")
    sent = await channel.send("a file", file=discord.File(data, filename="card.png"))
    await interaction.followup.send(
        f"fetched={fetched.content} recent={recent} url={sent.attachments[0].url}", ephemeral=True
    )


@demo.command(description="Answers after a delay")
async def slow(interaction: discord.Interaction, delay: float) -> None:
    await asyncio.sleep(delay)
    await interaction.response.send_message("too slow?")


@demo.command(description="Echo the interaction snowflake time")
async def when(interaction: discord.Interaction) -> None:
    ms = (interaction.id >> 22) + DISCORD_EPOCH_MS
    await interaction.response.send_message(f"t={ms}", ephemeral=True)


@demo.command(description="Raise an exception")
async def boom(interaction: discord.Interaction) -> None:
    raise RuntimeError("command exploded")


@demo.command(description="Send payloads Discord rejects")
@app_commands.choices(
    kind=[
        app_commands.Choice(name="rows", value="rows"),
        app_commands.Choice(name="long", value="long"),
        app_commands.Choice(name="embed", value="embed"),
    ]
)
async def invalid(interaction: discord.Interaction, kind: app_commands.Choice[str]) -> None:
    await interaction.response.defer(ephemeral=True)
    client = interaction.client
    assert interaction.channel_id is not None
    route = discord.http.Route(
        "POST", "/channels/{channel_id}/messages", channel_id=interaction.channel_id
    )
    payload: dict[str, object] = {"content": "x"}
    if kind.value == "rows":
        payload["components"] = [
            {
                "type": 1,
                "components": [{"type": 2, "style": 1, "label": f"b{i}", "custom_id": f"b{i}"}],
            }
            for i in range(6)
        ]
    elif kind.value == "long":
        payload["content"] = "x" * 2001
    else:
        payload["embeds"] = [{"title": "t" * 257}]
    try:
        await client.http.request(route, json=payload)
    except discord.HTTPException as exc:
        await interaction.followup.send(f"rejected {exc.status} {exc.code}")
    else:
        await interaction.followup.send("accepted")


@demo.command(description="Call an endpoint the emulator does not know")
async def unknown(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("trying", ephemeral=True)
    try:
        await interaction.client.http.request(discord.http.Route("GET", "/emu-sample/nothing"))
    except discord.NotFound:
        await interaction.followup.send("not found", ephemeral=True)


@demo.command(description="Who may manage the server")
async def admin(interaction: discord.Interaction) -> None:
    ok = interaction.permissions.manage_guild
    await interaction.response.send_message(
        f"admin={ok} locale={interaction.locale.value} guild={interaction.guild_locale}",
        ephemeral=True,
    )


@demo.command(description="Typed options")
@app_commands.describe(who="a member", times="how many")
async def pick(
    interaction: discord.Interaction,
    who: discord.Member,
    times: app_commands.Range[int, 1, 10],
    note: str | None = None,
) -> None:
    await interaction.response.send_message(
        f"who={who.name} times={times} note={note} roles={len(who.roles)}"
    )


@demo.command(description="Open a modal")
async def modal(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(NameModal())


@demo.command(description="DM the caller")
async def dm(interaction: discord.Interaction) -> None:
    await interaction.user.send("psst, a secret DM")
    await interaction.response.send_message("sent", ephemeral=True)


@demo.command(description="Query members over the gateway (op 8)")
async def members(interaction: discord.Interaction, prefix: str) -> None:
    assert interaction.guild is not None
    found = await interaction.guild.query_members(prefix)
    await interaction.response.send_message(",".join(sorted(m.name for m in found)))


@demo.command(description="Answer twice")
async def twice(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("one")
    try:
        await interaction.client.http.request(
            discord.http.Route(
                "POST",
                "/interactions/{iid}/{tok}/callback",
                iid=interaction.id,
                tok=interaction.token,
            ),
            json={"type": 4, "data": {"content": "two"}},
        )
    except discord.HTTPException as exc:
        await interaction.followup.send(f"second: {exc.status} {exc.code}", ephemeral=True)


@demo.command(description="Start a thread from a reply and talk in it")
async def thread(interaction: discord.Interaction, archive: bool = False) -> None:
    await interaction.response.send_message("thread starter")
    starter = await interaction.original_response()
    thread = await starter.create_thread(name="demo thread", auto_archive_duration=60)
    await thread.send("in the thread", view=CounterView())
    if archive:
        await thread.edit(archived=True)
        try:
            await thread.send("after archiving")
        except discord.HTTPException as exc:
            await interaction.followup.send(f"archived: {exc.status} {exc.code}", ephemeral=True)
            return
    await interaction.followup.send(
        f"thread={thread.id} parent={thread.parent_id} type={thread.type.value}", ephemeral=True
    )


@demo.command(description="The active threads discord.py knows of")
async def threads(interaction: discord.Interaction) -> None:
    assert interaction.guild is not None
    names = sorted(f"{t.name}:{t.id}" for t in interaction.guild.threads)
    await interaction.response.send_message(f"threads={names}", ephemeral=True)


@season.command(name="start", description="Start a season")
async def season_start(interaction: discord.Interaction, name: str) -> None:
    await interaction.response.send_message(f"season {name} started")


@app_commands.command(name="adminonly", description="Hidden from non-admins")
@app_commands.default_permissions(manage_guild=True)
async def adminonly(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("admin stuff", ephemeral=True)


class SampleBot(commands.AutoShardedBot):
    def __init__(self) -> None:
        intents = discord.Intents.default()
        intents.members = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents)
        self.tree.add_command(demo)
        self.tree.add_command(adminonly)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(SecretButton)
        guild_id = os.environ.get("EMU_SAMPLE_GUILD_ID")
        if guild_id:
            guild = discord.Object(int(guild_id))
            self.tree.copy_global_to(guild=guild)
            self.tree.clear_commands(guild=None)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()


def main() -> None:
    SampleBot().run(os.environ["DISCORD_TOKEN"])
