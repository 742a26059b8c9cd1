"""What one AI player knows: built only from its own event stream (and its own views).

The memory never touches the engine state. It is rebuilt exactly by feeding the same
events again, in order: the only randomness (``easy`` forgetting on purpose) comes from a
generator seeded by the player's seed and consumed only while observing events.

Slots hold a card id, :data:`UNKNOWN` or :data:`HOLE` (a slot emptied by a double, R-D1).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.rules import Rules

UNKNOWN = -1
HOLE = -2
# a call on one of a seat's first turns of a round, before it can know its row is low
RASH_TURNS = 2


@dataclass(slots=True)
class Memory:
    """One seat's knowledge of the current round."""

    seat: int
    rules: Rules
    forget_p: float = 0.0  # easy: chance to forget each known card at each of its turns
    forget_swaps: bool = False  # easy: a blind swap wipes what it knew of both slots
    seed: str = "0"
    round_no: int = 0
    cards_per_player: int = 4
    rows: dict[int, list[int]] = field(default_factory=dict)
    # does the owner of a slot know its card? (public facts: peeks, keeps, looks, reveals)
    owner_knows: dict[int, list[bool]] = field(default_factory=dict)
    discard: list[int] = field(default_factory=list)
    held: int | None = None
    current: int | None = None
    transmitted: str | None = None
    caller: int | None = None
    frozen: set[int] = field(default_factory=set)
    my_turns: int = 0  # turns started (not counting Jack extra turns)
    called_on_turn: int | None = None
    # each seat's turns started this round, and over the match the calls a seat made on
    # one of its first RASH_TURNS turns of a round (before it could know its row is low)
    turns: dict[int, int] = field(default_factory=dict)
    rash_calls: dict[int, int] = field(default_factory=dict)
    over: bool = True
    events_seen: int = 0
    doubles_tried: int = 0
    doubles_won: int = 0
    _rng: random.Random = field(default_factory=random.Random)

    def __post_init__(self) -> None:
        self._rng = random.Random(f"{self.seed}:memory")

    # -- feeding ----------------------------------------------------------------------

    def observe(self, events: Iterable[E.Event]) -> None:
        """Take in events in order; events not visible to this seat are ignored."""
        for e in events:
            if e.to is not None and self.seat not in e.to:
                continue
            self.events_seen += 1
            handler = _HANDLERS.get(type(e))
            if handler is not None:
                handler(self, e)

    def row(self, seat: int) -> list[int]:
        r = self.rows.get(seat)
        if r is None:
            r = self.rows[seat] = [UNKNOWN] * self.cards_per_player
            self.owner_knows[seat] = [False] * self.cards_per_player
        return r

    def _set(self, seat: int, slot: int, card: int, owner_knows: bool | None = None) -> None:
        row = self.row(seat)
        knows = self.owner_knows[seat]
        while len(row) < slot:
            row.append(UNKNOWN)
            knows.append(False)
        row[slot - 1] = card
        if owner_knows is not None:
            knows[slot - 1] = owner_knows

    # -- what it knows ----------------------------------------------------------------

    def known_cards(self) -> set[int]:
        """Cards whose place this player knows (rows, discard, hand)."""
        known = {c for row in self.rows.values() for c in row if c >= 0}
        known.update(self.discard)
        if self.held is not None:
            known.add(self.held)
        return known

    def unseen(self) -> list[int]:
        """R-C2 card counting: every card whose place is unknown (pile or a hidden slot)."""
        known = self.known_cards()
        return [c for c in self.rules.compiled.deck if c not in known]

    def seats(self) -> list[int]:
        return sorted(self.rows)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able snapshot (for debugging; restarting is done by replaying events)."""
        return {
            "seat": self.seat,
            "round_no": self.round_no,
            "rows": {str(k): v for k, v in self.rows.items()},
            "owner_knows": {str(k): v for k, v in self.owner_knows.items()},
            "discard": self.discard,
            "held": self.held,
            "caller": self.caller,
            "events_seen": self.events_seen,
        }


# -- event handlers -----------------------------------------------------------------------


def _round_started(m: Memory, e: E.RoundStarted) -> None:
    m.round_no = e.round_no
    m.cards_per_player = e.cards_per_player
    m.rows, m.owner_knows = {}, {}
    m.discard = []
    m.held = m.current = m.transmitted = m.caller = None
    m.frozen = set()
    m.my_turns = 0
    m.called_on_turn = None
    m.turns = {}
    m.over = False
    m.row(m.seat)


def _peeked(m: Memory, e: E.Peeked) -> None:
    m.row(e.player)
    for s in m.rules.peek_slots:
        if s <= len(m.owner_knows[e.player]):
            m.owner_knows[e.player][s - 1] = True


def _peek_shown(m: Memory, e: E.PeekShown) -> None:
    for slot, card in e.cards:
        m._set(e.player, slot, card, True)


def _turn_started(m: Memory, e: E.TurnStarted) -> None:
    m.current = e.player
    m.transmitted = e.transmitted
    m.row(e.player)
    if not e.extra:
        m.turns[e.player] = m.turns.get(e.player, 0) + 1
    if e.player == m.seat and not e.extra:
        m.my_turns += 1
        if m.forget_p > 0:
            _forget(m)


def _forget(m: Memory) -> None:
    for seat, row in m.rows.items():
        for i, c in enumerate(row):
            # cards shown to everybody for good (a right call) are not forgotten
            if c >= 0 and seat != m.caller and m._rng.random() < m.forget_p:
                row[i] = UNKNOWN


def _drew(m: Memory, e: E.Drew) -> None:
    if e.source == "discard" and m.discard:
        m.discard.pop()
        if e.player == m.seat and e.card is not None:
            m.held = e.card


def _drawn_card(m: Memory, e: E.DrawnCard) -> None:
    if e.player == m.seat:
        m.held = e.card


def _replaced(m: Memory, e: E.Replaced) -> None:
    m.discard.append(e.discarded)
    if e.kept is not None:
        card = e.kept
    elif e.player == m.seat and m.held is not None:
        card = m.held
    else:
        card = UNKNOWN
    m._set(e.player, e.slot, card, True)
    if e.player == m.seat:
        m.held = None


def _threw(m: Memory, e: E.Threw) -> None:
    m.discard.append(e.card)
    if e.player == m.seat:
        m.held = None


def _timed_out(m: Memory, e: E.TimedOut) -> None:
    if e.player == m.seat:
        m.held = None


def _swapped(m: Memory, e: E.Swapped) -> None:
    a, b = m.row(e.player), m.row(e.target)
    i, j = e.slot - 1, e.target_slot - 1
    if i >= len(a) or j >= len(b):
        return
    if m.forget_swaps:
        a[i], b[j] = UNKNOWN, UNKNOWN
    else:  # R-P2: the cards move unseen; what this player knew moves with them
        a[i], b[j] = b[j], a[i]
    # nobody saw the cards: both owners now hold a card they have not seen
    m.owner_knows[e.player][i] = False
    m.owner_knows[e.target][j] = False


def _looked(m: Memory, e: E.Looked) -> None:
    if e.target == e.player:
        m.row(e.player)
        knows = m.owner_knows[e.player]
        if e.slot <= len(knows):
            knows[e.slot - 1] = True


def _look_shown(m: Memory, e: E.LookShown) -> None:
    if e.player == m.seat:
        m._set(e.target, e.slot, e.card)


def _doubled(m: Memory, e: E.Doubled) -> None:
    m._set(e.player, e.slot, HOLE, False)
    m.discard.append(e.card)
    if e.player == m.seat:
        m.doubles_won += 1
        m.doubles_tried += 1


def _double_missed(m: Memory, e: E.DoubleMissed) -> None:
    owner = e.player if e.owner is None else e.owner  # R-X10: another's card
    m._set(owner, e.slot, e.card, True)  # R-D5: shown to everyone
    if e.player == m.seat:
        m.doubles_tried += 1


def _swapped_two(m: Memory, e: E.SwappedTwo) -> None:
    """R-X2: two cards of two players moved unseen: what this player knew moves with them."""
    a, b = m.row(e.first), m.row(e.second)
    i, j = e.first_slot - 1, e.second_slot - 1
    if i >= len(a) or j >= len(b):
        return
    if m.forget_swaps:
        a[i], b[j] = UNKNOWN, UNKNOWN
    else:
        a[i], b[j] = b[j], a[i]
    m.owner_knows[e.first][i] = False
    m.owner_knows[e.second][j] = False


def _swap_shown(m: Memory, e: E.SwapShown) -> None:
    for seat, slot, card in e.cards:  # R-X3 (koubo): shown to the target
        m._set(seat, slot, card)


def _gave_top(m: Memory, e: E.GaveTop) -> None:
    m._set(e.target, e.slot, UNKNOWN, False)  # R-X4: seen by nobody


def _doubled_for(m: Memory, e: E.DoubledFor) -> None:
    """R-X10: the target's card went to the discard; the player's card took its slot."""
    given = UNKNOWN
    if e.slot:
        mine = m.row(e.player)
        if e.slot <= len(mine):
            given = mine[e.slot - 1] if mine[e.slot - 1] >= 0 else UNKNOWN
        m._set(e.player, e.slot, HOLE, False)
    m._set(e.target, e.target_slot, given if e.slot else HOLE, False)
    m.discard.append(e.card)


def _note_call(m: Memory, player: int, automatic: bool) -> None:
    if not automatic and m.turns.get(player, 0) <= RASH_TURNS:
        m.rash_calls[player] = m.rash_calls.get(player, 0) + 1


def _called_hidden(m: Memory, e: E.CalledHidden) -> None:
    _note_call(m, e.player, e.automatic)
    if e.player == m.seat:
        m.called_on_turn = m.my_turns if m.called_on_turn is None else m.called_on_turn
    m.caller = e.player
    if m.rules.caller_frozen:
        m.frozen.add(e.player)


def _penalty(m: Memory, e: E.PenaltyCard) -> None:
    m._set(e.player, e.slot, UNKNOWN, False)


def _called(m: Memory, e: E.Called) -> None:
    _note_call(m, e.player, e.automatic)
    for slot, card in e.cards:
        m._set(e.player, slot, card, True)
    if e.player == m.seat:
        m.called_on_turn = m.my_turns if m.called_on_turn is None else m.called_on_turn
    if e.right:
        m.caller = e.player
        if m.rules.caller_frozen:
            m.frozen.add(e.player)


def _reshuffled(m: Memory, e: E.Reshuffled) -> None:
    m.discard = m.discard[-1:]  # R-T7: the rest went back, face down, into the pile


def _round_ended(m: Memory, e: E.RoundEnded) -> None:
    m.over = True
    m.held = None
    for seat, hand in enumerate(e.hands):
        m.rows[seat] = [HOLE if c is None else c for c in hand]


_HANDLERS: dict[type, Any] = {
    E.RoundStarted: _round_started,
    E.Peeked: _peeked,
    E.PeekShown: _peek_shown,
    E.TurnStarted: _turn_started,
    E.Drew: _drew,
    E.DrawnCard: _drawn_card,
    E.Replaced: _replaced,
    E.Threw: _threw,
    E.TimedOut: _timed_out,
    E.Swapped: _swapped,
    E.Looked: _looked,
    E.LookShown: _look_shown,
    E.Doubled: _doubled,
    E.DoubleMissed: _double_missed,
    E.PenaltyCard: _penalty,
    E.Called: _called,
    E.CalledHidden: _called_hidden,
    E.SwappedTwo: _swapped_two,
    E.SwapShown: _swap_shown,
    E.GaveTop: _gave_top,
    E.DoubledFor: _doubled_for,
    E.Reshuffled: _reshuffled,
    E.RoundEnded: _round_ended,
}
