#!/usr/bin/env python3
"""Speed and memory of the vector runner (``mazzo.envs.vector.VectorRunner``) beside the peers.

Each registered game is stepped as N engines together under uniformly random legal actions,
chosen for the whole batch at once with NumPy from the masks (``argmax`` of uniform noise in
[1, 2) times the mask), encoding of every acting seat's observation and mask included. The figure is
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
    python benchmarks/bench_vector.py --rounds 3             # ours, peers, ours, peers, ...
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

from mazzo.envs.registry import all_games, get_game  # noqa: E402
from mazzo.envs.vector import VectorRunner  # noqa: E402

TARGETS = {"encoded": 1.0, "engine": 1.0}  # the second is an aim, not a requirement


def random_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row of ``mask`` (batched)."""
    return ((rng.random(mask.shape, np.float32) + 1) * mask).argmax(axis=1)  # legal: [1, 2)


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


def print_table(rounds: list[dict[str, Any]]) -> None:
    """Medians over the rounds; each ratio is the median of the rounds' ratios (ours and the
    peer's measured in the same round)."""
    print(f"\n{len(rounds)} round(s): median decisions/s; ratio = median of per-round ratios")
    print("| case | decisions/s | KiB/engine | peer | peer decisions/s | ratio | target |")
    print("|---|---|---|---|---|---|---|")
    for case in rounds[0]["mazzo"]:
        game = get_game(case.split(":")[1])
        rates = [r["mazzo"][case]["decisions_per_s"] for r in rounds]
        held = rounds[-1]["mazzo"][case]["held_kb"]
        for kind in ("encoded", "engine"):
            peer = game.info.peers.get(kind, "n/a")
            pv = [r["peers"][peer] for r in rounds if peer in r["peers"]]
            ratios = [r["mazzo"][case]["decisions_per_s"] / r["peers"][peer]
                      for r in rounds if peer in r["peers"]]  # fmt: skip
            ratio = f"{statistics.median(ratios):.2f}x" if ratios else "n/a"
            if len(ratios) > 1:
                ratio += f" ({min(ratios):.2f}-{max(ratios):.2f})"
            pv_text = f"{statistics.median(pv):,.0f}" if pv else "n/a"
            aim = "aim" if kind == "engine" else ">="
            print(f"| {case} | {statistics.median(rates):,.0f} | {held:.1f} | {peer} | "
                  f"{pv_text} | {ratio} | {aim} {TARGETS[kind]}x |")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=[g.name for g in all_games()])
    parser.add_argument("--sizes", nargs="+", type=int, default=[64, 256])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--memory-steps", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=1, help="ours then the peers, repeated")
    add_peer_arguments(parser)
    args = parser.parse_args()

    use_peers = not args.no_peers and peers_available(args.peers_python, args.peers_script)
    wanted = sorted({p for name in args.games for p in get_game(name).info.peers.values()})
    rounds: list[dict[str, Any]] = []
    for k in range(args.rounds):
        ours: dict[str, dict[str, Any]] = {}
        for name in args.games:
            for n in args.sizes:
                case = f"mazzo:{name}:vector{n}"
                r = ours[case] = measure(name, n, args.seconds, args.reps, args.seed + k)
                r.update(memory_per_engine(name, n, args.memory_steps, args.seed))
                print(f"{case:28s} {r['decisions_per_s']:>10,.0f} dec/s "
                      f"{r['deals_per_s']:>9,.1f} deals/s  {r['held_kb']:6.1f} KiB/engine held, "
                      f"{r['peak_kb']:6.1f} peak", flush=True)  # fmt: skip
        peers: dict[str, float] = {}
        if use_peers:
            peers = run_peers(args.peers_python, args.peers_script, wanted, args.seconds,
                              args.reps, "peers_vector.json")  # fmt: skip
            for case, rate in sorted(peers.items()):
                print(f"{case:28s} {rate:>10,.0f} dec/s", flush=True)
        rounds.append({"mazzo": ours, "peers": peers})
    print_table(rounds)
    out = ROOT / "benchmarks" / "results" / "bench_vector.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"rounds": rounds, "seconds": args.seconds,
                               "reps": args.reps, "time": time.time()}, indent=2))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
