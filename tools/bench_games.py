"""The games of the bot benchmark (``tools/bench_bot.py --games``, docs/benchmarks.md).

For each game: how its live tables are prefilled through the real ``TableService`` (a few
turns or tricks played, the clock running), which message of a channel is the table's, and
which clicks the simulated players make. Every click is read off what the player can see:
the buttons and selects of the table message and of the panels the bot sent them (the
components the emulator holds), never from the bot's state.

- Tamalou: "My cards", "Draw" by anyone (most refused: not your turn), an enabled
  "Double n"; a drawer then presses "Replace n" on their panel.
- Kalooki: "My hand", Draw and Take the discard by anyone (refused out of turn), "Call" on a
  live discard (the other players race for it, K-CL); from the panel: Draw (or Allow /
  Refuse a call), then a discard picked in the panel's select; now and then the suggested
  lay-down (Suggest, then Lay down) or a lay-off (its card first when over 25 are
  possible); "Next round" on a round's result.
- Tarot: "My hand" by anyone; from the panel: a bid in the auction, the écart (the cards
  picked in the select, then the button), "No chelem", a card of the trick (button or
  select); now and then a click on an older panel of the table (out of turn: refused, or
  the card the engine no longer accepts); "Next deal" on a deal's result.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.games.tarot.render import PICK_PLAY, PICK_POIGNEE
from bot.i18n import catalog
from bot.tables import LiveTable, TableService
from tamalou.games.tamalou import actions as TA
from tamalou.games.tamalou.engine import legal_actions as tamalou_legal
from tamalou.games.tarot.rules import PRESETS as TAROT_PRESETS
from tests.emulator import Message, User

GAMES = ("tamalou", "kalooki", "tarot")

#: a public message is a table's message when one of its custom ids holds one of these
TABLE_MARKERS: dict[str, tuple[str, ...]] = {
    "tamalou": ("tamalou:draw:",),
    "kalooki": ("kalooki:hand:", "kalooki:next:"),
    "tarot": ("tarot:hand:", "tarot:next:"),
}

#: the settings each game's tables are opened with (the clocks as players would set them)
SETTINGS: dict[str, dict[str, Any]] = {
    "tamalou": {"target": 100, "turn_seconds": 45, "max_players": 5},
    "kalooki": {"preset": "kalooki", "turn_seconds": 45, "max_players": 8},
    "tarot": {"preset": "tarot", "rounds": 5},  # 5 x players deals: the match goes on
}

#: simulated ms between two moves of the prefill (Kalooki: past the 3 s call window)
STEP_MS = {"tamalou": 1000, "kalooki": 4000, "tarot": 1000}


@dataclass
class TableInfo:
    id: int
    channel_id: int
    users: list[User]
    message: Message | None = None
    game: str = "tamalou"
    #: the last panel each player was sent (tarot: an older panel clicked out of turn)
    panels: dict[int, Message] = field(default_factory=dict)


@dataclass(slots=True)
class Click:
    user: User
    message: Message
    custom_id: str
    kind: str
    values: list[str] | None = None  # a select's values; None: a button
    chained: bool = False  # a click on the bot's answer to the player's previous click


# -- prefill -------------------------------------------------------------------------------


async def prefill_table(
    service: TableService,
    table: LiveTable,
    game_id: str,
    users: list[User],
    turns: int,
    rng: random.Random,
    clock: dict[str, int],
) -> None:
    """Start ``table`` and play ``turns`` moves (turns or cards) by its human seats."""
    if game_id == "tamalou":
        await _prefill_tamalou(service, table, users, turns, rng, clock)
        return
    await service.start(table, users[0].id)
    module = table.module
    step = STEP_MS[game_id]
    for _ in range(turns):
        game = table.game
        if game is None or game.over:
            break
        clock["now"] += step
        choice = _prefill_move(game_id, module, game, len(users), clock["now"], rng)
        if choice is None:
            break
        seat, action = choice
        await service.act(table, action, users[seat].id)


def _prefill_move(
    game_id: str, module: Any, game: Any, seats: int, at: int, rng: random.Random
) -> tuple[int, Any] | None:
    """The current player's move: Kalooki draws, lays down half the time it can, else
    discards; tarot bids, discards to the écart, plays (never a chelem)."""
    for seat in range(seats):
        legal = [
            a
            for a in module.legal_actions(game, seat, at)
            if a.kind not in ("tick", "call", "next_round", "next_deal", "chelem", "poignee")
        ]
        if game_id == "tarot":
            legal += [
                a
                for a in module.legal_actions(game, seat, at)
                if a.kind == "chelem" and not a.announce
            ]
        if not legal:
            continue
        draws = [a for a in legal if a.kind == "draw"]
        if draws:
            return seat, draws[0]
        lays = [a for a in legal if a.kind == "lay_down"]
        if lays and rng.random() < 0.5:
            return seat, lays[0]
        return seat, rng.choice(legal)
    return None


async def _prefill_tamalou(
    service: TableService,
    table: LiveTable,
    users: list[User],
    turns: int,
    rng: random.Random,
    clock: dict[str, int],
) -> None:
    """Every seat peeks, then ``turns`` turns: draw, then a random legal move (no call)."""
    await service.start(table, users[0].id)
    for seat, user in enumerate(users):
        await service.act(table, TA.Peek(seat, clock["now"]), user.id)
    clock["now"] += 6000
    await service.tick(table)  # the peek phase ends
    for _ in range(turns):
        game = table.game
        if game is None or game.over or game.round.phase != "play":
            break
        clock["now"] += 1000
        seat = game.round.current
        legal = [a for a in tamalou_legal(game, seat, clock["now"]) if a.kind != "call"]
        if not legal:
            break
        draws = [a for a in legal if a.kind == "draw"]
        action = draws[0] if draws else rng.choice(legal)
        await service.act(table, action, users[seat].id)


def history_start(game_id: str, turns: int) -> int:
    """When a table's history starts (ms): it runs up to about now, so its turn clock is
    still running when the bot starts."""
    real_now = int(time.time() * 1000)
    if game_id == "tamalou":  # as before issue 16: the figures stay comparable
        return real_now - (10 + 2 * turns) * 1000
    return real_now - (10_000 + STEP_MS[game_id] * turns)


# -- clicks ----------------------------------------------------------------------------------


def refusal_patterns(lang: str = "en") -> re.Pattern[str]:
    """Every refusal the error funnel may answer (``err.*``, ``illegal.*``, a game's
    ``<game>.illegal.*``), as one pattern; the emulator's members speak English."""
    texts = [
        text
        for key, text in catalog(lang).items()
        if key.startswith(("err.", "illegal.")) or ".illegal." in key or ".err." in key
    ]
    parts = [".*?".join(re.escape(p) for p in re.split(r"\{[^}]*\}", text)) for text in texts]
    return re.compile("|".join(f"(?:{p})" for p in sorted(parts, key=len, reverse=True)))


