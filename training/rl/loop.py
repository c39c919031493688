"""The training loop every trainer shares: seeding, the game and its encoder, the network and
optimizer, the opponent pool, the actors, the run directory, TensorBoard, evaluation through
the arena, checkpoints, exact resume and the clean stop on a signal. A trainer (``ppo``,
``dmc``) supplies its config (a ``RunConfig``), how actors act (sampling from the policy, or
epsilon-greedy on Q-values) and its update of the network from a rollout.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import torch
from torch.utils.tensorboard import SummaryWriter

from agents.arena.progress import format_duration
from agents.nets import PolicyValueNet
from envs.deal_sets import generate_deals
from envs.registry import AnyGame, get_game
from training.rl.actors import Actors, ActorSpec
from training.rl.collect import Rollout
from training.rl.evaluate import Margin
from training.rl.imitation import behaviour_clone, expert_decisions
from training.rl.opponents import OpponentPool
from training.rl.progress import TrainProgress
from training.rl.run import RunState, _StopSignal

__all__ = ["Algorithm", "Hook", "RunConfig", "phase_names", "train_loop"]

Hook = Callable[[PolicyValueNet, RunState], bool]
"""Called with the network and the run's counters once before self-play (after any imitation)
and after every update; returning True stops the run as a signal would (the last checkpoint is
written). Benchmarks use it to snapshot the policy on a wall-clock schedule."""


@dataclass(frozen=True)
class RunConfig:
    """What every trainer's run depends on (a file under ``configs/``)."""

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
    bc_decisions: int = 0
    """expert decisions to imitate before self-play (0: start from random weights)"""
    bc_experts: tuple[str, ...] = ("heuristic",)
    """agent specs whose games are imitated (one per deal, in turn)"""
    bc_epochs: int = 5
    bc_lr: float = 1e-3
    critic_sees_hidden: bool = False
    """the value head also reads the other seats' hands during training (PerfectDou's idea;
    the policy never does, so the trained bot plays on its own view)"""

    def __post_init__(self) -> None:
        get_game(self.game)
        positive = ("total_decisions", "n_envs", "rollout_decisions", "epochs", "minibatch")
        for name in (*positive, "snapshot_every", "max_snapshots", "threads", "eval_deals"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        for name in ("lr", "max_grad_norm"):
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
        if self.bc_decisions < 0 or self.bc_epochs < 1 or not self.bc_lr > 0:
            raise ValueError("bc_decisions must be >= 0, bc_epochs >= 1 and bc_lr > 0")
        if not self.hidden or min(self.hidden) < 1:
            raise ValueError(f"hidden must list positive widths, got {list(self.hidden)}")


class Algorithm(Protocol):
    """What a trainer supplies to the loop."""

    name: str

    def epsilon(self, decisions: int) -> float | None:
        """Epsilon-greedy exploration on the policy head's values after ``decisions``
        learner decisions, or None to sample from the policy."""
        ...

    def update(
        self, net: PolicyValueNet, opt: torch.optim.Optimizer, roll: Rollout,
        gen: torch.Generator,
    ) -> dict[str, float]:  # fmt: skip
        """Learn from ``roll``; the statistics to log (``losses/<key>``)."""
        ...


def train_loop(
    cfg: RunConfig, algo: Algorithm, run_dir: Path, resume: bool = False,
    log: Callable[[str], None] = print, hook: Hook | None = None,
    progress: TrainProgress | None = None,
) -> PolicyValueNet:  # fmt: skip
    """Train for ``cfg.total_decisions`` learner decisions, writing TensorBoard events,
    ``metrics.csv`` and checkpoints into ``run_dir``; with ``resume``, continue exactly from
    its latest checkpoint (the run's config must be the checkpoint's). Returns the network.
    ``hook`` (see ``Hook``) may watch the run and stop it. Each update is one line of ``log``,
    or, with ``progress`` (a terminal), a redraw of its bar; the run's other messages go to
    ``log``, or are printed above the bar.

    Raises:
        ValueError: a checkpoint of another game, rules, encoding or config.
    """
    # ---- seeding: one root, spawned into independent streams
    collect_seed, torch_seed, bc_seed = np.random.SeedSequence(cfg.seed).spawn(3)
    torch.manual_seed(int(torch_seed.generate_state(1)[0]))
    gen = torch.Generator().manual_seed(int(torch_seed.generate_state(2)[1]))
    torch.set_num_threads(cfg.threads)

    game = get_game(cfg.game)
    rules = game.rules(cfg.flags)
    encoder = game.encoder(rules)
    net = PolicyValueNet(
        encoder.obs_size, encoder.num_actions, cfg.hidden, critic_extra(cfg, game, rules)
    )
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr, eps=1e-5)
    pool = OpponentPool(game.name, cfg.pool_agents, cfg.self_play, cfg.max_snapshots)
    actors = make_actors(cfg, game, collect_seed)
    run = RunState(game.name, rules, encoder.version, cfg, algo.name)
    say = progress.message if progress is not None else log
    if resume:
        run.restore(run_dir, net, opt, gen, pool, actors)
        say(f"resumed {run_dir} at update {run.update} ({run.decisions:,} decisions)")
    else:
        run.start(run_dir)
    eval_deals = generate_deals(game, rules, cfg.eval_deals, cfg.eval_seed)
    writer = SummaryWriter(str(run_dir))
    if not resume and cfg.bc_decisions:
        _imitate(cfg, game, rules, net, bc_seed, gen, writer, say)
        if cfg.eval_every:
            _show(progress, run.evaluate(writer, net, encoder, eval_deals, cfg, say))
    stop = _StopSignal()
    last_ckpt = start = time.monotonic()
    first = run.decisions
    halted = hook is not None and hook(net, run)
    with stop, contextlib.closing(actors):
        while run.decisions < cfg.total_decisions and not (stop.requested or halted):
            t0 = time.perf_counter()
            version = run.update // cfg.snapshot_every  # the pool changes with each snapshot
            eps = algo.epsilon(run.decisions)
            roll = actors.collect(net, pool, version, cfg.rollout_decisions, eps)
            t1 = time.perf_counter()
            stats = algo.update(net, opt, roll, gen)
            t2 = time.perf_counter()
            run.decisions += len(roll)
            run.update += 1
            u = run.update
            if u % cfg.snapshot_every == 0:
                pool.add_snapshot(f"u{u}", net.state_dict())
            eta = (time.monotonic() - start) / max(run.decisions - first, 1)
            eta *= max(cfg.total_decisions - run.decisions, 0)
            _log_update(writer, run, roll, stats, net, (t0, t1, t2), game, eta, log, progress)
            if cfg.eval_every and u % cfg.eval_every == 0:
                _show(progress, run.evaluate(writer, net, encoder, eval_deals, cfg, say))
            if time.monotonic() - last_ckpt >= 60 * cfg.checkpoint_minutes:
                run.save(run_dir, net, opt, gen, pool, actors)
                last_ckpt = time.monotonic()
            halted = hook is not None and hook(net, run)
        run.save(run_dir, net, opt, gen, pool, actors)
    writer.close()
    why = "stopped by a signal" if stop.requested else "stopped by the hook" if halted else "done"
    say(f"{why}: update {run.update}, {run.decisions:,} decisions; checkpoint in {run_dir}")
    if progress is not None:
        progress.close()
    return net


