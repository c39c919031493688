"""``scoring.payoff_bound`` to the point (``tests/minchiate/test_kernel.py`` checks that no deal
exceeds it): with ``resti_unit = 1`` the bound is the whole sum P of its docstring, so each part
shows. The default rules, part by part: the deck's card points 142 (the pre-play events and the
captures); the declarations, every combination of the deck 187 (``merge_four`` diecine) plus
the Matto's 5 on at most 9 of them, 232; no death bonus; the end count: 142, the surplus of 97
cards over 42 (55), the last trick 10 and the recount of the combinations at the end with the
Matto bonus (232): 439. 142 + 232 + 439 = 813. Every learner's reward scale is 1 / the bound
(the env's ``reward_scale``): a change here changes every env's rewards, so it must be on
purpose."""

import pytest

from mazzo.envs.minchiate import Rules
from mazzo.envs.minchiate.scoring import payoff_bound

ROWS = [
    ({}, 813),
    ({"end_recount_combos": False}, 813 - 232),  # no recount at the end
    ({"matto_bonus_at_end": False}, 813 - 45),  # the recount without the Matto's 5 x 9
    ({"matto_death_bonus": True}, 813 + 5),
    ({"surplus_base": 90}, 813 - 48),  # a surplus of 7, not 55
    ({"last_trick_bonus": 0}, 813 - 10),
    ({"diecine": "two_triples"}, 813 + 2 * 10),  # 197 points of combinations, twice
]


@pytest.mark.parametrize(("flags", "total"), ROWS, ids=[str(f) for f, _ in ROWS])
def test_the_bound_is_the_sum_of_its_parts(flags, total):
    assert payoff_bound(Rules.from_flags({"resti_unit": 1, **flags})) == total


@pytest.mark.parametrize(("unit", "bound"), [(60, 14), (20, 41), (10, 82), (813, 1), (812, 2)])
def test_the_bound_in_resti_rounds_up(unit, bound):
    assert payoff_bound(Rules.from_flags({"resti_unit": unit})) == bound
