"""What one player may know (``view``) and what the table shows (``public_view``).

The bot renders only these; the AI players see only ``view`` and their event stream.
T-S5: a hand only to its owner; the dog to all when shown (Petite/Garde) and at the end;
the écart only to the taker (its trumps to all); the called King's partner to nobody but
themselves until the called card is played (T-5.3). Played tricks are public.
"""

from __future__ import annotations

from pydantic import BaseModel

from tamalou.games.tarot.cards import code, sort_key
from tamalou.games.tarot.engine import (
    callable_cards,
    discardable,
    highest_bid,
    legal_actions,
    next_deadline,
    playable,
    poignee_options,
    warning_at,
)
from tamalou.games.tarot.rules import CONTRACTS
from tamalou.games.tarot.state import Game


class SeatView(BaseModel):
    seat: int
    is_ai: bool
    away: bool
    timeouts: int
    cards: int  # how many cards in hand
    bid: int | None  # None: has not spoken
    poignee: int  # declared level (0 none)
    poignee_cards: list[str]
    tricks: int  # tricks taken so far
    score: int  # match score so far


class TrickView(BaseModel):
    trick_no: int
    leader: int
    plays: list[tuple[int, str]]  # (seat, card) in play order
    winner: int | None  # None while in progress


class DealEndView(BaseModel):
    deal_no: int
    played_no: int
    taker: int
    contract: str
    partner: int | None
    called: str | None
    dog: list[str]
    ecart: list[str]
    attack_points: float
    defence_points: float
    oudlers: int
    needed: int
    won: bool
    margin: int
    petit_au_bout: int
    poignees: list[int]
    chelem: int
    per_defender: int
    scores: list[int]


class PublicView(BaseModel):
    deal_no: int
    played_deals: int  # T-M1: counted deals so far
    deals_in_match: int
    phase: str  # bid, call, ecart, chelem, play, over
    dealer: int
    current: int | None
    deadline: int | None  # when the clock next acts
    warning_at: int | None  # T-K2: the turn's last seconds start
    warning: bool
    seats: list[SeatView]
    highest_bid: int
    taker: int | None
    contract: str | None
    called: str | None  # T-5.1
    partner: int | None  # T-5.3: once the called card is played (== taker: alone)
    dog: list[str]  # T-B4: shown for Petite/Garde (empty otherwise, until the end)
    ecart_size: int
    ecart_trumps: list[str]  # T-B5: trumps in the écart are shown to all
    chelem: bool  # T-A1: announced
    trick: TrickView | None  # the trick in progress
    tricks: list[TrickView]  # the finished tricks of this deal
    match_over: bool
    winners: list[int]
    last_deal: DealEndView | None


class PlayerView(BaseModel):
    seat: int
    public: PublicView
    hand: list[str]  # sorted: suits ♠ ♥ ♦ ♣, trumps, the Excuse
    ecart: list[str]  # the taker's own écart, empty for the others
    partner: int | None  # who this seat knows to be the taker's partner
    i_am_partner: bool
    legal: list[str]  # the kinds of action this player may take now
    bids: list[int]  # the contracts this player may bid now (0 pass)
    callable: list[str]  # T-5.1
    discardable: list[str]  # T-B5: the cards that may go into the écart now
    playable: list[str]  # T-P: the cards this player may play now
    poignees: list[list[str]]  # T-A2: one way to show each level reached, now


def _codes(cards: list[int]) -> list[str]:
    return [code(c) for c in cards]


def _last_deal(game: Game) -> DealEndView | None:
    if not game.history:
        return None
    h = game.history[-1]
    return DealEndView(
        deal_no=h.deal_no,
        played_no=h.played_no,
        taker=h.taker,
        contract=CONTRACTS[h.contract],
        partner=h.partner,
        called=code(h.called) if h.called is not None else None,
        dog=_codes(h.dog),
        ecart=_codes(h.ecart),
        attack_points=h.attack_hp / 2,
        defence_points=h.defence_hp / 2,
        oudlers=h.oudlers,
        needed=h.needed,
        won=h.won,
        margin=h.margin,
        petit_au_bout=h.petit_au_bout,
        poignees=h.poignees,
        chelem=h.chelem,
        per_defender=h.per_defender,
        scores=h.scores,
    )


