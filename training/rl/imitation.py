"""Imitation pre-training: behaviour cloning from games of the baseline agents.

``expert_decisions`` plays deals on the vector runner with every seat taken by an expert agent
(``heuristic``, ``pimc``; one spec per deal, drawn in turn) and records each decision: the
seat's observation, its legal mask, the expert's action and the deal's return for that seat
(scaled), the same rows the self-play collector records. ``behaviour_clone`` fits the policy
head to the actions (cross-entropy over the masked logits) and the value head to the returns.
Passed-out deals count as real outcomes: their decisions and returns are kept like any other.
``imitate`` does both for a fresh run before self-play (``bc_decisions > 0``), logging
``imitation/`` scalars, then evaluates.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import torch

from mazzo.agents.base import act_batch
from mazzo.agents.nets import PolicyValueNet
from mazzo.agents.registry import make_agent
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame
from mazzo.envs.vector import VectorRunner

if TYPE_CHECKING:
    from mazzo.training.rl.run import Run

__all__ = ["Demonstrations", "behaviour_clone", "expert_decisions", "imitate"]


def imitate(run: Run, seed: np.random.SeedSequence, gen: torch.Generator) -> None:
    """Behaviour cloning of ``bc_experts`` into ``run``'s network (``bc_decisions`` of their
    decisions, ``bc_epochs`` passes at ``bc_lr``), then an evaluation (with ``eval_every``)."""
    t0 = time.perf_counter()
    cfg, net = run.cfg, run.net
    demos = expert_decisions(
        run.game, run.rules, cfg.bc_experts, cfg.bc_decisions, cfg.n_envs, seed, run.reward_scale
    )
    opt = torch.optim.Adam(net.parameters(), lr=cfg.bc_lr)
    stats = behaviour_clone(net, opt, demos, cfg.bc_epochs, cfg.minibatch, gen)
    for key, value in stats.items():
        run.writer.add_scalar(f"imitation/{key}", value, 0)
    run.say(
        f"imitation of {', '.join(cfg.bc_experts)}: {len(demos):,} decisions, accuracy "
        f"{stats['accuracy']:.1%}, value loss {stats['value']:.4f} "
        f"({time.perf_counter() - t0:.0f}s)"
    )
    if cfg.eval_every:
        run.evaluate()


@dataclass
class Demonstrations:
    """Expert decisions: ``obs (T, obs_size)``, ``mask (T, A)``, ``action (T,)``, ``ret (T,)``."""

    obs: npt.NDArray[np.float32]
    mask: npt.NDArray[np.int8]
    action: npt.NDArray[np.int64]
    ret: npt.NDArray[np.float32]

    def __len__(self) -> int:
        return len(self.action)


def expert_decisions(
    game: AnyGame, rules: RulesLike, experts: tuple[str, ...], n_decisions: int, n_envs: int,
    seed: np.random.SeedSequence, reward_scale: float,
) -> Demonstrations:  # fmt: skip
    """At least ``n_decisions`` decisions of complete deals played by ``experts``."""
    deal_seed, agent_seed = seed.spawn(2)
    runner = VectorRunner(game, n_envs, rules, seed=deal_seed)
    rng = np.random.default_rng(agent_seed)
    agents = [make_agent(spec, game) for spec in experts]
    expert_of = [i % len(agents) for i in range(n_envs)]
    deals_started = n_envs
    obs, mask, action, engine, seat = [], [], [], [], []
    ret_rows: list[float] = []
    open_rows: dict[int, list[int]] = {i: [] for i in range(n_envs)}
    b = runner.reset()
    recorded = 0
    while recorded < n_decisions or any(open_rows.values()):
        views = runner.views()
        acts = np.zeros(n_envs, np.int64)
        for k, agent in enumerate(agents):
            idx = [i for i in range(n_envs) if expert_of[i] == k]
            if idx:
                acts[idx] = act_batch(agent, [views[i] for i in idx], rng)
        for i in range(n_envs):
            if expert_of[i] < 0:  # an engine done with its last deal plays on, unrecorded
                acts[i] = int(np.flatnonzero(b.mask[i])[0])
        live = [i for i in range(n_envs) if expert_of[i] >= 0]
        obs.append(b.obs[live].copy())
        mask.append(b.mask[live].copy())
        action.append(acts[live])
        for i in live:
            open_rows[i].append(recorded)
            engine.append(i)
            seat.append(int(b.seat[i]))
            ret_rows.append(0.0)
            recorded += 1
        b = runner.step(acts)
        for i in np.flatnonzero(b.done).tolist():
            if expert_of[i] < 0:
                continue
            for row in open_rows[i]:
                ret_rows[row] = float(b.returns[i, seat[row]]) * reward_scale
            open_rows[i] = []
            if recorded >= n_decisions:
                expert_of[i] = -1  # finish the deals in flight, start no new ones
            else:
                expert_of[i] = deals_started % len(agents)
                deals_started += 1
        if all(e < 0 for e in expert_of):
            break
    return Demonstrations(
        np.concatenate(obs), np.concatenate(mask), np.concatenate(action),
        np.asarray(ret_rows, np.float32),
    )  # fmt: skip


def behaviour_clone(
    net: PolicyValueNet, opt: torch.optim.Optimizer, demos: Demonstrations, epochs: int,
    minibatch: int, gen: torch.Generator,
) -> dict[str, float]:  # fmt: skip
    """Fit the policy to the experts' actions and the value to their returns; returns the last
    epoch's mean losses and the policy's accuracy on the demonstrations."""
    obs, mask = torch.from_numpy(demos.obs), torch.from_numpy(demos.mask)
    act, ret = torch.from_numpy(demos.action), torch.from_numpy(demos.ret)
    n = len(demos)
    stats: dict[str, float] = {}
    for _ in range(epochs):
        order = torch.randperm(n, generator=gen)
        ce_sum = v_sum = 0.0
        for start in range(0, n, minibatch):
            idx = order[start : start + minibatch]
            v: torch.Tensor = torch.zeros(())
            if net.critic_extra:  # that critic needs the hidden cards: it learns in self-play
                logits = net.logits(obs[idx], mask[idx])
            else:
                logits, value = net(obs[idx], mask[idx])
                v = ((value - ret[idx]) ** 2).mean()
            ce = torch.nn.functional.cross_entropy(logits, act[idx])
            opt.zero_grad()
            loss: torch.Tensor = ce + v
            torch.autograd.backward([loss])
            opt.step()
            ce_sum += ce.item() * len(idx)
            v_sum += v.item() * len(idx)
        stats = {"cross_entropy": ce_sum / n, "value": v_sum / n}
    with torch.no_grad():
        hits = 0
        for start in range(0, n, 4096):
            sl = slice(start, start + 4096)
            hits += int((net.logits(obs[sl], mask[sl]).argmax(-1) == act[sl]).sum())
    return stats | {"accuracy": hits / n}
