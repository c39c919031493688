"""The learning-rate schedule (``lr_decay_start``, ``lr_decay_decisions``, ``lr_end``): the rate
each update gets, that the optimiser really steps with it, and that a resumed run may add a
decay ahead of itself (the run then equals one run of the whole schedule, weight for weight)
but never one that would rewrite the rate of updates it has already trained."""

from __future__ import annotations

import json

import pytest
import torch
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

from mazzo.training.rl.config import config_dict, resumed_config, schedule_kept
from mazzo.training.rl.ppo import PPOConfig, train
from tests.cli_runner import run_cli

TINY = {
    "game": "calabresella", "n_envs": 8, "rollout_decisions": 256, "minibatch": 128, "epochs": 2,
    "hidden": (32,), "threads": 1, "eval_every": 0, "snapshot_every": 1, "max_snapshots": 2,
    "self_play": 0.5,
}  # fmt: skip


def quiet(_line):
    pass


def _meta(run) -> dict:
    return json.loads((run / (run / "latest").read_text().strip() / "meta.json").read_text())


def test_the_rate_is_constant_then_falls_linearly_then_stays():
    cfg = PPOConfig(game="minchiate", lr=4e-4, lr_decay_start=1000, lr_decay_decisions=2000,
                    lr_end=1e-4)  # fmt: skip
    assert [cfg.lr_at(d) for d in (0, 999, 1000)] == [4e-4, 4e-4, 4e-4]
    assert cfg.lr_at(2000) == pytest.approx(2.5e-4)
    assert cfg.lr_at(3000) == pytest.approx(1e-4) and cfg.lr_at(10**9) == pytest.approx(1e-4)
    assert PPOConfig(game="minchiate").lr_at(10**9) == 3e-4  # the default: constant


@pytest.mark.parametrize(
    ("key", "value"), [("lr_decay_start", -1), ("lr_decay_decisions", -5), ("lr_end", -1e-4)]
)
def test_a_negative_schedule_value_is_refused_by_name(key, value):
    with pytest.raises(ValueError, match=key):
        PPOConfig(game="minchiate", **{key: value})


def test_the_optimiser_steps_with_the_scheduled_rate(tmp_path):
    """Ending the decay at a rate of 0 after the first update freezes the weights: the second
    and third updates change nothing, while the same run without the decay keeps moving."""
    frozen = train(PPOConfig(total_decisions=768, lr_decay_decisions=1, lr_end=0.0, **TINY),
                   tmp_path / "frozen", log=quiet)  # fmt: skip
    first = train(PPOConfig(total_decisions=256, **TINY), tmp_path / "first", log=quiet)
    moving = train(PPOConfig(total_decisions=768, **TINY), tmp_path / "moving", log=quiet)
    for k, v in first.state_dict().items():
        assert torch.equal(v, frozen.state_dict()[k]), k  # update 1 at lr; then rate 0
    assert any(not torch.equal(v, moving.state_dict()[k]) for k, v in first.state_dict().items())
    events = EventAccumulator(str(tmp_path / "frozen"))
    events.Reload()
    rates = [e.value for e in events.Scalars("charts/learning_rate")]  # logged per update
    assert rates == [pytest.approx(3e-4), 0.0, 0.0]


def test_a_decay_added_on_resume_equals_the_whole_schedule_from_the_start(tmp_path):
    train(PPOConfig(total_decisions=512, **TINY), tmp_path / "b", log=quiet)  # no decay yet
    trained = _meta(tmp_path / "b")["decisions"]  # a rollout may pass 512 by a deal's tail
    schedule = {"lr_decay_start": trained, "lr_decay_decisions": 512, "lr_end": 0.0}
    whole = train(PPOConfig(total_decisions=1280, **schedule, **TINY), tmp_path / "a", log=quiet)
    resumed = train(PPOConfig(total_decisions=1280, **schedule, **TINY), tmp_path / "b",
                    resume=True, log=quiet)  # fmt: skip
    for k, v in whole.state_dict().items():
        assert torch.equal(v, resumed.state_dict()[k]), k


def test_a_decay_that_would_rewrite_trained_updates_is_refused(tmp_path):
    train(PPOConfig(total_decisions=512, **TINY), tmp_path, log=quiet)
    with pytest.raises(ValueError, match="learning-rate schedule"):
        train(PPOConfig(total_decisions=1024, lr_decay_decisions=512, **TINY), tmp_path,
              resume=True, log=quiet)  # fmt: skip


def test_schedule_kept_compares_only_the_decisions_already_trained():
    base = config_dict(PPOConfig(game="minchiate"))
    later = base | {"lr_decay_start": 5000, "lr_decay_decisions": 100}
    assert schedule_kept(base, later, 5000) and not schedule_kept(base, later, 5001)
    assert schedule_kept(later, later | {"lr_end": 1e-5}, 5000)  # its decay not begun yet
    assert not schedule_kept(later, later | {"lr_end": 1e-5}, 6000)
    assert not schedule_kept(base, base | {"lr": 1e-3}, 0)


def test_resumed_config_accepts_the_keys_together_in_any_order():
    stored = config_dict(PPOConfig(game="minchiate"))
    for order in (
        ("lr_decay_decisions", "lr_decay_start"),
        ("lr_decay_start", "lr_decay_decisions"),
    ):
        overrides = {k: {"lr_decay_start": 4096, "lr_decay_decisions": 1024}[k] for k in order}
        cfg, changes = resumed_config(PPOConfig, stored, overrides, decisions=4096)
        assert cfg.lr_at(4096 + 512) == pytest.approx(1.5e-4)
        assert changes == {"lr_decay_start": (0, 4096), "lr_decay_decisions": (0, 1024)}


def test_the_cli_adds_a_decay_on_resume_and_refuses_one_in_the_past(tmp_path):
    config = "configs/calabresella_quick.toml"
    tiny = ["--set", "n_envs=8", "--set", "rollout_decisions=256", "--set", "eval_every=0",
            "--set", "hidden=[32]", "--set", "lr_decay_decisions=0"]  # fmt: skip
    run = tmp_path / "run"
    first = run_cli("train", config, *tiny, "--set", "total_decisions=512", "--run-dir", str(run))
    assert first.returncode == 0, first.stderr
    trained = _meta(run)["decisions"]
    refused = run_cli("train", config, "--resume", str(run), "--set", "lr_decay_decisions=512",
                      "--set", "total_decisions=1024")  # fmt: skip
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert "cannot change its learning-rate schedule" in refused.stderr
    assert f"lr_decay_start >= {trained}" in refused.stderr
    added = run_cli("train", config, "--resume", str(run), "--set", f"lr_decay_start={trained}",
                    "--set", "lr_decay_decisions=512", "--set", "total_decisions=1024")  # fmt: skip
    assert added.returncode == 0, added.stderr
    assert f"lr_decay_start: 0 -> {trained}" in added.stderr
    assert _meta(run)["config"]["lr_decay_decisions"] == 512
