"""Minchiate's ``InfoView`` as a JSON object, for the bot protocol (``mazzo serve``): the view's
own fields, card masks as lists of card codes. Only what the view holds, so nothing the seat
may not see.

Must not import numpy, torch, gymnasium or pettingzoo (stdlib only).
"""

from __future__ import annotations

from typing import Any

from mazzo.envs.minchiate.combos import COMBO_NAMES, Combo
from mazzo.envs.minchiate.deck import MINCHIATE_97
from mazzo.envs.minchiate.view import InfoView

__all__ = ["view_json"]

_CODES = MINCHIATE_97.labels
_LED = MINCHIATE_97.suit_names[:5]  # the led suit: c, d, s, b or trumps


def view_json(view: InfoView) -> dict[str, Any]:
    """The view as JSON-ready data (``docs/protocol.md``, the Minchiate VIEW fields). Every
    seat number is a seat 0..3; team 0 is S0+S2, team 1 is S1+S3."""
    codes = MINCHIATE_97.codes
    return {
        "to_play": view.to_play,
        "dealer": view.dealer,
        "cutter": view.cutter,
        "n_tricks": view.n_tricks,
        "robbed": [_CODES[c] for c in view.robbed],
        "stop_card": _card(view.stop_card),
        "faceup": [_card(c) for c in view.faceup],
        "dealer_robbed": [_CODES[c] for c in view.dealer_robbed],
        "dealer_taken": codes(view.dealer_taken),
        "discards": codes(view.discards),
        "fola_known": codes(view.fola_known),
        "fola_exposed": view.fola_exposed,
        "declared": [{"seat": s, **_combo(c)} for s, c in view.declared],
        "offered": _combo(view.offered) if view.offered is not None else None,
        "trick": [
            {"seat": (view.leader + k) % 4, "card": _CODES[c]} for k, c in enumerate(view.trick)
        ],
        "leader": view.leader,
        "led": _LED[view.led] if view.led >= 0 else None,
        "played_by": [codes(m) for m in view.played_by],
        "suits_led": [_LED[s] for s in range(4) if view.suits_led >> s & 1],
        "tricks": [
            {
                "cards": [
                    {"seat": (leader + k) % 4, "card": _CODES[c]} for k, c in enumerate(cards)
                ],
                "winner": winner,
            }
            for leader, cards, winner in view.tricks
        ],
        "piles": [codes(m) for m in view.piles],
        "matto_owner": view.matto_owner if view.matto_owner >= 0 else None,
        "matto_debt": view.matto_debt,
        "D": view.D,
        "R": view.R,
        "events": [e._asdict() for e in view.events],
        "void": view.void,
        "returns": list(view.returns),
        "hand_sizes": list(view.hand_sizes),
        "series_resti": view.series_resti,
        "deals_done": view.deals_done,
    }


def _card(card: int) -> str | None:
    return _CODES[card] if card >= 0 else None


def _combo(combo: Combo) -> dict[str, Any]:
    return {
        "combo": COMBO_NAMES[combo.kind],
        "cards": MINCHIATE_97.codes(combo.members),
        "points": combo.points,
        "bonus": combo.bonus,
    }
