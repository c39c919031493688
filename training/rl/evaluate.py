"""Evaluation of a training policy through the arena (``mazzo.arena``): the policy, as a
``NeuralAgent`` on a frozen copy of the network, plays fixed deals against a baseline agent in
duplicate seating, and the paired margin per deal comes back with its 95% interval. The
trainers call it every few updates on a fixed deal set; nothing here is a second evaluator.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from mazzo.agents.nets import PolicyValueNet
from mazzo.agents.neural import NeuralAgent
from mazzo.arena.plan import Entrant
from mazzo.arena.runner import make_plan, run_arena
from mazzo.arena.stats import mean_ci
from mazzo.arena.summary import deal_diffs, tally
from mazzo.envs.deal_sets import DealSet
from mazzo.envs.protocols import AnyEncoder

__all__ = [
    "FrozenPolicy",
    "Margin",
    "evaluate_policy",
    "margin_of",
    "paired_diffs",
    "paired_margin",
]


@dataclass(frozen=True)
class Margin:
    """The paired margin of one entrant over ``opponent`` per deal (in the game's score unit),
    and on how many deals it did better, the same, worse."""

    opponent: str
    mean: float
    low: float
    high: float
    deals: int
    better: int = 0
    equal: int = 0
    worse: int = 0


class FrozenPolicy:
    """A picklable zero-argument factory of a network's agent (for the arena's entrants)."""

    def __init__(self, net: PolicyValueNet, encoder: AnyEncoder) -> None:
        self.net, self.encoder = net, encoder

    def __call__(self) -> NeuralAgent:
        return NeuralAgent(self.net, self.encoder)


def paired_margin(
    deals: DealSet, a: Entrant, b: Entrant, seed: int = 0, workers: int = 1
) -> Margin:
    """Play ``deals`` (both directions of every lineup) between ``a`` and ``b``; ``a``'s paired
    margin over ``b``. The trainers' evaluations, the expert-iteration gate and ``mazzo
    exploit`` all measure so."""
    return margin_of(b.label, paired_diffs(deals, a, b, seed, workers))


def paired_diffs(
    deals: DealSet, a: Entrant, b: Entrant, seed: int = 0, workers: int = 1
) -> npt.NDArray[np.float64]:
    """The same play as ``paired_margin``; ``a``'s paired margin over ``b`` on each deal."""
    plan = make_plan(deals, [a, b], "pairs", seed=seed)
    return deal_diffs(run_arena(plan, workers), 0, 1)


def margin_of(opponent: str, diffs: npt.NDArray[np.float64]) -> Margin:
    """The ``Margin`` of per-deal paired differences (the arena summary's interval and tally)."""
    ci = mean_ci(diffs)
    better, equal, worse = tally(diffs)
    return Margin(opponent, ci.mean, ci.low, ci.high, len(diffs), better, equal, worse)


def evaluate_policy(
    net: PolicyValueNet, encoder: AnyEncoder, deals: DealSet, opponent: str, seed: int = 0,
    workers: int = 1,
) -> Margin:  # fmt: skip
    """Play ``deals`` (both directions of every lineup) between the policy and ``opponent``."""
    frozen = copy.deepcopy(net).eval()
    policy = Entrant("policy", FrozenPolicy(frozen, encoder))
    return paired_margin(deals, policy, Entrant(opponent, opponent), seed, workers)
