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

Slots that every group allows together or not at all (say the discards of two players and the
rest of a talon, when the same cards may lie in any of them) are interchangeable: they are
merged into one slot of their total capacity before the recursion, which multiplies the count
by the multinomial of their capacities, and a sampled merged slot is split among them by a
uniform shuffle. Within the recursion, groups allowed in fewer slots come first, which keeps
the memo small, and the last group is counted together with the free cards in closed form
(Vandermonde's identity). None of this changes any world's probability.

So every consistent world has the same probability, which the tests check against full
enumeration. Must not import torch or training/.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from math import comb, factorial

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
        n_cards = sum(len(c) for c in merged.values())
        if n_cards != sum(self.capacities):
            raise NoConsistentWorld(
                f"{n_cards} unknown cards but the slots hold {sum(self.capacities)}"
            )
        # interchangeable slots: the same set of groups allows them
        signature: dict[tuple[int, ...], list[int]] = {}
        for j in range(n_slots):
            key = tuple(sorted(a for a in merged if a >> j & 1))
            signature.setdefault(key, []).append(j)
        self._classes = list(signature.values())
        self._caps = tuple(sum(self.capacities[j] for j in m) for m in self._classes)
        self._split = 1
        for m in self._classes:
            self._split *= _multinomial([self.capacities[j] for j in m])
        class_of = {j: i for i, m in enumerate(self._classes) for j in m}
        everywhere_c = (1 << len(self._classes)) - 1
        by_class: dict[int, list[int]] = {}
        for allowed, cards in merged.items():
            mask = 0
            for j in range(n_slots):
                if allowed >> j & 1:
                    mask |= 1 << class_of[j]
            by_class.setdefault(mask, []).extend(cards)
        # per-slot view of the constraints (the tests enumerate worlds from it)
        self._free = merged.pop(everywhere, [])
        self._groups = [(cards, allowed) for allowed, cards in sorted(merged.items())]
        # the recursion works on the merged slots
        self._cfree = by_class.pop(everywhere_c, [])
        self._cgroups = sorted(
            ((cards, allowed) for allowed, cards in by_class.items()),
            key=lambda g: (g[1].bit_count(), len(g[0]), g[1]),
        )
        self._slots = [
            [j for j in range(len(self._classes)) if allowed >> j & 1]
            for _, allowed in self._cgroups
        ]
        self._ways = lru_cache(maxsize=None)(self._ways_uncached)
        self._options = lru_cache(maxsize=None)(self._options_uncached)
        if self.count() == 0:
            raise NoConsistentWorld("no assignment of the unknown cards meets the constraints")

    def count(self) -> int:
        """The number of consistent worlds."""
        return self._ways(0, self._caps) * self._split

    def _ways_uncached(self, i: int, caps: tuple[int, ...]) -> int:
        if i == len(self._cgroups):
            return _multinomial(caps)  # the free cards fill what is left, in any order
        cards, _ = self._cgroups[i]
        if i == len(self._cgroups) - 1:  # the last group and the free cards, in closed form
            return _last_group_ways(len(cards), [caps[j] for j in self._slots[i]], caps)
        slots = self._slots[i]
        total = 0
        for k in _compositions(len(cards), [caps[j] for j in slots]):
            rest = list(caps)
            for j, kj in zip(slots, k, strict=True):
                rest[j] -= kj
            total += _multinomial(k) * self._ways(i + 1, tuple(rest))
        return total

    def _options_uncached(
        self, i: int, caps: tuple[int, ...]
    ) -> tuple[list[tuple[tuple[int, ...], tuple[int, ...]]], list[int]]:
        """The count vectors group ``i`` may take with capacities ``caps`` left, each with the
        capacities it leaves, and their numbers of worlds (memoised: every draw of a decision
        walks the same few)."""
        cards, _ = self._cgroups[i]
        slots = self._slots[i]
        options, weights = [], []
        for k in _compositions(len(cards), [caps[j] for j in slots]):
            rest = list(caps)
            for j, kj in zip(slots, k, strict=True):
                rest[j] -= kj
            w = _multinomial(k) * self._ways(i + 1, tuple(rest))
            if w:
                options.append((tuple(k), tuple(rest)))
                weights.append(w)
        return options, weights

    def sample(self, rng: np.random.Generator) -> list[int]:
        """One world, uniformly at random: a bitmask of cards per slot."""
        out = [0] * len(self._classes)
        caps = self._caps
        for i, (cards, _) in enumerate(self._cgroups):
            options, weights = self._options(i, caps)
            k, caps = options[_weighted_index(rng, weights)]
            _deal_out(rng, cards, self._slots[i], k, out)
        _deal_out(rng, self._cfree, range(len(caps)), caps, out)
        if len(self._classes) == len(self.capacities):
            return [out[i] for i in sorted(range(len(out)), key=lambda i: self._classes[i][0])]
        world = [0] * len(self.capacities)
        for i, members in enumerate(self._classes):
            _deal_out(rng, _bits(out[i]), members, [self.capacities[j] for j in members], world)
        return world


def _last_group_ways(n: int, allowed_caps: Sequence[int], caps: Sequence[int]) -> int:
    """Ways to put ``n`` group cards into the allowed slots and the free cards anywhere, with
    exact capacities: by Vandermonde's identity, the multinomial of the capacities times the
    chance C(allowed capacity, n) / C(all capacity, n) that n given positions all fall in the
    allowed slots."""
    total, room = sum(caps), sum(allowed_caps)
    if room < n:
        return 0
    out = factorial(n) * factorial(total - n) * comb(room, n)
    for c in caps:
        out //= factorial(c)
    return out


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _deal_out(
    rng: np.random.Generator,
    cards: Sequence[int],
    slots: Sequence[int],
    counts: Sequence[int],
    out: list[int],
) -> None:
    """Shuffle ``cards`` and give ``counts[i]`` of them to ``out[slots[i]]``."""
    perm = rng.permutation(len(cards)).tolist()
    pos = 0
    for j, kj in zip(slots, counts, strict=True):
        mask = 0
        for x in perm[pos : pos + kj]:
            mask |= 1 << cards[x]
        out[j] |= mask
        pos += kj


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
