"""Calabresella counting and settlement (RULES.md B.7 to B.9): thirds, truncation per side, the
last-trick point, success at 6 of 11, cappotto and stramazzo, contract values, and the raw and
pairwise settlements, all in integers.

Positions here are the three active positions A0..A2 (the engine maps them to seats).

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from dataclasses import dataclass

from envs.calabresella.config import Rules
from envs.cards.deck import ITALIAN_40

__all__ = ["TOTAL_THIRDS", "Settlement", "pile_thirds", "settle"]

TOTAL_THIRDS = 32
ACES = sum(1 << c for c in range(40) if ITALIAN_40.value[c] == 3)
COUNTERS = sum(1 << c for c in range(40) if ITALIAN_40.value[c] == 1)
assert 3 * ACES.bit_count() + COUNTERS.bit_count() == TOTAL_THIRDS


def pile_thirds(pile: int) -> int:
    """Card thirds in a pile bitmask (ace 3, each 3/2/K/N/J 1)."""
    return 3 * (pile & ACES).bit_count() + (pile & COUNTERS).bit_count()


@dataclass(frozen=True, slots=True)
class Settlement:
    """The scored outcome of one played deal.

    Sides are indexed 0 = soloist, 1 = defenders; per-position tuples are indexed A0..A2.
    """

    contract: int
    soloist: int
    thirds: tuple[int, int]
    points: tuple[int, int]
    tricks: tuple[int, int]
    last_trick_side: int
    success: bool
    multiplier: int
    bonus: str
    value: int
    unit: int
    raw: tuple[int, int, int]
    pairwise: tuple[int, int, int]


def multiplier(rules: Rules, thirds: tuple[int, int], tricks: tuple[int, int]) -> tuple[int, str]:
    """(m, name): cappotto when a side took all 12 tricks (C-8.2); stramazzo when a side holds all
    the card points while the other side won a trick (C-8.3, CA-12); else 1."""
    if 0 in tricks:
        return rules.cappotto_mult, "cappotto"
    if rules.stramazzo:
        limit = 2 if rules.stramazzo_def == "truncated" else 0  # the other side's thirds at most
        if min(thirds) <= limit:
            return rules.stramazzo_mult, "stramazzo"
    return 1, ""


def settle(
    rules: Rules, contract: int, soloist: int, sol_thirds: int, sol_tricks: int, last_side: int
) -> Settlement:
    """Score a finished deal from the soloist side's thirds and tricks and the last-trick side."""
    thirds = (sol_thirds, TOTAL_THIRDS - sol_thirds)
    tricks = (sol_tricks, 12 - sol_tricks)
    points = (thirds[0] // 3 + (last_side == 0), thirds[1] // 3 + (last_side == 1))
    success = points[0] >= 6
    m, bonus = multiplier(rules, thirds, tricks)
    value = rules.contract_values[contract]
    unit = value * m
    if rules.payout_mode == "difference":
        unit *= abs(points[0] - points[1])
    raw = [0, 0, 0]
    pair = [0, 0, 0]
    for pos in range(3):
        if pos == soloist:
            raw[pos] = unit if success else 0
            pair[pos] = 2 * unit if success else -2 * unit
        else:
            raw[pos] = 0 if success else unit
            pair[pos] = -unit if success else unit
    return Settlement(
        contract=contract,
        soloist=soloist,
        thirds=thirds,
        points=points,
        tricks=tricks,
        last_trick_side=last_side,
        success=success,
        multiplier=m,
        bonus=bonus,
        value=value,
        unit=unit,
        raw=(raw[0], raw[1], raw[2]),
        pairwise=(pair[0], pair[1], pair[2]),
    )
