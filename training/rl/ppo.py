"""Masked PPO self-play, CleanRL-shaped: one story from the config to the logged update.

One network plays every seat of every deal over the seat-relative observation (all seats in
latest-against-latest deals, the rest from the opponent pool), its logits masked with a finite
fill. ``train`` reads top to bottom: the seeding; the run (``mazzo.training.rl.run.Run``: the game
and its rules, the network, optimizer, opponent pool and actors; opened or resumed exactly);
its stages before self-play, each named where it is called (imitation of the experts, the
search's labels, their distillation); then each update collects ``rollout_decisions``
learner decisions on the vector runner (``mazzo.training.rl.collect``: GAE along each seat's own
decisions, terminal zero-sum rewards), runs ``epochs`` passes of clipped-surrogate minibatch
updates (``ppo_update``; with ``distill_coef``, each minibatch also learns as many rows of the
run's search labels: expert iteration mixed with self-play) and logs them (``losses/``
scalars, with the run's ``perf/`` and ``charts/``). Every game of ``mazzo.envs.registry`` trains
with this file; nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from mazzo.agents.nets import PolicyValueNet
from mazzo.training.rl.collect import Batch, Rollout
from mazzo.training.rl.config import RunConfig
from mazzo.training.rl.distill import LabelledDecisions, label_cross_entropy
from mazzo.training.rl.phase_entropy import (
    floor_gated,
    phase_coefs,
    phase_entropy_bonus,
    phase_indices,
)
from mazzo.training.rl.progress import TrainProgress
from mazzo.training.rl.run import Hook, Log, Run, phase_entropy

__all__ = ["PPOConfig", "policy_phases", "ppo_loss", "ppo_update", "train"]


@dataclass(frozen=True)
class PPOConfig(RunConfig):
    """A PPO run (``RunConfig`` plus the PPO coefficients)."""

    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    phase_ent_coef: Mapping[str, float] = field(default_factory=dict)
    """An extra entropy bonus per phase (``{"bid": 0.1}``; ``mazzo.training.rl.phase_entropy``);
    empty by default: no extra term, the loss as without it."""
    phase_ent_floor: Mapping[str, float] = field(default_factory=dict)
    """Turns a phase's ``phase_ent_coef`` into a floor on its entropy (nats): the bonus is
    applied in an update as far as the rollout's entropy on that phase lies below the floor
    (``mazzo.training.rl.phase_entropy.floor_gated``); empty by default."""
    labels_only_phases: tuple[str, ...] = ()
    """Phases whose decisions learn from the search's labels alone: PPO's clipped surrogate
    and entropy bonus leave their rows out (the value term keeps them), so only the labels'
    term (``distill_coef``) moves their policy, for rare decisions whose payoff is too noisy
    for the policy gradient (``("discard_cutter", "discard_dealer")``). Needs labels."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.clip > 0 or self.ent_coef < 0 or self.vf_coef < 0:
            raise ValueError("clip must be > 0, ent_coef and vf_coef >= 0")
        bad = {k: v for k, v in self.phase_ent_floor.items() if not v > 0}
        if bad:
            raise ValueError(f"phase_ent_floor: floors must be > 0 nats, got {bad}")
        bare = sorted(k for k in self.phase_ent_floor if not self.phase_ent_coef.get(k, 0) > 0)
        if bare:
            raise ValueError(
                f"phase_ent_floor names {bare} without a phase_ent_coef > 0 to apply there "
                f"(phase_ent_coef: {dict(self.phase_ent_coef)})"
            )
        if self.labels_only_phases and not (self.label_deals or self.distill_labels):
            raise ValueError(
                f"labels_only_phases {list(self.labels_only_phases)} needs search labels "
                "(label_deals or distill_labels): without them those phases learn nothing"
            )


def train(
    cfg: PPOConfig, run_dir: Path, resume: bool = False, log: Log = print,
    hook: Hook | None = None, progress: TrainProgress | None = None,
    ray: str | None = None,
) -> PolicyValueNet:  # fmt: skip
    """Train ``cfg`` for ``total_decisions`` learner decisions into ``run_dir`` (TensorBoard
    events, ``metrics.csv``, checkpoints); with ``resume``, continue exactly from its latest
    checkpoint (ValueError for one of another game, rules, encoding or config). Returns the
    network. ``log`` gets a line per update (or ``progress`` a redraw) and the run's messages;
    ``hook`` may watch the run and stop it (``mazzo.training.rl.run.Hook``). With ``ray`` (an
    address: ``mazzo.agents.distributed``) the ``n_actors`` actors run on Ray, with the same
    weights as local actor processes (``mazzo.training.rl.ray_actors``)."""
    # ---- seeding: one root, spawned into the collection, torch and imitation streams
    collect_seed, torch_seed, bc_seed = np.random.SeedSequence(cfg.seed).spawn(3)
    torch.manual_seed(int(torch_seed.generate_state(1)[0]))  # the network's initial weights
    gen = torch.Generator().manual_seed(int(torch_seed.generate_state(2)[1]))  # minibatches
    # ---- the run: opened or resumed; Ctrl-C stops it after an update, with a checkpoint
    with Run(
        cfg, "ppo", run_dir, resume, collect_seed, bc_seed, gen, log, hook, progress, ray
    ) as run:
        # the per-phase terms first: a misspelt phase fails before any work
        phases = phase_coefs(run.phases, cfg.phase_ent_coef) if cfg.phase_ent_coef else None
        floors = phase_coefs(run.phases, cfg.phase_ent_floor) if cfg.phase_ent_floor else None
        policy_rows = policy_phases(run.phases, cfg.labels_only_phases)
        run.imitation()  # ---- 1. imitation of the experts (bc_decisions), a fresh run only
        labels = run.search_labels()  # ---- 2. the search's labels (label_deals, distill_labels)
        run.distillation(labels)  # ---- 3. the labels learned before self-play (distill_epochs)
        for roll in run.rollouts():  # ---- 4. collection: sampled from the policy, GAE advantages
            coefs = phases
            if phases is not None and floors is not None:  # the bonus only below the floors
                coefs = floor_gated(phases, floors, phase_entropy(run.net, roll))
            losses = ppo_update(  # ---- 5. the clipped-surrogate update (and the labels' term)
                run.net, run.opt, roll, cfg, gen, coefs, run.labels, policy_rows
            )
            run.log_update(roll, losses)  # ---- logging: losses/, perf/, charts/ (eval/ when due)
    return run.net


