"""Seeded random games with invariants checked after every action.

The random players (``helpers.random_action``) play whole rounds: turns, powers,
calls, doubles (good and bad), timeouts. After every applied action we check:

- every card of the deck is somewhere exactly once (rows + pile + discard + held);
- every event is tagged: private events go to their owner only, the deal's order to the log;
- no view shows a card its player may not see now (peek window, own look, held card,
  public reveals), and every card a view shows is the card really there;
- only allowed players have legal actions, of the kinds the phase allows (R-S3, R-T, R-D7);
- every round ends within a cap on actions; the round's scores follow R-M2.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field

from tamalou.core import cards
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.engine import apply, legal_actions, new_game, next_deadline
from tamalou.games.tamalou.rules import TAMALOU
from tamalou.games.tamalou.scoring import places, round_scores
from tamalou.games.tamalou.state import FOREVER, Game
from tamalou.games.tamalou.views import public_view, view

from .helpers import deck_counts, play_random_round

ROUNDS = int(os.environ.get("TAMALOU_PROPERTY_ROUNDS", "1000"))
FULL_VIEW_ROUNDS = 150
# (double rate, memory, idle rate): most tables play well; one doubles a lot (rows empty,
# R-D8), one forgets its cards (misses, penalty cards, reshuffles, R-T7), one leaves the
# clock to play (R-K).
STYLES = [(0.04, 0.75, 0.03)] * 5 + [(0.5, 0.97, 0.03), (0.15, 0.3, 0.03), (0.04, 0.75, 0.35)]

PRIVATE_TO_OWNER = (E.PeekShown, E.DrawnCard, E.LookShown)
LOG_ONLY = (E.Dealt, E.ReshuffleOrder)


@dataclass
class Knowledge:
    """What each seat may see, rebuilt from that seat's own event stream only."""

    players: int
    # seat -> list of (target seat, slot, card, until)
    private: dict[int, list[tuple[int, int, int, int]]] = field(default_factory=dict)
    public: list[tuple[int, int, int, int]] = field(default_factory=list)
    drawn: dict[int, int] = field(default_factory=dict)  # seat -> card it drew (pile)
    from_discard: int | None = None  # the card the current player took from the discard
    checked: int = 0

    def learn(self, game: Game, events: list[E.Event]) -> None:
        for e in events:
            if isinstance(e, E.RoundStarted):
                self.private.clear()
                self.public.clear()
                self.drawn.clear()
                self.from_discard = None
            elif isinstance(e, E.PeekShown):
                for slot, card in e.cards:
                    self.private.setdefault(e.player, []).append((e.player, slot, card, e.until))
            elif isinstance(e, E.LookShown):
                self.private.setdefault(e.player, []).append((e.target, e.slot, e.card, e.until))
            elif isinstance(e, E.DrawnCard):
                self.drawn[e.player] = e.card
            elif isinstance(e, E.Drew) and e.source == "discard":
                assert e.card is not None
                self.from_discard = e.card
            elif isinstance(e, E.Called):
                until = FOREVER if e.reveal_until is None else e.reveal_until
                self.public.extend((e.player, s, card, until) for s, card in e.cards)

    def may_see(self, seat: int, target: int, slot: int, card: int, at: int) -> bool:
        facts = [*self.private.get(seat, []), *self.public]
        return any(f == (target, slot, card, f[3]) and at < f[3] for f in facts)


def check_events(game: Game, action: A.Action, events: list[E.Event]) -> None:
    """Every event tagged: private ones to their owner only, log-only ones to nobody."""
    for e in events:
        if isinstance(e, PRIVATE_TO_OWNER):
            assert e.to == (e.player,), e
        elif isinstance(e, LOG_ONLY):
            assert e.to == (), e
        else:
            assert e.to is None, e
        if isinstance(e, E.Drew):
            assert (e.card is None) == (e.source == "pile"), e  # a pile card is never public
        if isinstance(e, E.Replaced) and e.kept is not None:
            assert (
                game.round.seats[e.player].row[e.slot - 1] == e.kept or game.round.phase == "over"
            )


def check_cards(game: Game) -> None:
    assert deck_counts(game) == sorted(game.rules.compiled.deck)
    r = game.round
    assert len(r.discard) == len(r.discard_seqs) == len(r.discard_spent)
    assert r.discard_seqs == sorted(set(r.discard_seqs))
    if r.phase in ("play", "final"):
        assert r.pile, "R-T7: the draw pile is refilled eagerly"


