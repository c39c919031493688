"""The torch-free runtime: the refusals of ``load_bundle`` and ``Bundle.check``, the ``onnx:``
agent, and a Python where importing torch fails loading, checking and playing bundles."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mazzo.agents.bundle import BundleAgent, load_bundle
from mazzo.agents.bundle.check import check_vectors, main
from mazzo.agents.registry import make_agent
from mazzo.envs.registry import get_game
from tests.export.helpers import NO_TORCH

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def copy(tiny_bundles, tmp_path):
    """A writable copy of the tiny calabresella bundle."""
    dst = tmp_path / "bundle"
    shutil.copytree(tiny_bundles["calabresella"][1], dst)
    return dst


def edit_manifest(folder, **changes):
    m = json.loads((folder / "manifest.json").read_text())
    m.update(changes)
    (folder / "manifest.json").write_text(json.dumps(m))
    return m


def test_another_game_is_refused(tiny_bundles):
    bundle = load_bundle(tiny_bundles["calabresella"][1])
    other = get_game("minchiate")
    with pytest.raises(ValueError, match="is a bundle for calabresella, not for minchiate"):
        bundle.check(other, other.rules())
    with pytest.raises(ValueError, match="is a bundle for calabresella, not for minchiate"):
        make_agent(f"onnx:{tiny_bundles['calabresella'][1]}", "minchiate")


def test_other_flags_are_refused_naming_the_flag(tiny_bundles):
    bundle = load_bundle(tiny_bundles["minchiate"][1])
    game = get_game("minchiate")
    bundle.check(game, game.rules())
    with pytest.raises(ValueError, match=r"flag 'must_overtrump' False \(here True\)"):
        bundle.check(game, game.rules({"must_overtrump": True}))


def test_another_encoding_version_or_size_is_refused(copy):
    edit_manifest(copy, encoding_version=99, obs_size=5)
    bundle = load_bundle(copy)
    with pytest.raises(
        ValueError, match=r"encoding_version 99 \(here 1\); obs_size 5 \(here 720\)"
    ):
        bundle.check("calabresella")
    with pytest.raises(ValueError, match="encoding_version 99"):
        BundleAgent(bundle)


def test_a_changed_file_is_refused(copy):
    with (copy / "policy.onnx").open("ab") as f:
        f.write(b"\0")
    with pytest.raises(ValueError, match=r"policy.onnx: sha256 differs from manifest.json's"):
        load_bundle(copy)


def test_a_missing_file_is_refused(copy):
    (copy / "test_vectors.jsonl").unlink()
    with pytest.raises(ValueError, match=r"missing test_vectors.jsonl \(listed in manifest.json\)"):
        load_bundle(copy)


def test_a_bad_manifest_is_refused(copy, tmp_path):
    with pytest.raises(ValueError, match="not a bundle folder"):
        load_bundle(tmp_path / "nowhere")
    with pytest.raises(ValueError, match=r"no manifest\.json"):
        load_bundle(tmp_path)
    edit_manifest(copy, format="mazzo-bundle/0")
    with pytest.raises(ValueError, match=r"format 'mazzo-bundle/0', expected 'mazzo-bundle/1'"):
        load_bundle(copy)
    edit_manifest(copy, format="mazzo-bundle/1", num_actions="62")
    with pytest.raises(ValueError, match=r"field 'num_actions' must be an integer, got '62'"):
        load_bundle(copy)
    m = edit_manifest(copy, num_actions=62)
    edit_manifest(copy, files={**m["files"], "../manifest.json": "0" * 64})
    with pytest.raises(ValueError, match=r"lists '\.\./manifest\.json', not a file name"):
        load_bundle(copy)
    (copy / "manifest.json").write_text("{")
    with pytest.raises(ValueError, match=r"unreadable manifest\.json"):
        load_bundle(copy)


def test_the_self_check_finds_a_changed_vector(copy, capsys):
    lines = (copy / "test_vectors.jsonl").read_text().splitlines()
    vec = json.loads(lines[2])
    vec["obs"][0] = 0.5 if vec["obs"][0] != 0.5 else 0.25
    vec["probs"][int(np.argmax(vec["mask"]))] += 0.01
    lines[2] = json.dumps(vec)
    (copy / "test_vectors.jsonl").write_text("\n".join(lines) + "\n")
    import hashlib

    digest = hashlib.sha256((copy / "test_vectors.jsonl").read_bytes()).hexdigest()
    m = json.loads((copy / "manifest.json").read_text())
    m["files"]["test_vectors.jsonl"] = digest
    (copy / "manifest.json").write_text(json.dumps(m))
    report = check_vectors(load_bundle(copy))
    assert [p.split(":")[0] for p in report.problems] == ["test vector 3"] * 2
    assert "observation differs by" in report.problems[0]
    assert "probabilities differ by" in report.problems[1]
    assert main(["check", str(copy)]) == 1
    assert "FAILS (2 problems)" in capsys.readouterr().out


def test_sampling_is_legal_and_follows_the_generator(tiny_bundles):
    folder = tiny_bundles["minchiate"][1]
    agent = make_agent(f"onnx:{folder},sample=true", "minchiate")
    assert isinstance(agent, BundleAgent) and agent.sample
    game = get_game("minchiate")
    rules = game.rules()
    state = game.new_state(game.deal_random(np.random.default_rng(1), rules), rules)
    view = game.view(state, state.to_play)
    picks = agent.act_batch([view] * 200, np.random.default_rng(5))
    assert picks == agent.act_batch([view] * 200, np.random.default_rng(5))
    assert set(picks) <= set(state.legal_actions()) and len(set(picks)) > 1
    greedy = make_agent(f"onnx:{folder}", "minchiate")
    assert len(set(greedy.act_batch([view] * 20, np.random.default_rng(5)))) == 1


PLAY = (
    NO_TORCH
    + """
