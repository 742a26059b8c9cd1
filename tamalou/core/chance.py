"""Seeded chance, one generator per chance event.

Each chance event (a deal, a reshuffle) seeds its own ``random.Random`` from the match seed
and a label, so a state serialises as plain data and a game replays exactly from its seed
and its actions. The global ``random`` is never used.
"""

from __future__ import annotations

import random


def rng_for(seed: str, label: str) -> random.Random:
    """The generator of one chance event: ``rng_for("abc:2", "deal")``."""
    return random.Random(f"{seed}:{label}")


def shuffled(cards: list[int], seed: str, label: str) -> list[int]:
    """A shuffled copy of ``cards`` for the chance event ``label``."""
    deck = list(cards)
    rng_for(seed, label).shuffle(deck)
    return deck
