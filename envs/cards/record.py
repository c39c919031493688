"""The parsed form of a RULES.md D.3 deal record, the same for every game.

``read_record`` of each game returns a ``DealRecord``; the fields mean the same thing in every
game (no element whose meaning changes per game).

Must not import numpy, torch, gymnasium or pettingzoo (stdlib only).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from envs.cards.deal import Deal

__all__ = ["DealRecord"]


class DealRecord(NamedTuple):
    """A D.3 record, read and checked.

    Attributes:
        rules: the game's ``Rules`` in force.
        deal: the dealer and the card order.
        actions: the record's action triples (``[seat, verb, arg]``), not yet applied.
        expect: the record's ``expect`` block (empty when absent).
        options: keyword arguments the game's ``new_state`` needs to start this deal as the
            record says (for example a Calabresella no-Chiamo redeal); empty for a plain deal.
    """

    rules: Any
    deal: Deal
    actions: tuple[Any, ...]
    expect: Mapping[str, Any]
    options: Mapping[str, Any]
