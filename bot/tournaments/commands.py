"""The Discord side of tournaments: ``/<game> tournament …``, the tournament message and its
sign-up buttons (docs/tournaments.md). The rules are in :mod:`tamalou.core.tournament`, the
life of a tournament in :mod:`bot.tournaments.runner`; here only words and clicks."""

from __future__ import annotations

import io
import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.utils import escape_markdown
from pydantic import ValidationError

from bot import games
from bot.i18n import lang_of, ls, t
from bot.tables import TableError
from bot.tournaments.runner import TournamentError, TournamentRunner
from bot.tournaments.store import Tournament, TourTable
from bot.ui.errors import answer_error
from bot.ui.kit import bot_of, reply
from bot.ui.moved import moved
from tamalou.core.tournament import Format, Standing

if TYPE_CHECKING:
    from bot.app import GameBot

log = logging.getLogger(__name__)

BUTTON_VERBS = ("join", "leave", "start", "cancel")
LINES = 30  # standings lines on the message (the CSV export has them all)


def scoring_of(game: str) -> str:
    """How a duplicate table-round of ``game`` is scored (its plugin says)."""
    return games.plugin(game).duplicate_scoring


def table_settings(
    game: str, players: int, length: int | None, turn_seconds: int | None
) -> dict[str, Any]:
    """A tournament table's settings in its game's own words (its plugin's)."""
    return games.plugin(game).tournament_settings(players, length, turn_seconds)


def manager(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms is not None and perms.manage_guild)


# -- the tournament message -----------------------------------------------------------------


def _format_line(found: Tournament, lang: str) -> str:
    fmt = found.format
    return t(
        lang,
        "tournament.format",
        players=fmt.players,
        rounds=fmt.rounds,
        duplicate=t(
            lang, "tournament.duplicate_on" if fmt.duplicate else "tournament.duplicate_off"
        ),
        level=t(lang, f"level.{found.settings.get('ai_level', 'medium')}"),
    )


def _seat_names(tt: TourTable, names: dict[int, str], lang: str) -> str:
    return ", ".join(
        t(lang, "tournament.ai_seat") if u is None else escape_markdown(names.get(u, str(u)))
        for u in tt.seats
    )


#: Discord's longest embed field value
FIELD = 1024


def field_value(lines: list[str], lang: str, most: int = LINES, limit: int = FIELD) -> str:
    """``lines`` as one embed field, cut at a line (never in a name) to fit Discord's
    ``limit`` and at ``most`` lines; what is left out is counted on a last line ("… and 9
    more"). An edit over the limit is refused, and the message froze (a sign-up list of
    21-28 long, markdown-heavy names: each escape is one more character)."""
    shown = 0
    for count in range(min(len(lines), most), -1, -1):
        left = len(lines) - count
        kept = lines[:count] + ([t(lang, "tournament.more", n=left)] if left else [])
        if len("\n".join(kept)) <= limit:
            shown = count
            break
    left = len(lines) - shown
    kept = lines[:shown] + ([t(lang, "tournament.more", n=left)] if left else [])
    return "\n".join(kept)[:limit]


