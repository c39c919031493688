"""Calabresella settlement (RULES.md B.7 to B.9): the ``Settlement`` of a played deal, built
from the kernel's scoring rules (``mazzo.envs.calabresella.kernel``: thirds, truncation per side,
the last-trick point, success at 6 of 11, cappotto and stramazzo, contract values, the raw and
pairwise payments), its per-seat form, and the JSON-ready result of a deal. The rules
themselves live in the kernel, not here.

Positions here are the three active positions A0..A2; ``per_seat`` maps them to player seats.

Must not import numpy, torch, gymnasium or pettingzoo, nor ``state`` (the State imports this).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from mazzo.envs.calabresella.actions import CONTRACTS
from mazzo.envs.calabresella.deck import ITALIAN_40
from mazzo.envs.calabresella.exchanges import GIVER_MONTE, GIVER_NONE, GIVER_OWN
from mazzo.envs.calabresella.kernel import (
    MAX_POINTS,
    TOTAL_THIRDS,
    TRICKS,
    deal_points,
    multiplier,
    payments,
    pile_thirds,
    success,
    unit,
)
from mazzo.envs.calabresella.rules import Rules

__all__ = [
    "TOTAL_THIRDS",
    "Settlement",
    "deal_result",
    "payoff_bound",
    "per_seat",
    "pile_thirds",
    "seat_returns",
    "settle",
]


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


def per_seat(
    per_pos: tuple[int, int, int], seat_of: tuple[int, int, int], players: int
) -> tuple[int, ...]:
    """Per-position amounts summed per player seat (a due: the dealer's two positions add up;
    with 4 players the idle dealer gets 0)."""
    out = [0] * players
    for pos in range(3):
        out[seat_of[pos]] += per_pos[pos]
    return tuple(out)


def seat_returns(
    st: Settlement | None, rules: Rules, seat_of: tuple[int, int, int]
) -> tuple[int, ...]:
    """Per seat: the settlement of C-9.5 under ``reward_mode`` (zeros for no settlement)."""
    if st is None:
        return (0,) * rules.players
    return per_seat(
        st.pairwise if rules.reward_mode == "pairwise" else st.raw, seat_of, rules.players
    )


def deal_result(
    st: Settlement | None,
    rules: Rules,
    dealer: int,
    seat_of: tuple[int, int, int],
    called: int,
    giver: int,
) -> dict[str, Any]:
    """The full result of a finished deal, JSON-ready (``State.result``).

    Keys: ``void``, ``dealer``, ``contract``, ``soloist``, ``defenders`` (seats),
    ``called`` and ``called_from`` (Chiamo), ``thirds``/``points``/``tricks`` per side,
    ``last_trick`` (side), ``success``, ``multiplier``, ``bonus`` (cappotto/stramazzo),
    ``value`` (V), ``unit`` (what one defender's share is worth), ``raw`` (C-9.1 total
    increments per seat), ``pairwise`` (C-9.5 per seat) and ``returns`` (per reward_mode).
    """
    out: dict[str, Any] = {"void": st is None, "dealer": dealer}
    if st is None:
        return out | {"contract": None, "returns": list(seat_returns(st, rules, seat_of))}
    sol, sides = st.soloist, ("soloist", "defenders")
    called_from = {GIVER_MONTE: "monte", GIVER_OWN: "own", GIVER_NONE: None}
    return out | {
        "contract": CONTRACTS[st.contract],
        "soloist": seat_of[sol],
        "defenders": [seat_of[(sol + 1) % 3], seat_of[(sol + 2) % 3]],
        "called": ITALIAN_40.labels[called] if called >= 0 else None,
        "called_from": called_from.get(giver, f"S{seat_of[giver]}"),
        "thirds": dict(zip(sides, st.thirds, strict=True)),
        "points": dict(zip(sides, st.points, strict=True)),
        "tricks": dict(zip(sides, st.tricks, strict=True)),
        "last_trick": sides[st.last_trick_side],
        "success": st.success,
        "multiplier": st.multiplier,
        "bonus": st.bonus or None,
        "value": st.value,
        "unit": st.unit,
        "raw": list(per_seat(st.raw, seat_of, rules.players)),
        "pairwise": list(per_seat(st.pairwise, seat_of, rules.players)),
        "returns": list(seat_returns(st, rules, seat_of)),
    }


def payoff_bound(rules: Rules) -> int:
    """The largest |return| one seat can get from one deal under ``rules``: from
    ``State.returns()`` and from a ``Match`` (which scales by ``aperta_payout_factor``).

    A defender's share is worth at most ``U = V * m * d``: V the highest value of an allowed
    contract, m the highest multiplier (1, ``cappotto_mult``, ``stramazzo_mult`` if
    ``stramazzo``), d = 11 under ``payout_mode = difference`` (the points always sum to 11, and
    both cappotto and stramazzo can end 11-0), else 1. Pairwise the soloist settles with two
    defenders, so he gets +-2U; raw a seat gains U, except a due where the dealer's seat holds
    both defender positions (2U). Under ``aperta`` a match multiplies by the factor; the bound
    is ``ceil(bound * max(1, factor))``, since a single deal's ``returns()`` is unscaled.

    The bound is tight: it is attained by the soloist bidding the highest contract and taking
    every trick (cappotto) or all tricks but one and all thirds but at most 2 (stramazzo),
    whichever multiplier is higher; ``tests/calabresella/test_payoff_bound.py`` plays such
    deals for 3, 4 and 2 players, fixed and difference payouts, pairwise and raw. (Raw a due,
    the dealer's 2U needs the defenders to make it, symmetrically.) Under ``aperta`` with a
    factor above 1 a match attains it exactly when ``bound * factor`` is a whole number.
    """
    value = max(rules.contract_values[CONTRACTS.index(c)] for c in rules.allowed_contracts)
    mult = max(1, rules.cappotto_mult, rules.stramazzo_mult if rules.stramazzo else 1)
    unit_max = value * mult * (MAX_POINTS if rules.payout_mode == "difference" else 1)
    shares = 2 if rules.reward_mode == "pairwise" or rules.players == 2 else 1
    factor = rules.aperta_payout_factor if rules.aperta else 1.0
    return math.ceil(shares * unit_max * max(1.0, factor))
