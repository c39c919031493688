#!/usr/bin/env python3
"""Decision time of an agent (a benchmark, not a test): median, 95th percentile and maximum.

Plays deals in which the measured agent holds one seat and the heuristic the others, and times
every decision of the measured agent that has more than one legal action (a forced move costs
nothing and would flatter the median). Reports overall and per phase.

Usage:
    python benchmarks/bench_agents.py --game calabresella --agent pimc --deals 40
    python benchmarks/bench_agents.py --game minchiate --agent pimc --deals 10
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mazzo.agents.registry import make_agent  # noqa: E402
from mazzo.envs.cards.bits import bit_list  # noqa: E402
from mazzo.envs.registry import game_names, get_game  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation."""
    s = sorted(values)
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default=game_names()[0], choices=game_names())
    parser.add_argument("--agent", default="pimc")
    parser.add_argument("--others", default="heuristic")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    game = get_game(args.game)
    rules = game.rules()
    n = game.seats(rules)
    agent, other = make_agent(args.agent, args.game), make_agent(args.others, args.game)
    rng = np.random.default_rng(args.seed)
    times: dict[str, list[float]] = {}
    for d in range(args.deals):
        state = game.new_state(game.deal_random(rng, rules, dealer=d % n), rules)
        seat = d % n
        while not state.is_terminal():
            actor = state.to_play
            view = state.info_view(actor)
            if actor == seat and len(bit_list(view.legal_mask)) > 1:
                t0 = time.perf_counter()
                action = agent.act(view, rng)
                times.setdefault(state.phase.name, []).append(time.perf_counter() - t0)
            else:
                action = (agent if actor == seat else other).act(view, rng)
            state.apply(action)
    all_times = [t for ts in times.values() for t in ts]
    report = {
        "game": args.game,
        "agent": args.agent,
        "decisions": len(all_times),
        "median_ms": 1000 * statistics.median(all_times),
        "p95_ms": 1000 * percentile(all_times, 0.95),
        "max_ms": 1000 * max(all_times),
        "per_phase": {
            phase: {
                "decisions": len(ts),
                "median_ms": 1000 * statistics.median(ts),
                "p95_ms": 1000 * percentile(ts, 0.95),
            }
            for phase, ts in sorted(times.items())
        },
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
