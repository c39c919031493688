#!/usr/bin/env python3
"""mazzo's PPO trainer on Ray beside RLlib's PPO (``examples/rllib_ppo.py``: RLlib's PettingZoo
wrapper with action masking), on the same game, the same network size and this machine, in one
run and on one Ray runtime: decisions learned per second, and the margin per deal against the
heuristic (200 fixed deals, duplicate style, 95% interval) after the same wall time.

Cases (``--cases``), each trained for ``--seconds`` of wall time from its start (set-up
included):
    mazzo:ray    ``mazzo.training.rl.ppo`` with ``--actors`` self-play actors on Ray, 256x256 MLP,
                 from no weights
    mazzo:ray+bc the same after mazzo's own warm start (the shipped configs' recipe): cloning
                 the heuristic on ``--bc-decisions`` of its decisions, inside the same wall time
    rllib:ppo    RLlib's PPO, one shared action-masking policy, ``--runners`` env runners,
                 256x256 MLP, 3 epochs, batches of ``--batch`` decisions

Every seat of both is the learning policy or a copy of it (self-play), so every decision
sampled is one learned from. Runs in the RLlib venv (``.venv-rllib``, which also holds mazzo):

    .venv-rllib/bin/python benchmarks/bench_rllib.py --game calabresella --seconds 300
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "examples"))

try:
    from mazzo.envs.registry import AnyGame, game_names, get_game
except ImportError as e:
    sys.exit(f"bench_rllib: cannot import the project ({e}); run it with .venv-rllib")


def mazzo_case(
    game: AnyGame, seconds: float, actors: int, deals: int, bc_decisions: int = 0
) -> dict[str, Any]:
    """mazzo's PPO with ``actors`` actors on the open Ray runtime for ``seconds``, after
    cloning the heuristic on ``bc_decisions`` decisions (0: none) within that time."""
    from rllib_ppo import margin_vs_heuristic

    from mazzo.agents.distributed import LOCAL
    from mazzo.training.rl.evaluate import _Frozen
    from mazzo.training.rl.ppo import PPOConfig, train

    cfg = PPOConfig(game=game.name, n_envs=64, n_actors=actors, rollout_decisions=4096,
                    minibatch=1024, hidden=(256, 256), eval_every=0, threads=1,
                    total_decisions=10**12, bc_decisions=bc_decisions)  # fmt: skip
    t0 = time.perf_counter()

    def stop(_net: Any, run: Any) -> bool:
        return time.perf_counter() - t0 >= seconds

    with tempfile.TemporaryDirectory() as tmp:
        lines: list[str] = []
        net = train(cfg, Path(tmp) / "run", log=lines.append, hook=stop, ray=LOCAL)
        took = time.perf_counter() - t0
        decisions = int(lines[-1].split(", ")[1].split()[0].replace(",", ""))
    encoder = game.encoder(game.rules())
    margin = margin_vs_heuristic(game, _Frozen(net.eval(), encoder), deals, "mazzo")
    return {"decisions": decisions, "seconds": took, "decisions_per_s": decisions / took,
            "vs_heuristic": margin}  # fmt: skip


def rllib_case(game: AnyGame, seconds: float, runners: int, batch: int, deals: int) -> Any:
    """RLlib's PPO for ``seconds``."""
    from rllib_ppo import RLlibAgent, margin_vs_heuristic, train_rllib

    algo, decisions, took, _ = train_rllib(game, [256, 256], batch, runners, 1, seconds)
    agent = RLlibAgent(algo.get_module("shared"), game)
    margin = margin_vs_heuristic(game, lambda: agent, deals)
    algo.stop()
    return {"decisions": decisions, "seconds": took, "decisions_per_s": decisions / took,
            "vs_heuristic": margin}  # fmt: skip


CASES = ("mazzo:ray", "mazzo:ray+bc", "rllib:ppo")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default=game_names()[0], choices=game_names())
    p.add_argument("--seconds", type=float, default=300, help="wall time of each case")
    p.add_argument("--actors", type=int, default=1, help="mazzo's actors on Ray")
    p.add_argument("--runners", type=int, default=1, help="RLlib's env runners")
    p.add_argument("--batch", type=int, default=4000, help="RLlib's decisions per iteration")
    p.add_argument("--deals", type=int, default=200, help="evaluation deals")
    p.add_argument("--cases", default=",".join(CASES), help=f"of {', '.join(CASES)}")
    p.add_argument("--bc-decisions", type=int, default=100_000,
                   help="mazzo:ray+bc's cloned decisions of the heuristic")  # fmt: skip
    args = p.parse_args(argv)
    if args.seconds <= 0 or min(args.actors, args.batch, args.deals) < 1 or args.runners < 0:
        p.error("--seconds must be > 0, --actors, --batch and --deals >= 1, --runners >= 0")
    if args.bc_decisions < 1:
        p.error(f"--bc-decisions {args.bc_decisions}: must be >= 1")
    cases = [c.strip() for c in args.cases.split(",") if c.strip()]
    unknown = [c for c in cases if c not in CASES]
    if unknown or not cases:
        p.error(f"--cases {args.cases!r}: choose among {', '.join(CASES)}")
    import ray

    game = get_game(args.game)
    path = f"{ROOT}:{ROOT / 'examples'}"  # RLlib's env runners import the example's wrapper
    ray.init(num_cpus=max(args.actors, args.runners + 1), include_dashboard=False,
             log_to_driver=False, runtime_env={"env_vars": {"PYTHONPATH": path}})  # fmt: skip
    results: dict[str, Any] = {}
    try:
        for case in cases:
            if case == "rllib:ppo":
                results[case] = rllib_case(game, args.seconds, args.runners, args.batch, args.deals)
            else:
                bc = args.bc_decisions if case == "mazzo:ray+bc" else 0
                results[case] = mazzo_case(game, args.seconds, args.actors, args.deals, bc)
            print(case, json.dumps(results[case]), flush=True)
    finally:
        ray.shutdown()
    if "rllib:ppo" in results:
        for case in ("mazzo:ray", "mazzo:ray+bc"):
            if case in results:
                ratio = results[case]["decisions_per_s"] / results["rllib:ppo"]["decisions_per_s"]
                results[f"ratio_decisions_per_s {case}"] = ratio
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
