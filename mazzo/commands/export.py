"""``mazzo export CHECKPOINT --out DIR [--game G] [--force]``: write a trained policy as a bundle
that runs without torch (``mazzo.training.export``); ``mazzo export --check DIR`` runs a bundle's
self-check (``mazzo.agents.bundle.check``, torch-free).

CHECKPOINT is a checkpoint folder, a run directory (its latest checkpoint) or ``bot``, the
shipped bot of ``--game``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mazzo.commands.options import description
from mazzo.envs.registry import game_names
from mazzo.extras import require

__all__ = ["add", "cmd_export"]


def cmd_export(args: argparse.Namespace) -> int:
    """Export (or, with ``--check``, check) a bundle; returns the exit status."""
    if args.check is not None:
        if args.checkpoint is not None or args.out is not None:
            raise ValueError("--check DIR takes no CHECKPOINT and no --out")
        require("export", "runtime")
        from mazzo.agents.bundle.check import run_check

        return run_check(args.check)
    if args.checkpoint is None or args.out is None:
        raise ValueError("give CHECKPOINT and --out DIR (or --check DIR)")
    if args.vectors < 1:
        raise ValueError(f"--vectors must be at least 1, got {args.vectors}")
    require("export", "export")
    from mazzo.training.export import export_bundle  # torch and onnx only for this command

    manifest = export_bundle(
        args.checkpoint, Path(args.out), game=args.game, force=args.force,
        vectors=args.vectors, seed=args.seed,
    )  # fmt: skip
    print(
        f"wrote the {manifest['game']} bundle of {manifest['source']['path']} to {args.out} "
        f"({', '.join(sorted(manifest['files']))} and manifest.json; "
        f"{args.vectors} test vectors pass)",
        file=sys.stderr,
    )
    return 0


def add(sub: Any) -> None:
    """Add the ``export`` subcommand to the CLI's subparsers."""
    p = sub.add_parser(
        "export",
        help="export a trained bot as an ONNX bundle that runs without torch",
        description=description(__doc__),
    )
    p.add_argument(
        "checkpoint", nargs="?", metavar="CHECKPOINT",
        help="a checkpoint folder, a run directory, or 'bot' (the shipped bot of --game)",
    )  # fmt: skip
    p.add_argument("--out", metavar="DIR", help="the bundle folder to write")
    p.add_argument(
        "--game", choices=game_names(),
        help=f"the game of 'bot' (default {game_names()[0]}), or the one a checkpoint must hold",
    )  # fmt: skip
    p.add_argument("--force", action="store_true", help="overwrite the bundle in a non-empty DIR")
    p.add_argument("--vectors", type=int, default=64, metavar="N", help="test vectors (64)")
    p.add_argument("--seed", type=int, default=0, help="seed of the test vectors' deals (0)")
    p.add_argument("--check", metavar="DIR", help="check the bundle in DIR instead (torch-free)")
    p.set_defaults(func=cmd_export)
