"""Random-play speed of the bare Minchiate engine (a benchmark, not a timed test).

Plays complete deals from shuffled streams with uniformly random legal actions, exactly the loop
``legal = s.legal_actions(); s.apply(rng.choice(legal))`` with a ``random.Random``, discards and
declarations included, and reports decisions/s and deals/s (median of the repetitions). Compare
it with OpenSpiel's C++ hearts driven from Python, measured in the same run on the same machine:

    python benchmarks/bench_minchiate.py --seconds 5 --reps 3
    /tmp/mazzo-peers/bin/python /work/shared/bench/peers.py --only os:hearts:raw \
        --seconds 5 --reps 3

Options: ``--flag name=value`` (repeatable) runs a rule variant; ``--clone`` also clones the state
before every decision (the cost a search agent pays); ``--view`` also builds the seat's
``InfoView`` before every decision.
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

from mazzo.envs.cards.deal import Deal
from mazzo.envs.minchiate import Rules, State


def run(
    seconds: float, rules: Rules, seed: int, clone: bool, view: bool
) -> tuple[float, float, float]:
    """(decisions/s, deals/s, decisions per deal) over ``seconds`` of play."""
    rng = random.Random(seed)
    choice, shuffle = rng.choice, rng.shuffle
    order = list(range(97))
    decisions = deals = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        for _ in range(20):
            shuffle(order)
            s = State.new(Deal(rng.randrange(4), tuple(order)), rules)
            while not s.is_terminal():
                if clone:
                    s.clone()
                if view:
                    s.info_view(s.to_play)
                legal = s.legal_actions()
                s.apply(choice(legal))
                decisions += 1
            s.returns()
            deals += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, deals / elapsed, decisions / deals


def parse_flag(text: str) -> tuple[str, object]:
    name, _, raw = text.partition("=")
    try:
        value: object = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return name, value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="seconds per repetition")
    ap.add_argument("--reps", type=int, default=3, help="repetitions (the median is reported)")
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--flag", action="append", default=[], help="rule flag name=value")
    ap.add_argument("--clone", action="store_true", help="clone the state before each decision")
    ap.add_argument("--view", action="store_true", help="build the InfoView before each decision")
    args = ap.parse_args()
    rules = Rules.from_flags(dict(parse_flag(f) for f in args.flag))
    results = [
        run(args.seconds, rules, args.seed + i, args.clone, args.view) for i in range(args.reps)
    ]
    dps = statistics.median(r[0] for r in results)
    gps = statistics.median(r[1] for r in results)
    per = statistics.median(r[2] for r in results)
    extra = "".join(f" --{k}" for k in ("clone", "view") if getattr(args, k))
    print(
        f"minchiate engine{extra} flags={rules.to_flags()}: {dps:,.0f} decisions/s, "
        f"{gps:,.1f} deals/s, {per:.1f} decisions/deal ({args.reps} x {args.seconds:g} s)"
    )


if __name__ == "__main__":
    main()
