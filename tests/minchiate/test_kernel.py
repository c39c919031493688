"""The rules kernel (``envs.minchiate.kernel``): its cached combination lookup equals the plain
enumeration, the broken-down end count adds up to the kernel's total, and ``payoff_bound`` is
never exceeded."""

import random

import pytest

from envs.minchiate.combos import find_combos
from envs.minchiate.kernel import combo_points, end_combos, end_total
from envs.minchiate.rules import Rules
from envs.minchiate.scoring import end_count, payoff_bound
from envs.minchiate.state import State
from envs.minchiate.tables import card_points

from .helpers import random_deal, random_playout

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


BOUND_VARIANTS = [
    {},
    {"resti_unit": 20, "score_taken_cards": True},
    {"matto_death_bonus": True, "matto_last_trick_lost": True, "diecine": "two_triples"},
    {"declaration_score_timing": "end", "matto_bonus_at_end": False, "surplus_base": 30},
    {"end_recount_combos": False, "capture_bonus": False, "resti_unit": 10},
]


@pytest.mark.parametrize("flags", BOUND_VARIANTS, ids=str)
def test_payoff_bound_is_never_exceeded(flags):
    rules = Rules.from_flags(flags)
    bound = payoff_bound(rules)
    rng = random.Random(3)
    worst = 0
    for _ in range(1500):
        s = random_playout(State.new(random_deal(rng), rules), rng)
        worst = max(worst, *(abs(r) for r in s.returns()))
    assert 0 < worst <= bound
