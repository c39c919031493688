"""Masked PPO self-play, CleanRL-shaped: one readable file, the config a dataclass, an explicit
seeding block, namespaced TensorBoard scalars; importable and tested.

One network plays every seat of every deal over the seat-relative observation (all seats in
latest-against-latest deals, the rest from the opponent pool), its logits masked with a finite
fill. Each update collects ``rollout_decisions`` learner decisions on the vector runner
(``training.rl.collect``: GAE along each seat's own decisions, terminal zero-sum rewards), then
runs ``epochs`` passes of clipped-surrogate minibatch updates. Every game of ``envs.registry``
trains with this file; nothing here names a game.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from envs.registry import get_game
from training.rl.collect import Collector, Rollout
from training.rl.nets import PolicyValueNet
from training.rl.pool import OpponentPool

__all__ = ["PPOConfig", "ppo_update", "train"]


@dataclass(frozen=True)
class PPOConfig:
    """Everything a PPO run depends on (a file under ``configs/``; see ``configs/README.md``)."""

    game: str
    """registered game name"""
    flags: dict[str, Any] = field(default_factory=dict)
    """the game's rule flags"""
    seed: int = 1
    """root seed, spawned into the deal, sampling and torch streams"""
    total_decisions: int = 1_000_000
    """learner decisions to train on (all learner seats together)"""
    n_envs: int = 128
    """engines stepped together"""
    rollout_decisions: int = 8192
    """learner decisions per update"""
    hidden: tuple[int, ...] = (256, 256)
    """MLP widths"""
    lr: float = 3e-4
    epochs: int = 3
    minibatch: int = 1024
    gamma: float = 1.0
    lam: float = 0.95
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    self_play: float = 0.8
    """probability that a deal is latest against latest"""
    pool_agents: tuple[str, ...] = ("heuristic",)
    """fixed opponents of the pool (agent specs)"""
    snapshot_every: int = 10
    """updates between snapshots added to the pool"""
    max_snapshots: int = 10
    threads: int = 2
    """torch threads of the learner"""

    def __post_init__(self) -> None:
        get_game(self.game)
        positive = ("total_decisions", "n_envs", "rollout_decisions", "epochs", "minibatch")
        for name in (*positive, "snapshot_every", "max_snapshots", "threads"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        for name in ("lr", "clip", "max_grad_norm"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be > 0, got {getattr(self, name)}")
        for name in ("gamma", "lam", "self_play"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"{name} must be in [0, 1], got {getattr(self, name)}")
        if not self.hidden or min(self.hidden) < 1:
            raise ValueError(f"hidden must list positive widths, got {list(self.hidden)}")


def ppo_update(
    net: PolicyValueNet, opt: torch.optim.Optimizer, roll: Rollout, cfg: PPOConfig,
    gen: torch.Generator,
) -> dict[str, float]:  # fmt: skip
    """``cfg.epochs`` passes of minibatch PPO over ``roll``; returns the update's statistics."""
    obs, mask = torch.from_numpy(roll.obs), torch.from_numpy(roll.mask)
    act, old_logp = torch.from_numpy(roll.action), torch.from_numpy(roll.logp)
    adv_all, ret = torch.from_numpy(roll.advantage), torch.from_numpy(roll.ret)
    n = len(roll)
    stats: dict[str, list[float]] = {k: [] for k in ("pg", "vf", "ent", "kl", "clipfrac")}
    for _ in range(cfg.epochs):
        order = torch.randperm(n, generator=gen)
        for start in range(0, n, cfg.minibatch):
            idx = order[start : start + cfg.minibatch]
            logits, value = net(obs[idx], mask[idx])
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
    return {k: float(np.mean(v)) for k, v in stats.items()} | {"explained_variance": explained}


def phase_entropy(net: PolicyValueNet, roll: Rollout) -> dict[int, float]:
    """The policy's mean entropy over the rollout's decisions of each phase."""
    out: dict[int, float] = {}
    with torch.no_grad():
        logits = net.logits(torch.from_numpy(roll.obs), torch.from_numpy(roll.mask))
        logp = torch.log_softmax(logits, dim=-1)
        ent = -(logp.exp() * torch.where(torch.from_numpy(roll.mask) == 1, logp, 0.0)).sum(-1)
    for p in np.unique(roll.phase).tolist():
        out[int(p)] = float(ent[torch.from_numpy(roll.phase == p)].mean())
    return out


def train(cfg: PPOConfig, run_dir: Path | None = None, log: Any = print) -> PolicyValueNet:
    """Train for ``cfg.total_decisions`` learner decisions; returns the network."""
    # ---- seeding: one root, spawned into independent streams
    collect_seed, torch_seed = np.random.SeedSequence(cfg.seed).spawn(2)
    torch.manual_seed(int(torch_seed.generate_state(1)[0]))
    gen = torch.Generator().manual_seed(int(torch_seed.generate_state(2)[1]))
    torch.set_num_threads(cfg.threads)

    game = get_game(cfg.game)
    rules = game.rules(cfg.flags)
    encoder = game.encoder(rules)
    net = PolicyValueNet(encoder.obs_size, encoder.num_actions, cfg.hidden)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr, eps=1e-5)
    pool = OpponentPool(game.name, cfg.pool_agents, cfg.self_play, cfg.max_snapshots)
    collector = Collector(
        game, rules, cfg.n_envs, collect_seed, pool, game.reward_scale(rules), cfg.gamma, cfg.lam
    )
    decisions, update, t0 = 0, 0, time.perf_counter()
    while decisions < cfg.total_decisions:
        t_collect = time.perf_counter()
        roll = collector.collect(net, cfg.rollout_decisions)
        t_learn = time.perf_counter()
        stats = ppo_update(net, opt, roll, cfg, gen)
        t_end = time.perf_counter()
        decisions += len(roll)
        update += 1
        if update % cfg.snapshot_every == 0:
            pool.add_snapshot(f"u{update}", net.state_dict())
        log(
            f"update {update}: {decisions:,} decisions, {len(roll) / (t_end - t_collect):,.0f}/s "
            f"(collect {t_learn - t_collect:.1f}s, learn {t_end - t_learn:.1f}s), "
            f"entropy {stats['ent']:.3f}, explained variance {stats['explained_variance']:.3f}"
        )
    log(f"done: {decisions:,} decisions in {time.perf_counter() - t0:.0f}s")
    return net
