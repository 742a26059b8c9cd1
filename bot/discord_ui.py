"""The Discord side: the bot, the ``/tamalou`` commands, the buttons and the presenter.

A callback only turns a click into a service call (and so an engine action) and renders
the result. Every refusal is an ephemeral in the user's language; unexpected errors are
logged with their traceback and answered politely.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import re
import time
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.config import Config
from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, Translator, lang_of, ls, t
from bot.service import AI_LEVELS, LiveTable, TableError, TableService, now_ms
from bot.storage import Storage
from tamalou.core.errors import IllegalAction
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import legal_actions
from tamalou.games.tamalou.rules import TAMALOU

log = logging.getLogger(__name__)

DISCORD_EPOCH = 1420070400000
_background: set[asyncio.Task[None]] = set()


def snowflake_ms(snowflake: int) -> int:
    """The moment a Discord id was made: the interaction's press time (R-D4)."""
    return (snowflake >> 22) + DISCORD_EPOCH


def frozen_view(view: discord.ui.View) -> discord.ui.View:
    """Send components without keeping the View: state lives in the database."""
    view.stop()
    return view


class TamalouBot(commands.AutoShardedBot):
    def __init__(self, config: Config) -> None:
        intents = discord.Intents.default()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.config = config
        self.storage = Storage(config.database)
        self.presenter = DiscordPresenter(self)
        self.service = TableService(
            self.storage,
            self.presenter,
            reorder_ms=config.reorder_ms,
            ai_delay_ms=config.ai_delay_ms,
            lobby_timeout_s=config.lobby_timeout_s,
        )
        self.guild_languages: dict[int, str] = {}
        self._refreshed = False
        self._item_templates: list[re.Pattern[str]] = []

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self._item_templates += [i.__discord_ui_compiled_template__ for i in items]

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A component no button of ours matches (a message of an older version): answer it,
        or Discord shows "This interaction failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        data = cast(dict[str, Any], interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if any(p.fullmatch(custom_id) for p in self._item_templates):
            return
        await reply(interaction, t(lang_of(interaction.locale), "err.bad_button"))

    async def setup_hook(self) -> None:
        await self.storage.open()
        await self.tree.set_translator(Translator())
        self.add_dynamic_items(TableButton, TableSelect)
        from bot import seasons_commands  # registers leaderboard, stats, season on the group

        self.seasons = await seasons_commands.install(self)
        self.tree.add_command(tamalou_group)
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        count = await self.service.load()
        log.info("ready to serve %d live tables", count)
        # Long-lived objects (modules, rebuilt tables) leave the collector's generations, and
        # young collections run less often: full collections over them stalled clicks.
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 20, 50)
        if self.config.sync_commands:
            if self.config.guild_id:
                guild = discord.Object(self.config.guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()
        self.service.start_scheduler()

    async def on_ready(self) -> None:
        if self._refreshed:
            return
        self._refreshed = True
        for table in list(self.service.tables.values()):
            await self.presenter.table_changed(table, at_once=True)

    async def close(self) -> None:
        await self.service.stop()
        await super().close()
        await self.storage.close()

    async def guild_language(self, guild_id: int | None) -> str:
        if guild_id is None:
            return DEFAULT_LANGUAGE
        cached = self.guild_languages.get(guild_id)
        if cached:
            return cached
        settings = await self.storage.guild_settings(guild_id)
        lang = settings.get("language")
        if lang not in LANGUAGES:
            guild = self.get_guild(guild_id)
            locale = guild.preferred_locale if guild is not None else None
            lang = lang_of(locale, DEFAULT_LANGUAGE) if locale is not None else DEFAULT_LANGUAGE
        self.guild_languages[guild_id] = lang
        return lang

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        lang = lang_of(interaction.locale)
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(cause, TableError):
            await reply(interaction, t(lang, f"err.{cause.reason}", **cause.detail))
            return
        if isinstance(cause, app_commands.MissingPermissions):
            await reply(interaction, t(lang, "err.manage_server"))
            return
        if isinstance(cause, app_commands.NoPrivateMessage):
            await reply(interaction, t(lang, "err.guild_only"))
            return
        log.error("command failed", exc_info=cause)
        await reply(interaction, t(lang, "err.unexpected"))


async def reply(
    interaction: discord.Interaction,
    text: str,
    ephemeral: bool = True,
    view: discord.ui.View | None = None,
) -> None:
    """Answer once, whether the interaction was already acknowledged or not."""
    kwargs: dict[str, Any] = {"ephemeral": ephemeral}
    if view is not None:
        kwargs["view"] = frozen_view(view)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text[:2000], **kwargs)
        else:
            await interaction.response.send_message(text[:2000], **kwargs)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)


