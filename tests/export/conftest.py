"""Bundles exported once per test session (each export takes seconds): a tiny random PPO
policy of one game, a tiny random DMC policy (with a hidden-card critic) of the other, and the
shipped bots."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.export.helpers import tiny_checkpoint
from training.export import export_bundle

SHIPPED_GAMES = ("calabresella", "minchiate")
TINY = {
    "calabresella": ("ppo", 0),
    "minchiate": ("dmc", 40),
}


@pytest.fixture(scope="session")
def tiny_bundles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    """game -> (its tiny run directory, its bundle)."""
    root = tmp_path_factory.mktemp("tiny")
    out = {}
    for game, (algo, extra) in TINY.items():
        run = tiny_checkpoint(root / f"{game}-run", game, algo, critic_extra=extra)
        export_bundle(run, root / f"{game}-bundle", vectors=24, seed=3)
        out[game] = (run, root / f"{game}-bundle")
    return out


@pytest.fixture(scope="session")
def shipped_bundles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """game -> the bundle of its shipped bot (64 test vectors)."""
    root = tmp_path_factory.mktemp("shipped")
    for game in SHIPPED_GAMES:
        export_bundle("bot", root / game, game=game)
    return {game: root / game for game in SHIPPED_GAMES}
