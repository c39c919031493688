"""The agent protocol of mazzo and the random baseline.

An agent maps a per-seat view (an ``InfoView`` of either game: anything with a ``legal_mask``)
and its own generator to a legal action id. Agents never see the full state and never touch
global random state; each gets a ``numpy.random.Generator`` from its caller.

Must not import torch (neural agents live in their own modules) or training/.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

import numpy as np

from mazzo.envs.cards.bits import bit_list

__all__ = [
    "Agent",
    "AnyAgent",
    "BatchAgent",
    "EachAgent",
    "RandomAgent",
    "View",
    "act_batch",
    "act_each",
]


class View(Protocol):
    """The part of a per-seat view every agent may rely on."""

    @property
    def seat(self) -> int: ...
    @property
    def legal_mask(self) -> int: ...


V_contra = TypeVar("V_contra", contravariant=True)


@runtime_checkable
class Agent(Protocol[V_contra]):
    """``act(view, rng) -> action``: a legal action id for the seat on turn. Generic in the view
    type: a game's agents take that game's ``InfoView``; ``Agent[Any]`` is any agent."""

    name: str

    def act(self, view: V_contra, rng: np.random.Generator) -> int: ...


AnyAgent = Agent[Any]


@runtime_checkable
class BatchAgent(Protocol[V_contra]):
    """The optional batched form (networks evaluate many views in one forward pass)."""

    def act_batch(self, views: Sequence[V_contra], rng: np.random.Generator) -> list[int]: ...


def act_batch(agent: AnyAgent, views: Sequence[Any], rng: np.random.Generator) -> list[int]:
    """Actions for many views: the agent's own ``act_batch`` if it has one, else one ``act``
    per view (in order, from the same generator)."""
    if isinstance(agent, BatchAgent):
        return list(agent.act_batch(views, rng))
    return [agent.act(v, rng) for v in views]


@runtime_checkable
class EachAgent(Protocol[V_contra]):
    """The batched form with one generator per view: ``act_each(views, rngs)[i]`` is what
    ``act(views[i], rngs[i])`` would answer, drawing from ``rngs[i]`` as ``act`` would (so a
    caller that keeps a generator per game gets the same games batched or not). The arena
    decides many games at once through it."""

    def act_each(
        self, views: Sequence[V_contra], rngs: Sequence[np.random.Generator]
    ) -> list[int]: ...


def act_each(
    agent: AnyAgent, views: Sequence[Any], rngs: Sequence[np.random.Generator]
) -> list[int]:
    """Actions for many views, ``views[i]`` deciding with ``rngs[i]``: the agent's own
    ``act_each`` if it has one, else one ``act`` per view."""
    if len(views) != len(rngs):
        raise ValueError(f"act_each needs one generator per view, got {len(rngs)} for {len(views)}")
    if isinstance(agent, EachAgent):
        return list(agent.act_each(views, rngs))
    return [agent.act(v, r) for v, r in zip(views, rngs, strict=True)]


class RandomAgent:
    """Uniformly random legal actions, from the caller's generator."""

    name = "random"

    def act(self, view: View, rng: np.random.Generator) -> int:
        legal = bit_list(view.legal_mask)
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action in this view")
        return legal[int(rng.integers(len(legal)))]
