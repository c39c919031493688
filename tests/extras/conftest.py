"""Fixtures of the install tests: the project's wheel, built once per session, and fresh venvs
with nothing but that wheel and one extra (``tests/extras/test_install.py``, marker
``extras``). The bundles they run are the export tests' (``tests/export/conftest.py``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from tests.cli_runner import ROOT
from tests.export.conftest import (
    _built_once,
    shipped_bundles,  # noqa: F401  (a fixture the tests use)
)

# torch comes from this pin only (README): a train venv installs it first, as a user does.
TORCH = "torch==2.13.0"


def run(args: Sequence[str | Path], cwd: Path, timeout: float = 900) -> str:
    """Run a command; its output, or a failure showing it."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    out = subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env
    )
    assert out.returncode == 0, f"{' '.join(map(str, args))}: {out.returncode}\n{out.stderr}"
    return out.stdout


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The project's wheel (``pip wheel --no-deps .``), built once for all workers."""

    def build(out: Path) -> None:
        run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out, ROOT], cwd=ROOT)

    (built,) = _built_once(tmp_path_factory, worker_id, "wheel", build).glob("mazzo-*.whl")
    return built


Venv = Callable[..., Path]


@pytest.fixture
def venv(tmp_path: Path, wheel: Path) -> Venv:
    """``venv(extra, first=())``: a fresh venv with the wheel and ``extra`` (None: the core
    install) installed by pip, ``first`` installed before it; returns its ``bin`` folder."""

    def make(extra: str | None, first: Sequence[str] = ()) -> Path:
        root = tmp_path / f"venv-{extra or 'core'}"
        run([sys.executable, "-m", "venv", root], cwd=tmp_path)
        pip = [root / "bin" / "python", "-m", "pip", "install", "-q"]
        if first:
            run([*pip, *first], cwd=tmp_path)
        run([*pip, f"{wheel}[{extra}]" if extra else wheel], cwd=tmp_path)
        return root / "bin"

    return make
