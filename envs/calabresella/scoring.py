"""Calabresella settlement records (RULES.md B.7 to B.9): the ``Settlement`` of a played deal,
built from the kernel's scoring rules (``envs.calabresella.kernel``: thirds, truncation per side,
the last-trick point, success at 6 of 11, cappotto and stramazzo, contract values, the raw and
pairwise payments), all in integers. The rules themselves live in the kernel, not here.

Positions here are the three active positions A0..A2 (the engine maps them to seats).

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from dataclasses import dataclass

from envs.calabresella.config import Rules
from envs.calabresella.kernel import (
    TOTAL_THIRDS,
    TRICKS,
    deal_points,
    multiplier,
    payments,
    pile_thirds,
    success,
    unit,
)

__all__ = ["TOTAL_THIRDS", "Settlement", "pile_thirds", "settle"]


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


def settle(
    rules: Rules, contract: int, soloist: int, sol_thirds: int, sol_tricks: int, last_side: int
) -> Settlement:
    """Score a finished deal from the soloist side's thirds (set-aside cards included) and
    tricks and the last-trick side."""
    points = deal_points(sol_thirds, last_side)
    m, bonus = multiplier(rules, sol_thirds, sol_tricks)
    raw, pairwise = payments(rules, contract, soloist, sol_thirds, sol_tricks, last_side)
    return Settlement(
        contract=contract,
        soloist=soloist,
        thirds=(sol_thirds, TOTAL_THIRDS - sol_thirds),
        points=points,
        tricks=(sol_tricks, TRICKS - sol_tricks),
        last_trick_side=last_side,
        success=success(sol_thirds, last_side),
        multiplier=m,
        bonus=bonus,
        value=rules.contract_values[contract],
        unit=unit(rules, contract, sol_thirds, sol_tricks, last_side),
        raw=raw,
        pairwise=pairwise,
    )
