"""AI players: the common interface, ``random``, and the rule-of-thumb players (easy, medium).

An :class:`AIPlayer` is fed events (``observe``) and asked for an action (``decide``,
``wants_double``). It sees only its own stream and its own :class:`PlayerView`; it never
receives the engine state.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable
from dataclasses import dataclass

from tamalou.core import cards
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou.ai.estimate import Estimate, call_threshold
from tamalou.games.tamalou.ai.memory import HOLE, UNKNOWN, Memory
from tamalou.games.tamalou.events import Event
from tamalou.games.tamalou.rules import Power, Rules
from tamalou.games.tamalou.views import PlayerView


@dataclass(frozen=True, slots=True)
class Style:
    """The knobs that make a level (see docs/ai.md)."""

    forget_p: float = 0.0  # chance to forget each known card at each of its turns
    forget_swaps: bool = False  # a blind swap wipes what it knew of both slots
    call_ok: float = 0.8  # minimal P(total <= 5) to call (R-A1)
    call_win: float = 0.55  # minimal P(call right and nobody lower)
    #: R-X7, an unchecked call (no threshold): minimal P(nobody lower). Measured in
    #: docs/ai.md: lower bars call more often and win no more against random
    call_sure: float = 0.95
    use_queen: bool = True
    use_transmitted: bool = True
    swap_min: float = 1.0  # minimal expected gain of a blind swap (R-P2)
    take_discard: bool = True
    double_bonus: bool = True  # plan a discard so that a known card can be doubled next
    blunder_p: float = 0.0  # chance to take a random reasonable option instead of the best


MEDIUM = Style()
EASY = Style(
    forget_p=0.12,
    forget_swaps=True,
    call_ok=0.9,
    call_win=0.5,
    use_queen=False,
    use_transmitted=False,
    take_discard=True,
    double_bonus=False,
    blunder_p=0.1,
)


class AIPlayer:
    """One AI seat. Feed it every event (it keeps only its own stream); ask it to act."""

    level: str = "ai"

    def __init__(self, seat: int, rules: Rules, seed: int | str, style: Style = MEDIUM) -> None:
        self.seat = seat
        self.rules = rules
        self.seed = str(seed)
        self.style = style
        self.memory = Memory(
            seat, rules, forget_p=style.forget_p, forget_swaps=style.forget_swaps, seed=self.seed
        )
        self._calls = 0
        self._calls_at = -1

    # -- feeding ----------------------------------------------------------------------

    def observe(self, events: Iterable[Event]) -> None:
        """Events in order: all of the table's, or this seat's stream (others are ignored)."""
        self.memory.observe(events)

    def _rng(self) -> random.Random:
        """A generator that depends only on the seed and the events seen: a replay agrees."""
        seen = self.memory.events_seen
        if seen != self._calls_at:
            self._calls_at, self._calls = seen, 0
        self._calls += 1
        return random.Random(f"{self.seed}:{seen}:{self._calls}")

    # -- acting -----------------------------------------------------------------------

    def act(self, view: PlayerView, legal: list[A.Action], at: int) -> A.Action | None:
        """The game protocol's one question: a double it is sure of, else its turn's action."""
        return self.wants_double(view, at) or self.decide(view, legal, at)

    def decide(self, view: PlayerView, legal: list[A.Action], at: int) -> A.Action | None:
        """The action to take now among ``legal``, or None to wait. Never a NextRound."""
        legal = [a for a in legal if a.player == self.seat and not isinstance(a, A.NextRound)]
        if not legal:
            return None
        for a in legal:
            if isinstance(a, A.Peek):
                return A.Peek(self.seat, at)  # R-S2: always look at slots 1 and 4
        self.sync(view)
        choice = self.choose(view, legal)
        if choice is None:
            # never stall a turn step the rules of thumb do not value (a must power, a
            # preset's new step): the first legal one (R-X5's order for powers)
            turn = [a for a in legal if a.kind not in A.DOUBLE_KINDS]
            if not turn or isinstance(self, RandomPlayer):
                return None
            choice = turn[0]
        return dataclasses.replace(choice, at=at)

    def wants_double(self, view: PlayerView, at: int) -> A.Double | None:
        """A double this player is sure of on the current discard top (R-D1), or None."""
        pub = view.public
        window = pub.window_seq is not None  # R-X11: every card of the rank, until it closes
        if not view.can_double or pub.discard_top is None:
            return None
        if not (pub.discard_doubleable or window):
            return None
        seq = pub.window_seq if pub.window_seq is not None else pub.discard_seq
        if seq is None:
            return None
        self.sync(view)
        top_rank = pub.discard_top[:-1] if pub.discard_top != cards.JOKER else cards.JOKER
        rank = self.rules.compiled.rank
        for i, c in enumerate(self.memory.row(self.seat)):
            if c >= 0 and rank[c] == top_rank:
                return A.Double(self.seat, i + 1, seq, at)
        return self.gamble_double(view, at)

    def gamble_double(self, view: PlayerView, at: int) -> A.Double | None:
        return None

    def choose(self, view: PlayerView, legal: list[A.Action]) -> A.Action | None:
        raise NotImplementedError

    # -- keeping memory in line with the view ----------------------------------------------

    def sync(self, view: PlayerView) -> None:
        """Take what this seat's own view shows (its shown cards, holes, row lengths)."""
        m = self.memory
        if m.over and view.public.phase in ("peek", "play", "final"):
            return  # events of the new round not fed yet: trust nothing stale
        row = m.row(self.seat)
        for sv in view.row:
            while len(row) < sv.slot:
                m._set(self.seat, sv.slot, UNKNOWN, False)
                row = m.row(self.seat)
            if not sv.present:
                row[sv.slot - 1] = HOLE
            elif sv.card is not None:
                row[sv.slot - 1] = _card(sv.card)
            elif row[sv.slot - 1] == HOLE:
                row[sv.slot - 1] = UNKNOWN
        if m.held is None and view.held is not None:
            m.held = _card(view.held)
        for sv2 in view.public.seats:
            r = m.row(sv2.seat)
            if sv2.out and r:  # R-X16: an eliminated seat holds nothing
                del r[:]
                del m.owner_knows[sv2.seat][:]
            for i, present in enumerate(sv2.slots):
                if i >= len(r):
                    m._set(sv2.seat, i + 1, UNKNOWN, False)
                    r = m.row(sv2.seat)
                if not present:
                    r[i] = HOLE
                elif r[i] == HOLE:
                    r[i] = UNKNOWN
            for slot, code in sv2.revealed.items():
                if slot <= len(r):
                    r[slot - 1] = _card(code)
            if sv2.frozen:
                m.frozen.add(sv2.seat)


