"""``mazzo eval``: agents against each other on fixed deals, duplicate style (the arena,
``mazzo.arena``): mean payoffs, win rates and paired differences with intervals, ratings, and
the contracts. Ctrl-C prints the report of the deals it finished (the same numbers as a run of
``--n k``), marked partial, and with ``--out`` writes its files marked partial (``"partial"`` in
``summary.json``).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from mazzo.arena.evaluate import EvalConfig, EvalInterrupted, evaluate
from mazzo.arena.journal import JOURNAL
from mazzo.arena.report import format_table, write_outputs
from mazzo.commands.agents import agents_text
from mazzo.commands.options import (
    EXIT_INTERRUPTED,
    add_flag_option,
    add_foreign_rules_option,
    add_ray_options,
    count,
    game_and_rules,
)
from mazzo.envs.registry import game_names
from mazzo.extras import require
from mazzo.recipes import DEALS, find_deals

__all__ = ["add", "cmd_eval"]


def add(sub: Any) -> None:
    p = sub.add_parser(
        "eval",
        help="benchmark agents against each other on fixed deals, duplicate style",
        description="Play every agent in every seat of every deal (seats rotated duplicate "
        "style) and report mean payoffs and win rates with confidence intervals, paired "
        "differences, Elo ratings and, in games with contracts, the contracts. Ctrl-C stops "
        "it and reports the deals finished so far (marked partial). See docs/arena.md.",
        epilog=agents_text(game_names()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "agents",
        nargs="+",
        metavar="AGENT",
        help="agent spec (random, heuristic@1, pimc:samples=64) or label=spec",
    )
    p.add_argument(
        "--game",
        choices=game_names(),
        help=f"default: the deal file's game, else {game_names()[0]}",
    )
    p.add_argument(
        "--deals",
        metavar="FILE",
        type=find_deals,
        help="deal set (JSON Lines of D.3 records), or a committed set by name "
        f"({', '.join(sorted(p.stem for p in DEALS.glob('*.jsonl')))}); default: generate "
        "from --seed",
    )
    p.add_argument(
        "--n",
        type=count(1),
        metavar="N",
        help="number of deals: the first N of the file (default all), "
        "or N generated (default 1000)",
    )
    p.add_argument(
        "--seed",
        type=count(0),
        default=0,
        help="seed of generated deals and of every agent's generator (default 0)",
    )
    add_flag_option(p, "a rule flag, e.g. --flag players=4 (repeatable; see mazzo rules)")
    p.add_argument(
        "--seating",
        default="pairs",
        choices=("pairs", "mixed"),
        help="rotation scheme (default pairs: every pair head to head)",
    )
    p.add_argument(
        "--workers",
        type=count(1),
        default=None,
        help=f"worker processes (default: all cores, {os.cpu_count()} here)",
    )
    add_ray_options(p, "the deals")
    p.add_argument(
        "--confidence",
        type=float,
        default=0.95,
        help="confidence level of the intervals, in (0, 1) (default 0.95)",
    )
    p.add_argument(
        "--bootstrap",
        type=count(0),
        default=0,
        metavar="B",
        help="also give percentile bootstrap intervals from B resamples",
    )
    p.add_argument("--anchor", metavar="LABEL", help="agent rated 0 Elo (default: mean 0)")
    add_foreign_rules_option(p)
    p.add_argument(
        "--out",
        metavar="DIR",
        help=f"write summary.json and CSV files here; while the run goes, every finished "
        f"deal is booked in DIR/{JOURNAL} (removed at the end)",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue the run journaled in --out (stopped by Ctrl-C, a crash or the end of a "
        "session) with the same arguments: its finished deals are not played again, and the "
        "results are those of an uninterrupted run",
    )
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar with the time left, on stderr (default: when stderr is a terminal)",
    )
    p.set_defaults(func=cmd_eval)


def cmd_eval(args: argparse.Namespace) -> int:
    require("eval", "eval")
    from mazzo.arena.progress import ProgressBar  # tqdm: the 'eval' extra

    game, rules = game_and_rules(args)
    config = EvalConfig(
        agents=tuple(args.agents),
        game=game,
        deals=args.deals,
        n=args.n,
        seed=args.seed,
        rules=rules,
        seating=args.seating,
        workers=args.workers,
        ray=args.ray_address,
        confidence=args.confidence,
        bootstrap=args.bootstrap,
        anchor=args.anchor,
        foreign_rules=args.foreign_rules,
    )
    config.check()
    show = sys.stderr.isatty() if args.progress is None else args.progress
    bar = ProgressBar(label="eval", unit="deals") if show else None
    if args.resume and not args.out:
        raise ValueError("--resume continues the run journaled in --out DIR: give --out")
    journal = Path(args.out) / JOURNAL if args.out else None
    try:
        run, summary = evaluate(config, bar, journal, args.resume)
    except EvalInterrupted as e:
        if bar is not None:
            bar.close()
        return _eval_interrupted(e, args.out)
    finally:
        if bar is not None:
            bar.close()
    for note in run.plan.notes:
        print(note)
    print(format_table(summary), end="")
    if args.out:
        paths = write_outputs(summary, run, args.out)
        print(f"wrote {', '.join(str(p) for p in paths)}")
    if journal is not None:
        journal.unlink(missing_ok=True)  # the results are written: nothing left to resume
    return 0


def _eval_interrupted(e: EvalInterrupted, out: str | None) -> int:
    """Report what an interrupted eval finished; exit status 130."""
    said = f"mazzo eval: interrupted after {e.done} of {e.planned} deals"
    if e.run is None or e.summary is None:
        print(f"{said}; no deal was finished, nothing to report", file=sys.stderr)
        return EXIT_INTERRUPTED
    print(
        f"PARTIAL RESULTS: interrupted after {e.done} of {e.planned} deals; this report covers "
        f"the first {e.done} (the same games as --n {e.done})\n"
    )
    print(format_table(e.summary), end="")
    where = ""
    if out:
        paths = write_outputs(e.summary, e.run, out)
        print(f"wrote {', '.join(str(p) for p in paths)} (marked partial)")
        where = f", written to {out} (marked partial)"
    print(f"{said}; partial results above{where}", file=sys.stderr)
    if out:
        print("mazzo eval: continue it with the same arguments and --resume", file=sys.stderr)
    return EXIT_INTERRUPTED
