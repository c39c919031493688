"""Smoke tests of every ``mazzo`` subcommand, run as a user would (a subprocess)."""

import json
import subprocess
import sys

import pytest

from tests.calabresella.test_env import record_of
from tests.calabresella.test_golden import SOLO2_SCRIPT


def mazzo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "training.cli", *args], capture_output=True, text=True, timeout=120
    )


def test_help_lists_the_subcommands():
    out = mazzo("--help")
    assert out.returncode == 0
    for sub in ("demo", "replay", "rules"):
        assert sub in out.stdout


@pytest.mark.parametrize("flags", [[], ["--flag", "players=4"], ["--flag", "players=2"]])
def test_demo(flags):
    out = mazzo("demo", "--deals", "2", "--seed", "1", *flags)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("=== deal") == 2 and "Total rewards" in out.stdout


def test_demo_rejects_unknown_flag():
    out = mazzo("demo", "--flag", "colour=red")
    assert out.returncode == 2 and "unknown calabresella flag 'colour'" in out.stderr


def test_replay(tmp_path):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record_of(SOLO2_SCRIPT)))
    out = mazzo("replay", str(path))
    assert out.returncode == 0, out.stderr
    assert (
        '"pairwise": [\n    -2,\n    4,\n    -2\n  ]' in out.stdout
        and "Result: solo made" in out.stdout
    )
    path.write_text(json.dumps(record_of([(1, "pass")])))
    out = mazzo("replay", str(path))
    assert out.returncode == 2 and "S0 is on turn (BID), not S1" in out.stderr


def test_rules_lists_flags():
    out = mazzo("rules", "--game", "calabresella")
    assert (
        out.returncode == 0 and "players = 3" in out.stdout and "aperta_payout_factor" in out.stdout
    )
