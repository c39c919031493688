#!/usr/bin/env python3
"""Scaling of mazzo's trainer with the number of self-play actors, on this machine: the
collection rate (learner decisions collected per second) with k actors as local processes and
as Ray actors, and the learner's rate (PPO samples trained per second, one process), in one
run. The README's "Scaling out on Ray" reads its arithmetic from these rates.

Each case collects ``--rollouts`` rollouts of ``--rollout`` learner decisions after a warm-up
rollout (the actors' start and the first weights are not timed), with the config's network
(``--hidden``) and ``--envs`` engines shared among the actors; the learner's rate is that of
``ppo_update`` over one such rollout (``epochs`` passes, minibatch 1024, ``--threads`` torch
threads). Ray cases need the extra ``mazzo[distributed]``; they run on a runtime started here.

Usage:
    python benchmarks/bench_ray_scaling.py --game calabresella --actors 1 2 4
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

try:  # torch and the trainers load in the cases, after the arguments are checked
    from mazzo.envs.registry import game_names
except ImportError as e:
    sys.exit(f"bench_ray_scaling: cannot import the project ({e}); run it with the project's venv")


def _setup(game: str, k: int, envs: int, hidden: tuple[int, ...]) -> tuple[Any, ...]:
    """A PPO config of ``k`` actors, its network, pool and actor specs (as ``Run`` makes them)."""
    import numpy as np

    from mazzo.agents.nets import PolicyValueNet
    from mazzo.envs.registry import get_game
    from mazzo.training.rl.actors import ActorSpec
    from mazzo.training.rl.opponents import OpponentPool
    from mazzo.training.rl.ppo import PPOConfig

    cfg = PPOConfig(game=game, n_envs=envs, n_actors=k, hidden=hidden, minibatch=1024)
    g = get_game(game)
    rules = g.rules(cfg.flags)
    enc = g.encoder(rules)
    net = PolicyValueNet(enc.obs_size, enc.num_actions, cfg.hidden)
    pool = OpponentPool(g, cfg.pool_agents, cfg.self_play, cfg.max_snapshots)
    scale = g.reward_scale(rules)
    specs = [
        ActorSpec(g, rules, envs // k, s, cfg.pool_agents, cfg.self_play, cfg.max_snapshots,
                  scale, cfg.gamma, cfg.lam, cfg.hidden)
        for s in np.random.SeedSequence(cfg.seed).spawn(k)
    ]  # fmt: skip
    return cfg, net, pool, specs


def collection(
    game: str, k: int, ray: bool, rollout: int, rollouts: int, envs: int, hidden: tuple[int, ...]
) -> dict[str, float]:  # fmt: skip
    """Decisions collected per second by ``k`` actors (processes, or Ray actors)."""
    from mazzo.training.rl.actors import Actors
    from mazzo.training.rl.ray_actors import RayActors

    _cfg, net, pool, specs = _setup(game, k, envs, hidden)
    actors: Any = RayActors(specs, "local", lambda s: None) if ray else Actors(specs, False)
    try:
        actors.collect(net, pool, 0, rollout)  # warm-up: starts, the first weights
        t0, n = time.perf_counter(), 0
        for r in range(rollouts):
            n += len(actors.collect(net, pool, r + 1, rollout))  # a new pool version each time
        seconds = time.perf_counter() - t0
    finally:
        actors.close()
    return {"decisions_per_s": n / seconds, "per_actor": n / seconds / k}


def learner(
    game: str, rollout: int, envs: int, hidden: tuple[int, ...], threads: int
) -> dict[str, float]:  # fmt: skip
    """PPO samples per second of one learner process over one rollout."""
    import torch

    from mazzo.training.rl.actors import Actors
    from mazzo.training.rl.ppo import ppo_update

    cfg, net, pool, specs = _setup(game, 1, envs, hidden)
    torch.set_num_threads(threads)
    actors = Actors(specs, True)
    roll = actors.collect(net, pool, 0, rollout)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr, eps=1e-5)
    gen = torch.Generator().manual_seed(0)
    t0 = time.perf_counter()
    ppo_update(net, opt, roll, cfg, gen)
    seconds = time.perf_counter() - t0
    return {"samples_per_s": len(roll) * cfg.epochs / seconds, "epochs": cfg.epochs}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default=game_names()[0], choices=game_names())
    p.add_argument("--actors", type=int, nargs="+", default=[1, 2, 4])
    p.add_argument("--rollout", type=int, default=8192, help="learner decisions per rollout")
    p.add_argument("--rollouts", type=int, default=3, help="timed rollouts per case")
    p.add_argument("--envs", type=int, default=128, help="engines, shared among the actors")
    p.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    p.add_argument("--threads", type=int, default=2, help="the learner's torch threads")
    p.add_argument("--no-ray", action="store_true", help="local processes only")
    args = p.parse_args(argv)
    if min(args.actors) < 1 or args.rollout < 1 or args.rollouts < 1 or args.envs < 1:
        p.error("--actors, --rollout, --rollouts and --envs must be >= 1")
    if args.envs < max(args.actors):
        p.error(f"--envs {args.envs} must be at least the largest --actors")
    hidden = tuple(args.hidden)
    results: dict[str, Any] = {"learner": learner(args.game, args.rollout, args.envs, hidden,
                                                  args.threads)}  # fmt: skip
    print(f"learner: {results['learner']['samples_per_s']:,.0f} samples/s", flush=True)
    for ray in (False, True) if not args.no_ray else (False,):
        for k in args.actors:
            r = collection(args.game, k, ray, args.rollout, args.rollouts, args.envs, hidden)
            where = "ray" if ray else "processes"
            results[f"{where}:{k}"] = r
            print(f"{where:9} k={k}: {r['decisions_per_s']:,.0f} decisions/s "
                  f"({r['per_actor']:,.0f} per actor)", flush=True)  # fmt: skip
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
