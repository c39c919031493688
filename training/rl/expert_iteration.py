"""Expert iteration (ExIt), one recipe for any game and rule set: from no weights to a bot
that plays like the search with its own network inside, by rounds that alternate search and
learning and keep only what a gate finds better.

``train`` reads top to bottom, the way AlphaZero's loop does:

0. **Bootstrap** (round 0): PPO self-play from no weights (or ``init_from``) against the
   config's pool (the search; never the heuristic: the recipe's targets come from search and
   self-play alone). The network is the first *best*.
1. **Labels**: the search with the best network inside (``label_searcher``: its ``{net}`` is
   the best network, as ``ipimc``'s prior and for the decisions outside card play) plays
   ``label_deals`` fresh deals (a new seed each round) against ``label_opponents`` (``{net}``
   again: labels on the positions the best network reaches).
2. **Learning**: from the best network's weights, ``distill_epochs`` passes over the labels
   (the round's own and those of the ``label_window - 1`` rounds before it),
   then ``round_decisions`` of PPO with the labels' policy term in every minibatch
   (``distill_coef``) and the pool the config's agents plus the last ``past_bests`` promoted
   networks.
3. **Gate**: the candidate against the best on ``gate_deals`` held-out deals (duplicate
   seating, paired); promoted only where the lower end of the paired interval lies above
   zero. With ``gate_against`` (an agent), each of the two plays that agent on those deals
   instead, and the gate is the candidate's margin less the best's, deal by deal. With
   ``gate_passes``, a candidate that fails is followed by a second one, the
   network as the passes left it (before PPO; ``round-KK/passes/``), gated the same way.
   The round's outcome is recorded either way (``rounds.jsonl``, ``exit/`` scalars in
   TensorBoard); the next round starts from the best.

Every round is a PPO run of its own (``round-KK/``, ``mazzo.training.rl.ppo``), so its labels,
passes and PPO resume exactly as any run's do; a finished round's gate is kept in
``round-KK/gate.json``. At the end the best network is written as a bot folder, ``bot/``, with
its card (rules, provenance, compute, figures; ``mazzo.training.rl.ship``).

The run directory::

    config.json      the recipe's config (``ExitConfig``)
    latest, state/   the pointer ``mazzo train --resume`` reads (state/meta.json)
    rounds.jsonl     one line per finished round: the gate's margin, promoted or not, the
                     round's figures against the evaluation opponents and its wall time
    round-KK/        round K's PPO run (labels.jsonl, checkpoints, metrics.csv, gate.json,
                     with ``gate_against`` gate_vs.json: its margin per gate deal;
                     with ``gate_passes``, passes/: the network after the passes, its gate.json)
    bot/             the best network as a bot (model.pt, meta.json, config.json, CARD.md)

Nothing here names a game.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from torch.utils.tensorboard import SummaryWriter

from mazzo.agents.nets import PolicyValueNet
from mazzo.agents.registry import make_agent
from mazzo.agents.specs import parse_spec
from mazzo.arena.plan import Entrant
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.registry import get_game
from mazzo.training.rl import ppo
from mazzo.training.rl.checkpoint import save_checkpoint
from mazzo.training.rl.config import RESUMABLE_CHANGES, config_dict, field_defaults, stored_run
from mazzo.training.rl.distill import RUN_LABELS
from mazzo.training.rl.evaluate import margin_of, paired_diffs, paired_margin
from mazzo.training.rl.run import Log, Run, phase_names, read_init
from mazzo.training.rl.ship import ship

__all__ = [
    "NET", "PASSES", "ExitConfig", "Gate", "RoundRecord", "card", "past_bests", "round_config",
    "train",
]  # fmt: skip

NET = "{net}"
"""In ``label_searcher`` and ``label_opponents``: the best network so far (``nn:<its run>``)."""

ROUNDS = "rounds.jsonl"
STATE = "state"
PASSES = "passes"
"""A round's network after its passes over the labels, before its PPO (``gate_passes``)."""


