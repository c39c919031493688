"""Each extra installs alone and runs its job: a fresh venv gets the project's wheel with one
extra (or none) from pip, nothing more, and runs what that extra is for, outside the source
tree (so the installed package is what runs):

- the core install (``pip install mazzo``): the environments pass PettingZoo's API test, the
  core commands run, and no torch, SciPy or onnxruntime is installed;
- ``mazzo[eval]``: ``mazzo eval``;
- ``mazzo[runtime]``: an exported bot plays and ``mazzo export --check`` passes, without torch;
- ``mazzo[serve]``: ``mazzo serve --port`` answers over WebSocket with an ``onnx:`` bot;
- ``mazzo[train]`` (torch from its pin first, as the README says): ``mazzo train`` of a recipe
  found by name, the shipped ``bot`` and ``ipimc`` (its belief model and network) in ``mazzo
  eval``, ``mazzo play``'s first prompt against the bot;
- ``mazzo[export]``: ``mazzo export`` of the shipped bot.

Every job runs from a folder that holds packages of its own named ``envs``, ``agents`` and
``training`` (as a user's RL project does): mazzo lives under ``mazzo.`` alone and never loads
them, and everything a job needs (bots, belief models, recipes, deal sets) is in the wheel.

Slow (a venv and its installs each, from pip's cache where it can): marker ``extras``, left out
of the default run; ``.ci/run`` runs them once (``pytest -m extras tests/extras``).
"""

from __future__ import annotations

import json
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.cli_runner import ROOT
from tests.extras.conftest import TORCH, Venv, run

pytestmark = pytest.mark.extras

ENVS_PASS_THE_API_TEST = """
from pettingzoo.test import api_test
from mazzo.envs.registry import all_games
for game in all_games():
    api_test(game.env(), num_cycles=200)
print("api ok:", ", ".join(g.name for g in all_games()))
"""

INSTALLED = """
import importlib.util, json
names = ["torch", "tensorboard", "scipy", "tqdm", "onnxruntime", "onnx", "uvicorn", "ray"]
print(json.dumps({n: importlib.util.find_spec(n) is not None for n in names}))
"""


def _installed(bin_: Path, cwd: Path) -> set[str]:
    found = json.loads(run([bin_ / "python", "-c", INSTALLED], cwd=cwd))
    return {name for name, here in found.items() if here}


