"""Playing a plan's deals, in this process or over worker processes, in contiguous chunks
sized from the measured time per deal (the deals of a chunk are played together:
``Table.play_deals``), and stopping cleanly on an interrupt.

Owns the scheduling only (the game loop is ``table``'s). Results go into a dict deal index ->
outcomes that the caller keeps, so that whatever was finished when an interrupt came is still
there. Chunks start at one deal and grow until one takes about ``CHUNK_SECONDS`` of time
(at most ``MAX_CHUNK`` deals), so progress moves from the first finished deals on, whether an
agent takes microseconds or seconds. A chunk is timed by the larger of its CPU time and
``WALL_SHARE`` of its wall time: CPU time keeps chunks large enough on a busy machine for
agents that decide many games at once, and the wall-time share keeps agents that wait (a
remote bot, a sleep, I/O: little CPU) from getting chunks that run for many seconds without
progress. Chunking does not change
results (``runner``'s guarantee).

What plays a chunk is a ``Table`` by default; a caller may pass another ``TableFactory``
(``(plan, should_stop) -> an object with Table's play_deals``, picklable: it is sent to the
workers), as the search labels of ``mazzo.training.search_labels`` do to record the decisions.

Ray (``--ray``) plays the same chunks on Ray actors instead of processes
(``mazzo.arena.ray_workers``), with the same sizing (``ChunkSizer``) and the same results.

Interrupts: workers ignore Ctrl-C's ``KeyboardInterrupt``; a ``SIGINT`` only sets their stop
flag, checked before every round of decisions, so a worker abandons its current games at once
and returns the deals of its chunk it had finished. On ``KeyboardInterrupt`` in this process,
the pending chunks are cancelled, the workers are sent ``SIGINT`` (they get it from the
terminal too), and their answers collected; a second interrupt while waiting terminates them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import TYPE_CHECKING, Protocol

from mazzo.agents.processes import torch_safe_context
from mazzo.arena.table import ArenaError, GameOutcome, Played, Table
from mazzo.envs.cards.deal import Deal

if TYPE_CHECKING:
    from mazzo.arena.plan import ArenaPlan

__all__ = [
    "CHUNK_SECONDS",
    "MAX_CHUNK",
    "Chunk",
    "ChunkResult",
    "ChunkSizer",
    "DealPlayer",
    "Done",
    "Progress",
    "TableFactory",
    "play_chunk_with",
    "play_parallel",
    "play_serial",
]

CHUNK_SECONDS = 1.0  # aimed time of one chunk of deals (see the module on how it is timed)
WALL_SHARE = 0.5  # a chunk's time is at least this share of its wall time
MAX_CHUNK = 256  # deals played together: networks decide a round of them in one pass
Done = dict[int, tuple[GameOutcome, ...]]
Chunk = tuple[int, tuple[Deal, ...]]
"""The index of a chunk's first deal and its deals."""
ChunkResult = tuple[int, list[tuple[GameOutcome, ...]], str | None, float]
"""A played chunk: its first deal, the outcomes of the deals finished in order, the first
failure's message (or None) and the chunk's time (see the module)."""


class Progress(Protocol):
    """What the runner reports progress to (``progress.ProgressBar`` is one)."""

    def start(self, total: int) -> None: ...
    def advance(self, n: int) -> None: ...


class DealPlayer(Protocol):
    """What plays a chunk of deals (``Table`` is one)."""

    def play_deals(self, start: int, deals: Sequence[Deal]) -> Played: ...


TableFactory = Callable[["ArenaPlan", Callable[[], bool] | None], DealPlayer]
"""``(plan, should_stop) -> DealPlayer``; ``Table`` itself is the default."""


def play_serial(
    plan: ArenaPlan, done: Done, progress: Progress | None, table_type: TableFactory = Table
) -> None:
    """Play every deal in this process, in order, into ``done``, in chunks of deals played
    together (sized like the workers' chunks), with a ``table_type(plan, None)``. The deals
    already in ``done`` (a prefix: a resumed run's) are not played again.

    Raises:
        ArenaError: the first failing deal (``done`` holds the deals before it).
    """
    table = table_type(plan, None)
    deals = plan.deal_set.deals
    sizer = ChunkSizer(len(deals), len(done))  # a resumed run's done deals: a prefix
    while nxt := sizer.take():
        first, size = nxt
        start, played, error, seconds = play_chunk_with(table, (first, deals[first : first + size]))
        done.update((start + j, o) for j, o in enumerate(played))
        sizer.record(len(played), seconds)
        if progress is not None and played:
            progress.advance(len(played))
        if error is not None:
            raise ArenaError(error)


# ---------------------------------------------------------------- worker side
_WORKER: DealPlayer | None = None
_STOP = False


def _on_sigint(signum: int, frame: object) -> None:
    global _STOP
    _STOP = True


def _init_worker(plan: ArenaPlan, table_type: TableFactory = Table) -> None:
    global _WORKER, _STOP
    _STOP = False
    signal.signal(signal.SIGINT, _on_sigint)
    _WORKER = table_type(plan, lambda: _STOP)


