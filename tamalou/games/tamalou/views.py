"""What one player may know (``view``) and what the table shows (``public_view``).

The bot renders only these; the AI players see only ``view`` and their event stream.
Both take the time ``at`` because some cards are shown for a while only (peek, King look,
a failed call's reveal).
"""

from __future__ import annotations

from pydantic import BaseModel

from tamalou.core import cards
from tamalou.core.errors import IllegalAction
from tamalou.games.tamalou.engine import (
    can_take_discard,
    double_actions,
    doubles_refusal,
    fuse_start,
    legal_actions,
    next_deadline,
)
from tamalou.games.tamalou.rules import Power
from tamalou.games.tamalou.scoring import match_places
from tamalou.games.tamalou.state import FOREVER, Game, Phase, RoundState, Stage


class SeatView(BaseModel):
    seat: int
    slots: list[bool]  # slot i+1 holds a card (False: a hole after a double)
    revealed: dict[int, str]  # slot -> card code shown to everybody now
    frozen: bool
    away: bool
    short: bool
    misses: int
    blocked_until: int | None  # doubles refused until then; None: not blocked
    blocked_for_round: bool
    is_ai: bool
    score: float  # match score so far
    out: bool = False  # R-X16: eliminated from the match
    fines: float = 0  # R-X13 (cabo): points for missed doubles this round


class RoundEndView(BaseModel):
    round_no: int
    reason: str
    hands: list[list[str | None]]
    totals: list[float]
    places: list[int]
    scores: list[float]
    caller: int | None


class PublicView(BaseModel):
    round_no: int
    phase: Phase
    match_over: bool
    winners: list[int]
    match_places: list[int]  # R-M3: each seat's place by cumulative score; ties share
    seats: list[SeatView]
    current: int | None
    stage: Stage | None  # of the current player
    holding_from: str | None
    power: Power | None
    extra_turn: bool
    transmitted: Power | None
    discard_top: str | None
    discard_seq: int | None
    discard_doubleable: bool
    discard_takeable: (
        bool  # R-T2: the current player may take it (not a face card, not a Jack turn)
    )
    pile_size: int
    caller: int | None
    deadline: int | None  # when the clock next acts (turn end, peek end, ...)
    turn_deadline: int | None
    fuse_at: int | None  # R-K1: from then on the turn's last seconds are shown as a fuse
    fuse: bool  # the fuse is burning now
    doubles_paused_until: int | None  # R-D7: a Queen swap is shown; no double before then
    doubles_open: bool  # R-D1/R-D7: a double on the discard top may be tried now
    call_open: bool  # R-A1: the round has no caller yet and the play goes on
    last_round: RoundEndView | None
    rules: str = "tamalou"  # the preset's name (R-V)
    call_name: str = "Tamalou"  # what the call is shouted as
    looked: tuple[int, int] | None = None  # R-X3: the looked card a swap may now take
    power_must: bool = False  # R-X5: the offered power cannot be passed
    #: R-X12: doubled powers waiting, (owner, power), the one to use now last
    pending_powers: list[tuple[int, Power]] = []
    contre: int | None = None  # R-X9: the contre-caller
    window_until: int | None = None  # R-X11: the open-doubles window closes then
    window_seq: int | None = None  # R-X11: the discard card the window is open on
    claims: list[tuple[int, int, int]] = []  # R-X11: (player, target, target_slot) claims


class SlotView(BaseModel):
    slot: int
    present: bool
    card: str | None  # only while this player may see it


class PlayerView(BaseModel):
    seat: int
    public: PublicView
    row: list[SlotView]
    peeked: bool
    peek_until: int | None
    peek_open: bool = False  # R-X14: the peek slots stay shown until the first draw or call
    held: str | None
    look: tuple[int, int, str, int] | None  # target, slot, card, until (R-P3)
    #: other cards shown to this player for a while (R-X3 koubo): target, slot, card, until
    glimpses: list[tuple[int, int, str, int]] = []
    can_double: bool
    double_refusal: str | None
    legal: list[str]  # the kinds of action this player may take now


def _revealed(r: RoundState, seat: int, at: int) -> dict[int, str]:
    row = r.seats[seat].row
    return {
        slot: cards.code(card)
        for s, slot, card, until in r.reveals
        if s == seat and at < until and slot <= len(row) and row[slot - 1] == card
    }


def _last_round(game: Game) -> RoundEndView | None:
    if not game.history:
        return None
    h = game.history[-1]
    return RoundEndView(
        round_no=h.round_no,
        reason=h.reason,
        hands=[[cards.code(c) if c is not None else None for c in row] for row in h.hands],
        totals=h.totals,
        places=h.places,
        scores=h.scores,
        caller=h.caller,
    )


