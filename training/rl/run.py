"""One training run, the object both trainers' stories stand on (``mazzo.training.rl.ppo``,
``mazzo.training.rl.dmc``). Constructing it opens the run and nothing more: the game and its
``Rules`` made once, from the config; the network, its optimizer, the opponent pool and the
actors; the run directory with ``config.json`` and ``metrics.csv``. Or it resumes one exactly
from its latest checkpoint, after checking that the checkpoint's game, rules, encoding version
and config are this run's. The work before self-play is in named stages the trainer calls in
order, each a no-op where its config or a resume skips it: ``imitation`` (of the experts),
``search_labels`` (written or read) and ``distillation`` (of those labels). Then, update by
update (``rollouts``), it collects a rollout, logs the update (TensorBoard ``losses/``, ``perf/``,
``charts/``; one log line, or the progress bar), snapshots the policy into the opponent pool,
evaluates through the arena (``eval/`` scalars, ``metrics.csv``), writes checkpoints
(``mazzo.training.rl.checkpoint``: every state an exact resume needs) and, as a ``with`` block,
stops cleanly on Ctrl-C / SIGTERM or when the hook says so, with a last checkpoint.
"""

from __future__ import annotations

import contextlib
import csv
import json
import signal
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.utils.tensorboard import SummaryWriter

from mazzo.agents.nets import PolicyValueNet
from mazzo.agents.neural import read_policy
from mazzo.agents.shipped import named_weights
from mazzo.arena.units import format_duration
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame, get_game
from mazzo.training.rl.actors import Actors, ActorSpec
from mazzo.training.rl.checkpoint import check_start, load_checkpoint, save_checkpoint
from mazzo.training.rl.collect import Rollout
from mazzo.training.rl.config import (
    LR_SCHEDULE,
    RESUMABLE_CHANGES,
    RunConfig,
    config_dict,
    field_defaults,
    schedule_kept,
)
from mazzo.training.rl.distill import LabelledDecisions, distill_labels, read_labels
from mazzo.training.rl.evaluate import evaluate_policy
from mazzo.training.rl.imitation import imitate
from mazzo.training.rl.opponents import OpponentPool
from mazzo.training.rl.phase_entropy import phase_indices
from mazzo.training.rl.progress import TrainProgress
from mazzo.training.rl.ray_actors import RayActors

__all__ = [
    "RESUMABLE_CHANGES",
    "Hook",
    "Log",
    "Run",
    "TrainingStopped",
    "phase_entropy",
    "phase_names",
]

Log = Callable[[str], None]

Hook = Callable[[PolicyValueNet, "Run"], bool]
"""Called with the network and the run once before self-play (after any imitation) and after
every update; returning True stops the run as a signal would (the last checkpoint is written).
Benchmarks use it to snapshot the policy on a wall-clock schedule (``run.decisions``)."""

METRICS = ("update", "decisions", "opponent", "margin", "low", "high", "deals")


def read_init(
    cfg: RunConfig, game: AnyGame, rules: RulesLike, encoding_version: int
) -> tuple[dict[str, torch.Tensor], dict[str, Any]]:
    """The policy ``cfg.init_from`` names (a folder, ``bot`` or ``bot@N``: ``named_weights``)
    and its metadata, checked to be this run's game, encoding and hidden widths, and its rules
    (unless ``cfg.init_foreign_rules``).

    Raises:
        ValueError: naming what differs, or a shipped version the game does not have.
    """
    path = cfg.init_from
    try:
        folder = named_weights(path, game, rules)
    except ValueError as e:
        raise ValueError(f"init_from {e}") from None
    model, meta = read_policy(folder)
    mine = {"game": game.name, "flags": rules.to_flags(), "encoding_version": encoding_version}
    check_start(path, meta, mine, "this run's", cfg.init_foreign_rules)
    shape = meta.get("network", {})
    if list(shape.get("hidden", ())) != list(cfg.hidden):
        raise ValueError(
            f"init_from {path!r}: its hidden widths are {shape.get('hidden')}, this run's "
            f"are {list(cfg.hidden)}"
        )
    return model, meta


