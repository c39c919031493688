"""The self-play bots (``checkpoints/<game>/selfplay``, issue 22's target 3): each loads as an
``nn:`` agent and plays legal moves, is no version of the shipped ``bot``, and its stored
config proves its provenance: the run of ``configs/<game>_selfplay.toml`` exactly, from random
weights, without imitation, search labels or another network's weights."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mazzo.agents.registry import make_agent
from mazzo.agents.shipped import SHIPPED, shipped_bots
from mazzo.envs.registry import get_game
from mazzo.training.rl.config import config_dict, field_defaults, load_config
from mazzo.training.rl.ppo import PPOConfig

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("calabresella", "minchiate")


def _bot(game: str) -> Path:
    return ROOT / "checkpoints" / game / "selfplay"


@pytest.mark.parametrize("game", GAMES)
def test_it_loads_and_plays_legal_moves(game):
    agent = make_agent(f"nn:{_bot(game)}", game)
    g = get_game(game)
    rules = g.rules()
    rng = np.random.default_rng(5)
    for _ in range(3):
        state = g.new_state(g.deal_random(rng, rules), rules)
        while not state.is_terminal():
            action = agent.act(g.view(state, state.to_play), rng)
            assert action in state.legal_actions()
            state.apply(action)


@pytest.mark.parametrize("game", GAMES)
def test_it_is_no_version_of_the_shipped_bot(game):
    assert _bot(game) not in shipped_bots(SHIPPED, game).values()


@pytest.mark.parametrize("game", GAMES)
def test_its_config_is_the_selfplay_config_from_no_weights(game):
    # (a key added to the trainers since the bot was trained holds its default there)
    stored = field_defaults(PPOConfig) | json.loads((_bot(game) / "config.json").read_text())
    path = ROOT / "configs" / f"{game}_selfplay.toml"
    assert stored == config_dict(load_config(PPOConfig, path, ignore=("algorithm",)))
    assert stored["game"] == game and stored["init_from"] == "" and stored["bc_decisions"] == 0
    assert stored["distill_labels"] == [] and stored["label_deals"] == 0
    assert stored["distill_coef"] == 0.0 and stored["lr_decay_decisions"] > 0
    meta = json.loads((_bot(game) / "meta.json").read_text())
    assert meta["decisions"] >= stored["total_decisions"]