def public_view(game: Game, at: int | None = None) -> PublicView:
    at = game.now if at is None else at
    r = game.round
    over = r.phase == "over"
    playing = r.phase == "play"
    seats = [
        SeatView(
            seat=i,
            slots=[c is not None for c in s.row],
            revealed=_revealed(r, i, at) if not over else {},
            frozen=s.frozen,
            away=s.away,
            short=s.short,
            misses=s.misses,
            blocked_until=s.blocked_until if at < s.blocked_until < FOREVER else None,
            blocked_for_round=s.blocked_until >= FOREVER,
            is_ai=s.is_ai,
            score=game.cumulative[i],
            out=s.out,
            fines=s.fines,
        )
        for i, s in enumerate(r.seats)
    ]
    top = r.discard[-1] if r.discard else None
    rules = game.rules
    return PublicView(
        round_no=r.round_no,
        phase=r.phase,
        match_over=game.over,
        winners=game.winners,
        match_places=match_places(game.cumulative),
        seats=seats,
        current=r.current if playing else None,
        stage=r.stage if playing else None,
        holding_from=r.held_from if playing else None,
        power=r.power if playing and r.stage == "power" else None,
        extra_turn=r.extra and playing,
        transmitted=r.transmitted if playing else None,
        discard_top=cards.code(top) if top is not None else None,
        discard_seq=r.discard_seqs[-1] if r.discard else None,
        discard_doubleable=bool(r.discard) and not r.discard_spent[-1] and not over,
        discard_takeable=playing and r.stage == "start" and can_take_discard(game, r),
        pile_size=len(r.pile),
        caller=r.caller,
        deadline=next_deadline(game),
        turn_deadline=r.turn_deadline if playing else None,
        fuse_at=fuse_start(game) if playing else None,
        fuse=playing and at >= fuse_start(game),
        doubles_paused_until=r.no_double_until if at < r.no_double_until else None,
        doubles_open=(
            (bool(r.discard) and not r.discard_spent[-1]) or (playing and bool(r.window_until))
        )
        and r.phase in ("play", "final")
        and at >= r.no_double_until,
        call_open=playing and r.caller is None,
        last_round=_last_round(game) if over or game.over else None,
        rules=rules.name,
        call_name=rules.call_name,
        looked=r.looked if playing and r.stage == "power" else None,
        power_must=playing and r.stage == "power" and r.power_must,
        pending_powers=[(o, p) for o, p, _ in r.pending] if playing else [],
        contre=r.contre,
        window_until=r.window_until if playing and r.window_until else None,
        window_seq=r.window_seq if playing and r.window_until else None,
        claims=[(p, t, ts) for p, t, ts, _ in r.claims] if playing else [],
    )


def view(game: Game, seat: int, at: int | None = None) -> PlayerView:
    """Everything ``seat`` may know now, and nothing else."""
    if not 0 <= seat < game.players:
        raise IllegalAction("not_seated")  # never a negative index into the seats
    at = game.now if at is None else at
    r = game.round
    me = r.seats[seat]
    peeking = me.peek_until is not None and at < me.peek_until and r.phase == "peek"
    visible: dict[int, str] = {}
    if peeking or (me.peek_open and r.phase != "over"):  # R-S2, R-X14's long peek
        for s, c in me.peeked:
            if s <= len(me.row) and me.row[s - 1] == c:  # not moved since (a swap, a double)
                visible[s] = cards.code(c)
    look = None
    if me.look is not None:
        target, slot, card, until = me.look
        row = r.seats[target].row
        if at < until and slot <= len(row) and row[slot - 1] == card:
            look = (target, slot, cards.code(card), until)
            if target == seat:
                visible[slot] = cards.code(card)
    glimpses = []
    for target, slot, card, until in me.glimpses:
        row = r.seats[target].row
        if at < until and slot <= len(row) and row[slot - 1] == card:
            glimpses.append((target, slot, cards.code(card), until))
            if target == seat:
                visible[slot] = cards.code(card)
    pub = public_view(game, at)
    visible.update(pub.seats[seat].revealed)
    row_view = [
        SlotView(
            slot=i + 1, present=c is not None, card=visible.get(i + 1) if c is not None else None
        )
        for i, c in enumerate(me.row)
    ]
    holding = r.phase == "play" and r.current == seat and r.held is not None
    refusal = doubles_refusal(game, seat, at)
    return PlayerView(
        seat=seat,
        public=pub,
        row=row_view,
        peeked=me.peek_until is not None,
        peek_until=me.peek_until if peeking else None,
        peek_open=me.peek_open and r.phase != "over",
        held=cards.code(r.held) if holding and r.held is not None else None,
        look=look,
        glimpses=glimpses,
        can_double=bool(double_actions(game, seat, at)),
        double_refusal=refusal.reason if refusal else None,
        legal=sorted({a.kind for a in legal_actions(game, seat, at)}),
    )
