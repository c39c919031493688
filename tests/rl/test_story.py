"""The trainers read top to bottom: ``ppo.py`` and ``dmc.py`` are short functions on one shared
run object; inside a run the rule flags become ``Rules`` once and travel as objects (to the
actors too: a spec crosses to an actor process with its game by name and its rules as is)."""

import ast
import os
import pickle
import re
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mazzo.envs.registry import Game, get_game
from mazzo.training.rl.actors import ActorSpec
from mazzo.training.rl.ppo import PPOConfig, train

ROOT = Path(__file__).resolve().parents[2]
TINY = {
    "game": "calabresella", "n_envs": 8, "rollout_decisions": 256, "minibatch": 128,
    "epochs": 1, "hidden": (16,), "threads": 1, "eval_every": 1, "eval_deals": 2,
    "total_decisions": 512, "bc_decisions": 200, "snapshot_every": 1,
}  # fmt: skip


def test_each_trainer_is_short_functions_on_the_run_object():
    for name in ("ppo", "dmc"):
        tree = ast.parse((ROOT / "training" / "rl" / f"{name}.py").read_text())
        functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
        assert {f.name for f in functions} >= {"train", f"{name}_update"}
        for f in functions:
            assert f.end_lineno is not None and f.end_lineno - f.lineno < 40, (name, f.name)
        train_fn = next(f for f in functions if f.name == "train")
        assert "Run" in {n.id for n in ast.walk(train_fn) if isinstance(n, ast.Name)}


def test_an_actor_spec_sends_its_game_by_name_and_its_rules_as_they_are():
    game = get_game("calabresella")
    rules = game.rules({"players": 4})
    spec = ActorSpec(
        game, rules, 4, np.random.SeedSequence(1), ("heuristic",), 0.5, 2, 0.1, 1.0, 0.95, (16,)
    )
    back = pickle.loads(pickle.dumps(spec))
    assert back.game is game and back.rules == rules and back.n_envs == 4
    collector, _net, _pool = back.build()
    assert collector.rules is back.rules


def test_a_run_makes_its_rules_once(tmp_path, monkeypatch):
    calls = []
    real = Game.rules

    def counted(self, flags=None):
        calls.append(dict(flags or {}))
        return real(self, flags)

    monkeypatch.setattr(Game, "rules", counted)
    train(PPOConfig(**TINY), tmp_path, log=lambda _line: None)
    assert calls == [{}]  # imitation, actors, evaluation, logging: all on the run's Rules


def test_the_hook_stops_a_run_with_a_checkpoint(tmp_path):
    seen, logged = [], []

    def hook(net, run):
        seen.append(run.decisions)
        return run.update == 1

    cfg = PPOConfig(**TINY | {"bc_decisions": 0, "eval_every": 0})
    train(cfg, tmp_path, log=logged.append, hook=hook)
    assert seen[0] == 0 and len(seen) == 2  # before self-play, then after the first update
    assert logged[-1].startswith(f"stopped by the hook: update 1, {seen[1]} decisions")
    assert (tmp_path / "latest").read_text().strip() == "ckpt-0000001"


@pytest.mark.parametrize(
    ("sig", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["SIGINT", "SIGTERM"]
)
def test_a_signal_stops_a_run_after_its_update_with_a_checkpoint(tmp_path, sig, status):
    """Ctrl-C (SIGINT to the process group, the actors included) or a scheduler's SIGTERM (to
    the trainer): the update ends, the checkpoint is written, and the exit status says the run
    was stopped (128 + the signal), not finished."""
    run = tmp_path / "run"
    cmd = [
        sys.executable, "-m", "mazzo", "train", "configs/calabresella_quick.toml",
        "--set", "total_decisions=100000000", "--set", "n_envs=8", "--set", "n_actors=2",
        "--set", "rollout_decisions=256", "--set", "eval_every=0", "--set", "hidden=[16]",
        "--run-dir", str(run), "--no-progress",
    ]  # fmt: skip
    proc = subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        while line and not line.startswith("update 1 "):
            line = proc.stdout.readline()
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)  # a terminal's Ctrl-C: the actors get it too
        else:
            proc.send_signal(sig)  # a scheduler's stop: to the trainer
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == status, err  # stopped, not finished: a scheduler can tell
    assert re.search(r"stopped by a signal: update \d+, [\d,]+ decisions; checkpoint in", out)
    assert (run / "latest").exists() and "Traceback" not in err
