"""A search whose choice of card leans on a trained network: the ``prior`` option of ``ipimc``
(search on top of a learned blueprint).

Owns ``PolicyPrior``: in card play it asks the searcher for its values (``search``: the mean
value of every searched candidate over the sampled worlds) and picks the candidate with the
highest ``value + weight * log p``, ``p`` the network's probability of that card on the same
view (its policy head, masked to the legal cards). Determinized search often finds several
cards worth about the same over its worlds (Minchiate PIMC's best and second-best differ by a
median 0.034 resti); the network, which played millions of deals, breaks those near-ties and
pulls the choice towards its own where the search's margin is thin, and a clear search margin
still wins. A forced or unsearched decision, and every decision outside card play, is the
searcher's own. The values ``search`` reports are the searcher's, unchanged; its action is the
one this rule picks. The network's ``trained_rules`` are carried (the arena, ``mazzo play`` and
``mazzo serve`` refuse rules it was not trained for, as for the network alone).

Must not import torch or training/ (the network arrives built).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from mazzo.agents.outside_play import is_card_play

__all__ = ["PolicyPrior", "Searcher", "prior_choice"]


class Searcher(Protocol):
    """A search agent that reports the values it chose on."""

    name: str

    def search(self, view: Any, rng: np.random.Generator) -> tuple[int, dict[int, float]]: ...


FLOOR = 1e-9  # the smallest probability counted (log of a card the network never plays)


def prior_choice(values: dict[int, float], probs: Any, weight: float) -> int:
    """The candidate of the highest ``value + weight * log(max(p, FLOOR))`` (the first such in
    the order of ``values``)."""
    best, best_score = -1, -math.inf
    for card, value in values.items():
        score = value + weight * math.log(max(float(probs[card]), FLOOR))
        if score > best_score:
            best, best_score = card, score
    return best


@dataclass
class PolicyPrior:
    """``searcher`` in card play with ``network``'s policy as a prior on its choice.

    Attributes:
        searcher: a search agent with ``search(view, rng) -> (action, {card: value})``.
        network: an agent with ``action_probs(view)`` (the shipped bot).
        weight: the prior's weight (in the game's payoff unit per nat); 0 leaves the search's
            choice.
    """

    searcher: Searcher
    network: Any
    weight: float
    name: str = field(init=False)

    def __post_init__(self) -> None:
        if not self.weight >= 0:
            raise ValueError(f"the prior's weight must be >= 0, got {self.weight}")
        self.name = f"{self.searcher.name},prior={self.weight:g}"

    @property
    def trained_rules(self) -> Any:
        """The rules the network was trained for."""
        return getattr(self.network, "trained_rules", None)

    def act(self, view: Any, rng: np.random.Generator) -> int:
        """The searched card of the best value plus prior; the searcher's action elsewhere."""
        return self.search(view, rng)[0]

    def search(self, view: Any, rng: np.random.Generator) -> tuple[int, dict[int, float]]:
        """The searcher's values, and the action the prior picks among them (the searcher's
        own when fewer than two candidates were searched, or outside card play)."""
        action, values = self.searcher.search(view, rng)
        if len(values) < 2 or self.weight == 0 or not is_card_play(view):
            return action, values
        return prior_choice(values, self.network.action_probs(view), self.weight), values
