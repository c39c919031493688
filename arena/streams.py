"""Every random stream of the arena, derived from one base seed and the coordinates of its use.

Owns the arena's seeding scheme, so that a result is a pure function of (deal set, agents, seed)
and does not depend on the number of worker processes, the chunking of deals or the order in
which chunks finish. Each stream is a child of ``numpy.random.SeedSequence(seed)`` addressed by
a ``spawn_key`` (``mazzo.envs.deals.keyed_rng``); the first key element names the purpose:

- ``(0, i)``: deal ``i`` of a generated deal set (``mazzo.envs.deals.deal_rng``, so the first ``n``
  deals of a larger set generated from the same seed are the same deals);
- ``(1, i, r, s)``: the agent in seat ``s`` of lineup ``r`` on deal ``i``;
- ``(2,)``: bootstrap resampling in the statistics.

Nothing here touches global random state.
"""

from __future__ import annotations

import numpy as np

from mazzo.envs.deals import DEAL_SET_KEY, keyed_rng

__all__ = ["agent_rng", "bootstrap_rng"]

_AGENTS, _BOOTSTRAP = DEAL_SET_KEY + 1, DEAL_SET_KEY + 2


def agent_rng(seed: int, deal: int, lineup: int, seat: int) -> np.random.Generator:
    """The generator of the agent sitting in ``seat`` of lineup ``lineup`` on deal ``deal``."""
    return keyed_rng(seed, _AGENTS, deal, lineup, seat)


def bootstrap_rng(seed: int) -> np.random.Generator:
    """The generator of the bootstrap resamples (independent of every deal and agent stream)."""
    return keyed_rng(seed, _BOOTSTRAP)
