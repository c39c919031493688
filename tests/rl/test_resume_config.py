"""``mazzo train --resume`` continues a run with its own stored config: the config file's values
never replace the run's (a note says where they differ); a deliberate change is given with
``--set``, printed as ``key: old -> new``, recorded in the run's ``resumes.jsonl``, and refused
where it would make the run another one (only ``RESUMABLE_CHANGES`` may change, and the
learning-rate schedule where it lies ahead of the run: tests/rl/test_lr_schedule.py). A folder
that holds no run is refused at once, and a mistyped ``--set`` key is blamed on ``--set`` with
the likely key."""

from __future__ import annotations

import json

from tests.cli_runner import run_cli

CONFIG = "configs/calabresella_quick.toml"
TINY = ["--set", "total_decisions=512", "--set", "n_envs=8", "--set", "rollout_decisions=256",
        "--set", "eval_every=0", "--set", "hidden=[32]"]  # fmt: skip


def _meta(run) -> dict:
    return json.loads((run / (run / "latest").read_text().strip() / "meta.json").read_text())


def test_a_resumed_run_keeps_its_own_config(tmp_path):
    run = tmp_path / "run"
    first = run_cli("train", CONFIG, *TINY, "--run-dir", str(run), "--no-progress")
    assert first.returncode == 0, first.stderr
    done = _meta(run)
    assert done["config"]["total_decisions"] == 512 and done["config"]["eval_every"] == 0

    again = run_cli("train", CONFIG, "--resume", str(run), "--no-progress")  # no --set
    assert again.returncode == 0, again.stderr
    assert "differs from the run's own config" in again.stderr
    assert "total_decisions 2000000 (file) vs 512 (run)" in again.stderr
    assert _meta(run)["update"] == done["update"]  # nothing more to do: 512 were asked for
    assert _meta(run)["config"] == done["config"]
    assert not (run / "resumes.jsonl").exists()

    longer = run_cli("train", CONFIG, "--resume", str(run), "--set", "total_decisions=1024",
                     "--no-progress")  # fmt: skip
    assert longer.returncode == 0, longer.stderr
    assert "total_decisions: 512 -> 1024" in longer.stderr
    after = _meta(run)
    assert after["config"]["total_decisions"] == 1024 and after["decisions"] >= 1024
    assert after["config"]["eval_every"] == 0 and after["config"]["n_envs"] == 8
    recorded = [json.loads(line) for line in (run / "resumes.jsonl").read_text().splitlines()]
    assert recorded == [{"update": done["update"], "changes": {"total_decisions": [512, 1024]}}]


def test_a_change_that_would_make_another_run_is_refused(tmp_path):
    run = tmp_path / "run"
    assert run_cli("train", CONFIG, *TINY, "--run-dir", str(run)).returncode == 0
    before = (run / "latest").read_text()
    refused = run_cli("train", CONFIG, "--resume", str(run), "--set", "lr=0.01")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert "a resumed run cannot change lr (0.0003 -> 0.01)" in refused.stderr
    assert (
        "may change checkpoint_minutes, eval_every, label_workers, total_decisions"
        in refused.stderr
    )
    assert (run / "latest").read_text() == before  # nothing was touched


def test_a_folder_without_a_run_is_refused_at_once(tmp_path):
    out = run_cli("train", CONFIG, "--resume", str(tmp_path))
    assert out.returncode == 2 and "not a mazzo train run" in out.stderr
    assert "mazzo train: ppo" not in out.stderr  # no run was announced


def test_a_mistyped_set_key_is_blamed_on_set_with_the_likely_key(tmp_path):
    out = run_cli("train", CONFIG, "--set", "n_env=8", "--run-dir", str(tmp_path / "r"))
    assert out.returncode == 2
    assert "--set: unknown key 'n_env' (did you mean 'n_envs'?)" in out.stderr
    assert CONFIG not in out.stderr.split("known:")[0]
