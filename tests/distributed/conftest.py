"""A real Ray cluster on this machine for the tests of this folder: a head and a second node
(separate raylets and object stores, on loopback), one CPU each (this 2-core
machine's budget), started once for this folder's tests (and stopped after them, so its processes leave the rest of the suite alone) with Ray's own cluster utilities and joined
by the test process, so ``ray=address`` work in the tests runs on it. Skipped where Ray is not
installed (the extra ``mazzo[distributed]``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# Loopback only: Ray binds its nodes to the address of the interface that routes outward unless
# it thinks multi-node clusters are off (``ray_constants.ENABLE_RAY_CLUSTER``, read from this
# variable when ray is imported); then every node, the GCS and the raylets, listen on 127.0.0.1.
# Set before ray is imported here, and inherited by the nodes and the commands the tests run.
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")

ROOT = Path(__file__).resolve().parents[2]
NODE = {"num_cpus": 1, "object_store_memory": 100 * 1024**2}


@pytest.fixture(scope="package")
def cluster() -> Iterator[str]:
    """The address of a running two-node cluster this process is connected to."""
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    head = NODE | {"include_dashboard": False}
    c = Cluster(initialize_head=True, head_node_args=head)
    try:
        c.add_node(**NODE)
        c.wait_for_nodes()
        # the workers import the tests' own helpers (tests.distributed.tables) too
        path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
        ray.init(address=c.address, runtime_env={"env_vars": {"PYTHONPATH": path}})
        try:
            alive = [n for n in ray.nodes() if n["Alive"]]
            assert len(alive) == 2
            assert {n["NodeManagerAddress"] for n in alive} == {"127.0.0.1"}, "not on loopback"
            yield c.address
        finally:
            ray.shutdown()
    finally:
        c.shutdown()
