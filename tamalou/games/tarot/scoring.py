"""Counting a deal (T-E, T-P7, T-P8): camps, points, margin, bonuses, and the seats' scores.

Pure functions over the finished tricks; the engine calls :func:`score_deal` once per deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tamalou.games.tarot.cards import EXCUSE, IS_OUDLER, PETIT, POINTS, TOTAL_HP
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
    camp = [DEFENCE] * players
    camp[taker] = ATTACK
    if partner is not None:
        camp[partner] = ATTACK
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
    assert hp[ATTACK] + hp[DEFENCE] == TOTAL_HP, hp

    o = oudlers[ATTACK]
    needed = rules.needed[o]
    diff = hp[ATTACK] - 2 * needed
    won = diff >= 0
    margin = (abs(diff) + 1) // 2  # T-E2: the half point goes to the winner
    s = 1 if won else -1

    pab = 0  # T-E3
    if rules.petit_au_bout and tricks:
        judged = last
        if (
            EXCUSE in tricks[last].cards
            and winners[last] == tricks[last].players[tricks[last].cards.index(EXCUSE)]
        ):
            judged = last - 1  # the Excuse won the last trick: the one before is judged
        if judged >= 0 and PETIT in tricks[judged].cards:
            pab = 1 if camp[winners[judged]] == ATTACK else -1

    bonus = sum(rules.poignee_bonus[level - 1] for level in poignees if level)
    made, unannounced, failed = rules.chelem_points
    k = 0
    if won_tricks[DEFENCE] == 0:
        k = made if chelem_announced else unannounced
    elif chelem_announced:
        k = -failed
    if won_tricks[ATTACK] == 0:
        k -= failed
    mult = rules.multiplier(contract)
    c = (s * (rules.base + margin) + pab * rules.petit_au_bout_points) * mult + s * bonus + k

    scores = [0] * players
    for seat in range(players):
        if camp[seat] == DEFENCE:
            scores[seat] = -c
    if partner is None or partner == taker:
        share = rules.alone_share if players == 5 else rules.taker_share[players]
        scores[taker] = share * c
    else:
        scores[taker] = rules.taker_share[players] * c
        scores[partner] = rules.partner_share * c
    assert sum(scores) == 0, scores
    return DealScore(
        attack_hp=hp[ATTACK],
        defence_hp=hp[DEFENCE],
        oudlers=o,
        needed=needed,
        won=won,
        margin=margin,
        petit_au_bout=pab,
        poignees=bonus,
        chelem=k,
        per_defender=c,
        scores=tuple(scores),
        tricks=(won_tricks[ATTACK], won_tricks[DEFENCE]),
    )


def places(totals: Sequence[float]) -> list[int]:
    """1 = highest; ties share the place (T-M3)."""
    return [1 + sum(1 for o in totals if o > t) for t in totals]