def _mazzo(
    bin_: Path, cwd: Path, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m mazzo ARGS`` in ``cwd``: the module form puts ``cwd`` first on the import
    path, as a user's own script in their project folder does."""
    _user_project(cwd)
    return subprocess.run(
        [str(bin_ / "python"), "-m", "mazzo", *args], cwd=cwd, capture_output=True, text=True,
        timeout=600, input=stdin,
    )  # fmt: skip


def _user_project(folder: Path) -> None:
    """Packages named ``envs``, ``agents`` and ``training`` in ``folder`` that fail on import:
    a mazzo that imported a top-level package of those names would fail with them."""
    for name in ("envs", "agents", "training"):
        package = folder / name
        package.mkdir(parents=True, exist_ok=True)
        (package / "__init__.py").write_text(f"raise ImportError('the user's own {name}')\n")


WHEEL_BUDGET = 36_000_000  # bytes (docs/architecture.md, "The budget")


def test_the_wheel_holds_every_shipped_bot_within_its_budget(wheel: Path) -> None:
    """Every file under ``checkpoints/`` that the wheel ships (the bots, their versions, the
    bots by rules, the levels, the belief models) is in it, and the wheel stays under its
    budget."""
    import zipfile

    shipped = {
        f"mazzo/{p.relative_to(ROOT).as_posix()}"
        for pattern in (
            "*/model.pt",
            "*/v1/model.pt",
            "*/levels/*/model.pt",
            "*/rules/*/model.pt",
            "*/belief/*",
        )
        for p in (ROOT / "checkpoints").glob(pattern)
    }
    assert any("minchiate/levels/" in name for name in shipped)
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    assert shipped <= names, sorted(shipped - names)
    assert wheel.stat().st_size < WHEEL_BUDGET, f"{wheel.stat().st_size:,} bytes"


def test_the_core_install_runs_the_environments(venv: Venv, tmp_path: Path) -> None:
    bin_ = venv(None)
    assert _installed(bin_, tmp_path) == set()
    assert "api ok: " in run([bin_ / "python", "-c", ENVS_PASS_THE_API_TEST], cwd=tmp_path)
    assert _mazzo(bin_, tmp_path, "demo", "--deals", "1", "--seed", "1").returncode == 0
    out = _mazzo(bin_, tmp_path, "eval", "random", "heuristic", "--n", "2")
    assert (out.returncode, out.stderr) == (
        2, "mazzo eval needs the 'eval' extra: pip install 'mazzo[eval]'\n"
    )  # fmt: skip


def test_eval_runs_with_the_eval_extra(venv: Venv, tmp_path: Path) -> None:
    bin_ = venv("eval")
    assert _installed(bin_, tmp_path) == {"scipy", "tqdm"}
    out = _mazzo(bin_, tmp_path, "eval", "random", "heuristic", "--n", "4", "--workers", "1")
    assert out.returncode == 0, out.stderr
    assert "heuristic" in out.stdout and "Elo" in out.stdout


PLAY_A_BUNDLE = """
import sys
import numpy as np
from mazzo.agents.registry import make_agent
from mazzo.envs.registry import get_game
game_name, folder = sys.argv[1:]
game = get_game(game_name)
agent = make_agent(f"onnx:{folder}", game_name)
rules = game.parse_flags([])
rng = np.random.default_rng(0)
state = game.new_state(game.deal_random(rng, rules), rules)
while not state.is_terminal():
    state.apply(agent.act(game.view(state, state.to_play), rng))
print("played:", list(state.returns()), "torch" in sys.modules)
"""


def test_the_bundle_runtime_runs_with_the_runtime_extra_alone(
    venv: Venv, tmp_path: Path, shipped_bundles: dict[str, Path]
) -> None:
    bin_ = venv("runtime")
    assert _installed(bin_, tmp_path) == {"onnxruntime"}
    for game, folder in shipped_bundles.items():
        said = run([bin_ / "python", "-c", PLAY_A_BUNDLE, game, folder], cwd=tmp_path)
        assert said.startswith("played: ") and said.endswith(" False\n")
        out = _mazzo(bin_, tmp_path, "export", "--check", str(folder))
        assert out.returncode == 0, out.stderr


WS_CLIENT = """
import json, sys
from websockets.sync.client import connect
with connect(sys.argv[1]) as ws:
    ws.send(json.dumps({"type": "hello", "protocol": "mazzo-bot/1", "id": 1}))
    hello = json.loads(ws.recv())
    ws.send(json.dumps({"type": "bots", "id": 2}))
    bots = json.loads(ws.recv())
print(json.dumps({"hello": hello["type"], "bots": bots["bots"]}))
"""


def test_serve_runs_with_the_serve_extra(
    venv: Venv, tmp_path: Path, shipped_bundles: dict[str, Path]
) -> None:
    bin_ = venv("serve")
    assert _installed(bin_, tmp_path) == {"onnxruntime", "uvicorn"}
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    bundle = shipped_bundles["calabresella"]
    server = subprocess.Popen(
        [str(bin_ / "mazzo"), "serve", "--port", str(port), "--bot", "heuristic=heuristic",
         "--bot", f"calabresella/net=onnx:{bundle}"],
        cwd=tmp_path, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert server.stderr is not None
        loading = server.stderr.readline()  # said at once, before the bots load
        assert loading.startswith("mazzo serve: loading the bots"), loading
        announced = server.stderr.readline()
        assert f"ws://127.0.0.1:{port}/ws" in announced, announced
        said = _ws(bin_, tmp_path, f"ws://127.0.0.1:{port}/ws")
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert said["hello"] == "hello"
    names = {b["name"] for b in said["bots"]["calabresella"]}
    assert names == {"heuristic", "net"}


def _ws(bin_: Path, cwd: Path, url: str) -> dict[str, object]:
    deadline = time.monotonic() + 60
    while True:
        try:
            return dict(json.loads(run([bin_ / "python", "-c", WS_CLIENT, url], cwd=cwd)))
        except AssertionError:  # the server may still be starting
            if time.monotonic() > deadline:
                raise
            time.sleep(1)


TINY_RUN = [
    "--set", "total_decisions=512", "--set", "n_envs=8", "--set", "rollout_decisions=256",
    "--set", "minibatch=128", "--set", "eval_every=2", "--set", "eval_deals=2",
    "--set", "hidden=[16]",
]  # fmt: skip


def test_train_runs_with_the_train_extra(venv: Venv, tmp_path: Path) -> None:
    bin_ = venv("train", first=[TORCH])
    assert _installed(bin_, tmp_path) == {"torch", "tensorboard", "scipy", "tqdm"}
    # a recipe by name, from the package
    out = _mazzo(bin_, tmp_path, "train", "calabresella_quick", *TINY_RUN, "--run-dir", "run")
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "run").is_dir() and "update 2 [100%]" in out.stdout + out.stderr
    # the shipped bots and the search with its learned parts, from the package
    for game in ("calabresella", "minchiate"):
        out = _mazzo(
            bin_, tmp_path, "eval", "bot", "ipimc:samples=4", "--game", game, "--n", "1",
            "--workers", "1", "--deals", f"{game}-2000-s1",
        )  # fmt: skip
        assert out.returncode == 0, out.stderr
        assert "bot" in out.stdout and "ipimc" in out.stdout
    # an earlier version keeps its number and says where its weights are
    out = _mazzo(bin_, tmp_path, "eval", "bot@3", "random", "--game", "minchiate", "--n", "1")
    assert out.returncode == 2 and "not installed with the package" in out.stderr
    # the README's first game: play against the bot, up to the first prompt
    out = _mazzo(bin_, tmp_path, "play", "--opponents", "bot", "--seed", "5", stdin="")
    assert out.returncode == 0, out.stderr
    assert "Your options:" in out.stdout and "bye" in out.stdout


def test_export_runs_with_the_export_extra(venv: Venv, tmp_path: Path) -> None:
    bin_ = venv("export", first=[TORCH])
    assert {"torch", "onnx", "onnxruntime"} <= _installed(bin_, tmp_path)
    out = _mazzo(
        bin_,
        tmp_path,
        "export",
        "bot",
        "--game",
        "calabresella",
        "--out",
        "bundle",
        "--vectors",
        "8",
    )
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "bundle" / "manifest.json").is_file()
    assert (tmp_path / "bundle" / "encoding.md").is_file()  # the spec, from the package
