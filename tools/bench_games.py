"""The games of the bot benchmark (``tools/bench_bot.py --games``, docs/benchmarks.md).

For each game: how its live tables are prefilled through the real ``TableService`` (a few
turns or tricks played, the clock running), which message of a channel is the table's, and
which clicks the simulated players make. Every click is read off what the player can see:
the buttons and selects of the table message and of the panels the bot sent them (the
components the emulator holds), never from the bot's state.

The players follow real play (issue 21; ``REAL_PLAY``: the shares of panel clicks and of
"My cards" in whole matches of the end-to-end tests, ``tools/click_shares.py``): the member
whose open panel offers a move of their turn (the bot wakes it when the turn starts) makes
it, a draw from the table's button as the e2e players do, the rest on their panel; a member
with no live panel presses "My cards" (Kalooki: the member the table marks to play presses
Draw, which opens it); before a move, "My cards" at the game's measured rate.

- Tamalou: Draw on the table, then the panel's Replace n, throw, a power's steps; the peek;
  now and then an enabled "Double n" by anyone.
- Kalooki: Draw (now and then Take) on the table, then from the panel a discard picked in
  the select, now and then the suggested lay-down (Suggest, then Lay down) or a lay-off
  (its card first when over 25 are possible); Allow / Refuse a call; "Call" on a live
  discard by anyone (K-CL); "Next round" on a round's result.
- Tarot: from the panel a bid, the king called, the écart (the cards picked in the select,
  then the button), "No chelem", a card of the trick (button or select); "My hand" before
  a move half the time (the e2e deal's); "Next deal" on a deal's result.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass
from typing import Any, Protocol

from bot.games.tarot.verbs import PICK_PLAY, PICK_POIGNEE
from bot.i18n import catalog
from bot.tables import LiveTable, TableService
from emulator import Message, User
from tamalou.games.tamalou import actions as TA
from tamalou.games.tamalou.engine import legal_actions as tamalou_legal
from tamalou.games.tarot.rules import PRESETS as TAROT_PRESETS

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


#: real play's click shares, counted from one whole match, round or deal per game of the
#: end-to-end tests (``python -m tools.click_shares``, docs/benchmarks-archive.md "Sixth session:
#: CPU a click"): (panel clicks, "My cards") over the play clicks. The tarot test presses
#: "My hand" before every play; the benchmark's tarot players do the same.
REAL_PLAY: dict[str, tuple[float, float]] = {
    "tamalou": (0.40, 0.20),
    "kalooki": (0.52, 0.01),
    "tarot": (0.50, 0.50),
}

#: a table nobody can move on for this long (a new round: the old round's panels are not
#: woken; a move the clock made): one of its members presses "My cards". Kalooki's draws
#: wait for the 3 s call window (K-K2), so its tables are quiet longer between turns.
QUIET_S = {"tamalou": 3.0, "kalooki": 8.0, "tarot": 3.0}


def _select_ids(msg: Message) -> list[str]:
    return [s.custom_id for s in msg.selects() if not s.disabled and s.options]


def table_turn(msg: Message) -> int | None:
    """The seat a table message marks to play (``▶`` before its seat line), or None."""
    lines = (msg.embed or {}).get("description", "").splitlines()
    return next((i for i, line in enumerate(lines) if line.startswith("▶")), None)


class Players(Protocol):
    """What the simulated players of one game click."""

    def choose(
        self,
        table: TableInfo,
        msg: Message,
        panels: dict[int, Message | None],
        rng: random.Random,
    ) -> Click | None:
        """A click on the table message (``msg``) or on a member's panel, or None.
        ``panels``: each member with no click in flight -> their live open panel (None:
        none, or the one they have answered a refusal)."""
        ...

    def follows(self, kind: str) -> bool:
        """Whether a click of that kind may lead to a click on what the bot answered."""
        ...

    def after(
        self, table: TableInfo, click: Click, answers: list[Message], rng: random.Random
    ) -> Click | None:
        """The click a player makes on the bot's answer (their panel), or None."""
        ...


