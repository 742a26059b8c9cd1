"""The seat commands every game's slash group has: join, leave, start, addbot, kick, cancel,
hand, and ping (a member's turn pings, one choice per server for every game). A game's
``commands.py`` makes its group, adds its own ``new`` and ``rules``, then calls
:func:`add_seat_commands`; the seasons Cog adds ``leaderboard``, ``stats`` and ``season …``
later. Nothing here knows a game: the channel's table must be of the group's game, and the
panel is the plugin's (through the presenter)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import lang_of, ls, t
from bot.storage import display_state
from bot.tables import LiveTable, TableError
from bot.ui.kit import bot_of, button, cid, defer, reply, seat_name, ts

log = logging.getLogger(__name__)

#: what the bot needs in a channel to show a table: see it, post, embed the table, attach
#: its picture (``discord.Permissions`` names, ``perm.<name>`` in the catalogue)
POST_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files")


def check_can_post(interaction: discord.Interaction) -> None:
    """Refuse, naming what is missing, when the interaction's ``app_permissions`` (the bot's
    own in this channel) do not let it show a table: a lobby nobody can see held the
    channel."""
    perms = interaction.app_permissions
    missing = tuple(name for name in POST_PERMISSIONS if not getattr(perms, name))
    if missing:
        raise TableError("bot_cannot_post", missing=missing)


async def open_lobby(
    interaction: discord.Interaction, settings: dict[str, Any], game: str, lang: str
) -> tuple[LiveTable, str]:
    """``/<game> new``: the bot's permissions checked, the table opened, its lobby posted
    (and its thread started). Returns the table and what the host is told on top of "table
    opened" (a line when the table must play in the channel, or ""). A post Discord refuses
    anyway (403, 5xx) frees the channel and says so."""
    bot = bot_of(interaction)
    guild_id, channel_id = guild_ids(interaction)
    await check_may_open(interaction, guild_id)
    check_can_post(interaction)
    user = interaction.user
    table = await bot.service.open_table(
        guild_id, channel_id, user.id, user.display_name, settings, game
    )
    try:
        note = await bot.presenter.lobby_opened(table, may_start_threads(interaction))
    except discord.HTTPException as exc:
        log.warning(
            "table %s: its lobby could not be posted (%s %s); freeing the channel",
            table.id,
            exc.status,
            exc.code,
        )
        await bot.service.cancel(table, "not_posted", present=False)
        await bot.presenter.forget(table)
        raise TableError("not_posted") from None
    return table, "" if note is None else "\n" + t(lang, note)


async def check_may_open(interaction: discord.Interaction, guild_id: int) -> None:
    """The server's role allowed to open tables (``/cardsadmin table_role``), if it set one:
    a member without it (and without Manage Server) is refused, the role named."""
    role_id = int(
        (await bot_of(interaction).storage.guild_settings(guild_id)).get("opener_role_id", 0)
    )
    if not role_id:
        return
    perms = getattr(interaction, "permissions", None)
    if perms is not None and perms.manage_guild:
        return
    roles = getattr(interaction.user, "roles", None) or []
    if any(getattr(r, "id", None) == role_id for r in roles):
        return
    raise TableError("opener_role", role=f"<@&{role_id}>")


def opened_text(table: LiveTable, lang: str) -> str:
    """What ``/<game> new`` tells its host: where the table plays (its thread, or this
    channel when it plays here)."""
    thread = table.row.thread_id
    if thread is None:
        return t(lang, "ok.opened", id=table.id)
    return t(lang, "ok.opened_thread", id=table.id, thread=f"<#{thread}>")


def guild_ids(interaction: discord.Interaction) -> tuple[int, int]:
    """The guild and channel of a command (commands are guild only)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise TableError("guild_only")
    return interaction.guild_id, interaction.channel_id


