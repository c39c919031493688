"""The Minchiate world sampler: every sampled world is consistent with the view (its own view of
the world equals the original view, and the deal could have gone as it did: every discard, play
and declaration legal in that world), the real deal is always among the possible worlds, the
set of possible worlds equals full enumeration in small endgames and the sampling is uniform
over it (chi-square), the Fola-order weighting matches its exact distribution, and the
``SlotSampler`` extensions (merged slots, closed-form last group) count and sample exactly."""

from __future__ import annotations

import itertools
import random
from math import comb

import numpy as np
import pytest

from mazzo.agents.minchiate.sampler import ORIG, WorldSampler
from mazzo.agents.sampling import SlotSampler
from mazzo.envs.minchiate import Phase, Rules, State, find_combos
from mazzo.envs.minchiate.tables import (
    DISCARDABLE,
    KING,
    MATTO,
    QUALIFYING,
    SUIT,
    SUIT_MASK,
    TRUMPS,
    VALUE,
)
from mazzo.envs.minchiate.worlds import Assignment, determinize

from .helpers import random_deal

FLAGS = [
    {},
    {"declarations": "auto_all"},
    {"matto_payment": "agent"},
    {"fola_exposure": "never"},
    {"declare_timing": "with_first_card"},
    {"must_overtrump": True},
    {"impossible_discard": "relax"},
    {"discard_rule": "any", "faceup_21st": "dealer_only"},
    {"dealer_takes": "counters_only", "diecine": "any_three"},
    {"rob_cap": 4, "king_rule": False},
]


def random_state(rng: random.Random, rules: Rules, max_steps: int = 100) -> State:
    s = State.new(random_deal(rng), rules)
    stop = rng.randrange(max_steps)
    while not s.is_terminal() and len(s.history) < stop:
        s.apply(rng.choice(s.legal_actions()))
    return s


# ---------------------------------------------------------------------- reference consistency
def reference_legal(hand: int, cards_before: list[int], suits_led: int, rules: Rules) -> int:
    """M-11.3 written out again from the rules text (not the engine's or the agents' code)."""
    led = next((SUIT[c] for c in cards_before if c != MATTO), -1)
    if led < 0:
        return hand
    trumps_played = [c for c in cards_before if c < 40]
    if (
        led < 4
        and rules.king_rule
        and trumps_played
        and not suits_led >> led & 1
        and hand & KING[led]
    ):
        return KING[led]
    matto = hand & (1 << MATTO)
    if led < 4 and hand & SUIT_MASK[led]:
        return hand & SUIT_MASK[led] | matto
    trumps = hand & TRUMPS
    if not trumps:
        return hand
    if rules.must_overtrump and trumps_played:
        higher = [t for t in range(max(trumps_played) + 1, 40) if trumps >> t & 1]
        if higher:
            return sum(1 << t for t in higher) | matto
    return trumps | matto


def history_is_possible(world: State, view) -> bool:
    """Could the deal have gone as the view says if the cards were where ``world`` has them?
    Every play legal from the hands it implies, every discard a legal discard, every seat's
    declarations among the combinations of its 21 cards (all of them under ``auto_all``), the
    dealer's Fola free of counters (and T29), the stop card where it must be."""
    rules = view.rules
    held = [world.hands[q] | world.played_by[q] for q in range(4)]  # cards since the discards
    suits_led = 0
    tricks = [*view.tricks, (view.leader, view.trick, -1)]
    for leader, cards, _ in tricks:
        for i, c in enumerate(cards):
            seat = (leader + i) % 4
            if not reference_legal(held[seat], list(cards[:i]), suits_led, rules) >> c & 1:
                return False
            held[seat] &= ~(1 << c)
        led = next((SUIT[c] for c in cards if c != MATTO), -1)
        if len(cards) == 4 and 0 <= led < 4:
            suits_led |= 1 << led
    for q in range(4):
        strict = rules.discard_rule == "zero_not_29" and rules.impossible_discard == "redeal"
        if strict and world.discards[q] & ~DISCARDABLE:
            return False
        holding = world.hands[q] | world.played_by[q]
        found = find_combos(holding, rules.diecine, True, rules.matto_bonus_in_own_combo)
        mine = [c for seat, c in view.declared if seat == q]
        if rules.declarations == "auto_all" and mine and tuple(mine) != found:
            return False
        if any(c not in found for c in mine):
            return False
    orig = world.setup.fola
    forbidden = sum(1 << c for c in range(97) if VALUE[c] > 0)
    if rules.dealer_takes == "counters_and_29":
        forbidden |= 1 << 28
    return not orig & forbidden