def tournament_message(
    found: Tournament,
    ranking: list[Standing],
    tables: list[TourTable],
    lang: str,
    threads: dict[int, int] | None = None,
) -> tuple[discord.Embed, discord.ui.View]:
    """``threads``: the thread each table plays in, by table id (a link on its line)."""
    threads = threads or {}
    game = games.display_name(found.game, lang)
    embed = discord.Embed(
        title=t(lang, "tournament.title", name=escape_markdown(found.name), game=game),
        description=_format_line(found, lang),
        colour=discord.Colour.gold() if found.status != "cancelled" else discord.Colour.dark_grey(),
    )
    names = {e.user_id: e.name for e in found.entrants}
    if found.status == "signup":
        lines = [f"{e.entry_no}. {escape_markdown(e.name)}" for e in found.entrants]
        embed.add_field(
            name=t(lang, "tournament.entrants", count=len(found.entrants)),
            value=field_value(lines, lang) or t(lang, "tournament.nobody"),
            inline=False,
        )
    else:
        played = max((tt.round_no for tt in tables), default=0)
        if ranking and any(s.rounds for s in ranking):
            lines = [
                t(
                    lang,
                    "tournament.line",
                    rank=s.rank,
                    name=escape_markdown(s.name),
                    score=f"{s.score:+g}",
                    buchholz=f"{s.buchholz:g}",
                )
                + (t(lang, "tournament.withdrawn") if s.withdrawn else "")
                for s in ranking
            ]
            key = "tournament.final" if found.status == "finished" else "tournament.standings"
            embed.add_field(name=t(lang, key), value=field_value(lines, lang), inline=False)
        current = [tt for tt in tables if tt.round_no == played]
        if current and found.status == "playing":
            lines = [
                t(
                    lang,
                    "tournament.table",
                    no=tt.table_no,
                    seats=_seat_names(tt, names, lang),
                    state=t(lang, f"tournament.table_{tt.status}"),
                )
                + (f" · <#{threads[tt.table_id]}>" if tt.table_id in threads else "")
                for tt in current
            ]
            embed.add_field(
                name=t(lang, "tournament.round", round=played, rounds=found.format.rounds),
                value=field_value(lines, lang),
                inline=False,
            )
    embed.set_footer(text=t(lang, f"tournament.status_{found.status}", id=found.id))
    view = discord.ui.View(timeout=None)
    if found.status == "signup":
        styles = {"join": discord.ButtonStyle.success, "start": discord.ButtonStyle.primary}
        for verb in BUTTON_VERBS:
            view.add_item(
                discord.ui.Button(
                    label=t(lang, f"tournament.button.{verb}"),
                    style=styles.get(verb, discord.ButtonStyle.secondary),
                    custom_id=button_id(found.id, verb),
                )
            )
    elif found.status == "playing":
        view.add_item(
            discord.ui.Button(
                label=t(lang, "tournament.button.cancel"),
                style=discord.ButtonStyle.secondary,
                custom_id=button_id(found.id, "cancel"),
            )
        )
    return embed, view


def button_id(tournament_id: int, verb: str) -> str:
    # not <game>:<verb>:<table>: a table's buttons are routed by on_interaction (bot.ui.routing)
    return f"tourney:{tournament_id}:{verb}"


class Tournaments:
    """What the bot holds: the runner, and how a tournament is shown."""

    def __init__(self, bot: GameBot, runner: TournamentRunner) -> None:
        self.bot = bot
        self.runner = runner
        self.store = runner.store

    async def show(self, found: Tournament) -> None:
        """Post the tournament message, or edit it in place."""
        lang = await self.bot.guild_language(found.guild_id)
        ranking = await self.runner.standing(found)
        tables = await self.store.tables(found.id)
        threads = {  # each table's thread (a closed table's too: its line keeps the link)
            int(r["id"]): int(r["thread_id"])
            for r in await self.bot.storage.fetch(
                "SELECT id, thread_id FROM tables WHERE tournament_id = ? "
                "AND thread_id IS NOT NULL",
                found.id,
            )
        }
        embed, view = tournament_message(found, ranking, tables, lang, threads)
        channel = self.bot.get_partial_messageable(found.channel_id, guild_id=found.guild_id)
        try:
            if found.message_id is None:
                message = await channel.send(embed=embed, view=view)
                await self.store.set_message(found.id, message.id)
            else:
                await channel.get_partial_message(found.message_id).edit(embed=embed, view=view)
        except discord.HTTPException:
            log.warning("tournament %s: its message could not be shown", found.id, exc_info=True)

    async def in_channel(
        self, interaction: discord.Interaction, game: str, live: bool
    ) -> Tournament:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise TableError("guild_only")
        found = await self.store.in_channel(interaction.channel_id, game, live)
        if found is None:
            raise TournamentError("no_tournament")
        return found


