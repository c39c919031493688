"""Playing a plan's deals on Ray (``--ray``, ``--ray-address``): the arena's workers as Ray
actors, each the local worker's table behind Ray (built once per actor from the plan, which
goes to the object store once), playing the same chunks as ``workers.play_parallel``.

Owns the scheduling on Ray and the replacement of lost workers; the chunks, their sizing and
their play are ``workers``' (``ChunkSizer``, ``play_chunk_with``), the runtime
``mazzo.agents.distributed``'s. A chunk names its deals, so it gives the same outcomes wherever it
runs, and results go into ``done`` by deal index: the run's results are those of a local run,
for any number of workers and any placement. At most ``IN_FLIGHT`` chunks per worker are
submitted at a time. A worker asks for one CPU, or a share of one when more workers are asked
for than the cluster has CPUs (``mazzo.agents.distributed.worker_cpus``).

Faults: when a worker's process dies (killed, its node lost), the chunks it held fail with
Ray's actor error; the worker is replaced by a new actor, the run says so (``say``), and those
chunks are played again. A chunk only counts when its result arrives, so no deal is lost or
counted twice. A chunk that has lost ``MAX_ATTEMPTS`` workers (it kills them itself, say by
running out of memory) ends the run with an ``ArenaError``. A lost head ends the run with Ray's
error. Ctrl-C kills the workers and keeps what was finished (``done``).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections import deque
from typing import TYPE_CHECKING, Any

from mazzo.agents.distributed import first_line, import_ray, worker_cpus
from mazzo.arena.table import ArenaError, Table
from mazzo.arena.workers import (
    Chunk,
    ChunkResult,
    ChunkSizer,
    DealPlayer,
    Done,
    Progress,
    TableFactory,
    play_chunk_with,
    record_chunk,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from mazzo.arena.plan import ArenaPlan

__all__ = ["IN_FLIGHT", "MAX_ATTEMPTS", "DealWorker", "play_ray"]

IN_FLIGHT = 2  # chunks submitted per worker at a time (one playing, one waiting)
MAX_ATTEMPTS = 3  # workers a chunk may lose before the run gives up


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class DealWorker:
    """The body of an arena worker on Ray: a table built once, playing chunks of deals."""

    def __init__(self, plan: ArenaPlan, table_type: TableFactory) -> None:
        self.table: DealPlayer = table_type(plan, None)

    def play(self, chunk: Chunk) -> ChunkResult:
        """Play a chunk of deals (see ``workers.play_chunk_with``)."""
        return play_chunk_with(self.table, chunk)

    def pid(self) -> int:
        """The worker's process id (to tell which process is which)."""
        return os.getpid()


class _Workers:
    """``n`` Ray actors in slots; a lost one is replaced in its slot (a new generation)."""

    def __init__(self, ray: Any, plan: ArenaPlan, n: int, table_type: TableFactory) -> None:
        self.ray = ray
        cpus = worker_cpus(float(ray.cluster_resources().get("CPU", 1.0)), n)
        self.remote = ray.remote(num_cpus=cpus, max_restarts=0, max_task_retries=0)(DealWorker)
        self.plan_ref = ray.put(plan)  # once: every worker reads it from the object store
        self.table_type = table_type
        self.actors = [self._new() for _ in range(n)]
        self.generation = [0] * n

    def _new(self) -> Any:
        return self.remote.remote(self.plan_ref, self.table_type)

    def replace(self, slot: int) -> None:
        with contextlib.suppress(Exception):  # it may be gone already
            self.ray.kill(self.actors[slot], no_restart=True)
        self.actors[slot] = self._new()
        self.generation[slot] += 1

    def close(self) -> None:
        for actor in self.actors:
            with contextlib.suppress(Exception):
                self.ray.kill(actor, no_restart=True)


def play_ray(
    plan: ArenaPlan, workers: int, done: Done, progress: Progress | None,
    table_type: TableFactory = Table, say: Callable[[str], None] = _stderr,
) -> None:  # fmt: skip
    """Play every deal on ``workers`` Ray actors into ``done``, each with a
    ``table_type(plan, None)``, on the Ray runtime this process is connected to.

    Raises:
        ArenaError: the first failing deal in deal order, or a chunk that lost
            ``MAX_ATTEMPTS`` workers.
        KeyboardInterrupt: interrupted (``done`` holds every deal finished by then).
    """
    ray = import_ray()
    lost_errors = (ray.exceptions.RayActorError, ray.exceptions.ActorUnavailableError)
    deals = plan.deal_set.deals
    pool = _Workers(ray, plan, workers, table_type)
    sizer = ChunkSizer(len(deals), len(done))  # a resumed run's done deals: a prefix
    running: dict[Any, tuple[int, int, Chunk, int]] = {}  # ref -> slot, generation, chunk, tries
    again: deque[tuple[Chunk, int]] = deque()  # chunks of lost workers, to play again
    load = [0] * workers
    errors: dict[int, str] = {}  # first failing deal -> message

    def submit(chunk: Chunk, tries: int) -> None:
        slot = min(range(workers), key=load.__getitem__)
        ref = pool.actors[slot].play.remote(chunk)
        running[ref] = (slot, pool.generation[slot], chunk, tries)
        load[slot] += 1

    def lost(slot: int, generation: int, chunk: Chunk, tries: int, e: BaseException) -> None:
        first, last = chunk[0], chunk[0] + len(chunk[1]) - 1
        if tries + 1 >= MAX_ATTEMPTS:
            raise ArenaError(
                f"deals {first}..{last} lost {MAX_ATTEMPTS} Ray workers in a row; the last: "
                f"{first_line(e)}"
            )
        if generation == pool.generation[slot]:  # the first news of this loss: replace it
            pool.replace(slot)
            load[slot] = 0  # the old actor's other chunks fail and come back here too
            say(
                f"ray: arena worker {slot} was lost ({first_line(e)}); replaced by a new one, "
                "its unfinished deals are played again"
            )
        again.append((chunk, tries + 1))

    try:
        while True:
            while sum(load) < IN_FLIGHT * workers:
                if again and (not errors or again[0][0][0] < min(errors)):
                    submit(*again.popleft())  # a chunk before a failure still counts
                elif not errors and (nxt := sizer.take()):
                    first, size = nxt
                    submit((first, tuple(deals[first : first + size])), 0)
                else:
                    break
            if not running:
                break
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                slot, generation, chunk, tries = running.pop(ref)
                if generation == pool.generation[slot]:
                    load[slot] -= 1
                try:
                    result = ray.get(ref)
                except lost_errors as e:
                    lost(slot, generation, chunk, tries, e)
                    continue
                except ray.exceptions.RayTaskError as e:  # an agent's bug: raise it as it is
                    cause = getattr(e, "cause", None)
                    raise (cause if isinstance(cause, BaseException) else e) from None
                record_chunk(result, done, sizer, progress, errors)
    finally:
        pool.close()
    if errors:
        raise ArenaError(errors[min(errors)])