import json
import numpy as np
from mazzo.agents.bundle import load_bundle
from mazzo.agents.bundle.check import check_vectors
from mazzo.agents.registry import make_agent
from mazzo.envs.registry import get_game

results = {}
for arg in sys.argv[1:]:
    bundle = load_bundle(arg)
    game = get_game(bundle.game_name)
    rules = bundle.rules()
    bundle.check(game, rules)
    report = check_vectors(bundle)
    agents = [make_agent(f"onnx:{arg}", game.name), make_agent(f"onnx:{arg},sample=true", game.name)]
    rng = np.random.default_rng(7)
    state = game.new_state(game.deal_random(rng, rules), rules)
    steps = 0
    while not state.is_terminal():
        action = agents[steps % 2].act(game.view(state, state.to_play), rng)
        assert action in state.legal_actions()
        state.apply(action)
        steps += 1
    results[game.name] = {"ok": report.ok, "vectors": report.vectors, "steps": steps,
                          "returns": list(state.returns())}
results["loaded"] = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "training"))
print(json.dumps(results))
"""
)


def run_without_torch(code, *args):
    return subprocess.run(
        [sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True,
        timeout=300, cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip


def test_without_torch_the_runtime_loads_checks_and_plays_each_game(tiny_bundles, shipped_bundles):
    folders = [b for _, b in tiny_bundles.values()] + list(shipped_bundles.values())
    out = run_without_torch(PLAY, *folders)
    assert out.returncode == 0, out.stderr
    results = json.loads(out.stdout)
    assert results.pop("loaded") == []
    assert set(results) == {"calabresella", "minchiate"}
    for game, r in results.items():
        assert r["ok"] and r["vectors"] > 0 and r["steps"] > 0, (game, r)
        assert any(r["returns"]), (game, r)


def test_without_torch_the_check_command_runs(shipped_bundles):
    code = (
        NO_TORCH
        + "import runpy\nsys.argv = ['bundle', *sys.argv[1:]]\n"
        + ("runpy.run_module('mazzo.agents.bundle', run_name='__main__', alter_sys=True)")
    )
    for folder in shipped_bundles.values():
        out = run_without_torch(code, "check", folder)
        assert out.returncode == 0, out.stderr
        assert "bundle passes: 64 test vectors" in out.stdout
    out = run_without_torch(code, "check", ROOT / "no-such-bundle")
    assert out.returncode == 2 and "not a bundle folder" in out.stderr
    assert "Traceback" not in out.stderr


def test_the_torch_guard_works():
    out = run_without_torch(NO_TORCH + "import torch")
    assert out.returncode != 0 and "refused by the test" in out.stderr


SERVE = (
    NO_TORCH
    + """
import json
import numpy as np
from mazzo.envs.registry import get_game
from mazzo.serve.bots import Bots, parse_bot_option
from mazzo.serve.protocol import Limits
from mazzo.serve.server import Server

ends = {}
for arg in sys.argv[1:]:
    name = json.loads(open(arg + "/manifest.json").read())["game"]
    game = get_game(name)
    seats = ["client"] + ["onnx"] * (game.seats(game.rules()) - 1)
    server = Server(Bots([parse_bot_option(f"{name}/onnx=onnx:{arg}")]), Limits())
    conn = server.connect("test")
    open_ = {"type": "open", "mode": "table", "game": name, "seats": seats, "seed": 3}
    out = server.handle(conn, json.dumps(open_))
    rng = np.random.default_rng(0)
    while out[-1]["type"] == "turn":
        legal = out[-1]["legal"]
        move = {"type": "move", "game": out[-1]["game"], "action": legal[int(rng.integers(len(legal)))]}
        out = server.handle(conn, json.dumps(move))
    ends[name] = out[-1]["type"]
ends["loaded"] = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "training"))
print(json.dumps(ends))
"""
)


def test_without_torch_the_server_plays_a_table_with_onnx_bots(shipped_bundles):
    """The serving path of an ``onnx:`` bot (``mazzo.serve``: bots, server, protocol) runs on a
    machine without torch and without the trainers: whole table games against the bundles."""
    out = run_without_torch(SERVE, *shipped_bundles.values())
    assert out.returncode == 0, out.stderr
    results = json.loads(out.stdout)
    assert results.pop("loaded") == []
    assert results == dict.fromkeys(shipped_bundles, "end")
