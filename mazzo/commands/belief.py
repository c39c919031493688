"""``mazzo belief --game GAME --out DIR``: train a belief model for the learned-inference
search (``ipimc``): deals played by ``--agents``, every card-play decision's observation with
the true holder of every card, an MLP fitted to predict them (``mazzo.training.belief``), its
held-out log-loss per hidden card printed beside the exact uniform sampler's, and the model written
in ``mazzo-belief/1`` (``mazzo.agents.belief``). Bad input ends with a message naming it and exit
status 2.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from mazzo.agents.registry import make_agent
from mazzo.commands.options import count
from mazzo.envs.registry import game_names, get_game
from mazzo.extras import require

__all__ = ["add", "cmd_belief"]


def _sizes(text: str) -> tuple[int, ...]:
    """``512,512`` -> (512, 512); an argparse ``type``."""
    try:
        sizes = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a comma-separated list of layer sizes (like 512,512)"
        ) from None
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: layer sizes must be >= 1")
    return sizes


def _share(text: str) -> float:
    """A dropout probability in [0, 1); an argparse ``type``."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: a dropout must be >= 0 and < 1")
    return value


def cmd_belief(args: argparse.Namespace) -> int:
    """Collect, fit, write; returns the exit status."""
    require("belief", "train")
    from mazzo.training.belief import BeliefConfig, train_belief  # torch: the 'train' extra

    game = get_game(args.game)
    rules = game.parse_flags(args.flag)
    for spec in args.agents:
        make_agent(spec, game)  # a bad spec fails here, before any deal is played
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {args.out!r} is a file; give a folder")
    config = BeliefConfig(
        game=game.name, flags=rules.to_flags(), agents=tuple(args.agents), deals=args.n,
        seed=args.seed, workers=args.workers or os.cpu_count() or 1, hidden=args.hidden,
        epochs=args.epochs, dropout=args.dropout,
    )  # fmt: skip
    if args.data is not None and not args.data.endswith(".npz"):
        raise ValueError(f"--data {args.data!r}: give a file name ending in .npz")
    report = train_belief(config, out, log=print, data=args.data)
    print(json.dumps(report, indent=1))
    print(f"wrote {out} (use it with: mazzo eval ipimc:belief={out} ...)")
    return 0


def add(sub: Any) -> None:
    """Add the ``belief`` subcommand to the CLI's subparsers."""
    p = sub.add_parser(
        "belief",
        help="train a belief model (where the hidden cards lie) for the ipimc search",
        description="Play --n deals with the --agents (in turn by deal, every seat the same "
        "agent), keep every card-play decision's observation and the true place of every card, "
        "fit an MLP to predict each hidden card's holder, print its held-out log-loss per "
        "hidden card beside the exact uniform sampler's, and write it to --out "
        "(mazzo-belief/1; docs/agents.md, 'Learned inference').",
    )
    p.add_argument("--game", required=True, choices=game_names())
    p.add_argument("--out", required=True, metavar="DIR", help="the model's folder")
    p.add_argument(
        "--agents", nargs="+", default=["pimc:samples=32,ms=0"], metavar="AGENT",
        help="who plays the training deals (default pimc:samples=32,ms=0)",
    )  # fmt: skip
    p.add_argument("--n", type=count(2), default=2000, help="deals played (default 2000)")
    p.add_argument("--seed", type=count(0), default=20261202, help="seed (default 20261202)")
    p.add_argument(
        "--flag", action="append", default=[], metavar="KEY=VALUE",
        help="a rule flag (repeatable; see mazzo rules)",
    )  # fmt: skip
    p.add_argument(
        "--hidden", type=_sizes, default=(512, 512), metavar="SIZES",
        help="hidden layer sizes (default 512,512)",
    )  # fmt: skip
    p.add_argument("--epochs", type=count(1), default=8, help="training epochs (default 8)")
    p.add_argument(
        "--dropout", type=_share, default=0.0, metavar="P",
        help="dropout while fitting, 0 <= P < 1 (default 0)",
    )  # fmt: skip
    p.add_argument(
        "--data", metavar="FILE.npz",
        help="keep the collected decisions in this file, or fit again on them if it exists",
    )  # fmt: skip
    p.add_argument(
        "--workers", type=count(1), default=None,
        help=f"processes playing the deals (default: all cores, {os.cpu_count()} here)",
    )  # fmt: skip
    p.set_defaults(func=cmd_belief)