def check_views(game: Game, know: Knowledge, seats: range | list[int]) -> None:
    at = game.now
    r = game.round
    pub = public_view(game, at)
    for i, seat_view in enumerate(pub.seats):
        for slot, code in seat_view.revealed.items():
            card = r.seats[i].row[slot - 1]
            assert card is not None and cards.code(card) == code
            assert any(f[:3] == (i, slot, card) and at < f[3] for f in know.public)
    for seat in seats:
        v = view(game, seat, at)
        assert v.public == pub
        for sv in v.row:
            if sv.card is None:
                continue
            card = r.seats[seat].row[sv.slot - 1]
            assert card is not None and cards.code(card) == sv.card, "a view shows a wrong card"
            assert know.may_see(seat, seat, sv.slot, card, at), (seat, sv, "may not see it")
            know.checked += 1
        holding = r.phase == "play" and r.current == seat and r.held is not None
        if v.held is not None:
            assert holding and r.held is not None and cards.code(r.held) == v.held
            if r.held_from == "pile":
                assert know.drawn.get(seat) == r.held
            else:
                assert know.from_discard == r.held
        else:
            assert not holding
        if v.look is not None:
            target, slot, code, _until = v.look
            card = r.seats[target].row[slot - 1]
            assert card is not None and cards.code(card) == code
            assert know.may_see(seat, target, slot, card, at)


def check_legal(game: Game) -> None:
    """Only allowed players have legal actions, of the kinds the phase allows."""
    r = game.round
    due = next_deadline(game)
    if due is not None and due <= game.now:
        return  # the clock acts first (ruling 1)
    for p in range(game.players):
        listed = legal_actions(game, p)
        got = {a.kind for a in listed}
        assert all(a.player == p for a in listed)
        if game.over:
            assert got == set()
        elif r.phase == "over":
            assert got == {"next_round"}
        elif r.phase == "peek":
            assert got <= {"peek"}  # R-S3
            assert (got == {"peek"}) == (r.seats[p].peek_until is None)
        elif r.phase == "final" or p != r.current:
            assert got <= {"double"}
            if r.seats[p].frozen:
                assert got == set()  # R-A3
        else:
            turn = got - {"double"}
            if r.stage == "start":
                assert "draw" in turn and turn <= {"draw", "take_discard", "call", "swap", "look"}
                if r.extra:
                    assert turn - {"call"} == {"draw"}  # R-P1: pile only; R-A1: a call
            elif r.stage == "holding":
                assert "double" not in got  # R-D7
                assert turn <= {"replace", "throw"} and "replace" in turn
            else:
                assert "double" not in got  # R-D7
                assert "pass" in turn and turn <= {"pass", "replay", "swap", "look"}


def check_round_end(game: Game, events: list[E.Event]) -> None:
    for e in events:
        if not isinstance(e, E.RoundEnded):
            continue
        rules = game.rules
        value = rules.compiled.value
        totals = [sum(value[x] for x in hand if x is not None) for hand in e.hands]
        assert list(e.totals) == totals  # R-E2
        counts = [sum(1 for x in hand if x is not None) for hand in e.hands]
        assert list(e.places) == places(totals, counts, e.caller)  # R-E3
        result = game.history[e.round_no - 1]
        failed = [s.failed_calls for s in game.round.seats]
        if game.round.round_no == e.round_no:
            assert list(e.scores) == round_scores(rules.scoring, totals, e.caller, failed)
        # R-M2 by hand, for the default scoring
        if e.caller is None:
            assert list(e.scores) == totals
        else:
            mine = totals[e.caller]
            beaten = any(t < mine for i, t in enumerate(totals) if i != e.caller)
            for i, t in enumerate(totals):
                if i == e.caller:
                    assert e.scores[i] == (mine if beaten else 0)
                else:
                    assert e.scores[i] == (0 if t <= mine else t)
        assert result.scores == list(e.scores)


