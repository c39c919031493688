"""Minchiate scoring records (RULES.md M-12 to M-14): the typed scoring events, the broken-down
end count of a team's pile and the deal result. The rules themselves (the ratchet, the end
count's total, the Matto payment, the end rounding) are the kernel's
(``mazzo.envs.minchiate.kernel``).

Teams: 0 = team A (S0 + S2), 1 = team B (S1 + S3); a seat's team is ``seat & 1``. D is A's
points minus B's since the start of the deal after conversions; R the net resti (+ favours A).

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from typing import NamedTuple

from mazzo.envs.minchiate.combos import Combo, find_combos
from mazzo.envs.minchiate.kernel import end_combos, end_total, last_trick_points, surplus_points
from mazzo.envs.minchiate.rules import Rules
from mazzo.envs.minchiate.tables import FULL, MATTO, VALUE, card_points

__all__ = [
    "TEAM_NAMES",
    "DealResult",
    "EndCount",
    "Event",
    "MattoSettlement",
    "end_count",
    "payoff_bound",
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


# The most combinations one holder can show (M-9.2): a low run, three high runs (T28..T40 holds
# at most three runs of three), 1-13-28, two diecine, 1-40-M and the kings.
MAX_COMBOS = 9


def payoff_bound(rules: Rules) -> int:
    """The largest possible |return| of one seat in one deal, in resti, under ``rules``.

    The net resti R of a deal is ``floor`` or ``ceil`` of P / ``resti_unit``, where P is team
    A's signed sum of every scoring event (the ratchet keeps ``R * unit + D`` equal to it and
    the end rounding rounds the rest away from zero), so |R| <= ceil(|P| / unit). |P| is at most
    what one team can score when the other scores nothing:

    * the pre-play events of its own cards and the capture of the other team's cards: no card
      counts in both, so together at most the deck's 142 points;
    * its declarations and, at the end, its pile's combinations (when ``end_recount_combos``):
      each at most the points of every combination of the whole deck (two disjoint holders
      cannot hold more of any kind) plus the Matto bonus on at most ``MAX_COMBOS`` of them;
    * the Matto's death bonus (``matto_death_bonus``);
    * the end count: 142 card points, the surplus of a pile of all 97 cards, the last trick.

    How tight: a loose upper bound, not a reachable result. Every part above cannot peak in
    the same deal (a team that captures everything is not also dealt every combination), so
    real deals stay below it: with the default rules the bound is 14 resti and the largest |R|
    in 20,000 random-play deals was 9 (with ``resti_unit = 20``: 41 and 24 in 3,000 deals; with
    ``resti_unit = 10`` and neither recount nor captures: 59 and 24).
    ``tests/minchiate/test_kernel.py`` checks it on thousands of deals of several variants.
    """
    deck_points = card_points(FULL)
    combos = sum(c.points for c in find_combos(FULL, rules.diecine, False))
    declared = combos + VALUE[MATTO] * MAX_COMBOS  # the bonus always applies to declarations
    recount = 0
    if rules.end_recount_combos:
        recount = combos + (VALUE[MATTO] * MAX_COMBOS if rules.matto_bonus_at_end else 0)
    death = VALUE[MATTO] if rules.matto_death_bonus else 0
    end = deck_points + max(0, 97 - rules.surplus_base) + rules.last_trick_bonus + recount
    total = deck_points + declared + death + end
    unit = rules.resti_unit
    return (total + unit - 1) // unit
