"""The ``onnx:`` agent: a bundle's policy acting on views this mazzo encodes (the most probable
legal action by default, sampled on request), as ``mazzo.agents.neural.NeuralAgent`` acts with
a network; ``onnx_factory`` is its entry in the agent table (``mazzo.agents.registry``).

Imports numpy and onnxruntime; must not import torch or training/.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from mazzo.agents.bundle.format import Bundle, load_bundle
from mazzo.envs.protocols import AnyEncoder

__all__ = ["BundleAgent", "make_onnx_agent", "sample_rows"]


def sample_rows(probs: npt.NDArray[np.float32], rng: np.random.Generator) -> list[int]:
    """One action per row of ``probs``, drawn from ``rng`` (as ``NeuralAgent`` samples)."""
    cum = np.cumsum(probs.astype(np.float64), axis=1)
    u = rng.random(len(probs)) * cum[:, -1]
    picks = np.minimum((cum < u[:, None]).sum(axis=1), probs.shape[1] - 1)
    return [int(a) for a in picks]


class BundleAgent:
    """Acts with a bundle's policy on views encoded by this mazzo's encoder for the bundle's
    rules (checked against the bundle on construction).

    Args:
        bundle: the loaded bundle.
        sample: sample from the policy instead of taking its most probable legal action.

    Raises:
        ValueError: the bundle does not fit this mazzo's game (``Bundle.check``).
    """

    name = "onnx"
    foreign_rules = False  # set by the ``foreign_rules=true`` spec parameter

    def __init__(self, bundle: Bundle, sample: bool = False) -> None:
        game, rules = bundle.game(), bundle.rules()
        bundle.check(game, rules)
        self.bundle, self.sample = bundle, sample
        self.encoder: AnyEncoder = game.encoder(rules)
        self.trained_rules = rules  # the manifest's: mazzo.agents.trained_rules refuses others

    def act(self, view: Any, rng: np.random.Generator) -> int:
        return self.act_batch([view], rng)[0]

    def act_batch(self, views: Sequence[Any], rng: np.random.Generator) -> list[int]:
        probs, logits = self._run(views)
        if self.sample:
            return sample_rows(probs, rng)
        return [int(a) for a in logits.argmax(axis=1)]

    def action_probs(self, view: Any) -> npt.NDArray[np.float64]:
        """The policy's probability of every action id for ``view`` (0 for illegal ones)."""
        return np.asarray(self._run([view])[0][0], np.float64)

    def _run(self, views: Sequence[Any]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The bundle's probabilities and logits for ``views``, encoded by this mazzo."""
        obs = np.zeros((len(views), self.encoder.obs_size), np.float32)
        mask = np.zeros((len(views), self.encoder.num_actions), np.int8)
        self.encoder.encode_batch(views, obs, mask)
        probs, logits = self.bundle.run(obs, mask)
        return probs, logits


def make_onnx_agent(
    game: str, path: Path, sample: bool = False, foreign_rules: bool = False
) -> BundleAgent:
    """The ``onnx:DIR`` agent of ``game``: the bundle at ``path`` (checked), acting as asked.

    Raises:
        ValueError: the bundle is for another game, or does not fit this mazzo.
    """
    bundle = load_bundle(path)
    if bundle.game_name != game:
        raise ValueError(f"{path} is a bundle for {bundle.game_name}, not for {game}")
    agent = BundleAgent(bundle, sample=sample)
    agent.foreign_rules = foreign_rules
    return agent
