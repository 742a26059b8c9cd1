"""How the end-to-end tests' humans play Kalooki, and the same match played in the engine
alone (to pick a seed whose match shows what a test wants).

Humans decide like the engine's ``medium`` AI but never call (the test scripts its calls);
the table's AI seat is ``easy`` (it never calls, and draws its random numbers only when it
discards), so a whole match is one function of its seed and the scripted moves: the test
clicks in Discord exactly what :func:`simulate` played.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki.ai import make_player
from tamalou.games.kalooki.engine import apply, legal_actions, new_game
from tamalou.games.kalooki.melds import is_joker, rank_of, suit_of
from tamalou.games.kalooki.rules import Rules
from tamalou.games.kalooki.state import Game
from tamalou.games.kalooki.views import view

#: the lay-off select shows the first 25 options
MAX_OPTIONS = 25


def position(card: int) -> int:
    """1 (ace low) .. 13 (king)."""
    return rank_of(card) + 1


def human(game: Game, seat: int, at: int, rules: Rules) -> A.Action | None:
    """A human's next move: the ``medium`` AI's choice, calls left out."""
    legal = [a for a in legal_actions(game, seat, at) if a.kind not in ("call", "next_round")]
    if not legal:
        return None
    player = make_player("medium", seat, rules, "human")
    action = player.act(view(game, seat, at), legal, at)
    if isinstance(action, A.LayOff | A.ShiftJoker):
        shown = [a for a in legal if isinstance(a, A.LayOff | A.ShiftJoker)][:MAX_OPTIONS]
        assert action in shown
    return action


def shift_plan(hand: Sequence[int]) -> tuple[list[int], list[int], int] | None:
    """K-L7 in one turn: a set, a run laid with a joker where the hand holds the natural
    (x, Jk, x+2, x+3) and that natural x+1: ``(set, run, natural)``, or None."""
    jokers = [c for c in hand if is_joker(c)]
    naturals = [c for c in hand if not is_joker(c)]
    if not jokers:
        return None
    for suit in range(4):
        at_pos: dict[int, int] = {}
        for c in naturals:
            if suit_of(c) == suit:
                at_pos.setdefault(position(c), c)
        for x in range(2, 11):
            if not all(p in at_pos for p in (x, x + 1, x + 2, x + 3)):
                continue
            run = [at_pos[x], jokers[0], at_pos[x + 2], at_pos[x + 3]]
            natural = at_pos[x + 1]
            rest = [c for c in naturals if c not in run and c != natural]
            for trio in itertools.combinations(rest, 3):
                if len({rank_of(c) for c in trio}) == 1 and len(rest) - 3 >= 1:
                    return list(trio), run, natural
    return None


@dataclass
class Played:
    game: Game
    actions: list[A.Action] = field(default_factory=list)


def simulate(
    rules: Rules,
    seed: str,
    ai_seat: int,
    script: Callable[[Game, int], list[A.Action] | None],
    limit: int = 2000,
) -> Played:
    """The match of ``seed`` with four seats (``ai_seat`` the easy AI): ``script(game, step)``
    may give the next moves (scripted calls, lay-downs); else every seat plays as above."""
    game, _ = new_game(rules, 4, seed, 0, [s == ai_seat for s in range(4)])
    ai = make_player("easy", ai_seat, rules, f"{seed}:ai:{ai_seat}")
    out = Played(game)
    while not game.over and len(out.actions) < limit:
        r = game.round
        at = max(game.now, r.draw_at or 0)
        if r.phase == "over":
            apply(game, A.NextRound(0, at))
            continue
        scripted = script(game, len(out.actions))
        if scripted:
            for a in scripted:
                a.at = at
                apply(game, a)
                out.actions.append(a)
            continue
        assert r.current is not None
        seat = r.current
        if seat == ai_seat:
            action = ai.act(view(game, seat, at), legal_actions(game, seat, at), at)
        else:
            action = human(game, seat, at, rules)
        assert action is not None
        action.at = at
        apply(game, action)
        out.actions.append(action)
    return out
