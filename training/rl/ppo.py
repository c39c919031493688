"""Masked PPO self-play, CleanRL-shaped: the config a dataclass, the update one function, the
loop shared (``training.rl.loop``: seeding, actors, TensorBoard, evaluation, checkpoints).

One network plays every seat of every deal over the seat-relative observation (all seats in
latest-against-latest deals, the rest from the opponent pool), its logits masked with a finite
fill. Each update collects ``rollout_decisions`` learner decisions on the vector runner
(``training.rl.collect``: GAE along each seat's own decisions, terminal zero-sum rewards), then
runs ``epochs`` passes of clipped-surrogate minibatch updates. Every game of ``envs.registry``
trains with this file; nothing here names a game.
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

__all__ = ["PPO", "PPOConfig", "ppo_update", "train"]


@dataclass(frozen=True)
class PPOConfig(RunConfig):
    """A PPO run (``RunConfig`` plus the PPO coefficients)."""

    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.clip > 0 or self.ent_coef < 0 or self.vf_coef < 0:
            raise ValueError("clip must be > 0, ent_coef and vf_coef >= 0")


def ppo_update(
    net: PolicyValueNet, opt: torch.optim.Optimizer, roll: Rollout, cfg: PPOConfig,
    gen: torch.Generator,
) -> dict[str, float]:  # fmt: skip
    """``cfg.epochs`` passes of minibatch PPO over ``roll``; returns the update's statistics."""
    obs, mask = torch.from_numpy(roll.obs), torch.from_numpy(roll.mask)
    act, old_logp = torch.from_numpy(roll.action), torch.from_numpy(roll.logp)
    adv_all, ret = torch.from_numpy(roll.advantage), torch.from_numpy(roll.ret)
    extra = torch.from_numpy(roll.extra) if net.critic_extra else None
    n = len(roll)
    stats: dict[str, list[float]] = {k: [] for k in ("pg", "vf", "ent", "kl", "clipfrac")}
    for _ in range(cfg.epochs):
        order = torch.randperm(n, generator=gen)
        for start in range(0, n, cfg.minibatch):
            idx = order[start : start + cfg.minibatch]
            logits, value = net(obs[idx], mask[idx], None if extra is None else extra[idx])
            logp_all = torch.log_softmax(logits, dim=-1)
            logp = logp_all.gather(1, act[idx, None]).squeeze(1)
            ratio_log = logp - old_logp[idx]
            ratio = ratio_log.exp()
            adv = adv_all[idx]
            adv = (adv - adv.mean()) / (adv.std() + 1e-8) if len(idx) > 1 else adv
            pg = torch.max(-adv * ratio, -adv * ratio.clamp(1 - cfg.clip, 1 + cfg.clip)).mean()
            vf = 0.5 * ((value - ret[idx]) ** 2).mean()
            probs = logp_all.exp()
            ent = -(probs * torch.where(mask[idx] == 1, logp_all, 0.0)).sum(-1).mean()
            loss = pg + cfg.vf_coef * vf - cfg.ent_coef * ent
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
            opt.step()
            with torch.no_grad():
                stats["pg"].append(pg.item())
                stats["vf"].append(vf.item())
                stats["ent"].append(ent.item())
                stats["kl"].append(((ratio - 1) - ratio_log).mean().item())
                stats["clipfrac"].append(((ratio - 1).abs() > cfg.clip).float().mean().item())
    var = float(np.var(roll.ret))
    explained = 1 - float(np.var(roll.ret - roll.value)) / var if var > 0 else float("nan")
    out = {
        "policy": "pg",
        "value": "vf",
        "entropy": "ent",
        "approx_kl": "kl",
        "clipfrac": "clipfrac",
    }
    return {k: float(np.mean(stats[v])) for k, v in out.items()} | {"explained_variance": explained}


class PPO:
    """The PPO algorithm for the shared loop."""

    name = "ppo"

    def __init__(self, cfg: PPOConfig) -> None:
        self.cfg = cfg

    def epsilon(self, decisions: int) -> float | None:
        return None

    def update(
        self, net: PolicyValueNet, opt: torch.optim.Optimizer, roll: Rollout,
        gen: torch.Generator,
    ) -> dict[str, float]:  # fmt: skip
        return ppo_update(net, opt, roll, self.cfg, gen)


def train(
    cfg: PPOConfig,
    run_dir: Path,
    resume: bool = False,
    log: Callable[[str], None] = print,
    hook: Hook | None = None,
    progress: TrainProgress | None = None,
) -> PolicyValueNet:
    """Train ``cfg`` into ``run_dir`` (see ``training.rl.loop.train_loop``)."""
    return train_loop(cfg, PPO(cfg), run_dir, resume, log, hook, progress)
