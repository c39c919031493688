"""``mazzo train CONFIG [--set key=value ...] [--run-dir DIR] [--resume RUN_DIR]``: run a
trainer from a config file under ``configs/``.

The file's ``algorithm`` key picks the trainer (``ppo`` or ``dmc``); every other key is a field
of that trainer's config dataclass. ``--resume`` continues a run exactly from its latest
checkpoint. On a terminal the run shows one progress line redrawn in place (``--progress``);
otherwise it logs a line per update.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from envs.cards.flags import parse_assignments
from envs.registry import game_names
from training.rl.config import load_config, read_toml

__all__ = ["add_train_command", "cmd_train"]

ALGORITHMS = ("ppo", "dmc")


def cmd_train(args: argparse.Namespace) -> int:
    """Run the trainer the config names; returns the exit status."""
    from training.rl import dmc, ppo  # torch is imported only by this command
    from training.rl.progress import TrainProgress

    trainers: dict[str, Any] = {
        "ppo": (ppo.PPOConfig, ppo.train),
        "dmc": (dmc.DMCConfig, dmc.train),
    }

    overrides = parse_assignments(args.set, "--set")
    path = Path(args.config)
    algo = overrides.pop("algorithm", None) or read_toml(path).get("algorithm")
    if algo not in ALGORITHMS:
        raise ValueError(f"{path}: algorithm must be one of {', '.join(ALGORITHMS)}, got {algo!r}")
    config_type, train = trainers[algo]
    cfg = load_config(config_type, path, overrides, ignore=("algorithm",))
    if args.resume:
        run_dir = Path(args.resume)
    elif args.run_dir:
        run_dir = Path(args.run_dir)
    else:
        run_dir = Path("runs") / f"{cfg.game}_{algo}_s{cfg.seed}_{time.strftime('%Y%m%d-%H%M%S')}"
    print(f"mazzo train: {algo} on {cfg.game}, run directory {run_dir}", file=sys.stderr)
    show = sys.stdout.isatty() if args.progress is None else args.progress
    progress = TrainProgress(sys.stdout) if show else None
    train(cfg, run_dir, resume=bool(args.resume), progress=progress)
    return 0


def add_train_command(sub: Any) -> None:
    """Add the ``train`` subcommand to the CLI's subparsers."""
    p = sub.add_parser(
        "train",
        help="train a bot by self-play from a config file (configs/*.toml)",
        description=__doc__.split("\n\n")[0],
    )
    p.add_argument(
        "config", help=f"a trainer config file, e.g. configs/{game_names()[0]}_quick.toml"
    )
    p.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE",
        help="override a config key (JSON values: --set lr=1e-4 --set hidden=[128,128])",
    )  # fmt: skip
    p.add_argument(
        "--run-dir", help="where the run goes (default runs/<game>_<algo>_s<seed>_<time>)"
    )
    p.add_argument(
        "--resume", metavar="RUN_DIR", help="continue this run from its latest checkpoint"
    )
    p.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None,
        help="one progress line redrawn in place instead of a log line per update "
        "(default: when stdout is a terminal)",
    )  # fmt: skip
    p.set_defaults(func=cmd_train)
