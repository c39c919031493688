#!/usr/bin/env python3
"""Learning curves over wall time: a training run's own evaluations (``metrics.csv``: the margin
against each evaluation opponent on its fixed deals, with the 95% interval), placed at the
run's training time from its TensorBoard events, one panel per opponent, several runs per
panel.

    python benchmarks/plot_curves.py runs/i22/min-vs-pimc=fine-tune runs/cal=scratch \
        --out docs/curves.png --title "Minchiate"

Each ``RUN[=LABEL]`` is a ``mazzo train`` run directory. An expert-iteration run (its
``rounds.jsonl``) gives one point per round: the round's last evaluation at the run's wall time
when the round ended (every stage counted: labels, passes, PPO, gate). Otherwise the time of an
evaluation is the wall
time of its ``eval/`` event since the run's first event, less every pause between two
consecutive events longer than ``--gap`` minutes (a run stopped and resumed in a later session
counts only its training). The figure goes to ``--out`` (PNG); the points are also printed as
a Markdown table (minutes, decisions, margin and interval per opponent), so the README can
quote them. An opponent is shown under its spec as the run evaluated it (``pimc:samples=32``).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Point", "read_curve", "read_rounds", "training_minutes"]


@dataclass(frozen=True)
class Point:
    """One evaluation of a run: when, after how many decisions, against whom, and the margin."""

    minutes: float
    decisions: int
    opponent: str
    margin: float
    low: float
    high: float


def training_minutes(times: list[tuple[int, float]], gap_minutes: float) -> dict[int, float]:
    """Step -> training minutes, from ``(step, wall time)`` of every event in time order: the
    time since the first event, less each pause between consecutive events over the gap."""
    out: dict[int, float] = {}
    elapsed, prev = 0.0, None
    for step, wall in sorted(times, key=lambda t: t[1]):
        if prev is not None and wall - prev <= 60 * gap_minutes:
            elapsed += wall - prev
        prev = wall
        out[step] = elapsed / 60
    return out


def read_rounds(run: Path) -> list[Point]:
    """The rounds of an expert-iteration run: each round's last evaluation against each
    opponent, at the run's wall time and decisions when the round ended."""
    points, decisions = [], 0
    for line in (run / "rounds.jsonl").read_text().splitlines():
        record = json.loads(line)
        decisions += int(record["decisions"])
        minutes = float(record["total_wall_s"]) / 60
        for opponent, (margin, low, high) in record["evals"].items():
            points.append(Point(minutes, decisions, opponent, margin, low, high))
    return points


def read_curve(run: Path, gap_minutes: float = 10.0) -> list[Point]:
    """The evaluations of ``run`` with their training minutes (an expert-iteration run's:
    ``read_rounds``). Raises ValueError naming the run when it has no ``metrics.csv`` or no
    TensorBoard events."""
    if (run / "rounds.jsonl").is_file():
        return read_rounds(run)
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    metrics = run / "metrics.csv"
    if not metrics.is_file():
        raise ValueError(f"{run}: no metrics.csv (not a mazzo train run directory?)")
    if not list(run.glob("events.out.tfevents.*")):
        raise ValueError(f"{run}: no TensorBoard events")
    ea = EventAccumulator(str(run), size_guidance={"scalars": 0})
    ea.Reload()
    times = [(e.step, e.wall_time) for t in ea.Tags()["scalars"] for e in ea.Scalars(t)]
    minutes = training_minutes(times, gap_minutes)
    points = []
    with metrics.open() as f:
        for row in csv.DictReader(f):
            step = int(row["decisions"])
            margin, low, high = (float(row[k]) for k in ("margin", "low", "high"))
            when = minutes.get(step, float("nan"))
            points.append(Point(when, step, row["opponent"], margin, low, high))
    return points


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", metavar="RUN[=LABEL]", help="mazzo train run directories")
    ap.add_argument("--out", type=Path, required=True, help="the PNG to write")
    ap.add_argument("--title", default="", help="the figure's title")
    ap.add_argument("--gap", type=float, default=10.0, help="pauses longer than this (minutes) "
                    "between two events are not training time (default 10)")  # fmt: skip
    args = ap.parse_args(argv)
    if not args.gap > 0:
        ap.error(f"--gap must be > 0 minutes, got {args.gap}")
    curves: dict[str, list[Point]] = {}
    for item in args.runs:
        path, _, label = item.partition("=")
        try:
            curves[label or Path(path).name] = read_curve(Path(path), args.gap)
        except ValueError as e:
            print(f"plot_curves: {e}", file=sys.stderr)
            return 2
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    opponents = sorted({p.opponent for pts in curves.values() for p in pts})
    fig, axes = plt.subplots(1, len(opponents), figsize=(5.5 * len(opponents), 4), squeeze=False)
    for ax, opponent in zip(axes[0], opponents, strict=True):
        for label, pts in curves.items():
            mine = [p for p in pts if p.opponent == opponent]
            if not mine:
                continue
            x = [p.minutes for p in mine]
            ax.plot(x, [p.margin for p in mine], marker="o", ms=3, label=label)
            ax.fill_between(x, [p.low for p in mine], [p.high for p in mine], alpha=0.2)
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_title(f"against {opponent}")
        ax.set_xlabel("training wall time (minutes)")
        ax.set_ylabel("paired margin per seat and game")
        ax.legend(fontsize=8)
    if args.title:
        fig.suptitle(args.title)
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=110)
    print("| run | minutes | decisions | against | margin [95% CI] |\n|---|---|---|---|---|")
    for label, pts in curves.items():
        for p in pts:
            print(
                f"| {label} | {p.minutes:.1f} | {p.decisions:,} | {p.opponent} | "
                f"{p.margin:+.3f} [{p.low:+.3f}, {p.high:+.3f}] |"
            )
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
