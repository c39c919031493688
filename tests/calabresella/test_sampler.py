"""The world sampler: every sampled world is consistent with the view (its own view of the
world equals the original view), the count of worlds matches brute-force enumeration, and the
sampling is uniform over the consistent worlds (chi-square against enumeration)."""

import itertools
import random

import numpy as np
import pytest

from mazzo.agents.calabresella.sampler import REST, WorldSampler
from mazzo.agents.sampling import NoConsistentWorld, SlotSampler
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.state import State
from mazzo.envs.calabresella.view import info_view
from mazzo.envs.cards.bits import bit_list
from mazzo.envs.cards.deal import Deal


def random_state(rng: random.Random, rules: Rules, max_steps: int) -> State:
    order = list(range(40))
    rng.shuffle(order)
    s = State.new(Deal(rng.randrange(rules.players), tuple(order)), rules)
    stop = rng.randrange(max_steps)
    while not s.is_terminal() and len(s.history) < stop:
        s.apply(rng.choice(s.legal_actions()))
    return s


FLAGS = [
    {},
    {"players": 4},
    {"players": 2},
    {"aperta": True},
    {"chiamo_monte_exposed": True, "chiamo_return_public": True},
    {"solissimo_view_monte": True},
    {"allow_call_own_card": True},
]


@pytest.mark.parametrize("flags", FLAGS, ids=str)
def test_sampled_worlds_are_consistent_with_the_view(flags):
    rules = Rules.from_flags(flags)
    rng = random.Random(1)
    nrng = np.random.default_rng(2)
    checked = 0
    for _ in range(250):
        s = random_state(rng, rules, 50)
        if s.is_terminal():
            continue
        for seat in range(rules.players):
            view = info_view(s, seat)
            sampler = WorldSampler(view)
            assert sampler.count() >= 1
            for _ in range(3):
                world = sampler.sample(nrng)
                assert info_view(world, seat) == view
                cards = world.hands[0] | world.hands[1] | world.hands[2] | world.set_aside
                cards |= sum(1 << c for c in world.trick) | world.piles[0] | world.piles[1]
                if world.phase in (0, 1, 2, 5):
                    cards |= world.monte_mask()
                assert cards == (1 << 40) - 1
                # the world plays on to the end under the rules
                while not world.is_terminal():
                    world.apply(nrng.choice(world.legal_actions()))
                checked += 1
    assert checked > 1000


def brute_force(sampler: WorldSampler) -> list[tuple[int, ...]]:
    """Every consistent world: assign the unknown cards to slots by enumeration."""
    inner = sampler._sampler
    cards = [c for group, _ in inner._groups for c in group] + list(inner._free)
    allowed = {c: a for group, a in inner._groups for c in group}
    full = (1 << len(inner.capacities)) - 1
    worlds = []
    for assign in itertools.product(range(len(inner.capacities)), repeat=len(cards)):
        counts = [0] * len(inner.capacities)
        ok = True
        for c, j in zip(cards, assign, strict=True):
            counts[j] += 1
            if not allowed.get(c, full) >> j & 1:
                ok = False
                break
        if ok and tuple(counts) == inner.capacities:
            worlds.append(
                tuple(
                    sum(1 << c for c, j in zip(cards, assign, strict=True) if j == k)
                    for k in range(len(counts))
                )
            )
    return worlds


def chi_square_ok(counts: dict, n_worlds: int, n_samples: int) -> bool:
    expected = n_samples / n_worlds
    stat = sum((counts.get(w, 0) - expected) ** 2 / expected for w in range(n_worlds))
    df = n_worlds - 1
    return stat < df + 6 * (2 * df) ** 0.5  # mean + 6 sd of chi2(df): false alarm < 1e-6


def test_late_play_worlds_are_sampled_uniformly():
    rng = random.Random(4)
    nrng = np.random.default_rng(5)
    tested = 0
    while tested < 6:
        s = random_state(rng, Rules(), 200)
        if s.is_terminal() or len(s.tricks) < 9:
            continue
        seat = s.to_play
        sampler = WorldSampler(info_view(s, seat))
        worlds = brute_force(sampler)
        if not 3 <= len(worlds) <= 400:
            continue
        assert sampler.count() == len(worlds)
        index = {w: i for i, w in enumerate(worlds)}
        counts: dict[int, int] = {}
        n = 60 * len(worlds)
        for _ in range(n):
            hands, rest = sampler.sample_assignment(nrng)
            key = tuple(
                rest & ~sampler.fixed_rest if slot == REST else hands[slot]
                for slot in sampler.slots
            )
            counts[index[key]] = counts.get(index[key], 0) + 1
        assert chi_square_ok(counts, len(worlds), n)
        tested += 1


def test_slot_sampler_uniform_with_voids_and_pins():
    # 7 cards, 3 slots of sizes 1, 3, 3; cards 0-2 may not go to slot 0 (a void),
    # card 6 is pinned to slot 2, card 5 to slots {1, 2}.
    groups = [([0, 1, 2], 0b110), ([6], 0b100), ([5], 0b110), ([3, 4], 0b111)]
    sampler = SlotSampler([1, 3, 3], groups)
    worlds = []
    for assign in itertools.product(range(3), repeat=7):
        if [assign.count(j) for j in range(3)] != [1, 3, 3]:
            continue
        if any(assign[c] == 0 for c in (0, 1, 2)) or assign[6] != 2 or assign[5] == 0:
            continue
        worlds.append(tuple(sum(1 << c for c in range(7) if assign[c] == j) for j in range(3)))
    assert sampler.count() == len(worlds) > 0
    index = {w: i for i, w in enumerate(worlds)}
    rng = np.random.default_rng(0)
    counts: dict[int, int] = {}
    n = 200 * len(worlds)
    for _ in range(n):
        w = index[tuple(sampler.sample(rng))]
        counts[w] = counts.get(w, 0) + 1
    assert len(counts) == len(worlds) and chi_square_ok(counts, len(worlds), n)


def test_slot_sampler_rejects_impossible_constraints():
    with pytest.raises(NoConsistentWorld, match="slots hold"):
        SlotSampler([2, 2], [([0, 1, 2], 0b11)])
    with pytest.raises(NoConsistentWorld, match="no assignment"):
        SlotSampler([2, 1], [([0, 1, 2], 0b10)])
    with pytest.raises(NoConsistentWorld, match="allowed in no slot"):
        SlotSampler([1], [([0], 0)])


def test_large_counts_are_exact():
    sampler = SlotSampler([12, 12, 4], [(list(range(28)), 0b111)])
    from math import factorial

    assert sampler.count() == factorial(28) // (factorial(12) ** 2 * factorial(4))
    world = sampler.sample(np.random.default_rng(1))
    assert [bin(m).count("1") for m in world] == [12, 12, 4]
    assert sorted(bit_list(world[0] | world[1] | world[2])) == list(range(28))