def refused(answers: list[Message], pattern: re.Pattern[str]) -> bool:
    """Whether the bot answered the click with a refusal."""
    return any(not m.components and pattern.fullmatch(m.content.strip()) for m in answers)


def _verb(custom_id: str | None) -> str:
    parts = (custom_id or "").split(":")
    return parts[1] if len(parts) > 1 else ""


def _arg(custom_id: str | None) -> list[str]:
    parts = (custom_id or "").split(":")
    return parts[3].split(".") if len(parts) > 3 else []


def enabled(msg: Message) -> dict[str, list[str]]:
    """The enabled buttons of a message: verb -> custom ids."""
    out: dict[str, list[str]] = {}
    for b in msg.buttons():
        if b.custom_id and not b.disabled:
            out.setdefault(_verb(b.custom_id), []).append(b.custom_id)
    return out


class Players(Protocol):
    """What the simulated players of one game click."""

    def choose(self, table: TableInfo, msg: Message, rng: random.Random) -> Click | None:
        """A click on the table message (``msg``), or None."""
        ...

    def follows(self, kind: str) -> bool:
        """Whether a click of that kind may lead to a click on what the bot answered."""
        ...

    def after(
        self, table: TableInfo, click: Click, answers: list[Message], rng: random.Random
    ) -> Click | None:
        """The click a player makes on the bot's answer (their panel), or None."""
        ...