@pytest.mark.parametrize("flags", FLAGS, ids=str)
def test_sampled_worlds_are_consistent_with_the_view(flags):
    rules = Rules.from_flags(flags)
    rng, nrng = random.Random(len(str(flags))), np.random.default_rng(2)
    checked = 0
    phases = set()
    for _ in range(110):
        s = random_state(rng, rules)
        if s.is_terminal():
            continue
        phases.add(s.phase)
        for seat in range(4):
            view = s.info_view(seat)
            sampler = WorldSampler(view)
            for _ in range(2):
                world = sampler.sample(nrng)
                assert world.info_view(seat) == view
                assert history_is_possible(world, view)
                cards = sum(world.hands) | world.fola | sum(1 << c for c in world.trick)
                assert cards | world.piles[0] | world.piles[1] == (1 << 97) - 1
                n_cards = sum(h.bit_count() for h in world.hands) + len(world.trick)
                n_cards += world.fola.bit_count() + sum(p.bit_count() for p in world.piles)
                assert n_cards == 97
                while not world.is_terminal():  # the world plays on to the end under the rules
                    world.apply(int(nrng.choice(world.legal_actions())))
                checked += 1
    assert checked > 600 and Phase.PLAY in phases


@pytest.mark.parametrize("flags", FLAGS, ids=str)
def test_the_real_deal_is_always_a_possible_world(flags):
    """Soundness of the constraints: the true placement of the hidden cards is always allowed,
    card by card and jointly."""
    rules = Rules.from_flags(flags)
    rng = random.Random(40 + len(str(flags)))
    checked = 0
    for _ in range(150):
        s = random_state(rng, rules)
        if s.is_terminal():
            continue
        truth = Assignment(tuple(s.hands), tuple(s.discards), s.setup.fola)
        for seat in range(4):
            sampler = WorldSampler(s.info_view(seat))
            for card, allowed in sampler.allowed.items():
                slot = next(
                    i for i, slot in enumerate(sampler.slots) if _holds(truth, slot) >> card & 1
                )
                assert allowed >> slot & 1, (seat, card, sampler.slots[slot])
            assert sampler.weight(truth) > 0
            checked += 1
    assert checked > 300


def _holds(world: Assignment, slot: int) -> int:
    if slot < 4:
        return world.hands[slot]
    return world.discards[slot - 4] if slot < 8 else world.orig_fola


# ---------------------------------------------------------------------- enumeration, uniformity
def enumerate_worlds(sampler: WorldSampler) -> list[tuple[tuple[int, ...], int]]:
    """Every assignment of the hidden cards to the sampler's slots with the right sizes (no
    other constraint), kept when the reference says the deal could have gone that way; with
    its weight (the Fola-order factor)."""
    view = sampler.view
    hidden = sorted(sampler.allowed)
    base = {slot: sampler.known.get(slot, 0) for slot in sampler.slots}
    caps = [_capacity(view, slot, sampler) - base[slot].bit_count() for slot in sampler.slots]
    out = []
    for assign in itertools.product(range(len(sampler.slots)), repeat=len(hidden)):
        if [assign.count(j) for j in range(len(caps))] != caps:
            continue
        by_slot = dict(sampler.known)
        for c, j in zip(hidden, assign, strict=True):
            by_slot[sampler.slots[j]] = by_slot.get(sampler.slots[j], 0) | 1 << c
        world = Assignment(
            tuple(by_slot.get(q, 0) for q in range(4)),
            tuple(by_slot.get(4 + q, 0) for q in range(4)),
            by_slot.get(ORIG, 0),
        )
        state = determinize(view, world)
        if state.info_view(view.seat) == view and history_is_possible(state, view):
            out.append((sampler.assignment_key(world), sampler.weight(world)))
    return out


