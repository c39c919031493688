"""VIEW objects of the bot protocol: one seat's ``InfoView`` as JSON, the generic fields
(``seat``, ``to_play``, ``phase``, ``hand``, ``legal``) plus the game's own (``Game.view_json``,
written in ``envs/<game>/``). Nothing but what the view holds, so nothing the seat may not see.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mazzo.envs.cards.bits import bit_list
from mazzo.envs.registry import AnyGame

__all__ = ["legal_labels", "view_json"]


def legal_labels(view: Any, label: Callable[[int], str]) -> list[str]:
    """The labels of the view's legal actions (empty unless the seat is on turn)."""
    return [label(a) for a in bit_list(view.legal_mask)]


def view_json(game: AnyGame, view: Any, label: Callable[[int], str]) -> dict[str, Any]:
    """``view`` (seat ``view.seat``'s ``InfoView``) as a VIEW object; ``label`` names an action
    id in the current phase (``state.action_label``)."""
    own = game.view_json(view)
    return {
        "seat": view.seat,
        "to_play": own.pop("to_play"),
        "phase": view.phase.name.lower(),
        "hand": game.info.deck.codes(view.hand),
        "legal": legal_labels(view, label),
        **own,
    }
