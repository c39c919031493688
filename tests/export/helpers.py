"""Tiny checkpoints for the export tests: a randomly initialised policy per game and algorithm,
written with the trainers' checkpoint writer, its weights spread so that the policy is far from
uniform (a parity test on near-uniform probabilities would prove little)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch

from mazzo.agents.nets import PolicyValueNet
from mazzo.envs.registry import get_game
from mazzo.training.rl.checkpoint import save_checkpoint

# A subprocess prelude: importing torch or training/ fails, as on a machine without them.
NO_TORCH = """
import sys

class NoTorch:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("torch", "training"):
            raise ModuleNotFoundError(f"No module named {name!r} (refused by the test)", name=name)
        return None

sys.meta_path.insert(0, NoTorch())
"""


def tiny_checkpoint(
    run_dir: Path, game: str, algorithm: str = "ppo", flags: dict[str, Any] | None = None,
    hidden: tuple[int, ...] = (32, 16), critic_extra: int = 0, seed: int = 0,
) -> Path:  # fmt: skip
    """A run directory holding one checkpoint of a random ``hidden`` MLP for ``game``."""
    info = get_game(game).info
    net = PolicyValueNet(info.obs_size, info.num_actions, hidden, critic_extra)
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in net.parameters():
            p.copy_(torch.randn(p.shape, generator=gen) * 0.5)
    meta = {
        "algorithm": algorithm,
        "game": game,
        "flags": dict(flags or {}),
        "encoding_version": info.encoding_version,
        "network": {
            "obs_size": info.obs_size, "num_actions": info.num_actions, "hidden": list(hidden),
            "critic_extra": critic_extra,
        },
        "update": 1,
        "decisions": 100,
    }  # fmt: skip
    save_checkpoint(run_dir, "ckpt-000001", net.state_dict(), {}, meta)
    return run_dir
