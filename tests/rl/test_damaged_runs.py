"""Damaged runs and full disks get messages that name the file and say what still holds: a
truncated weights file, a run whose ``latest`` is damaged (the checkpoints it still has, and
how to resume from one), a checkpoint that cannot be written (the folder, and that the previous
one is intact), a config that is not UTF-8."""

import errno

import pytest
import torch

from mazzo.agents.neural import checkpoint_dir, load_policy
from mazzo.training.rl import checkpoint as checkpoints
from mazzo.training.rl.checkpoint import load_checkpoint, save_checkpoint
from mazzo.training.rl.config import load_config, stored_run
from mazzo.training.rl.ppo import PPOConfig, train
from tests.cli_runner import run_cli

TINY = {
    "n_envs": 4,
    "rollout_decisions": 128,
    "minibatch": 64,
    "hidden": (8,),
    "eval_every": 0,
    "threads": 1,
}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A run of two checkpoints (``snapshot`` each update keeps both)."""
    run_dir = tmp_path_factory.mktemp("run")
    cfg = PPOConfig(game="calabresella", total_decisions=256, checkpoint_minutes=1e-9, **TINY)
    train(cfg, run_dir, log=lambda _line: None)
    return run_dir


def _copy(run, tmp_path):
    import shutil

    target = tmp_path / "run"
    shutil.copytree(run, target)
    return target


def test_a_truncated_weights_file_is_called_damaged_with_its_size(run, tmp_path):
    run = _copy(run, tmp_path)
    ckpt = checkpoint_dir(run)
    data = (ckpt / "model.pt").read_bytes()
    (ckpt / "model.pt").write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match=r"model\.pt: damaged or truncated \([\d,]+ bytes") as e:
        load_policy(run)
    assert "weights-only" not in str(e.value)
    (ckpt / "trainer.pt").write_bytes(b"")
    (ckpt / "model.pt").write_bytes(data)
    with pytest.raises(ValueError, match=r"trainer\.pt: damaged or truncated \(0 bytes"):
        load_checkpoint(run)


@pytest.mark.parametrize("latest", ["ckpt-999999\n", "\xff\xfe", None])
def test_a_damaged_latest_names_the_checkpoints_still_there_and_how_to_resume(
    run, tmp_path, latest
):
    run = _copy(run, tmp_path)
    held = sorted((p.name for p in run.glob("ckpt-*")), reverse=True)
    assert held
    if latest is None:
        (run / "latest").unlink()
    else:
        (run / "latest").write_text(latest, encoding="latin-1")
    with pytest.raises(ValueError) as e:
        load_policy(run)
    assert all(name in str(e.value) for name in held)
    assert f"echo {held[0]} > {run / 'latest'}" in str(e.value)
    with pytest.raises(ValueError) as e:
        stored_run(run)
    assert f"echo {held[0]} > {run / 'latest'}" in str(e.value)
    out = run_cli("train", "calabresella_quick", "--resume", str(run))
    assert out.returncode == 2 and held[0] in out.stderr and "Traceback" not in out.stderr
    (run / "latest").write_text(held[0] + "\n")  # the message's advice works
    assert stored_run(run)["update"] >= 1


def test_a_checkpoint_that_cannot_be_written_names_the_folder_and_keeps_the_last(
    run, tmp_path, monkeypatch
):
    run = _copy(run, tmp_path)
    before = (run / "latest").read_text()

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(checkpoints.torch, "save", full)
    with pytest.raises(OSError, match=f"cannot write checkpoint ckpt-000099 into {run}") as e:
        save_checkpoint(run, "ckpt-000099", {"w": torch.zeros(1)}, {}, {"update": 99})
    assert e.value.errno == errno.ENOSPC and "previous checkpoint is intact" in str(e.value)
    assert (run / "latest").read_text() == before
    assert not list(run.glob(".ckpt-000099*"))  # no half-written folder left


def test_a_config_that_is_not_utf8_is_named(tmp_path):
    bad = tmp_path / "latin.toml"
    bad.write_bytes('game = "calabresella"\n# caf\xe9\n'.encode("latin-1"))
    with pytest.raises(ValueError, match=r"latin\.toml: not UTF-8 text \(byte \d+"):
        load_config(PPOConfig, bad)
    out = run_cli("train", str(bad))
    assert out.returncode == 2 and "not UTF-8" in out.stderr
