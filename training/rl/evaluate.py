"""Evaluation of a training policy through the arena (``mazzo.agents.arena``): the policy, as a
``NeuralAgent`` on a frozen copy of the network, plays fixed deals against a baseline agent in
duplicate seating, and the paired margin per deal comes back with its 95% interval. The
trainers call it every few updates on a fixed deal set; nothing here is a second evaluator.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from mazzo.agents.arena.plan import Entrant
from mazzo.agents.arena.runner import make_plan, run_arena
from mazzo.agents.arena.summary import summarize
from mazzo.agents.nets import PolicyValueNet
from mazzo.agents.neural import NeuralAgent
from mazzo.envs.deal_sets import DealSet
from mazzo.envs.protocols import AnyEncoder

__all__ = ["Margin", "evaluate_policy"]


@dataclass(frozen=True)
class Margin:
    """The policy's paired margin over ``opponent`` per deal (in the game's score unit)."""

    opponent: str
    mean: float
    low: float
    high: float
    deals: int


class _Frozen:
    """A picklable zero-argument factory of the policy agent (for the arena's entrants)."""

    def __init__(self, net: PolicyValueNet, encoder: AnyEncoder) -> None:
        self.net, self.encoder = net, encoder

    def __call__(self) -> NeuralAgent:
        return NeuralAgent(self.net, self.encoder)


def evaluate_policy(
    net: PolicyValueNet, encoder: AnyEncoder, deals: DealSet, opponent: str, seed: int = 0,
    workers: int = 1,
) -> Margin:  # fmt: skip
    """Play ``deals`` (both directions of every lineup) between the policy and ``opponent``."""
    frozen = copy.deepcopy(net).eval()
    entrants: list[Any] = [Entrant("policy", _Frozen(frozen, encoder)), Entrant(opponent, opponent)]
    plan = make_plan(deals, entrants, "pairs", seed=seed)
    summary = summarize(run_arena(plan, workers))
    pair = summary.pairs[0]
    sign = 1.0 if pair.a == "policy" else -1.0
    d = pair.diff
    low, high = sorted((sign * d.low, sign * d.high))
    return Margin(opponent, sign * d.mean, low, high, summary.n_deals)