def _show(progress: TrainProgress | None, margins: list[Margin]) -> None:
    if progress is not None:
        for m in margins:
            progress.margin(m.opponent, m.mean, m.low, m.high)


def _log_update(
    writer: SummaryWriter, run: RunState, roll: Rollout, stats: dict[str, float],
    net: PolicyValueNet, times: tuple[float, float, float], game: AnyGame, eta: float,
    log: Callable[[str], None], progress: TrainProgress | None = None,
) -> None:  # fmt: skip
    t0, t1, t2 = times
    step = run.decisions
    for key, value in stats.items():
        writer.add_scalar(f"losses/{key}", value, step)
    dps, sps = len(roll) / (t2 - t0), len(roll) * run.cfg.epochs / max(t2 - t1, 1e-9)
    writer.add_scalar("perf/decisions_per_s", dps, step)
    writer.add_scalar("perf/learner_samples_per_s", sps, step)
    writer.add_scalar("perf/deals_per_s", roll.deals / (t2 - t0), step)
    if roll.deals:
        writer.add_scalar("charts/learner_return", float(roll.deal_returns.mean()), step)
    names = phase_names(game)
    for phase, ent in phase_entropy(net, roll).items():
        writer.add_scalar(f"charts/entropy_{names.get(phase, str(phase))}", ent, step)
    if progress is not None:
        progress.update(run.update, step, run.cfg.total_decisions, dps, eta)
        return
    done = min(1.0, step / run.cfg.total_decisions)
    log(
        f"update {run.update} [{done:4.0%}] {step:,} decisions, {dps:,.0f}/s, learner "
        f"{sps:,.0f} samples/s, entropy {stats.get('entropy', float('nan')):.3f}, explained "
        f"variance {stats.get('explained_variance', float('nan')):.3f}, "
        f"ETA {format_duration(eta)}"
    )


