"""A network policy as an agent: it encodes the seat's ``InfoView`` with the game's encoder and
picks from the masked policy, deterministically (the most probable legal action) by default or
by sampling on request. ``act_batch`` runs one forward pass for many views.

Imports torch (only this module of agents/ does); must not import training/.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
import torch

from envs.protocols import Encoder

__all__ = ["NeuralAgent", "PolicyNet"]


class PolicyNet(Protocol):
    """What the agent needs of a network: masked logits from observations and masks."""

    def logits(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor: ...


class NeuralAgent:
    """Acts with ``net`` on views encoded by ``encoder``.

    Args:
        net: the policy (``logits(obs, mask)``); used in inference mode.
        encoder: the game's encoder for the rules the net was trained on.
        sample: sample from the policy instead of taking its most probable action.
    """

    name = "nn"

    def __init__(self, net: PolicyNet, encoder: Encoder, sample: bool = False) -> None:
        self.net, self.encoder, self.sample = net, encoder, sample

    def act(self, view: Any, rng: np.random.Generator) -> int:
        return self.act_batch([view], rng)[0]

    @torch.no_grad()
    def act_batch(self, views: Sequence[Any], rng: np.random.Generator) -> list[int]:
        n = len(views)
        obs = np.zeros((n, self.encoder.obs_size), np.float32)
        mask = np.zeros((n, self.encoder.num_actions), np.int8)
        self.encoder.encode_batch(views, obs, mask)
        logits = self.net.logits(torch.from_numpy(obs), torch.from_numpy(mask))
        if not self.sample:
            return [int(a) for a in logits.argmax(dim=-1).tolist()]
        return [int(a) for a in _sample(torch.softmax(logits, dim=-1).numpy(), rng)]


def _sample(probs: npt.NDArray[np.float32], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    cum = np.cumsum(probs.astype(np.float64), axis=1)
    u = rng.random(len(probs)) * cum[:, -1]
    out: npt.NDArray[np.int64] = np.minimum((cum < u[:, None]).sum(axis=1), probs.shape[1] - 1)
    return out
