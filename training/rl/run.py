"""A training run's directory and bookkeeping, shared by the trainers: the config written at
the start, counters, evaluations (TensorBoard ``eval/`` scalars and ``metrics.csv``), the
checkpoints (``training.rl.checkpoint``) with every state an exact resume needs, the
compatibility check of a resumed checkpoint (game, rules, encoding version, config), and the
signal handler that turns Ctrl-C / SIGTERM into a clean stop with a checkpoint.
"""

from __future__ import annotations

import contextlib
import csv
import json
import signal
import types
from pathlib import Path
from typing import Any

import torch
from torch.utils.tensorboard import SummaryWriter

from agents.nets import PolicyValueNet
from envs.deal_sets import DealSet
from envs.protocols import AnyEncoder
from training.rl.actors import Actors
from training.rl.checkpoint import load_checkpoint, save_checkpoint
from training.rl.config import config_dict
from training.rl.evaluate import Margin, evaluate_policy
from training.rl.opponents import OpponentPool

__all__ = ["RunState"]

METRICS = ("update", "decisions", "opponent", "margin", "low", "high", "deals")


class RunState:
    """Counters and files of one run (``cfg`` is the trainer's config dataclass)."""

    def __init__(
        self, game: str, rules: Any, encoding_version: int, cfg: Any, algorithm: str
    ) -> None:
        self.game, self.rules, self.encoding_version, self.cfg = game, rules, encoding_version, cfg
        self.algorithm = algorithm
        self.update = 0
        self.decisions = 0
        self.run_dir = Path(".")

    def identity(self) -> dict[str, Any]:
        return {
            "algorithm": self.algorithm,
            "game": self.game,
            "flags": self.rules.to_flags(),
            "encoding_version": self.encoding_version,
        }

    def start(self, run_dir: Path) -> None:
        """Create the run directory (refusing one that holds a run: resume it instead)."""
        self.run_dir = run_dir
        if (run_dir / "latest").exists():
            raise ValueError(f"{run_dir} already holds a run; resume it or choose another dir")
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "config.json").write_text(json.dumps(config_dict(self.cfg), indent=1))
        with (run_dir / "metrics.csv").open("w", newline="") as f:
            csv.writer(f).writerow(METRICS)

    def evaluate(
        self, writer: SummaryWriter, net: PolicyValueNet, encoder: AnyEncoder, deals: DealSet,
        cfg: Any, log: Any,
    ) -> list[Margin]:  # fmt: skip
        """Margins against each evaluation opponent: TensorBoard, metrics.csv and the log;
        returned too."""
        margins = []
        for opponent in cfg.eval_opponents:
            m = evaluate_policy(net, encoder, deals, opponent, seed=cfg.eval_seed)
            tag = opponent.replace(":", "_")
            writer.add_scalar(f"eval/margin_vs_{tag}", m.mean, self.decisions)
            writer.add_scalar(f"eval/margin_vs_{tag}_low", m.low, self.decisions)
            writer.add_scalar(f"eval/margin_vs_{tag}_high", m.high, self.decisions)
            row = (self.update, self.decisions, opponent, m.mean, m.low, m.high, m.deals)
            with (self.run_dir / "metrics.csv").open("a", newline="") as f:
                csv.writer(f).writerow(row)
            log(f"  eval vs {opponent}: {m.mean:+.3f} [{m.low:+.3f}, {m.high:+.3f}] per deal")
            margins.append(m)
        return margins

    def save(
        self, run_dir: Path, net: PolicyValueNet, opt: torch.optim.Optimizer,
        gen: torch.Generator, pool: OpponentPool, actors: Actors,
    ) -> Path:  # fmt: skip
        """Write a checkpoint of everything the run needs to continue exactly."""
        trainer = {
            "optimizer": opt.state_dict(),
            "torch_rng": torch.get_rng_state(),
            "generator": gen.get_state(),
            "pool": pool.state()["weights"],
        }
        meta = self.identity() | {
            "config": config_dict(self.cfg),
            "update": self.update,
            "decisions": self.decisions,
            "network": {"obs_size": net.obs_size, "num_actions": net.num_actions,
                        "hidden": list(self.cfg.hidden), "critic_extra": net.critic_extra},
            "pool": pool.state()["snapshots"],
            "actors": actors.state(),
        }  # fmt: skip
        return save_checkpoint(run_dir, f"ckpt-{self.update:07d}", net.state_dict(), trainer, meta)

    def restore(
        self, run_dir: Path, net: PolicyValueNet, opt: torch.optim.Optimizer,
        gen: torch.Generator, pool: OpponentPool, actors: Actors,
    ) -> None:  # fmt: skip
        """Load the run's latest checkpoint into the given objects (after checking it fits)."""
        self.run_dir = run_dir
        model, trainer, meta = load_checkpoint(run_dir)
        self.check(meta)
        net.load_state_dict(model)
        opt.load_state_dict(trainer["optimizer"])
        torch.set_rng_state(trainer["torch_rng"])
        gen.set_state(trainer["generator"])
        pool.restore({"snapshots": meta["pool"], "weights": trainer["pool"]})
        actors.restore(meta["actors"])
        self.update, self.decisions = int(meta["update"]), int(meta["decisions"])

    def check(self, meta: dict[str, Any]) -> None:
        """Raise ValueError naming what differs between a checkpoint and this run."""
        mine = self.identity() | {"config": _fixed(config_dict(self.cfg))}
        theirs = meta | {"config": _fixed(meta.get("config", {}))}
        for key in ("algorithm", "game", "flags", "encoding_version", "config"):
            if theirs.get(key) != mine[key]:
                raise ValueError(
                    f"the checkpoint's {key} is {_short(theirs.get(key), mine[key])}; "
                    f"this run's is {_short(mine[key], theirs.get(key))}"
                )


# Config keys a resumed run may change: they do not enter the training computation.
RESUMABLE_CHANGES = frozenset({"total_decisions", "checkpoint_minutes", "eval_every"})


def _fixed(config: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in config.items() if k not in RESUMABLE_CHANGES}


def _short(value: Any, other: Any) -> str:
    """``value``, or for two dicts only the entries where they differ."""
    if isinstance(value, dict) and isinstance(other, dict):
        keys = sorted(k for k in set(value) | set(other) if value.get(k) != other.get(k))
        return json.dumps({k: value.get(k, "(default)") for k in keys})
    return json.dumps(value)


class _StopSignal:
    """Within the ``with`` block, SIGINT and SIGTERM set ``requested`` instead of killing the
    process, so the trainer finishes its update and writes a checkpoint."""

    def __init__(self) -> None:
        self.requested = False
        self._old: dict[int, Any] = {}

    def _handle(self, signum: int, frame: types.FrameType | None) -> None:
        self.requested = True

    def __enter__(self) -> _StopSignal:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(ValueError):  # not the main thread: stop only at the end
                self._old[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)