def bot_of(interaction: discord.Interaction) -> TamalouBot:
    return cast(TamalouBot, interaction.client)


# -- the presenter: table messages -------------------------------------------------------


class DiscordPresenter:
    """Posts and edits table messages; edits coalesce to about one a second per table."""

    def __init__(self, bot: TamalouBot) -> None:
        self.bot = bot
        self._pending: dict[int, asyncio.Task[None]] = {}
        self._last_edit: dict[int, float] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    def _channel(self, table: LiveTable) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.row.channel_id, guild_id=table.row.guild_id)

    async def _render(self, table: LiveTable) -> tuple[discord.Embed, discord.ui.View | None]:
        lang = await self.bot.guild_language(table.row.guild_id)
        if table.row.status == "lobby":
            expires = table.row.created_at + self.bot.service.lobby_timeout_ms
            embed, view = render.lobby_message(table, lang, expires)
            return embed, view
        if table.game is None:
            return render.closed_message(table, lang, "cancelled"), None
        return render.table_message(table, lang, now_ms())

    async def table_changed(self, table: LiveTable, at_once: bool = False) -> None:
        if table.id in self._pending and not at_once:
            return  # the pending edit will render the latest state
        interval = self.bot.config.edit_interval_ms / 1000
        wait = (
            0.0
            if at_once
            else max(0.0, self._last_edit.get(table.id, 0) + interval - time.monotonic())
        )
        if wait <= 0:  # edit now, inside the interaction that changed the table
            self._last_edit[table.id] = time.monotonic()
            try:
                await self._show(table)
            except Exception:
                log.exception("table %s: could not refresh its message", table.id)
            return
        self._pending[table.id] = asyncio.create_task(self._edit_later(table, wait))

    async def _edit_later(self, table: LiveTable, wait: float) -> None:
        try:
            if wait:
                await asyncio.sleep(wait)
        finally:
            self._pending.pop(table.id, None)
        self._last_edit[table.id] = time.monotonic()
        try:
            await self._show(table)
        except Exception:
            log.exception("table %s: could not refresh its message", table.id)

    async def _show(self, table: LiveTable) -> None:
        lock = self._locks.setdefault(table.id, asyncio.Lock())
        async with lock:
            embed, view = await self._render(table)
            view = frozen_view(view) if view is not None else None
            channel = self._channel(table)
            if table.row.message_id is not None:
                try:
                    await channel.get_partial_message(table.row.message_id).edit(
                        embed=embed, view=view, content=None
                    )
                    return
                except discord.NotFound:
                    pass  # deleted by someone: post it again
            message = await (
                channel.send(embed=embed, view=view) if view else channel.send(embed=embed)
            )
            table.row.message_id = message.id
            await self.bot.storage.set_table_message(table.id, message.id)

    async def round_started(self, table: LiveTable) -> None:
        """R-M1: a new round gets a new message (old messages are hard to edit after an hour)."""
        if table.game is not None and table.game.round.round_no == 1:
            await self.table_changed(table, at_once=True)  # the lobby message becomes the table
            return
        lock = self._locks.setdefault(table.id, asyncio.Lock())
        async with lock:
            old = table.row.message_id
            if old is not None:
                try:
                    lang = await self.bot.guild_language(table.row.guild_id)
                    await (
                        self._channel(table)
                        .get_partial_message(old)
                        .edit(content=t(lang, "table.moved"), view=None)
                    )
                except discord.HTTPException:
                    pass
            table.row.message_id = None
        await self._show(table)

    async def table_closed(self, table: LiveTable, reason: str) -> None:
        lang = await self.bot.guild_language(table.row.guild_id)
        embed = render.closed_message(table, lang, reason)
        if table.row.message_id is not None:
            try:
                await (
                    self._channel(table)
                    .get_partial_message(table.row.message_id)
                    .edit(embed=embed, view=None)
                )
                return
            except discord.HTTPException:
                pass
        await self._channel(table).send(embed=embed)