class TurnPlayers:
    """Players as in real play (issue 21): the member whose open panel offers a move (the
    bot wakes it when their turn starts) makes it, from their panel or, for a draw, from the
    table's button as the e2e players do; "My cards" when a member has no live panel, and
    before a move at the game's measured rate (``look``); now and then a race by anyone (a
    double, a call). One click at a time a member: the runner leaves out members with a
    click in flight."""

    game = ""
    #: the verbs of a panel that are a move of the member's own turn (or the peek)
    turn_verbs: frozenset[str] = frozenset()
    #: the verbs a table message's draw has (pressed there when the panel offers them)
    draw_verbs: tuple[str, ...] = ("draw",)
    #: the chance that a race click (``race``) is tried before the member to move
    race_rate = 0.0
    #: whether a member with no live panel presses "My cards"; else (Kalooki) the member
    #: the table message marks to play presses its Draw, which opens their panel
    blind_looks = True

    def __init__(self) -> None:
        self.look = REAL_PLAY[self.game][1] if self.game else 0.0
        self.last: dict[int, str] = {}  # member -> the kind of their last click
        self.quiet: dict[int, float] = {}  # table -> since when nobody could move

    def offers(self, panel: Message) -> bool:
        """Whether the panel offers a move of its member's turn."""
        ids = [*enabled(panel).items()]
        if any(v in self.turn_verbs for v, _ in ids):
            return True
        return any(_verb(c) in self.turn_verbs for c in _select_ids(panel))

    def choose(
        self,
        table: TableInfo,
        msg: Message,
        panels: dict[int, Message | None],
        rng: random.Random,
    ) -> Click | None:
        click = self._choose(table, msg, panels, rng)
        if click is not None:
            self.last[click.user.id] = click.kind
        return click

    def _choose(
        self,
        table: TableInfo,
        msg: Message,
        panels: dict[int, Message | None],
        rng: random.Random,
    ) -> Click | None:
        free = [u for u in table.users if u.id in panels]
        if not free:
            return None
        bs = enabled(msg)
        if "next" in bs:  # a round's or deal's result: the next one
            return Click(rng.choice(free), msg, bs["next"][0], "next")
        actors = [u for u in free if (p := panels[u.id]) is not None and self.offers(p)]
        if actors and rng.random() < self.race_rate:  # while a turn is on: a race by anyone
            raced = self.race(free, msg, rng)
            if raced is not None:
                return raced
        if actors:
            self.quiet.pop(table.id, None)
            user = rng.choice(actors)
            if "hand" in bs and rng.random() < self.look:
                return Click(user, msg, bs["hand"][0], "my cards")
            panel = panels[user.id]
            assert panel is not None
            for verb in self.draw_verbs:  # the turn's draw: the table's button
                if verb in bs and verb in enabled(panel):
                    return Click(user, msg, bs[verb][0], verb)
            return self.move(user, panel, rng)
        blind = [u for u in free if panels[u.id] is None]
        now = time.monotonic()
        quiet = now - self.quiet.setdefault(table.id, now) > QUIET_S[self.game]
        if not self.blind_looks:
            # the member the table marks to play draws there: with no live panel, or when
            # theirs has offered nothing for a while (a panel of the last round, a wake
            # still to come), as a player reads their turn off the table
            turn = table_turn(msg)
            mover = table.users[turn] if turn is not None and turn < len(table.users) else None
            if (
                mover is not None
                and mover.id in panels
                and "draw" in bs
                and (mover in blind or quiet)
            ):
                self.quiet.pop(table.id, None)
                return Click(mover, msg, bs["draw"][0], "draw")
            blind = []
        if "hand" in bs and (blind or quiet):
            self.quiet.pop(table.id, None)
            return Click(rng.choice(blind or free), msg, bs["hand"][0], "my cards")
        return None

    def race(self, free: list[User], msg: Message, rng: random.Random) -> Click | None:
        """A click anyone may make on the table message (a double, a call), or None."""
        return None

    def move(self, user: User, panel: Message, rng: random.Random) -> Click | None:
        """The member's move on their panel, which offers one."""
        bs = {v: ids for v, ids in enabled(panel).items() if v in self.turn_verbs}
        if bs:
            verb = rng.choice(sorted(bs))
            return Click(user, panel, rng.choice(bs[verb]), f"{verb} (panel)")
        for sel in panel.selects():
            if not sel.disabled and sel.options and _verb(sel.custom_id) in self.turn_verbs:
                value = str(rng.choice(sel.options)["value"])
                return Click(user, panel, sel.custom_id, "pick (panel)", [value])
        return None

    def follows(self, kind: str) -> bool:
        return False  # the next move is read off the panels, woken or answered

    def after(
        self, table: TableInfo, click: Click, answers: list[Message], rng: random.Random
    ) -> Click | None:
        return None


class TamalouPlayers(TurnPlayers):
    """Draw from the table (the panel woken for the turn offers it too), then a move of the
    panel: Replace n, throw, a power's steps; the peek at a round's start; now and then a
    double by anyone."""

    game = "tamalou"
    turn_verbs = frozenset(
        [
            "draw",
            "take",
            "rep",
            "repg",
            "throw",
            "replay",
            "pass",
            "peek",
            "look",
            "qmine",
            "qswap",
            "act",
            "more",
            "pick",
            "step",
            "stepg",
        ]
    )
    race_rate = 0.03

    def race(self, free: list[User], msg: Message, rng: random.Random) -> Click | None:
        doubles = [
            b.custom_id
            for b in msg.buttons()
            if b.custom_id and b.custom_id.startswith("tamalou:dbl:") and not b.disabled
        ]
        if doubles:
            return Click(rng.choice(free), msg, rng.choice(doubles), "double")
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


