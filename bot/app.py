"""The bot: resources opened in ``setup_hook``, components registered, extensions loaded,
commands synced. Everything a player sees lives in the extensions and ``bot/ui``."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import re
import signal
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

import tamalou.games
from bot import GC_THRESHOLDS, games
from bot.budget import DiscordBudget
from bot.config import Config
from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, Translator, lang_of, t
from bot.status import StatusReporter
from bot.storage import open_storage
from bot.storage.state import get_state, set_state
from bot.tables import AiRunner, TableService
from bot.ui import clicked
from bot.ui.cards import ALL_CODES, CardEmojis, emoji_png, prerender
from bot.ui.cards import display as card_display
from bot.ui.desk import PanelDesk
from bot.ui.discord_clock import DiscordClock
from bot.ui.errors import answer_error
from bot.ui.kit import answer_in_time, reply, snowflake_ms
from bot.ui.presenter import DiscordPresenter
from bot.ui.routing import COMPONENT_TYPES, TableButton, TableSelect, dispatch, route

if TYPE_CHECKING:
    from bot.metrics import Metrics
    from bot.seasons import Seasons
    from bot.tournaments.commands import Tournaments

log = logging.getLogger(__name__)

#: loaded after every game's extension (they add commands to the /tamalou group)
SHARED_EXTENSIONS = (
    "bot.cogs.settings",
    "bot.cogs.seasons",
    "bot.cogs.tournaments",
    "bot.cogs.admin",
)
#: how long a render waits at start-up for the guilds to be known (their language)
GUILD_WAIT_S = 10.0


class Tree(app_commands.CommandTree):
    """Every command answers within Discord's 3 s: one not answered by the safety deadline
    is deferred, whatever it waits for (a locked database)."""

    def __init__(self, client: discord.Client, **options: Any) -> None:
        super().__init__(client, **options)
        self._deadlines: set[asyncio.Task[None]] = set()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # the timer finds the command answered and does nothing, unless it is still busy
        if interaction.type is discord.InteractionType.application_command:
            bot = cast("GameBot", self.client)  # the safety deadline runs from the press
            left = bot.config.answer_deadline_ms - bot.discord_clock.age(
                snowflake_ms(interaction.id)
            )
            seconds = max(0.0, left / 1000)
            task = asyncio.create_task(answer_in_time(interaction, seconds), name="answer-in-time")
            self._deadlines.add(task)
            task.add_done_callback(self._deadlines.discard)
        return True


class GameBot(commands.AutoShardedBot):
    """The Discord client hosting every registered game (``bot/games``): one storage, one
    table service, one presenter and one router for all of them."""

    seasons: Seasons
    tournaments: Tournaments

    def __init__(self, config: Config) -> None:
        # no voice: discord.py's warnings that voice's libraries are missing say nothing
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.default()
        shards: dict[str, Any] = {}  # none: every shard Discord recommends, in this process
        if config.shard_count is not None:
            shards["shard_count"] = config.shard_count
        if config.shard_ids is not None:  # a shard range (several processes): docs/deploy.md
            shards["shard_ids"] = list(config.shard_ids)
        #: every request on the bot token's global limit waits its turn here (bot/budget.py)
        self.budget = DiscordBudget.for_process(
            config.discord_budget, shard_ids=config.shard_ids, shard_count=config.shard_count
        )
        trace = self.budget.trace()
        #: Prometheus metrics (TAMALOU_METRICS_PORT; off: None, nothing imported)
        self.metrics: Metrics | None = None
        #: the bot's clock read in Discord's time: a click's deadlines run from its press
        self.discord_clock = DiscordClock(config.clock)
        read_dates = self.discord_clock.trace()  # every REST answer's Date header, read
        # after the budget's wait: the request's time is when it leaves
        trace.on_request_start.extend(read_dates.on_request_start)
        trace.on_request_end.extend(read_dates.on_request_end)
        if config.metrics_port:
            from bot.metrics import Metrics

            self.metrics = Metrics()
            self.metrics.trace(trace)
        shards["http_trace"] = trace
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=Tree,
            allowed_mentions=discord.AllowedMentions.none(),
            # no message cache: nothing reads it (a click carries its message), and it kept
            # every table message posted, about 5 kB each (memory a live table)
            max_messages=None,
            **shards,
        )
        self.config = config
        clicked.install()  # a clicked message is parsed only if read (bot.ui.clicked)
        self.storage = open_storage(config.database, busy_timeout_ms=config.database_busy_ms)
        self.desk = PanelDesk(
            storage=self.storage,
            clock=config.clock,
            answer_deadline_ms=config.answer_deadline_ms,
            plugin=games.plugin,
            webhook=self._webhook,
        )
        self.presenter = DiscordPresenter(self, self.desk)
        self.service = TableService(
            self.storage,
            self.presenter,
            rules_for=games.rules_for,
            load_game=tamalou.games.load,
            reorder_ms=config.reorder_ms,
            ai_delay_ms=config.ai_delay_ms,
            lobby_timeout_s=config.lobby_timeout_s,
            clock=config.clock,
            seeds=config.seeds,
            ai_runner=AiRunner(config.ai_workers),
            owns=config.owns,
        )
        self.guild_languages: dict[int, str] = {}
        self._refreshed = False
        self._closing: asyncio.Task[None] | None = None
        self._item_templates: list[re.Pattern[str]] = []
        #: run once the guilds are known at start-up (``on_ready``, after the live tables
        #: are drawn again): tournaments carry on. Nothing that renders for a guild runs
        #: before its guild is known (its language: in ``setup_hook`` a render waited 10 s
        #: for a READY that cannot come before it returns, then spoke French)
        self.after_ready: list[Callable[[], Awaitable[Any]]] = []
        self.cards = CardEmojis(self)
        self._cards_task: asyncio.Task[None] | None = None
        self._redrawing: asyncio.Task[Any] | None = None  # on_ready redrawing the tables
        self.health = StatusReporter(self)  # python -m bot status (bot/status.py)
        if self.metrics is not None:
            self.metrics.attach(self)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self._item_templates += [i.__discord_ui_compiled_template__ for i in items]

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every click on a table's button or select is routed here (``bot.ui.routing``:
        discord.py's DynamicItem dispatch rebuilt a View of the whole message per click).
        A component no item of ours matches (a message of an older version) is answered
        too, or Discord shows "This interaction failed"."""
        self.discord_clock.pressed(snowflake_ms(interaction.id))  # it was pressed by now
        if interaction.type is not discord.InteractionType.component:
            if self.metrics is not None:
                self.metrics.interaction(interaction.type.name, _command_kind(interaction))
            return
        data = cast(dict[str, Any], interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        routed = route(custom_id)
        if self.metrics is not None:
            self.metrics.interaction(
                "component",
                f"{routed[1]['game']}:{routed[1]['verb']}" if routed is not None else "other",
            )
        if routed is None:
            ours = any(p.fullmatch(custom_id) for p in self._item_templates)
        else:  # a button's custom id sent as a select's, or the reverse, is no item of ours
            ours = COMPONENT_TYPES[routed[0]] == data.get("component_type")
        if not ours:
            await reply(interaction, t(lang_of(interaction.locale), "err.bad_button"))
        elif not clicked.carries(interaction, custom_id):
            # discord.py drops a click whose button is no longer on the message (a Double
            # of a discard that changed since): it is answered here instead.
            await reply(interaction, t(lang_of(interaction.locale), "err.stale_button"))
        elif routed is not None:
            try:
                await dispatch(interaction, *routed)
            finally:
                clicked.release(interaction)  # answered and handled: nothing reads it now

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A table message deleted by a moderator is posted again at once."""
        await self.presenter.message_deleted(payload.channel_id, payload.message_id)

    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        for message_id in payload.message_ids:
            await self.presenter.message_deleted(payload.channel_id, message_id)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """The channel of a table deleted: the table closes."""
        await self.presenter.channel_gone(channel.id)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot removed from a server: its tables close."""
        await self.presenter.guild_gone(guild.id)

    async def setup_hook(self) -> None:
        self.health.install()  # the last warnings and errors, for the status
        # SIGTERM (systemd, docker stop) closes as SIGINT does: timers stop, the last moves
        # are committed (by default Python would just die). Not on Windows.
        with contextlib.suppress(NotImplementedError, RuntimeError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self._terminate)
        card_display.use(self.cards)  # text until the emojis are synced
        if self.config.card_emojis:  # never waited for: start-up goes on meanwhile
            self._cards_task = asyncio.create_task(self._ready_cards(), name="card-emojis")
        else:
            log.info("card emojis off (TAMALOU_CARD_EMOJIS): cards are shown as text")
        await self.storage.open()
        await self.tree.set_translator(Translator())
        # Table items are routed by on_interaction, not by discord.py (its templates are
        # known for the "not valid" answer only).
        self._item_templates += [
            i.__discord_ui_compiled_template__ for i in (TableButton, TableSelect)
        ]
        for plugin in games.plugins():
            await self.load_extension(plugin.extension)
        for extension in SHARED_EXTENSIONS:
            await self.load_extension(extension)
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        count = await self.service.load()
        log.info("ready to serve %d live tables", count)
        # Timed secrets shown before the restart, the overdue ones hidden first: a panel is
        # edited through its interaction's token, no gateway needed (they waited for every
        # table to be drawn again, 2-6 s late).
        try:
            await self.desk.restore_hides(self.service.tables)
        except Exception:
            log.exception("could not read the timed panels back: some may stay shown")
        # The turn pings before the scheduler starts: a turn that runs out before on_ready
        # (discord.py waits up to 2 s for the guilds) is drawn knowing its stored ping, which
        # goes with it (a ping nobody deleted, else). REST works here, no gateway needed.
        try:
            await self.presenter.nudges.restore()
        except Exception:
            log.exception("could not read the turn pings back: a turn may be pinged twice")
        try:  # a half-built Kalooki contract, the hand's order...: before any click comes
            await self.desk.restore_states(self.service.tables, self.service.owns)
        except Exception:
            log.exception("could not read the panel memories back: drafts start empty")
        # Long-lived objects (modules, rebuilt tables) leave the collector's generations, and
        # young collections run less often: full collections over them stalled clicks.
        # A click leaves no reference cycle (bot.ui.clicked.release, release_view): its
        # objects go by reference counting, and a young collection every 100,000 objects
        # cost 2-6% of the CPU under load, against 4-5 times that at 20,000.
        # (``python -m bot`` set the thresholds before start-up: GC_THRESHOLDS)
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        if self.config.sync_commands != "never":
            await self.sync_commands(force=self.config.sync_commands == "always")
        self.service.start_scheduler()
        await self.health.write("connecting")
        self.health.start()

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Registers the slash commands with Discord (globally, or in ``TAMALOU_GUILD_ID``)
        when their payload (names, options, translations) differs from the last one synced
        for this application and scope, whose hash the database keeps: Discord rate-limits
        command updates, and most starts change none. ``force``: sync anyway. Whether it
        synced."""
        guild = discord.Object(self.config.guild_id) if self.config.guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = await command_payload(self.tree, guild)
        digest = hashlib.sha256(
            json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()
        ).hexdigest()
        scope = f"guild {guild.id}" if guild is not None else "global"
        key = f"commands:{self.application_id}:{scope}"
        if not force and await get_state(self.storage, key) == digest:
            log.info(
                "slash commands (%s) unchanged since their last sync: not synced again "
                "(TAMALOU_SYNC_COMMANDS=1 forces it)",
                scope,
            )
            return False
        await self.tree.sync(guild=guild)
        await set_state(self.storage, key, digest, self.config.clock())
        log.info("slash commands synced (%s, %d top-level)", scope, len(payload))
        return True

    async def _ready_cards(self) -> None:
        """Draws every face in a worker thread, then lists and uploads the card emojis; on
        success after ``on_ready`` the live tables are redrawn with them. A failure is
        logged once by ``CardEmojis`` (bot.ui.cards.emojis) and the cards stay text."""
        await asyncio.to_thread(_draw_faces)
        synced = await self.cards.sync()
        self.health.emojis = (
            f"ready ({len(ALL_CODES)}, {self.cards.uploaded} uploaded by this process)"
            if synced
            else "unavailable: cards shown as text (the warning says why)"
        )
        await self.health.write("ready" if self.is_ready() else "connecting")
        if synced and self._refreshed:  # else on_ready draws them all
            for table in list(self.service.tables.values()):
                await self.presenter.table_changed(table)

    def _terminate(self) -> None:
        if self._closing is None:
            log.info("SIGTERM: closing")
            self._closing = asyncio.get_running_loop().create_task(self.close())

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A moderator deleted a thread: a table playing there is posted again."""
        await self.presenter.thread_gone(payload.thread_id)

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A thread was archived (by a moderator while a table plays there: it is posted
        again; the bot archives a table's thread only once the table is closed)."""
        if payload.data.get("thread_metadata", {}).get("archived"):
            await self.presenter.thread_gone(payload.thread_id)

    async def on_ready(self) -> None:
        if self._refreshed:
            return
        self._refreshed = True
        self._redrawing = asyncio.current_task()  # close() ends it before the storage
        for table, reason in self.service.closed_at_start:  # a kill cut their cancel short
            await self.presenter.table_closed(table, reason)
        self.service.closed_at_start.clear()
        try:  # the members' open panels: edited again, not posted anew
            await self.desk.restore_panels(self.service.tables)
        except Exception:
            log.exception("could not read the open panels back: members get new ones")
        for table in list(self.service.tables.values()):
            await self.presenter.table_changed(table, at_once=True)
        for table in await self.service.unshown_finals():  # killed before its last message
            await self.presenter.table_changed(table, at_once=True)
        for step in self.after_ready:  # the guilds are known: their language too
            try:
                await step()
            except Exception:
                log.exception("a start-up step after READY failed")
        await self.health.write("ready")
        self._redrawing = None

    async def close(self) -> None:
        """Every task that may write ends before the storage closes: the scheduler and its
        wakes (AI workers included), the table edits and panel hides, the batched writes."""
        for task in (self._cards_task, self._redrawing):
            if task is not None and not task.done() and task is not asyncio.current_task():
                task.cancel()  # a stop right after the start: no redraw on a closed storage
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(NotImplementedError, RuntimeError):
            asyncio.get_running_loop().remove_signal_handler(signal.SIGTERM)
        await self.service.stop()
        await self.presenter.stop()
        await super().close()
        await self.health.stop()
        await self.storage.close()  # after its last batch of actions is committed
        if card_display.current() is self.cards:
            card_display.use(None)

    def _webhook(self, token: str) -> discord.Webhook:
        """The webhook a private panel is edited through (its interaction's token)."""
        return discord.Webhook.partial(self.application_id or 0, token, client=self)

    async def guild_language(self, guild_id: int | None) -> str:
        if guild_id is None:
            return DEFAULT_LANGUAGE
        cached = self.guild_languages.get(guild_id)
        if cached:
            return cached
        settings = await self.storage.guild_settings(guild_id)
        lang = settings.get("language")
        if lang in LANGUAGES:
            self.guild_languages[guild_id] = lang
            return str(lang)
        # No stored setting: the guild's own locale. Before its GUILD_CREATE (timers run
        # from start-up) the guild is not known yet: wait for it a little, and never cache
        # a guess (the default was cached for good and the server flipped to French).
        guild = self.get_guild(guild_id)
        if guild is None and not self.is_ready():
            with contextlib.suppress(TimeoutError, RuntimeError):
                await asyncio.wait_for(self.wait_until_ready(), GUILD_WAIT_S)
            guild = self.get_guild(guild_id)
        if guild is None:  # still not known: no cache
            return DEFAULT_LANGUAGE
        lang = lang_of(guild.preferred_locale, DEFAULT_LANGUAGE)
        self.guild_languages[guild_id] = lang  # known, not guessed
        return str(lang)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        name = interaction.command.qualified_name if interaction.command else "?"
        await answer_error(interaction, error, f"command {name}")


def _command_kind(interaction: discord.Interaction) -> str:
    """A slash command's group and subcommand (``tamalou new``), for the metrics."""
    data = cast(dict[str, Any], interaction.data or {})
    words = [str(data.get("name", "?"))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):  # a subcommand (group)
        words.append(str(options[0].get("name", "?")))
        options = options[0].get("options") or []
    return " ".join(words)


async def command_payload(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None
) -> list[dict[str, Any]]:
    """What ``tree.sync(guild=guild)`` sends Discord (discord.py's own construction)."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


def _draw_faces() -> None:
    """Every emoji face and picture face drawn once (cached), off the event loop: the
    upload then only sends bytes, and the first hand picture only lays cards out."""
    for code in ALL_CODES:
        emoji_png(code)
    prerender(ALL_CODES)
