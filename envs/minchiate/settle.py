"""The end of a Minchiate deal: the settlement after trick 21 as a pure function of the deal's
piles and score (M-11.5, M-13.1 to M-13.3, M-14.3, MA-22, MA-23), and the deal's result record.

``settlement`` returns what the settlement decides (``Settled``); ``state.State`` applies it.
It, ``deal_result`` and ``result_dict`` read the deal through the ``DealState`` protocol. The
rules themselves are the kernel's (``kernel.settle``); this module adds the typed events and the
broken-down end counts of the record.

Must not import numpy, torch, gymnasium or pettingzoo, nor ``mazzo.envs.minchiate.state``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from mazzo.envs.minchiate.actions import Phase
from mazzo.envs.minchiate.combos import COMBO_NAMES, Combo
from mazzo.envs.minchiate.kernel import death_points, settle
from mazzo.envs.minchiate.protocol import DealState
from mazzo.envs.minchiate.scoring import (
    TEAM_NAMES,
    DealResult,
    EndCount,
    Event,
    MattoSettlement,
    end_count,
)
from mazzo.envs.minchiate.tables import LABELS, MATTO

__all__ = ["Settled", "deal_result", "result_dict", "settlement"]


class Settled(NamedTuple):
    """What the settlement of a finished play decides.

    Attributes:
        piles: the teams' piles after the Matto's hand-over.
        paid: the card paid for the Matto (-1 if none).
        lost: the Matto itself went to the other team.
        events: the ``matto_death`` event (if any), then the ``final`` net event.
        end_counts: (T_A, T_B) broken down.
        r_play: R before the final event; d_final: D after it; end_resti: the end rounding.
        resti: the final net resti R.
    """

    piles: tuple[int, int]
    paid: int
    lost: bool
    events: tuple[Event, ...]
    end_counts: tuple[EndCount, EndCount]
    r_play: int
    d_final: int
    end_resti: int
    resti: int


def settlement(s: DealState, card: int) -> Settled:
    """The settlement of ``s`` after trick 21 (``kernel.settle``): ``card`` is what the Matto's
    team hands over, -1 for nothing, ``MATTO`` for the Matto itself."""
    matto_owner, last_winner, decl_end, rules = s.matto_owner, s.last_winner, s.decl_end, s.rules
    piles = (s.piles[0], s.piles[1])
    pa, pb, d, r, d_final, resti = settle(
        piles, matto_owner, card, last_winner, decl_end, s.D, s.R, rules
    )
    events = []
    points = death_points(card, rules)
    if points:
        team = (matto_owner & 1) ^ 1
        events.append(Event(team, points, "matto_death", matto_owner, 21, d, r))
    net = d_final - d
    events.append(Event(0 if net >= 0 else 1, abs(net), "final", -1, 21, d_final, resti))
    last = last_winner & 1
    counts = (
        end_count(pa, last == 0, decl_end[0], rules),
        end_count(pb, last == 1, decl_end[1], rules),
    )
    paid = card if card >= 0 and card != MATTO else -1
    return Settled(
        (pa, pb), paid, card == MATTO, tuple(events), counts, r, d_final, resti - r, resti
    )


def deal_result(s: DealState) -> DealResult:
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


def result_dict(s: DealState) -> dict[str, Any]:
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
