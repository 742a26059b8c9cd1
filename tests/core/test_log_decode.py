"""The replay's decoder (``action_from_log``, issue 25: restart of 1,000 live tables) reads
the bot's own log with plain constructors where a field has the exact JSON type the bot
writes, and hands anything else to the validated decoder (``action_from_dict``, pydantic).
Whatever the row, both give the same action, field types included, or the same
``ValueError``: seeded matches of every game (Tamalou's presets, Kalooki's, tarot's), every
action they logged and every move they listed, as the log stores it; and each of those
rows broken in the ways a hand-edited or foreign row could be.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
import json
import random
from dataclasses import dataclass
from typing import Annotated, Any

import orjson
import pytest
from pydantic import Field

from tamalou.core.codec import dumps
from tamalou.core.drivers import random_playout
from tamalou.core.errors import IllegalAction
from tamalou.games import game_ids, load


def shape(value: object) -> object:
    """``value`` with the type of every part: ``True == 1`` and ``(1,) != [1]`` told apart."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        return (type(value), tuple((f.name, shape(getattr(value, f.name))) for f in fields))
    if isinstance(value, list | tuple):
        return (type(value), tuple(shape(v) for v in value))
    return (type(value), value)


def outcome(decode: Any, data: object) -> object:
    try:
        return ("action", shape(decode(data)))
    except ValueError as e:  # the only error a decoder may raise (tests/core/test_codec.py)
        return ("ValueError", str(e))