def hub(interaction: discord.Interaction) -> Tournaments:
    return bot_of(interaction).tournaments


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"tourney:(?P<id>[0-9]{{1,18}}):(?P<verb>{'|'.join(BUTTON_VERBS)})",
):
    """Join, Leave, Start, Cancel on the tournament message: ``tourney:<id>:<verb>``."""

    def __init__(self, tournament_id: int, verb: str) -> None:
        self.tournament_id, self.verb = tournament_id, verb
        super().__init__(discord.ui.Button(custom_id=button_id(tournament_id, verb)))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TournamentButton:
        return cls(int(match["id"]), match["verb"])

    async def callback(self, interaction: discord.Interaction) -> None:
        lang = lang_of(interaction.locale)
        try:
            runner = hub(interaction).runner
            found = await runner.store.get(self.tournament_id)
            if found is None or found.guild_id != interaction.guild_id:
                raise TableError("bad_button")
            user = interaction.user
            if self.verb == "join":
                await runner.sign_up(found.id, user.id, user.display_name, show=False)
            elif self.verb == "leave":
                await runner.leave(found.id, user.id, show=False)
            elif self.verb == "start":
                await interaction.response.defer(ephemeral=True, thinking=True)
                await runner.start(found.id, user.id, manager(interaction))
            else:
                await runner.cancel(found.id, user.id, manager(interaction))
            await reply(interaction, t(lang, f"tournament.ok.{self.verb}", name=found.name))
        except Exception as exc:  # the one funnel: always an answer
            await answer_error(interaction, exc, f"tournament button {self.verb}")
            return
        if self.verb in ("join", "leave"):
            # drawn once the click is answered: the channel's edits (5 in 5 s a channel)
            # may wait on a busy sign-up, and the click must be answered within 3 s
            await runner.changed(found.id)


# -- the commands -----------------------------------------------------------------------------


