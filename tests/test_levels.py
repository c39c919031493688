"""Strength levels (``bot:level=N``): the promoted rounds of an expert-iteration run shipped as
a ladder (``mazzo.training.rl.levels``), found by the ``bot`` agent, named with their ratings
in its help, and offered by a server started without ``--bot``. A tiny run made here stands in
for the recipe's (``mazzo.agents.shipped.SHIPPED`` pointed at a folder of the test's)."""

import json
import shutil

import pytest
import torch

import mazzo.agents.registry as registry
import mazzo.agents.shipped as shipped_module
from mazzo.agents.neural import read_policy
from mazzo.agents.registry import agent_info, make_agent
from mazzo.envs.registry import get_game
from mazzo.serve.bots import Bots, default_bots, parse_bot_option
from mazzo.training.rl.levels import level_rounds, ship_levels, write_ratings
from mazzo.training.rl.ppo import PPOConfig, train
from tests.cli_runner import ROOT

GAME = get_game("calabresella")
TINY = {"n_envs": 4, "rollout_decisions": 128, "minibatch": 64, "eval_every": 0, "threads": 1}


def test_level_rounds_spread_the_promoted_rounds_from_the_weakest():
    assert level_rounds([0, 1, 2, 3], best=3, count=4) == [0, 1, 2]
    assert level_rounds([0, 1, 2, 3], best=3, count=4, with_best=True) == [0, 1, 2, 3]
    assert level_rounds([0, 1, 2, 4, 5, 7, 8], best=8, count=3) == [0, 4, 7]
    assert level_rounds([0, 2], best=2, count=4) == [0]  # unpromoted rounds are never levels


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    """A fake expert-iteration run of three rounds (round 1 not promoted) shipped as levels
    beside a copy of the Calabresella bot."""
    root = tmp_path_factory.mktemp("checkpoints")
    shutil.copytree(ROOT / "checkpoints" / "calabresella", root / "calabresella",
                    ignore=shutil.ignore_patterns("selfplay", "belief", "levels"))  # fmt: skip
    run = tmp_path_factory.mktemp("exit")
    records = []
    for k in range(3):
        cfg = PPOConfig(game="calabresella", total_decisions=128, hidden=(8 + k,), seed=k, **TINY)
        train(cfg, run / f"round-{k:02d}", log=lambda _line: None)
        best = 2 if k == 2 else 0
        records.append({"round": k, "promoted": k != 1, "best": best, "evals": {}})
    (run / "rounds.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    folders = ship_levels(run, root / "calabresella", count=4, with_best=True)
    assert [f.name for f in folders] == ["1", "2"]  # rounds 0 and 2
    return root, run


@pytest.fixture
def levels(shipped, monkeypatch):
    root, _ = shipped
    monkeypatch.setattr(shipped_module, "SHIPPED", root)
    monkeypatch.setattr(registry, "_REGISTRY", {})
    monkeypatch.setattr(registry, "_loaded", False)
    return root / "calabresella" / "levels"


def test_a_level_is_its_rounds_network_in_half_precision(shipped, levels):
    _, run = shipped
    for n, k in ((1, 0), (2, 2)):
        model, meta = read_policy(levels / str(n))
        assert meta["level"] == {
            "level": n,
            "round": k,
            "note": f"recipe round {k}",
            "rating": None,
        }
        original, _ = read_policy(run / f"round-{k:02d}")
        assert all(t.dtype == torch.float16 for t in model.values())
        for name, t in original.items():
            torch.testing.assert_close(model[name].float(), t, atol=2e-3, rtol=1e-3)


def test_bot_level_plays_the_level_and_its_help_gives_the_ratings(levels):
    summary = {"agents": [
        {"label": "bot:level=1", "elo": -150.24}, {"label": "bot:level=2", "elo": 80.0},
        {"label": "heuristic", "elo": 0.0},
    ]}  # fmt: skip
    assert write_ratings(levels.parent, summary, {1: "bot:level=1", 2: "bot:level=2"}) == {
        1: -150.2, 2: 80.0,
    }  # fmt: skip
    info = agent_info("bot", GAME)
    assert "levels 1 (-150 Elo), 2 (+80 Elo), the heuristic at 0 Elo" in info.help
    one = make_agent("bot:level=1", GAME, GAME.rules())
    assert one.net.policy.in_features == 8  # round 0's network (hidden 8)
    assert make_agent("bot:level=2", GAME).net.policy.in_features == 10
    assert make_agent("bot", GAME).net.policy.in_features != 8  # the bot itself
    with pytest.raises(ValueError, match=r"'level=3': out of range; allowed: level \(int 0\.\.2"):
        make_agent("bot:level=3", GAME)
    with pytest.raises(ValueError, match="summary has no rating for 'bot:level=9'"):
        write_ratings(levels.parent, summary, {1: "bot:level=9"})


def test_a_server_started_without_bots_offers_the_levels(levels):
    names = default_bots()
    assert (
        "calabresella/level-1=bot:level=1" in names and "calabresella/level-2=bot:level=2" in names
    )
    assert not any(n.startswith("minchiate/level-") for n in names)  # it ships none here
    bots = Bots([parse_bot_option(b) for b in names], skip_missing=True)
    assert bots.names("calabresella")[-2:] == ["level-1", "level-2"]
    described = {b["name"]: b for b in bots.describe()["calabresella"]}
    assert described["level-1"]["spec"] == "bot:level=1"
    assert "level-1" not in bots.names("minchiate")


@pytest.mark.parametrize("game", ["calabresella", "minchiate"])
def test_the_shipped_ladders_are_rated_in_order_and_play(game):
    """Each game ships a ladder (Calabresella four levels, Minchiate three): every level rated,
    each above the one before and below the bot, each a network that plays a legal move."""
    import numpy as np

    g = get_game(game)
    levels = shipped_module.shipped_levels(shipped_module.SHIPPED, game)
    assert len(levels) >= 3
    ratings = [levels[n].rating for n in sorted(levels)]
    assert all(r is not None for r in ratings)
    assert ratings == sorted(ratings) and len(set(ratings)) == len(ratings)
    state = g.new_state(g.deal_random(np.random.default_rng(7), g.rules()), g.rules())
    view = state.info_view(state.to_play)
    for n in levels:
        agent = make_agent(f"bot:level={n}", g)
        assert agent.act(view, np.random.default_rng(0)) in state.legal_actions()
