"""Joining a cluster started the usual way, with token authentication on (Ray 2.59 and later
start one so where a token exists, ``ray start --head``): ``mazzo eval --ray-address``, refused
for want of the token, joins again with the token of ``~/.ray/auth_token``
(``mazzo.agents.distributed.use_cluster_token``) and plays; with the wrong token the join fails
in one line that says what to give, exit status 2, and leaves no journal behind, so the same
command runs again once the token is right."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.ray
ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def token_cluster(tmp_path_factory) -> Iterator[tuple[str, dict[str, str]]]:
    """A head started by ``ray start --head`` in a home of its own that holds a token."""
    pytest.importorskip("ray")
    ray_cli = Path(sys.executable).with_name("ray")
    home = tmp_path_factory.mktemp("home")
    env = {**os.environ, "HOME": str(home), "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
    env.pop("RAY_AUTH_MODE", None)
    env.pop("RAY_AUTH_TOKEN", None)
    env.pop("RAY_ADDRESS", None)
    subprocess.run([ray_cli, "get-auth-token", "--generate"], env=env, check=True,
                   capture_output=True, timeout=60)  # fmt: skip
    assert (home / ".ray" / "auth_token").is_file()
    port = _free_port()
    # Its own temp dir (short: Ray's socket paths must fit 107 bytes): `ray start` writes the
    # cluster's address there, not in /tmp/ray/ray_current_cluster, where a later plain
    # ray.init() in any other test or program would try to join the stopped head.
    temp_dir = tempfile.mkdtemp(prefix="rt", dir="/tmp")
    head = subprocess.Popen(
        [ray_cli, "start", "--head", f"--port={port}", "--num-cpus=1", "--include-dashboard=false",
         "--block", "--disable-usage-stats", f"--temp-dir={temp_dir}"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        address = f"127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the GCS listens once the head is up
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.5)
        time.sleep(3)
        yield address, env
    finally:
        os.killpg(head.pid, signal.SIGTERM)
        try:
            head.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
        shutil.rmtree(temp_dir, ignore_errors=True)


def _eval(env: dict[str, str], address: str, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mazzo", "eval", "heuristic", "random", "--n", "2",
         "--ray-address", address, "--out", str(out), "--no-progress"],
        env={**env, "PYTHONPATH": str(ROOT)}, cwd=ROOT, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip


def test_a_wrong_token_fails_in_one_line_and_leaves_nothing(token_cluster, tmp_path):
    address, env = token_cluster
    out = tmp_path / "eval"
    wrong = _eval({**env, "RAY_AUTH_TOKEN": "0" * 32}, address, out)
    assert wrong.returncode == 2, wrong.stderr
    lines = wrong.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot join the Ray cluster" in lines[0], wrong.stderr
    assert "RAY_AUTH_TOKEN" in lines[0] and "auth_token" in lines[0]
    assert not (out / "journal.jsonl").exists()
    right = _eval(env, address, out)  # the same command, the token now the cluster's
    assert right.returncode == 0, right.stderr
    assert (out / "summary.json").is_file() and not (out / "journal.jsonl").exists()


def test_the_head_leaves_no_address_behind_for_a_plain_ray_init(token_cluster):
    """`ray start` records its address for a later plain ``ray.init()`` to join; this head keeps
    that record in its own temp dir, so no other test or program (examples/rllib_ppo.py) joins
    it, or tries to after it stopped."""
    from ray._private.utils import read_ray_address

    address, _env = token_cluster
    assert read_ray_address() != address
