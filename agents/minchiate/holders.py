"""Minchiate's holder classes for belief models (``agents.belief``): from one seat's point of
view, class ``r`` (0..3) is the hand of the seat ``r`` places after it in turn order (0: its
own), class 4 every place outside the hands (the Fola with the discards, and the cards played).

Must not import torch or training/.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.belief import slot_prior
from agents.minchiate.sampler import WorldSampler
from envs.minchiate.view import InfoView
from envs.minchiate.worlds import Assignment

__all__ = ["HOLDERS", "MinchiateHolders"]

N_CARDS = 97
ALL = (1 << N_CARDS) - 1
ELSEWHERE = 4


def _bits(mask: int) -> np.ndarray:
    """``mask`` as 97 booleans (card id order)."""
    raw = np.frombuffer(mask.to_bytes(13, "little"), np.uint8)
    return np.unpackbits(raw, bitorder="little")[:N_CARDS].astype(bool)


def _classes(hands: tuple[int, ...] | list[int], seat: int) -> np.ndarray:
    out = np.full(N_CARDS, ELSEWHERE, np.int8)
    for r in range(4):
        out[_bits(hands[(seat + r) & 3])] = r
    return out


class MinchiateHolders:
    """The holder classes of Minchiate (see the module docstring)."""

    n_cards = N_CARDS
    n_classes = 5

    def of_state(self, state: Any, seat: int) -> np.ndarray:
        return _classes(state.hands, seat)

    def of_assignment(self, view: InfoView, world: Assignment) -> np.ndarray:
        return _classes(world.hands, view.seat)

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
            sampler._sampler.capacities, sampler.allowed,
            [(cards, klass(slot)) for slot, cards in sampler.known.items()],
        )  # fmt: skip


HOLDERS = MinchiateHolders()