def _public_partner(game: Game) -> int | None:
    d = game.deal
    if d.called is None:
        return None
    if d.partner_known and any(d.called in t.cards for t in d.tricks):
        return d.partner if d.partner is not None else d.taker
    if d.dog_shown and d.called in d.dog:
        return d.taker  # the called card was seen in the dog: the taker is alone
    return None


def public_view(game: Game, at: int | None = None) -> PublicView:
    at = game.now if at is None else at
    d = game.deal
    over = d.phase == "over"
    tricks_taken = [0] * game.players
    finished = [t for t in d.tricks if t.winner >= 0]
    for t in finished:
        tricks_taken[t.winner] += 1
    seats = [
        SeatView(
            seat=i,
            is_ai=s.is_ai,
            away=s.away,
            timeouts=s.timeouts,
            cards=len(s.hand),
            bid=s.bid,
            poignee=s.poignee,
            poignee_cards=_codes(s.poignee_cards),
            tricks=tricks_taken[i],
            score=game.cumulative[i],
        )
        for i, s in enumerate(d.seats)
    ]
    views = [
        TrickView(
            trick_no=k + 1,
            leader=t.leader,
            plays=[(p, code(c)) for p, c in zip(t.players, t.cards, strict=True)],
            winner=t.winner if t.winner >= 0 else None,
        )
        for k, t in enumerate(d.tricks)
    ]
    in_progress = views[-1] if views and views[-1].winner is None else None
    playing = d.phase == "play"
    warning = warning_at(game)
    taken = d.taker >= 0
    return PublicView(
        deal_no=d.deal_no,
        played_deals=len(game.history),
        deals_in_match=game.rules.deals_in_match(game.players),
        phase=d.phase,
        dealer=d.dealer,
        current=None if over else d.current,
        deadline=next_deadline(game),
        warning_at=warning,
        warning=warning is not None and at >= warning,
        seats=seats,
        highest_bid=highest_bid(d),
        taker=d.taker if taken else None,
        contract=CONTRACTS[d.contract] if taken else None,
        called=code(d.called) if d.called is not None else None,
        partner=_public_partner(game),
        dog=_codes(d.dog) if d.dog_shown or (over and taken) else [],
        ecart_size=len(d.ecart),
        ecart_trumps=[code(c) for c in sorted(d.ecart) if c >= 56] if playing or over else [],
        chelem=d.chelem,
        trick=in_progress,
        tricks=[v for v in views if v.winner is not None],
        match_over=game.over,
        winners=game.winners,
        last_deal=_last_deal(game) if over or game.over else None,
    )


def view(game: Game, seat: int, at: int | None = None) -> PlayerView:
    """Everything ``seat`` may know now, and nothing else."""
    at = game.now if at is None else at
    d = game.deal
    pub = public_view(game, at)
    me = d.seats[seat]
    i_am_partner = d.partner == seat
    partner = pub.partner
    if partner is None and i_am_partner:
        partner = seat
    if partner is None and seat == d.taker and d.partner_known:
        partner = seat  # the taker holds the called card: alone, and knows it
    mine = d.current == seat and d.phase not in ("over",)
    ecart_open = mine and d.phase == "ecart"
    return PlayerView(
        seat=seat,
        public=pub,
        hand=_codes(sorted(me.hand, key=sort_key)),
        ecart=_codes(d.ecart) if seat == d.taker else [],
        partner=partner,
        i_am_partner=i_am_partner,
        legal=sorted({a.kind for a in legal_actions(game, seat, at)}),
        bids=[0, *range(highest_bid(d) + 1, 5)] if mine and d.phase == "bid" else [],
        callable=_codes(callable_cards(me.hand)) if mine and d.phase == "call" else [],
        discardable=_codes(discardable(d)) if ecart_open else [],
        playable=_codes(playable(game, seat)) if mine and d.phase == "play" else [],
        poignees=[_codes(list(cs)) for cs in poignee_options(game, seat)],
    )
