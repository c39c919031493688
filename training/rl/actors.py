"""Actors: the self-play collectors, in worker processes so that collection uses every core.

An actor is the narrow unit a later scale-out (Ray) would distribute: weights (and the pool's
snapshots when they change) in, finished rollouts out. Each actor owns a ``Collector`` on its
own engines and its own seed (spawned from the run's root), so the run is deterministic for a
given number of actors whatever the timing. ``n_actors = 0`` keeps one collector in the
learner's process. An actor is sent the game and its ``Rules`` as objects (the game crosses to
the process by its registry name, looked up there once).

The learner sends every actor the same request and waits for all (synchronous on-policy PPO):
actors collect in parallel, then the learner updates with its threads while they wait.
"""

from __future__ import annotations

import contextlib
import signal
from dataclasses import dataclass, fields
from multiprocessing.connection import Connection
from typing import Any

import numpy as np
import torch

from mazzo.agents.nets import PolicyValueNet
from mazzo.agents.processes import torch_safe_context
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame
from mazzo.training.rl.collect import Collector, Rollout
from mazzo.training.rl.opponents import OpponentPool

__all__ = ["ActorSpec", "Actors", "check_actor_count", "merge_rollouts"]


@dataclass(frozen=True)
class ActorSpec:
    """What an actor needs to build its collector (picklable: a game pickles as its name)."""

    game: AnyGame
    rules: RulesLike
    n_envs: int
    seed: np.random.SeedSequence
    pool_agents: tuple[str, ...]
    self_play: float
    max_snapshots: int
    reward_scale: float
    gamma: float
    lam: float
    hidden: tuple[int, ...]
    critic_extra: int = 0
    mc_phases: tuple[int, ...] = ()

    def build(self) -> tuple[Collector, PolicyValueNet, OpponentPool]:
        pool = OpponentPool(
            self.game, self.pool_agents, self.self_play, self.max_snapshots, self.rules
        )
        collector = Collector(
            self.game, self.rules, self.n_envs, self.seed, pool, self.reward_scale, self.gamma,
            self.lam, self.mc_phases,
        )  # fmt: skip
        enc = collector.encoder
        net = PolicyValueNet(enc.obs_size, enc.num_actions, self.hidden, self.critic_extra)
        return collector, net, pool


def merge_rollouts(parts: list[Rollout]) -> Rollout:
    """One rollout of several actors' (rows in actor order)."""
    if len(parts) == 1:
        return parts[0]
    cat = {
        f.name: np.concatenate([getattr(p, f.name) for p in parts])
        for f in fields(Rollout)
        if f.name != "deals"
    }
    return Rollout(**cat, deals=sum(p.deals for p in parts))


def _actor_main(spec: ActorSpec, conn: Connection) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the learner stops the run, then the actors
    torch.set_num_threads(1)
    collector, net, pool = spec.build()
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):  # the learner is gone (killed): nothing left to do
            return
        kind = msg[0]
        if kind == "collect":
            _, weights, pool_state, n, epsilon = msg
            net.load_state_dict(weights)
            if pool_state is not None:
                pool.restore(pool_state)
            conn.send(collector.collect(net, n, epsilon))
        elif kind == "state":
            conn.send(collector.state())
        elif kind == "restore":
            collector.restore(msg[1])
            conn.send(None)
        else:
            conn.close()
            return


def check_actor_count(states: list[dict[str, Any]], actors: int) -> None:
    """Refuse a checkpoint's collector states of another number of actors than ``actors``.

    Raises:
        ValueError: naming both counts.
    """
    if len(states) != actors:
        raise ValueError(f"the checkpoint has {len(states)} actor(s); this run has {actors}")


class Actors:
    """``n`` actor processes (or, for ``n = 0``, one collector here) sharing the work.

    Each collects ``n_decisions / max(n, 1)`` decisions per request.
    """

    def __init__(self, specs: list[ActorSpec], local: bool) -> None:
        self.specs = specs
        self.local = local
        self._pool_version = -1
        if local:
            self.collector, self.net, self.pool = specs[0].build()
            self._conns: list[Connection] = []
            self._procs: list[Any] = []
            return
        # never forked from the learner (its torch threads may hold locks): from a forkserver
        # that has imported this module (torch, the games, the agents) once
        ctx = torch_safe_context([__name__])
        self._conns, self._procs = [], []
        for spec in specs:
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=_actor_main, args=(spec, theirs), daemon=True)
            proc.start()
            self._conns.append(mine)
            self._procs.append(proc)

    def collect(
        self, net: PolicyValueNet, pool: OpponentPool, pool_version: int, n_decisions: int,
        epsilon: float | None = None,
    ) -> Rollout:  # fmt: skip
        """Rollouts of every actor with ``net``'s weights, merged (``epsilon``: see
        ``Collector.collect``)."""
        share = -(-n_decisions // len(self.specs))
        if self.local:
            if pool_version != self._pool_version:
                self.pool.restore(pool.state())
                self._pool_version = pool_version
            return self.collector.collect(net, share, epsilon)
        weights = {k: v.detach().clone() for k, v in net.state_dict().items()}
        pool_state = pool.state() if pool_version != self._pool_version else None
        self._pool_version = pool_version
        for conn in self._conns:
            conn.send(("collect", weights, pool_state, share, epsilon))
        return merge_rollouts([conn.recv() for conn in self._conns])

    def state(self) -> list[dict[str, Any]]:
        """Every actor's collector state (for a checkpoint)."""
        if self.local:
            return [self.collector.state()]
        for conn in self._conns:
            conn.send(("state",))
        return [conn.recv() for conn in self._conns]

    def restore(self, states: list[dict[str, Any]]) -> None:
        """Put every actor's collector back (states of the same number of actors).

        Raises:
            ValueError: a different number of actors.
        """
        check_actor_count(states, len(self.specs))
        if self.local:
            self.collector.restore(states[0])
            return
        for conn, st in zip(self._conns, states, strict=True):
            conn.send(("restore", st))
        for conn in self._conns:
            conn.recv()

    def close(self) -> None:
        for conn in self._conns:
            with contextlib.suppress(BrokenPipeError, OSError):
                conn.send(("stop",))
        for proc in self._procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
