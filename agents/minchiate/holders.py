"""Minchiate's holder classes for belief models (``mazzo.agents.belief``): from one seat's point of
view, class ``r`` (0..3) is the hand of the seat ``r`` places after it in turn order (0: its
own), class 4 every place outside the hands (the Fola with the discards, and the cards played).

Must not import torch or training/.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mazzo.agents.belief import hand_classes, slot_prior
from mazzo.agents.minchiate.sampler import WorldSampler
from mazzo.envs.minchiate.view import InfoView
from mazzo.envs.minchiate.worlds import Assignment

__all__ = ["HOLDERS", "MinchiateHolders"]

N_CARDS = 97
ALL = (1 << N_CARDS) - 1
ELSEWHERE = 4


class MinchiateHolders:
    """The holder classes of Minchiate (see the module docstring)."""

    n_cards = N_CARDS
    n_classes = 5

    def of_state(self, state: Any, seat: int) -> np.ndarray:
        return hand_classes(state.hands, seat, N_CARDS)

    def of_assignment(self, view: InfoView, world: Assignment) -> np.ndarray:
        return hand_classes(world.hands, view.seat, N_CARDS)

    def hidden(self, view: InfoView) -> int:
        seen = view.hand | view.discards | view.fola_known
        for cards in view.played_by:
            seen |= cards
        return ALL & ~seen

    def prior(self, view: InfoView, sampler: WorldSampler) -> np.ndarray:
        seat = view.seat

        def klass(slot: int) -> int:
            return (slot - seat) & 3 if slot < 4 else ELSEWHERE

        return slot_prior(
            N_CARDS, self.n_classes, [klass(j) for j in sampler.slots],
            sampler.capacities, sampler.allowed,
            [(cards, klass(slot)) for slot, cards in sampler.known.items()],
        )  # fmt: skip


HOLDERS = MinchiateHolders()
