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

So every consistent world has the same probability (to within 2**-53, below), which the tests
check against full enumeration.

**The random stream.** A draw reads only the raw 64-bit outputs of the generator's bit generator
(``rng.bit_generator.random_raw``), in one fixed order: per group, one output to choose its count
vector (where it has more than one) by comparing its top 53 bits with the options' cumulative
thresholds ``floor(2**53 * prefix / total)``, then one output per swap of a Fisher-Yates shuffle
of the group's cards, ``j = (raw * (i + 1)) >> 64`` (skipped when the whole group goes to one
slot); the free cards the same way; then each merged slot's split. Rounding the thresholds and
the multiply-shift bound bias a world's probability by at most 2**-53 relative. The compiled
twin (``agents/_csample.c``, built like the search cores; ``MAZZO_PURE_PYTHON=1`` keeps this
code) reads the same outputs in the same order through the bit generator's C interface, so a
seeded generator draws the same worlds either way (``tests/test_compiled_sampler.py``).

Must not import torch or training/.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from functools import lru_cache
from math import comb, factorial
from types import ModuleType

import numpy as np

from mazzo.envs.common.compiled import pure_python_requested

__all__ = ["NoConsistentWorld", "SlotSampler", "below"]

_THRESHOLD_BITS = 53
_MAX_PLAN_OPTIONS = 100_000  # a larger count-vector tree is drawn by the reference, lazily


def _load_core() -> ModuleType | None:
    """The compiled twin ``mazzo.agents._csample``, or None (not built, or
    ``MAZZO_PURE_PYTHON``)."""
    if pure_python_requested():
        return None
    try:
        return importlib.import_module("mazzo.agents._csample")
    except ImportError:
        return None


_CORE = _load_core()


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
        self._choices = lru_cache(maxsize=None)(self._choices)  # type: ignore[method-assign]
        self._plan: object | None = None  # the compiled twin's, built at the first draw
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

    def _choices(
        self, i: int, caps: tuple[int, ...]
    ) -> tuple[list[tuple[tuple[int, ...], tuple[int, ...]]], list[int]]:
        """``_options(i, caps)`` with the cumulative thresholds a draw compares against:
        ``floor(2**53 * (w_0 + ... + w_k) / total)`` for option k (the last is ``2**53``)."""
        options, weights = self._options(i, caps)
        total, acc, thresholds = sum(weights), 0, []
        for w in weights:
            acc += w
            thresholds.append((acc << _THRESHOLD_BITS) // total)
        return options, thresholds

    def sample(self, rng: np.random.Generator) -> list[int]:
        """One world, uniformly at random: a bitmask of cards per slot. Reads ``rng``'s bit
        generator only (the module docstring's stream), by the compiled twin where it is
        built: the same world either way."""
        bits = rng.bit_generator
        if _CORE is not None:
            plan = self._compiled_plan()
            if plan is not None:
                world: list[int] = _CORE.sample(plan, bits.capsule)
                return world
        return self.sample_reference(bits)

    def sample_reference(self, bits: np.random.BitGenerator) -> list[int]:
        """``sample`` in Python (the reference the compiled twin is held to)."""
        out = [0] * len(self._classes)
        caps = self._caps
        for i, (cards, _) in enumerate(self._cgroups):
            options, thresholds = self._choices(i, caps)
            pick = _pick(int(bits.random_raw()), thresholds) if len(options) > 1 else 0
            k, caps = options[pick]
            _deal_out(bits, cards, self._slots[i], k, out)
        _deal_out(bits, self._cfree, range(len(caps)), caps, out)
        world = [0] * len(self.capacities)
        for i, members in enumerate(self._classes):
            if len(members) == 1:
                world[members[0]] = out[i]
            else:
                caps_of = [self.capacities[j] for j in members]
                _deal_out(bits, _bits(out[i]), members, caps_of, world)
        return world

    def _compiled_plan(self) -> object | None:
        """The compiled twin's plan of this sampler (built once): the merged slots, the
        groups and every node of the count-vector tree reachable from the full capacities,
        with its options' thresholds. None when the tree is too large to tabulate (the
        reference then draws, lazily)."""
        if self._plan is None:
            self._plan = self._build_plan()
        return self._plan or None

    def _build_plan(self) -> object:
        n_groups = len(self._cgroups)
        index = {(0, self._caps): 0}
        order = [(0, self._caps)]
        nodes = []
        options_seen = 0
        for i, caps in order:  # grows while it is walked: breadth first
            entries: list[tuple[tuple[int, ...], int, int]] = []
            if i < n_groups:
                options, thresholds = self._choices(i, caps)
                options_seen += len(options)
                if options_seen > _MAX_PLAN_OPTIONS:
                    return False
                for (k, rest), threshold in zip(options, thresholds, strict=True):
                    child = (i + 1, rest)
                    if child not in index:
                        index[child] = len(order)
                        order.append(child)
                    entries.append((k, index[child], threshold))
            nodes.append((caps, tuple(entries)))
        assert _CORE is not None
        return _CORE.plan(
            len(self.capacities),
            tuple((tuple(m), tuple(self.capacities[j] for j in m)) for m in self._classes),
            tuple(
                (tuple(g[0]), tuple(slots))
                for g, slots in zip(self._cgroups, self._slots, strict=True)
            ),
            tuple(self._cfree),
            tuple(nodes),
        )


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
    bits: np.random.BitGenerator,
    cards: Sequence[int],
    slots: Sequence[int],
    counts: Sequence[int],
    out: list[int],
) -> None:
    """Give ``counts[i]`` of ``cards`` to ``out[slots[i]]``: the cards in a Fisher-Yates order
    (one raw output per swap, from the last position down), except when they all go to one
    slot (no draw)."""
    if sum(1 for k in counts if k) <= 1:
        for j, kj in zip(slots, counts, strict=True):
            if kj:
                out[j] |= sum(1 << c for c in cards)
        return
    order = list(cards)
    n = len(order)
    raws = bits.random_raw(n - 1).tolist()
    for t, i in enumerate(range(n - 1, 0, -1)):
        j = (raws[t] * (i + 1)) >> 64
        order[i], order[j] = order[j], order[i]
    pos = 0
    for j, kj in zip(slots, counts, strict=True):
        mask = 0
        for c in order[pos : pos + kj]:
            mask |= 1 << c
        out[j] |= mask
        pos += kj


def _pick(raw: int, thresholds: Sequence[int]) -> int:
    """The option whose cumulative threshold first exceeds ``raw``'s top 53 bits."""
    u = raw >> (64 - _THRESHOLD_BITS)
    for i, t in enumerate(thresholds):
        if u < t:
            return i
    raise AssertionError("unreachable: the last threshold is 2**53")


def below(raw: int, n: int) -> int:
    """A raw 64-bit output mapped onto ``0 .. n-1`` (multiply-shift: bias at most n / 2**64),
    the way the compiled twin maps it."""
    return (raw * n) >> 64
