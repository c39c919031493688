"""What ``export_bundle`` writes: the files, the manifest, the ONNX graph's inputs and outputs,
the test vectors, and the parity of ONNX and TorchScript with the PyTorch policy."""

from __future__ import annotations

import json
import warnings

import numpy as np
import onnx
import onnxruntime as ort
import pytest
import torch

from mazzo.agents.bundle import BUNDLE_FORMAT, action_labels, load_bundle, sha256
from mazzo.agents.bundle.check import check_vectors, read_vectors
from mazzo.agents.neural import load_policy, read_policy
from mazzo.agents.shipped import SHIPPED
from mazzo.envs.cards.flags import resolved_flags
from mazzo.envs.registry import get_game
from mazzo.training.export import export_bundle
from tests.export.conftest import DECISION_PHASES, SHIPPED_GAMES, TINY
from tests.export.helpers import tiny_checkpoint

FILES = {"policy.onnx", "policy.pt", "test_vectors.jsonl"}


def bundles(tiny, shipped):
    """(label, source checkpoint, bundle folder) of every exported bundle."""
    return [(f"tiny-{g}", run, b) for g, (run, b) in tiny.items()] + [
        (f"bot-{g}", SHIPPED / g, b) for g, b in shipped.items()
    ]


def test_the_manifest_describes_the_game_the_network_and_every_file(tiny_bundles, shipped_bundles):
    for label, source, folder in bundles(tiny_bundles, shipped_bundles):
        m = json.loads((folder / "manifest.json").read_text())
        _, meta = read_policy(source)
        game = get_game(meta["game"])
        info, rules = game.info, game.rules(meta["flags"])
        assert m["format"] == BUNDLE_FORMAT, label
        assert (m["game"], m["record_format"]) == (game.name, info.record_format)
        assert (m["encoding_version"], m["obs_size"], m["num_actions"]) == (
            info.encoding_version, info.obs_size, info.num_actions,
        )  # fmt: skip
        assert m["obs_slices"] == {k: list(v) for k, v in info.obs_slices.items()}
        assert m["action_labels"] == action_labels(game, rules)
        assert len(m["action_labels"]) == info.num_actions
        assert m["flags"] == resolved_flags(rules) and set(m["flags"]) >= set(rules.to_flags())
        assert m["algorithm"] == meta["algorithm"]
        assert m["network"]["hidden"] == meta["network"]["hidden"]
        assert m["onnx"]["opset"] >= 17
        assert m["onnx"]["inputs"] == [
            {"name": "obs", "dtype": "float32", "shape": ["batch", info.obs_size]},
            {"name": "mask", "dtype": "int8", "shape": ["batch", info.num_actions]},
        ]
        assert [o["name"] for o in m["onnx"]["outputs"]] == ["probs", "logits"]
        listed = set(m["files"])
        assert listed >= FILES and "manifest.json" not in listed
        assert listed == {p.name for p in folder.iterdir()} - {"manifest.json"}
        assert all(sha256(folder / name) == digest for name, digest in m["files"].items())
        assert m["source"]["game"] == game.name and m["source"]["decisions"] == meta["decisions"]
        assert m["mazzo_version"]


def test_the_onnx_graph_takes_obs_and_mask_with_a_dynamic_batch(tiny_bundles):
    for game, (_, folder) in tiny_bundles.items():
        info = get_game(game).info
        model = onnx.load(str(folder / "policy.onnx"))
        onnx.checker.check_model(model, full_check=True)
        inputs = {i.name: i.type.tensor_type for i in model.graph.input}
        assert set(inputs) == {"obs", "mask"}
        assert inputs["obs"].elem_type == onnx.TensorProto.FLOAT
        assert inputs["mask"].elem_type == onnx.TensorProto.INT8
        for name, width in (("obs", info.obs_size), ("mask", info.num_actions)):
            batch, cols = inputs[name].shape.dim
            assert batch.dim_param and not batch.dim_value
            assert cols.dim_value == width
        assert [o.name for o in model.graph.output] == ["probs", "logits"]
        session = ort.InferenceSession(str(folder / "policy.onnx"))
        rng = np.random.default_rng(0)
        for b in (1, 16, 257):
            obs = rng.random((b, info.obs_size), dtype=np.float32)
            mask = (rng.random((b, info.num_actions)) < 0.3).astype(np.int8)
            mask[:, 0] = 1
            probs, logits = session.run(None, {"obs": obs, "mask": mask})
            assert probs.shape == logits.shape == (b, info.num_actions)
            assert np.all(probs[mask == 0] == 0.0)
            assert np.allclose(probs.sum(axis=1), 1, atol=1e-5)
            assert np.all(logits[mask == 0] == np.finfo(np.float32).min)


def _torch_policy(source):
    """(obs, mask) -> probs of the PyTorch policy as ``NeuralAgent`` holds it."""
    agent, _ = load_policy(source)

    def probs(obs, mask):
        with torch.no_grad():
            logits = agent.net.logits(torch.from_numpy(obs), torch.from_numpy(mask))
            probs = torch.softmax(logits, dim=-1).numpy()
            return np.where(mask != 0, probs, 0.0)  # a seat not on turn: all zero

    return probs