class Run:
    """A training run of ``cfg`` by ``algorithm`` in ``run_dir``: opened (from random weights,
    or from imitating the experts with ``bc_decisions``) or (``resume``) continued from its
    latest checkpoint. As a ``with`` block it stops cleanly (see the module docstring).

    Args:
        seed: the collection stream's root (spawned into the actors' seeds).
        imitation_seed: the experts' deals and sampling, for a fresh run with ``bc_decisions``.
        gen: the trainer's torch generator (in the checkpoint).
        log: the run's messages, and a line per update without ``progress``.
        hook: see ``Hook``.
        progress: a terminal's progress bar (the messages are printed above it).
        ray: the actors run on Ray (``mazzo.training.rl.ray_actors``): ``"local"`` starts a
            runtime here, any other value is a cluster's address; None: local processes.

    Raises:
        ValueError: resuming a checkpoint of another game, rules, encoding or config; opening
            a directory that holds a run.
    """

    def __init__(
        self, cfg: RunConfig, algorithm: str, run_dir: Path, resume: bool,
        seed: np.random.SeedSequence, imitation_seed: np.random.SeedSequence,
        gen: torch.Generator, log: Log = print, hook: Hook | None = None,
        progress: TrainProgress | None = None, ray: str | None = None,
    ) -> None:  # fmt: skip
        torch.set_num_threads(cfg.threads)
        self.cfg, self.algorithm, self.run_dir, self.gen = cfg, algorithm, run_dir, gen
        self.log, self.hook, self.progress = log, hook, progress
        self.say = progress.message if progress is not None else log
        self.game: AnyGame = get_game(cfg.game)
        self.rules: RulesLike = self.game.rules(cfg.flags)
        self.encoder = self.game.encoder(self.rules)
        self.critic_extra = (
            (self.game.seats(self.rules) - 1) * self.game.info.deck.size
            if cfg.critic_sees_hidden
            else 0
        )
        self.reward_scale = cfg.reward_scale or self.game.reward_scale(self.rules)
        enc = self.encoder
        self.net = PolicyValueNet(enc.obs_size, enc.num_actions, cfg.hidden, self.critic_extra)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=cfg.lr, eps=1e-5)
        self.pool = OpponentPool(
            self.game, cfg.pool_agents, cfg.self_play, cfg.max_snapshots, self.rules
        )
        self.actors: Actors | RayActors
        if ray is None:
            self.actors = Actors(self._actor_specs(seed), local=cfg.n_actors == 0)
        elif cfg.n_actors == 0:
            raise ValueError(
                "training on Ray needs actors: set n_actors to 1 or more (--set n_actors=K); "
                "the run then gives the weights of K local actor processes"
            )
        else:
            self.actors = RayActors(self._actor_specs(seed), ray, self.say)
        self.update = self.decisions = 0
        self.resumed = resume
        self.imitation_seed = imitation_seed
        try:
            self._restore() if resume else self._start()
        except BaseException:
            self.actors.close()
            raise
        self.eval_deals = generate_deals(self.game, self.rules, cfg.eval_deals, cfg.eval_seed)
        self.writer = SummaryWriter(str(run_dir))
        self.phases = phase_names(self.game, self.rules)
        self._stop = _StopSignal()
        self._halted = False
        self._started = False
        self._times = (0.0, 0.0)
        self.labels: LabelledDecisions | None = None
        """the search labels kept for the trainer's loss during self-play (``distill_coef``)"""

    # ---- the stages before self-play, each a no-op where the config or a resume skips it

    def imitation(self) -> None:
        """Stage 1: a fresh run with ``bc_decisions`` starts from the experts' play
        (``mazzo.training.rl.imitation``), not from random weights."""
        if not self.resumed and self.cfg.bc_decisions:
            imitate(self, self.imitation_seed, self.gen)

    def search_labels(self) -> LabelledDecisions | None:
        """Stage 2: the search's labels (``label_deals`` written or continued by the run,
        ``distill_labels`` files read), where the run has any and still needs them (a fresh
        run, or a resumed one with updates left that learn them); None otherwise."""
        cfg = self.cfg
        updates_left = self.decisions < cfg.total_decisions and cfg.distill_coef
        if (cfg.distill_labels or cfg.label_deals) and (not self.resumed or updates_left):
            return read_labels(self)
        return None

    def distillation(self, labels: LabelledDecisions | None) -> None:
        """Stage 3: a fresh run learns the labels' decisions before self-play
        (``distill_epochs`` passes) and keeps them for its loss during self-play where
        ``distill_coef`` asks (``self.labels``)."""
        if labels is None:
            return
        if not self.resumed and self.cfg.distill_epochs:
            distill_labels(self, self.gen, labels)
        self.labels = labels if self.cfg.distill_coef else None

    def _actor_specs(self, seed: np.random.SeedSequence) -> list[ActorSpec]:
        """``n_actors`` actors on seeds spawned from ``seed`` (or, for 0, one collector in this
        process on ``seed`` itself), each stepping ``n_envs / n_actors`` engines."""
        c = self.cfg
        k = max(c.n_actors, 1)
        names = phase_names(self.game, self.rules)
        mc = tuple(sorted(set(phase_indices(names, c.mc_phases, "mc_phases").values())))
        return [
            ActorSpec(
                self.game, self.rules, c.n_envs // k, s, c.pool_agents, c.self_play,
                c.max_snapshots, self.reward_scale, c.gamma, c.lam, c.hidden, self.critic_extra,
                mc,
            )
            for s in ([seed] if c.n_actors == 0 else seed.spawn(k))
        ]  # fmt: skip

    # ---- the updates: collect, (the trainer's update), log; the clean stop around them

    def __enter__(self) -> Run:
        return self

    def _begin_self_play(self) -> None:
        """Self-play begins: its clocks start, Ctrl-C / SIGTERM now stop it after an update
        (with a checkpoint), and the hook sees the network once before the first update."""
        self._started = True
        self._last_ckpt = self._start_time = time.monotonic()
        self._first = self.decisions
        self._stop.__enter__()
        self._halted = self.hook is not None and self.hook(self.net, self)

    def rollouts(self, explore: Callable[[int], float] | None = None) -> Iterator[Rollout]:
        """Stage 4, collection: the actors' rollouts of ``rollout_decisions`` learner
        decisions with their advantages, one per update until ``total_decisions`` (or a
        stop): sampled from the policy or, with ``explore`` (decisions so far -> epsilon),
        epsilon-greedy on its values. Each is counted by ``log_update`` (stage 5, after the
        trainer's update) before the next is collected."""
        cfg = self.cfg
        if not self._started:
            self._begin_self_play()
        while self.decisions < cfg.total_decisions and not (self._stop.requested or self._halted):
            epsilon = None if explore is None else explore(self.decisions)
            for group in self.opt.param_groups:  # the schedule's rate for this update
                group["lr"] = cfg.lr_at(self.decisions)
            t0 = time.perf_counter()
            version = self.update // cfg.snapshot_every  # the pool changes with each snapshot
            roll = self.actors.collect(self.net, self.pool, version, cfg.rollout_decisions, epsilon)
            self._times = (t0, time.perf_counter())
            yield roll

    def log_update(self, roll: Rollout, losses: dict[str, float]) -> None:
        """Count the update of ``roll`` and log it with the trainer's ``losses``, then do what
        falls due: a snapshot into the pool, an evaluation (every ``eval_every`` updates and
        after the last), a checkpoint, the hook."""
        t2 = time.perf_counter()
        self.decisions += len(roll)
        self.update += 1
        cfg, u = self.cfg, self.update
        if u % cfg.snapshot_every == 0:
            self.pool.add_snapshot(f"u{u}", self.net.state_dict())
        eta = (time.monotonic() - self._start_time) / max(self.decisions - self._first, 1)
        eta *= max(cfg.total_decisions - self.decisions, 0)
        self._write_update(roll, losses, (*self._times, t2), eta)
        last = self.decisions >= cfg.total_decisions  # the run's network is always evaluated
        if cfg.eval_every and (u % cfg.eval_every == 0 or last):
            self.evaluate()
        if time.monotonic() - self._last_ckpt >= 60 * cfg.checkpoint_minutes:
            self.save()
            self._last_ckpt = time.monotonic()
        self._halted = self.hook is not None and self.hook(self.net, self)

    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        try:
            if exc_type is None:
                self.save()
        finally:
            self.actors.close()
            self._stop.__exit__()
        if exc_type is not None:
            return
        self.writer.close()
        why = "stopped by a signal" if self._stop.requested else "done"
        why = "stopped by the hook" if self._halted and not self._stop.requested else why
        if self.progress is not None:  # the bar ends first: nothing is redrawn after the end
            self.progress.close()
        self.say(
            f"{why}: update {self.update}, {self.decisions:,} decisions; checkpoint in "
            f"{self.run_dir}"
        )
        if self._stop.signum is not None:  # a stopped run is not a finished one
            raise TrainingStopped(self._stop.signum, self.run_dir)

    def _write_update(
        self, roll: Rollout, losses: dict[str, float], times: tuple[float, float, float],
        eta: float,
    ) -> None:  # fmt: skip
        """TensorBoard's scalars of one update, then the log line or the bar's redraw."""
        t0, t1, t2 = times
        step, w = self.decisions, self.writer
        for key, value in losses.items():
            w.add_scalar(f"losses/{key}", value, step)
        dps, sps = len(roll) / (t2 - t0), len(roll) * self.cfg.epochs / max(t2 - t1, 1e-9)
        w.add_scalar("perf/decisions_per_s", dps, step)
        w.add_scalar("perf/learner_samples_per_s", sps, step)
        w.add_scalar("perf/deals_per_s", roll.deals / (t2 - t0), step)
        w.add_scalar("charts/learning_rate", self.opt.param_groups[0]["lr"], step)
        if roll.deals:
            w.add_scalar("charts/learner_return", float(roll.deal_returns.mean()), step)
        for phase, ent in phase_entropy(self.net, roll).items():
            w.add_scalar(f"charts/entropy_{self.phases.get(phase, str(phase))}", ent, step)
        if self.progress is not None:
            self.progress.update(self.update, step, self.cfg.total_decisions, dps, eta)
            return
        done = min(1.0, step / self.cfg.total_decisions)
        self.log(
            f"update {self.update} [{done:4.0%}] {step:,} decisions, {dps:,.0f}/s, learner "
            f"{sps:,.0f} samples/s, entropy {losses.get('entropy', float('nan')):.3f}, "
            f"explained variance {losses.get('explained_variance', float('nan')):.3f}, "
            f"ETA {format_duration(eta)}"
        )

    # ---- evaluation

    def evaluate(self) -> None:
        """The policy's margin over each evaluation opponent on the fixed deals: TensorBoard
        (``eval/``), ``metrics.csv``, the log and the progress bar."""
        margins = []
        for opponent in self.cfg.eval_opponents:
            m = evaluate_policy(
                self.net, self.encoder, self.eval_deals, opponent, seed=self.cfg.eval_seed
            )
            tag, step = opponent.replace(":", "_"), self.decisions
            self.writer.add_scalar(f"eval/margin_vs_{tag}", m.mean, step)
            self.writer.add_scalar(f"eval/margin_vs_{tag}_low", m.low, step)
            self.writer.add_scalar(f"eval/margin_vs_{tag}_high", m.high, step)
            row = (self.update, self.decisions, opponent, m.mean, m.low, m.high, m.deals)
            with (self.run_dir / "metrics.csv").open("a", newline="") as f:
                csv.writer(f).writerow(row)
            self.say(
                f"  eval at update {self.update} vs {opponent}: {m.mean:+.3f} "
                f"[{m.low:+.3f}, {m.high:+.3f}] per deal"
            )
            margins.append(m)
        if self.progress is not None:
            for m in margins:
                self.progress.margin(m.opponent, m.mean, m.low, m.high)

    # ---- the run directory and its checkpoints

    def _start(self) -> None:
        """Create the run directory (refusing one that holds a run: resume it instead)."""
        if (self.run_dir / "latest").exists():
            where = self.run_dir
            raise ValueError(f"{where} already holds a run; resume it or choose another dir")
        if self.cfg.init_from:
            self._init_from(self.cfg.init_from)
        self.run_dir.mkdir(parents=True, exist_ok=True)
        (self.run_dir / "config.json").write_text(json.dumps(config_dict(self.cfg), indent=1))
        with (self.run_dir / "metrics.csv").open("w", newline="") as f:
            csv.writer(f).writerow(METRICS)

    def _init_from(self, path: str) -> None:
        """Load the policy of ``path`` (``read_init``) into the fresh network."""
        model, meta = read_init(self.cfg, self.game, self.rules, self.encoder.version)
        own = self.net.state_dict()
        missing = [k for k in own if k not in model or model[k].shape != own[k].shape]
        if missing:  # a value torso of its own (critic_sees_hidden) starts fresh
            model = {**own, **{k: v for k, v in model.items() if k in own and k not in missing}}
            if any(not k.startswith("value_torso") for k in missing):
                raise ValueError(f"init_from {path!r}: its network lacks {', '.join(missing)}")
        self.net.load_state_dict(model)
        rules = (
            ""
            if meta.get("flags") == self.rules.to_flags()
            else (f", trained for the rules {json.dumps(meta.get('flags'))}")
        )
        self.say(f"initialised from {path} ({meta.get('algorithm', '?')}, update "
                 f"{meta.get('update', '?')}{rules})")  # fmt: skip

    def policy_meta(self) -> dict[str, Any]:
        """A checkpoint's metadata without the trainer's state: enough for ``nn:`` to load the
        network (and for ``init_from`` to start from it)."""
        net = self.net
        return self.identity() | {
            "config": config_dict(self.cfg),
            "update": self.update,
            "decisions": self.decisions,
            "network": {"obs_size": net.obs_size, "num_actions": net.num_actions,
                        "hidden": list(self.cfg.hidden), "critic_extra": net.critic_extra},
        }  # fmt: skip

    def identity(self) -> dict[str, Any]:
        """What a checkpoint must share with the run that resumes it (and the config)."""
        return {
            "algorithm": self.algorithm,
            "game": self.game.name,
            "flags": self.rules.to_flags(),
            "encoding_version": self.encoder.version,
        }

    def save(self) -> Path:
        """Write a checkpoint of everything the run needs to continue exactly."""
        net, pool = self.net, self.pool.state()
        trainer = {
            "optimizer": self.opt.state_dict(),
            "torch_rng": torch.get_rng_state(),
            "generator": self.gen.get_state(),
            "pool": pool["weights"],
        }
        meta = self.policy_meta() | {"pool": pool["snapshots"], "actors": self.actors.state()}
        name = f"ckpt-{self.update:07d}"
        return save_checkpoint(self.run_dir, name, net.state_dict(), trainer, meta)

    def _restore(self) -> None:
        """Load the run's latest checkpoint (after checking it fits) and say so."""
        model, trainer, meta = load_checkpoint(self.run_dir)
        self._check(meta)
        self.net.load_state_dict(model)
        self.opt.load_state_dict(trainer["optimizer"])
        torch.set_rng_state(trainer["torch_rng"])
        self.gen.set_state(trainer["generator"])
        self.pool.restore({"snapshots": meta["pool"], "weights": trainer["pool"]})
        self.actors.restore(meta["actors"])
        self.update, self.decisions = int(meta["update"]), int(meta["decisions"])
        self.say(f"resumed {self.run_dir} at update {self.update} ({self.decisions:,} decisions)")

    def _check(self, meta: dict[str, Any]) -> None:
        """Raise ValueError naming what differs between a checkpoint and this run."""
        mine = self.identity() | {"config": _fixed(config_dict(self.cfg))}
        # a key the stored config lacks came to the code after the run was written: the run
        # trained as with its default (a key is only ever added with the old behaviour as
        # its default)
        stored = field_defaults(type(self.cfg)) | meta.get("config", {})
        theirs = meta | {"config": _fixed(stored)}
        for key in ("algorithm", "game", "flags", "encoding_version", "config"):
            if theirs.get(key) != mine[key]:
                raise ValueError(
                    f"the checkpoint's {key} is {_short(theirs.get(key), mine[key])}; "
                    f"this run's is {_short(mine[key], theirs.get(key))}"
                )
        if not schedule_kept(stored, config_dict(self.cfg), int(meta.get("decisions", 0))):
            raise ValueError(
                f"the checkpoint's learning-rate schedule is "
                f"{json.dumps({k: stored[k] for k in ('lr', *LR_SCHEDULE)})}; this run's would "
                "give its past updates another rate"
            )


