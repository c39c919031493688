"""Minchiate scoring records (RULES.md M-12 to M-14): the typed scoring events, the broken-down
end count of a team's pile and the deal result. The rules themselves (the ratchet, the end
count's total, the Matto payment, the end rounding) are the kernel's (``envs.minchiate.kernel``).

Teams: 0 = team A (S0 + S2), 1 = team B (S1 + S3); a seat's team is ``seat & 1``. D is A's
points minus B's since the start of the deal after conversions; R the net resti (+ favours A).

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from typing import NamedTuple

from envs.minchiate.combos import Combo
from envs.minchiate.config import Rules
from envs.minchiate.kernel import end_combos, end_total, last_trick_points, surplus_points
from envs.minchiate.tables import card_points

__all__ = [
    "TEAM_NAMES",
    "DealResult",
    "EndCount",
    "Event",
    "MattoSettlement",
    "end_count",
]

TEAM_NAMES = ("A", "B")


class Event(NamedTuple):
    """One scoring event (M-14.2), with D and R after the ratchet.

    ``cause`` is one of ``cutter_rob``, ``faceup``, ``dealer_rob``, ``dealer_take``,
    ``declare``, ``capture``, ``matto_death`` or ``final``; ``seat`` is the seat whose action or
    card caused it (the trick winner for a capture, -1 for the final event); ``trick`` is the
    trick number 1..21 for in-play events (0 otherwise). The final event carries the net
    ``T_A - T_B`` as (team, points) with points >= 0 and is not ratcheted (M-13.3).
    """

    team: int
    points: int
    cause: str
    seat: int
    trick: int
    d_after: int
    r_after: int


class EndCount(NamedTuple):
    """A team's end-of-deal count T_X (M-13.2), broken down."""

    card_points: int
    combos: tuple[Combo, ...]
    combo_points: int
    cards: int
    surplus: int
    last_trick: int
    declared: int
    total: int


class MattoSettlement(NamedTuple):
    """What happened to the Matto (M-11.5, M-13.1, MA-22).

    ``owner`` played it (-1 if never played, which cannot happen in a finished deal); ``debt``:
    its trick was won by the other team; ``paid``: the card handed over (-1 if none); ``lost``:
    the Matto itself went to the opponents (no trick won, or ``matto_last_trick_lost``).
    """

    owner: int
    debt: bool
    paid: int
    lost: bool


class DealResult(NamedTuple):
    """The full result of a deal.

    Attributes:
        void: the deal was voided (M-8.5); returns are 0.
        events: every scoring event in order (the final net event last).
        end_counts: (T_A, T_B) breakdowns, or None before the end / for a void deal.
        matto: the Matto settlement, or None before the end.
        d_final: D after the final net event, before end rounding.
        r_play: R before the final event (resti banked during the deal).
        end_resti: the end rounding of M-14.3.
        resti: net resti R (positive favours team A).
        returns: per seat, +R for team A's seats and -R for team B's.
    """

    void: bool
    events: tuple[Event, ...]
    end_counts: tuple[EndCount, EndCount] | None
    matto: MattoSettlement | None
    d_final: int
    r_play: int
    end_resti: int
    resti: int
    returns: tuple[int, int, int, int]


def end_count(pile: int, won_last: bool, declared: int, rules: Rules) -> EndCount:
    """T_X of M-13.2 for a team with ``pile`` (after the Matto settlement), broken down for the
    record; every part and the total come from the kernel (``kernel.end_total``).

    Args:
        pile: the team's cards.
        won_last: the team won trick 21.
        declared: the team's declared total when ``declaration_score_timing = end``, else 0.
        rules: the flags (``end_recount_combos``, ``matto_bonus_at_end``, ``diecine``, ...).
    """
    combos = end_combos(pile, rules)
    cards = pile.bit_count()
    return EndCount(
        card_points=card_points(pile),
        combos=combos,
        combo_points=sum(c.score for c in combos),
        cards=cards,
        surplus=surplus_points(cards, rules),
        last_trick=last_trick_points(won_last, rules),
        declared=declared,
        total=end_total(pile, won_last, declared, rules),
    )
