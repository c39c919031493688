#!/usr/bin/env python3
"""Speed and memory of the vector runner (``envs.vector.VectorRunner``) beside the peers.

Each registered game is stepped as N engines together under uniformly random legal actions,
chosen for the whole batch at once with NumPy from the masks (``argmax`` of uniform noise times
the mask), encoding of every acting seat's observation and mask included. The figure is
decisions per second (N per step). The peer benchmark (``../shared/bench/peers.py``) runs in the
same invocation, and each game is compared with the peers its ``GameInfo.peers`` names:
``encoded`` (OpenSpiel's observer writing into a preallocated buffer, ``os:<game>:obsbuf``) and
``engine`` (the bare C++ core, ``os:<game>:raw``). The machine is shared and noisy: compare the
ratios of one run, never absolute figures of different runs.

Memory per engine: ``tracemalloc`` over building a runner of N engines, resetting it and
stepping it (traced bytes still held afterwards, and the peak, divided by N; the batch buffers
included).

Targets (issue 8): >= 1.0x the ``encoded`` peer; aim for 1.0x the ``engine`` peer.

Usage:
    python benchmarks/bench_vector.py                        # N = 64 and 256, 10 s x 3 reps
    python benchmarks/bench_vector.py --seconds 3 --reps 1   # quick
    python benchmarks/bench_vector.py --no-peers             # mazzo only
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _peers import add_peer_arguments, peers_available, run_peers  # noqa: E402

from envs.registry import all_games, get_game  # noqa: E402
from envs.vector import VectorRunner  # noqa: E402

TARGETS = {"encoded": 1.0, "engine": 1.0}  # the second is an aim, not a requirement


def random_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row of ``mask`` (batched)."""
    return (rng.random(mask.shape, np.float32) * mask).argmax(axis=1)


def measure(game: str, n: int, seconds: float, reps: int, seed: int) -> dict[str, float]:
    runner = VectorRunner(game, n, seed=seed)
    rng = np.random.default_rng(seed)
    batch = runner.reset()
    for _ in range(20):  # warm-up
        batch = runner.step(random_actions(rng, batch.mask))
    rates, deals_per_s = [], []
    for _ in range(reps):
        steps = deals = 0
        t0 = time.perf_counter()
        while True:
            for _ in range(10):
                batch = runner.step(random_actions(rng, batch.mask))
                deals += int(batch.done.sum())
            steps += 10
            elapsed = time.perf_counter() - t0
            if elapsed >= seconds:
                break
        rates.append(steps * n / elapsed)
        deals_per_s.append(deals / elapsed)
    return {
        "decisions_per_s": statistics.median(rates),
        "deals_per_s": statistics.median(deals_per_s),
        "rates": rates,
    }


def memory_per_engine(game: str, n: int, steps: int, seed: int) -> dict[str, float]:
    """Bytes per engine (held after ``steps`` steps, and at the peak) traced by tracemalloc."""
    rng = np.random.default_rng(seed)
    tracemalloc.start()
    try:
        runner = VectorRunner(game, n, seed=seed)
        batch = runner.reset()
        for _ in range(steps):
            batch = runner.step(random_actions(rng, batch.mask))
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del runner
    return {"held_kb": held / n / 1024, "peak_kb": peak / n / 1024}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=[g.name for g in all_games()])
    parser.add_argument("--sizes", nargs="+", type=int, default=[64, 256])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--memory-steps", type=int, default=200)
    add_peer_arguments(parser)
    args = parser.parse_args()

    ours: dict[str, dict[str, Any]] = {}
    for name in args.games:
        for n in args.sizes:
            case = f"mazzo:{name}:vector{n}"
            r = ours[case] = measure(name, n, args.seconds, args.reps, args.seed)
            r.update(memory_per_engine(name, n, args.memory_steps, args.seed))
            print(f"{case:28s} {r['decisions_per_s']:>10,.0f} dec/s {r['deals_per_s']:>9,.1f} "
                  f"deals/s  {r['held_kb']:6.1f} KiB/engine held, {r['peak_kb']:6.1f} peak",
                  flush=True)  # fmt: skip

    peers: dict[str, float] = {}
    if not args.no_peers and peers_available(args.peers_python, args.peers_script):
        wanted = sorted({p for name in args.games for p in get_game(name).info.peers.values()})
        peers = run_peers(args.peers_python, args.peers_script, wanted, args.seconds, args.reps,
                          "peers_vector.json")  # fmt: skip
        for case, rate in sorted(peers.items()):
            print(f"{case:28s} {rate:>10,.0f} dec/s")

    print("\n| case | decisions/s | KiB/engine | peer | peer decisions/s | ratio | target |")
    print("|---|---|---|---|---|---|---|")
    for case, r in ours.items():
        game = get_game(case.split(":")[1])
        for kind in ("encoded", "engine"):
            peer = game.info.peers.get(kind, "n/a")
            pv = peers.get(peer)
            ratio = f"{r['decisions_per_s'] / pv:.2f}x" if pv else "n/a"
            pv_text = f"{pv:,.0f}" if pv else "n/a"
            aim = "aim" if kind == "engine" else ">="
            print(f"| {case} | {r['decisions_per_s']:,.0f} | {r['held_kb']:.1f} | {peer} | "
                  f"{pv_text} | {ratio} | {aim} {TARGETS[kind]}x |")  # fmt: skip
    out = ROOT / "benchmarks" / "results" / "bench_vector.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"mazzo": ours, "peers": peers, "seconds": args.seconds,
                               "reps": args.reps, "time": time.time()}, indent=2))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
