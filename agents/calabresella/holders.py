"""Calabresella's holder classes for belief models (``mazzo.agents.belief``): from the position a
view speaks for, class ``r`` (0..2) is the hand of the position ``r`` places after it (0: its
own), class 3 every card outside the hands (the monte or the set-aside cards, and the cards
played).

Must not import torch or training/.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mazzo.agents.belief import hand_classes, slot_prior
from mazzo.agents.calabresella.sampler import REST, WorldSampler
from mazzo.envs.calabresella.view import InfoView

__all__ = ["HOLDERS", "CalabresellaHolders"]

N_CARDS = 40
ALL = (1 << N_CARDS) - 1
ELSEWHERE = 3


class CalabresellaHolders:
    """The holder classes of Calabresella (see the module docstring)."""

    n_cards = N_CARDS
    n_classes = 4

    def of_state(self, state: Any, seat: int) -> np.ndarray:
        """Classes from the position ``state``'s seat ``seat`` decides for now (its view's)."""
        return hand_classes(state.hands, state.info_view(seat).position, N_CARDS)

    def of_assignment(self, view: InfoView, world: tuple[tuple[int, int, int], int]) -> np.ndarray:
        return hand_classes(world[0], view.position, N_CARDS)

    def hidden(self, view: InfoView) -> int:
        seen = view.hand | view.discards
        for cards in view.played_by:
            seen |= cards
        for card in view.trick:
            seen |= 1 << card
        return ALL & ~seen

    def prior(self, view: InfoView, sampler: WorldSampler) -> np.ndarray:
        pos = view.position

        def klass(slot: int) -> int:
            return ELSEWHERE if slot == REST else (slot - pos) % 3

        placed = [(hand, klass(p)) for p, hand in sampler.known.items()]
        return slot_prior(
            N_CARDS, self.n_classes, [klass(j) for j in sampler.slots],
            sampler.capacities, sampler.allowed, placed,
        )  # fmt: skip


HOLDERS = CalabresellaHolders()
