"""The game protocol: what every game module provides, like OpenSpiel's Game/State/Observer.

A game is a package under ``tamalou.games`` whose module object satisfies :class:`GameModule`
(``tamalou.games.load(game_id)`` returns it). The Discord table service, the benchmark and the
arena are written against this protocol only, never against one game.

Conventions every game keeps:
- a frozen pydantic ``Rules`` model and named ``PRESETS`` (rule variants are data);
- ``apply`` either changes the state and returns the events, or raises
  :class:`~tamalou.core.errors.IllegalAction` and leaves the state exactly as it was;
- time is an input (``at``, ms): a passed deadline is applied with ``tick(at)`` first;
- chance is seeded per event from the match seed (:mod:`tamalou.core.chance`);
- events carry their audience (:mod:`tamalou.core.events`); ``view`` is one seat's
  knowledge, ``public_view`` the table's;
- ``contested(state, action)`` says whether a click pressed earlier by anyone could still
  change what ``action`` does (see :meth:`GameModule.contested`): only such an action waits
  the table service's reorder window. :func:`always_contested` is the safe answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """A round's result as the platform stores it (same shape for every game)."""

    round_no: int
    reason: str
    caller: int | None  # the seat that ended the round, if one did (a Tamalou call, a taker)
    totals: tuple[float, ...]  # what each seat's play counted this round
    scores: tuple[float, ...]  # what each seat scored this round (match points)
    places: tuple[int, ...]  # 1 = best; ties share a place


class AIPlayer(Protocol):
    """An AI seat: it learns only from its own stream and views."""

    level: str

    def observe(self, events: Sequence[Any]) -> None: ...

    def act(self, seen: Any, legal: Sequence[Any], at: int) -> Any | None:
        """The action it takes now (out of turn included), or ``None`` to wait."""
        ...


class GameModule(Protocol):
    """What ``tamalou.games.load(game_id)`` returns."""

    GAME_ID: str
    PRESETS: dict[str, Any]
    DEFAULT_PRESET: str
    AI_LEVELS: tuple[str, ...]
    #: AI levels whose decisions take long enough to run away from the event loop
    SLOW_AI_LEVELS: frozenset[str]
    #: the direction of the game's scores: True when a low score is good (Tamalou and
    #: Kalooki count penalty points), False when a high one is (tarot counts points won).
    #: Season boards sorted by score and season records read it (bot/seasons).
    LOWER_SCORE_WINS: bool

    def rules_from_dict(self, data: dict[str, Any]) -> BaseModel: ...

    def new_game(
        self, rules: Any, players: int, seed: str | int, at: int = 0, ai: list[bool] | None = None
    ) -> tuple[Any, list[Any]]: ...

    def apply(self, state: Any, action: Any) -> list[Any]: ...

    def legal_actions(self, state: Any, seat: int, at: int | None = None) -> list[Any]: ...

    def next_deadline(self, state: Any) -> int | None: ...

    def tick(self, at: int) -> Any: ...

    def view(self, state: Any, seat: int, at: int | None = None) -> BaseModel: ...

    def public_view(self, state: Any, at: int | None = None) -> BaseModel: ...

    def stream_for(self, events: Sequence[Any], seat: int) -> list[Any]: ...

    def action_to_dict(self, action: Any) -> dict[str, Any]: ...

    def action_from_dict(self, data: dict[str, Any]) -> Any: ...

    def action_from_log(self, data: dict[str, Any]) -> Any:
        """An action of the bot's own log (a replay): exactly ``action_from_dict``'s, but
        cheaper for the rows the bot writes (``tamalou.core.codec.Codec.action_from_log``)."""
        ...

    def round_summaries(self, events: Sequence[Any]) -> list[RoundSummary]: ...

    def deal_results(self, events: Sequence[Any]) -> dict[int, tuple[float, ...]]:
        """Each seeded deal's scores by seat (a duplicate tournament compares the same deal
        across tables): :func:`deals_by_round` when a game's rounds are its deals."""
        ...

    def seat_stats(self, events: Sequence[Any], players: int) -> list[dict[str, int]]:
        """One dict a seat of the counters a season keeps (``calls_right``, ``calls_wrong``,
        ``doubles``, ``doubles_missed``): :func:`no_seat_stats` for a game that counts none."""
        ...

    def match_over(self, state: Any) -> bool: ...

    def match_result(self, state: Any) -> tuple[Sequence[float], Sequence[int]]:
        """A finished match's final totals (one per seat) and the seats of its winners."""
        ...

    def now(self, state: Any) -> int: ...

    def display_moments(self, state: Any) -> set[int]:
        """Times when the public view changes with no action (a fuse starts, a block ends)."""
        ...

    def abandoned(self, state: Any) -> bool:
        """True when nobody human is left to play (the table closes)."""
        ...

    def away(self, state: Any, seat: int) -> bool:
        """True when the seat's player is away (the clock plays for them): a public fact."""
        ...

    def make_ai(self, level: str, seat: int, rules: Any, seed: str) -> AIPlayer: ...

    def contested(self, state: Any, action: Any) -> bool:
        """Whether a click stamped before ``action`` (by any seat) and not yet arrived could
        still change its outcome, or be judged differently once it is applied: a race
        (Tamalou's doubles, Kalooki's calls), or any move of another seat that ``state``
        allows at ``action.at`` or before. True keeps the reorder window (the action waits
        for earlier presses and is applied in press order); False lets the table service
        apply it as soon as it arrives, with no wait. Answer from the state alone and
        cheaply (it is asked at every click, with the table's lock held); when unsure,
        True. A game with no out-of-turn reasoning yet answers with :func:`always_contested`.
        The service itself keeps the window when a deadline is due by ``action.at`` or an
        earlier press is still queued (docs/architecture.md, "Ordering")."""
        ...


def always_contested(state: Any, action: Any) -> bool:
    """The safe answer to :meth:`GameModule.contested`: every action waits the reorder
    window (a game that cannot tell which of its moves nobody can race)."""
    return True


def no_seat_stats(events: Sequence[Any], players: int) -> list[dict[str, int]]:
    """:meth:`GameModule.seat_stats` of a game that counts none of a season's counters."""
    return [{} for _ in range(players)]


def deals_by_round(
    summaries: Callable[[Sequence[Any]], list[RoundSummary]],
) -> Callable[[Sequence[Any]], dict[int, tuple[float, ...]]]:
    """:meth:`GameModule.deal_results` of a game whose rounds are its deals (each round the
    same seeded deal at every table): its rounds' scores, by round number."""

    def deal_results(events: Sequence[Any]) -> dict[int, tuple[float, ...]]:
        return {r.round_no: tuple(r.scores) for r in summaries(events)}

    return deal_results
