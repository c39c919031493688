"""The Calabresella world sampler: complete worlds consistent with one seat's view, drawn
uniformly (``mazzo.agents.sampling.SlotSampler``), returned as determinized ``State`` objects.

What the view pins down:
- the viewer's own hand(s), a visible partner hand, every card played, the viewer's discards;
- the hand size of every position (public);
- voids shown: a position that failed to follow a suit holds none of it;
- the called card (Chiamo): with the soloist, in the set-aside cards, or, if a defender gave it,
  possibly back with that giver (the returned card may equal it);
- the returned card, if the viewer knows it: with the giver;
- open monte cards (scegliete, or Chiamo with ``chiamo_monte_exposed``): in the taker's hand or
  the set-aside cards; before the split, or in Solissimo with ``solissimo_view_monte``, they are
  the monte itself.
Everything else is free. Slots are the other positions' hands plus one *rest* slot (the
untouched monte, or the set-aside cards).

Must not import torch or training/.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from mazzo.agents.sampling import SlotSampler
from mazzo.envs.calabresella.actions import Contract, Phase
from mazzo.envs.calabresella.kernel import SUIT
from mazzo.envs.calabresella.state import State
from mazzo.envs.calabresella.view import InfoView
from mazzo.envs.calabresella.worlds import MONTE_PHASES, determinize, known_positions
from mazzo.envs.cards.bits import bit_list, mask_of

__all__ = ["WorldSampler"]

FULL = (1 << 40) - 1
REST = -1


class WorldSampler:
    """Uniform sampler of the worlds consistent with ``view``.

    Attributes:
        slots: the slot of each sampler index: a position, or ``REST``.
        known: the hands the viewer knows, by position.
        fixed_rest: the cards the viewer knows to be in the rest slot.
        allowed: for each hidden card, the bitmask over ``slots`` it may occupy.
        capacities: how many hidden cards each of ``slots`` takes.
    """

    # Builds the assignment sampler from (capacities, groups); uniform by default (the seat
    # trackers swap in one that only needs *a* consistent world, much faster to build).
    slot_sampler: Callable[[Sequence[int], Sequence[tuple[Sequence[int], int]]], Any] = SlotSampler

    def __init__(self, view: InfoView) -> None:
        self.view = view
        known = known_positions(view)
        played = view.played_by[0] | view.played_by[1] | view.played_by[2] | mask_of(view.trick)
        self.known = known
        self.fixed_rest = self._fixed_rest(played)
        held = 0
        for hand in known.values():
            held |= hand
        unknown = FULL & ~(held | played | self.fixed_rest)
        others = [p for p in range(3) if p not in known]
        self.slots = [*others, REST]
        rest_size = 40 - sum(view.hand_sizes) - played.bit_count() - self.fixed_rest.bit_count()
        capacities = [view.hand_sizes[p] for p in others] + [rest_size]
        self.allowed = {c: self._allowed(c) for c in bit_list(unknown)}
        groups = [([c], a) for c, a in self.allowed.items()]
        self.capacities = capacities
        self._sampler = self.slot_sampler(capacities, groups)

    def count(self) -> int:
        """Number of consistent worlds."""
        return int(self._sampler.count())

    def sample_assignment(self, rng: np.random.Generator) -> tuple[tuple[int, int, int], int]:
        """(hands per position, rest cards) of one uniformly drawn world."""
        drawn = self._sampler.sample(rng)
        hands = [self.known.get(p, 0) for p in range(3)]
        rest = self.fixed_rest
        for slot, cards in zip(self.slots, drawn, strict=True):
            if slot == REST:
                rest |= cards
            else:
                hands[slot] = cards
        return (hands[0], hands[1], hands[2]), rest

    def sample(self, rng: np.random.Generator) -> State:
        """One uniformly drawn world, as a determinized state at the view's decision point."""
        hands, rest = self.sample_assignment(rng)
        return determinize(self.view, hands, rest)

    # ------------------------------------------------------------------ constraints
    def _fixed_rest(self, played: int) -> int:
        """Cards the viewer knows to be in the rest slot."""
        v = self.view
        rest = v.discards
        if v.phase in MONTE_PHASES and v.known_monte and v.contract == Contract.SCEGLIETE:
            rest |= v.known_monte  # the open monte before the split
        if v.contract == Contract.SOLISSIMO and v.known_monte:
            rest |= v.known_monte  # solissimo_view_monte: the soloist saw the set-aside monte
        return rest & ~played

    def _allowed(self, card: int) -> int:
        """Bitmask over sampler slots where ``card`` may be."""
        v = self.view
        allowed = 0
        for i, slot in enumerate(self.slots):
            if slot == REST or not (v.void[slot] >> SUIT[card]) & 1:
                allowed |= 1 << i
        places = self._places(card)
        if places is not None:
            allowed &= sum(1 << i for i, slot in enumerate(self.slots) if slot in places)
        return allowed

    def _places(self, card: int) -> set[int] | None:
        """Where a card seen changing hands can be (None: anywhere)."""
        v = self.view
        bit = 1 << card
        if card == v.returned and v.giver >= 0:
            return {v.giver}
        if card == v.called:
            if v.phase is Phase.RETURN:
                return {v.soloist}  # handed over, not yet returned
            if v.giver >= 0:  # the soloist may have returned the called card itself
                return {v.soloist, REST, v.giver}
            return {v.soloist, REST}
        if v.split_d1 & bit:
            return {(v.soloist + 1) % 3, REST}
        if v.split_d2 & bit:
            return {(v.soloist + 2) % 3, REST}
        if v.known_monte & bit and v.contract == Contract.CHIAMO:
            return {v.soloist, REST}  # chiamo_monte_exposed
        return None
