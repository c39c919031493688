"""Exact uniform sampling of hidden-card assignments under slot constraints (game-agnostic).

A *world* assigns every unknown card to a slot (another player's hand, the unseen monte or
set-aside pile, ...) such that each slot gets exactly its capacity and each card only goes to a
slot it is allowed in (a void shown excludes a suit; a card seen passing to a player is pinned
to his hand or his discards). ``SlotSampler`` draws such worlds **uniformly**:

1. cards with the same set of allowed slots form a *group*; groups allowed everywhere merge into
   one free group;
2. the number of worlds is a sum over per-group count vectors ``k[g][j]`` of
   ``prod_g multinomial(n_g; k[g])`` times ``multinomial(free; remaining capacities)``; a
   memoised recursion over the restricted groups counts it exactly (Python integers);
3. sampling walks the same recursion, choosing each group's count vector with probability
   proportional to the number of worlds it leads to, then shuffles the cards within each group.

So every consistent world has the same probability, which the tests check against full
enumeration. Must not import torch or training/.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from math import factorial

import numpy as np

__all__ = ["NoConsistentWorld", "SlotSampler"]


class NoConsistentWorld(ValueError):
    """The constraints admit no world (a bug in the caller's bookkeeping, or bad input)."""


def _multinomial(counts: Sequence[int]) -> int:
    out = factorial(sum(counts))
    for k in counts:
        out //= factorial(k)
    return out


def _compositions(n: int, caps: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Vectors k with sum n and 0 <= k[i] <= caps[i]."""
    if len(caps) == 1:
        if n <= caps[0]:
            yield (n,)
        return
    rest_cap = sum(caps[1:])
    for first in range(max(0, n - rest_cap), min(n, caps[0]) + 1):
        for tail in _compositions(n - first, caps[1:]):
            yield (first, *tail)


class SlotSampler:
    """Uniform sampler over assignments of cards to slots.

    Args:
        capacities: number of cards each slot must receive.
        groups: ``(cards, allowed)`` pairs: a list of card ids and a bitmask over slots.
            A card may appear in one group only.

    Raises:
        NoConsistentWorld: capacities do not add up to the cards, or no assignment exists.
    """

    def __init__(self, capacities: Sequence[int], groups: Sequence[tuple[Sequence[int], int]]):
        self.capacities = tuple(capacities)
        n_slots = len(self.capacities)
        everywhere = (1 << n_slots) - 1
        merged: dict[int, list[int]] = {}
        for cards, allowed in groups:
            if cards:
                merged.setdefault(allowed & everywhere, []).extend(cards)
        if 0 in merged:
            raise NoConsistentWorld(f"cards {merged[0]} are allowed in no slot")
        self._free = merged.pop(everywhere, [])
        self._groups = [(cards, allowed) for allowed, cards in sorted(merged.items())]
        n_cards = len(self._free) + sum(len(c) for c, _ in self._groups)
        if n_cards != sum(self.capacities):
            raise NoConsistentWorld(
                f"{n_cards} unknown cards but the slots hold {sum(self.capacities)}"
            )
        self._slots = [
            [j for j in range(n_slots) if allowed >> j & 1] for _, allowed in self._groups
        ]
        self._ways = lru_cache(maxsize=None)(self._ways_uncached)
        if self.count() == 0:
            raise NoConsistentWorld("no assignment of the unknown cards meets the constraints")

    def count(self) -> int:
        """The number of consistent worlds."""
        return self._ways(0, self.capacities)

    def _ways_uncached(self, i: int, caps: tuple[int, ...]) -> int:
        if i == len(self._groups):
            return _multinomial(caps)  # the free cards fill what is left, in any order
        cards, _ = self._groups[i]
        slots = self._slots[i]
        total = 0
        for k in _compositions(len(cards), [caps[j] for j in slots]):
            rest = list(caps)
            for j, kj in zip(slots, k, strict=True):
                rest[j] -= kj
            total += _multinomial(k) * self._ways(i + 1, tuple(rest))
        return total

    def sample(self, rng: np.random.Generator) -> list[int]:
        """One world, uniformly at random: a bitmask of cards per slot."""
        out = [0] * len(self.capacities)
        caps = self.capacities
        for i, (cards, _) in enumerate(self._groups):
            slots = self._slots[i]
            options, weights = [], []
            for k in _compositions(len(cards), [caps[j] for j in slots]):
                rest = list(caps)
                for j, kj in zip(slots, k, strict=True):
                    rest[j] -= kj
                w = _multinomial(k) * self._ways(i + 1, tuple(rest))
                if w:
                    options.append((k, tuple(rest)))
                    weights.append(w)
            k, caps = options[_weighted_index(rng, weights)]
            order = [cards[int(x)] for x in rng.permutation(len(cards))]
            pos = 0
            for j, kj in zip(slots, k, strict=True):
                for c in order[pos : pos + kj]:
                    out[j] |= 1 << c
                pos += kj
        free = [self._free[int(x)] for x in rng.permutation(len(self._free))]
        pos = 0
        for j, kj in enumerate(caps):
            for c in free[pos : pos + kj]:
                out[j] |= 1 << c
            pos += kj
        return out


def _weighted_index(rng: np.random.Generator, weights: list[int]) -> int:
    """Index drawn with probability proportional to (possibly huge) integer weights, exactly."""
    total = sum(weights)
    # draw an integer uniformly in [0, total) from 62-bit chunks (exact for big totals)
    bits = total.bit_length() + 64
    x = 0
    for _ in range((bits + 61) // 62):
        x = (x << 62) | int(rng.integers(0, 1 << 62))
    x %= total  # bias at most total / 2**bits < 2**-64
    for i, w in enumerate(weights):
        if x < w:
            return i
        x -= w
    raise AssertionError("unreachable")
