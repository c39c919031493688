"""The multiprocessing context of mazzo's worker processes (the trainer's actors, the arena's
workers) once torch is in play.

A process that has started torch's thread pool must not ``fork``: a child can deadlock on a
lock one of its threads held. Such workers come from a *forkserver*, a fresh process that
imports the given modules once (torch, the games, the agents) and forks every worker from that
state, so a worker starts in milliseconds instead of importing torch again. Where the platform
has no forkserver (Windows), workers are spawned.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from multiprocessing.context import ForkServerContext, SpawnContext

__all__ = ["torch_safe_context"]


def torch_safe_context(preload: Sequence[str]) -> ForkServerContext | SpawnContext:
    """A forkserver context that preloads ``preload`` (module names), or ``spawn`` where the
    platform has no forkserver.

    The preload takes effect when the forkserver starts, at the first worker of this process;
    a later call's modules are imported by the workers themselves.
    """
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(list(preload))
    return ctx
