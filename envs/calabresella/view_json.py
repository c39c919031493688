"""Calabresella's ``InfoView`` as a JSON object, for the bot protocol (``mazzo serve``): the
view's own fields, card masks as lists of card codes, positions turned into seats where a
seat is meant. Only what the view holds, so nothing the seat may not see.

Must not import numpy, torch, gymnasium or pettingzoo (stdlib only).
"""

from __future__ import annotations

from typing import Any

from mazzo.envs.calabresella.actions import BID_BASE, CONTRACTS, PASS
from mazzo.envs.calabresella.deck import ITALIAN_40
from mazzo.envs.calabresella.exchanges import GIVER_MONTE, GIVER_OWN
from mazzo.envs.calabresella.view import InfoView

__all__ = ["view_json"]

_CODES = ITALIAN_40.labels
_SIDES = ("soloist", "defenders")


def view_json(view: InfoView) -> dict[str, Any]:
    """The view as JSON-ready data (``docs/protocol.md``, the Calabresella VIEW fields).

    ``to_play``, ``dealer``, ``soloist``, ``leader``, ``giver`` and the seats in ``bids`` and
    tricks are seats; ``received``, ``hand_sizes``, ``played_by`` and ``void`` are per position
    A0..A2 (``seat_of`` maps a position to its seat).
    """
    seat_of = view.seat_of

    def seat(pos: int) -> int | None:
        return seat_of[pos] if pos >= 0 else None

    codes = ITALIAN_40.codes
    return {
        "to_play": seat_of[view.to_play] if view.to_play >= 0 else -1,
        "position": view.position,
        "players": view.n_players,
        "dealer": view.dealer,
        "seat_of": list(seat_of),
        "bids": [
            {"seat": seat_of[p], "bid": "pass" if a == PASS else CONTRACTS[a - BID_BASE]}
            for p, a in view.bids
        ],
        "no_chiamo": view.no_chiamo,
        "contract": CONTRACTS[view.contract] if view.contract >= 0 else None,
        "soloist": seat(view.soloist),
        "called": _CODES[view.called] if view.called >= 0 else None,
        "giver": _giver(view.giver, seat_of),
        "returned": _CODES[view.returned] if view.returned >= 0 else None,
        "partner_hand": codes(view.partner_hand),
        "known_monte": codes(view.known_monte),
        "discards": codes(view.discards),
        "split": [codes(view.split_d1), codes(view.split_d2)],
        "received": [codes(m) for m in view.received],
        "hand_sizes": list(view.hand_sizes),
        "trick": [
            {"seat": seat_of[(view.leader + k) % 3], "card": _CODES[c]}
            for k, c in enumerate(view.trick)
        ],
        "leader": seat(view.leader),
        "tricks": [
            {
                "cards": [
                    {"seat": seat_of[(leader + k) % 3], "card": _CODES[c]}
                    for k, c in enumerate(cards)
                ],
                "winner": seat_of[winner],
            }
            for leader, cards, winner in view.position_tricks
        ],
        "played_by": [codes(m) for m in view.played_by],
        "void": [[ITALIAN_40.suit_names[s] for s in range(4) if v >> s & 1] for v in view.void],
        "piles": {side: codes(m) for side, m in zip(_SIDES, view.piles, strict=True)},
        "tricks_won": dict(zip(_SIDES, view.tricks_won, strict=True)),
        "totals": list(view.totals),
    }


def _giver(giver: int, seat_of: tuple[int, int, int]) -> int | str | None:
    """A seat, ``"monte"``, ``"own"`` (the soloist's own card), or None before the call."""
    if giver >= 0:
        return seat_of[giver]
    return {GIVER_MONTE: "monte", GIVER_OWN: "own"}.get(giver)