# -- buttons -----------------------------------------------------------------------------

LOBBY_VERBS = {"join", "leave", "start", "addai"}
PANEL_VERBS = {"rep", "throw", "replay", "pass", "look", "qmine", "qswap", "peek"}


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"tamalou:(?P<verb>(?!qswap:)[a-z]{2,8}):(?P<table>[0-9]{1,18})(?::(?P<arg>[0-9.]{1,40}))?",
):
    """Every button of the bot: ``tamalou:<verb>:<table>[:<arg>]``."""

    def __init__(self, verb: str, table_id: int, arg: str | None) -> None:
        self.verb, self.table_id, self.arg = verb, table_id, arg
        super().__init__(discord.ui.Button(custom_id=render.cid(verb, table_id, arg)))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        return cls(match["verb"], int(match["table"]), match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await on_component(interaction, self.verb, self.table_id, self.arg, [])


class TableSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"tamalou:qswap:(?P<table>[0-9]{1,18}):(?P<arg>[0-9.]{1,40})",
):
    """The Queen's target: ``tamalou:qswap:<table>:<round>.<your slot>``."""

    def __init__(self, table_id: int, arg: str) -> None:
        self.table_id, self.arg = table_id, arg
        super().__init__(
            discord.ui.Select(
                custom_id=render.cid("qswap", table_id, arg),
                options=[discord.SelectOption(label="-")],
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableSelect:
        return cls(int(match["table"]), match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
        await on_component(interaction, "qswap", self.table_id, self.arg, values)


def _ints(arg: str | None, count: int) -> list[int]:
    parts = (arg or "").split(".")
    if len(parts) != count or not all(p.isdigit() and len(p) <= 9 for p in parts):
        raise TableError("bad_button")
    return [int(p) for p in parts]


async def on_component(
    interaction: discord.Interaction, verb: str, table_id: int, arg: str | None, values: list[str]
) -> None:
    bot = bot_of(interaction)
    lang = lang_of(interaction.locale)
    try:
        await _component(bot, interaction, verb, table_id, arg, values, lang)
    except TableError as exc:
        await reply(interaction, t(lang, f"err.{exc.reason}", **exc.detail))
    except IllegalAction as exc:
        await reply(interaction, refusal_text(lang, exc))
    except Exception:
        log.exception("button %s on table %s failed", verb, table_id)
        await reply(interaction, t(lang, "err.unexpected"))


def refusal_text(lang: str, exc: IllegalAction) -> str:
    detail = dict(exc.detail)
    until = detail.get("until")
    if isinstance(until, int):
        detail["when"] = render.ts(until)
    key = f"illegal.{exc.reason}"
    if exc.reason == "doubles_blocked" and until is None:
        key = "illegal.doubles_blocked_round"
    return t(lang, key, **detail)


async def _component(
    bot: TamalouBot,
    interaction: discord.Interaction,
    verb: str,
    table_id: int,
    arg: str | None,
    values: list[str],
    lang: str,
) -> None:
    service = bot.service
    user = interaction.user
    # Defer only before a wait (storage, the reorder window): "My cards" and the refusals
    # known at once answer in one call instead of a defer and a followup.
    defer = interaction.response.defer
    if verb == "rematch":
        await defer()
        await service.rematch(table_id, user.id)
        return
    if verb not in LOBBY_VERBS | PANEL_VERBS | {"draw", "take", "call", "hand", "dbl", "next"}:
        raise TableError("bad_button")
    table = service.table(table_id)
    if verb in LOBBY_VERBS:
        await defer()
        await lobby_verb(bot, interaction, table, verb, lang)
        return
    at = snowflake_ms(interaction.id)
    seat = service.seat_for(table, user.id)
    game = table.game
    assert game is not None
    parts = _ints(arg, {"dbl": 3, "rep": 2, "look": 2, "qmine": 2, "qswap": 2}.get(verb, 1))
    if parts[0] != game.round.round_no:
        raise TableError("old_round")
    from_panel = verb in PANEL_VERBS
    if verb == "qmine":
        await defer()
        await show_panel(interaction, table, seat, lang, edit=True, queen_slot=parts[1])
        return
    if verb == "hand":
        if any(a.kind == "peek" for a in legal_actions(game, seat, at)):  # R-S5: open your peek
            verb = "peek"
        else:
            await show_panel(interaction, table, seat, lang, edit=False)
            return
    action = build_action(verb, seat, parts, values, at)
    await defer()
    outcome = await service.act(table, action, user.id)
    if outcome.error is not None:
        raise outcome.error
    missed = [e for e in outcome.events if isinstance(e, E.DoubleMissed) and e.player == seat]
    if missed:
        await reply(
            interaction,
            t(lang, f"double.{missed[0].reason}", card=render.card_label(missed[0].card)),
        )
        return
    if verb in ("dbl", "next"):
        if verb == "dbl":
            await reply(interaction, t(lang, "double.done"))
        return
    await show_panel(interaction, table, seat, lang, edit=from_panel)


def build_action(verb: str, seat: int, parts: list[int], values: list[str], at: int) -> A.Action:
    match verb:
        case "draw":
            return A.Draw(seat, at)
        case "take":
            return A.TakeDiscard(seat, at)
        case "call":
            return A.CallTamalou(seat, at)
        case "peek":
            return A.Peek(seat, at)
        case "dbl":
            return A.Double(seat, parts[1], parts[2], at)
        case "rep":
            return A.Replace(seat, parts[1], at)
        case "throw":
            return A.Throw(seat, at)
        case "replay":
            return A.Replay(seat, at)
        case "pass":
            return A.Pass(seat, at)
        case "look":
            return A.Look(seat, seat, parts[1], at)
        case "next":
            return A.NextRound(seat, at)
        case "qswap":
            if len(values) != 1:
                raise TableError("bad_button")
            target, target_slot = _ints(values[0], 2)
            return A.Swap(seat, parts[1], target, target_slot, at)
    raise TableError("bad_button")


async def show_panel(
    interaction: discord.Interaction,
    table: LiveTable,
    seat: int,
    lang: str,
    edit: bool,
    queen_slot: int | None = None,
) -> None:
    """Send (or update in place) the player's private panel; hide timed cards when due."""
    at = now_ms()
    text, view, hide_at = render.panel(table, seat, lang, at, queen_slot)
    view = frozen_view(view)
    message: discord.InteractionMessage | discord.WebhookMessage | None = None
    if edit:
        await interaction.edit_original_response(content=text, view=view)
    elif not interaction.response.is_done():  # the panel is the answer (@original)
        await interaction.response.send_message(text, view=view, ephemeral=True)
    else:
        message = await interaction.followup.send(text, view=view, ephemeral=True, wait=True)
    if hide_at is not None:
        task = asyncio.create_task(_hide_later(interaction, message, table, seat, lang, hide_at))
        _background.add(task)
        task.add_done_callback(_background.discard)


async def _hide_later(
    interaction: discord.Interaction,
    message: discord.WebhookMessage | discord.InteractionMessage | None,
    table: LiveTable,
    seat: int,
    lang: str,
    until: int,
) -> None:
    """R-S2/R-P3: the ephemeral is edited to hide the cards when their time is up."""
    while (remaining := until - now_ms()) > 0:  # short naps: the clock may jump (tests)
        await asyncio.sleep(min(0.25, remaining / 1000) + 0.01)
    if table.game is None:
        return
    text, view, _ = render.panel(table, seat, lang, max(now_ms(), until))
    try:
        if message is None:
            await interaction.edit_original_response(content=text, view=frozen_view(view))
        else:
            await message.edit(content=text, view=frozen_view(view))
    except discord.HTTPException:
        log.info("table %s: could not hide a timed card panel (token expired?)", table.id)


async def lobby_verb(
    bot: TamalouBot, interaction: discord.Interaction, table: LiveTable, verb: str, lang: str
) -> None:
    user = interaction.user
    service = bot.service
    if verb == "join":
        await service.join(table, user.id, user.display_name)
        await reply(interaction, t(lang, "ok.joined", id=table.id))
    elif verb == "leave":
        await service.leave(table, user.id)
        await reply(interaction, t(lang, "ok.left", id=table.id))
    elif verb == "addai":
        seat = await service.add_ai(table, user.id, "medium")
        await reply(interaction, t(lang, "ok.ai_added", name=render.seat_name(seat, lang)))
    elif verb == "start":
        await service.start(table, user.id)


# -- slash commands ----------------------------------------------------------------------

tamalou_group = app_commands.Group(
    name=ls("tamalou", "cmd.tamalou"),
    description=ls("Play Tamalou, the card game, in this channel", "cmd.tamalou.desc"),
    guild_only=True,
)


def _here(interaction: discord.Interaction) -> tuple[TamalouBot, str, LiveTable]:
    """The bot, the user's language and the live table of the channel (or a refusal)."""
    bot = bot_of(interaction)
    table = bot.service.table_in(_guild_ids(interaction)[1])
    return bot, lang_of(interaction.locale), table


def _guild_ids(interaction: discord.Interaction) -> tuple[int, int]:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise TableError("guild_only")
    return interaction.guild_id, interaction.channel_id


@tamalou_group.command(
    name=ls("new", "cmd.new"), description=ls("Open a table in this channel", "cmd.new.desc")
)
@app_commands.describe(
    target=ls("Score that ends the match (default 100)", "opt.target"),
    turn_seconds=ls("Seconds per turn (default 45)", "opt.turn_seconds"),
    max_players=ls("Most players at the table (2 to 5)", "opt.max_players"),
)
@app_commands.rename(
    target=ls("target", "optname.target"),
    turn_seconds=ls("turn_seconds", "optname.turn_seconds"),
    max_players=ls("max_players", "optname.max_players"),
)
async def cmd_new(
    interaction: discord.Interaction,
    target: app_commands.Range[int, 10, 1000] | None = None,
    turn_seconds: app_commands.Range[int, 15, 300] | None = None,
    max_players: app_commands.Range[int, 2, 5] | None = None,
) -> None:
    bot = bot_of(interaction)
    lang = lang_of(interaction.locale)
    guild_id, channel_id = _guild_ids(interaction)
    defaults = await bot.storage.guild_settings(guild_id)
    settings: dict[str, Any] = {
        "target": target or int(TAMALOU.target),
        "turn_seconds": turn_seconds or defaults.get("turn_seconds") or TAMALOU.turn_ms // 1000,
        "max_players": max_players or TAMALOU.max_players,
    }
    await interaction.response.defer(ephemeral=True)
    table = await bot.service.open_table(
        guild_id, channel_id, interaction.user.id, interaction.user.display_name, settings
    )
    await bot.presenter.table_changed(table, at_once=True)
    await reply(interaction, t(lang, "ok.opened", id=table.id))


@tamalou_group.command(
    name=ls("join", "cmd.join"), description=ls("Sit at the table of this channel", "cmd.join.desc")
)
async def cmd_join(interaction: discord.Interaction) -> None:
    bot, lang, table = _here(interaction)
    await bot.service.join(table, interaction.user.id, interaction.user.display_name)
    await reply(interaction, t(lang, "ok.joined", id=table.id))


@tamalou_group.command(
    name=ls("leave", "cmd.leave"),
    description=ls("Leave the table before it starts", "cmd.leave.desc"),
)
async def cmd_leave(interaction: discord.Interaction) -> None:
    bot, lang, table = _here(interaction)
    await bot.service.leave(table, interaction.user.id)
    await reply(interaction, t(lang, "ok.left", id=table.id))


@tamalou_group.command(
    name=ls("start", "cmd.start"), description=ls("Deal the first round (host)", "cmd.start.desc")
)
async def cmd_start(interaction: discord.Interaction) -> None:
    bot, lang, table = _here(interaction)
    await interaction.response.defer(ephemeral=True)
    await bot.service.start(table, interaction.user.id)
    await reply(interaction, t(lang, "ok.started", id=table.id))


@tamalou_group.command(
    name=ls("addbot", "cmd.addbot"), description=ls("Seat an AI player (host)", "cmd.addbot.desc")
)
@app_commands.describe(level=ls("How strong the AI plays", "opt.level"))
@app_commands.choices(
    level=[app_commands.Choice(name=ls(lv, f"level.{lv}"), value=lv) for lv in AI_LEVELS]
)
@app_commands.rename(level=ls("level", "optname.level"))
async def cmd_addbot(interaction: discord.Interaction, level: str = "medium") -> None:
    bot, lang, table = _here(interaction)
    seat = await bot.service.add_ai(table, interaction.user.id, level)
    await reply(interaction, t(lang, "ok.ai_added", name=render.seat_name(seat, lang)))


@tamalou_group.command(
    name=ls("kick", "cmd.kick"),
    description=ls("Remove a player from the lobby (host)", "cmd.kick.desc"),
)
@app_commands.describe(seat=ls("Seat number to free", "opt.seat"))
@app_commands.rename(seat=ls("seat", "optname.seat"))
async def cmd_kick(interaction: discord.Interaction, seat: app_commands.Range[int, 1, 8]) -> None:
    bot, lang, table = _here(interaction)
    removed = await bot.service.kick(table, interaction.user.id, seat - 1)
    await reply(interaction, t(lang, "ok.kicked", name=render.seat_name(removed, lang)))


@tamalou_group.command(
    name=ls("cancel", "cmd.cancel"),
    description=ls("Close the table of this channel (host or Manage Server)", "cmd.cancel.desc"),
)
async def cmd_cancel(interaction: discord.Interaction) -> None:
    bot, lang, table = _here(interaction)
    perms = interaction.permissions
    if table.row.host_id != interaction.user.id and not perms.manage_guild:
        raise TableError("host_only")
    await interaction.response.defer(ephemeral=True)
    await bot.service.cancel(table, "cancelled")
    await reply(interaction, t(lang, "ok.cancelled", id=table.id))


@tamalou_group.command(
    name=ls("hand", "cmd.hand"), description=ls("Open your private panel again", "cmd.hand.desc")
)
async def cmd_hand(interaction: discord.Interaction) -> None:
    bot, lang, table = _here(interaction)
    seat = bot.service.seat_for(table, interaction.user.id)
    await interaction.response.defer(ephemeral=True)
    await show_panel(interaction, table, seat, lang, edit=False)


@tamalou_group.command(
    name=ls("rules", "cmd.rules"), description=ls("The rules in short", "cmd.rules.desc")
)
async def cmd_rules(interaction: discord.Interaction) -> None:
    lang = lang_of(interaction.locale)
    await reply(interaction, t(lang, "rules.text"))


@tamalou_group.command(
    name=ls("settings", "cmd.settings"),
    description=ls("Server language and default turn time (Manage Server)", "cmd.settings.desc"),
)
@app_commands.describe(
    language=ls("Language of public messages", "opt.language"),
    turn_seconds=ls("Default seconds per turn", "opt.turn_seconds"),
)
@app_commands.choices(
    language=[
        app_commands.Choice(name="Français", value="fr"),
        app_commands.Choice(name="English", value="en"),
    ]
)
@app_commands.default_permissions(manage_guild=True)
@app_commands.checks.has_permissions(manage_guild=True)
@app_commands.rename(
    language=ls("language", "optname.language"),
    turn_seconds=ls("turn_seconds", "optname.turn_seconds"),
)
async def cmd_settings(
    interaction: discord.Interaction,
    language: str | None = None,
    turn_seconds: app_commands.Range[int, 15, 300] | None = None,
) -> None:
    bot = bot_of(interaction)
    guild_id, _ = _guild_ids(interaction)
    await bot.storage.set_guild_settings(guild_id, language, turn_seconds)
    bot.guild_languages.pop(guild_id, None)
    current = await bot.storage.guild_settings(guild_id)
    lang = lang_of(interaction.locale)
    await reply(
        interaction,
        t(
            lang,
            "ok.settings",
            language=current.get("language") or await bot.guild_language(guild_id),
            seconds=current.get("turn_seconds") or TAMALOU.turn_ms // 1000,
        ),
    )
