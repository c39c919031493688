"""Deep Monte-Carlo (DouZero's method), one story from the config to the logged update:
Q(observation, action) learned from Monte-Carlo returns, acting epsilon-greedily over the legal
actions.

The network's policy head is read as Q-values over the flat action space (masked like logits:
illegal actions are never chosen). ``train`` reads top to bottom: the seeding; the run
(``mazzo.training.rl.run.Run``, as PPO's: the same runner, configs, imitation, logging and
checkpoints); then each update collects ``rollout_decisions`` learner decisions
with epsilon-greedy actors (``epsilon`` decays linearly from ``epsilon_start`` to
``epsilon_end`` over ``epsilon_decay`` decisions), fits Q(s, a) of the actions taken, and the
value head V(s), to the seat's Monte-Carlo return (``gamma = lam = 1``: the deal's return; a
sequence cut at a rollout's end is bootstrapped with V; ``dmc_update``) and logs it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import torch

from mazzo.agents.nets import PolicyValueNet
from mazzo.training.rl.collect import Rollout
from mazzo.training.rl.config import RunConfig
from mazzo.training.rl.progress import TrainProgress
from mazzo.training.rl.run import Hook, Log, Run

__all__ = ["DMCConfig", "dmc_update", "epsilon", "train"]


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
        if self.distill_coef:
            raise ValueError(
                f"distill_coef = {self.distill_coef}: the DMC trainer has no policy loss to add "
                'the labels to (use algorithm = "ppo", or distill_epochs before self-play)'
            )


def train(
    cfg: DMCConfig, run_dir: Path, resume: bool = False, log: Log = print,
    hook: Hook | None = None, progress: TrainProgress | None = None,
    ray: str | None = None,
) -> PolicyValueNet:  # fmt: skip
    """Train ``cfg`` into ``run_dir`` by DMC's update, as ``mazzo.training.rl.ppo.train`` does by
    PPO's (the same arguments, the same errors)."""
    # ---- seeding: one root, spawned into the collection, torch and imitation streams
    collect_seed, torch_seed, bc_seed = np.random.SeedSequence(cfg.seed).spawn(3)
    torch.manual_seed(int(torch_seed.generate_state(1)[0]))  # the network's initial weights
    gen = torch.Generator().manual_seed(int(torch_seed.generate_state(2)[1]))  # minibatches
    # ---- the run: opened or resumed; Ctrl-C stops it after an update, with a checkpoint
    with Run(
        cfg, "dmc", run_dir, resume, collect_seed, bc_seed, gen, log, hook, progress, ray
    ) as run:
        run.imitation()  # ---- 1. imitation of the experts (bc_decisions), a fresh run only
        run.distillation(run.search_labels())  # ---- 2, 3. a search's labels, learned first
        # ---- 4. collection: epsilon-greedy on the Q-values, with epsilon decaying
        for roll in run.rollouts(explore=partial(epsilon, cfg)):
            losses = dmc_update(run.net, run.opt, roll, cfg, gen)  # ---- 5. the update
            run.log_update(roll, losses)  # ---- logging: losses/, perf/, charts/ (eval/ when due)
    return run.net


def epsilon(cfg: DMCConfig, decisions: int) -> float:
    """The exploration rate after ``decisions`` learner decisions (linear decay)."""
    frac = min(1.0, decisions / cfg.epsilon_decay)
    return cfg.epsilon_start + frac * (cfg.epsilon_end - cfg.epsilon_start)


def dmc_update(
    net: PolicyValueNet, opt: torch.optim.Optimizer, roll: Rollout, cfg: DMCConfig,
    gen: torch.Generator,
) -> dict[str, float]:  # fmt: skip
    """``cfg.epochs`` passes of minibatch regression of Q(s, a) and V(s) on the returns."""
    q_losses, v_losses = [], []
    for batch in roll.minibatches(cfg.epochs, cfg.minibatch, gen, net.critic_extra > 0):
        q_all, value = net(batch.obs, batch.mask, batch.extra)
        q = q_all.gather(1, batch.action[:, None]).squeeze(1)
        q_loss = ((q - batch.ret) ** 2).mean()
        v_loss = ((value - batch.ret) ** 2).mean()
        opt.zero_grad()
        (q_loss + v_loss).backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
        opt.step()
        q_losses.append(q_loss.item())
        v_losses.append(v_loss.item())
    return {
        "q": float(np.mean(q_losses)),
        "value": float(np.mean(v_losses)),
        "explained_variance": roll.explained_variance(),
    }
