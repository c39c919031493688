"""Determinization: a complete ``State`` built from one seat's ``InfoView`` plus an assignment of
the cards that seat cannot see (other hands, the unseen monte or set-aside cards).

Search agents sample such assignments (``mazzo.agents.calabresella.sampler``) and play the resulting
worlds out with perfect information. The world continues exactly like the real deal would if the
hidden cards were where the assignment puts them: same phase, seat on turn, auction, contract,
exchange bookkeeping, trick, piles and voids. Its ``history`` starts empty and its ``deal``
carries the dealer only (a world has no dealing order).

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from mazzo.envs.calabresella.actions import BID_BASE, PASS, Contract, Phase
from mazzo.envs.calabresella.state import State
from mazzo.envs.calabresella.view import InfoView
from mazzo.envs.cards.bits import bit_list
from mazzo.envs.cards.deal import Deal

__all__ = ["MONTE_PHASES", "determinize", "known_positions"]

# Phases in which the four monte cards are still together, untouched.
MONTE_PHASES = (Phase.BID, Phase.CALL, Phase.RETURN, Phase.SPLIT)


def known_positions(view: InfoView) -> dict[int, int]:
    """Hands the viewer knows exactly: his own position(s) and a visible partner hand."""
    known = {}
    if view.position >= 0:
        known[view.position] = view.hand
        if view.partner_hand and view.soloist >= 0:
            other = (view.soloist + 1) % 3
            if other == view.position:
                other = (view.soloist + 2) % 3
            known[other] = view.partner_hand
    return known


def determinize(view: InfoView, hands: tuple[int, int, int], rest: int) -> State:
    """The world of ``view`` in which the positions hold ``hands`` and the cards neither held nor
    played are ``rest`` (the untouched monte in ``MONTE_PHASES``, else the set-aside cards).

    The caller guarantees consistency (hand sizes, voids, known cards); see the sampler. The
    state is built by ``State.restore`` from the values computed here."""
    untouched = view.phase in MONTE_PHASES
    pos = view.to_play if view.to_play >= 0 else 0
    high_bid = high_pos = -1
    for p, a in view.bids:
        if a != PASS:
            high_bid, high_pos = a - BID_BASE, p
    received, discarded = _exchange_bookkeeping(view, list(hands))
    return State.restore({
        "rules": view.rules, "deal": Deal(view.dealer, ()), "seat_of": view.seat_of,
        "phase": view.phase, "pos": pos, "to_play": view.seat_of[pos] if view.to_play >= 0 else -1,
        "hands": list(hands), "monte": _monte(view, rest, untouched, hands),
        "set_aside": 0 if untouched else rest, "bids": list(view.bids),
        "passed": sum(1 << p for p, a in view.bids if a == PASS), "high_bid": high_bid,
        "high_pos": high_pos, "no_chiamo": view.no_chiamo, "contract": view.contract,
        "soloist": view.soloist, "called": view.called, "giver": view.giver,
        "returned": view.returned, "received": received, "discarded": discarded,
        "split": _split_code(view) if view.split_d1 or view.split_d2 else -1,
        "left": _left(view), "trick": list(view.trick), "leader": view.leader,
        "tricks": list(view.tricks), "position_tricks": list(view.position_tricks),
        "tricks_won": list(view.tricks_won),
        "piles": list(view.piles), "played_by": list(view.played_by), "void": list(view.void),
        "history": [], "settlement": None,
    })  # fmt: skip


def _split_code(view: InfoView) -> int:
    monte = sorted(bit_list(view.split_d1 | view.split_d2))
    return sum(1 << i for i, c in enumerate(monte) if view.split_d1 >> c & 1)


def _monte(
    view: InfoView, rest: int, untouched: bool, hands: tuple[int, int, int]
) -> tuple[int, int, int, int]:
    if untouched:
        cards = bit_list(rest)
    elif view.contract == Contract.SCEGLIETE:
        cards = bit_list(view.split_d1 | view.split_d2)
    elif view.contract == Contract.SOLISSIMO:
        cards = bit_list(rest)
    else:  # only the exposure of the known monte cards matters once it is distributed
        pool = bit_list((rest | hands[0] | hands[1] | hands[2]) & ~view.known_monte)
        cards = bit_list(view.known_monte) + pool[: 4 - view.known_monte.bit_count()]
    return (cards[0], cards[1], cards[2], cards[3])


def _exchange_bookkeeping(view: InfoView, hands: list[int]) -> tuple[list[int], list[int]]:
    """``received`` and ``discarded`` per position: exact where the viewer knows them; for the
    others only the sizes matter to the rest of the procedure (D2's discards in dividete)."""
    received = list(view.received)
    discarded = [0, 0, 0]
    if view.contract == Contract.DIVIDETE:
        for d in ((view.soloist + 1) % 3, (view.soloist + 2) % 3):
            if not received[d]:
                received[d] = sum(1 << c for c in bit_list(hands[d])[:2])  # a 2-card stand-in
    if view.position >= 0:  # (a due: the union of both positions' discards, on one of them)
        discarded[view.position] = view.discards
    return received, discarded


def _left(view: InfoView) -> int:
    if view.phase in (Phase.SOLO_DISCARD, Phase.DIV_DISCARD, Phase.SCE_DISCARD):
        return view.hand_sizes[view.to_play] - 12
    return 0
