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

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.utils.tensorboard import SummaryWriter

from agents.nets import PolicyValueNet
from envs.registry import Game, get_game
from training.arena.deals import generate_deals
from training.rl.actors import Actors, ActorSpec
from training.rl.collect import Rollout
from training.rl.pool import OpponentPool
from training.rl.run import RunState, _StopSignal

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
    reward_scale: float = 0.0
    """multiplies the engine's returns; 0: the game's default, 1 / payoff_bound (rewards in
    [-1, 1]; for games whose typical deal pays far less, a larger scale trains the value
    faster)"""
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
    n_actors: int = 0
    """actor processes collecting self-play (0: collect in the learner's process); each
    steps n_envs / n_actors engines"""
    eval_every: int = 10
    """updates between evaluations (0: none)"""
    eval_deals: int = 100
    """deals of the fixed evaluation set (each played in both seatings)"""
    eval_seed: int = 1000
    """seed of the evaluation deals (never the training deals' stream)"""
    eval_opponents: tuple[str, ...] = ("random", "heuristic")
    checkpoint_minutes: float = 5.0
    """minutes between checkpoints (one is also written at the end and on a signal)"""

    def __post_init__(self) -> None:
        get_game(self.game)
        positive = ("total_decisions", "n_envs", "rollout_decisions", "epochs", "minibatch")
        for name in (*positive, "snapshot_every", "max_snapshots", "threads", "eval_deals"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        for name in ("lr", "clip", "max_grad_norm"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be > 0, got {getattr(self, name)}")
        for name in ("gamma", "lam", "self_play"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"{name} must be in [0, 1], got {getattr(self, name)}")
        if self.n_actors < 0 or self.n_envs < max(self.n_actors, 1):
            raise ValueError(f"n_actors must be 0..n_envs, got {self.n_actors}")
        if self.reward_scale < 0:
            raise ValueError(f"reward_scale must be >= 0 (0: the game's), got {self.reward_scale}")
        if self.eval_every < 0 or self.checkpoint_minutes <= 0:
            raise ValueError("eval_every must be >= 0 and checkpoint_minutes > 0")
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


def train(
    cfg: PPOConfig, run_dir: Path, resume: bool = False, log: Callable[[str], None] = print
) -> PolicyValueNet:
    """Train for ``cfg.total_decisions`` learner decisions, writing TensorBoard events,
    ``metrics.csv`` and checkpoints into ``run_dir``; with ``resume``, continue exactly from
    its latest checkpoint (the run's config must be the checkpoint's). Returns the network.

    Raises:
        ValueError: a checkpoint of another game, rules, encoding or config.
    """
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
    actors = make_actors(cfg, game, collect_seed)
    run = RunState(game.name, rules, encoder.version, cfg)
    if resume:
        run.restore(run_dir, net, opt, gen, pool, actors)
        log(f"resumed {run_dir} at update {run.update} ({run.decisions:,} decisions)")
    else:
        run.start(run_dir)
    eval_deals = generate_deals(game.name, rules, cfg.eval_deals, cfg.eval_seed)
    writer = SummaryWriter(str(run_dir))
    stop = _StopSignal()
    last_ckpt = time.monotonic()
    with stop, contextlib.closing(actors):
        while run.decisions < cfg.total_decisions and not stop.requested:
            t0 = time.perf_counter()
            roll = actors.collect(
                net, pool, run.update // cfg.snapshot_every, cfg.rollout_decisions
            )
            t1 = time.perf_counter()
            stats = ppo_update(net, opt, roll, cfg, gen)
            t2 = time.perf_counter()
            run.decisions += len(roll)
            run.update += 1
            u = run.update
            if u % cfg.snapshot_every == 0:
                pool.add_snapshot(f"u{u}", net.state_dict())
            _log_update(writer, run, roll, stats, net, (t0, t1, t2), game, log)
            if cfg.eval_every and u % cfg.eval_every == 0:
                run.evaluate(writer, net, encoder, eval_deals, cfg, log)
            if time.monotonic() - last_ckpt >= 60 * cfg.checkpoint_minutes:
                run.save(run_dir, net, opt, gen, pool, actors)
                last_ckpt = time.monotonic()
        run.save(run_dir, net, opt, gen, pool, actors)
    writer.close()
    why = "stopped by a signal" if stop.requested else "done"
    log(f"{why}: update {run.update}, {run.decisions:,} decisions; checkpoint in {run_dir}")
    return net


def _log_update(
    writer: SummaryWriter, run: RunState, roll: Rollout, stats: dict[str, float],
    net: PolicyValueNet, times: tuple[float, float, float], game: Game,
    log: Callable[[str], None],
) -> None:  # fmt: skip
    t0, t1, t2 = times
    step = run.decisions
    for key in ("pg", "vf", "kl", "clipfrac"):
        writer.add_scalar(f"losses/{key}", stats[key], step)
    writer.add_scalar("losses/entropy", stats["ent"], step)
    writer.add_scalar("losses/explained_variance", stats["explained_variance"], step)
    dps, sps = len(roll) / (t2 - t0), len(roll) * run.cfg.epochs / max(t2 - t1, 1e-9)
    writer.add_scalar("perf/decisions_per_s", dps, step)
    writer.add_scalar("perf/learner_samples_per_s", sps, step)
    writer.add_scalar("perf/deals_per_s", roll.deals / (t2 - t0), step)
    names = phase_names(game)
    for phase, ent in phase_entropy(net, roll).items():
        writer.add_scalar(f"charts/entropy_{names.get(phase, phase)}", ent, step)
    log(
        f"update {run.update}: {step:,} decisions, {dps:,.0f} decisions/s, learner "
        f"{sps:,.0f} samples/s, entropy {stats['ent']:.3f}, explained variance "
        f"{stats['explained_variance']:.3f}"
    )


def make_actors(cfg: PPOConfig, game: Game, seed: np.random.SeedSequence) -> Actors:
    """The run's actors: ``n_actors`` processes on seeds spawned from ``seed`` (or, for 0,
    one collector in this process on ``seed`` itself)."""
    rules = game.rules(cfg.flags)
    k = max(cfg.n_actors, 1)
    seeds = [seed] if cfg.n_actors == 0 else seed.spawn(k)
    specs = [
        ActorSpec(
            game.name, dict(cfg.flags), cfg.n_envs // k, s, cfg.pool_agents, cfg.self_play,
            cfg.max_snapshots, cfg.reward_scale or game.reward_scale(rules), cfg.gamma, cfg.lam,
            cfg.hidden,
        )
        for s in seeds
    ]  # fmt: skip
    return Actors(specs, local=cfg.n_actors == 0)


def phase_names(game: Game) -> dict[int, str]:
    """Phase index -> lower-case name, from a fresh deal's view (``Phase`` enums)."""
    rules = game.rules()
    state = game.new_state(game.deal_random(np.random.default_rng(0), rules), rules)
    phase = state.info_view(state.to_play).phase
    return {int(p): p.name.lower() for p in type(phase)}