def _card(code: str) -> int:
    return cards.from_code(code)


class RandomPlayer(AIPlayer):
    """Any legal action, uniformly (tests and baselines). It never doubles on its own."""

    level = "random"

    def choose(self, view: PlayerView, legal: list[A.Action]) -> A.Action | None:
        rng = self._rng()
        if all(isinstance(a, A.Double) for a in legal) and rng.random() < 0.9:
            return None  # out of turn, a random player mostly waits instead of doubling
        return rng.choice(legal)

    def wants_double(self, view: PlayerView, at: int) -> A.Double | None:
        """Now and then, a blind double on a random slot of its own (R-D3, R-D5)."""
        pub = view.public
        rng = self._rng()
        seq = pub.window_seq if pub.window_seq is not None else pub.discard_seq
        if not view.can_double or seq is None or rng.random() >= 0.05:
            return None
        slots = [sv.slot for sv in view.row if sv.present]
        return A.Double(self.seat, rng.choice(slots), seq, at) if slots else None


class HeuristicPlayer(AIPlayer):
    """Rules of thumb on top of memory and card counting (``easy`` and ``medium``)."""

    level = "medium"

    def __init__(
        self, seat: int, rules: Rules, seed: int | str, style: Style = MEDIUM, level: str = ""
    ) -> None:
        super().__init__(seat, rules, seed, style)
        if level:
            self.level = level

    # -- the options, valued in points saved ------------------------------------------

    def choose(self, view: PlayerView, legal: list[A.Action]) -> A.Action | None:
        options = self.options(legal, Estimate.of(self.memory))
        if not options:
            return None
        options.sort(key=lambda o: -o[0])
        if self.style.blunder_p and len(options) > 1:
            rng = self._rng()
            if rng.random() < self.style.blunder_p:
                return options[min(1, len(options) - 1)][1]
        return options[0][1]

    def options(self, legal: list[A.Action], est: Estimate) -> list[tuple[float, A.Action]]:
        """Every action worth considering with its value (higher is better)."""
        kinds = {a.kind for a in legal}
        if "replace" in kinds or "throw" in kinds:
            return self.holding_options(legal, est)
        if kinds & {"pass", "replay", "swap_two", "give_top"} or (
            kinds & {"look", "swap"} and "draw" not in kinds
        ):
            return self.power_options(legal, est)
        if "end_turn" in kinds:  # R-X6: the end-of-turn call
            call = self.should_call(est)
            return [
                ((100.0 if call else -1.0) if isinstance(a, A.CallTamalou) else 0.0, a)
                for a in legal
                if isinstance(a, A.CallTamalou | A.EndTurn)
            ]
        if "draw" in kinds:
            return self.start_options(legal, est)
        return []

    def dbl_bonus(self, card: int, exclude_slot: int | None) -> float:
        """R-D1: a card of this rank on the discard lets me double a known card of mine."""
        if not self.style.double_bonus:
            return 0.0
        rank = self.rules.compiled.rank
        value = self.rules.compiled.value
        for i, c in enumerate(self.memory.row(self.seat)):
            if c >= 0 and i + 1 != exclude_slot and rank[c] == rank[card]:
                return value[c] + 0.5  # a card fewer helps in ties too (R-E3)
        return 0.0

    def last_turn(self) -> bool:
        """Someone else called: this is my last turn (R-A3), what I learn now is worth nothing."""
        caller = self.memory.caller
        return caller is not None and caller != self.seat

    def info_weight(self) -> float:
        """What knowing a card is worth now: nothing on my last turn."""
        return 0.0 if self.last_turn() else 1.0

    def power_value(self, card: int, est: Estimate) -> float:
        """What using ``card``'s power is worth, roughly (R-T5)."""
        power = self.rules.compiled.power[card]
        if power is None:
            return 0.0
        mine = est.mine(self.memory)
        unknown = sum(1 for c in self.memory.row(self.seat) if c == UNKNOWN)
        if power == Power.REPLAY:
            return 1.5 if not self.last_turn() else 0.0
        if power in (Power.LOOK_OWN, Power.LOOK_ANY):
            return self.info_weight() if unknown else 0.0
        if power == Power.BLIND_SWAP and self.style.use_queen:
            best = max(mine.values(), default=0.0)
            low = min(
                (
                    v
                    for s in self.memory.seats()
                    if s != self.seat and s not in self.memory.frozen
                    for v in est.theirs(self.memory, s).values()
                ),
                default=best,
            )
            return max(0.0, best - low - self.style.swap_min)
        if power == Power.LOOK_OPPONENT:
            return 0.3 * self.info_weight()
        return 0.0

    def draw_gain(self, est: Estimate, worst: float) -> float:
        """Expected points saved by drawing from the pile and playing it well."""
        value = est.value
        total = 0.0
        for c in est.pool:
            total += max(worst - value[c], self.power_value(c, est) if value[c] >= 10 else 0.0, 0.0)
        return total / max(1, len(est.pool))

    def holding_options(self, legal: list[A.Action], est: Estimate) -> list[tuple[float, A.Action]]:
        m = self.memory
        held = m.held
        if held is None:
            return [(0.0, legal[0])]
        x = est.value[held]
        mine = est.mine(m)
        row = m.row(self.seat)
        out: list[tuple[float, A.Action]] = []
        for a in legal:
            if isinstance(a, A.Throw):
                out.append((self.power_value(held, est) + self.dbl_bonus(held, None), a))
            elif isinstance(a, A.Replace):
                e = mine.get(a.slot, est.mean)
                gain = e - x
                old = row[a.slot - 1] if a.slot <= len(row) else UNKNOWN
                if old >= 0:  # R-X5 (power_from "thrown"): a replaced card gives no power
                    gain += self.dbl_bonus(old, a.slot)
                    if self.rules.power_from == "discarded":
                        gain += self.power_value(old, est)
                else:  # a known card replaces an unknown one: calling gets surer
                    gain += 0.25 * self.info_weight()
                out.append((gain, a))
        return out

    def power_options(self, legal: list[A.Action], est: Estimate) -> list[tuple[float, A.Action]]:
        out: list[tuple[float, A.Action]] = []
        for a in legal:
            if isinstance(a, A.Pass):
                out.append((0.0, a))
            elif isinstance(a, A.Replay):
                out.append((2.0, a))  # R-P1: a whole new turn is never worse
            else:
                v = self.target_value(a, est)
                if v is not None:
                    out.append((v, a))
        return out

    def target_value(self, a: A.Action, est: Estimate) -> float | None:
        m = self.memory
        if isinstance(a, A.Look):
            row = m.row(a.target)
            if a.slot > len(row) or row[a.slot - 1] != UNKNOWN:
                return -0.1  # nothing to learn (and using it transmits it, R-P6)
            if a.target == self.seat:
                return 1.0 + 0.01 * a.slot
            knows = m.owner_knows[a.target]
            return 0.3 + (0.1 if a.slot <= len(knows) and knows[a.slot - 1] else 0.0)
        if isinstance(a, A.Swap):
            if not self.style.use_queen:
                return None
            mine = est.mine(m).get(a.slot, est.mean)
            theirs = est.theirs(m, a.target).get(a.target_slot, est.mean)
            # they get my card too: with two players that counts twice
            gain = (mine - theirs) * (1.5 if len(m.seats()) == 2 else 1.2)
            return gain - self.style.swap_min
        if isinstance(a, A.SwapTwo):  # R-X2: worth it when one side is mine and lowers it
            if self.seat not in (a.first, a.second):
                return -0.5
            slot, other, other_slot = (
                (a.first_slot, a.second, a.second_slot)
                if a.first == self.seat
                else (a.second_slot, a.first, a.first_slot)
            )
            mine = est.mine(m).get(slot, est.mean)
            theirs = est.theirs(m, other).get(other_slot, est.mean)
            return (mine - theirs) * 1.2 - self.style.swap_min
        if isinstance(a, A.GiveTop):  # R-X4: a card more for the lowest-looking opponent
            total = sum(est.theirs(m, a.target).values())
            return 1.0 - 0.01 * total
        return None

    def start_options(self, legal: list[A.Action], est: Estimate) -> list[tuple[float, A.Action]]:
        m = self.memory
        mine = est.mine(m)
        worst = max(mine.values(), default=0.0)
        gain_draw = self.draw_gain(est, worst)
        out: list[tuple[float, A.Action]] = []
        for a in legal:
            if isinstance(a, A.Draw):
                out.append((gain_draw, a))
            elif isinstance(a, A.TakeDiscard) and self.style.take_discard and m.discard:
                top = m.discard[-1]
                worst_slot = max(mine, key=lambda s: mine[s]) if mine else 1
                out.append((worst - est.value[top] + self.dbl_bonus(top, worst_slot) - 0.2, a))
            elif isinstance(a, A.CallTamalou):
                if self.should_call(est):
                    out.append((100.0, a))
            elif isinstance(a, A.Look | A.Swap) and self.style.use_transmitted:
                v = self.target_value(a, est)
                if v is not None:
                    out.append((v + (0.3 if isinstance(a, A.Look) else 0.0), a))
        return out

    def should_call(self, est: Estimate) -> bool:
        """R-A1: call from the probability of being at most 5, not from a point estimate."""
        m = self.memory
        if len(m.seats()) < 2:
            return False  # no opponent in memory yet (events not fed): nothing to compare
        threshold = call_threshold(self.rules)
        p_ok = est.p_at_most(m, threshold)
        late = max(0, m.my_turns - 20) * 0.02  # a long round: accept a little more risk
        if p_ok < self.style.call_ok - late:
            return False
        # R-X7: an unchecked call has no threshold to be sure of, only the win itself
        need = self.style.call_win if self.rules.call_checked else self.style.call_sure
        return est.p_win_if_called(m) >= need - late
