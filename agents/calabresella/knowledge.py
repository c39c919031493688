"""Card knowledge for Calabresella agents: what is out of play, which cards are masters, how a
trick stands, and a hand's strength for bidding. Pure functions over bitmasks, shared by the
heuristic, the rollout policy and the search agent. The card tables (``SUIT``, ``STRENGTH``,
``SUIT_MASK``, ``THIRDS``) and the trick winner are the engine kernel's, re-exported, never
recomputed; ``BY_STRENGTH`` and ``ABOVE`` are agent tables derived from them.

Must not import torch or training/.
"""

from __future__ import annotations

from mazzo.envs.calabresella.kernel import (
    STRENGTH,
    SUIT,
    SUIT_MASK,
    THIRDS,
    pile_thirds,
    trick_winner,
)

__all__ = [
    "ABOVE",
    "BY_STRENGTH",
    "STRENGTH",
    "SUIT",
    "SUIT_MASK",
    "THIRDS",
    "highest",
    "lowest",
    "masters",
    "sure_tricks",
    "trick_winner",
]

# BY_STRENGTH[s]: the cards of suit s from the strongest (3) to the weakest (4).
BY_STRENGTH = tuple(
    tuple(sorted((c for c in range(40) if SUIT[c] == s), key=lambda c: -STRENGTH[c]))
    for s in range(4)
)
# ABOVE[c]: bitmask of the cards of c's suit that beat c.
ABOVE = tuple(
    sum(1 << d for d in range(40) if SUIT[d] == SUIT[c] and STRENGTH[d] > STRENGTH[c])
    for c in range(40)
)


def masters(hand: int, gone: int) -> int:
    """The cards of ``hand`` that no unseen card can beat (every stronger card of the suit is
    in ``hand`` or ``gone``)."""
    out = 0
    safe = hand | gone
    m = hand
    while m:
        low = m & -m
        c = low.bit_length() - 1
        if ABOVE[c] & ~safe == 0:
            out |= low
        m ^= low
    return out


def sure_tricks(hand: int, gone: int = 0) -> int:
    """Tricks the hand wins by cashing its masters suit by suit (top sequences from the 3)."""
    total = 0
    for s in range(4):
        count = 0
        for c in BY_STRENGTH[s]:
            if (hand >> c) & 1:
                count += 1
            elif not (gone >> c) & 1:
                break
        total += count
    return total


def highest(cards: int) -> int:
    """The strongest card of ``cards`` (by trick strength; any suit); -1 if empty."""
    best, best_key = -1, -1
    m = cards
    while m:
        low = m & -m
        c = low.bit_length() - 1
        key = STRENGTH[c] * 4 + THIRDS[c]
        if key > best_key:
            best, best_key = c, key
        m ^= low
    return best


def lowest(cards: int, prefer_cheap: bool = True) -> int:
    """The cheapest card of ``cards``: fewest thirds, then weakest; -1 if empty."""
    best, best_key = -1, 1 << 30
    m = cards
    while m:
        low = m & -m
        c = low.bit_length() - 1
        key = (THIRDS[c] * 16 + STRENGTH[c]) if prefer_cheap else STRENGTH[c]
        if key < best_key:
            best, best_key = c, key
        m ^= low
    return best


def trick_thirds(trick: tuple[int, ...] | list[int]) -> int:
    """Thirds in the cards of a trick."""
    return sum(THIRDS[c] for c in trick)


def suit_length(hand: int, suit: int) -> int:
    """Number of cards of ``suit`` in ``hand``."""
    return (hand & SUIT_MASK[suit]).bit_count()


def hand_thirds(hand: int) -> int:
    """Thirds held in a hand (the kernel's ``pile_thirds``)."""
    return pile_thirds(hand)