@dataclass(frozen=True)
class ExitConfig(ppo.PPOConfig):
    """An expert-iteration run: a PPO config (the learning of every round) plus the loop's
    own keys. ``total_decisions`` is ignored (each round has its budget)."""

    rounds: int = 4
    """rounds of labels, learning and gate after the bootstrap (a resumed run may add some)"""
    bootstrap_decisions: int = 1_000_000
    """PPO decisions of round 0, from no weights (or ``init_from``)"""
    round_decisions: int = 500_000
    """PPO decisions of each later round, after the passes over its labels"""
    past_bests: int = 2
    """earlier promoted networks added to each round's opponent pool (besides the current
    best, which the round's own snapshots stand for)"""
    gate_deals: int = 400
    """held-out deals of the gate (each played in both seatings)"""
    gate_seed: int = 777_000
    """seed of the gate's deals (never a label or evaluation seed)"""
    gate_workers: int = 0
    """worker processes of the gate (0: every core)"""
    bootstrap_only: tuple[str, ...] = ()
    """PPO keys of this config that apply to the bootstrap alone; the later rounds take their
    defaults (``("phase_ent_coef", "phase_ent_floor")``: an entropy floor that keeps a
    no-weights policy bidding, dropped once the search's rounds begin)"""
    round_self_play: float = -1.0
    """``self_play`` of the rounds after the bootstrap (-1: the config's ``self_play``): a
    lower share meets the search in the pool more often"""
    label_window: int = 1
    """the rounds whose labels a round learns: its own and those of the ``label_window - 1``
    rounds before it, promoted or not (AlphaZero's window of recent games: each round's passes
    and its PPO's label term see that many rounds of searched decisions; 1: its own only)"""
    gate_passes: bool = False
    """also gate the network as the passes over the labels left it, before the round's PPO
    (kept in ``round-KK/passes/``), where the round's final network fails its gate: the round
    promotes whichever of the two passes (tried in that order, each at 95%, so a round that
    changes nothing is promoted by chance at most about twice as often; none with
    ``distill_epochs = 0``, where that network is the best itself)"""
    gate_against: str = ""
    """the gate's yardstick: "" plays the candidate against the best head to head; an agent
    (say ``"pimc:samples=32,ms=0"``) plays each of them against that agent on the gate's deals
    and gates the candidate's margin over it less the best's, deal by deal (the best's margins
    are kept in its folder, ``gate_vs.json``, and played once). Head to head, rounds that
    gain against the search have missed their gate (docs/results.md)"""
    label_searcher: str = "ipimc:ms=0,net={net}"
    label_opponents: tuple[str, ...] = ("{net}",)
    label_deals: int = 2000
    distill_epochs: int = 2
    distill_coef: float = 0.2
    pool_agents: tuple[str, ...] = ("pimc:samples=16,ms=0",)
    eval_opponents: tuple[str, ...] = ("pimc:ms=0",)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.rounds < 0 or self.past_bests < 0 or self.gate_workers < 0:
            raise ValueError("rounds, past_bests and gate_workers must be >= 0")
        if self.label_window < 1:
            raise ValueError(
                f"label_window must be >= 1 (1: each round learns its own labels only), got "
                f"{self.label_window}"
            )
        ppo_keys = {f.name for f in dataclasses.fields(ppo.PPOConfig)}
        unknown = sorted(set(self.bootstrap_only) - ppo_keys)
        if unknown:
            raise ValueError(f"bootstrap_only names {unknown}: no PPO key of that name")
        if self.round_self_play != -1.0 and not 0 <= self.round_self_play <= 1:
            raise ValueError(
                f"round_self_play must be in [0, 1] (or -1), got {self.round_self_play}"
            )
        for name in ("bootstrap_decisions", "round_decisions", "gate_deals", "label_deals"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        if self.bc_decisions:
            raise ValueError(
                f"bc_decisions = {self.bc_decisions}: expert iteration learns from search and "
                "self-play alone (no imitation); set bc_decisions = 0"
            )
        for key in ("pool_agents", "label_opponents"):
            named = [s for s in getattr(self, key) if s != NET and _is_heuristic(s)]
            if named:
                raise ValueError(
                    f"{key} names {named}: expert iteration trains without the heuristic (it "
                    "may be an evaluation opponent: eval_opponents)"
                )
        if self.gate_against:
            if NET in self.gate_against:
                raise ValueError(
                    f"gate_against {self.gate_against!r}: the gate's yardstick is a fixed agent "
                    f"(say 'pimc:samples=32,ms=0'), not the best network ({NET})"
                )
            if _is_heuristic(self.gate_against):
                raise ValueError(
                    f"gate_against {self.gate_against!r}: expert iteration trains without the "
                    "heuristic, and the gate decides what it trains from (it may be an "
                    "evaluation opponent: eval_opponents)"
                )
        if NET not in self.label_searcher:
            raise ValueError(
                f"label_searcher {self.label_searcher!r} must search with the best network: "
                f"name it as {NET} (e.g. 'ipimc:ms=0,net={NET}')"
            )
        label_seeds = range(self.label_seed, self.label_seed + self.rounds + 1)
        if self.gate_seed == self.eval_seed or self.gate_seed in label_seeds:
            raise ValueError(
                f"gate_seed {self.gate_seed} must differ from eval_seed ({self.eval_seed}) and "
                f"from the rounds' label seeds ({label_seeds.start}..{label_seeds.stop - 1})"
            )
        if self.eval_seed in label_seeds:
            raise ValueError(
                f"eval_seed {self.eval_seed} is one of the rounds' label seeds "
                f"({label_seeds.start}..{label_seeds.stop - 1}): never label the evaluation deals"
            )


def _is_heuristic(spec: str) -> bool:
    try:
        return parse_spec(spec).name == "heuristic"
    except ValueError:
        return False


@dataclass(frozen=True)
class Gate:
    """The candidate's paired margin over the best per deal, with its interval."""

    mean: float
    low: float
    high: float
    deals: int

    @property
    def better(self) -> bool:
        return self.low > 0


@dataclass(frozen=True)
class RoundRecord:
    """One finished round, as ``rounds.jsonl`` holds it."""

    round: int
    promoted: bool
    best: int
    """the best round after this one"""
    gate: dict[str, float] | None
    """the gate's margin (None for the bootstrap, promoted unopposed)"""
    evals: dict[str, list[float]]
    """the candidate's last margin [mean, low, high] against each evaluation opponent"""
    decisions: int
    wall_s: float
    """the round's wall time, over every session that worked on it"""
    total_wall_s: float
    """the whole run's wall time up to the end of this round"""
    network: str = ""
    """the promoted network's folder inside the round's (``PASSES``: the network after the
    passes, ``gate_passes``; "": the round's final network)"""
    passes_gate: dict[str, float] | None = None
    """the gate of the network after the passes, where it was played (``gate_passes``)"""


def round_config(
    cfg: ExitConfig, k: int, best: Path | None, past: list[Path], earlier: Sequence[Path] = (),
) -> ppo.PPOConfig:  # fmt: skip
    """The PPO config of round ``k`` (0: the bootstrap) starting from ``best`` (a run
    directory; None: no weights), with ``past`` (earlier bests) in its pool and the labels of
    the ``earlier`` rounds (their directories: ``label_window``) learnt beside its own."""
    base = {f.name: getattr(cfg, f.name) for f in dataclasses.fields(ppo.PPOConfig)}
    base["seed"] = cfg.seed + k  # a stream of its own per round
    if k == 0:
        return ppo.PPOConfig(**base | {
            "total_decisions": cfg.bootstrap_decisions, "label_deals": 0, "distill_coef": 0.0,
            "label_searcher": field_defaults(ppo.PPOConfig)["label_searcher"],
            "label_opponents": (), "labels_only_phases": (),  # (no labels to learn them from)
        })  # fmt: skip
    assert best is not None
    defaults = field_defaults(ppo.PPOConfig)
    base |= {k: defaults[k] for k in cfg.bootstrap_only}
    if cfg.round_self_play != -1.0:
        base["self_play"] = cfg.round_self_play
    net = f"nn:{best}"
    return ppo.PPOConfig(**base | {
        "total_decisions": cfg.round_decisions,
        "init_from": str(best),
        "label_searcher": cfg.label_searcher.replace(NET, net),
        "label_opponents": tuple(s.replace(NET, net) for s in cfg.label_opponents),
        "label_seed": cfg.label_seed + k,
        "distill_labels": (*cfg.distill_labels, *(str(e / RUN_LABELS) for e in earlier)),
        "pool_agents": (*cfg.pool_agents, *(f"nn:{p}" for p in past)),
    })  # fmt: skip


def train(
    cfg: ExitConfig, run_dir: Path, resume: bool = False, log: Log = print,
    ray: str | None = None,
) -> PolicyValueNet | None:  # fmt: skip
    """Run the recipe into ``run_dir`` (see the module docstring), or with ``resume`` go on
    from where it stopped: finished rounds are kept, an unfinished one resumes its PPO run.
    Returns the best network once every round is done, None when stopped before (a signal:
    the round's PPO run wrote its checkpoint)."""
    # ---- the run directory: opened (refusing one that holds a run) or resumed
    game = get_game(cfg.game)
    rules = game.rules(cfg.flags)
    if cfg.init_from and not resume:  # refused before anything is written
        read_init(cfg, game, rules, game.encoder(rules).version)
    # the rounds' phase names checked here: the bootstrap, which has no labels, skips them
    ppo.policy_phases(phase_names(game, rules), cfg.labels_only_phases)
    if cfg.gate_against:  # built once: a bad agent fails before hours of training
        try:
            make_agent(cfg.gate_against, cfg.game, rules)
        except ValueError as e:
            raise ValueError(f"gate_against {cfg.gate_against!r}: {e}") from None
    _open(cfg, run_dir, resume)
    if resume:
        run_dir = _as_started(run_dir)
    writer = SummaryWriter(str(run_dir))
    records = list(_read_records(run_dir))
    gate_deals = generate_deals(game, rules, cfg.gate_deals, cfg.gate_seed)
    total_wall = records[-1].total_wall_s if records else 0.0
    for k in range(len(records), cfg.rounds + 1):
        bests = _best_dirs(run_dir, records)
        best = bests[-1] if bests else None
        past = past_bests(bests, cfg.past_bests)
        earlier = [_round_dir(run_dir, j) for j in range(max(1, k - cfg.label_window + 1), k)]
        rcfg = round_config(cfg, k, best, past, earlier)  # round 0: from cfg.init_from, if any
        rdir = _round_dir(run_dir, k)
        clock = _Clock(rdir)
        log(f"exit: round {k} ({'bootstrap' if k == 0 else 'labels, learning, gate'}) in {rdir}")
        # ---- 1. labels and 2. learning: the round's PPO run (resumed where it stopped)
        passes_differ = cfg.gate_passes and cfg.distill_epochs > 0 and k > 0  # (else: the best)
        keep = _keep_passes(rdir) if passes_differ else None
        with clock:  # (one log line per update: a progress bar would end with the round)
            ppo.train(rcfg, rdir, resume=(rdir / "latest").exists(), log=log, hook=keep, ray=ray)
        decisions = _decisions(rdir)
        if decisions < rcfg.total_decisions:
            log(f"exit: stopped in round {k} ({decisions:,} decisions); resume with --resume")
            return None
        # ---- 3. the gate: the candidate against the best on held-out deals
        gate: Gate | None = None
        passes: Gate | None = None
        if k > 0 and best is not None:
            with clock:
                gate = _gate(rdir, best, gate_deals, cfg, log)
                if not gate.better and cfg.gate_passes and (rdir / PASSES / "latest").exists():
                    passes = _gate(rdir / PASSES, best, gate_deals, cfg, log)
        promoted = gate is None or gate.better or (passes is not None and passes.better)
        network = PASSES if passes is not None and passes.better else ""
        wall = clock.total()
        total_wall += wall
        record = RoundRecord(
            round=k, promoted=promoted, best=k if promoted else records[-1].best,
            gate=None if gate is None else dataclasses.asdict(gate),
            evals=_last_evals(rdir, first=network == PASSES), decisions=decisions, wall_s=wall,
            total_wall_s=total_wall, network=network,
            passes_gate=None if passes is None else dataclasses.asdict(passes),
        )  # fmt: skip
        _write_record(run_dir, record, writer)
        records.append(record)
        said = "bootstrap" if gate is None else f"gate {_said(gate)}"
        if passes is not None:
            said += f", the network after the passes {_said(passes)}"
        verdict = "promoted" if promoted else "not promoted"
        verdict += " (the network after the passes)" if network == PASSES else ""
        log(f"exit: round {k} {said}: {verdict}; the best is round {record.best}")
    writer.close()
    best_dir = _best_dirs(run_dir, records)[-1]
    shutil.rmtree(run_dir / "bot", ignore_errors=True)  # the run's own output, written anew
    ship(best_dir, run_dir / "bot", card(cfg, records, run_dir))
    log(f"exit: done; the best network is round {records[-1].best}: {run_dir / 'bot'}")
    from mazzo.agents.neural import read_policy

    model, meta = read_policy(best_dir)
    shape = meta["network"]
    out = PolicyValueNet(shape["obs_size"], shape["num_actions"], tuple(shape["hidden"]),
                         shape.get("critic_extra", 0))  # fmt: skip
    out.load_state_dict(model)
    return out


# ---- the run directory


def _as_started(run_dir: Path) -> Path:
    """The run folder spelled as when the run started, where that spelling names this same
    folder: the rounds' configs hold paths to earlier rounds as the folder was typed then
    (``runs/x/round-00``), so a run resumed as ``/abs/runs/x`` derives the same configs."""
    for config in sorted(run_dir.glob("round-*/config.json")):
        init = json.loads(config.read_text()).get("init_from", "")
        started = Path(init).parent
        if init and started.resolve() == run_dir.resolve():  # (round 0's may be elsewhere)
            return started
    return run_dir


def _round_dir(run_dir: Path, k: int) -> Path:
    return run_dir / f"round-{k:02d}"


def _open(cfg: ExitConfig, run_dir: Path, resume: bool) -> None:
    """Write (or, resuming, check) the run's config and the ``latest`` pointer that ``mazzo
    train --resume`` reads."""
    config = config_dict(cfg)
    state = run_dir / STATE / "meta.json"
    if resume:
        if not state.exists():
            raise ValueError(f"--resume {str(run_dir)!r}: not an expert-iteration run")
        stored = json.loads(state.read_text())["config"]
        free = sorted(RESUMABLE_CHANGES & set(config))
        stored = field_defaults(type(cfg)) | stored
        differ = sorted(k for k in config if k not in free and stored.get(k) != config[k])
        if differ:
            raise ValueError(
                f"--resume {str(run_dir)!r}: the run's {', '.join(differ)} differ from this "
                f"config's (a resumed run may change {', '.join(free)})"
            )
    elif (run_dir / "latest").exists() or state.exists():
        raise ValueError(f"{run_dir} already holds a run; resume it or choose another dir")
    state.parent.mkdir(parents=True, exist_ok=True)
    meta = {"algorithm": "exit", "game": cfg.game, "flags": cfg.flags, "config": config}
    state.write_text(json.dumps(meta, indent=1) + "\n")
    (run_dir / "config.json").write_text(json.dumps(config, indent=1) + "\n")
    (run_dir / "latest").write_text(STATE + "\n")


def _read_records(run_dir: Path) -> Iterator[RoundRecord]:
    path = run_dir / ROUNDS
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                yield RoundRecord(**json.loads(line))


def _write_record(run_dir: Path, record: RoundRecord, writer: SummaryWriter) -> None:
    """Append the round to ``rounds.jsonl`` and its ``exit/`` scalars to TensorBoard (step:
    the round; the wall time as TensorBoard's relative time)."""
    with (run_dir / ROUNDS).open("a") as f:
        f.write(json.dumps(dataclasses.asdict(record)) + "\n")
    step, when = record.round, record.total_wall_s
    writer.add_scalar("exit/promoted", float(record.promoted), step, walltime=when)
    writer.add_scalar("exit/best_round", record.best, step, walltime=when)
    writer.add_scalar("exit/wall_minutes", record.total_wall_s / 60, step, walltime=when)
    if record.gate is not None:
        for key in ("mean", "low", "high"):
            writer.add_scalar(f"exit/gate_{key}", record.gate[key], step, walltime=when)
    if record.passes_gate is not None:
        for key in ("mean", "low", "high"):
            value = record.passes_gate[key]
            writer.add_scalar(f"exit/passes_gate_{key}", value, step, walltime=when)
    for opponent, (mean, low, high) in record.evals.items():
        tag = opponent.replace(":", "_")
        writer.add_scalar(f"exit/margin_vs_{tag}", mean, step, walltime=when)
        writer.add_scalar(f"exit/margin_vs_{tag}_low", low, step, walltime=when)
        writer.add_scalar(f"exit/margin_vs_{tag}_high", high, step, walltime=when)
    writer.flush()


def _best_dirs(run_dir: Path, records: list[RoundRecord]) -> list[Path]:
    """The promoted rounds' networks (their folders), oldest first (the last is the best)."""
    return [_round_dir(run_dir, r.round) / r.network for r in records if r.promoted]


def past_bests(bests: Sequence[Path], n: int) -> list[Path]:
    """The ``n`` promoted networks before the best (the last of ``bests``), oldest first: the
    round's pool beside the config's agents (none for ``n`` = 0)."""
    return list(bests[max(len(bests) - 1 - n, 0) : -1])


def _keep_passes(rdir: Path) -> Callable[[PolicyValueNet, Run], bool]:
    """A PPO hook that writes the network as the passes left it into ``rdir/passes/`` (a
    run folder of one checkpoint that ``nn:`` loads), once: when a fresh round's self-play
    begins. It never stops the run."""

    def keep(net: PolicyValueNet, run: Run) -> bool:
        if run.decisions == 0 and not (rdir / PASSES / "latest").exists():
            meta = run.policy_meta() | {"note": "the network after the round's passes"}
            save_checkpoint(rdir / PASSES, "ckpt-0000000", net.state_dict(), {}, meta)
        return False

    return keep


def _decisions(rdir: Path) -> int:
    return int(stored_run(rdir).get("decisions", 0))


def _last_evals(rdir: Path, first: bool = False) -> dict[str, list[float]]:
    """The round's last margin against each evaluation opponent (its ``metrics.csv``); with
    ``first``, the one before its PPO (the network after the passes)."""
    out: dict[str, list[float]] = {}
    path = rdir / "metrics.csv"
    if path.exists():
        with path.open() as f:
            for row in csv.DictReader(f):
                if not first or int(row["decisions"]) == 0:
                    out[row["opponent"]] = [
                        float(row["margin"]), float(row["low"]), float(row["high"])
                    ]  # fmt: skip
    return out


def _said(gate: Gate) -> str:
    return f"{gate.mean:+.3f} [{gate.low:+.3f}, {gate.high:+.3f}]"


# ---- the gate


def _gate(rdir: Path, best: Path, deals: Any, cfg: ExitConfig, log: Log) -> Gate:
    """The candidate (the network in ``rdir``) against the best on the gate's deals, paired;
    kept in ``rdir/gate.json`` so a resumed run does not play it again."""
    path = rdir / "gate.json"
    if path.exists():
        return Gate(**json.loads(path.read_text()))
    t0 = time.perf_counter()
    workers = cfg.gate_workers or os.cpu_count() or 1
    if cfg.gate_against:
        mine = _margins_against(rdir, deals, cfg, workers)
        m = margin_of("best", mine - _margins_against(best, deals, cfg, workers))
    else:
        m = paired_margin(
            deals, Entrant("candidate", f"nn:{rdir}"), Entrant("best", f"nn:{best}"),
            seed=cfg.gate_seed, workers=workers,
        )  # fmt: skip
    gate = Gate(m.mean, m.low, m.high, m.deals)
    path.write_text(json.dumps(dataclasses.asdict(gate)) + "\n")
    log(f"exit: gate on {gate.deals} deals in {time.perf_counter() - t0:.0f}s")
    return gate


GATE_VS = "gate_vs.json"


def _margins_against(
    net_dir: Path, deals: Any, cfg: ExitConfig, workers: int
) -> npt.NDArray[np.float64]:
    """The network in ``net_dir`` against ``gate_against`` on the gate's deals: its paired
    margin on each deal, kept in ``net_dir/gate_vs.json`` (a best's are played once, where it
    was the candidate; a file for another yardstick, seed or deal count is played again)."""
    path = net_dir / GATE_VS
    key = {"against": cfg.gate_against, "seed": cfg.gate_seed, "deals": len(deals.deals)}
    if path.exists():
        kept = json.loads(path.read_text())
        if {k: kept.get(k) for k in key} == key:
            return np.asarray(kept["margins"], dtype=np.float64)
    diffs = paired_diffs(
        deals, Entrant("network", f"nn:{net_dir}"), Entrant(cfg.gate_against, cfg.gate_against),
        seed=cfg.gate_seed, workers=workers,
    )  # fmt: skip
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(key | {"margins": [float(d) for d in diffs]}) + "\n")
    tmp.replace(path)
    return diffs


