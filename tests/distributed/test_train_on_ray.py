"""The trainers' actors on a real Ray cluster (``conftest.cluster``): a PPO run with k actors on
Ray gives the weights, the evaluations and the decision count of the same config with k local
actor processes, resumes exactly (from a checkpoint of either), and an actor killed mid-run is
replaced in its last state: the same weights, and the run says what happened; a killed learner
or a lost head leaves a checkpoint that resumes. Without actors
(``n_actors = 0``) Ray is refused with the key to set."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
import torch

from mazzo.training.rl.checkpoint import load_checkpoint
from mazzo.training.rl.ppo import PPOConfig, train
from tests.cli_runner import ROOT

pytestmark = pytest.mark.ray
TINY = {
    "game": "calabresella", "n_envs": 8, "rollout_decisions": 256, "minibatch": 128, "epochs": 2,
    "hidden": (32,), "threads": 1, "eval_every": 2, "eval_deals": 4, "snapshot_every": 1,
    "max_snapshots": 2, "self_play": 0.5, "n_actors": 2,
}  # fmt: skip


def quiet(_line):
    pass


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    """The run with two local actor processes: (weights, metrics.csv)."""
    run = tmp_path_factory.mktemp("local") / "run"
    net = train(PPOConfig(total_decisions=1024, **TINY), run, log=quiet)
    return net.state_dict(), (run / "metrics.csv").read_text(), _decisions(run)


def _decisions(run):
    return load_checkpoint(run)[2]["decisions"]


def _same(a, b):
    return all(torch.equal(v, b[k]) for k, v in a.items())


def test_actors_on_ray_give_the_local_weights_and_resume_exactly(cluster, local, tmp_path):
    run = tmp_path / "ray"
    train(PPOConfig(total_decisions=512, **TINY), run, log=quiet, ray=cluster)
    net = train(PPOConfig(total_decisions=1024, **TINY), run, resume=True, log=quiet, ray=cluster)
    weights, metrics, _ = local
    assert _same(net.state_dict(), weights)
    assert (run / "metrics.csv").read_text() == metrics  # the same evaluations at the same counts


def test_a_killed_actor_is_replaced_with_nothing_lost_or_counted_twice(cluster, local, tmp_path):
    said, killed = [], []

    def kill_after_first_update(_net, run):
        if run.update == 1 and not killed:
            pid = run.actors.pids()[0]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
        return False

    run = tmp_path / "ray"
    net = train(PPOConfig(total_decisions=1024, **TINY), run, log=said.append,
                hook=kill_after_first_update, ray=cluster)  # fmt: skip
    assert killed
    assert _same(net.state_dict(), local[0])
    lost = [line for line in said if "was lost" in line]
    assert len(lost) == 1 and re.match(r"ray: self-play actor 0 was lost \(.+\); replaced", lost[0])
    assert _decisions(run) == local[2]  # every decision counted once


def test_ray_needs_actors(cluster, tmp_path):
    with pytest.raises(ValueError, match="n_actors to 1 or more"):
        train(PPOConfig(total_decisions=256, **(TINY | {"n_actors": 0})), tmp_path / "r",
              log=quiet, ray=cluster)  # fmt: skip


def test_mazzo_train_on_a_cluster(cluster, tmp_path):
    sets = [f"--set={k}={json.dumps(list(v) if isinstance(v, tuple) else v)}"
            for k, v in (TINY | {"total_decisions": 256, "eval_every": 0}).items()]  # fmt: skip
    r = subprocess.run(
        [sys.executable, "-m", "mazzo", "train", "configs/calabresella_quick.toml", *sets,
         "--run-dir", str(tmp_path / "run"), "--ray-address", cluster],
        cwd=ROOT, env=os.environ | {"PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
        timeout=180,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "done: update 1" in r.stdout and (tmp_path / "run" / "latest").exists()


FAULT_SETS = [
    f"--set={k}={json.dumps(list(v) if isinstance(v, tuple) else v)}"
    for k, v in (TINY | {"total_decisions": 8192, "eval_every": 0,
                         "checkpoint_minutes": 1e-4}).items()
]  # fmt: skip
TRAIN = [sys.executable, "-m", "mazzo", "train", "configs/calabresella_quick.toml", *FAULT_SETS]


def _learner_at_its_first_checkpoint(run, address, env):
    """A ``mazzo train`` process on ``address``, returned once its first checkpoint is on
    disk (still running)."""
    learner = subprocess.Popen(
        [*TRAIN, "--run-dir", str(run), "--ray-address", address],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 150
    while not (run / "latest").exists() and learner.poll() is None:
        if time.monotonic() > deadline:
            learner.kill()
            raise AssertionError("no checkpoint within 150 s")
        time.sleep(0.2)
    if learner.poll() is not None:
        raise AssertionError(learner.communicate()[1])
    return learner


def _resumes_to_the_end(run, address, env):
    """``--resume`` of the run on ``address`` finishes its decisions from its checkpoint."""
    at_stop = _decisions(run)
    assert 0 < at_stop < 8192
    r = subprocess.run(
        [*TRAIN, "--resume", str(run), "--ray-address", address],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert _decisions(run) >= 8192 > at_stop  # the run went on from its checkpoint to the end
    assert re.search(r"resum", r.stdout + r.stderr, re.I) and "done: update" in r.stdout


def test_a_killed_learner_leaves_a_checkpoint_the_run_resumes_from(cluster, tmp_path):
    """The learner (the ``mazzo train`` process, the driver of its Ray actors) killed with
    SIGKILL after its first checkpoint: the run directory resumes with ``--resume`` on the same
    cluster (the dead driver's actors are gone, new ones start) and finishes its decisions."""
    run = tmp_path / "run"
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    learner = _learner_at_its_first_checkpoint(run, cluster, env)
    try:
        learner.send_signal(signal.SIGKILL)
        learner.wait(timeout=30)
    finally:
        if learner.poll() is None:
            learner.kill()
    _resumes_to_the_end(run, cluster, env)


def test_a_lost_head_ends_the_run_and_its_checkpoint_resumes(cluster, tmp_path):
    """The head of the learner's cluster (a cluster of its own, started for this test) killed
    after the run's first checkpoint: the learner ends (Ray ends the driver once the head has
    not answered for the reconnect timeout, or at once with the head's raylet) and its run
    directory resumes on another cluster (the package's) to the end."""
    from ray.cluster_utils import Cluster

    from tests.distributed.conftest import NODE

    run = tmp_path / "run"
    # the driver gives up on a head that does not answer after 10 s (Ray's default: 60 s)
    env = os.environ | {"PYTHONPATH": str(ROOT), "RAY_gcs_rpc_server_reconnect_timeout_s": "10"}
    doomed = Cluster(initialize_head=True, head_node_args=NODE | {"include_dashboard": False})
    try:
        learner = _learner_at_its_first_checkpoint(run, doomed.address, env)
        try:
            doomed.remove_node(doomed.head_node, allow_graceful=False)
            _, err = learner.communicate(timeout=90)
        finally:
            if learner.poll() is None:
                learner.kill()
    finally:
        doomed.shutdown()
    # Ray ends the driver one of two ways, by timing: after the GCS reconnect timeout, saying
    # "Failed to connect to GCS" on stderr, or at once with the head's raylet, which the driver
    # shared (exit status 1, no message: seen twice on a loaded machine). Either way Ray ends
    # it, not an error of mazzo's own (no traceback, no "mazzo train: error" line), and no
    # checkpoint is lost.
    assert learner.returncode != 0, err
    assert "Traceback" not in err and "mazzo train: error" not in err, err
    _resumes_to_the_end(run, cluster, env)
