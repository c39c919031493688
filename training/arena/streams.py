"""Every random stream of the arena, derived from one base seed and the coordinates of its use.

Owns the seeding scheme, so that a result is a pure function of (deal set, agents, seed) and
does not depend on the number of worker processes, the chunking of deals or the order in which
chunks finish. Each stream is a child of ``numpy.random.SeedSequence(seed)`` addressed by a
``spawn_key``; the first key element names the purpose:

- ``(0, i)``: deal ``i`` of a generated deal set (so the first ``n`` deals of a larger set
  generated from the same seed are the same deals);
- ``(1, i, r, s)``: the agent in seat ``s`` of lineup ``r`` on deal ``i``;
- ``(2,)``: bootstrap resampling in the statistics.

Nothing here touches global random state.
"""

from __future__ import annotations

import numpy as np

__all__ = ["agent_rng", "bootstrap_rng", "check_seed", "deal_rng"]

_DEALS, _AGENTS, _BOOTSTRAP = 0, 1, 2


def check_seed(seed: object) -> int:
    """``seed`` as a non-negative int. Raises ValueError otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"a seed must be a non-negative integer, got {seed!r}")
    return seed


def _rng(seed: int, *key: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(check_seed(seed), spawn_key=key))


def deal_rng(seed: int, deal: int) -> np.random.Generator:
    """The generator that shuffles deal number ``deal`` of a set generated from ``seed``."""
    return _rng(seed, _DEALS, deal)


def agent_rng(seed: int, deal: int, lineup: int, seat: int) -> np.random.Generator:
    """The generator of the agent sitting in ``seat`` of lineup ``lineup`` on deal ``deal``."""
    return _rng(seed, _AGENTS, deal, lineup, seat)


def bootstrap_rng(seed: int) -> np.random.Generator:
    """The generator of the bootstrap resamples (independent of every deal and agent stream)."""
    return _rng(seed, _BOOTSTRAP)