class Recording:
    """A game module whose ``apply`` logs each action as the bot's log stores it (its
    compact JSON, read back by orjson as ``Storage.actions_of`` does), and whose listed
    moves are kept too."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.logged: list[dict[str, Any]] = []
        self.listed: list[dict[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.module, name)

    def stored(self, action: object) -> dict[str, Any]:
        row: dict[str, Any] = orjson.loads(dumps(self.module.action_to_dict(action)))
        return row

    def apply(self, state: Any, action: Any) -> Any:
        events = self.module.apply(state, action)  # raises first if refused: not logged
        self.logged.append(self.stored(action))
        return events

    def legal_actions(self, state: Any, seat: int, at: int | None = None) -> Any:
        moves = self.module.legal_actions(state, seat, at)
        self.listed.extend(self.stored(a) for a in moves[:12])
        return moves


def matches(game_id: str) -> list[tuple[str, int]]:
    """(preset, players) of the seeded matches: every preset of the game, at its fewest
    players and, where the preset allows, one more."""
    module = load(game_id)
    out = []
    for name, rules in sorted(module.PRESETS.items()):
        low = int(getattr(rules, "min_players", 2))
        high = int(getattr(rules, "max_players", low))
        out += [(name, n) for n in sorted({low, min(low + 1, high)})]
    return out


@functools.cache
def played(game_id: str, preset: str, players: int) -> Recording:
    """A seeded match: random legal moves (any seat, the clock's ticks), then another
    between the game's ``easy`` AIs, which lay down, bid and call as random moves rarely do."""
    module = load(game_id)
    game = Recording(module)
    rules = module.PRESETS[preset]
    state, _ = module.new_game(rules, players, f"log:{preset}", 0)
    random_playout(game, state, players, random.Random(preset), max_actions=400)  # type: ignore[arg-type]
    ai_played(game, rules, players, f"log-ai:{preset}", random.Random(preset))
    return game


def ai_played(
    game: Recording, rules: Any, players: int, seed: str, rng: random.Random, steps: int = 400
) -> None:
    module = game.module
    state, events = module.new_game(rules, players, seed, 0, [True] * players)
    ais = [module.make_ai("easy", seat, rules, seed) for seat in range(players)]
    at = 0
    for _ in range(steps):
        if module.match_over(state):
            return
        for seat, ai in enumerate(ais):
            ai.observe(module.stream_for(events, seat))
        at += rng.randint(50, 2_000)
        due = module.next_deadline(state)
        if due is not None and due <= at:
            events = game.apply(state, module.tick(at))
            continue
        events = []
        for seat in rng.sample(range(players), players):
            legal = game.legal_actions(state, seat, at)
            action = ais[seat].act(module.view(state, seat, at), legal, at) if legal else None
            if action is not None:
                with contextlib.suppress(IllegalAction):
                    events = game.apply(state, action)
                    break


#: kinds no seeded match here makes (no random or easy player does them in 400 moves),
#: built by hand as the log would store them
UNPLAYED: dict[str, list[dict[str, Any]]] = {
    "tamalou": [{"kind": "give_top", "player": 0, "target": 1, "at": 5}],
    "kalooki": [
        {"kind": "end_turn", "player": 1, "at": 7},
        {
            "kind": "shift_joker",
            "player": 0,
            "card": 12,
            "meld": 1,
            "joker": 52,
            "end": "low",
            "at": 9,
        },
    ],
    "tarot": [{"kind": "ecart", "player": 2, "cards": [3, 4, 5, 6, 7, 8], "at": 11}],
}

CASES = [(g, p, n) for g in game_ids() for p, n in matches(g)]


@pytest.mark.parametrize(("game_id", "preset", "players"), CASES)
def test_the_log_decoder_gives_what_the_validated_decoder_gives(
    game_id: str, preset: str, players: int
) -> None:
    game = played(game_id, preset, players)
    assert len(game.logged) > 100, "a seeded match logs actions"
    kinds = set()
    for row in game.logged + game.listed:
        fast, checked = game.action_from_log(row), game.action_from_dict(row)
        assert shape(fast) == shape(checked), row
        kinds.add(row["kind"])
    assert len(kinds) >= 4, kinds


def rows_of(game_id: str) -> list[dict[str, Any]]:
    """Every row the game's seeded matches logged or listed, and the unplayed kinds'."""
    rows = [
        r for p, n in matches(game_id) for g in [played(game_id, p, n)] for r in g.logged + g.listed
    ]
    return rows + UNPLAYED[game_id]


@pytest.mark.parametrize("game_id", game_ids())
def test_every_kind_of_action_is_read_the_same(game_id: str) -> None:
    """Each kind the game has, some from no match (``UNPLAYED``): the decoders agree on
    every one (a new kind nobody plays here fails this test until it is added)."""
    module = load(game_id)
    rows = {r["kind"]: r for r in rows_of(game_id)}
    kinds = importlib.import_module(f"tamalou.games.{game_id}.actions").ACTION_TYPES
    assert sorted(rows) == sorted(kinds)
    for row in rows.values():
        assert shape(module.action_from_log(row)) == shape(module.action_from_dict(row)), row
        assert type(module.action_from_log(row)) is kinds[row["kind"]]


#: what a field of a row may be replaced with: every JSON type, the look-alikes lax
#: validation converts ("1", 1.0, True) and values out of any range
ODD_VALUES: list[object] = [
    True,
    False,
    None,
    "1",
    "x",
    "",
    1.0,
    1.5,
    -1,
    0,
    2**70,
    [],
    [1],
    [True],
    ["1"],
    [[1, [2]]],
    [[3, [1, 2, 3]]],
    [[3, [1, "2"]]],
    [[3]],
    {},
    {"a": 1},
    "high",
    "low",
]


def broken(row: dict[str, Any]) -> list[object]:
    """``row`` broken in every single way: a field dropped, replaced, an element of a list
    replaced, a field too many, the kind unknown or not a string, not an object at all."""
    out: list[object] = [[row], json.dumps(row), None, 7]
    for key in row:
        out.append({k: v for k, v in row.items() if k != key})
        for odd in ODD_VALUES:
            out.append({**row, key: odd})
        value = row[key]
        if isinstance(value, list) and value:
            for odd in ODD_VALUES[:12]:
                out.append({**row, key: [odd, *value[1:]]})
                out.append({**row, key: [*value, odd]})
            out.append({**row, key: tuple(value)})
    out += [{**row, "extra": 1}, {**row, "kind": "nonsense"}, {**row, "kind": 3}, {}]
    return out


@pytest.mark.parametrize("game_id", game_ids())
def test_a_broken_row_is_read_as_the_validated_decoder_reads_it(game_id: str) -> None:
    """Same action (lax validation converts ``"1"`` to 1: so does the log decoder, through
    it) or the same ``ValueError`` — never another error, never a different action."""
    module = load(game_id)
    rows: dict[tuple[str, tuple[str, ...]], dict[str, Any]] = {}
    for row in rows_of(game_id):
        rows.setdefault((row["kind"], tuple(sorted(row))), row)
    checked = 0
    for row in rows.values():
        for data in broken(row):
            copy = dict(data) if isinstance(data, dict) else data
            assert outcome(module.action_from_log, data) == outcome(
                module.action_from_dict, copy
            ), data
            assert data == copy  # the row is not changed by reading it
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("game_id", game_ids())
def test_the_rows_the_bot_writes_are_read_without_the_validated_decoder(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What makes a restart cheaper: every row of the seeded matches is built by its plain
    constructor; a row lax validation would convert (``"1"``) goes to the validated one."""
    from tamalou.core.codec import Codec

    module = load(game_id)
    validated: list[object] = []
    real = Codec.action_from_dict

    def counted(self: Codec[Any, Any], data: dict[str, Any]) -> Any:
        validated.append(data)
        return real(self, data)

    monkeypatch.setattr(Codec, "action_from_dict", counted)
    rows = rows_of(game_id)
    for row in rows:
        module.action_from_log(row)
    assert validated == []
    lax = {**rows[0], "player": str(rows[0]["player"])}
    assert module.action_from_log(lax) == module.action_from_log(rows[0])
    assert validated == [lax]


@dataclass(frozen=True)
class _Pick:
    """An action with a constrained field (no game has one yet)."""

    slot: Annotated[int, Field(ge=1)]


def test_a_constrained_field_is_always_validated() -> None:
    """A field with a constraint (``Annotated[int, Field(ge=1)]``) is read by pydantic even
    when its JSON type is exact: the plain constructor would let 0 through."""
    from tamalou.core.codec import Codec

    codec: Codec[_Pick, _Pick] = Codec({"pick": _Pick}, [])
    assert codec.action_from_log({"kind": "pick", "slot": 2}) == _Pick(2)
    with pytest.raises(ValueError):
        codec.action_from_log({"kind": "pick", "slot": 0})
