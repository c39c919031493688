"""What every test of ``tests/js`` needs: Node (20 or later) with npm, and ``js/node_modules``
(``npm ci`` from the committed lock when it is missing, once, under a file lock: the tests of
this folder run on several pytest-xdist workers at once, and two ``npm ci`` in one folder would
race). ``.ci/run`` runs ``npm ci`` in its install stage, so in CI this finds it done."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parents[2] / "js"


def ensure_node_modules() -> None:
    """``js/node_modules`` installed from ``js/package-lock.json``; fails (never skips) without
    npm, naming what is missing."""
    npm = shutil.which("npm")
    assert shutil.which("node") and npm, "node (20 or later) and npm are needed to test js/"
    with open(JS / ".npm-ci.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (JS / "node_modules" / "onnxruntime-web").is_dir():
            return
        done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=JS, capture_output=True,
                              text=True, timeout=600)  # fmt: skip
        assert done.returncode == 0, (
            f"npm ci failed in {JS}:\n{(done.stdout + done.stderr)[-4000:]}"
        )


@pytest.fixture(scope="session", autouse=True)
def node_modules() -> None:
    ensure_node_modules()
