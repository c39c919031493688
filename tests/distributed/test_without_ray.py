"""Without the extra ``mazzo[distributed]`` (Ray hidden from the import system), every
``--ray`` / ``--ray-address`` says in one line how to install it, with exit status 2, before
any work; a local run is unchanged; a malformed address is refused."""

from __future__ import annotations

import sys

import pytest

from mazzo.agents.distributed import INSTALL_HINT, RayNotInstalled, import_ray
from tests.cli_runner import run_cli


@pytest.fixture
def no_ray(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError


def test_import_ray_names_the_extra(no_ray):
    with pytest.raises(RayNotInstalled, match=r"pip install 'mazzo\[distributed\]'"):
        import_ray()


@pytest.mark.parametrize(
    "args",
    [
        ["eval", "random", "heuristic", "--n", "2", "--ray"],
        ["eval", "random", "heuristic", "--n", "2", "--ray-address", "auto"],
        ["labels", "pimc:samples=2", "--n", "1", "--out", "OUT", "--ray"],
        ["train", "configs/calabresella_quick.toml", "--run-dir", "OUT", "--ray"],
    ],
)
def test_without_ray_the_switch_says_how_to_install_it(no_ray, args, tmp_path):
    args = [str(tmp_path / "l.jsonl") if a == "OUT" else a for a in args]
    r = run_cli(*args)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and INSTALL_HINT in lines[0] and "Traceback" not in r.stderr
    assert not (tmp_path / "l.jsonl").exists()  # nothing was written


def test_a_local_run_needs_no_ray(no_ray):
    r = run_cli("eval", "random", "heuristic", "--n", "2", "--workers", "1")
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("address", ["", "two words"])
def test_a_malformed_address_is_refused(address):
    r = run_cli("eval", "random", "heuristic", "--n", "2", "--ray-address", address)
    assert r.returncode == 2 and "--ray-address" in r.stderr


def test_ray_and_ray_address_exclude_each_other():
    r = run_cli("eval", "random", "heuristic", "--ray", "--ray-address", "auto")
    assert r.returncode == 2 and "not allowed with" in r.stderr
