#!/usr/bin/env python3
"""Training throughput of mazzo's trainers beside the peer a user would otherwise pick, in one
run: decisions per second learned (every learner seat's decisions the update trains on,
collection included) and learner samples per second.

Cases (each on ``--game``'s default rules, the same 256x256 MLP, for ``--seconds`` of wall
clock after a warm-up update):
    mazzo:ppo        masked PPO self-play (``mazzo.training.rl.ppo``), ``--actors`` actor processes
    mazzo:dmc        Deep Monte-Carlo (``mazzo.training.rl.dmc``)
    sb3:maskableppo  sb3-contrib's MaskablePPO on the Gymnasium face (``mazzo/<Game>-v0``, one
                     learning seat against heuristic opponents), one torch thread, n_steps 2048

Target (issue 9): mazzo's PPO learns from at least 20x the decisions per second of
sb3:maskableppo on the same machine.

Usage:
    python benchmarks/bench_train.py --game calabresella --seconds 60
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

try:  # torch, Gymnasium and the trainers load in the cases, after the arguments are checked
    from mazzo.envs.registry import game_names, get_game
except ImportError as e:
    sys.exit(f"bench_train: cannot import the project ({e}); run it with the project's venv")


def mazzo_case(
    algo: str, game: str, seconds: float, actors: int, rollout: int = 8192, envs: int = 128
) -> dict[str, float]:  # fmt: skip
    """Train for about ``seconds``; decisions per second from the run's own counters."""
    from mazzo.training.rl.dmc import DMCConfig
    from mazzo.training.rl.dmc import train as train_dmc
    from mazzo.training.rl.ppo import PPOConfig
    from mazzo.training.rl.ppo import train as train_ppo

    lines: list[str] = []
    common = {
        "game": game, "n_envs": envs, "rollout_decisions": rollout, "eval_every": 0,
        "n_actors": actors, "threads": 2 if actors == 0 else 1, "total_decisions": 10**12,
        "minibatch": min(1024, rollout),
    }  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        cfg_type, train = (PPOConfig, train_ppo) if algo == "ppo" else (DMCConfig, train_dmc)
        warm = cfg_type(**common | {"total_decisions": rollout})  # type: ignore[arg-type]
        train(warm, Path(tmp) / "warm", log=lines.append)
        budget = max(rollout, int(seconds * _rate(lines)))
        cfg = cfg_type(**common | {"total_decisions": budget})  # type: ignore[arg-type]
        lines.clear()
        t0 = time.perf_counter()
        train(cfg, Path(tmp) / "run", log=lines.append)
        elapsed = time.perf_counter() - t0
    decisions = _decisions(lines)
    return {"decisions_per_s": decisions / elapsed, "seconds": elapsed, "decisions": decisions}


def _rate(lines: list[str]) -> float:
    for line in lines:
        if "/s, learner" in line:
            return float(line.split(" decisions, ")[1].split("/s")[0].replace(",", ""))
    return 1000.0


def _decisions(lines: list[str]) -> int:
    return int(lines[-1].split(", ")[1].split(" decisions")[0].replace(",", ""))


def sb3_case(game: str, seconds: float, n_steps: int = 2048) -> dict[str, float]:
    """MaskablePPO with one learning seat against heuristic opponents, timed by timesteps."""
    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.wrappers import ActionMasker

    import mazzo.training.single_agent  # noqa: F401 (registers the Gymnasium ids)

    torch.set_num_threads(1)
    env = gym.make(get_game(game).info.gym_id, opponents="heuristic")
    env = gym.wrappers.FlattenObservation(gym.wrappers.FilterObservation(env, ["observation"]))
    env = ActionMasker(env, lambda e: e.unwrapped.action_masks())
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=n_steps, batch_size=64, seed=0, verbose=0,
        policy_kwargs={"net_arch": [256, 256]},
    )  # fmt: skip
    model.learn(total_timesteps=n_steps)  # warm-up
    t0 = time.perf_counter()
    steps = 0
    while time.perf_counter() - t0 < seconds:
        model.learn(total_timesteps=n_steps, reset_num_timesteps=False)
        steps += n_steps
    elapsed = time.perf_counter() - t0
    return {"decisions_per_s": steps / elapsed, "seconds": elapsed, "decisions": steps}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default=game_names()[0], choices=game_names())
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--actors", type=int, default=0, help="actor processes of mazzo:ppo")
    cases = ["mazzo:ppo", "mazzo:dmc", "sb3:maskableppo"]
    parser.add_argument("--cases", nargs="+", default=cases, choices=cases)
    parser.add_argument("--rollout", type=int, default=8192, help="mazzo decisions per update")
    parser.add_argument("--envs", type=int, default=128, help="mazzo engines stepped together")
    parser.add_argument("--n-steps", type=int, default=2048, help="sb3 steps per update")
    parser.add_argument("--out", type=Path, help="results JSON (default benchmarks/results/)")
    args = parser.parse_args()
    results: dict[str, dict[str, float]] = {}
    for case in args.cases:
        if case == "sb3:maskableppo":
            results[case] = sb3_case(args.game, args.seconds, args.n_steps)
        else:
            algo = case.split(":")[1]
            results[case] = mazzo_case(
                algo, args.game, args.seconds, args.actors, args.rollout, args.envs
            )
        r = results[case]
        print(f"{case:18s} {r['decisions_per_s']:>10,.0f} decisions/s ({r['seconds']:.0f}s)")
    peer = results.get("sb3:maskableppo", {}).get("decisions_per_s")
    print("\n| case | decisions/s | ratio to sb3:maskableppo | target |")
    print("|---|---|---|---|")
    for case, r in results.items():
        ratio = f"{r['decisions_per_s'] / peer:.1f}x" if peer else "n/a"
        target = ">= 20x" if case == "mazzo:ppo" else ""
        print(f"| {case} | {r['decisions_per_s']:,.0f} | {ratio} | {target} |")
    out = args.out or ROOT / "benchmarks" / "results" / f"bench_train_{args.game}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"game": args.game, "results": results, "time": time.time()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