def may_start_threads(interaction: discord.Interaction) -> bool | None:
    """Whether the bot may start a public thread here and post in it, read from the
    interaction's ``app_permissions`` (None: the channel holds no thread: a thread itself)."""
    kind = getattr(interaction.channel, "type", None)
    if kind not in (discord.ChannelType.text, discord.ChannelType.news):
        return None
    perms = interaction.app_permissions
    return bool(perms.create_public_threads and perms.send_messages_in_threads)


def table_here(interaction: discord.Interaction, game: str) -> tuple[str, LiveTable]:
    """The user's language and the channel's live table of ``game``; a refusal in words
    when the channel has no table (``err.no_<game>_table``) or one of another game."""
    service = bot_of(interaction).service
    channel = guild_ids(interaction)[1]
    if channel not in service.by_channel:
        raise TableError(f"no_{game}_table")
    table = service.table_in(channel)
    if table.row.game != game:
        raise TableError("other_game", game=table.row.game)
    return lang_of(interaction.locale), table


def add_seat_commands(
    group: app_commands.Group,
    game: str,
    ai_levels: Sequence[str],
    *,
    started: str = "ok.started",
    default_level: str = "medium",
) -> None:
    """Add join, leave, start, addbot, kick, cancel, hand and ping to ``group`` for ``game``.

    ``started``: the catalogue key of the host's answer to ``start`` (``{id}``: the table).
    """

    @group.command(
        name=ls("join", "cmd.join"),
        description=ls("Sit at the table of this channel", "cmd.join.desc"),
    )
    async def cmd_join(interaction: discord.Interaction) -> None:
        lang, table = table_here(interaction, game)
        await bot_of(interaction).service.join(
            table, interaction.user.id, interaction.user.display_name
        )
        await reply(interaction, t(lang, "ok.joined", id=table.id))

    @group.command(
        name=ls("leave", "cmd.leave"),
        description=ls("Leave the table before it starts", "cmd.leave.desc"),
    )
    async def cmd_leave(interaction: discord.Interaction) -> None:
        lang, table = table_here(interaction, game)
        await bot_of(interaction).service.leave(table, interaction.user.id)
        await reply(interaction, t(lang, "ok.left", id=table.id))

    @group.command(
        name=ls("start", "cmd.start"),
        description=ls("Deal the first round (host)", "cmd.start.desc"),
    )
    async def cmd_start(interaction: discord.Interaction) -> None:
        lang, table = table_here(interaction, game)
        await defer(interaction)
        await bot_of(interaction).service.start(table, interaction.user.id)
        await reply(interaction, t(lang, started, id=table.id))

    @group.command(
        name=ls("addbot", "cmd.addbot"),
        description=ls("Seat an AI player (host)", "cmd.addbot.desc"),
    )
    @app_commands.describe(level=ls("How strong the AI plays", "opt.level"))
    @app_commands.choices(
        level=[app_commands.Choice(name=ls(lv, f"level.{lv}"), value=lv) for lv in ai_levels]
    )
    @app_commands.rename(level=ls("level", "optname.level"))
    async def cmd_addbot(interaction: discord.Interaction, level: str = default_level) -> None:
        lang, table = table_here(interaction, game)
        seat = await bot_of(interaction).service.add_ai(table, interaction.user.id, level)
        await reply(interaction, t(lang, "ok.ai_added", name=seat_name(seat, lang)))

    @group.command(
        name=ls("kick", "cmd.kick"),
        description=ls("Remove a player from the lobby (host)", "cmd.kick.desc"),
    )
    @app_commands.describe(seat=ls("Seat number to free", "opt.seat"))
    @app_commands.rename(seat=ls("seat", "optname.seat"))
    async def cmd_kick(
        interaction: discord.Interaction, seat: app_commands.Range[int, 1, 8]
    ) -> None:
        lang, table = table_here(interaction, game)
        removed = await bot_of(interaction).service.kick(table, interaction.user.id, seat - 1)
        await reply(interaction, t(lang, "ok.kicked", name=seat_name(removed, lang)))

    @group.command(
        name=ls("cancel", "cmd.cancel"),
        description=ls(
            "Close the table of this channel (host or Manage Server)", "cmd.cancel.desc"
        ),
    )
    async def cmd_cancel(interaction: discord.Interaction) -> None:
        lang, table = table_here(interaction, game)
        if table.row.host_id != interaction.user.id and not interaction.permissions.manage_guild:
            raise TableError("host_only")
        await defer(interaction)
        await bot_of(interaction).service.cancel(table, "cancelled")
        await reply(interaction, t(lang, "ok.cancelled", id=table.id))

    @group.command(
        name=ls("hand", "cmd.hand"),
        description=ls("Open your private panel again", "cmd.hand.desc"),
    )
    async def cmd_hand(interaction: discord.Interaction) -> None:
        lang, table = table_here(interaction, game)
        bot = bot_of(interaction)
        seat = bot.service.seat_for(table, interaction.user.id)
        await defer(interaction)
        await bot.desk.show(interaction, table, seat, lang, edit=False, reuse=False)

    @group.command(
        name=ls("ping", "cmd.ping"),
        description=ls("Be pinged when your turn waits for you, or not", "cmd.ping.desc"),
    )
    @app_commands.describe(on=ls("On or off", "opt.ping_on"))
    @app_commands.rename(on=ls("on", "optname.ping_on"))
    async def cmd_ping(interaction: discord.Interaction, on: bool) -> None:
        """A member's own preference, stored per server and read by the presenter for every
        game's turn pings: ``/kalooki ping`` and ``/tamalou ping`` set the same choice."""
        bot = bot_of(interaction)
        guild_id, _ = guild_ids(interaction)
        await display_state.set_turn_ping(bot.storage, guild_id, interaction.user.id, on)
        bot.presenter.nudges.ping_choice(guild_id, interaction.user.id, on)
        lang = lang_of(interaction.locale)
        seconds = await bot.presenter.nudges.ping_after_ms(guild_id) / 1000
        key = "ok.ping_on" if on else "ok.ping_off"
        await reply(interaction, t(lang, key, seconds=f"{seconds:g}"))