class _Clock:
    """The wall time spent on a round, over every session (``round-KK/wall.json``), written
    when the round's stage ends and every ``every`` seconds while it runs, so that a process
    killed outright loses at most that much of it."""

    def __init__(self, rdir: Path, every: float = 60.0) -> None:
        self.path = rdir / "wall.json"
        self.every = every
        self._t0 = 0.0
        self._before = 0.0
        self._stop = threading.Event()
        self._writer: threading.Thread | None = None

    def total(self) -> float:
        if self.path.exists():
            return float(json.loads(self.path.read_text())["seconds"])
        return 0.0

    def _write(self) -> None:
        spent = self._before + time.monotonic() - self._t0
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"seconds": spent}) + "\n")
        tmp.replace(self.path)

    def _tick(self) -> None:
        while not self._stop.wait(self.every):
            self._write()

    def __enter__(self) -> _Clock:
        self._before = self.total()
        self._t0 = time.monotonic()
        self._stop.clear()
        self._writer = threading.Thread(target=self._tick, daemon=True)
        self._writer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._writer is not None:
            self._writer.join()
        self._write()


# ---- the card


def start_of(cfg: ExitConfig) -> str:
    """Where a warm-started run began, as its card says it."""
    said = f"warm-started from `{cfg.init_from}`"
    if cfg.init_foreign_rules:
        said += " (a network trained for other rules: its compute is not counted here)"
    return said


