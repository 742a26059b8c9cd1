"""The legal-action listings pinned, for every preset: seeded random rounds where, at every
step, every seat's ``legal_actions`` and ``double_actions`` (in order), ``may_double``, the
events and the state (every 8 actions) feed one digest, recorded from the engine before the listings were
made faster (ninth session). An optimisation of the listings (R-D1, R-X10 play for
someone, the powers R-P2, R-X2...) must not change what a player is offered, nor its order
(the AI and the bot's buttons read the lists in order).

If the game's behaviour changes on purpose, print the new digests with::

    .venv/bin/python -m tests.games.tamalou.test_listing_digest

and review why each changed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random

import pytest

from tamalou.core.errors import IllegalAction
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import codec
from tamalou.games.tamalou.engine import (
    apply,
    double_actions,
    legal_actions,
    may_double,
    new_game,
    next_deadline,
)
from tamalou.games.tamalou.rules import PRESETS

#: sha256 of every listing, event and state over ROUNDS seeded rounds, by preset
DIGESTS = {
    "tamalou": "1608de20273ce256c79f30b61a7b321c70fe9c7862f0aaf6bfb5f10afe624721",
    "dutch": "4455bef00a2f98692e1b8ee194c65ab1cea2136f390f03ef575158127a271017",
    "koubo": "950963a5df88ac3cf923fbd02f4b8001261116f448f48261b99605e6193b9714",
    # re-recorded (eleventh session) for tamoul's ruling win_at = -100: only the rules in
    # the state's JSON changed
    "tamoul": "bb2753c74bf488bf66e2585f1180a2db2bd82cce18f3905e63036b99cdf856de",
    "cabo": "69ec2cd20e2452399d23a25345ddf89c3f7c80a9235cb68ac376dd6dd1050a3f",
    "classique": "b7f3cc35a04411e86305a22d759f37a709b40dfbc81ab9a2020f9d8c0015c17e",
    # re-recorded (eleventh session) for swiss's ruling max_rounds = 100: only the rules in
    # the state's JSON changed
    "swiss": "f65891e7629fc582c60093d1068cc9e5545590aad2a54324c2ef35935783a35e",
    "dutch_sec": "75c1fe8185fe321df44fed3af77d5a85aac83fadf93ee35ad6110915edb509ef",
    "dutch_roi": "1f62441fda1d9f8e03faa4991d8e5b6085634c62a8c9201a38f139ab19ebb1aa",
    "fontenay": "169c19e3b2d8b4d0e14f22574c9e8d63e4f85bb3b95b544a966cc17fc964628d",
    "fontenay_half": "f34e0c8500032ca3f0e6820962807522571133c56452566a5d69438b8a17c868",
}
ROUNDS = 4
#: kinds the random players mostly leave out
SELDOM = A.DOUBLE_KINDS | {"call"}


def listing_digest(name: str, rounds: int = ROUNDS) -> tuple[str, int]:
    """(the digest, the number of listings) of ``rounds`` seeded 4-player rounds of ``name``:
    random legal players as in ``tools/bench_engine`` (doubles of every kind, powers, the
    clock), every seat's listings recorded before each action."""
    rules = PRESETS[name]
    n = min(4, rules.max_players)
    rng = random.Random(f"listing:{name}")
    h = hashlib.sha256()
    listings = 0
    for i in range(rounds):
        game, events = new_game(rules, n, f"listing:{name}:{i}", 0)
        h.update(repr(events).encode())
        r = game.round
        at = game.now
        applied = 0
        for _ in range(600):
            if game.round is not r or r.phase == "over":
                break
            at += 100 + rng.randrange(2500)
            for p in range(n):
                legal = legal_actions(game, p, at)
                doubles = double_actions(game, p, at)
                h.update(repr(legal).encode())
                if legal[len(legal) - len(doubles) :] != doubles:  # not its usual tail
                    h.update(repr(doubles).encode())
                h.update(b"%d%d" % (len(doubles), may_double(game, p, at)))
                listings += 2
            due = next_deadline(game)
            if due is not None and (due <= at or rng.random() < 0.02):
                action: A.Action = A.Tick(max(at, due))
            else:
                p = rng.randrange(n)
                if r.phase == "play" and rng.random() < 0.8:
                    p = r.pending[-1][0] if r.pending else r.current
                options = legal_actions(game, p, at)
                if rng.random() < 0.9:  # mostly turns, rarely a call: rounds of a few turns
                    options = [a for a in options if a.kind not in SELDOM] or options
                if not options:
                    continue
                action = options[rng.randrange(len(options))]
            try:
                events = apply(game, action)
            except IllegalAction as e:
                h.update(repr(e.args).encode())
                continue
            h.update(repr(action).encode())
            h.update(repr(events).encode())
            applied += 1
            if applied % 8 == 0 or game.round is not r or r.phase == "over":
                h.update(codec.game_to_json(game).encode())
    return h.hexdigest(), listings


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_listings_events_and_states_are_unchanged(name: str) -> None:
    digest, listings = listing_digest(name)
    assert listings > 500  # the rounds were played, not cut short
    assert digest == DIGESTS[name], name


if __name__ == "__main__":
    for name in PRESETS:
        print(f'    "{name}": "{listing_digest(name)[0]}",')


def test_double_for_is_built_like_its_dataclass() -> None:
    """The play-for-someone listing (R-X10) builds each DoubleFor without calling its
    ``__init__`` (object.__new__ and one store a field, engine/legal.py): that is only the
    same object while the dataclass's fields are these six and nothing runs after them."""
    fields = [f.name for f in dataclasses.fields(A.DoubleFor)]
    assert fields == ["player", "target", "target_slot", "slot", "seq", "at"]
    assert not hasattr(A.DoubleFor, "__post_init__")
    built = A.DoubleFor.__new__(A.DoubleFor)
    for name, value in zip(fields, (1, 2, 3, 4, 5, 6), strict=True):
        setattr(built, name, value)
    made = A.DoubleFor(1, 2, 3, 4, 5, 6)
    assert built == made and hash(built) == hash(made) and repr(built) == repr(made)