def group_cog(group: app_commands.Group, name: str) -> type[commands.Cog]:
    """A Cog class named ``name`` that puts ``group`` on the tree while it is loaded."""

    class GroupCog(commands.Cog, name=name):
        def __init__(self, bot: commands.Bot) -> None:
            self.bot = bot

        async def cog_load(self) -> None:
            self.bot.tree.add_command(group)

        async def cog_unload(self) -> None:
            self.bot.tree.remove_command(group.name)

    return GroupCog


def lobby_message(
    table: LiveTable,
    lang: str,
    expires_at: int,
    *,
    title: str,
    fields: Sequence[tuple[str, str, bool]],
    min_players: int,
) -> tuple[discord.Embed, discord.ui.View]:
    """A lobby as every game shows it: the seats (the host crowned, AIs marked), the game's
    own ``fields`` (name, value, inline), when the lobby expires, and the seat buttons."""
    lines = []
    for s in table.seats:
        mark = "👑 " if s.user_id == table.row.host_id and s.ai_level is None else ""
        bot_mark = " 🤖" if s.ai_level else ""
        lines.append(f"{s.seat + 1}. {mark}{seat_name(s, lang)}{bot_mark}")
    embed = discord.Embed(
        title=title, description="\n".join(lines), colour=discord.Colour.blurple()
    )
    for name, value, inline in fields:
        embed.add_field(name=name, value=value, inline=inline)
    embed.add_field(name=t(lang, "lobby.expires"), value=ts(expires_at), inline=False)
    embed.set_footer(text=t(lang, "lobby.footer", min=min_players))
    game, style = table.row.game, discord.ButtonStyle
    v = discord.ui.View(timeout=None)
    v.add_item(button(t(lang, "btn.join"), cid(game, "join", table.id), style.success))
    v.add_item(button(t(lang, "btn.leave"), cid(game, "leave", table.id)))
    v.add_item(button(t(lang, "btn.add_ai"), cid(game, "addai", table.id)))
    v.add_item(button(t(lang, "btn.start"), cid(game, "start", table.id), style.primary))
    return embed, v