class KalookiPlayers(TurnPlayers):
    """Draw (now and then Take) from the table, then from the panel: the suggested
    lay-down now and then (Suggest, then Lay down), a lay-off (its card first when over 25
    are possible), a discard picked in the select; a call by anyone on a live discard (the
    others race for it, K-CL); "Next round" on a round's result."""

    game = "kalooki"
    turn_verbs = frozenset(
        [
            "draw",
            "take",
            "end",
            "build",
            "sugg",
            "meld",
            "lay",
            "set",
            "run",
            "clear",
            "back",
            "pick",
        ]
    )
    draw_verbs = ("take", "draw")
    race_rate = 0.05
    blind_looks = False  # 2 "My hand" in the e2e match's 188 clicks: Draw opens the panel

    def _choose(
        self,
        table: TableInfo,
        msg: Message,
        panels: dict[int, Message | None],
        rng: random.Random,
    ) -> Click | None:
        # Take is the table's too, but a draw mostly (81 draws, 2 takes in the e2e match)
        self.draw_verbs = ("take", "draw") if rng.random() < 0.03 else ("draw",)
        return super()._choose(table, msg, panels, rng)

    def race(self, free: list[User], msg: Message, rng: random.Random) -> Click | None:
        bs = enabled(msg)
        if "call" in bs:
            return Click(rng.choice(free), msg, bs["call"][0], "call")
        return None

    def move(self, user: User, panel: Message, rng: random.Random) -> Click | None:
        bs = enabled(panel)
        last = self.last.get(user.id, "")
        if "draw" in bs:  # a call pending: Allow (Draw) or Refuse (Take) on the panel
            if "take" in bs and rng.random() < 0.3:
                return Click(user, panel, bs["take"][0], "take (panel)")
            return Click(user, panel, bs["draw"][0], "draw (panel)")
        if "lay" in bs and last == "suggest":
            return Click(user, panel, bs["lay"][0], "lay down")
        if "sugg" in bs and last != "lay down" and rng.random() < 0.5:
            return Click(user, panel, bs["sugg"][0], "suggest")
        if "back" in bs:  # a draft the lay-down refused: back to the main panel
            return Click(user, panel, bs["back"][0], "back")
        if rng.random() < 0.3 and (
            lay := _select_pick(user, panel, "lay off", rng, "2")
            or _select_pick(user, panel, "lay-off card", rng, "5")  # over 25: card first
        ):
            return lay
        if found := _select_pick(user, panel, "discard", rng, "1"):
            return found
        if "end" in bs:
            return Click(user, panel, bs["end"][0], "end turn")
        return super().move(user, panel, rng)


class TarotPlayers(TurnPlayers):
    """From the panel: a bid in the auction, the king called, the écart (the cards picked
    in the select, then the button), "No chelem", a card of the trick (button or select);
    "My hand" on the table before a move half the time, as in the e2e deal; "Next deal" on
    a deal's result."""

    game = "tarot"
    turn_verbs = frozenset(["bid", "call", "chelem", "ecart", "play", "pick", "poig"])

    def __init__(self, players: int) -> None:
        super().__init__()
        self.dog = TAROT_PRESETS["tarot"].deal_for(players)[1]

    def move(self, user: User, panel: Message, rng: random.Random) -> Click | None:
        bs = enabled(panel)
        if "chelem" in bs:
            no = [c for c in bs["chelem"] if _arg(c)[-1:] == ["0"]]
            if no:
                return Click(user, panel, no[0], "no chelem")
        if "ecart" in bs:  # enabled: the cards are chosen
            return Click(user, panel, bs["ecart"][0], "ecart")
        ecart = [
            s
            for s in panel.selects()
            if len(_arg(s.custom_id)) >= 2 and int(_arg(s.custom_id)[1]) < PICK_PLAY
        ]
        if ecart and self.last.get(user.id) != "ecart cards":  # refused: the clock plays it
            pick = _select_pick(
                user, panel, "ecart cards", rng, _arg(ecart[0].custom_id)[1], self.dog
            )
            if pick is not None:
                return pick
        if "call" in bs:
            return Click(user, panel, rng.choice(bs["call"]), "call king")
        if "bid" in bs:
            bids = bs["bid"]
            passes = [c for c in bids if _arg(c)[-1:] == ["0"]]
            pick = passes[0] if passes and rng.random() < 0.6 else rng.choice(bids)
            return Click(user, panel, pick, "bid")
        plays = bs.get("play", [])
        selects = [
            s
            for s in panel.selects()
            if not s.disabled and len(_arg(s.custom_id)) == 2
            if PICK_PLAY <= int(_arg(s.custom_id)[1]) < PICK_POIGNEE
        ]
        if plays or selects:
            options = len(plays) + sum(len(s.options) for s in selects)
            n = rng.randrange(options)
            if n < len(plays):
                return Click(user, panel, plays[n], "play")
            n -= len(plays)
            for s in selects:
                if n < len(s.options):
                    return Click(user, panel, s.custom_id, "play", [str(s.options[n]["value"])])
                n -= len(s.options)
        return None


def players_for(game_id: str, players: int) -> Players:
    if game_id == "kalooki":
        return KalookiPlayers()
    if game_id == "tarot":
        return TarotPlayers(players)
    return TamalouPlayers()
