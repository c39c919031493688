"""What building a Minchiate world sampler costs (a benchmark, not a timed test).

For random positions of the default rules (random deals played with random legal actions to a
random point of the first 100 decisions), builds ``WorldSampler(view)`` for every seat and
reports the build time (median, 95th percentile and worst, in ms) and the size of the counting
recursion's memo (``SlotSampler._ways``), the quantity the default suite bounds
(``tests/minchiate/test_sampler.py::test_sampler_memo_stays_small``):

    python benchmarks/bench_minchiate_sampler.py --positions 150 --seed 3

Prints one JSON object. On the 2-core development machine (shared, so the worst case is noisy)
the default 150 positions build 544 samplers: median 0.25 ms, 95th percentile 0.8 ms, worst
2 to 12 ms, memo at most 118 entries.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mazzo.agents.minchiate.sampler import WorldSampler
from mazzo.envs.cards.deal import Deal
from mazzo.envs.minchiate import Rules, State


def random_state(rng: random.Random, rules: Rules, max_steps: int = 100) -> State:
    """A random deal played with random legal actions to a random point."""
    order = list(range(97))
    rng.shuffle(order)
    s = State.new(Deal(rng.randrange(4), tuple(order)), rules)
    stop = rng.randrange(max_steps)
    while not s.is_terminal() and len(s.history) < stop:
        s.apply(rng.choice(s.legal_actions()))
    return s


def measure(positions: int, seed: int) -> dict[str, float | int]:
    rng = random.Random(seed)
    rules = Rules()
    times: list[float] = []
    memo: list[int] = []
    for _ in range(positions):
        s = random_state(rng, rules)
        if s.is_terminal():
            continue
        for seat in range(4):
            view = s.info_view(seat)
            t = time.perf_counter()
            sampler = WorldSampler(view)
            times.append(time.perf_counter() - t)
            memo.append(sampler._sampler._ways.cache_info().currsize)
    times.sort()
    return {
        "samplers": len(times),
        "median_ms": 1e3 * statistics.median(times),
        "p95_ms": 1e3 * times[int(0.95 * (len(times) - 1))],
        "max_ms": 1e3 * times[-1],
        "max_memo": max(memo),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=150, help="random positions (4 seats each)")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    if args.positions < 1:
        ap.error("--positions must be >= 1")
    print(json.dumps(measure(args.positions, args.seed)))


if __name__ == "__main__":
    main()