class TamalouPlayers:
    def choose(self, table: TableInfo, msg: Message, rng: random.Random) -> Click | None:
        buttons = {
            b.custom_id.split(":")[1]: b for b in msg.buttons() if b.custom_id and not b.disabled
        }
        doubles = [
            b
            for b in msg.buttons()
            if b.custom_id and b.custom_id.startswith("tamalou:dbl:") and not b.disabled
        ]
        roll = rng.random()
        user = rng.choice(table.users)
        if roll < 0.25 and "draw" in buttons:
            return Click(user, msg, buttons["draw"].custom_id or "", "draw")
        if roll < 0.40 and doubles:
            return Click(user, msg, rng.choice(doubles).custom_id or "", "double")
        if "hand" in buttons:
            return Click(user, msg, buttons["hand"].custom_id or "", "my cards")
        return None

    def follows(self, kind: str) -> bool:
        return kind in ("draw", "my cards")

    def after(
        self, table: TableInfo, click: Click, answers: list[Message], rng: random.Random
    ) -> Click | None:
        """A drawer presses "Replace n" on the panel the bot sent them."""
        for msg in answers:
            reps = [
                b.custom_id
                for b in msg.buttons()
                if b.custom_id and b.custom_id.startswith("tamalou:rep:")
            ]
            if reps:
                return Click(click.user, msg, rng.choice(reps), "replace")
        return None


def _select_pick(
    user: User, msg: Message, kind: str, rng: random.Random, pick: str, count: int = 1
) -> Click | None:
    """``count`` random options of the select whose argument's second number is ``pick``."""
    for sel in msg.selects():
        arg = _arg(sel.custom_id)
        if not sel.disabled and arg[1:2] == [pick] and len(sel.options) >= count:
            values = rng.sample([str(o["value"]) for o in sel.options], count)
            return Click(user, msg, sel.custom_id, kind, values)
    return None


class KalookiPlayers:
    def choose(self, table: TableInfo, msg: Message, rng: random.Random) -> Click | None:
        bs = enabled(msg)
        roll = rng.random()
        user = rng.choice(table.users)
        if "next" in bs:  # a round's result: the next round (K-K3 starts it too, later)
            return Click(user, msg, bs["next"][0], "next")
        if roll < 0.25 and "draw" in bs:
            return Click(user, msg, bs["draw"][0], "draw")
        if roll < 0.35 and "take" in bs:
            return Click(user, msg, bs["take"][0], "take")
        if roll < 0.45 and "call" in bs:
            return Click(user, msg, bs["call"][0], "call")
        if "hand" in bs:
            return Click(user, msg, bs["hand"][0], "my cards")
        return None

    def follows(self, kind: str) -> bool:
        return kind not in ("next", "call")

    def after(
        self, table: TableInfo, click: Click, answers: list[Message], rng: random.Random
    ) -> Click | None:
        """What a player does with their panel: draw (allow or refuse a call), the
        suggested lay-down, a lay-off, a discard; a call now and then."""
        for msg in answers:
            bs = enabled(msg)
            user = click.user
            if "draw" in bs:
                if "take" in bs and rng.random() < 0.3:
                    return Click(user, msg, bs["take"][0], "take (panel)")
                return Click(user, msg, bs["draw"][0], "draw (panel)")
            if "lay" in bs and click.kind == "suggest":
                return Click(user, msg, bs["lay"][0], "lay down")
            if "sugg" in bs and rng.random() < 0.5:
                return Click(user, msg, bs["sugg"][0], "suggest")
            if "back" in bs:  # a draft the lay-down refused: back to the main panel
                return Click(user, msg, bs["back"][0], "back")
            if rng.random() < 0.3 and (
                lay := _select_pick(user, msg, "lay off", rng, "2")
                or _select_pick(user, msg, "lay-off card", rng, "5")  # over 25: card first
            ):
                return lay
            if found := _select_pick(user, msg, "discard", rng, "1"):
                return found
            if "end" in bs:
                return Click(user, msg, bs["end"][0], "end turn")
            if "call" in bs and rng.random() < 0.5:
                return Click(user, msg, bs["call"][0], "call (panel)")
        return None


