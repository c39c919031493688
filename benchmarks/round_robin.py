#!/usr/bin/env python3
"""The strength table: one round robin per game, every agent against every other on the same
duplicate deals (the arena's ``pairs`` seating), rendered as the README's Markdown.

    python benchmarks/round_robin.py run --game calabresella --out runs/eval/rr-cal
    python benchmarks/round_robin.py table runs/eval/rr-cal

``run`` plays ``mazzo eval`` with ``--agents`` (default: random, heuristic, pimc, ipimc, bot)
on the first ``--n`` deals of the committed set ``configs/deals/<game>-2000-s1.jsonl`` (default
all 2,000), agent seed 0, ``--workers`` processes, and writes the arena's files to ``--out``
(a run stopped midway continues with ``--resume``: the arena's journal);
``table`` reads such a folder (``summary.json`` and ``timing.json``) and prints, in Markdown:
each agent's Bradley-Terry rating (Elo scale, with its standard error), mean payoff and time per
decision (mean, median, 95th percentile), every pair's paired margin with its 95% interval and
the deals each side did better on, and the run's wall time. Nothing here computes a statistic:
the arena's files hold them.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mazzo.envs.registry import game_names, get_game  # noqa: E402  (the checkout's, first on the path)

AGENTS = ("random", "heuristic", "pimc", "ipimc", "bot")


def _ci(x: dict[str, Any]) -> str:
    """``+m [lo, hi]`` of an interval entry of ``summary.json``."""

    def signed(v: float | None) -> str:
        return "n/a" if v is None or not math.isfinite(v) else f"{v:+.3f}"

    return f"{signed(x['mean'])} [{signed(x['low'])}, {signed(x['high'])}]"


def _ms(us: float | None) -> str:
    return "-" if us is None else f"{us / 1000:.2f}"


def table(folder: Path) -> str:
    """The Markdown of the round robin in ``folder``. Raises ValueError naming a missing or
    unreadable file."""
    try:
        summary = json.loads((folder / "summary.json").read_text())
        timing = json.loads((folder / "timing.json").read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"{folder}: not an arena output folder (mazzo eval --out): {e}") from e
    game = summary["game"]
    unit = get_game(game).info.score_unit
    times = {a["label"]: a for a in timing["agents"]}
    deals, seating = summary["deals"], summary["seating"]
    k = len(summary["agents"])
    per_pair = len(seating["lineups"]) // max(k * (k - 1) // 2, 1)
    lines = [
        f"{game}: the first {deals['n']:,} deals of `{deals['source']}`, {summary['games']:,} "
        f"games ({seating['scheme']} seating: {per_pair} lineups per deal and "
        f"pair, agent seed {summary['seed']}); payoffs in {unit} per seat and game, 95% "
        "intervals over deals",
        "",
        "| agent | rating (Elo, +-SE) | mean payoff | time per decision, ms: mean / median / p95 |",
        "|---|---|---|---|",
    ]
    by_rating = sorted(summary["agents"], key=lambda a: -a["elo"])
    for a in by_rating:
        t = times.get(a["label"], {})
        lines.append(
            f"| {a['label']} | {a['elo']:+.0f} +-{a['elo_se']:.0f} | {_ci(a['mean_payoff'])} | "
            f"{_ms(t.get('us_per_decision'))} / {_ms(t.get('us_median'))} / "
            f"{_ms(t.get('us_p95'))} |"
        )
    rank = {a["label"]: i for i, a in enumerate(by_rating)}
    lines += [
        "",
        "| A | B | paired A - B | deals A better / equal / B better |",
        "|---|---|---|---|",
    ]
    for p in sorted(summary["pairs"], key=lambda p: (rank[p["a"]], rank[p["b"]])):
        a, b, diff = p["a"], p["b"], dict(p["diff"])
        better, worse = p["deals_a_better"], p["deals_b_better"]
        if rank[a] > rank[b]:  # the higher-rated agent first
            a, b, better, worse = b, a, worse, better
            diff = {k: -diff[k] if k in ("mean", "low", "high") else diff[k] for k in diff}
            diff["low"], diff["high"] = diff["high"], diff["low"]
        lines.append(f"| {a} | {b} | {_ci(diff)} | {better} / {p['deals_equal']} / {worse} |")
    minutes = timing["seconds"] / 60
    lines += ["", f"Wall time {minutes:.1f} min with {timing['workers']} worker(s)."]
    return "\n".join(lines) + "\n"


def run(
    game: str, agents: list[str], n: int | None, workers: int, out: Path, resume: bool = False
) -> int:
    """``mazzo eval`` of the round robin (with ``resume``, continuing its journal in ``out``);
    its exit status."""
    deals = ROOT / "configs" / "deals" / f"{game}-2000-s1.jsonl"
    command = [sys.executable, "-m", "mazzo", "eval", *agents, "--game", game, "--deals",
               str(deals), "--workers", str(workers), "--out", str(out)]  # fmt: skip
    if n is not None:
        command += ["--n", str(n)]
    if resume:
        command.append("--resume")
    return subprocess.run(command, cwd=ROOT, check=False).returncode


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="play the round robin with mazzo eval")
    r.add_argument("--game", required=True, choices=game_names())
    r.add_argument("--agents", nargs="+", default=list(AGENTS), help="agent specs")
    r.add_argument("--n", type=int, default=None, help="the first N committed deals (all)")
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--out", type=Path, required=True, help="the arena's output folder")
    r.add_argument(
        "--resume", action="store_true", help="continue the run journaled in --out (mazzo eval)"
    )
    t = sub.add_parser("table", help="print a round robin's Markdown")
    t.add_argument("folder", type=Path, help="a mazzo eval --out folder")
    args = p.parse_args(argv)
    if args.command == "run":
        if len(args.agents) < 2 or (args.n is not None and args.n < 1) or args.workers < 1:
            p.error("give at least 2 agents, --n >= 1 and --workers >= 1")
        status = run(args.game, args.agents, args.n, args.workers, args.out, args.resume)
        if status:
            return status
        print(table(args.out))
        return 0
    try:
        print(table(args.folder), end="")
    except ValueError as e:
        p.error(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