def _capacity(view, slot: int, sampler: WorldSampler) -> int:
    if slot < 4:
        return view.hand_sizes[slot]
    if slot < 8:
        return sampler.n_disc[slot - 4]
    return 13 - len(view.robbed) - len(view.dealer_robbed) - view.dealer_taken.bit_count()


def chi_square_ok(counts: dict, expected: dict) -> bool:
    stat = sum((counts.get(w, 0) - e) ** 2 / e for w, e in expected.items())
    df = len(expected) - 1
    return stat < df + 6 * (2 * df) ** 0.5  # mean + 6 sd of chi2(df): false alarm < 1e-6


def test_endgame_worlds_match_enumeration_and_are_uniform():
    """The default rules, two endgames (one where the play ruled worlds out); the full study of
    every flag below is ``slow``."""
    endgame_study({}, min_tested=2, min_constrained=1)


@pytest.mark.slow
@pytest.mark.parametrize(
    "flags", [{}, {"must_overtrump": True}, {"declarations": "auto_all"}], ids=str
)
def test_endgame_worlds_match_enumeration_and_are_uniform_study(flags):
    endgame_study(flags, min_tested=4, min_constrained=3)


def endgame_study(flags, min_tested: int, min_constrained: int) -> None:
    """Enumerate the worlds of small endgames exactly and check the sampler's support, count
    and uniformity (chi-square) on ``min_tested`` of them, ``min_constrained`` of them with
    worlds the play ruled out."""
    rules = Rules.from_flags(flags)
    rng, nrng = random.Random(4), np.random.default_rng(5)
    tested = constrained = 0
    while tested < min_tested or constrained < min_constrained:
        s = State.new(random_deal(rng), rules)
        stop = 18 + rng.randrange(3)
        while not s.is_terminal() and len(s.tricks) < stop:
            s.apply(rng.choice(s.legal_actions()))
        for _ in range(rng.randrange(4)):
            if not s.is_terminal():
                s.apply(rng.choice(s.legal_actions()))
        if s.is_terminal() or s.phase is not Phase.PLAY:
            continue
        view = s.info_view(s.to_play)
        sampler = WorldSampler(view)
        if len(sampler.allowed) > 9:
            continue
        worlds = enumerate_worlds(sampler)
        if not 3 <= len(worlds) <= 300:
            continue
        support = {w: weight for w, weight in worlds if weight}
        assert len(support) == len(worlds) == sampler.count()
        sizes = [view.hand_sizes[q] for q in range(4) if q != view.seat]
        free = comb(sum(sizes), sizes[0]) * comb(sizes[1] + sizes[2], sizes[1])
        deals = len({w[:3] for w in support})  # the hands; the rest is who discarded what
        if deals == free and tested >= min_tested:
            continue  # enough unconstrained cases: look for one where the play ruled worlds out
        constrained += deals < free
        n = 60 * len(worlds)
        counts: dict = {}
        for _ in range(n):
            key = sampler.assignment_key(sampler.sample_assignment(nrng))
            assert key in support
            counts[key] = counts.get(key, 0) + 1
        total = sum(support.values())  # uniform, times the Fola-order weight
        assert chi_square_ok(counts, {w: n * x / total for w, x in support.items()})
        tested += 1


