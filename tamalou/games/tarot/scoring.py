"""Counting a deal (T-E, T-P7, T-P8): camps, points, margin, bonuses, and the seats' scores.

Pure functions over the finished tricks; the engine calls :func:`score_deal` once per deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tamalou.games.tarot.cards import EXCUSE, IS_OUDLER, PETIT, POINTS
from tamalou.games.tarot.rules import GARDE_CONTRE, GARDE_SANS, Rules
from tamalou.games.tarot.state import Trick

ATTACK, DEFENCE = 0, 1


@dataclass(frozen=True, slots=True)
class DealScore:
    attack_hp: int
    defence_hp: int
    oudlers: int
    needed: int  # points (T-E2)
    won: bool
    margin: int  # d of T-E2
    petit_au_bout: int  # +1 attack, -1 defence, 0
    poignees: int  # H of T-E4
    chelem: int  # K of T-E4
    per_defender: int  # c of T-E4
    scores: tuple[int, ...]
    tricks: tuple[int, int]  # tricks won by attack, defence (after T-P8)


def final_winners(tricks: Sequence[Trick], camp: Sequence[int]) -> list[int]:
    """Each trick's winner after T-P8: an Excuse led or played to the last trick wins it when
    its player's camp has won every earlier trick."""
    winners = [t.winner for t in tricks]
    if not tricks:
        return winners
    last = tricks[-1]
    if EXCUSE in last.cards:
        x = last.players[last.cards.index(EXCUSE)]
        if all(camp[w] == camp[x] for w in winners[:-1]):
            winners[-1] = x
    return winners


@dataclass(frozen=True, slots=True)
class CampCount:
    """What each camp took (index ATTACK, DEFENCE), after T-P7/T-P8 and the dog (T-B4)."""

    hp: tuple[int, int]
    oudlers: tuple[int, int]
    tricks: tuple[int, int]
    winners: tuple[int, ...]  # each trick's winner after T-P8
    petit_au_bout: int  # T-E3: +1 attack, -1 defence, 0


def camps(players: int, taker: int, partner: int | None) -> list[int]:
    camp = [DEFENCE] * players
    camp[taker] = ATTACK
    if partner is not None:
        camp[partner] = ATTACK
    return camp


def count_camps(
    camp: Sequence[int],
    contract: int,
    tricks: Sequence[Trick],
    dog: Sequence[int],
    ecart: Sequence[int],
) -> CampCount:
    hp = [0, 0]
    oudlers = [0, 0]
    won_tricks = [0, 0]
    winners = final_winners(tricks, camp)
    last = len(tricks) - 1
    for i, (t, w) in enumerate(zip(tricks, winners, strict=True)):
        wc = camp[w]
        won_tricks[wc] += 1
        for p, c in zip(t.players, t.cards, strict=True):
            to = wc
            if c == EXCUSE and w != p:
                xc = camp[p]
                if i == last:
                    to = 1 - xc  # T-P8: lost, to the other camp, no exchange
                else:
                    to = xc  # T-P7: kept; a half point given if the other camp won the trick
                    if wc != xc:
                        hp[xc] -= 1
                        hp[wc] += 1
            hp[to] += POINTS[c]
            oudlers[to] += IS_OUDLER[c]
    aside = list(ecart) + (list(dog) if contract == GARDE_SANS else [])
    if contract == GARDE_CONTRE:
        hp[DEFENCE] += sum(POINTS[c] for c in dog)
        oudlers[DEFENCE] += sum(IS_OUDLER[c] for c in dog)
    hp[ATTACK] += sum(POINTS[c] for c in aside)
    oudlers[ATTACK] += sum(IS_OUDLER[c] for c in aside)

    pab = 0
    if tricks:
        judged = last
        lt = tricks[last]
        if EXCUSE in lt.cards and winners[last] == lt.players[lt.cards.index(EXCUSE)]:
            judged = last - 1  # the Excuse won the last trick: the one before is judged
        if judged >= 0 and PETIT in tricks[judged].cards:
            pab = 1 if camp[winners[judged]] == ATTACK else -1
    return CampCount(
        (hp[0], hp[1]),
        (oudlers[0], oudlers[1]),
        (won_tricks[0], won_tricks[1]),
        tuple(winners),
        pab,
    )


def chelem_bonus(rules: Rules, tricks: tuple[int, int], announced: bool) -> int:
    """K of T-E4: a camp that wins every trick (an opponent's Excuse does not break it)."""
    made, unannounced, failed = rules.chelem_points
    k = 0
    if tricks[DEFENCE] == 0:
        k = made if announced else unannounced
    elif announced:
        k = -failed
    if tricks[ATTACK] == 0:
        k -= failed
    return k


@dataclass(frozen=True, slots=True)
class Outcome:
    needed: int
    won: bool
    margin: int
    poignees: int
    per_defender: int
    scores: tuple[int, ...]


def deal_outcome(
    rules: Rules,
    camp: Sequence[int],
    taker: int,
    partner: int | None,
    contract: int,
    attack_hp: int,
    oudlers: int,
    pab: int,
    poignees: Sequence[int],
    chelem: int,
) -> Outcome:
    """T-E2, T-E4, T-E5: the margin, the per-defender score c, and every seat's score."""
    players = len(camp)
    needed = rules.needed[oudlers]
    diff = attack_hp - 2 * needed
    won = diff >= 0  # equal: won by 0
    margin = (abs(diff) + 1) // 2  # the half point goes to the winner
    s = 1 if won else -1
    bonus = sum(rules.poignee_bonus[level - 1] for level in poignees if level)
    pab_points = pab * rules.petit_au_bout_points if rules.petit_au_bout else 0
    mult = rules.multiplier(contract)
    c = (s * (rules.base + margin) + pab_points) * mult + s * bonus + chelem
    scores = [-c if camp[seat] == DEFENCE else 0 for seat in range(players)]
    if partner is None or partner == taker:
        scores[taker] = (rules.alone_share if players == 5 else rules.taker_share[players]) * c
    else:
        scores[taker] = rules.taker_share[players] * c
        scores[partner] = rules.partner_share * c
    return Outcome(needed, won, margin, bonus, c, tuple(scores))


def score_deal(
    rules: Rules,
    players: int,
    taker: int,
    partner: int | None,
    contract: int,
    tricks: Sequence[Trick],
    dog: Sequence[int],
    ecart: Sequence[int],
    poignees: Sequence[int],
    chelem_announced: bool,
) -> DealScore:
    camp = camps(players, taker, partner)
    count = count_camps(camp, contract, tricks, dog, ecart)
    k = chelem_bonus(rules, count.tricks, chelem_announced)
    pab = count.petit_au_bout if rules.petit_au_bout else 0
    out = deal_outcome(
        rules,
        camp,
        taker,
        partner,
        contract,
        count.hp[ATTACK],
        count.oudlers[ATTACK],
        pab,
        poignees,
        k,
    )
    return DealScore(
        attack_hp=count.hp[ATTACK],
        defence_hp=count.hp[DEFENCE],
        oudlers=count.oudlers[ATTACK],
        needed=out.needed,
        won=out.won,
        margin=out.margin,
        petit_au_bout=pab,
        poignees=out.poignees,
        chelem=k,
        per_defender=out.per_defender,
        scores=out.scores,
        tricks=count.tricks,
    )


def places(totals: Sequence[float]) -> list[int]:
    """1 = highest; ties share the place (T-M3)."""
    return [1 + sum(1 for o in totals if o > t) for t in totals]
