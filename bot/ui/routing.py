"""Every button and select of every game: ``<game>:<verb>:<table>[:<arg>]`` (DynamicItem).

Nothing lives in a View: a click carries its game, verb, table and argument, the table's
state is in the service, so buttons posted before a restart keep working. Lobby verbs and
the rematch are the same for every game and answered here; a play verb is checked by the
one click pipeline (``pipeline.py``: table, shape, origin, member, round) and only then
handed to its game's plugin. Every failure goes through the one error funnel.
"""

from __future__ import annotations

import logging
import re
from typing import Any, cast

import discord

from bot import games
from bot.i18n import lang_of, t
from bot.tables import LiveTable, TableError
from bot.ui import clicked, pipeline
from bot.ui.errors import answer_error
from bot.ui.kit import bot_of, reply, seat_name
from bot.ui.lobby import check_may_open

log = logging.getLogger(__name__)

LOBBY_VERBS = frozenset({"join", "leave", "start", "addai"})
#: verbs whose component is a select menu (their values are the choice)
SELECT_VERBS = ("qswap", "pick")
_GAME = r"(?P<game>[a-z]{2,16})"
_TABLE = r"(?P<table>[0-9]{1,18})"
_ARG = r"(?P<arg>[0-9.]{1,40})"


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"{_GAME}:(?P<verb>(?!(?:{'|'.join(SELECT_VERBS)}):)[a-z]{{2,8}}):{_TABLE}(?::{_ARG})?",
):
    """Every button of every table: ``<game>:<verb>:<table>[:<arg>]``. A template only:
    ``GameBot.on_interaction`` matches it (:func:`route`) and answers through
    :func:`dispatch`, so it has no callback of its own."""

    def __init__(self, game: str, verb: str, table_id: int, arg: str | None) -> None:
        self.game, self.verb, self.table_id, self.arg = game, verb, table_id, arg
        custom_id = f"{game}:{verb}:{table_id}" + (f":{arg}" if arg is not None else "")
        super().__init__(discord.ui.Button(custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        return cls(match["game"], match["verb"], int(match["table"]), match["arg"])


class TableSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=rf"{_GAME}:(?P<verb>{'|'.join(SELECT_VERBS)}):{_TABLE}:{_ARG}",
):
    """A choice among many (Tamalou's Queen target): ``<game>:<verb>:<table>:<arg>``; a
    template only, as :class:`TableButton`."""

    def __init__(self, game: str, verb: str, table_id: int, arg: str) -> None:
        self.game, self.verb, self.table_id, self.arg = game, verb, table_id, arg
        super().__init__(
            discord.ui.Select(
                custom_id=f"{game}:{verb}:{table_id}:{arg}",
                options=[discord.SelectOption(label="-")],
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableSelect:
        return cls(match["game"], match["verb"], int(match["table"]), match["arg"])


#: the component type of each routed item (Discord's numbers: 2 a button, 3 a string select)
COMPONENT_TYPES: dict[type[Any], int] = {TableButton: 2, TableSelect: 3}


def route(custom_id: str) -> tuple[type[TableButton] | type[TableSelect], re.Match[str]] | None:
    """The table item a custom id names, and its match; None: not one of ours."""
    for item in (TableButton, TableSelect):
        match = item.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            return item, match
    return None


async def dispatch(
    interaction: discord.Interaction,
    item: type[TableButton] | type[TableSelect],
    match: re.Match[str],
) -> None:
    """A table click, answered without discord.py's DynamicItem dispatch: that rebuilds a
    whole View from the clicked message (every button of it) for each click, only to find
    the one item the custom id already names. The caller has checked, as discord.py does,
    that the message carries a component of that custom id and type."""
    values: list[str] = []
    if item is TableSelect:
        data = cast(dict[str, Any], interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
    await on_component(
        interaction, match["game"], match["verb"], int(match["table"]), match["arg"], values
    )


async def on_component(
    interaction: discord.Interaction,
    game: str,
    verb: str,
    table_id: int,
    arg: str | None,
    values: list[str],
) -> None:
    lang = lang_of(interaction.locale)
    try:
        await _component(interaction, game, verb, table_id, arg, values, lang)
    except Exception as exc:
        await answer_error(interaction, exc, f"button {game}:{verb} on table {table_id}", game)
        # Answered (and logged when unexpected): its traceback's frames hold the error
        # (a refusal kept in an outcome), a cycle that kept a click's objects alive until
        # a garbage collection.
        exc.__traceback__ = None


async def _component(
    interaction: discord.Interaction,
    game: str,
    verb: str,
    table_id: int,
    arg: str | None,
    values: list[str],
    lang: str,
) -> None:
    service = bot_of(interaction).service
    if game not in games.REGISTRY:
        raise TableError("bad_button")
    plugin = games.plugin(game)
    if verb == "rematch":
        await interaction.response.defer()

        async def may_open() -> None:
            # a rematch opens a table: the server's role allowed to open tables decides who
            # may press it (/cardsadmin table_role), as for /<game> new; refused, the
            # finished table stays, for a seated member with the role to press
            await check_may_open(interaction, interaction.guild_id or 0)

        fresh = await service.rematch(
            table_id, interaction.user.id, interaction.channel_id, may_open
        )
        note = bot_of(interaction).presenter.thread_note(fresh.id)
        if note is not None:  # as /<game> new tells its host: one line, to the press
            await reply(interaction, t(lang, note))
        return
    if verb not in LOBBY_VERBS and verb not in plugin.verbs:
        raise TableError("bad_button")
    table = service.table(table_id)
    if table.row.game != game:
        raise TableError("bad_button")
    if interaction.guild_id != table.row.guild_id or interaction.channel_id not in table.channels:
        raise TableError("bad_button")  # a table's buttons live in its channel or thread only
    if verb in LOBBY_VERBS:
        await interaction.response.defer()
        clicked_id = clicked.message_id(interaction)
        if clicked_id is not None and clicked_id == table.row.message_id:
            # its token edits the lobby (and the table it becomes) off the global limit
            bot_of(interaction).presenter.keep_token(interaction, table.id, clicked_id)
        await lobby_verb(interaction, table, verb, lang)
        return
    click = pipeline.check(interaction, plugin, table, verb, arg, values, lang)
    bot = bot_of(interaction)
    with bot.desk.answering(table.id, click.seat):
        async with bot.presenter.carrying(interaction, table, click.from_panel):
            await pipeline.carry_out(click, plugin.answer(click))
            if not interaction.response.is_done():  # a verb with nothing to show (Next):
                await bot.presenter.acknowledge(interaction)  # every click is answered


async def lobby_verb(
    interaction: discord.Interaction, table: LiveTable, verb: str, lang: str
) -> None:
    user = interaction.user
    service = bot_of(interaction).service
    if verb == "join":
        await service.join(table, user.id, user.display_name)
        await reply(interaction, t(lang, "ok.joined", id=table.id))
    elif verb == "leave":
        await service.leave(table, user.id)
        await reply(interaction, t(lang, "ok.left", id=table.id))
    elif verb == "addai":
        level = games.plugin(table.row.game).default_ai_level
        seat = await service.add_ai(table, user.id, level)
        await reply(interaction, t(lang, "ok.ai_added", name=seat_name(seat, lang)))
    elif verb == "start":
        await service.start(table, user.id)
