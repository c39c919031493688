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
from envs.minchiate.kernel import ASK, death_points, matto_handover, settle
from envs.minchiate.scoring import (
    TEAM_NAMES,
    DealResult,
    EndCount,
    Event,
    MattoSettlement,
    end_count,
)
from envs.minchiate.tables import LABELS, MATTO

if TYPE_CHECKING:
    from envs.minchiate.rules import State

__all__ = ["deal_result", "end_of_play", "pay", "result_dict"]


def end_of_play(s: State) -> None:
    """M-13.1: hand over what the Matto's team owes (or ask its owner), then count."""
    card = matto_handover(
        s.piles[s.matto_owner & 1], s.matto_debt, s.matto_lost, s.rules.matto_payment == "agent"
    )
    if card == ASK:
        s.phase, s.to_play = Phase.MATTO_PAY, s.matto_owner
        return
    pay(s, card)


def pay(s: State, card: int) -> None:
    """The settlement (``kernel.settle``) after the Matto's team hands over ``card`` (-1 for
    nothing, ``MATTO`` for the Matto itself): the death bonus, the end counts, the net event
    and the end rounding."""
    rules, owner = s.rules, s.matto_owner
    pa, pb, d, r, d_final, resti = settle(
        (s.piles[0], s.piles[1]), owner, card, s.last_winner, s.decl_end, s.D, s.R, rules
    )
    s.piles = [pa, pb]
    if card == MATTO:
        s.matto_lost = True
    elif card >= 0:
        s.matto_paid = card
    points = death_points(card, rules)
    if points:
        s.events.append(Event((owner & 1) ^ 1, points, "matto_death", owner, 21, d, r))
    last = s.last_winner & 1
    s.end_counts = (
        end_count(pa, last == 0, s.decl_end[0], rules),
        end_count(pb, last == 1, s.decl_end[1], rules),
    )
    net = d_final - d
    s.r_play, s.d_final, s.D, s.end_resti, s.R = r, d_final, d_final, resti - r, resti
    s.events.append(Event(0 if net >= 0 else 1, abs(net), "final", -1, 21, d_final, resti))
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
