"""A card-play agent whose decisions outside card play are another agent's: the ``others=bot``
option of ``pimc`` and ``ipimc`` (the search plays the cards, the shipped network bids, calls,
exchanges, discards and declares).

Owns ``OutsidePlay``: it routes each view by its phase (``PLAY``: the card player; anything
else: the other agent), carries the other agent's ``trained_rules`` (so the arena, ``mazzo
play`` and ``mazzo serve`` refuse rules the network was not trained for, as for the network
alone) and keeps the searcher's ``search`` (a decision outside card play is reported as not
searched: its values are empty), except the phases its ``playouts`` serves
(``mazzo.agents.playouts``: ``playouts=bid+call``), searched by playing sampled worlds out with
the network, and the phases of ``own`` (``own_phases=call+return``), which the card player
decides its own way (the search's values reported), as under ``others=own``.

Must not import torch or training/ (the network arrives built).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mazzo.agents.base import AnyAgent
from mazzo.agents.playouts import PlayoutSearch

__all__ = ["OutsidePlay", "is_card_play"]


def is_card_play(view: Any) -> bool:
    """Whether ``view`` is a decision of trick play (both games name that phase ``PLAY``)."""
    return bool(view.phase.name == "PLAY")


@dataclass
class OutsidePlay:
    """``player`` decides card play, ``other`` every other decision.

    Attributes:
        player: the card player (a search agent).
        other: the agent of the decisions outside card play.
        other_label: how ``other`` is named in this agent's name (``bot``).
        playouts: the decisions outside card play searched by the network's playouts instead
            of taken by ``other`` (None: none).
        own: the phases outside card play (lower-case names) that ``player`` decides, as it
            would under ``others=own``.
    """

    player: AnyAgent
    other: AnyAgent
    other_label: str
    playouts: PlayoutSearch | None = None
    own: frozenset[str] = frozenset()
    name: str = field(init=False)

    def __post_init__(self) -> None:
        self.name = f"{self.player.name},others={self.other_label}"
        if self.playouts is not None:
            phases = "+".join(sorted(self.playouts.phases))
            self.name += f",playouts={phases},worlds={self.playouts.worlds}"
            if self.playouts.rival is not None:
                self.name += ",rivals=search"
        if self.own:
            self.name += f",own_phases={'+'.join(sorted(self.own))}"

    @property
    def trained_rules(self) -> Any:
        """The rules the other agent (a network) was trained for, if it records them."""
        return getattr(self.other, "trained_rules", None)

    def act(self, view: Any, rng: np.random.Generator) -> int:
        """The card player's action in card play, the other agent's elsewhere."""
        if is_card_play(view) or self._own(view):
            return self.player.act(view, rng)
        if self.playouts is not None and self.playouts.serves(view):
            return self.playouts.search(view, rng)[0]
        return self.other.act(view, rng)

    def search(self, view: Any, rng: np.random.Generator) -> tuple[int, dict[int, float]]:
        """The searcher's decision with its values in card play; elsewhere the other agent's
        action, not searched (no values), except where ``playouts`` serves."""
        if is_card_play(view) or self._own(view):
            return self.player.search(view, rng)  # type: ignore[attr-defined, no-any-return]
        if self.playouts is not None and self.playouts.serves(view):
            return self.playouts.search(view, rng)
        return self.other.act(view, rng), {}

    def _own(self, view: Any) -> bool:
        """Whether ``view``'s decision is one of the phases ``player`` decides (``own``)."""
        return bool(self.own) and view.phase.name.lower() in self.own