def phase_names(game: AnyGame, rules: RulesLike) -> dict[int, str]:
    """Phase index -> lower-case name (``Game.phase_names``)."""
    return game.phase_names(rules)


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


def _fixed(config: dict[str, Any]) -> dict[str, Any]:
    """The config's keys an exact resume must keep (the schedule is checked on its own)."""
    return {k: v for k, v in config.items() if k not in RESUMABLE_CHANGES and k not in LR_SCHEDULE}


def _short(value: Any, other: Any) -> str:
    """``value``, or for two dicts only the entries where they differ."""
    if isinstance(value, dict) and isinstance(other, dict):
        keys = sorted(k for k in set(value) | set(other) if value.get(k) != other.get(k))
        return json.dumps({k: value.get(k, "(default)") for k in keys})
    return json.dumps(value)


class TrainingStopped(KeyboardInterrupt):
    """A run stopped by SIGINT or SIGTERM, raised once its last checkpoint is written (so
    ``mazzo train`` exits with ``exit_status``, 128 plus the signal's number: 130 for Ctrl-C,
    143 for SIGTERM, as a shell reports a process the signal ended, and a scheduler can tell a
    stopped run from a finished one)."""

    def __init__(self, signum: int, run_dir: Path) -> None:
        name = signal.Signals(signum).name
        super().__init__(f"stopped by {name}; resume with --resume {run_dir}")
        self.signum, self.run_dir = signum, run_dir
        self.exit_status = 128 + signum


class _StopSignal:
    """Within the ``with`` block, SIGINT and SIGTERM set ``requested`` (and ``signum``)
    instead of killing the process, so the trainer finishes its update and writes a
    checkpoint."""

    def __init__(self) -> None:
        self.requested = False
        self.signum: int | None = None
        self._old: dict[int, Any] = {}

    def _handle(self, signum: int, frame: types.FrameType | None) -> None:
        self.requested = True
        self.signum = signum

    def __enter__(self) -> _StopSignal:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(ValueError):  # not the main thread: stop only at the end
                self._old[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)
