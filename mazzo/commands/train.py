"""``mazzo train CONFIG [--flag key=value ...] [--set key=value ...] [--run-dir DIR]
[--resume RUN_DIR]``: run a trainer from a config file under ``configs/``.

The file's ``algorithm`` key picks the trainer (``ppo``, ``dmc``, ``exit``: the
expert-iteration recipe, ``mazzo.training.rl.expert_iteration``, or ``repair``: the gift
repair of a trained network, ``mazzo.training.rl.repair``); every other key is a field of
that trainer's config dataclass. ``--flag`` sets the game's rule flags (``--flag players=4``),
read by the game's one flag parser as everywhere else, on top of the config's ``flags``.
``--resume`` continues a run exactly from its latest checkpoint. ``--ray`` / ``--ray-address
ADDR`` run the ``n_actors`` self-play actors on Ray (``mazzo.training.rl.ray_actors``: the same
weights as local actor processes). On a terminal the run shows one progress line redrawn in
place (``--progress``); otherwise it logs a line per update.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from mazzo.agents.distributed import check_address, import_ray
from mazzo.commands.options import add_flag_option, add_ray_options, description
from mazzo.envs.cards.flags import parse_assignments
from mazzo.envs.registry import game_names
from mazzo.extras import require
from mazzo.recipes import find_config
from mazzo.training.rl.config import (
    config_dict,
    load_config,
    read_toml,
    resumed_config,
    stored_run,
)

__all__ = ["add", "cmd_train"]

ALGORITHMS = ("ppo", "dmc", "exit", "repair")


def cmd_train(args: argparse.Namespace) -> int:
    """Run the trainer the config names; returns the exit status."""
    require("train", "train")
    if args.ray_address is not None:
        check_address(args.ray_address)
        import_ray()  # without the extra: say how to install it before any work
    overrides = parse_assignments(args.set, "--set")
    path = find_config(args.config)
    file = read_toml(path)
    if args.flag:
        overrides["flags"] = _rule_flags(args.flag, file, overrides)
    stored = stored_run(args.resume) if args.resume else None  # at once: before torch loads
    algo = stored.get("algorithm") if stored else overrides.pop("algorithm", None)
    algo = algo or file.get("algorithm")
    if algo not in ALGORITHMS:
        raise ValueError(f"{path}: algorithm must be one of {', '.join(ALGORITHMS)}, got {algo!r}")

    from mazzo.training.rl import (
        dmc,
        expert_iteration,
        ppo,
        repair,
    )  # torch is imported only by this command
    from mazzo.training.rl.progress import TrainProgress

    trainers: dict[str, Any] = {
        "ppo": (ppo.PPOConfig, ppo.train),
        "dmc": (dmc.DMCConfig, dmc.train),
        "exit": (expert_iteration.ExitConfig, expert_iteration.train),
        "repair": (repair.RepairConfig, repair.train),
    }
    config_type, train = trainers[algo]
    if stored is None:
        cfg = load_config(config_type, path, overrides, ignore=("algorithm",))
    else:
        cfg = _resumed(config_type, stored, overrides, file, path, Path(args.resume))
    if args.resume:
        run_dir = Path(args.resume)
    elif args.run_dir:
        run_dir = Path(args.run_dir)
    else:
        run_dir = Path("runs") / f"{cfg.game}_{algo}_s{cfg.seed}_{time.strftime('%Y%m%d-%H%M%S')}"
    print(f"mazzo train: {algo} on {cfg.game}, run directory {run_dir}", file=sys.stderr)
    if algo == "exit":  # rounds of runs: a line per update, round by round
        train(cfg, run_dir, resume=bool(args.resume), ray=args.ray_address)
        return 0
    show = sys.stdout.isatty() if args.progress is None else args.progress
    progress = TrainProgress(sys.stdout) if show else None
    train(cfg, run_dir, resume=bool(args.resume), progress=progress, ray=args.ray_address)
    return 0


def _rule_flags(items: list[str], file: dict[str, Any], overrides: dict[str, Any]) -> Any:
    """The run's rule flags: the config's (``flags``, or ``--set flags=...``) with ``--flag``
    on top, checked by the game's own parser (a bad flag is refused here, naming it)."""
    from mazzo.envs.registry import get_game

    game_name = overrides.get("game", file.get("game"))
    if not isinstance(game_name, str):
        raise ValueError("--flag: the config names no game")
    game = get_game(game_name)
    flags = dict(overrides.get("flags", file.get("flags", {})))
    flags |= parse_assignments(items, "--flag")
    return game.parse_flags([f"{k}={json.dumps(v)}" for k, v in flags.items()]).to_flags()


def _resumed(
    config_type: type[Any], stored: dict[str, Any], overrides: dict[str, Any],
    file: dict[str, Any], path: Path, run_dir: Path,
) -> Any:  # fmt: skip
    """The resumed run's own config with the ``--set`` changes (said as ``key: old -> new``
    and recorded in the run's ``resumes.jsonl``); a config file that says otherwise is noted."""
    overrides.pop("algorithm", None)
    cfg, changes = resumed_config(
        config_type, stored["config"], overrides, ("algorithm",), int(stored.get("decisions", 0))
    )
    own = config_dict(cfg)
    differing = [
        f"{k} {file[k]!r} (file) vs {own[k]!r} (run)"
        for k in sorted(file)
        if k in own and k not in changes and _plain(file[k]) != own[k]
    ]
    if differing:
        print(
            f"note: {path} differs from the run's own config ({', '.join(differing)}); the run "
            "keeps its own (change one with --set)",
            file=sys.stderr,
        )
    for key, (old, new) in changes.items():
        print(f"{key}: {old!r} -> {new!r}", file=sys.stderr)
    if changes:
        record = {
            "update": stored.get("update"),
            "changes": {k: list(v) for k, v in changes.items()},
        }
        with (run_dir / "resumes.jsonl").open("a") as f:
            f.write(json.dumps(record) + "\n")
    return cfg


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def add(sub: Any) -> None:
    """Add the ``train`` subcommand to the CLI's subparsers."""
    p = sub.add_parser(
        "train",
        help="train a bot by self-play from a config file (configs/*.toml)",
        description=description(__doc__),
    )
    p.add_argument(
        "config",
        help=f"a trainer config file, or the name of one of mazzo's recipes (configs/), e.g. "
        f"{game_names()[0]}_quick",
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
    add_flag_option(
        p,
        "a rule flag of the game, e.g. --flag players=4 (repeatable; see mazzo rules): "
        "train for those rules",
    )
    add_ray_options(p, "the self-play actors (n_actors of them; the learner stays here)")
    p.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None,
        help="one progress line redrawn in place instead of a log line per update "
        "(default: when stdout is a terminal)",
    )  # fmt: skip
    p.set_defaults(func=cmd_train)
