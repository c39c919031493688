"""Calabresella's holder classes for belief models (``agents.belief``): from the position a
view speaks for, class ``r`` (0..2) is the hand of the position ``r`` places after it (0: its
own), class 3 every card outside the hands (the monte or the set-aside cards, and the cards
played).

Must not import torch or training/.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.belief import slot_prior
from agents.calabresella.sampler import REST, WorldSampler
from envs.calabresella.view import InfoView

__all__ = ["HOLDERS", "CalabresellaHolders"]

N_CARDS = 40
ALL = (1 << N_CARDS) - 1
ELSEWHERE = 3


def _bits(mask: int) -> np.ndarray:
    """``mask`` as 40 booleans (card id order)."""
    raw = np.frombuffer(mask.to_bytes(5, "little"), np.uint8)
    return np.unpackbits(raw, bitorder="little").astype(bool)


def _classes(hands: Any, position: int) -> np.ndarray:
    out = np.full(N_CARDS, ELSEWHERE, np.int8)
    for r in range(3):
        out[_bits(hands[(position + r) % 3])] = r
    return out


class CalabresellaHolders:
    """The holder classes of Calabresella (see the module docstring)."""

    n_cards = N_CARDS
    n_classes = 4

    def of_state(self, state: Any, seat: int) -> np.ndarray:
        """Classes from the position ``state``'s seat ``seat`` decides for now (its view's)."""
        return _classes(state.hands, state.info_view(seat).position)

    def of_assignment(self, view: InfoView, world: tuple[tuple[int, int, int], int]) -> np.ndarray:
        return _classes(world[0], view.position)

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
            sampler._sampler.capacities, sampler.allowed, placed,
        )  # fmt: skip


HOLDERS = CalabresellaHolders()