def test_fola_order_weighting_is_exact():
    """Before the Fola is exposed, a seat other than the dealer does not know the dealer's part
    of it. Those unknown cards are a uniform subset of the possible ones, reweighted by the
    number of non-qualifying cards that could have stopped the dealer's robbing: the count of
    qualifying sopraventi among them follows that reweighted hypergeometric law exactly."""
    rng, nrng = random.Random(9), np.random.default_rng(9)
    done = 0
    while done < 3:
        s = State.new(random_deal(rng), Rules())
        if s.phase is not Phase.DISCARD_CUTTER:
            continue
        seat = (s.dealer + 1) % 4  # neither cutter nor dealer
        sampler = WorldSampler(s.info_view(seat))
        pool = [c for c, a in sampler.allowed.items() if a >> sampler.slots.index(ORIG) & 1]
        m = _capacity(sampler.view, ORIG, sampler) - sampler.known.get(ORIG, 0).bit_count()
        if m < 3:
            continue
        qual = sum(1 for c in pool if QUALIFYING >> c & 1)
        other = len(pool) - qual
        weights = {q: comb(qual, q) * comb(other, m - q) * (m - q) for q in range(m + 1)}
        total = sum(weights.values())
        n = 6000
        counts: dict = {}
        for _ in range(n):
            orig = sampler.sample_assignment(nrng).orig_fola & ~sampler.known.get(ORIG, 0)
            q = sum(1 for c in pool if orig >> c & 1 and QUALIFYING >> c & 1)
            counts[q] = counts.get(q, 0) + 1
        expected = {q: n * w / total for q, w in weights.items() if n * w / total >= 5}
        rest = n - sum(counts.get(q, 0) for q in expected)
        expected_rest = n - sum(expected.values())
        merged_counts = {**{q: counts.get(q, 0) for q in expected}, "rest": rest}
        merged_expected = {**expected, "rest": max(expected_rest, 1e-9)}
        assert chi_square_ok(merged_counts, merged_expected)
        # and the unweighted law is rejected: the weighting is really applied
        plain = {q: comb(qual, q) * comb(other, m - q) for q in range(m + 1)}
        mean_plain = sum(q * w for q, w in plain.items()) / sum(plain.values())
        mean_weighted = sum(q * w for q, w in weights.items()) / total
        mean_seen = sum(q * k for q, k in counts.items()) / n
        assert abs(mean_seen - mean_weighted) < abs(mean_seen - mean_plain)
        done += 1


# ---------------------------------------------------------------------- SlotSampler extensions
def brute_force(capacities, groups):
    cards = sorted(c for g, _ in groups for c in g)
    allowed = {c: a for g, a in groups for c in g}
    worlds = []
    for assign in itertools.product(range(len(capacities)), repeat=len(cards)):
        if [assign.count(j) for j in range(len(capacities))] != list(capacities):
            continue
        if all(allowed[c] >> j & 1 for c, j in zip(cards, assign, strict=True)):
            worlds.append(
                tuple(
                    sum(1 << c for c, j in zip(cards, assign, strict=True) if j == k)
                    for k in range(len(capacities))
                )
            )
    return worlds


@pytest.mark.parametrize(
    "capacities, groups",
    [
        # slots 2 and 3 are interchangeable (merged); slot 0 is a hand with a void
        ([2, 2, 1, 2], [([0, 1], 0b1110), ([2, 3], 0b0011), ([4, 5, 6], 0b1111)]),
        # one card pinned between two otherwise interchangeable slots: no merge
        ([1, 2, 2, 2], [([0], 0b0011), ([1, 2], 0b1110), ([3], 0b1101), ([4, 5, 6], 0b1111)]),
        # several restricted groups: the last one counted in closed form
        ([3, 2, 2], [([0, 1], 0b011), ([2, 3], 0b110), ([4], 0b101), ([5, 6], 0b111)]),
    ],
)
def test_slot_sampler_merging_and_closed_form_are_exact(capacities, groups):
    sampler = SlotSampler(capacities, groups)
    worlds = brute_force(capacities, groups)
    assert sampler.count() == len(worlds) > 0
    index = {w: i for i, w in enumerate(worlds)}
    rng = np.random.default_rng(0)
    n = 200 * len(worlds)
    counts: dict = {}
    for _ in range(n):
        w = index[tuple(sampler.sample(rng))]
        counts[w] = counts.get(w, 0) + 1
    assert chi_square_ok(counts, dict.fromkeys(range(len(worlds)), n / len(worlds)))


def test_sampler_memo_stays_small():
    """Building a sampler for a decision does little work in the default rules: the counting
    recursion's memo (``SlotSampler._ways``, one entry per group and remaining capacities) stays
    small over many positions, because the groups allowed in fewest slots come first. The
    positions are seeded, so the figure is exact: at most 118 entries over these 544 samplers;
    with the groups in the opposite order it reaches 219. The build time is a benchmark:
    ``benchmarks/bench_minchiate_sampler.py``."""
    rng = random.Random(3)
    sizes = []
    for _ in range(150):
        s = random_state(rng, Rules())
        if s.is_terminal():
            continue
        for seat in range(4):
            sampler = WorldSampler(s.info_view(seat))
            sizes.append(sampler._sampler._ways.cache_info().currsize)
    assert len(sizes) > 500 and max(sizes) <= 150, (len(sizes), max(sizes))