def tournament_group(game: str) -> app_commands.Group:
    """``/<game> tournament start|cancel|replace`` (the host's); ``create`` and ``export``
    moved to ``/cardsadmin tournament`` and only say so."""
    group = app_commands.Group(
        name=ls("tournament", "cmd.tournament"),
        description=ls("Server tournaments (Swiss rounds, duplicate deals)", "cmd.tournament.desc"),
        guild_only=True,
    )

    @group.command(
        name=ls("create", "cmd.tournament.create"),
        description=ls("Moved to the admin command", "cmd.moved.desc"),
    )
    async def create(interaction: discord.Interaction) -> None:
        await moved(interaction, "tournament", "create")

    @group.command(
        name=ls("start", "cmd.tournament.start"),
        description=ls("Seat the first round (the host)", "cmd.tournament.start.desc"),
    )
    async def start(interaction: discord.Interaction) -> None:
        tournaments = hub(interaction)
        found = await tournaments.in_channel(interaction, game, live=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await tournaments.runner.start(found.id, interaction.user.id, manager(interaction))
        await reply(
            interaction, t(lang_of(interaction.locale), "tournament.ok.start", name=found.name)
        )

    @group.command(
        name=ls("cancel", "cmd.tournament.cancel"),
        description=ls(
            "Cancel the tournament and close its tables (the host)", "cmd.tournament.cancel.desc"
        ),
    )
    async def cancel(interaction: discord.Interaction) -> None:
        tournaments = hub(interaction)
        found = await tournaments.in_channel(interaction, game, live=True)
        await tournaments.runner.cancel(found.id, interaction.user.id, manager(interaction))
        await reply(
            interaction, t(lang_of(interaction.locale), "tournament.ok.cancel", name=found.name)
        )

    @group.command(
        name=ls("replace", "cmd.tournament.replace"),
        description=ls(
            "An AI seat for a member who left (the host)", "cmd.tournament.replace.desc"
        ),
    )
    @app_commands.describe(member=ls("The member who left", "opt.tournament_member"))
    @app_commands.rename(member=ls("member", "optname.member"))
    async def replace(interaction: discord.Interaction, member: discord.Member) -> None:
        tournaments = hub(interaction)
        found = await tournaments.in_channel(interaction, game, live=True)
        await tournaments.runner.replace_by_ai(
            found.id, interaction.user.id, member.id, manager(interaction)
        )
        await reply(
            interaction,
            t(
                lang_of(interaction.locale),
                "tournament.ok.replace",
                name=escape_markdown(member.display_name),
            ),
        )

    @group.command(
        name=ls("export", "cmd.tournament.export"),
        description=ls("Moved to the admin command", "cmd.moved.desc"),
    )
    async def export(interaction: discord.Interaction) -> None:
        await moved(interaction, "tournament", "export")

    return group


async def stats_lines(bot: GameBot, guild_id: int, user_id: int, game: str, lang: str) -> str:
    """A member's finished tournaments for the season card (``/<game> stats``)."""
    hub_ = getattr(bot, "tournaments", None)
    if hub_ is None:
        return ""
    rows = await hub_.store.member_results(guild_id, user_id, game)
    return "\n".join(
        t(
            lang,
            "tournament.stats_line",
            name=escape_markdown(n),
            rank=r,
            entrants=c,
            score=f"{s:+g}",
        )
        for n, r, c, s in rows[:5]
    )


async def create_tournament(
    interaction: discord.Interaction,
    game: str,
    name: str,
    players: int = 4,
    rounds: int = 3,
    length: int | None = None,
    duplicate: bool = True,
    turn_seconds: int | None = None,
    ai_level: str | None = None,
) -> None:
    """``/cardsadmin tournament create``: a tournament's sign-up opened in this channel."""
    bot = bot_of(interaction)
    tournaments = bot.tournaments
    if interaction.guild_id is None or interaction.channel_id is None:
        raise TableError("guild_only")
    if await tournaments.store.in_channel(interaction.channel_id, game, live=True):
        raise TournamentError("tournament_exists")
    # the server's defaults for the game (/cardsadmin <game>: turn time, Kalooki's call
    # window), as /<game> new reads them; the tournament's own turn_seconds wins
    stored = await bot.storage.guild_settings(interaction.guild_id)
    server = games.plugin(game).server_defaults(stored)
    table = {**server, **table_settings(game, players, length, turn_seconds)}
    try:
        rules = games.rules_for(game, table)
    except (ValidationError, KeyError, ValueError, TableError) as exc:
        raise TournamentError("bad_format") from exc
    low, high = getattr(rules, "min_players", 2), getattr(rules, "max_players", 8)
    if not low <= players <= high:
        raise TournamentError("bad_players", min=low, max=high)
    fmt = Format(
        players=players,
        rounds=rounds,
        duplicate=duplicate,
        duplicate_scoring="difference" if scoring_of(game) == "difference" else "rank",
    )
    level = ai_level or games.plugin(game).default_ai_level
    found = await tournaments.store.create(
        interaction.guild_id,
        interaction.channel_id,
        game,
        name.strip() or name,
        interaction.user.id,
        fmt,
        {"ai_level": level, "table": table},
        str(bot.config.seeds()),
    )
    await reply(
        interaction, t(lang_of(interaction.locale), "tournament.ok.create", name=found.name)
    )
    await tournaments.show(found)


async def export_tournament(interaction: discord.Interaction, game: str) -> None:
    """``/cardsadmin tournament export``: the channel's last tournament of ``game`` as CSV."""
    tournaments = hub(interaction)
    found = await tournaments.in_channel(interaction, game, live=False)
    text = await tournaments.store.export_csv(found.id)
    file = discord.File(
        io.BytesIO(text.encode("utf-8")), filename=f"{game}-tournament-{found.id}.csv"
    )
    await interaction.response.send_message(
        t(lang_of(interaction.locale), "tournament.exported", name=escape_markdown(found.name)),
        file=file,
        ephemeral=True,
    )
