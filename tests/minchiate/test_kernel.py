"""The rules kernel (``mazzo.envs.minchiate.kernel``): its cached combination lookup equals the plain
enumeration, end counts worked by hand from RULES.md M-13.2, the broken-down end count adds up,
and ``payoff_bound`` is never exceeded."""

import random

import pytest

from mazzo.envs.minchiate.combos import find_combos
from mazzo.envs.minchiate.kernel import combo_points, end_combos, end_total
from mazzo.envs.minchiate.rules import Rules
from mazzo.envs.minchiate.scoring import end_count, payoff_bound
from mazzo.envs.minchiate.state import State

from .helpers import mask, random_deal, random_playout

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


# Forty zero-value cards (RULES.md M-3.1: no king, no counter trump): every cup, coin and sword
# but the king (3 x 13 = 39) and the ace of batons.
RANKS_BUT_KING = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q")
ZEROS = " ".join(f"{r}{s}" for s in "cds" for r in RANKS_BUT_KING) + " Ab"

# End counts T_X worked by hand from RULES.md M-13.2 (card values M-3.1, combinations M-9.2 to
# M-9.4, the table after M-9.7): (flags, pile, won trick 21, declared kept for the end,
# (card points, combination points, surplus, last trick, total)).
GOLDEN_END_COUNTS = [
    # 1-2-3 (11) and three kings (15), each +5 for the Matto in the pile (M-9.4): 16 + 20;
    # cards T1 5 + T2 3 + T3 3 + M 5 + 3 kings 15 = 31; 9 cards, no surplus; trick 21: 10
    ({}, "T1 T2 T3 M Kc Kd Ks 2c 3c", True, 0, (31, 36, 0, 10, 77)),
    # 28-29-30 (T29 counts 5 inside: 15) and 10-20-30 (15), T30 in both (M-9.5): 30; cards
    # T28 5 + T29 0 + T30 5 + T10 5 + T20 5 = 20; 45 cards: 45 - 42 = 3; declared 7 is added
    ({}, f"T10 T20 T28 T29 T30 {ZEROS}", False, 7, (20, 30, 3, 0, 60)),
    # the same pile with surplus_base = 30: 45 - 30 = 15
    ({"surplus_base": 30}, f"T10 T20 T28 T29 T30 {ZEROS}", False, 7, (20, 30, 15, 0, 72)),
    # T10 T20 T30 T40 form one diecina of four (MA-12 default): 25 + 5 (Matto) = 30; 1-40-M
    # 20 with no bonus (MA-13): 50; cards 5 + 5 + 5 + 10 + M 5 + T1 5 = 35; trick 21: 10
    ({}, "T1 T10 T20 T30 T40 M", True, 0, (35, 50, 0, 10, 95)),
    # diecine = two_triples: 10-20-30 (15 + 5) and 20-30-40 (20 + 5), 1-40-M 20: 65
    ({"diecine": "two_triples"}, "T1 T10 T20 T30 T40 M", True, 0, (35, 65, 0, 10, 110)),
    # matto_bonus_in_own_combo: 1-40-M gets the +5 too: 30 + 25 = 55
    ({"matto_bonus_in_own_combo": True}, "T1 T10 T20 T30 T40 M", True, 0, (35, 55, 0, 10, 100)),
    # matto_bonus_at_end = false: no +5 in the pile: 25 + 20 = 45
    ({"matto_bonus_at_end": False}, "T1 T10 T20 T30 T40 M", True, 0, (35, 45, 0, 10, 90)),
    # end_recount_combos = false: the pile's combinations do not score at the end (MA-16)
    ({"end_recount_combos": False}, "T1 T10 T20 T30 T40 M", True, 0, (35, 0, 0, 10, 45)),
    # last_trick_bonus = 0, and a pile of counters only: T36..T40 50 + T31..T35 25 = 75, the
    # high run 31..40 = 5 x 5 + 10 x 5 = 75 (the M-9.7 table's rule); 10 cards
    ({"last_trick_bonus": 0}, "T31 T32 T33 T34 T35 T36 T37 T38 T39 T40", True, 0,
     (75, 75, 0, 0, 150)),
]  # fmt: skip


@pytest.mark.parametrize("case", GOLDEN_END_COUNTS, ids=lambda c: f"{c[0]}-{c[4][-1]}")
def test_end_counts_worked_by_hand(case):
    flags, pile_text, won, declared, (cards, combos, surplus, last, total) = case
    rules = Rules.from_flags(flags)
    pile = mask(pile_text)
    count = end_count(pile, won, declared, rules)
    assert (count.card_points, count.combo_points, count.surplus, count.last_trick) == (
        cards, combos, surplus, last,
    )  # fmt: skip
    assert count.cards == pile.bit_count() and count.declared == declared
    assert count.total == end_total(pile, won, declared, rules) == total


@pytest.mark.parametrize("flags", FLAGS, ids=str)
def test_end_count_breakdown_adds_up(flags):
    """On random piles the record's breakdown adds up to its total (the totals themselves are
    checked by hand above and by the golden deals)."""
    rules = Rules.from_flags(flags)
    rng = random.Random(2)
    for _ in range(1000):
        pile = sum(1 << c for c in rng.sample(range(97), rng.randrange(70)))
        won, decl = rng.random() < 0.5, rng.randrange(30)
        count = end_count(pile, won, decl, rules)
        parts = count.card_points + count.combo_points + count.surplus + count.last_trick
        assert count.total == parts + count.declared == end_total(pile, won, decl, rules)
        assert count.surplus == max(0, pile.bit_count() - rules.surplus_base)  # M-13.2
        assert count.last_trick == (rules.last_trick_bonus if won else 0)


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
