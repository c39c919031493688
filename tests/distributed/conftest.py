"""A real Ray cluster on this machine for the tests of this folder: a head and a second node
(separate raylets and object stores on the machine's own address), one CPU each (this 2-core
machine's budget), started once per test session with Ray's own cluster utilities and joined
by the test process, so ``ray=address`` work in the tests runs on it. Skipped where Ray is not
installed (the extra ``mazzo[distributed]``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE = {"num_cpus": 1, "object_store_memory": 100 * 1024**2}


@pytest.fixture(scope="session")
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
            assert len([n for n in ray.nodes() if n["Alive"]]) == 2
            yield c.address
        finally:
            ray.shutdown()
    finally:
        c.shutdown()
