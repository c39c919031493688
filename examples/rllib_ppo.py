#!/usr/bin/env python3
"""RLlib's PPO on a mazzo game, through RLlib's own PettingZoo wrapper with action masking: the
peer a Ray user would reach for first, set up the way RLlib documents it.

The game's AEC env (``game.env()``) goes through RLlib's ``PettingZooEnv`` unmodified but for
one thin PettingZoo wrapper (``MaskedObs``) that renames the observation dict's keys to the
ones RLlib's action-masking module reads (``observations``, ``action_mask`` as float32). One
shared policy plays every seat (self-play), RLlib's ``ActionMaskingTorchRLModule`` with a
``--hidden`` MLP (256x256 by default, mazzo's default size). After training, the policy (greedy
on its masked logits) plays mazzo's arena against the heuristic on fixed deals, duplicate
style, and the script prints one JSON line: decisions sampled, seconds, decisions per second
and the margin per deal with its 95% interval.

RLlib pins an older Gymnasium than mazzo's venv: run it in the RLlib venv that ``.ci/run``
builds (``.venv-rllib``):

    .venv-rllib/bin/python examples/rllib_ppo.py --game calabresella --iterations 20
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mazzo.arena.plan import Entrant  # noqa: E402
from mazzo.arena.runner import make_plan, run_arena  # noqa: E402
from mazzo.arena.summary import summarize  # noqa: E402
from mazzo.envs.deal_sets import generate_deals  # noqa: E402
from mazzo.envs.registry import AnyGame, game_names, get_game  # noqa: E402


def masked_env(game: AnyGame) -> Any:
    """The game's AEC env as RLlib's ``PettingZooEnv``, observations renamed for masking."""
    import gymnasium as gym
    from pettingzoo.utils import BaseWrapper
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    class MaskedObs(BaseWrapper):  # type: ignore[misc]
        """``{"observations": obs, "action_mask": float32 mask}`` (RLlib's masking keys)."""

        def observation_space(self, agent: str) -> gym.spaces.Dict:
            space = self.env.observation_space(agent)
            n = space["action_mask"].shape[0]
            return gym.spaces.Dict({
                "observations": space["observation"],
                "action_mask": gym.spaces.Box(0.0, 1.0, (n,), np.float32),
            })  # fmt: skip

        def observe(self, agent: str) -> dict[str, np.ndarray]:
            obs = self.env.observe(agent)
            return {"observations": obs["observation"],
                    "action_mask": obs["action_mask"].astype(np.float32)}  # fmt: skip

    return PettingZooEnv(MaskedObs(game.env()))


def build(game: AnyGame, hidden: list[int], batch: int, runners: int) -> Any:
    """RLlib's PPO: one shared action-masking policy for every seat."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
    from ray.tune.registry import register_env

    name = f"mazzo_{game.name}"
    register_env(name, lambda _cfg: masked_env(game))
    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        model_config={"fcnet_hiddens": hidden, "head_fcnet_hiddens": []},
    )
    config = (
        PPOConfig()
        .environment(name)
        .env_runners(num_env_runners=runners)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda *_a, **_k: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": module}))
        .training(train_batch_size_per_learner=batch, minibatch_size=min(batch, 1024), num_epochs=3)
    )
    return config.build_algo()


class RLlibAgent:
    """A trained RLlib module as a mazzo agent: greedy on its masked logits."""

    def __init__(self, module: Any, game: AnyGame) -> None:
        self.module, self.encoder = module, game.encoder(game.rules())

    def act(self, view: Any, rng: np.random.Generator) -> int:
        import torch

        obs = torch.from_numpy(self.encoder.encode(view))[None]
        mask = torch.tensor([[float(view.legal_mask >> a & 1)
                              for a in range(self.encoder.num_actions)]])  # fmt: skip
        with torch.no_grad():
            out = self.module.forward_inference({"obs": {"observations": obs, "action_mask": mask}})
        logits = out["action_dist_inputs"][0]
        return int(torch.argmax(torch.where(mask[0] > 0, logits, -1e30)))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default=game_names()[0], choices=game_names())
    p.add_argument("--iterations", type=int, default=20, help="RLlib training iterations")
    p.add_argument("--seconds", type=float, default=0, help="train for this wall time instead")
    p.add_argument("--batch", type=int, default=4000, help="decisions per iteration")
    p.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    p.add_argument("--runners", type=int, default=1, help="RLlib env runners (processes)")
    p.add_argument("--eval-deals", type=int, default=200, help="deals against the heuristic")
    p.add_argument("--ray-address", default="",
                   help="join this running cluster (auto, HOST:PORT); by default a Ray runtime "
                   "of its own is started here, never one a `ray start` left behind")  # fmt: skip
    args = p.parse_args(argv)
    if args.iterations < 1 or args.batch < 1 or args.eval_deals < 1 or args.runners < 0:
        p.error("--iterations, --batch and --eval-deals must be >= 1, --runners >= 0")
    import ray

    game = get_game(args.game)
    if args.ray_address:  # a running cluster: its resources are its own
        ray.init(address=args.ray_address, log_to_driver=False)
    else:  # "local" starts a runtime even where a `ray start` cluster is up (or left a file)
        ray.init(address="local", num_cpus=max(args.runners, 1) + 1, include_dashboard=False,
                 log_to_driver=False)  # fmt: skip
    try:
        algo, decisions, seconds, i = train_rllib(
            game, args.hidden, args.batch, args.runners, args.iterations, args.seconds
        )
        margin = margin_vs_heuristic(game, lambda: RLlibAgent(algo.get_module("shared"), game),
                                     args.eval_deals)  # fmt: skip
        algo.stop()
    finally:
        ray.shutdown()
    report = {"game": game.name, "iterations": i, "decisions": decisions, "seconds": seconds,
              "decisions_per_s": decisions / seconds, "vs_heuristic": margin}  # fmt: skip
    print(json.dumps(report))
    return 0


def train_rllib(
    game: AnyGame, hidden: list[int], batch: int, runners: int, iterations: int,
    seconds: float = 0,
) -> tuple[Any, int, float, int]:  # fmt: skip
    """Train RLlib's PPO for ``iterations`` (or until ``seconds`` of wall time, counting the
    algorithm's set-up); returns (the algorithm, decisions sampled, seconds, iterations)."""
    t0 = time.perf_counter()
    algo = build(game, hidden, batch, runners)
    decisions, i = 0, 0
    while (i < iterations and not seconds) or (seconds and time.perf_counter() - t0 < seconds):
        result = algo.train()
        decisions = int(result.get("num_env_steps_sampled_lifetime", decisions))
        i += 1
    return algo, decisions, time.perf_counter() - t0, i


def margin_vs_heuristic(game: AnyGame, factory: Any, n: int, label: str = "rllib") -> Any:
    """The agent's paired margin per deal over the heuristic on ``n`` fixed deals (seed
    12345), duplicate style, with its 95% interval."""
    deals = generate_deals(game, game.rules(), n, 12345)
    plan = make_plan(deals, [Entrant(label, factory), "heuristic"], seed=1)
    return _margin(summarize(run_arena(plan, 1)), label)


def _margin(summary: Any, label: str) -> dict[str, float]:
    """The paired margin of ``label`` over the heuristic per deal, with its interval."""
    pair = summary.pairs[0]
    sign = 1.0 if pair.a == label else -1.0
    low, high = sorted((sign * pair.diff.low, sign * pair.diff.high))
    return {"mean": sign * pair.diff.mean, "low": low, "high": high, "deals": summary.n_deals}


if __name__ == "__main__":
    sys.exit(main())
