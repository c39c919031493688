"""The Minchiate self-play bot (``checkpoints/minchiate/selfplay``, issue 22's target 3): it
loads as an ``nn:`` agent and plays, it is no version of the shipped ``bot``, and its stored
config proves its provenance: the run of ``configs/minchiate_selfplay.toml`` exactly, from
random weights, without imitation, search labels or another network's weights."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from agents.registry import SHIPPED, make_agent, shipped_bots
from envs.registry import get_game
from training.rl.config import config_dict, load_config
from training.rl.ppo import PPOConfig

ROOT = Path(__file__).resolve().parents[1]
BOT = ROOT / "checkpoints" / "minchiate" / "selfplay"


def test_it_loads_and_plays_legal_moves():
    agent = make_agent(f"nn:{BOT}", "minchiate")
    game = get_game("minchiate")
    rules = game.rules()
    rng = np.random.default_rng(5)
    for _ in range(3):
        state = game.new_state(game.deal_random(rng, rules), rules)
        while not state.is_terminal():
            action = agent.act(game.view(state, state.to_play), rng)
            assert action in state.legal_actions()
            state.apply(action)


def test_it_is_no_version_of_the_shipped_bot():
    assert BOT not in shipped_bots(SHIPPED, "minchiate").values()


def test_its_config_is_the_selfplay_config_from_no_weights():
    stored = json.loads((BOT / "config.json").read_text())
    cfg = load_config(
        PPOConfig, ROOT / "configs" / "minchiate_selfplay.toml", ignore=("algorithm",)
    )
    assert stored == config_dict(cfg)
    assert stored["init_from"] == "" and stored["bc_decisions"] == 0
    assert stored["distill_labels"] == [] and stored["label_deals"] == 0
    assert stored["distill_coef"] == 0.0
    meta = json.loads((BOT / "meta.json").read_text())
    assert meta["decisions"] >= stored["total_decisions"] > stored["lr_decay_start"]
