"""``mazzo export``, run as a user would (a subprocess): a bundle written, a non-empty folder
refused without ``--force``, every bad input a message and exit status 2, and ``--check``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mazzo.agents.bundle import load_bundle
from mazzo.cli import main
from tests.export.helpers import tiny_checkpoint

ROOT = Path(__file__).resolve().parents[2]


def mazzo(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mazzo", *map(str, args)], capture_output=True, text=True,
        timeout=300, cwd=ROOT,
    )  # fmt: skip


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    return tiny_checkpoint(tmp_path_factory.mktemp("cli") / "run", "minchiate", "ppo")


def test_export_writes_a_bundle_and_refuses_to_overwrite_without_force(run_dir, tmp_path, capsys):
    out = tmp_path / "bundle"
    done = mazzo("export", run_dir, "--out", out, "--vectors", "8", "--seed", "2")
    assert done.returncode == 0, done.stderr
    assert f"wrote the minchiate bundle of {run_dir / 'ckpt-000001'} to {out}" in done.stderr
    assert "8 test vectors pass" in done.stderr and "Traceback" not in done.stderr
    bundle = load_bundle(out)
    assert bundle.manifest["test_vectors"]["count"] == 8 and bundle.game_name == "minchiate"
    before = (out / "manifest.json").read_text()

    # The rest in process (the subprocess path is the one above; torch loads once here).
    assert main(["export", str(run_dir), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"mazzo export: error: --out {str(out)!r} is not empty; pass --force" in err
    assert (out / "manifest.json").read_text() == before

    (out / "notes.txt").write_text("mine")
    forced = ["export", str(run_dir / "ckpt-000001"), "--out", str(out), "--force"]
    assert main([*forced, "--vectors", "4"]) == 0
    assert json.loads((out / "manifest.json").read_text())["test_vectors"]["count"] == 4
    assert (out / "notes.txt").read_text() == "mine"  # --force replaces the bundle's files only
    load_bundle(out)

    check = mazzo("export", "--check", out)
    assert check.returncode == 0 and "minchiate bundle passes: 4 test vectors" in check.stdout


@pytest.mark.parametrize("failure", [KeyboardInterrupt, OSError(28, "No space left on device")])
def test_a_forced_export_that_fails_leaves_the_old_bundle_whole(
    run_dir, tmp_path, monkeypatch, failure
):
    """``--force`` writes and checks the new bundle beside the old one first: an interrupt, a
    full disk or a failed check leaves the old bundle as it was, and no staging folder."""
    import mazzo.training.export as export

    out = tmp_path / "bundle"
    export.export_bundle(run_dir, out, vectors=4)
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def fail(*args, **kwargs):
        raise failure

    monkeypatch.setattr(export, "vectors_jsonl", fail)  # midway: the model files are written
    with pytest.raises(type(failure) if isinstance(failure, BaseException) else failure):
        export.export_bundle(run_dir, out, vectors=8, force=True)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bundle"]
    load_bundle(out)


def test_bot_defaults_to_the_first_game_as_every_command_does(tmp_path):
    out = tmp_path / "b"
    assert main(["export", "bot", "--out", str(out), "--vectors", "4"]) == 0
    assert load_bundle(out).game_name == "calabresella"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{tmp}/nothing", "--out", "{tmp}/b"], "is neither a mazzo checkpoint nor a run dir"),
        (["{run}", "--out", "{tmp}/b", "--game", "calabresella"],
         "holds a minchiate policy, not a calabresella one"),
        (["{run}", "--out", "{tmp}/file"], "is a file, not a folder"),
        (["{run}", "--out", "{tmp}/b", "--vectors", "0"], "--vectors must be at least 1, got 0"),
        (["{run}"], "give CHECKPOINT and --out DIR (or --check DIR)"),
        (["--check", "{tmp}/b", "--out", "{tmp}/c"], "--check DIR takes no CHECKPOINT and no --out"),
    ],
)  # fmt: skip
def test_bad_input_is_a_message_and_exit_2(args, message, run_dir, tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    argv = [a.format(tmp=tmp_path, run=run_dir) for a in args]
    assert main(["export", *argv]) == 2  # in process: the subprocess path is tested above
    err = capsys.readouterr().err
    assert message in err and err.startswith("mazzo export: error: ")
    assert not (tmp_path / "b").exists()


def test_bad_input_in_a_subprocess_has_no_traceback(tmp_path):
    out = mazzo("export", tmp_path / "nothing")
    assert out.returncode == 2 and "give CHECKPOINT and --out DIR" in out.stderr
    assert out.stderr.startswith("mazzo export: error: ") and "Traceback" not in out.stderr


def test_check_of_a_broken_bundle_exits_2(tmp_path, capsys):
    assert main(["export", "--check", str(tmp_path)]) == 2
    assert "no manifest.json (not a mazzo bundle)" in capsys.readouterr().err


def test_help_names_the_command():
    out = mazzo("export", "--help")
    assert out.returncode == 0 and "--force" in out.stdout and "--check" in out.stdout
