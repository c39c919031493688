"""The Ray runtime mazzo's distributed work runs on (the optional extra ``mazzo[distributed]``):
importing Ray with an error that says how to install it, and a session on a runtime.

Owns ``ray_session``, the one place that starts or joins a runtime: ``"local"`` starts a
Ray runtime of this machine's own (``--ray``); any other address joins a running cluster
(``--ray-address``: ``auto``, ``HOST:PORT`` or ``ray://HOST:PORT``). A session started here is
shut down when it ends; one already open in this process (``ray.init`` called by a caller, as
the tests do) is used as it is and left open. Ray's worker logs are not copied into this
process's output (Ray keeps them in its session's log folder); the cluster's error notices (a
worker that died, even one of an earlier job) still print, as lines prefixed ``(raylet)``. The
work that runs on it lives beside its local form: the arena's workers
(``mazzo.arena.ray_workers``), the trainers' actors (``mazzo.training.rl.ray_actors``), the
search labels (through the arena's workers).

Nothing here imports Ray at import time: without the extra, mazzo runs as before and only a
request for Ray says what is missing.
"""

from __future__ import annotations

import logging
import math
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

__all__ = [
    "INSTALL_HINT",
    "LOCAL",
    "Cluster",
    "RayNotInstalled",
    "check_address",
    "first_line",
    "import_ray",
    "ray_session",
    "worker_cpus",
]

LOCAL = "local"  # the address of a runtime started here (``--ray``)
INSTALL_HINT = "pip install 'mazzo[distributed]'"


class RayNotInstalled(ValueError):
    """Ray was asked for but is not installed (its message says how to install it)."""


def import_ray() -> ModuleType:
    """The ``ray`` module. Raises RayNotInstalled naming the extra to install."""
    try:
        import ray
    except ImportError as e:
        raise RayNotInstalled(
            f"--ray needs Ray, which is not installed ({e.msg}); install it with: {INSTALL_HINT}"
        ) from None
    return ray


@dataclass(frozen=True)
class Cluster:
    """The runtime a session is on.

    Attributes:
        address: the address asked for (``LOCAL`` for a runtime started here).
        cpus: the CPUs of the whole cluster (the default number of workers).
        nodes: the live nodes.
    """

    address: str
    cpus: int
    nodes: int


def check_address(address: str) -> str:
    """``address`` if it can name a runtime (not empty, no spaces). Raises ValueError."""
    if not isinstance(address, str) or not address.strip() or any(c.isspace() for c in address):
        raise ValueError(
            f"--ray-address {address!r}: give a cluster address (auto, HOST:PORT or "
            "ray://HOST:PORT), or --ray for a local runtime"
        )
    return address


@contextmanager
def ray_session(address: str, num_cpus: int | None = None) -> Iterator[Cluster]:
    """A Ray runtime for the ``with`` block: started here for ``LOCAL`` (with ``num_cpus``,
    default all cores), else joined at ``address``; one already open in this process is used
    as it is.

    Raises:
        RayNotInstalled: Ray is not installed.
        ValueError: a malformed address, or no cluster answers at it (Ray's reason said).
    """
    ray = import_ray()
    check_address(address)
    started = False
    if not ray.is_initialized():
        # log_to_driver off: mazzo's report owns this process's stdout, mazzo reports a lost
        # worker itself, and the workers' logs stay under the session's log folder
        # (/tmp/ray/session_latest/logs).
        options: dict[str, object] = {"logging_level": logging.WARNING, "log_to_driver": False}
        if address == LOCAL:
            options |= {"include_dashboard": False, "num_cpus": num_cpus or os.cpu_count() or 1}
        try:
            _init(ray, address, options)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise ValueError(
                f"cannot join the Ray cluster at {address!r}: {first_line(e)}{_auth_hint()}"
            ) from None
        started = True
    try:
        nodes = [n for n in ray.nodes() if n.get("Alive")]
        cpus = int(ray.cluster_resources().get("CPU", 1))
        yield Cluster(address, max(cpus, 1), len(nodes))
    finally:
        if started:
            ray.shutdown()


