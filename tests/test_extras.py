"""What each job installs: the extras of ``pyproject.toml`` and ``mazzo.extras``' table agree;
the core install is the environments' three packages; a command whose extra is missing says
which one to install, in one line, with exit status 2. Without installing anything: the missing
packages are refused in a subprocess (``sys.modules[name] = None``). ``tests/extras`` installs
each extra for real, in venvs of their own."""

import subprocess
import sys
import tomllib

import pytest

from mazzo import extras
from mazzo.extras import EXTRAS, MissingExtra, extra_for_module, require
from tests.cli_runner import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
OPTIONAL = PYPROJECT["optional-dependencies"]
ALL_EXTRA_MODULES = sorted({m for modules in EXTRAS.values() for m in modules})


def _name(requirement):
    for stop in "[<>=!~; ":
        requirement = requirement.split(stop)[0]
    return requirement.strip().lower()


def _resolved(extra):
    """The distributions an extra installs, its own references (``mazzo[eval]``) followed."""
    names = set()
    for req in OPTIONAL[extra]:
        if req.startswith("mazzo["):
            for inner in req[len("mazzo[") : req.index("]")].split(","):
                names |= _resolved(inner.strip())
        else:
            names.add(_name(req))
    return names


def test_the_core_install_is_what_the_environments_need():
    assert sorted(_name(r) for r in PYPROJECT["dependencies"]) == [
        "gymnasium", "numpy", "pettingzoo"
    ]  # fmt: skip


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_the_table_of_extras_matches_pyproject(extra):
    # Every distribution of these extras is imported under its own name.
    assert _resolved(extra) == set(EXTRAS[extra])


def test_dev_installs_every_extra():
    assert set(EXTRAS) | {"learners"} <= _resolved_extras("dev")


def _resolved_extras(extra):
    refs = set()
    for req in OPTIONAL[extra]:
        if req.startswith("mazzo["):
            refs |= {e.strip() for e in req[len("mazzo[") : req.index("]")].split(",")}
    return refs


def test_require_names_the_extra_in_one_line(monkeypatch):
    real = extras.importlib.util.find_spec
    monkeypatch.setattr(
        extras.importlib.util, "find_spec", lambda m: None if m == "torch" else real(m)
    )
    require("eval", "eval")  # installed: nothing said
    with pytest.raises(MissingExtra) as e:
        require("train", "train")
    assert str(e.value) == "mazzo train needs the 'train' extra: pip install 'mazzo[train]'"
    assert (e.value.extra, e.value.module) == ("train", "torch")
    with pytest.raises(ValueError, match="unknown extra 'gpu'; extras: eval, train"):
        require("train", "gpu")


def test_a_module_names_its_smallest_extra_or_the_preferred_one():
    assert extra_for_module("torch.nn") == "train"
    assert extra_for_module("torch", prefer=("export",)) == "export"
    assert extra_for_module("onnxruntime") == "runtime"
    assert extra_for_module("scipy.stats") == "eval"
    assert extra_for_module("uvicorn") == "serve"
    assert extra_for_module("yaml") is None and extra_for_module(None) is None


def _mazzo_without(blocked, *args):
    """``mazzo ARGS`` in a subprocess where the ``blocked`` packages cannot be imported."""
    code = (
        "import sys\n"
        f"for name in {sorted(blocked)!r}:\n"
        "    sys.modules[name] = None\n"
        "from mazzo.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300,
        cwd=ROOT,
    )  # fmt: skip


def test_the_core_commands_run_with_no_extra_installed(tmp_path):
    out = _mazzo_without(ALL_EXTRA_MODULES, "--help")
    assert out.returncode == 0 and "eval" in out.stdout, out.stderr
    out = _mazzo_without(ALL_EXTRA_MODULES, "demo", "--deals", "1", "--seed", "3")
    assert out.returncode == 0, out.stderr
    out = _mazzo_without(ALL_EXTRA_MODULES, "dealset", "--n", "2", "--out", str(tmp_path / "d"))
    assert out.returncode == 0, out.stderr
    out = _mazzo_without(ALL_EXTRA_MODULES, "serve", "--stdio")  # stdin closed: ends at once
    assert out.returncode == 0, out.stderr


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (["eval", "random", "heuristic", "--n", "2"], "eval"),
        (["labels", "pimc", "--out", "x.jsonl", "--n", "1"], "eval"),
        (["train", "configs/calabresella_quick.toml"], "train"),
        (["export", "bot", "--out", "bundle"], "export"),
        (["export", "--check", "bundle"], "runtime"),
        (["serve", "--port", "8765"], "serve"),
    ],
    ids=lambda x: " ".join(x) if isinstance(x, list) else x,
)
def test_a_command_whose_extra_is_missing_says_which_to_install(args, extra):
    out = _mazzo_without(ALL_EXTRA_MODULES, *args)
    assert out.returncode == 2
    assert out.stderr == (
        f"mazzo {args[0]} needs the '{extra}' extra: pip install 'mazzo[{extra}]'\n"
    )


def test_an_agent_whose_extra_is_missing_names_it():
    """``nn:`` agents need torch (the train extra), found missing only when one is built."""
    out = _mazzo_without(
        ["torch"], "eval", "nn:checkpoints/calabresella", "random", "--n", "2", "--workers", "1"
    )
    assert out.returncode == 2
    assert out.stderr == "mazzo eval needs the 'train' extra: pip install 'mazzo[train]'\n"


# The modules that import an extra's package when imported: the network (torch) and the
# progress bar (tqdm). Everything else under envs/ and agents/ imports with the core install.
NEEDS_AN_EXTRA = {"mazzo.agents.nets", "mazzo.agents.neural", "mazzo.arena.progress"}

IMPORT_ALL = """
import importlib, json, pkgutil, sys
blocked, skip = json.loads(sys.argv[1]), set(json.loads(sys.argv[2]))
for name in blocked:
    sys.modules[name] = None
failed = {}
for package in ("mazzo.envs", "mazzo.agents", "mazzo.arena"):
    for info in pkgutil.walk_packages(importlib.import_module(package).__path__, package + "."):
        if info.name in skip or info.name.endswith(".__main__"):
            continue
        try:
            importlib.import_module(info.name)
        except ImportError as e:
            failed[info.name] = str(e)
print(json.dumps(failed))
"""


def test_the_environments_and_agents_import_with_the_core_install_alone():
    import json

    out = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL, json.dumps(ALL_EXTRA_MODULES),
         json.dumps(sorted(NEEDS_AN_EXTRA))],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {}