def play_chunk_with(table: DealPlayer, chunk: Chunk) -> ChunkResult:
    """Play a chunk's deals in order; stop at the first failure (and return its message) or
    when asked to stop."""
    start, deals = chunk
    began, began_wall = time.process_time(), time.perf_counter()
    played = table.play_deals(start, deals)
    cpu, wall = time.process_time() - began, time.perf_counter() - began_wall
    return start, played.outcomes, played.error, max(cpu, WALL_SHARE * wall)


def _play_chunk(chunk: Chunk) -> ChunkResult:
    assert _WORKER is not None, "worker not initialised"
    return play_chunk_with(_WORKER, chunk)


# ---------------------------------------------------------------- parent side
class ChunkSizer:
    """The next chunk, from deal ``start`` on: one deal until one is timed, then about
    CHUNK_SECONDS of deals at the rate of the latest chunk timed (larger chunks play faster per
    deal: batched agents)."""

    def __init__(self, n: int, start: int = 0) -> None:
        self.n, self.next_start = n, start
        self.deals_timed, self.seconds = 0, 0.0

    def record(self, deals: int, seconds: float) -> None:
        if deals and seconds > 0:
            self.deals_timed, self.seconds = deals, seconds

    def take(self) -> tuple[int, int] | None:
        if self.next_start >= self.n:
            return None
        size = 1
        if self.deals_timed and self.seconds > 0:
            size = int(CHUNK_SECONDS * self.deals_timed / self.seconds)
        size = max(1, min(MAX_CHUNK, size, self.n - self.next_start))
        start, self.next_start = self.next_start, self.next_start + size
        return start, size


def record_chunk(
    result: ChunkResult, done: Done, sizer: ChunkSizer, progress: Progress | None,
    errors: dict[int, str],
) -> None:  # fmt: skip
    """Book a finished chunk (from a process or a Ray worker): its games into ``done``, its
    time into ``sizer``, its deals into ``progress``, its failing deal (if any) into
    ``errors`` (first failing deal -> message)."""
    start, played, error, seconds = result
    done.update((start + j, o) for j, o in enumerate(played))
    sizer.record(len(played), seconds)
    if progress is not None and played:
        progress.advance(len(played))
    if error is not None:
        errors[start + len(played)] = error


def play_parallel(
    plan: ArenaPlan, workers: int, done: Done, progress: Progress | None,
    table_type: TableFactory = Table,
) -> None:  # fmt: skip
    """Play every deal over ``workers`` processes into ``done``, each with a
    ``table_type(plan, should_stop)``; the deals already in ``done`` (a prefix) are not played
    again.

    Raises:
        ArenaError: the first failing deal in deal order (chunks after it are cancelled, the
            ones before allowed to finish).
        KeyboardInterrupt: interrupted (``done`` holds every deal finished by then).
    """
    deals = plan.deal_set.deals
    # With torch loaded (network agents) this process must not fork its workers.
    ctx = torch_safe_context(["torch", __name__]) if "torch" in sys.modules else None
    pool = ProcessPoolExecutor(workers, ctx, initializer=_init_worker, initargs=(plan, table_type))
    running: dict[Future[ChunkResult], int] = {}
    sizer = ChunkSizer(len(deals), len(done))  # a resumed run's done deals: a prefix
    errors: dict[int, str] = {}  # first failing deal -> message

    def finish(future: Future[ChunkResult]) -> None:
        result = future.result()
        record_chunk(result, done, sizer, progress, errors)
        if result[2] is not None:  # a failing deal: cancel the chunks after it
            start = result[0]
            for other, first in running.items():
                if first > start:
                    other.cancel()

    try:
        while True:
            while not errors and len(running) < 2 * workers and (nxt := sizer.take()):
                first, size = nxt
                running[pool.submit(_play_chunk, (first, deals[first : first + size]))] = first
            if not running:
                break
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                running.pop(future)
                if not future.cancelled():
                    finish(future)
    except KeyboardInterrupt:
        _stop_workers(pool, running, finish)
        raise
    except BaseException:
        _stop_workers(pool, running, lambda f: None)
        raise
    pool.shutdown(wait=True)
    if errors:
        raise ArenaError(errors[min(errors)])
    if len(done) < len(deals):  # a worker was sent SIGINT on its own: stopped all the same
        raise KeyboardInterrupt


def _stop_workers(
    pool: ProcessPoolExecutor,
    running: dict[Future[ChunkResult], int],
    finish: Callable[[Future[ChunkResult]], None],
) -> None:
    """Cancel what has not started, ask the workers to stop and keep what they finished; on a
    second interrupt, terminate them."""
    for future in running:
        future.cancel()
    processes = list(pool._processes.values())  # no public access to the workers
    try:
        for p in processes:
            if p.pid is not None and p.is_alive():
                os.kill(p.pid, signal.SIGINT)
        for future in list(running):
            if not future.cancelled():
                with contextlib.suppress(Exception):  # an agent bug after the interrupt
                    finish(future)
        pool.shutdown(wait=True)
    except KeyboardInterrupt:
        for p in processes:
            p.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
