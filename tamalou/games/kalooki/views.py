"""What one player may know (``view``) and what the table shows (``public_view``), K-S4.

Public: hand sizes, melds, calls used, the discard top and sizes of both piles. Private: the
player's own hand (the cards drawn from the pile and a call's penalty card included).
Cards are given as ids (duplicates differ, K-C2; actions name ids) and as codes for text.
"""

from __future__ import annotations

from pydantic import BaseModel

from tamalou.core import cards
from tamalou.games.kalooki.engine import (
    call_refusal,
    contract,
    legal_actions,
    next_deadline,
    suggest_lay_down,
)
from tamalou.games.kalooki.state import Game


class SeatView(BaseModel):
    seat: int
    hand_size: int
    laid_down: bool
    calls: int  # allowed calls this round (K-CL5)
    away: bool
    short: bool
    is_ai: bool
    score: float  # match score so far


class MeldView(BaseModel):
    index: int  # what LayOff.meld / ShiftJoker.meld name
    owner: int
    kind: int  # 3 set, 4 run
    cards: list[int]
    codes: list[str]
    low: int  # a run: position of its first card (1 ace low .. 14 ace high); a set: 0
    fixed: list[int]  # K-L7: jokers shifted once


class RoundEndView(BaseModel):
    round_no: int
    reason: str
    out: int | None
    doubled: bool
    hands: list[list[str]]
    totals: list[float]
    scores: list[float]
    places: list[int]


class PublicView(BaseModel):
    round_no: int
    deal_no: int
    rounds: int
    contract: list[int]
    cards_dealt: int
    phase: str  # play, over
    match_over: bool
    winners: list[int]
    dealer: int
    seats: list[SeatView]
    melds: list[MeldView]
    current: int | None
    stage: str | None  # draw, play
    pending_call: int | None  # the caller waiting for the current player's answer
    discard_top: int | None
    discard_top_code: str | None
    discard_live: bool  # K-CL2: it may be taken or called
    discard_size: int
    pile_size: int
    reshuffled: bool
    draw_at: int | None  # K-K2: the current player may draw from then on
    deadline: int | None
    turn_deadline: int | None
    fuse_at: int | None
    fuse: bool
    call_open: bool  # somebody may call now
    last_round: RoundEndView | None


class PlayerView(BaseModel):
    seat: int
    public: PublicView
    hand: list[int]
    hand_codes: list[str]
    drawn: int | None  # the card drawn this turn (own turn only)
    can_call: bool
    call_refusal: str | None
    suggested_lay_down: list[tuple[int, list[int]]] | None  # the helper's contract, if any
    legal: list[str]  # the kinds of action this player may take now


def _last_round(game: Game) -> RoundEndView | None:
    if not game.history:
        return None
    h = game.history[-1]
    return RoundEndView(
        round_no=h.round_no,
        reason=h.reason,
        out=h.out,
        doubled=h.doubled,
        hands=[[cards.code(c) for c in hand] for hand in h.hands],
        totals=h.totals,
        scores=h.scores,
        places=h.places,
    )


def public_view(game: Game, at: int | None = None) -> PublicView:
    at = game.now if at is None else at
    r = game.round
    playing = r.phase == "play" and not game.over
    fuse_at = r.turn_deadline - game.rules.compiled.fuse_ms if playing else None
    top = r.discard[-1] if r.discard else None
    return PublicView(
        round_no=r.round_no,
        deal_no=r.deal_no,
        rounds=len(game.rules.rounds),
        contract=list(contract(game)),
        cards_dealt=game.rules.cards_for(r.round_no - 1),
        phase=r.phase,
        match_over=game.over,
        winners=game.winners,
        dealer=r.dealer,
        seats=[
            SeatView(
                seat=i,
                hand_size=len(s.hand),
                laid_down=s.laid_down,
                calls=s.calls,
                away=s.away,
                short=s.short,
                is_ai=s.is_ai,
                score=game.cumulative[i],
            )
            for i, s in enumerate(r.seats)
        ],
        melds=[
            MeldView(
                index=i,
                owner=m.owner,
                kind=m.kind,
                cards=list(m.cards),
                codes=[cards.code(c) for c in m.cards],
                low=m.low,
                fixed=list(m.fixed),
            )
            for i, m in enumerate(r.melds)
        ],
        current=r.current if playing else None,
        stage=r.stage if playing else None,
        pending_call=r.pending_call if playing else None,
        discard_top=top,
        discard_top_code=cards.code(top) if top is not None else None,
        discard_live=playing and r.live,
        discard_size=len(r.discard),
        pile_size=len(r.pile),
        reshuffled=r.reshuffles > 0,
        draw_at=r.draw_at if playing else None,
        deadline=next_deadline(game),
        turn_deadline=r.turn_deadline if playing else None,
        fuse_at=fuse_at,
        fuse=fuse_at is not None and at >= fuse_at,
        call_open=playing and any(call_refusal(game, p) is None for p in range(game.players)),
        last_round=_last_round(game) if r.phase == "over" or game.over else None,
    )


def view(game: Game, seat: int, at: int | None = None) -> PlayerView:
    """Everything ``seat`` may know now, and nothing else."""
    at = game.now if at is None else at
    r = game.round
    me = r.seats[seat]
    mine = r.phase == "play" and r.current == seat and r.stage == "play"
    refusal = call_refusal(game, seat)
    suggestion = None
    if mine and not me.laid_down:
        found = suggest_lay_down(me.hand, contract(game))
        if found is not None:
            suggestion = [(kind, list(c)) for kind, c in found]
    return PlayerView(
        seat=seat,
        public=public_view(game, at),
        hand=list(me.hand),
        hand_codes=[cards.code(c) for c in me.hand],
        drawn=r.drawn if mine else None,
        can_call=refusal is None,
        call_refusal=refusal,
        suggested_lay_down=suggestion,
        legal=sorted({a.kind for a in legal_actions(game, seat, at)}),
    )
