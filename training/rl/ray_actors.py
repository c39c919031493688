"""The trainers' self-play actors on Ray (``mazzo train ... --ray`` / ``--ray-address``): each
actor is the local actor behind Ray (``actors.ActorSpec.build``: the same collector and network
on the same seed), the learner stays in this process.

Owns ``RayActors``, the same interface as ``actors.Actors`` (``collect``, ``state``,
``restore``, ``close``). Per update the learner puts the weights into Ray's object store once
(one version, read by every actor), and the pool's state once per pool version; every actor
collects its share and returns its rollout with its collector's state after it. The rollouts
are merged in actor order, so a run with k actors on Ray gives the same weights as the same
config with k local actor processes, and its checkpoints resume either way.

Faults: when an actor's process dies (killed, its node lost), its collection fails with Ray's
actor error; a new actor replaces it from its spec, is put back in the state the lost one had
before that collection (the state the learner keeps from each finished collection) and
collects the same share again with the same weights: no trajectory is lost or counted twice,
and the weights are those of a run without the fault. The run says what happened. A lost head
(or learner) ends the run; its last checkpoint resumes it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from typing import Any

import numpy as np
import torch

from mazzo.agents.distributed import first_line, import_ray, ray_session, worker_cpus
from mazzo.agents.nets import PolicyValueNet
from mazzo.training.rl.actors import ActorSpec, check_actor_count, merge_rollouts
from mazzo.training.rl.collect import Rollout
from mazzo.training.rl.opponents import OpponentPool

__all__ = ["MAX_ATTEMPTS", "ActorBody", "RayActors"]

MAX_ATTEMPTS = 3  # actors one share of a collection may lose before the run gives up

Weights = dict[str, np.ndarray[Any, Any]]


class ActorBody:
    """The body of a self-play actor on Ray: the local actor's collector, network and pool."""

    def __init__(self, spec: ActorSpec) -> None:
        torch.set_num_threads(1)  # as the local actor processes: the same arithmetic
        self.collector, self.net, self.pool = spec.build()

    def collect(
        self, weights: Weights, pool_state: dict[str, Any] | None, n: int, epsilon: float | None
    ) -> tuple[Rollout, dict[str, Any]]:
        """A rollout of ``n`` decisions with ``weights`` (and the pool's new state, if any),
        with the collector's state after it."""
        self.net.load_state_dict({k: torch.from_numpy(v.copy()) for k, v in weights.items()})
        if pool_state is not None:
            self.pool.restore(pool_state)
        roll = self.collector.collect(self.net, n, epsilon)
        return roll, self.collector.state()

    def state(self) -> dict[str, Any]:
        """The collector's state (for a checkpoint)."""
        return self.collector.state()

    def restore(self, state: dict[str, Any]) -> None:
        """Put the collector back where ``state`` was taken."""
        self.collector.restore(state)

    def pid(self) -> int:
        """The actor's process id (to tell which process is which)."""
        return os.getpid()


class RayActors:
    """``len(specs)`` actors on the Ray runtime at ``address`` (``mazzo.agents.distributed``),
    each collecting ``n_decisions / len(specs)`` decisions per request. ``say`` hears what
    happened to a lost actor."""

    def __init__(self, specs: list[ActorSpec], address: str, say: Callable[[str], None]) -> None:
        self.ray = import_ray()
        self.specs, self.say = specs, say
        self._session = contextlib.ExitStack()
        cluster = self._session.enter_context(ray_session(address))
        cpus = worker_cpus(cluster.cpus, len(specs))
        self._remote = self.ray.remote(num_cpus=cpus, max_restarts=0, max_task_retries=0)(ActorBody)
        self._lost = (self.ray.exceptions.RayActorError, self.ray.exceptions.ActorUnavailableError)
        self.actors = [self._remote.remote(spec) for spec in specs]
        self.states: list[dict[str, Any] | None] = [None] * len(specs)  # None: as built
        self._pool_version = -1
        self._pool_ref: Any = None

    def collect(
        self, net: PolicyValueNet, pool: OpponentPool, pool_version: int, n_decisions: int,
        epsilon: float | None = None,
    ) -> Rollout:  # fmt: skip
        """Rollouts of every actor with ``net``'s weights, merged in actor order."""
        share = -(-n_decisions // len(self.specs))
        weights = self.ray.put(
            {k: v.detach().cpu().numpy().copy() for k, v in net.state_dict().items()}
        )
        fresh = pool_version != self._pool_version
        if fresh:
            self._pool_ref = self.ray.put(pool.state())
            self._pool_version = pool_version
        pool_ref = self._pool_ref if fresh else None
        refs = [a.collect.remote(weights, pool_ref, share, epsilon) for a in self.actors]
        parts = []
        for i, ref in enumerate(refs):
            for attempt in range(1, MAX_ATTEMPTS + 1):
                try:
                    roll, state = self.ray.get(ref)
                    break
                except self._lost as e:
                    if attempt == MAX_ATTEMPTS:
                        raise RuntimeError(
                            f"actor {i} was lost {MAX_ATTEMPTS} times in one collection; the "
                            f"last: {first_line(e)}"
                        ) from None
                    self._replace(i, e)
                    ref = self.actors[i].collect.remote(weights, self._pool_ref, share, epsilon)
            self.states[i] = state
            parts.append(roll)
        return merge_rollouts(parts)

    def _replace(self, i: int, e: BaseException) -> None:
        """A new actor ``i`` in the state the lost one had before its last collection."""
        with contextlib.suppress(Exception):
            self.ray.kill(self.actors[i], no_restart=True)
        self.actors[i] = self._remote.remote(self.specs[i])
        if self.states[i] is not None:
            self.actors[i].restore.remote(self.states[i])  # runs before its next collection
        self.say(
            f"ray: self-play actor {i} was lost ({first_line(e)}); replaced by a new one in "
            "its last state, its share of this rollout is collected again"
        )

    def pids(self) -> list[int]:
        """The actors' process ids."""
        return [int(p) for p in self.ray.get([a.pid.remote() for a in self.actors])]

    def state(self) -> list[dict[str, Any]]:
        """Every actor's collector state (for a checkpoint)."""
        missing = [i for i, s in enumerate(self.states) if s is None]
        if missing:
            got = self.ray.get([self.actors[i].state.remote() for i in missing])
            for i, s in zip(missing, got, strict=True):
                self.states[i] = s
        return [s for s in self.states if s is not None]

    def restore(self, states: list[dict[str, Any]]) -> None:
        """Put every actor's collector back (states of the same number of actors).

        Raises:
            ValueError: a different number of actors.
        """
        check_actor_count(states, len(self.specs))
        self.ray.get([a.restore.remote(s) for a, s in zip(self.actors, states, strict=True)])
        self.states = list(states)

    def close(self) -> None:
        for actor in self.actors:
            with contextlib.suppress(Exception):
                self.ray.kill(actor, no_restart=True)
        self._session.close()