def ppo_update(
    net: PolicyValueNet, opt: torch.optim.Optimizer, roll: Rollout, cfg: PPOConfig,
    gen: torch.Generator, phases: torch.Tensor | None = None,
    labels: LabelledDecisions | None = None, policy_rows: torch.Tensor | None = None,
) -> dict[str, float]:  # fmt: skip
    """``cfg.epochs`` passes of minibatch PPO over ``roll``; returns the update's statistics
    (``losses/`` in TensorBoard). ``phases``: the per-phase entropy coefficients, if any;
    ``policy_rows``: 1 per phase whose rows the policy terms learn, 0 elsewhere
    (``policy_phases``; None: every phase).
    ``labels``: search labels whose policy cross-entropy, on as many rows as each minibatch
    drawn at random, is added with weight ``cfg.distill_coef`` (expert iteration mixed with
    self-play; logged as ``distill_ce`` and ``distill_agreement``)."""
    stats: dict[str, list[float]] = {}
    for batch in roll.minibatches(cfg.epochs, cfg.minibatch, gen, net.critic_extra > 0):
        loss, batch_stats = ppo_loss(net, batch, cfg, phases, policy_rows)
        if labels is not None and cfg.distill_coef:
            ce, agree = label_cross_entropy(net, labels, len(batch.action), gen)
            loss = loss + cfg.distill_coef * ce
            batch_stats |= {"distill_ce": ce.item(), "distill_agreement": agree}
        opt.zero_grad()
        torch.autograd.backward([loss])
        torch.nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
        opt.step()
        for key, value in batch_stats.items():
            stats.setdefault(key, []).append(value)
    mean = {key: float(np.mean(values)) for key, values in stats.items()}
    return mean | {"explained_variance": roll.explained_variance()}


def policy_phases(names: Mapping[int, str], labels_only: tuple[str, ...]) -> torch.Tensor | None:
    """1 for each phase index whose rows PPO's policy terms learn, 0 for the ``labels_only``
    phases (None where there are none: every row). Raises ValueError naming an unknown phase."""
    if not labels_only:
        return None
    out = torch.ones(max(names) + 1 if names else 1)
    for index in phase_indices(names, labels_only, "labels_only_phases").values():
        out[index] = 0.0
    return out


def ppo_loss(
    net: PolicyValueNet, batch: Batch, cfg: PPOConfig, phases: torch.Tensor | None = None,
    policy_rows: torch.Tensor | None = None,
) -> tuple[torch.Tensor, dict[str, float]]:  # fmt: skip
    """The clipped-surrogate loss of one minibatch (advantages normalized within it), with its
    policy, value and entropy terms (and the per-phase entropy bonus with ``phases``; the
    surrogate and the entropy on the rows of ``policy_rows``'s phases alone, where given,
    averaged over the whole minibatch), approximate KL and clip fraction."""
    logits, value = net(batch.obs, batch.mask, batch.extra)
    logp_all = torch.log_softmax(logits, dim=-1)
    logp = logp_all.gather(1, batch.action[:, None]).squeeze(1)
    ratio_log = logp - batch.logp
    ratio = ratio_log.exp()
    adv = batch.advantage
    adv = (adv - adv.mean()) / (adv.std() + 1e-8) if len(adv) > 1 else adv
    pg_rows = torch.max(-adv * ratio, -adv * ratio.clamp(1 - cfg.clip, 1 + cfg.clip))
    vf = 0.5 * ((value - batch.ret) ** 2).mean()
    probs = logp_all.exp()
    ent_rows = -(probs * torch.where(batch.mask == 1, logp_all, 0.0)).sum(-1)
    learnt = None if policy_rows is None else policy_rows[batch.phase]
    pg = pg_rows.mean() if learnt is None else (learnt * pg_rows).mean()
    ent = ent_rows.mean() if learnt is None else (learnt * ent_rows).mean()
    with torch.no_grad():
        stats = {
            "policy": pg.item(),
            "value": vf.item(),
            "entropy": ent_rows.mean().item(),
            "approx_kl": ((ratio - 1) - ratio_log).mean().item(),
            "clipfrac": ((ratio - 1).abs() > cfg.clip).float().mean().item(),
        }
    loss = pg + cfg.vf_coef * vf - cfg.ent_coef * ent
    if phases is not None:
        bonus = phase_entropy_bonus(logp_all, batch.mask, batch.phase, phases)
        stats["phase_bonus"] = bonus.item()
        loss = loss - bonus
    return loss, stats
