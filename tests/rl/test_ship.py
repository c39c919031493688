"""Shipping a bot (``mazzo.training.rl.ship``): the files a ``bot`` loads, and an earlier bot kept as
``v<N>/`` beside whatever else the folder holds."""

import json

import pytest
import torch

from mazzo.agents.shipped import shipped_bots
from mazzo.training.rl.ppo import PPOConfig, train
from mazzo.training.rl.ship import BOT_FILES, ship

TINY = {
    "n_envs": 4, "rollout_decisions": 64, "minibatch": 64, "epochs": 1, "hidden": (8,),
    "threads": 1, "eval_every": 0,
}  # fmt: skip


def test_shipping_twice_keeps_the_first_bot_as_v1_and_the_rest_of_the_folder(tmp_path):
    run = tmp_path / "run"
    train(PPOConfig(game="calabresella", total_decisions=64, **TINY), run, log=lambda _: None)
    out = tmp_path / "checkpoints" / "calabresella"
    (out / "belief").mkdir(parents=True)
    (out / "belief" / "meta.json").write_text("{}")  # a belief model, not a bot version
    first = ship(run, out, "first card\n")
    assert first["game"] == "calabresella" and sorted(p.name for p in out.iterdir()) == sorted(
        [*BOT_FILES, "belief"]
    )
    assert shipped_bots(out.parent, "calabresella") == {1: out}
    ship(run, out, "second card\n")
    assert shipped_bots(out.parent, "calabresella") == {1: out / "v1", 2: out}
    assert (out / "v1" / "CARD.md").read_text() == "first card\n"
    assert (out / "CARD.md").read_text() == "second card\n"
    assert (out / "belief" / "meta.json").exists()
    assert json.loads((out / "v1" / "meta.json").read_text()) == first
    a = torch.load(out / "model.pt", weights_only=True)
    b = torch.load(out / "v1" / "model.pt", weights_only=True)
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    ship(run, out, "third\n")
    assert list(shipped_bots(out.parent, "calabresella")) == [1, 2, 3]


def test_a_run_without_a_checkpoint_ships_nothing(tmp_path):
    out = tmp_path / "checkpoints" / "minchiate"
    with pytest.raises(ValueError):
        ship(tmp_path / "empty", out, "card")
    assert not out.exists()
