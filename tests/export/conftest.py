"""Bundles exported once per test session (each export takes seconds): a tiny random PPO
policy of one game, a tiny random DMC policy (with a hidden-card critic) of the other, and the
shipped bots.

Under pytest-xdist the workers share them: the first worker to ask builds them into the
session's common temporary folder under a file lock, the others wait and read them (the
pattern of pytest-xdist's docs). Without xdist they go to this session's temporary folder.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock

from mazzo.training.export import export_bundle
from tests.export.helpers import tiny_checkpoint

SHIPPED_GAMES = ("calabresella", "minchiate")
# Every phase in which a seat decides under the default rules: each appears in every bundle's
# test vectors (Minchiate's MATTO_PAY is a decision only under matto_payment = agent).
DECISION_PHASES = {
    "calabresella": {
        "BID", "CALL", "RETURN", "SOLO_DISCARD", "DIV_DISCARD", "SPLIT", "SCE_DISCARD", "PLAY",
    },
    "minchiate": {"DISCARD_CUTTER", "DISCARD_DEALER", "DECLARE", "PLAY"},
}  # fmt: skip
TINY = {
    "calabresella": ("ppo", 0),
    "minchiate": ("dmc", 40),
}


def _built_once(
    factory: pytest.TempPathFactory, worker_id: str, name: str, build: Callable[[Path], None]
) -> Path:  # fmt: skip
    """The folder ``name``, built by ``build`` once per test session (all workers together)."""
    if worker_id == "master":  # no xdist: this session's own folder
        root = factory.mktemp(name)
        build(root)
        return root
    shared = factory.getbasetemp().parent  # one per session, shared by its workers
    root, done = shared / name, shared / f"{name}.done"
    with FileLock(str(shared / f"{name}.lock")):
        if not done.exists():
            root.mkdir()
            build(root)
            done.touch()
    return root


def _build_tiny(root: Path) -> None:
    for game, (algo, extra) in TINY.items():
        run = tiny_checkpoint(root / f"{game}-run", game, algo, critic_extra=extra)
        export_bundle(run, root / f"{game}-bundle", vectors=24, seed=3)


def _build_shipped(root: Path) -> None:
    for game in SHIPPED_GAMES:
        export_bundle("bot", root / game, game=game)


@pytest.fixture(scope="session")
def tiny_bundles(
    tmp_path_factory: pytest.TempPathFactory, worker_id: str
) -> dict[str, tuple[Path, Path]]:  # fmt: skip
    """game -> (its tiny run directory, its bundle)."""
    root = _built_once(tmp_path_factory, worker_id, "tiny", _build_tiny)
    return {game: (root / f"{game}-run", root / f"{game}-bundle") for game in TINY}


@pytest.fixture(scope="session")
def shipped_bundles(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> dict[str, Path]:
    """game -> the bundle of its shipped bot (64 test vectors)."""
    root = _built_once(tmp_path_factory, worker_id, "shipped", _build_shipped)
    return {game: root / game for game in SHIPPED_GAMES}
