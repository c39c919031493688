"""The rules kernel (``envs.minchiate.kernel``): its cached combination lookup equals the plain
enumeration, and the broken-down end count adds up to the kernel's total."""

import random

import pytest

from envs.minchiate.combos import find_combos
from envs.minchiate.config import Rules
from envs.minchiate.kernel import combo_points, end_combos, end_total
from envs.minchiate.scoring import end_count
from envs.minchiate.tables import card_points

FLAGS = [
    {},
    {"diecine": "any_three", "matto_bonus_at_end": False},
    {"diecine": "two_triples", "matto_bonus_in_own_combo": True},
    {"end_recount_combos": False, "surplus_base": 30},
]


@pytest.mark.parametrize("flags", FLAGS, ids=str)
def test_cached_pile_combos_equal_the_enumeration(flags):
    """The cache is keyed by the pile's combination cards only: the same combinations as the
    whole pile, on many random piles."""
    rules = Rules.from_flags(flags)
    rng = random.Random(1)
    for _ in range(2000):
        pile = sum(1 << c for c in rng.sample(range(97), rng.randrange(97)))
        expect = ()
        if rules.end_recount_combos:
            expect = find_combos(
                pile, rules.diecine, rules.matto_bonus_at_end, rules.matto_bonus_in_own_combo
            )
        assert end_combos(pile, rules) == expect
        assert combo_points(pile, rules) == sum(c.score for c in expect)


@pytest.mark.parametrize("flags", FLAGS, ids=str)
def test_end_count_breakdown_adds_up_to_the_kernel_total(flags):
    rules = Rules.from_flags(flags)
    rng = random.Random(2)
    for _ in range(1000):
        pile = sum(1 << c for c in rng.sample(range(97), rng.randrange(70)))
        won, decl = rng.random() < 0.5, rng.randrange(30)
        count = end_count(pile, won, decl, rules)
        parts = count.card_points + count.combo_points + count.surplus + count.last_trick
        assert count.total == parts + count.declared == end_total(pile, won, decl, rules)
        assert count.card_points == card_points(pile) and count.cards == pile.bit_count()