def _imitate(
    cfg: RunConfig, game: AnyGame, rules: Any, net: PolicyValueNet, seed: np.random.SeedSequence,
    gen: torch.Generator, writer: SummaryWriter, log: Callable[[str], None],
) -> None:  # fmt: skip
    """Behaviour cloning of ``cfg.bc_experts`` before self-play (``training.rl.imitation``)."""
    t0 = time.perf_counter()
    scale = cfg.reward_scale or game.reward_scale(rules)
    demos = expert_decisions(game, rules, cfg.bc_experts, cfg.bc_decisions, cfg.n_envs, seed, scale)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.bc_lr)
    stats = behaviour_clone(net, opt, demos, cfg.bc_epochs, cfg.minibatch, gen)
    for key, value in stats.items():
        writer.add_scalar(f"imitation/{key}", value, 0)
    log(
        f"imitation of {', '.join(cfg.bc_experts)}: {len(demos):,} decisions, accuracy "
        f"{stats['accuracy']:.1%}, value loss {stats['value']:.4f} "
        f"({time.perf_counter() - t0:.0f}s)"
    )


def make_actors(cfg: RunConfig, game: AnyGame, seed: np.random.SeedSequence) -> Actors:
    """The run's actors: ``n_actors`` processes on seeds spawned from ``seed`` (or, for 0,
    one collector in this process on ``seed`` itself)."""
    rules = game.rules(cfg.flags)
    k = max(cfg.n_actors, 1)
    seeds = [seed] if cfg.n_actors == 0 else seed.spawn(k)
    specs = [
        ActorSpec(
            game.name, dict(cfg.flags), cfg.n_envs // k, s, cfg.pool_agents, cfg.self_play,
            cfg.max_snapshots, cfg.reward_scale or game.reward_scale(rules), cfg.gamma, cfg.lam,
            cfg.hidden, critic_extra(cfg, game, rules),
        )
        for s in seeds
    ]  # fmt: skip
    return Actors(specs, local=cfg.n_actors == 0)


def critic_extra(cfg: RunConfig, game: AnyGame, rules: Any) -> int:
    """Length of the hidden-card input of the critic (0 unless ``critic_sees_hidden``)."""
    return (game.seats(rules) - 1) * game.info.deck.size if cfg.critic_sees_hidden else 0


def phase_names(game: AnyGame) -> dict[int, str]:
    """Phase index -> lower-case name, from a fresh deal's view (``Phase`` enums)."""
    rules = game.rules()
    state = game.new_state(game.deal_random(np.random.default_rng(0), rules), rules)
    phase = state.info_view(state.to_play).phase
    return {int(p): p.name.lower() for p in type(phase)}


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
