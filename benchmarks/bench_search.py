#!/usr/bin/env python3
"""Playouts and solver calls per second of each game's search core, Python against compiled
(a benchmark, not a test).

For every registered game with a search core (``agents/<game>/csearch.py``) and three cases:
``playout`` (a greedy perfect-information playout from the lead of trick 1 to the end, the
settlement included), ``pimc playout`` (the same with the last ``DEFAULT_EXACT`` tricks solved
exactly: what PIMC runs for each candidate in each world) and ``solver`` (``rollout.solve``
from the lead with ``DEFAULT_EXACT`` tricks left, and with ``MAX_EXACT``). Each case runs on
the same random positions through the Python reference (``rollout.py``) and the compiled core
(``_csearch.c``), checks that both give the same values, and reports calls per second and the
ratio; and ``world draw``: worlds drawn per second by the world sampler for the view of the
seat on turn, the Python reference against the compiled twin (``agents/_csample.c``), the same
worlds checked. Without a compiled build (or under ``MAZZO_PURE_PYTHON=1``) only the Python
figures are reported.

Usage:
    python benchmarks/bench_search.py                 # every game, about 2 s per measure
    python benchmarks/bench_search.py --game minchiate --seconds 5 --json
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mazzo.envs.registry import game_names, get_game  # noqa: E402


def rate(fn: Callable[[Any], float], items: list[Any], seconds: float) -> tuple[float, list[float]]:
    """Calls per second of ``fn`` over ``items`` (cycled until ``seconds`` have passed, at
    least one pass), and the values of the first pass."""
    fn(items[0])  # warm-up: caches, tables
    values: list[float] = []
    n, start = 0, time.perf_counter()
    while True:
        for x in items:
            v = fn(x)
            if len(values) < len(items):
                values.append(v)
            n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return n / elapsed, values


def bench_game(name: str, seconds: float, n: int, seed: int) -> dict[str, dict[str, float]]:
    """Every case of one game: Python and compiled calls per second and their ratio."""
    core = importlib.import_module(f"mazzo.agents.{name}.csearch")
    rules = get_game(name).rules()
    exact, deepest, tricks = core.DEFAULT_EXACT, core.MAX_EXACT, core.TRICKS
    cases = {
        "playout": (core.positions(rules, n, seed, 0), 0),
        f"pimc playout (exact={exact})": (core.positions(rules, n, seed, 0), exact),
        f"solver ({exact} tricks)": (core.positions(rules, n, seed, tricks - exact), exact),
        f"solver ({deepest} tricks)": (core.positions(rules, n, seed, tricks - deepest), deepest),
    }
    out: dict[str, dict[str, float]] = {}
    for case, (states, depth) in cases.items():
        items = [(s, s.to_play) for s in states]
        py, want = rate(lambda x, d=depth: core.reference_value(x[0], x[1], d), items, seconds)
        row = {"python_per_s": round(py, 1)}
        if core.CORE is not None:
            c, got = rate(lambda x, d=depth: core.compiled_value(x[0], x[1], d), items, seconds)
            if got != want:
                raise SystemExit(f"{name} {case}: the compiled values differ from Python's")
            row |= {"compiled_per_s": round(c, 1), "speedup": round(c / py, 1)}
        out[case] = row
    out["world draw"] = bench_draws(name, core.positions(rules, n, seed, 0), seconds)
    return out


def bench_draws(name: str, states: list[Any], seconds: float) -> dict[str, float]:
    """Worlds drawn per second by the game's world sampler (``mazzo.agents.sampling.SlotSampler``
    built for the view of the seat on turn), the Python reference against the compiled twin
    (``agents/_csample.c``), each from its own generators seeded alike: the same worlds."""
    import numpy as np

    from mazzo.agents import sampling

    world_sampler = importlib.import_module(f"mazzo.agents.{name}.sampler").WorldSampler
    samplers = [world_sampler(s.info_view(s.to_play))._sampler for s in states]
    items = list(range(len(samplers)))

    def drawing(compiled: bool) -> Callable[[int], float]:
        gens = [np.random.default_rng(i) for i in items]

        def draw(i: int) -> float:
            if compiled:
                world = samplers[i].sample(gens[i])
            else:
                world = samplers[i].sample_reference(gens[i].bit_generator)
            return float(hash(tuple(world)))

        return draw

    py, want = rate(drawing(False), items, seconds)
    row = {"python_per_s": round(py, 1)}
    if sampling._CORE is not None:
        c, got = rate(drawing(True), items, seconds)
        if got != want:
            raise SystemExit(f"{name} world draw: the compiled worlds differ from Python's")
        row |= {"compiled_per_s": round(c, 1), "speedup": round(c / py, 1)}
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=game_names(), help="one game (default: all)")
    parser.add_argument("--seconds", type=float, default=2.0, help="per measure")
    parser.add_argument("--positions", type=int, default=200, help="random positions per case")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args()
    report = {
        name: bench_game(name, args.seconds, args.positions, args.seed)
        for name in ([args.game] if args.game else game_names())
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{'game':14} {'case':28} {'python/s':>10} {'compiled/s':>11} {'speedup':>8}")
    for name, rows in report.items():
        for case, row in rows.items():
            c = row.get("compiled_per_s")
            print(
                f"{name:14} {case:28} {row['python_per_s']:10.1f} "
                f"{'-' if c is None else f'{c:.1f}':>11} "
                f"{'-' if c is None else str(row['speedup']) + 'x':>8}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