class TarotPlayers:
    def __init__(self, players: int) -> None:
        self.dog = TAROT_PRESETS["tarot"].deal_for(players)[1]

    def choose(self, table: TableInfo, msg: Message, rng: random.Random) -> Click | None:
        bs = enabled(msg)
        roll = rng.random()
        user = rng.choice(table.users)
        if "next" in bs:  # a deal's result: the next deal
            return Click(user, msg, bs["next"][0], "next")
        if roll < 0.15 and table.panels:
            # an older panel of the table, clicked now: mostly out of turn (refused)
            owner = rng.choice(list(table.panels))
            old = table.panels[owner]
            who = next(u for u in table.users if u.id == owner)
            found = self._move(who, old, rng, "old panel")
            if found is not None:
                return found
        if "hand" in bs:
            return Click(user, msg, bs["hand"][0], "my cards")
        return None

    def follows(self, kind: str) -> bool:
        return kind != "next"

    def _move(self, user: User, msg: Message, rng: random.Random, kind: str) -> Click | None:
        bs = enabled(msg)
        if "bid" in bs:
            bids = bs["bid"]
            passes = [c for c in bids if _arg(c)[-1:] == ["0"]]
            pick = passes[0] if passes and rng.random() < 0.6 else rng.choice(bids)
            return Click(user, msg, pick, kind if kind == "old panel" else "bid")
        plays = bs.get("play", [])
        selects = [
            s
            for s in msg.selects()
            if not s.disabled and len(_arg(s.custom_id)) == 2
            if PICK_PLAY <= int(_arg(s.custom_id)[1]) < PICK_POIGNEE
        ]
        if plays or selects:
            options = len(plays) + sum(len(s.options) for s in selects)
            n = rng.randrange(options)
            name = kind if kind == "old panel" else "play"
            if n < len(plays):
                return Click(user, msg, plays[n], name)
            n -= len(plays)
            for s in selects:
                if n < len(s.options):
                    return Click(user, msg, s.custom_id, name, [str(s.options[n]["value"])])
                n -= len(s.options)
        return None

    def after(
        self, table: TableInfo, click: Click, answers: list[Message], rng: random.Random
    ) -> Click | None:
        """What a player does with their panel: bid, call a king, the écart, no chelem,
        a card of the trick."""
        for msg in answers:
            if not msg.components:
                continue
            table.panels[click.user.id] = msg
            bs = enabled(msg)
            user = click.user
            if "chelem" in bs:
                no = [c for c in bs["chelem"] if _arg(c)[-1:] == ["0"]]
                if no:
                    return Click(user, msg, no[0], "no chelem")
            if "ecart" in bs:  # enabled: the cards are chosen
                return Click(user, msg, bs["ecart"][0], "ecart")
            ecart = [
                s
                for s in msg.selects()
                if len(_arg(s.custom_id)) >= 2 and int(_arg(s.custom_id)[1]) < PICK_PLAY
            ]
            if ecart:
                if click.kind == "ecart cards":  # the choice was refused: the clock plays it
                    return None
                return _select_pick(
                    user, msg, "ecart cards", rng, _arg(ecart[0].custom_id)[1], self.dog
                )
            if "call" in bs:
                return Click(user, msg, rng.choice(bs["call"]), "call king")
            return self._move(user, msg, rng, "play")
        return None


def players_for(game_id: str, players: int) -> Players:
    if game_id == "kalooki":
        return KalookiPlayers()
    if game_id == "tarot":
        return TarotPlayers(players)
    return TamalouPlayers()
