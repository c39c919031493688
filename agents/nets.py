"""The policy-value network of the neural agents and the trainers, and the masking of logits.

One network serves every seat (observations are seat-relative): an MLP torso, a policy head
over the flat action space and a value head. Illegal actions are masked on the logits with a
finite fill (the dtype's minimum, not -inf, so no NaN can arise from an all-masked row).

Imports torch; must not import training/.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import torch
from torch import nn

__all__ = ["PolicyValueNet", "masked_logits"]


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with the entries where ``mask`` is 0 set to the dtype's minimum."""
    return logits.masked_fill(mask == 0, torch.finfo(logits.dtype).min)


def _mlp(sizes: Sequence[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in itertools.pairwise(sizes):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers)


class PolicyValueNet(nn.Module):
    """MLP policy and value over an observation vector.

    Args:
        obs_size: length of the observation.
        num_actions: size of the action space.
        hidden: widths of the torso's layers.
        critic_extra: length of extra inputs the value head alone sees (the hidden cards, for a
            critic that sees them during training only); 0 for none. The policy never reads them.
    """

    def __init__(
        self, obs_size: int, num_actions: int, hidden: Sequence[int] = (256, 256),
        critic_extra: int = 0,
    ) -> None:  # fmt: skip
        super().__init__()
        if not hidden:
            raise ValueError("hidden must name at least one layer width")
        self.obs_size, self.num_actions, self.critic_extra = obs_size, num_actions, critic_extra
        self.torso = _mlp([obs_size, *hidden])
        self.policy = nn.Linear(hidden[-1], num_actions)
        self.value_torso = _mlp([critic_extra, hidden[-1]]) if critic_extra else None
        self.value = nn.Linear(hidden[-1], 1)
        for layer in self.modules():
            if isinstance(layer, nn.Linear):
                nn.init.orthogonal_(layer.weight, gain=2**0.5)
                nn.init.zeros_(layer.bias)
        nn.init.orthogonal_(self.policy.weight, gain=0.01)
        nn.init.orthogonal_(self.value.weight, gain=1.0)

    def logits(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Masked logits ``(B, num_actions)``."""
        return masked_logits(self.policy(self.torso(obs)), mask)

    def forward(
        self, obs: torch.Tensor, mask: torch.Tensor, extra: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(masked logits ``(B, A)``, values ``(B,)``)."""
        h = self.torso(obs)
        logits = masked_logits(self.policy(h), mask)
        if self.value_torso is not None:
            if extra is None:
                raise ValueError("this network's critic needs the extra (hidden-card) inputs")
            h = h + self.value_torso(extra)
        return logits, self.value(h).squeeze(-1)