AUTH_MODE = "RAY_AUTH_MODE"
TOKEN_SOURCES = ("RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH")


def token_path() -> Path:
    """Where ``ray start`` and ``ray get-auth-token --generate`` keep a cluster's token."""
    return Path.home() / ".ray" / "auth_token"


def _init(ray: ModuleType, address: str, options: dict[str, object]) -> None:
    """``ray.init``, Ray's retry warnings kept out of the output; a join the cluster refused
    for want of its token is tried once more with the token at hand (``use_cluster_token``)."""
    with _quiet_ray_retries() as log:
        start = log.stat().st_size if log.exists() else 0
        try:
            ray.init(address=address, **options)
            return
        except (ConnectionError, RuntimeError, ValueError):
            if address == LOCAL or not _refused_for_token(log, start) or not use_cluster_token():
                raise
        ray.shutdown()
        ray.init(address=address, **options)


def _refused_for_token(log: Path, start: int) -> bool:
    """Whether Ray's client logged, since offset ``start``, that the cluster wants a token."""
    try:
        with open(log, "rb") as f:
            f.seek(start)
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return False
    return "InvalidAuthToken" in text or "Unauthenticated" in text


def use_cluster_token() -> bool:
    """Turn token authentication on for this process where it is off by default and a token
    is at hand; returns whether it did.

    Ray 2.59 and later start a cluster (``ray start --head``) with token authentication on
    wherever a token exists (``~/.ray/auth_token``), but a process that joins it sends the
    token only with ``RAY_AUTH_MODE=token``. Where ``RAY_AUTH_MODE`` is unset and a token is
    found (``RAY_AUTH_TOKEN``, ``RAY_AUTH_TOKEN_PATH`` or that file), this sets it, as Ray's own
    ``ray.init()`` does for a cluster it starts; an explicit ``RAY_AUTH_MODE`` is left alone.
    """
    if os.environ.get(AUTH_MODE) is not None:
        return False
    if not (any(os.environ.get(k) for k in TOKEN_SOURCES) or token_path().is_file()):
        return False
    os.environ[AUTH_MODE] = "token"
    try:  # Ray caches its config at import: let this process see the mode too
        from ray._raylet import Config  # type: ignore[attr-defined]

        Config.initialize("")
    except (ImportError, AttributeError):
        pass
    return True


def _auth_hint() -> str:
    """What to do about a join refused for its token (the cluster's and ours differ)."""
    if os.environ.get(AUTH_MODE, "").lower() == "token":
        return (
            "; if the cluster uses token authentication, give this machine its token: "
            "RAY_AUTH_TOKEN=... or the file ~/.ray/auth_token (ray get-auth-token on the head)"
        )
    return (
        "; a cluster with token authentication (the default of ray start since Ray 2.59) "
        "needs its token here: RAY_AUTH_TOKEN=... or ~/.ray/auth_token (ray get-auth-token)"
    )


@contextmanager
def _quiet_ray_retries() -> Iterator[Path]:
    """Ray's C++ client prints a warning per retry on fd 2 while it cannot reach a cluster
    (about twenty lines before it gives up): keep them out of the command's output, in a log
    file instead (yielded; mazzo says why the join failed in one line)."""
    log = Path(tempfile.gettempdir()) / "mazzo-ray-join.log"
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no real fd 2 (a captured stream): nothing to keep out
        yield log
        return
    try:
        with open(log, "ab") as f:
            os.dup2(f.fileno(), 2)
        yield log
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def first_line(e: BaseException) -> str:
    """``Type: the first line of the message`` of an error (Ray's run over many lines)."""
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0]}" if text else type(e).__name__


def worker_cpus(cpus: float, n: int) -> float:
    """The CPUs each of ``n`` workers (or actors) asks Ray for on a cluster of ``cpus``: one,
    or when there are more workers than CPUs ``1/m`` with ``m = ceil(n / cpus)``, so that every
    worker is placed (a worker waiting for a CPU would hold its work forever) whatever the
    nodes' sizes (each whole CPU of a node takes ``m`` of them)."""
    if n <= cpus:
        return 1.0
    return 1.0 / math.ceil(n / max(cpus, 1.0))