def test_onnx_and_torchscript_give_the_pytorch_probabilities(tiny_bundles, shipped_bundles):
    for label, source, folder in bundles(tiny_bundles, shipped_bundles):
        bundle = load_bundle(folder)
        vectors = read_vectors(bundle)
        obs = np.asarray([v["obs"] for v in vectors], np.float32)
        mask = np.asarray([v["mask"] for v in vectors], np.int8)
        want = _torch_policy(source)(obs, mask)
        on_turn = mask.any(axis=1)
        assert 0 < (~on_turn).sum() < len(vectors) / 2, f"{label}: some views off turn"
        assert want[on_turn].max(axis=1).mean() > 0.3, (
            f"{label}: a near-uniform policy proves little"
        )
        runtime = bundle.probs(obs, mask)
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore", DeprecationWarning)  # torch 2.13 deprecates jit
            script = torch.jit.load(str(folder / "policy.pt"))
            scripted = script(torch.from_numpy(obs), torch.from_numpy(mask))[0].numpy()
        for got in (runtime, scripted, np.asarray([v["probs"] for v in vectors], np.float32)):
            assert np.abs(got - want).max() <= 1e-5, label
        assert np.all(runtime[mask == 0] == 0.0)


def test_the_test_vectors_are_replayable_views_spread_across_phases(tiny_bundles, shipped_bundles):
    for label, _source, folder in bundles(tiny_bundles, shipped_bundles):
        bundle = load_bundle(folder)
        vectors = read_vectors(bundle)
        assert len(vectors) == bundle.manifest["test_vectors"]["count"]
        game = bundle.game()
        assert {v["phase"] for v in vectors} == DECISION_PHASES[game.name], label
        off_turn = 0
        for v in vectors:
            assert v["record"]["format"] == game.info.record_format
            assert v["step"] == len(v["record"]["actions"])
            state = game.replay(v["record"], None)
            assert v["phase"] == state.phase.name  # the engine's name, upper case
            if state.to_play != v["seat"]:  # the view of a seat not on turn
                off_turn += 1
                assert not any(v["mask"]) and not any(v["probs"]), label
            else:
                assert any(v["mask"]), label
            assert len(v["obs"]) == game.info.obs_size and len(v["mask"]) == game.info.num_actions
        assert 0 < off_turn < len(vectors) / 2, label
        report = check_vectors(bundle)
        assert report.ok and report.vectors == len(vectors), report.problems


def test_the_export_is_reproducible(tiny_bundles, tmp_path):
    run, folder = tiny_bundles["calabresella"]
    export_bundle(run, tmp_path / "again", vectors=24, seed=3)
    for name in ("test_vectors.jsonl", "manifest.json"):
        again = (tmp_path / "again" / name).read_text()
        if name == "manifest.json":
            a, b = json.loads(again), json.loads((folder / name).read_text())
            assert a["files"]["test_vectors.jsonl"] == b["files"]["test_vectors.jsonl"]
        else:
            assert again == (folder / name).read_text()


@pytest.mark.parametrize("game", sorted(TINY))
def test_the_bundle_acts_as_the_pytorch_agent_does(game, tiny_bundles):
    from mazzo.agents.bundle import BundleAgent

    run, folder = tiny_bundles[game]
    neural, _ = load_policy(run)
    agent = BundleAgent(load_bundle(folder))
    spec = get_game(game)
    states = [(spec.replay(v["record"], None), v["seat"]) for v in read_vectors(agent.bundle)]
    views = [spec.view(state, seat) for state, seat in states if state.to_play == seat]
    rng = np.random.default_rng(0)
    assert agent.act_batch(views, rng) == neural.act_batch(views, rng)
    assert [agent.act(v, rng) for v in views[:5]] == neural.act_batch(views[:5], rng)


def test_rules_flags_travel_with_the_bundle(tmp_path):
    game = get_game("calabresella")
    run = tiny_checkpoint(tmp_path / "run", game.name, flags={"aperta": True, "target": 31})
    export_bundle(run, tmp_path / "b", vectors=4)
    bundle = load_bundle(tmp_path / "b")
    assert bundle.flags["aperta"] is True and bundle.flags["target"] == 31
    assert bundle.flags == resolved_flags(game.rules({"aperta": True, "target": 31}))
    bundle.check(game, game.rules({"aperta": True, "target": 31}))
    with pytest.raises(ValueError, match=r"flag 'aperta' True \(here False\).*flag 'target'"):
        bundle.check(game, game.rules())
    for v in read_vectors(bundle):
        assert v["record"]["rules"]["flags"] == {"aperta": True, "target": 31}


def test_shipped_games_are_the_games_with_a_shipped_bot():
    assert {p.parent.name for p in SHIPPED.glob("*/meta.json")} == set(SHIPPED_GAMES)
