"""The end of a Minchiate deal: the Matto settlement (M-11.5, M-13.1, MA-22, MA-23), the end
counts (M-13.2), the final net event and end rounding (M-13.3, M-14.3), and the result record.

Functions over a ``State`` (``envs.minchiate.rules``), which calls them after trick 21 and for
a MATTO_PAY decision.

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from envs.minchiate.actions import Phase
from envs.minchiate.combos import COMBO_NAMES, Combo
from envs.minchiate.scoring import (
    TEAM_NAMES,
    DealResult,
    EndCount,
    Event,
    MattoSettlement,
    auto_payment,
    end_count,
    end_rounding,
)
from envs.minchiate.tables import BIT, LABELS, MATTO, MATTO_BIT, VALUE

if TYPE_CHECKING:
    from envs.minchiate.rules import State

__all__ = ["deal_result", "end_of_play", "final", "lose_matto", "pay", "result_dict"]


def lose_matto(s: State, team: int) -> None:
    """The Matto itself goes to the other team (M-13.1, MA-22); with ``matto_death_bonus`` they
    score its value at once."""
    s.piles[team] ^= MATTO_BIT
    s.piles[team ^ 1] |= MATTO_BIT
    s.matto_lost = True
    if s.rules.matto_death_bonus:
        s.score_event(team ^ 1, VALUE[MATTO], "matto_death", s.matto_owner, 21)


def end_of_play(s: State) -> None:
    """M-13.1: settle the Matto debt, then count."""
    if s.matto_debt:
        team = s.matto_owner & 1
        if not s.piles[team] & ~MATTO_BIT:
            lose_matto(s, team)
        elif s.rules.matto_payment == "agent":
            s.phase, s.to_play = Phase.MATTO_PAY, s.matto_owner
            return
        else:
            pay(s, auto_payment(s.piles[team]))
    final(s)


def pay(s: State, card: int) -> None:
    """The Matto's team hands ``card`` from its pile to the other team (M-13.1)."""
    team = s.matto_owner & 1
    s.piles[team] ^= BIT[card]
    s.piles[team ^ 1] |= BIT[card]
    s.matto_paid = card


def final(s: State) -> None:
    """M-13.2, M-13.3, M-14.3: the end counts, the net event and the end rounding."""
    rules, last = s.rules, s.last_winner & 1
    count_a = end_count(s.piles[0], last == 0, s.decl_end[0], rules)
    count_b = end_count(s.piles[1], last == 1, s.decl_end[1], rules)
    s.end_counts = (count_a, count_b)
    net = count_a.total - count_b.total
    s.r_play = s.R
    s.d_final = s.D = s.D + net
    s.end_resti = end_rounding(s.D, rules.resti_unit)
    s.R += s.end_resti
    s.events.append(Event(0 if net >= 0 else 1, abs(net), "final", -1, 21, s.D, s.R))
    s.phase, s.to_play = Phase.DONE, -1


def deal_result(s: State) -> DealResult:
    """The full result so far: every event with D and R after it, and once the deal is over
    the end counts, the Matto settlement, the end rounding and the returns."""
    done = s.phase is Phase.DONE and not s.void
    matto = None
    if done:
        matto = MattoSettlement(s.matto_owner, s.matto_debt, s.matto_paid, s.matto_lost)
    return DealResult(
        void=s.void,
        events=tuple(s.events),
        end_counts=s.end_counts,
        matto=matto,
        d_final=s.d_final,
        r_play=s.r_play if done else s.R,
        end_resti=s.end_resti,
        resti=s.R if done else 0,
        returns=s.returns(),
    )


def _codes(cards: int | tuple[int, ...]) -> list[str]:
    if isinstance(cards, tuple):
        return [LABELS[c] for c in cards]
    return [LABELS[c] for c in range(97) if (cards >> c) & 1]


def _combo(c: Combo) -> dict[str, Any]:
    return {"kind": COMBO_NAMES[c.kind], "cards": _codes(c.members), "points": c.points,
            "bonus": c.bonus, "score": c.score}  # fmt: skip


def _count(c: EndCount) -> dict[str, Any]:
    return {
        "card_points": c.card_points,
        "combos": [_combo(x) for x in c.combos],
        "combo_points": c.combo_points,
        "cards": c.cards,
        "surplus": c.surplus,
        "last_trick": c.last_trick,
        "declared": c.declared,
        "total": c.total,
    }


def _event(e: Event) -> dict[str, Any]:
    return {
        "team": TEAM_NAMES[e.team],
        "points": e.points,
        "cause": e.cause,
        "seat": e.seat,
        "trick": e.trick,
        "D": e.d_after,
        "R": e.r_after,
    }


def result_dict(s: State) -> dict[str, Any]:
    """The deal's result as JSON-ready data.

    Keys: ``void``, ``dealer``, ``cutter``, ``robbed``, ``stop``, ``faceup`` (per seat, code or
    None), ``dealer_robbed``, ``dealer_taken``, ``declared`` (seat, kind, cards, points, bonus,
    score), ``events`` (team ``A``/``B``, points, cause, seat, trick, ``D`` and ``R`` after),
    ``trick_winners``, ``end_counts`` (``A``/``B`` breakdowns, or None), ``matto`` (owner, debt,
    paid card, lost; or None), ``d_final``, ``r_play``, ``end_resti``, ``resti``, ``returns``.
    """
    out = deal_result(s)
    st, counts, m = s.setup, out.end_counts, out.matto
    matto = None
    if m is not None:
        paid = LABELS[m.paid] if m.paid >= 0 else None
        matto = {"owner": m.owner, "debt": m.debt, "paid": paid, "lost": m.lost}
    return {
        "void": out.void,
        "dealer": s.dealer,
        "cutter": s.cutter,
        "robbed": _codes(st.robbed),
        "stop": LABELS[st.stop],
        "faceup": [LABELS[c] if c >= 0 else None for c in st.faceup],
        "dealer_robbed": _codes(st.dealer_robbed),
        "dealer_taken": _codes(st.dealer_taken),
        "declared": [{"seat": seat} | _combo(c) for seat, c in s.declared],
        "events": [_event(e) for e in out.events],
        "trick_winners": [w for _, _, w in s.tricks],
        "end_counts": None if counts is None else {"A": _count(counts[0]), "B": _count(counts[1])},
        "matto": matto,
        "d_final": out.d_final,
        "r_play": out.r_play,
        "end_resti": out.end_resti,
        "resti": out.resti,
        "returns": list(out.returns),
    }
