"""``mazzo labels SEARCHER [OPPONENT ...] --out FILE``: write a search agent's decisions on a
deal set as search labels for distillation (``mazzo.training.search_labels``; the format
``mazzo-search-labels/1`` is described in docs/training.md).

The deals are those of ``mazzo eval`` (``--deals FILE`` or generated from ``--seed``, ``--n``,
``--flag``), played duplicate style over ``--workers`` processes (or on Ray: ``--ray``,
``--ray-address``, the same file); an existing ``--out`` file of
the same run is continued where it stopped. Bad input ends with a message naming it and exit
status 2; Ctrl-C with exit status 130, keeping every deal written.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from mazzo.arena.evaluate import EvalConfig, load_deals
from mazzo.arena.seating import SCHEMES
from mazzo.commands.agents import agents_text
from mazzo.commands.options import (
    EXIT_INTERRUPTED,
    add_ray_options,
    count,
    game_and_rules,
)
from mazzo.envs.registry import game_names
from mazzo.extras import require
from mazzo.recipes import find_deals
from mazzo.training.search_labels import FORMAT, LabelRun, LabelsInterrupted, write_search_labels

__all__ = ["add", "cmd_labels"]


def cmd_labels(args: argparse.Namespace) -> int:
    """Write (or continue) the labels file; returns the exit status."""
    require("labels", "eval")
    from mazzo.arena.progress import ProgressBar  # tqdm: the 'eval' extra

    if os.path.isdir(args.out):
        raise ValueError(f"--out {args.out!r} is a directory; give a file (JSON Lines)")
    game, rules = game_and_rules(args)
    config = EvalConfig(
        agents=tuple(args.agents), game=game, deals=args.deals, n=args.n, seed=args.seed,
        rules=rules,
    )  # fmt: skip
    deal_set = load_deals(config)
    show = sys.stderr.isatty() if args.progress is None else args.progress
    bar = ProgressBar(label="labels", unit="deals") if show else None
    try:
        run = write_search_labels(
            deal_set, args.agents, args.out, args.seed, args.seating, args.workers, bar,
            args.ray_address,
        )  # fmt: skip
    except LabelsInterrupted as e:
        if bar is not None:
            bar.close()
        print(
            f"mazzo labels: interrupted; {_said(e.run)}; run the same command to continue",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    if bar is not None:
        bar.close()
    print(_said(run))
    return 0


def _said(run: LabelRun) -> str:
    began = f" (continued from deal {run.resumed_at})" if run.resumed_at else ""
    return (
        f"{run.path} holds {run.deals} of {run.planned} deals{began}; "
        f"{run.decisions} decisions written now"
    )


def add(sub: Any) -> None:
    """Add the ``labels`` subcommand to the CLI's subparsers."""
    p = sub.add_parser(
        "labels",
        help="write a search agent's decisions on a deal set (search labels for distillation)",
        description=f"Play the deals duplicate style with SEARCHER (an agent with search "
        f"values: pimc) against the OPPONENTs (none: SEARCHER in every seat) and write every "
        f"decision of SEARCHER's seats: the action, the value of each searched candidate, the "
        f"position as a D.3 record and the seat ({FORMAT}, JSON Lines; docs/training.md). An "
        f"existing --out file of the same run is continued; Ctrl-C keeps what was written.",
        epilog=agents_text(game_names()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("agents", nargs="+", metavar="AGENT", help="SEARCHER, then the opponents")
    p.add_argument("--out", required=True, metavar="FILE", help="the labels file (JSON Lines)")
    p.add_argument(
        "--game", choices=game_names(), help=f"default: the deal file's, else {game_names()[0]}"
    )
    p.add_argument(
        "--deals", metavar="FILE", type=find_deals,
        help="deal set, or a committed set by name (default: generated from --seed)",
    )  # fmt: skip
    p.add_argument(
        "--n", type=count(1), metavar="N",
        help="number of deals: the first N of the file (default all), or N generated "
        "(default 1000)",
    )  # fmt: skip
    p.add_argument(
        "--seed", type=count(0), default=0,
        help="seed of generated deals and of every agent's generator (default 0)",
    )  # fmt: skip
    p.add_argument(
        "--flag", action="append", default=[], metavar="KEY=VALUE",
        help="a rule flag (repeatable; see mazzo rules)",
    )  # fmt: skip
    p.add_argument(
        "--seating", default="pairs", choices=SCHEMES,
        help="rotation scheme with opponents (default pairs)",
    )  # fmt: skip
    p.add_argument(
        "--workers", type=count(1), default=None,
        help=f"worker processes (default: all cores, {os.cpu_count()} here)",
    )  # fmt: skip
    add_ray_options(p, "the deals")
    p.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )  # fmt: skip
    p.set_defaults(func=cmd_labels)
