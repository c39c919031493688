"""Seeded random deals of any registered game, the two ways they are drawn: a resumable stream
(the vector runner ``mazzo.envs.vector`` and the trainers) and deal ``i`` of a generated deal set
(``mazzo.envs.deal_sets``, the arena's fixed deals).

Deal set ``i`` is shuffled by ``deal_rng(seed, i)``, the child of
``numpy.random.SeedSequence(seed)`` with ``spawn_key`` ``(0, i)``, so the first ``n`` deals of
a longer set from the same seed are the same deals. Other consumers of one base seed (the
arena's agent and bootstrap streams, ``mazzo.arena.streams``) take other first keys through
``keyed_rng``.

Deal k of a stream is ``game.deal_random(rng, rules)`` with one ``np.random.Generator`` (PCG64)
seeded from a ``np.random.SeedSequence``, drawn in order. ``position()`` is a JSON-ready
snapshot (the number of deals dealt and the generator's exact state) and ``restore(position)``
puts the stream back there, so a checkpointed run resumes with the very same deals.

Imports numpy; names no game.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, cast

import numpy as np

from mazzo.envs.cards.deal import Deal
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame, get_game

__all__ = ["DEAL_SET_KEY", "DealStream", "check_seed", "deal_rng", "keyed_rng"]

DEAL_SET_KEY = 0
"""The first ``spawn_key`` element of the deal-set streams (other streams of a seed use others)."""


def check_seed(seed: object) -> int:
    """``seed`` as a non-negative int. Raises ValueError otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"a seed must be a non-negative integer, got {seed!r}")
    return seed


def keyed_rng(seed: int, *key: int) -> np.random.Generator:
    """The generator of ``SeedSequence(seed)``'s child at ``spawn_key`` ``key``."""
    return np.random.default_rng(np.random.SeedSequence(check_seed(seed), spawn_key=key))


def deal_rng(seed: int, deal: int) -> np.random.Generator:
    """The generator that shuffles deal number ``deal`` of a set generated from ``seed``."""
    return keyed_rng(seed, DEAL_SET_KEY, deal)


class DealStream:
    """Random deals of ``game`` under ``rules`` from ``seed`` (an int >= 0 or a SeedSequence).

    Iterating yields deals forever; ``next_deal()`` is the same as ``next(stream)``.

    Raises:
        ValueError: a negative or non-integer seed.
        TypeError: ``rules`` are not ``game``'s.
    """

    def __init__(
        self, game: AnyGame | str, rules: RulesLike, seed: int | np.random.SeedSequence = 0
    ) -> None:
        self.game = get_game(game) if isinstance(game, str) else game
        self.game.check_rules(rules)
        self.rules = rules
        if isinstance(seed, np.random.SeedSequence):
            self.seed_sequence = seed
        elif isinstance(seed, int | np.integer) and not isinstance(seed, bool) and seed >= 0:
            self.seed_sequence = np.random.SeedSequence(int(seed))
        else:
            raise ValueError(f"seed must be an integer >= 0 or a SeedSequence, got {seed!r}")
        self._rng = np.random.Generator(np.random.PCG64(self.seed_sequence))
        self._deal_random = self.game.deal_random
        self.dealt = 0

    def __iter__(self) -> Iterator[Deal]:
        return self

    def __next__(self) -> Deal:
        return self.next_deal()

    def next_deal(self) -> Deal:
        """The next deal (its dealer drawn from the stream too)."""
        self.dealt += 1
        return self._deal_random(self._rng, self.rules)

    def position(self) -> dict[str, Any]:
        """Where the stream stands: ``{"dealt": n, "bit_generator": state}`` (JSON-ready)."""
        return {"dealt": self.dealt, "bit_generator": _plain(self._rng.bit_generator.state)}

    def restore(self, position: Mapping[str, Any]) -> None:
        """Put the stream back at ``position`` (from ``position()`` of this seed's stream).

        Raises:
            ValueError: ``position`` is not such a snapshot.
        """
        try:
            dealt, state = position["dealt"], position["bit_generator"]
            if not (type(dealt) is int and dealt >= 0 and state["bit_generator"] == "PCG64"):
                raise TypeError
            probe = np.random.PCG64()
            probe.state = cast(Any, dict(state))
        except (KeyError, TypeError, ValueError):
            raise ValueError(
                "position must be DealStream.position()'s {'dealt': int >= 0, "
                f"'bit_generator': PCG64 state}}, got {position!r}"
            ) from None
        self._rng.bit_generator.state = probe.state
        self.dealt = dealt


def _plain(state: Mapping[str, Any]) -> dict[str, Any]:
    """The generator state as plain ints and strings (NumPy returns Python ints already)."""
    return {k: _plain(v) if isinstance(v, Mapping) else v for k, v in state.items()}