def test_random_rounds_keep_every_invariant() -> None:
    """R-C1, R-S3, R-T7, R-D7, R-A3, R-E2, R-E3, R-M2: invariants after every action."""
    reasons: dict[str, int] = {}
    total_actions = 0
    checked = 0
    for seed in range(ROUNDS):
        rng = random.Random(seed)
        players = 2 + seed % 4
        game, events = new_game(TAMALOU, players, f"prop:{seed}", ai=None)
        know = Knowledge(players)
        know.learn(game, events)
        check_cards(game)
        # Every view of every seat after every action in the first rounds; then, to keep
        # the file fast, the views of one random seat per action (all other checks stay).
        every_seat = seed < FULL_VIEW_ROUNDS

        def on_action(
            g: Game,
            action: A.Action,
            ev: list[E.Event],
            know: Knowledge = know,
            rng: random.Random = rng,
            every_seat: bool = every_seat,
        ) -> None:
            know.learn(g, ev)
            check_events(g, action, ev)
            check_cards(g)
            check_legal(g)
            seats = range(g.players) if every_seat else [rng.randrange(g.players)]
            check_views(g, know, seats)
            check_round_end(g, ev)

        double_rate, memory, idle_rate = STYLES[seed % len(STYLES)]
        total_actions += play_random_round(
            game,
            rng,
            on_action,
            max_actions=5_000,
            double_rate=double_rate,
            memory=memory,
            idle_rate=idle_rate,
        )
        assert game.round.phase == "over"
        reason = game.round.end_reason or "?"
        reasons[reason] = reasons.get(reason, 0) + 1
        checked += know.checked
    assert total_actions > ROUNDS * 20
    if ROUNDS >= 200:  # every ending shows up (R-E1)
        assert set(reasons) == {"called", "no_cards", "away", "empty_row"}, reasons
        assert checked > 0


def test_events_private_to_their_owner_only() -> None:
    """R-S2, R-T2, R-P3: a player's stream never holds another player's secret."""
    for seed in range(30):
        rng = random.Random(seed)
        game, first = new_game(TAMALOU, 3, f"stream:{seed}")
        log: list[E.Event] = list(first)
        play_random_round(game, rng, lambda g, a, ev, log=log: log.extend(ev))
        for seat in range(3):
            for e in E.stream_for(log, seat):
                assert not isinstance(e, LOG_ONLY)
                if isinstance(e, PRIVATE_TO_OWNER):
                    assert e.player == seat


def _hidden_from(game: Game, seat: int, at: int) -> list[tuple[int, int]]:
    """(target, slot) of opponents' cards that ``seat`` does not see now."""
    pub = public_view(game, at)
    out = []
    for t, s in enumerate(game.round.seats):
        if t == seat:
            continue
        for i, x in enumerate(s.row):
            if x is not None and (i + 1) not in pub.seats[t].revealed:
                out.append((t, i + 1))
    return out


def test_changing_an_opponents_hidden_card_changes_nothing_in_your_view() -> None:
    """STYLE habit 4 (R-S2, R-P2): an opponent's hidden card is not in your view at all."""
    compared = 0
    for seed in range(40):
        rng = random.Random(seed)
        game, _ = new_game(TAMALOU, 2 + seed % 4, f"hidden:{seed}")

        def probe(g: Game, action: A.Action, ev: list[E.Event], rng: random.Random = rng) -> None:
            nonlocal compared
            if rng.random() > 0.2 or g.round.phase == "over" or not g.round.pile:
                return
            seat = rng.randrange(g.players)
            hidden = _hidden_from(g, seat, g.now)
            if not hidden:
                return
            target, slot = rng.choice(hidden)
            looks = [s.look for s in g.round.seats]
            before = view(g, seat).model_dump()
            row = g.round.seats[target].row
            # swap the hidden card with the pile's bottom card: the deck stays whole
            row[slot - 1], g.round.pile[0] = g.round.pile[0], row[slot - 1]
            after = view(g, seat).model_dump()
            row[slot - 1], g.round.pile[0] = g.round.pile[0], row[slot - 1]
            assert [s.look for s in g.round.seats] == looks
            assert before == after, (seat, target, slot)
            compared += 1

        play_random_round(game, rng, probe)
    assert compared > 200


def test_every_listed_action_is_accepted() -> None:
    """R-T, R-D: every action that legal_actions lists is accepted by apply (on a copy)."""
    import copy

    tried = 0
    for seed in range(25):
        rng = random.Random(seed)
        game, _ = new_game(TAMALOU, 2 + seed % 4, f"listed:{seed}")

        def probe(g: Game, action: A.Action, ev: list[E.Event], rng: random.Random = rng) -> None:
            nonlocal tried
            if rng.random() > 0.15 or g.over:
                return
            due = next_deadline(g)
            if due is not None and due <= g.now:
                return
            for p in range(g.players):
                for a in legal_actions(g, p):
                    apply(copy.deepcopy(g), a)
                    tried += 1

        play_random_round(game, rng, probe)
    assert tried > 500
