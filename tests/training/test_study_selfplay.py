"""``benchmarks/study_selfplay.py`` still runs on a tiny run (the figures are not tested)."""

import subprocess
import sys

import pytest

from mazzo.envs.registry import game_names
from tests.cli_runner import ROOT


def _run(*args):
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=300, cwd=ROOT
    )


@pytest.mark.parametrize("game", game_names())
def test_study_selfplay_measures_a_tiny_run(tmp_path, game):
    run = tmp_path / "run"
    out = _run(
        "-m", "mazzo", "train", f"configs/{game}_quick.toml", "--run-dir", str(run),
        "--no-progress", "--set", "total_decisions=400", "--set", "rollout_decisions=200",
        "--set", "n_envs=8", "--set", "eval_every=0", "--set", "hidden=[16]",
        "--set", "snapshot_every=1", "--set", "threads=1",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    study = str(ROOT / "benchmarks" / "study_selfplay.py")
    csv = tmp_path / "s.csv"
    out = _run(study, "measure", str(run), "--deals", "3", "--arena", "1", "--out", str(csv))
    assert out.returncode == 0, out.stderr
    assert "entropy" in out.stdout and "vs heuristic" in out.stdout
    assert csv.read_text().startswith("checkpoint,update,decisions,phase")
    ckpt = sorted(run.glob("ckpt-*"))[-1]
    out = _run(study, "rollout", str(ckpt), "--decisions", "50")
    assert out.returncode == 0 and "deals drawn" in out.stdout, out.stderr
    out = _run(study, "pool", str(run))
    assert out.returncode == 0 and "latest-vs-latest" in out.stdout, out.stderr
    out = _run(study, "baseline", "--game", game, "--deals", "2")
    assert out.returncode == 0 and "passed out" in out.stdout, out.stderr
    out = _run(study, "curves", str(run))
    assert out.returncode == 0 and "play" in out.stdout.splitlines()[0], out.stderr


def test_study_selfplay_trains_with_a_phase_entropy_bonus(tmp_path):
    game = game_names()[0]
    study = str(ROOT / "benchmarks" / "study_selfplay.py")
    run = tmp_path / "run"
    out = _run(
        study, "train", f"configs/{game}_quick.toml", "--phase-ent", "play=0.1",
        "--run-dir", str(run), "--set", "total_decisions=200", "--set", "rollout_decisions=100",
        "--set", "n_envs=4", "--set", "eval_every=0", "--set", "hidden=[8]",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert (run / "latest").exists()
    out = _run(study, "train", f"configs/{game}_quick.toml", "--phase-ent", "nosuch=1",
               "--run-dir", str(tmp_path / "bad"))  # fmt: skip
    assert out.returncode == 2 and "unknown phase(s) ['nosuch']" in out.stderr
    assert "Traceback" not in out.stderr
