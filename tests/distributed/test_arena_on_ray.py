"""The arena and the search labels on a real Ray cluster (a head and a second node on this
machine: ``conftest.cluster``): the same outcomes, summary and labels file as a local run for
any number of Ray workers, agent failures reported as locally, a worker killed mid-run replaced with no deal lost or counted twice
(and the run says so), a chunk that keeps killing its worker ending the run with a clear
error, and ``mazzo eval`` joining the cluster (``--ray-address``) or starting a runtime of its
own (``--ray``) with the report of a local run."""

from __future__ import annotations

import dataclasses
import os
import re
import signal
import subprocess
import sys

import pytest

from mazzo.arena.plan import Entrant
from mazzo.arena.ray_workers import MAX_ATTEMPTS, play_ray
from mazzo.arena.report import _dump, summary_json
from mazzo.arena.runner import make_plan, run_arena
from mazzo.arena.summary import summarize
from mazzo.arena.table import ArenaError
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.registry import game_names, get_game
from mazzo.training.search_labels import write_search_labels
from tests.arena.agents import CrashAgent, IllegalAgent
from tests.cli_runner import ROOT, run_cli

from .tables import DeadlyTable, PidTable

pytestmark = pytest.mark.ray
GAME = game_names()[0]


def _deals(n, seed=1):
    return generate_deals(get_game(GAME), get_game(GAME).rules(), n, seed)


def _strip(run):
    """Outcomes without the measured times."""
    return [[dataclasses.replace(o, seconds=()) for o in deal] for deal in run.outcomes]


def test_the_arena_on_ray_gives_the_local_results(cluster):
    plan = make_plan(_deals(24), ["random", "heuristic", "random"], "pairs", seed=4)
    local = run_arena(plan, 2)
    runs = [run_arena(plan, k, ray=cluster) for k in (1, 3)]  # 3: more workers than CPUs
    for run in runs:
        assert _strip(run) == _strip(local)
    texts = {_dump(summary_json(summarize(r, bootstrap=100))) for r in [local, *runs]}
    assert len(texts) == 1
    assert runs[1].workers == 3


def test_search_labels_on_ray_are_the_local_file(cluster, tmp_path):
    searcher, deals = "pimc:samples=2,ms=0", _deals(3, seed=3)
    write_search_labels(deals, [searcher, "heuristic"], tmp_path / "local.jsonl", workers=1)
    write_search_labels(deals, [searcher, "heuristic"], tmp_path / "ray.jsonl", 0, "pairs", 2,
                        ray=cluster)  # fmt: skip
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()


def test_agent_failures_on_ray_are_reported_as_locally(cluster):
    illegal = make_plan(_deals(6), [Entrant("bad", IllegalAgent), "random"])
    with pytest.raises(ArenaError, match=r"agent 'bad' in seat S\d \(deal 0, lineup 0\) chose 999"):
        run_arena(illegal, 2, ray=cluster)
    crash = make_plan(_deals(4), [Entrant("crash", CrashAgent), "random"])
    with pytest.raises(RuntimeError, match="agent bug"):
        run_arena(crash, 2, ray=cluster)


class _KillOnce:
    """Progress that kills one worker's process (SIGKILL) when the first deals come back."""

    def __init__(self, folder):
        self.folder, self.total, self.seen, self.killed = folder, 0, 0, None

    def start(self, total):
        self.total = total

    def advance(self, n):
        self.seen += n
        pids = sorted(int(p.name) for p in self.folder.iterdir())
        if self.killed is None and pids:
            self.killed = pids[0]
            os.kill(self.killed, signal.SIGKILL)


def test_a_killed_worker_is_replaced_and_no_deal_is_lost_or_counted_twice(
    cluster, tmp_path, capsys
):
    plan = make_plan(_deals(120, seed=2), ["random", "heuristic"], "pairs", seed=1)
    local = run_arena(plan, 1)
    folder = tmp_path / "pids"
    folder.mkdir()
    progress = _KillOnce(folder)
    done = {}
    play_ray(plan, 2, done, progress, PidTable(str(folder)))
    assert progress.killed is not None
    assert progress.seen == len(done) == 120  # every deal once: none lost, none twice
    outcomes = tuple(done[i] for i in range(120))
    assert _strip(dataclasses.replace(local, outcomes=outcomes)) == _strip(local)
    said = capsys.readouterr().err
    assert re.search(r"ray: arena worker \d was lost \(.*\); replaced by a new one", said)
    assert len(list(folder.iterdir())) == 3  # two workers and the one that replaced the dead


def test_a_chunk_that_keeps_killing_its_worker_ends_the_run(cluster, capsys):
    plan = make_plan(_deals(4), ["random", "heuristic"], "pairs", seed=1)
    with pytest.raises(
        ArenaError, match=rf"deals \d\.\.\d lost {MAX_ATTEMPTS} Ray workers in a row"
    ):
        play_ray(plan, 1, {}, None, DeadlyTable(2))
    assert capsys.readouterr().err.count("was lost") == MAX_ATTEMPTS - 1


RAY_NOTICE = re.compile(r"^(\x1b\[\d+m)?\(raylet\)")  # the cluster's error notices


def _report(text):
    """A report without its timing line and without the notices Ray prints into every driver
    that joins (a worker of an earlier test that died: the tests above kill some)."""
    return [line for line in text.splitlines()
            if not line.startswith("played in") and not RAY_NOTICE.match(line)]  # fmt: skip


def _eval(args, extra):
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-m", "mazzo", *args, *extra], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=180)  # fmt: skip
    assert r.returncode == 0, r.stderr
    return r.stdout


EVAL = ["eval", "random", "heuristic", "--n", "12", "--seed", "5"]


def test_mazzo_eval_joins_a_cluster(cluster):
    local = run_cli(*EVAL, "--workers", "2")
    assert local.returncode == 0, local.stderr
    on_ray = _eval(EVAL, ["--ray-address", cluster, "--workers", "2"])
    assert _report(on_ray) == _report(local.stdout)


@pytest.mark.slow  # starts a Ray runtime of its own beside the cluster (20 s and more)
def test_mazzo_eval_starts_a_runtime_of_its_own():
    local = run_cli(*EVAL, "--workers", "1")
    assert _report(_eval(EVAL, ["--ray", "--workers", "1"])) == _report(local.stdout)