def card(cfg: ExitConfig, records: list[RoundRecord], run_dir: Path) -> str:
    """The bot's CARD.md: its rules, how it was made (provenance and compute) and its figures."""
    best = records[-1].best
    flags = json.dumps(cfg.flags) if cfg.flags else "the default rules"
    lines = [
        f"# {cfg.game} bot: expert iteration, round {best}",
        "",
        f"- **Rules:** {flags}.",
        f'- **Made by:** `mazzo train` with the expert-iteration recipe (`algorithm = "exit"`), '
        f"seed {cfg.seed}, in `{run_dir}`; "
        + (start_of(cfg) if cfg.init_from else "from no weights")
        + ", with no imitation and no heuristic opponent in training.",
        f"- **Search:** `{cfg.label_searcher}` against {list(cfg.label_opponents)} on "
        f"{cfg.label_deals:,} fresh deals a round; the network `{list(cfg.hidden)}`.",
        "- **Gate:** "
        + (
            f"each round and the best against `{cfg.gate_against}`, the round promoted where "
            "its margin less the best's (paired per deal) is above zero at 95%"
            if cfg.gate_against
            else "each round against the best, head to head"
        )
        + f", on {cfg.gate_deals:,} held-out deals.",
        f"- **Compute:** {len(records)} rounds, {sum(r.decisions for r in records):,} PPO "
        f"decisions, {records[-1].total_wall_s / 60:.0f} minutes of wall time.",
        "",
        "| round | gate vs best (95%) | promoted | last evaluations | minutes |",
        "| --- | --- | --- | --- | --- |",
    ]
    for r in records:
        gate = "bootstrap" if r.gate is None else (
            f"{r.gate['mean']:+.3f} [{r.gate['low']:+.3f}, {r.gate['high']:+.3f}]"
        )  # fmt: skip
        if r.passes_gate is not None:
            g = r.passes_gate
            gate += f"; after the passes {g['mean']:+.3f} [{g['low']:+.3f}, {g['high']:+.3f}]"
        evals = "; ".join(f"{o} {m[0]:+.3f} [{m[1]:+.3f}, {m[2]:+.3f}]" for o, m in r.evals.items())
        promoted = "no" if not r.promoted else "yes" if not r.network else "after the passes"
        lines.append(f"| {r.round} | {gate} | {promoted} | {evals} | {r.wall_s / 60:.1f} |")
    lines += ["", "Figures in resti (or points) per seat and game, paired, duplicate seating."]
    return "\n".join(lines) + "\n"
