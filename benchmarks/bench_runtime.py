#!/usr/bin/env python3
"""Inference latency of exported bots on the torch-free runtime (a benchmark, not a test).

For each shipped bot's bundle (exported into a temporary folder unless ``--bundle DIR`` names
bundles, or ``checkpoints/<game>/bundle/`` holds one): the time of one decision, encoding
included (``BundleAgent.act`` on a view) and the ONNX run alone (``Bundle.run`` on one row), then
batches of 1, 16, 64 and 256 rows (``Bundle.run``); median and 95th percentile per call, and per
decision for the batches. The views come from random deals (every decision of the seat on turn).
onnxruntime runs on ``--threads`` CPU threads (1 by default, as ``onnx:`` agents do).

Usage:
    python benchmarks/bench_runtime.py
    python benchmarks/bench_runtime.py --bundle /tmp/bundle --reps 2000 --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mazzo.agents.bundle import Bundle, BundleAgent, load_bundle  # noqa: E402
from mazzo.agents.shipped import SHIPPED  # noqa: E402
from mazzo.envs.registry import game_names, get_game  # noqa: E402

BATCHES = (1, 16, 64, 256)


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation."""
    s = sorted(values)
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def views_of(bundle: Bundle, n: int, seed: int) -> list[Any]:
    """``n`` views of the seat on turn from random deals of the bundle's game and rules."""
    game, rules = bundle.game(), bundle.rules()
    rng = np.random.default_rng(seed)
    views: list[Any] = []
    while len(views) < n:
        state = game.new_state(game.deal_random(rng, rules), rules)
        while not state.is_terminal() and len(views) < n:
            views.append(game.view(state, state.to_play))
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
    return views


def timed(call: Callable[[int], object], reps: int) -> list[float]:
    """Seconds of each of ``reps`` calls ``call(i)`` (after a few untimed warm-up calls)."""
    for i in range(10):
        call(i)
    out = []
    for i in range(reps):
        t0 = time.perf_counter()
        call(i)
        out.append(time.perf_counter() - t0)
    return out


def measure(folder: Path, reps: int, threads: int, seed: int) -> list[dict[str, Any]]:
    """The rows of the table for the bundle in ``folder``."""
    bundle = load_bundle(folder, threads=threads)
    agent = BundleAgent(bundle)
    views = views_of(bundle, max(BATCHES), seed)
    obs = np.zeros((len(views), agent.encoder.obs_size), np.float32)
    mask = np.zeros((len(views), agent.encoder.num_actions), np.int8)
    agent.encoder.encode_batch(views, obs, mask)
    rng = np.random.default_rng(seed)
    n = len(views)
    cases: list[tuple[str, int, Callable[[int], object]]] = [
        ("encode + run", 1, lambda i: agent.act(views[i % n], rng)),
        ("run alone", 1, lambda i: bundle.run(obs[i % n : i % n + 1], mask[i % n : i % n + 1])),
    ]
    cases += [("batch", b, lambda i, b=b: bundle.run(obs[:b], mask[:b])) for b in BATCHES]
    rows = []
    for case, batch, call in cases:
        times = timed(call, reps if batch < 64 else max(10, reps // 4))
        median, p95 = statistics.median(times), percentile(times, 0.95)
        rows.append({
            "game": bundle.game_name, "case": case, "batch": batch, "calls": len(times),
            "median_ms": 1000 * median, "p95_ms": 1000 * p95,
            "per_decision_us": 1e6 * median / batch,
        })  # fmt: skip
    return rows


def shipped_bundles(tmp: Path) -> list[Path]:
    """The shipped bots' bundles: committed ones where present, else exported into ``tmp``."""
    out = []
    for game in game_names():
        if not (SHIPPED / game / "meta.json").exists():
            continue
        committed = SHIPPED / game / "bundle"
        if (committed / "manifest.json").exists():
            out.append(committed)
            continue
        from mazzo.training.export import export_bundle  # torch only to export

        export_bundle("bot", tmp / game, game=get_game(game).name, vectors=8)
        out.append(tmp / game)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--bundle",
        action="append",
        default=[],
        metavar="DIR",
        help="a bundle to measure (repeatable; default: the shipped bots)",
    )
    parser.add_argument("--reps", type=int, default=1000, help="calls per case (default 1000)")
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime threads (default 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()  # fmt: skip
    if args.reps < 1:
        parser.error(f"--reps must be at least 1, got {args.reps}")
    with tempfile.TemporaryDirectory() as tmp:
        folders = [Path(b) for b in args.bundle] or shipped_bundles(Path(tmp))
        rows = [r for f in folders for r in measure(f, args.reps, args.threads, args.seed)]
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'game':<14}{'case':<14}{'batch':>6}{'median ms':>11}{'p95 ms':>9}{'µs/decision':>13}")
    for r in rows:
        print(
            f"{r['game']:<14}{r['case']:<14}{r['batch']:>6}{r['median_ms']:>11.3f}"
            f"{r['p95_ms']:>9.3f}{r['per_decision_us']:>13.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
