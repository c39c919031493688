"""What a training run's folder holds, found without torch: its checkpoint folders
(``ckpt-<update>/``, each with a ``meta.json``), for the messages that name them when a run's
``latest`` pointer is missing or damaged."""

from __future__ import annotations

from pathlib import Path

__all__ = ["checkpoints_in"]


def checkpoints_in(run_dir: Path) -> list[Path]:
    """The checkpoint folders of a run directory (``ckpt-*`` with a ``meta.json``), newest
    first."""
    found = [p for p in run_dir.glob("ckpt-*") if (p / "meta.json").is_file()]
    return sorted(found, key=lambda p: p.name, reverse=True)
