"""Deep Monte-Carlo (DouZero's method) on the shared loop: Q(observation, action) learned from
Monte-Carlo returns, acting epsilon-greedily over the legal actions.

The network's policy head is read as Q-values over the flat action space (masked like logits:
illegal actions are never chosen). Each update collects ``rollout_decisions`` learner decisions
with epsilon-greedy actors (``epsilon`` decays linearly from ``epsilon_start`` to
``epsilon_end`` over ``epsilon_decay`` decisions), then fits Q(s, a) of the actions taken, and
the value head V(s), to the seat's Monte-Carlo return (``gamma = lam = 1``: the deal's return;
a sequence cut at a rollout's end is bootstrapped with V). The same runner, configs, logging
and checkpoints as PPO (``training.rl.loop``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from agents.nets import PolicyValueNet
from training.rl.collect import Rollout
from training.rl.loop import Hook, RunConfig, train_loop
from training.rl.progress import TrainProgress

__all__ = ["DMC", "DMCConfig", "dmc_update", "train"]


@dataclass(frozen=True)
class DMCConfig(RunConfig):
    """A DMC run (``RunConfig`` plus the exploration schedule)."""

    lam: float = 1.0
    """1: Monte-Carlo returns (DMC's targets)"""
    epochs: int = 1
    lr: float = 1e-4
    epsilon_start: float = 0.2
    epsilon_end: float = 0.01
    epsilon_decay: int = 2_000_000
    """learner decisions over which epsilon decays linearly"""

    def __post_init__(self) -> None:
        super().__post_init__()
        if not 0 <= self.epsilon_end <= self.epsilon_start <= 1:
            raise ValueError("need 0 <= epsilon_end <= epsilon_start <= 1")
        if self.epsilon_decay < 1:
            raise ValueError(f"epsilon_decay must be >= 1, got {self.epsilon_decay}")


def dmc_update(
    net: PolicyValueNet, opt: torch.optim.Optimizer, roll: Rollout, cfg: DMCConfig,
    gen: torch.Generator,
) -> dict[str, float]:  # fmt: skip
    """``cfg.epochs`` passes of minibatch regression of Q(s, a) and V(s) on the returns."""
    obs, mask = torch.from_numpy(roll.obs), torch.from_numpy(roll.mask)
    act, ret = torch.from_numpy(roll.action), torch.from_numpy(roll.ret)
    extra = torch.from_numpy(roll.extra) if net.critic_extra else None
    n = len(roll)
    q_losses, v_losses = [], []
    for _ in range(cfg.epochs):
        order = torch.randperm(n, generator=gen)
        for start in range(0, n, cfg.minibatch):
            idx = order[start : start + cfg.minibatch]
            q_all, value = net(obs[idx], mask[idx], None if extra is None else extra[idx])
            q = q_all.gather(1, act[idx, None]).squeeze(1)
            q_loss = ((q - ret[idx]) ** 2).mean()
            v_loss = ((value - ret[idx]) ** 2).mean()
            opt.zero_grad()
            (q_loss + v_loss).backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
            opt.step()
            q_losses.append(q_loss.item())
            v_losses.append(v_loss.item())
    var = float(np.var(roll.ret))
    explained = 1 - float(np.var(roll.ret - roll.value)) / var if var > 0 else float("nan")
    return {
        "q": float(np.mean(q_losses)),
        "value": float(np.mean(v_losses)),
        "explained_variance": explained,
    }


class DMC:
    """The DMC algorithm for the shared loop."""

    name = "dmc"

    def __init__(self, cfg: DMCConfig) -> None:
        self.cfg = cfg

    def epsilon(self, decisions: int) -> float | None:
        c = self.cfg
        frac = min(1.0, decisions / c.epsilon_decay)
        return c.epsilon_start + frac * (c.epsilon_end - c.epsilon_start)

    def update(
        self, net: PolicyValueNet, opt: torch.optim.Optimizer, roll: Rollout,
        gen: torch.Generator,
    ) -> dict[str, float]:  # fmt: skip
        return dmc_update(net, opt, roll, self.cfg, gen)


def train(
    cfg: DMCConfig,
    run_dir: Path,
    resume: bool = False,
    log: Callable[[str], None] = print,
    hook: Hook | None = None,
    progress: TrainProgress | None = None,
) -> PolicyValueNet:
    """Train ``cfg`` into ``run_dir`` (see ``training.rl.loop.train_loop``)."""
    return train_loop(cfg, DMC(cfg), run_dir, resume, log, hook, progress)
