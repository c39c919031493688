"""Every trainer config under ``configs/`` loads with its trainer's dataclass (every key known,
every value of its type), the checkpoints and label files it names exist, and the agents of
its own labels are agents of its game."""

from __future__ import annotations

from pathlib import Path

import pytest

from mazzo.agents.registry import make_agent
from mazzo.agents.shipped import named_weights
from mazzo.envs.registry import get_game
from mazzo.training.rl.config import load_config, read_toml
from mazzo.training.rl.dmc import DMCConfig
from mazzo.training.rl.expert_iteration import NET, ExitConfig
from mazzo.training.rl.ppo import PPOConfig
from mazzo.training.rl.repair import RepairConfig

ROOT = Path(__file__).resolve().parents[2]
RECIPES = sorted((ROOT / "configs").glob("*.toml"))
HISTORY = sorted((ROOT / "configs" / "history").glob("*.toml"))
CONFIGS = RECIPES + HISTORY
TRAINERS = {"ppo": PPOConfig, "dmc": DMCConfig, "exit": ExitConfig, "repair": RepairConfig}


def test_there_are_configs():
    assert {p.name for p in RECIPES} >= {"calabresella_quick.toml", "minchiate_exit.toml"}
    assert {p.name for p in HISTORY} >= {"minchiate_distill.toml", "minchiate_expert_round2.toml"}


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: str(p.relative_to(ROOT / "configs")))
def test_the_config_loads(path, monkeypatch):
    monkeypatch.chdir(ROOT)
    cls = TRAINERS[read_toml(path)["algorithm"]]
    cfg = load_config(cls, path, ignore=("algorithm",))
    if isinstance(cfg, RepairConfig):  # its network: a shipped bot or a folder
        game = get_game(cfg.game)
        assert (named_weights(cfg.init_from, game, game.rules(cfg.flags)) / "meta.json").exists()
        return
    if cfg.init_from:
        assert (ROOT / cfg.init_from / "meta.json").exists()
    for labels in cfg.distill_labels:
        assert (ROOT / labels).exists()
    if cfg.label_deals:  # the searcher and its opponents are agents of the game
        for spec in (cfg.label_searcher, *cfg.label_opponents):
            make_agent(spec.replace(NET, "bot"), cfg.game)  # the recipe's best network: a bot
    for spec in cfg.pool_agents:
        make_agent(spec, cfg.game)
